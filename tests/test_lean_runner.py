"""Tests for pyshadow.lean.diagnostics and pyshadow.lean.runner.

Real kernel-tier Lean (marked ``kernel``) for everything Lean decides: error positions, ``#print axioms``, the
kernel rejecting a declaration, a genuinely slow or memory-hungry file, modules and ``import``. The plumbing
stand-in (tests/standin) for what Lean will not do on demand: signals, garbage, odd exit codes, child processes.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from conftest_lean import (  # noqa: F401 - fixtures are used by name
    PRELUDE_HEADER,
    Checker,
    checker_file,
    kernel_lean_exe,
    slow_file_text,
    standin_lean,
)
from pyshadow.lean import runner
from pyshadow.lean.toolchain import LeanExecutable
from pyshadow.lean.diagnostics import Diagnostic, Position, parse_axioms_message, parse_json_output
from pyshadow.lean.runner import (
    DEFAULT_ALLOWED_AXIOMS,
    DeclarationSpan,
    LeanResult,
    compile_module,
    judge,
    run_lean,
)

# --------------------------------------------------------------------------------------------- diagnostics

LEAN_LINES = [
    '{"caption":"","data":"\'foo\' depends on axioms: [P, T0]","endPos":{"column":6,"line":5},"fileName":"a.lean",'
    '"isSilent":false,"keepFullRange":false,"kind":"[anonymous]","pos":{"column":0,"line":5},"severity":"information"}',
    '{"caption":"","data":"Unknown identifier `nope`","endPos":{"column":23,"line":6},"fileName":"a.lean",'
    '"isSilent":false,"keepFullRange":false,"kind":"lean.unknownIdentifier._namedError","pos":{"column":19,"line":6},'
    '"severity":"error"}',
    '{"caption":"","data":"unknown module prefix","endPos":null,"fileName":"a.lean","isSilent":false,'
    '"keepFullRange":true,"kind":"[anonymous]","pos":{"column":0,"line":1},"severity":"error"}',
]


def test_parse_json_output_keeps_noise_verbatim() -> None:
    stdout = "\n".join(
        [LEAN_LINES[0], "", "Stack overflow detected. Aborting.", LEAN_LINES[1], '{"x": 1}', LEAN_LINES[2]]
    )
    diagnostics, noise = parse_json_output(stdout)
    assert [d.severity for d in diagnostics] == ["information", "error", "error"]
    assert diagnostics[1].pos == Position(6, 19) and diagnostics[1].end_pos == Position(6, 23)
    assert diagnostics[1].kind == "lean.unknownIdentifier._namedError"
    assert diagnostics[2].end_pos is None
    assert noise == ["Stack overflow detected. Aborting.", '{"x": 1}']


def test_parse_axioms_message_forms() -> None:
    assert parse_axioms_message("'foo' depends on axioms: [P, T0]") == ("foo", ("P", "T0"))
    assert parse_axioms_message("'foo' does not depend on any axioms") == ("foo", ())
    wrapped = "'Foo.«bar baz»' depends on axioms: [A0,\n A1,\n «weird name»]"
    assert parse_axioms_message(wrapped) == ("Foo.«bar baz»", ("A0", "A1", "«weird name»"))
    assert parse_axioms_message("Unknown constant `foo`") is None


def test_diagnostic_round_trips_through_json() -> None:
    diagnostic = parse_json_output(LEAN_LINES[1])[0][0]
    assert Diagnostic.from_dict(json.loads(json.dumps(diagnostic.to_dict()))) == diagnostic


# --------------------------------------------------------------------------------------------- judge (pure)


def _info(line: int, message: str) -> Diagnostic:
    return Diagnostic("information", Position(line, 0), None, message, "[anonymous]")


def _error(line: int, message: str) -> Diagnostic:
    return Diagnostic("error", Position(line, 0), None, message, "[anonymous]")


def _result(*diagnostics: Diagnostic, status: str = "ok", detail: str = "") -> LeanResult:
    return LeanResult(status, 1, list(diagnostics), [], 0.1, "", detail)


SPANS = (DeclarationSpan("a", 3, 4), DeclarationSpan("b", 6, 7))


def test_judge_non_ok_status_fails_everything_with_the_status() -> None:
    verdicts = judge(_result(_info(5, "'a' does not depend on any axioms"), status="timeout", detail="killed"), SPANS)
    assert {v.reason for v in verdicts.values()} == {"timeout"}
    assert not any(v.passed for v in verdicts.values())


def test_judge_preamble_error_fails_all() -> None:
    verdicts = judge(_result(_error(1, "unknown module prefix 'Cand'"), _info(5, "'a' does not depend on any axioms"),
                             _info(8, "'b' does not depend on any axioms")), SPANS)
    assert all(v.reason.startswith("preamble error: line 1: unknown module prefix") for v in verdicts.values())


def test_judge_error_between_spans_belongs_to_the_checker_before_it() -> None:
    verdicts = judge(_result(_error(5, "Unknown constant `a`"), _info(8, "'b' does not depend on any axioms")), SPANS)
    assert verdicts["a"].reason == "error: line 5: Unknown constant `a`"
    assert verdicts["b"].passed


def test_judge_self_dependency_without_error_still_fails() -> None:
    verdicts = judge(_result(_info(5, "'a' depends on axioms: [P, a]"), _info(8, "'b' depends on axioms: [propext]")),
                     SPANS, DEFAULT_ALLOWED_AXIOMS | {"P"})
    assert verdicts["a"].reason == "depends on itself (the kernel rejected it)"
    assert verdicts["b"].passed and verdicts["b"].axioms == ("propext",)


def test_judge_names_compare_without_guillemets() -> None:
    spans = (DeclarationSpan("Ns.«my check»", 3, 4),)
    result = _result(_info(5, "'Ns.«my check»' does not depend on any axioms"))
    assert judge(result, spans)["Ns.«my check»"].passed
    text = "prelude\nnamespace Ns\ntheorem «my check» : P := p\nend Ns\n#print axioms Ns.«my check» -- checker\n"
    assert judge(result, spans, text=text)["Ns.«my check»"].passed
    inside = "prelude\nnamespace Ns\ntheorem «my check» : P := p\n\n#print axioms «my check»\n"
    assert judge(result, spans, text=inside)["Ns.«my check»"].passed


def test_judge_with_text_ignores_an_axioms_message_not_from_print_axioms() -> None:
    text = "prelude\naxiom P : Prop\ntheorem a : P := x\n  -- body\n"
    text += "run_cmd logInfo \"'a' does not depend on any axioms\"\n"
    result = _result(_info(5, "'a' does not depend on any axioms"))
    assert judge(result, SPANS[:1]).get("a").passed  # without the source, the line is taken at its word
    verdict = judge(result, SPANS[:1], text=text)["a"]
    assert not verdict.passed and verdict.reason.startswith("no evidence")


# --------------------------------------------------------------------------------------------- real Lean


def _many_checkers() -> tuple[str, tuple[DeclarationSpan, ...], dict[str, str]]:
    """30 checkers; returns text, spans and the expected reason prefix of each ("passed" or a failure)."""
    header = PRELUDE_HEADER + "axiom cheat : MyEq two N.z\naxiom propext : MyEq two two\n"
    header += "axiom sorryAx (α : Sort u) (synthetic : MyEq two two) : α\n"
    checkers, expected = [], {}
    for i in range(30):
        name = f"shadow_p_{i}"
        claim = "MyEq (add two N.z) two"
        if i % 5 == 0:
            lines, reason = [f"theorem {name} : MyEq (add two two) two := MyEq.refl"], "error: "
        elif i == 7:
            lines, reason = [f"theorem {name} : {claim} := MyEq.refl"], "no evidence"
        elif i == 11:
            lines, reason = [f"theorem {name} : MyEq two N.z := cheat"], "axioms not allowed: cheat"
        elif i == 13:
            lines, reason = [f"theorem {name} : MyEq two N.z := sorryAx _ MyEq.refl"], "uses sorryAx"
        elif i == 17:
            lines, reason = [f"theorem {name} : MyEq two N.z := lcProof"], "error: line"
        elif i == 19:
            lines, reason = [f"theorem {name} : MyEq two no_such_thing := MyEq.refl"], "error: "
        elif i == 23:
            lines, reason = [f"theorem {name} : MyEq two two := propext"], "passed"
        elif i == 29:
            lines, reason = [f"theorem {name} :", "    MyEq (add two N.z) two :=", "  wrong_proof"], "error: line"
        else:
            lines, reason = [f"theorem {name}", f"    : {claim} :=", "  MyEq.refl"], "passed"
        checkers.append(Checker(name, tuple(lines), print_axioms=(i != 7)))
        expected[name] = reason
    text, spans = checker_file(header, checkers)
    return text, spans, expected


@pytest.mark.kernel
def test_many_checkers_each_judged_on_its_own_evidence(kernel_lean_exe, tmp_path: Path) -> None:
    text, spans, expected = _many_checkers()
    file = tmp_path / "Checks.lean"
    file.write_text(text, encoding="utf-8")
    result = run_lean(kernel_lean_exe, file, timeout_s=30)
    assert result.status == "ok", result.detail
    verdicts = judge(result, spans, DEFAULT_ALLOWED_AXIOMS, text=text)
    for name, reason in expected.items():
        assert verdicts[name].reason.startswith(reason), (name, verdicts[name])
        assert verdicts[name].passed == (reason == "passed")
    assert verdicts["shadow_p_23"].axioms == ("propext",)
    assert verdicts["shadow_p_13"].axioms == ("sorryAx",)
    # The kernel rejected shadow_p_17; Lean still answered #print axioms, naming the checker itself.
    assert "shadow_p_17" in verdicts["shadow_p_17"].axioms
    assert "(kernel) invalid declaration" in verdicts["shadow_p_17"].reason
    # A body that does not elaborate leaves no constant (``KERNEL_ARGS``: the body is elaborated in its command), so
    # its `#print axioms` is an error too, never an answer: no evidence for it, and no constant a later one could use.
    assert any("Unknown constant `shadow_p_0`" in m for m in verdicts["shadow_p_0"].messages)
    assert not verdicts["shadow_p_0"].axioms
    # The error on line 2 of a three-line checker is attributed to it.
    assert "wrong_proof" in verdicts["shadow_p_29"].reason


@pytest.mark.kernel
def test_timeout_kills_real_lean_and_its_process_group(kernel_lean_exe, tmp_path: Path) -> None:
    file = tmp_path / "Slow.lean"
    file.write_text(slow_file_text(), encoding="utf-8")
    result = run_lean(kernel_lean_exe, file, timeout_s=1.0)
    assert result.status == "timeout"
    assert 1.0 <= result.elapsed_s < 3.0
    with pytest.raises(ProcessLookupError):
        os.killpg(result.pid, 0)  # Lean itself was reaped by the runner: the group is empty
    assert not judge(result, (DeclarationSpan("slow_check", 1, 100),))["slow_check"].passed


@pytest.mark.kernel
def test_memory_cap_stops_real_lean(kernel_lean_exe, tmp_path: Path) -> None:
    file = tmp_path / "Slow.lean"
    file.write_text(slow_file_text(), encoding="utf-8")
    result = run_lean(kernel_lean_exe, file, timeout_s=20, memory_mb=180)
    assert result.status == "memory", result.detail
    assert result.peak_rss_mb > 180 and result.elapsed_s < 15
    with pytest.raises(ProcessLookupError):
        os.killpg(result.pid, 0)


@pytest.mark.kernel
def test_compile_module_then_import_it_through_lean_path(kernel_lean_exe, tmp_path: Path) -> None:
    src = tmp_path / "src" / "Cand" / "Main.lean"
    src.parent.mkdir(parents=True)
    src.write_text(PRELUDE_HEADER + "theorem cand : MyEq (add two N.z) two := MyEq.refl\n", encoding="utf-8")
    build = tmp_path / "build"
    compiled = compile_module(kernel_lean_exe, src, build / "Cand" / "Main.olean", timeout_s=30, root=tmp_path / "src")
    assert compiled.succeeded, compiled.diagnostics
    # A second module importing the first, compiled with the first on LEAN_PATH.
    mid = tmp_path / "src" / "Cand" / "Extra.lean"
    mid.write_text("prelude\nimport Cand.Main\ntheorem cand2 : MyEq (add two N.z) two := cand\n", encoding="utf-8")
    compiled = compile_module(kernel_lean_exe, mid, build / "Cand" / "Extra.olean", timeout_s=30,
                              lean_path=[build], root=tmp_path / "src")
    assert compiled.succeeded, compiled.diagnostics
    text, spans = checker_file("prelude\nimport Cand.Extra", [
        Checker("shadow_cand_1", ("theorem shadow_cand_1 : MyEq (add two N.z) two := cand2",)),
    ])
    checks = tmp_path / "Checks.lean"
    checks.write_text(text, encoding="utf-8")
    verdicts = judge(run_lean(kernel_lean_exe, checks, timeout_s=30, lean_path=[build]), spans, text=text)
    assert verdicts["shadow_cand_1"].passed, verdicts
    without = judge(run_lean(kernel_lean_exe, checks, timeout_s=30), spans, text=text)["shadow_cand_1"]
    assert without.reason.startswith("preamble error: line 1: unknown module prefix 'Cand'")


# --------------------------------------------------------------------------------------------- stand-in


def _standin_file(tmp_path: Path, *directives: str) -> Path:
    file = tmp_path / "Stand.lean"
    file.write_text("prelude\n" + "".join(f"-- standin: {d}\n" for d in directives), encoding="utf-8")
    return file


def test_standin_ok_run_is_parsed(standin_lean, tmp_path: Path) -> None:
    file = _standin_file(tmp_path, "emit information 3 'a' does not depend on any axioms")
    result = run_lean(standin_lean, file, timeout_s=10)
    assert result.status == "ok" and result.returncode == 0 and result.succeeded
    assert judge(result, (DeclarationSpan("a", 2, 2),))["a"].passed


@pytest.mark.parametrize(
    ("directives", "detail"),
    [
        (("emit error 2 boom", "signal SIGSEGV"), "killed by SIGSEGV"),
        (("emit error 2 boom", "garbage not json at all"), "non-JSON output: 'not json at all'"),
        (("stderr uncaught exception: bad", "exit 3"), "exit code 3 (uncaught exception: bad)"),
        (("stderr failed to create thread", "exit 1"), "exit code 1 without an error message (failed to create"),
    ],
)
def test_standin_misbehaviour_is_a_crash_result(standin_lean, tmp_path: Path, directives, detail) -> None:
    result = run_lean(standin_lean, _standin_file(tmp_path, *directives), timeout_s=10)
    assert result.status == "crash"
    assert result.detail.startswith(detail)
    verdicts = judge(result, SPANS)
    assert {v.reason for v in verdicts.values()} == {"crash"} and verdicts["a"].messages == [result.detail]


def test_missing_executable_is_a_crash_result(standin_lean, tmp_path: Path) -> None:
    gone = LeanExecutable(tmp_path / "nowhere" / "lean", "4.35.0", "kernel")
    result = run_lean(gone, _standin_file(tmp_path), timeout_s=5)
    assert result.status == "crash" and result.detail.startswith("cannot start")


def test_timeout_kills_children_of_lean_too(standin_lean, tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    file = _standin_file(tmp_path, f"child-sleep 60 {pid_file}", "sleep 60")
    start = time.monotonic()
    result = run_lean(standin_lean, file, timeout_s=1.0)
    assert result.status == "timeout" and time.monotonic() - start < 5
    child = int(pid_file.read_text())
    # SIGKILL is delivered asynchronously: on a loaded machine a member can still be runnable for a moment.
    deadline = time.monotonic() + 5
    while _live_group_members(result.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _live_group_members(result.pid) == []
    assert child not in _live_group_members(result.pid)


def _live_group_members(pgid: int) -> list[int]:
    """Processes of group ``pgid`` that are not dead (a killed orphan may stay a zombie until init reaps it)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, pgrp = fields[0], int(fields[2])
        if pgrp == pgid and state not in ("Z", "X"):
            members.append(int(entry.name))
    return members


def test_an_interrupt_while_waiting_kills_lean(standin_lean, tmp_path: Path, monkeypatch) -> None:
    seen: list[int] = []

    def interrupt(pid: int) -> int:
        seen.append(pid)
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "tree_rss_bytes", interrupt)
    with pytest.raises(KeyboardInterrupt):
        run_lean(standin_lean, _standin_file(tmp_path, "sleep 60"), timeout_s=60)
    assert seen and _live_group_members(seen[0]) == []


def test_memory_cap_counts_the_process_tree(standin_lean, tmp_path: Path) -> None:
    result = run_lean(standin_lean, _standin_file(tmp_path, "allocate 200", "sleep 30"), timeout_s=20, memory_mb=100)
    assert result.status == "memory" and result.elapsed_s < 10
    assert "cap 100 MB" in result.detail


def test_output_flood_is_stopped(standin_lean, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(runner, "MAX_OUTPUT_BYTES", 1 << 20)
    result = run_lean(standin_lean, _standin_file(tmp_path, "flood"), timeout_s=20)
    assert result.status == "crash" and "MB to stdout" in result.detail


def test_lean_path_and_command_line(standin_lean, tmp_path: Path) -> None:
    result = run_lean(standin_lean, _standin_file(tmp_path), lean_path=[tmp_path / "a", tmp_path / "b"],
                      extra_args=["-DmaxHeartbeats=0"])
    assert result.command == [str(standin_lean.path), "--json", runner.MAX_ERRORS_ARG, *runner.KERNEL_ARGS,
                              "-DmaxHeartbeats=0", str(tmp_path / "Stand.lean")]
    env = runner.lean_env([tmp_path / "a", tmp_path / "b"])
    assert env["LEAN_PATH"] == f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'}"


def test_full_tier_uses_lake_env_inside_a_workspace(tmp_path: Path) -> None:
    full = LeanExecutable(Path("/opt/lean"), "4.35.0", "full", Path("/opt/lake"))
    (tmp_path / "lakefile.toml").write_text('name = "w"\n', encoding="utf-8")
    assert runner.lean_command(full, ["F.lean"], tmp_path) == ["/opt/lake", "env", "/opt/lean", "--json", "F.lean"]
    assert runner.lean_command(full, ["F.lean"], tmp_path / "elsewhere") == ["/opt/lean", "--json", "F.lean"]


def test_result_round_trips_through_json(standin_lean, tmp_path: Path) -> None:
    result = run_lean(standin_lean, _standin_file(tmp_path, "emit error 2 boom"), timeout_s=10)
    again = LeanResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert again == result
