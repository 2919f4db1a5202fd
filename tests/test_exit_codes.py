"""The README's exit-code table, one test per row, across commands; and the one behaviour for bad entries (a data
row, the run goes on) in every command that reads entries.

Inputs are the bundled problems (real core-Lean references) and broken copies of them written here: a problem.toml
with a bad field, a declared target whose statement does not parse, a corpus line that is not JSON.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

import pyshadow.commands.common as common_command
import pyshadow.lean.toolchain as toolchain
from pyshadow.cli import main
from pyshadow.errors import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_NEGATIVE, EXIT_OK, EXIT_UNAVAILABLE
from pyshadow.paths import PROBLEMS_DIR

GOOD = "theorem t (a b : Nat) : a + b = b + a ∧ a ≤ a + b := sorry"


def _cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _problems(root: Path, *, broken_toml: bool = False, bad_target: bool = False) -> Path:
    """A problem set: nat_pos_facts (good), plus a problem whose problem.toml or target is broken."""
    shutil.copytree(PROBLEMS_DIR / "nat_pos_facts", root / "nat_pos_facts", ignore=shutil.ignore_patterns("candidates"))
    if broken_toml:
        (root / "broken").mkdir()
        (root / "broken" / "problem.toml").write_text('id = "broken"\nlevel = "L9"\n', encoding="utf-8")
    if bad_target:
        folder = root / "nat_double_add"
        shutil.copytree(PROBLEMS_DIR / "nat_double_add", folder, ignore=shutil.ignore_patterns("candidates"))
        toml = folder / "problem.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace("Doubling.double_add", "Doubling.bad_one"),
                        encoding="utf-8")
        with open(folder / "Reference.lean", "a", encoding="utf-8") as ref:  # declared, but `↔` does not chain
            ref.write("\ntheorem Doubling.bad_one (a : Nat) :\n    a = a ↔ a = a ↔ a = a := sorry\n")
    return root


def _corpus(path: Path, *lines: str) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------------------------
# 0: done, every verdict the hoped one


@pytest.mark.kernel
def test_exit_0_when_done_and_every_verdict_is_hoped(tmp_path, capsys, kernel_lean_exe):
    problems = _problems(tmp_path / "problems")
    assert _cli(capsys, "verify", problems, "--tier", "kernel", "-j", "1")[0] == EXIT_OK
    assert _cli(capsys, "generate", problems, "-o", tmp_path / "ws")[0] == EXIT_OK
    corpus = _corpus(tmp_path / "c.jsonl", json.dumps({"id": "a", "statement": GOOD}))
    assert _cli(capsys, "parse", corpus)[0] == EXIT_OK


@pytest.mark.kernel
def test_exit_0_on_a_dask_cluster_too_and_each_lean_command_names_the_backend(tmp_path, capsys, kernel_lean_exe):
    """``--backend dask`` (a LocalCluster, as in tests/test_backends.py): the same exit code and report as the
    local run, plus one ``backend: dask (…)`` line; the default local backend prints none."""
    pytest.importorskip("dask.distributed")
    problems = _problems(tmp_path / "problems")
    corpus = _corpus(tmp_path / "c.jsonl", json.dumps({"id": "a", "statement": GOOD}))
    named = "backend: dask (LocalCluster on this machine, 1 worker)"
    for argv in (["verify", problems, "--tier", "kernel"], ["selfcheck", corpus],
                 ["check-problem", problems / "nat_pos_facts", "--tier", "kernel"]):
        local = tmp_path / f"{argv[0]}-local.jsonl"
        code, out, _ = _cli(capsys, *argv, "-j", "1", *(["-o", local] if argv[0] != "check-problem" else []))
        assert code == EXIT_OK and not [line for line in out.splitlines() if line.startswith("backend:")], out
        on_dask = tmp_path / f"{argv[0]}-dask.jsonl"
        code, out_dask, _ = _cli(capsys, *argv, "-j", "1", "--backend", "dask",
                                 *(["-o", on_dask] if argv[0] != "check-problem" else []))
        assert code == EXIT_OK and out_dask.splitlines().count(named) == 1, out_dask
        assert [line for line in out_dask.splitlines() if line != named] == out.splitlines()
        if argv[0] != "check-problem":
            assert on_dask.read_bytes() == local.read_bytes()


# ---------------------------------------------------------------------------------------------------------------
# 1: internal error, one line


def test_exit_1_is_an_internal_error_in_one_line(tmp_path, capsys, monkeypatch):
    import pyshadow.commands.parse as parse_command

    def boom(entry):
        raise RuntimeError("a bug")

    monkeypatch.setattr(parse_command, "parse_entry", boom)
    corpus = _corpus(tmp_path / "c.jsonl", json.dumps({"id": "a", "statement": GOOD}))
    code, _, err = _cli(capsys, "parse", corpus)
    assert code == EXIT_INTERNAL and err == "pyshadow parse: internal error: RuntimeError: a bug\n"


# ---------------------------------------------------------------------------------------------------------------
# 2: bad input — an empty input everywhere, no entry that loads


@pytest.mark.parametrize("command", ["run", "verify", "generate", "export", "robustness", "score"])
def test_exit_2_for_an_empty_problems_folder_in_every_command(tmp_path, capsys, command):
    empty = tmp_path / "problems"
    empty.mkdir()
    candidates = _corpus(tmp_path / "cands.jsonl", json.dumps({"problem_id": "x", "system": "s", "code": "x"}))
    argv = {
        "run": ["run", empty, "-o", tmp_path / "ws"],
        "verify": ["verify", empty],
        "generate": ["generate", empty, "-o", tmp_path / "ws"],
        "export": ["export", empty, "--public", tmp_path / "pub"],
        "robustness": ["robustness", empty, "-o", tmp_path / "rep"],
        "score": ["score", empty, candidates, "-o", tmp_path / "r.jsonl"],
    }[command]
    code, out, err = _cli(capsys, *argv)
    assert code == EXIT_BAD_INPUT, out + err
    assert err.count("\n") == 1 and "no problems found" in err


@pytest.mark.parametrize("command", ["parse", "shadows", "selfcheck"])
def test_exit_2_for_an_empty_corpus_in_every_command(tmp_path, capsys, command):
    corpus = _corpus(tmp_path / "empty.jsonl")
    code, out, err = _cli(capsys, command, corpus)
    assert code == EXIT_BAD_INPUT and out == "" and "empty.jsonl: no entries" in err


def test_exit_2_for_an_empty_candidates_folder(tmp_path, capsys):
    (tmp_path / "cands").mkdir()
    code, _, err = _cli(capsys, "score", PROBLEMS_DIR, tmp_path / "cands", "-o", tmp_path / "r.jsonl",
                        "--tier", "kernel")
    assert code == EXIT_BAD_INPUT and "no candidates found" in err


@pytest.mark.parametrize("command", ["run", "verify", "generate"])
def test_exit_2_when_no_problem_loads(tmp_path, capsys, command):
    root = tmp_path / "problems"
    (root / "broken").mkdir(parents=True)
    (root / "broken" / "problem.toml").write_text('id = "broken"\nlevel = "L9"\n', encoding="utf-8")
    argv = [command, root] + (["-o", tmp_path / "ws"] if command != "verify" else [])
    code, _, err = _cli(capsys, *argv)
    assert code == EXIT_BAD_INPUT and "no problem in" in err and "loads" in err


# ---------------------------------------------------------------------------------------------------------------
# 3: a needed tool is unavailable


@pytest.mark.kernel
def test_exit_3_for_a_tier_from_the_environment_and_an_option_given_wins(tmp_path, capsys, monkeypatch,
                                                                          kernel_lean_exe):
    """The commands build their settings as the API does (``Settings.from_args``): ``PYSHADOW_TIER=full`` where no
    full toolchain is asks for the full tier (exit 3); ``--tier kernel`` on the command line wins over it."""
    monkeypatch.setattr(common_command, "find_full_toolchain", lambda: None)
    monkeypatch.setenv("PYSHADOW_TIER", "full")
    problems = _problems(tmp_path / "problems")
    code, out, err = _cli(capsys, "verify", problems, "-j", "1")
    assert code == EXIT_UNAVAILABLE and out == "" and "full tier cannot run here" in err
    assert _cli(capsys, "verify", problems, "-j", "1", "--tier", "kernel")[0] == EXIT_OK
    monkeypatch.setenv("PYSHADOW_JOBS", "x")  # a variable that cannot be read: one line naming it, exit 2
    code, out, err = _cli(capsys, "verify", problems, "--tier", "kernel")
    assert (code, out, err) == (EXIT_BAD_INPUT, "", "pyshadow verify: error: PYSHADOW_JOBS: expected a whole "
                                                    "number, got 'x'\n")


@pytest.mark.parametrize("argv", [["verify", "--tier", "kernel"], ["check-problem", "{one}", "--tier", "kernel"],
                                  ["selfcheck", "{corpus}"], ["run", "-o", "{ws}"]])
def test_exit_3_when_the_kernel_tier_is_unavailable(tmp_path, capsys, monkeypatch, argv):
    def unavailable():
        raise toolchain.KernelTierUnavailable("no C compiler to link the kernel-tier lean (test)")

    monkeypatch.setattr(common_command, "find_full_toolchain", lambda: None)
    monkeypatch.setattr(common_command, "kernel_lean", unavailable)
    import pyshadow.commands.selfcheck as selfcheck_command

    monkeypatch.setattr(selfcheck_command, "kernel_lean", unavailable)
    problems = _problems(tmp_path / "problems")
    corpus = _corpus(tmp_path / "c.jsonl", json.dumps({"id": "a", "statement": GOOD}))
    filled = [a.format(one=problems / "nat_pos_facts", corpus=corpus, ws=tmp_path / "ws") for a in argv]
    if filled[0] in ("verify", "run"):
        filled.insert(1, str(problems))
    code, out, err = _cli(capsys, *filled)
    assert code == EXIT_UNAVAILABLE, out + err
    assert err.count("\n") == 1 and "no C compiler to link the kernel-tier lean" in err


def test_exit_3_when_the_ray_backend_is_not_installed(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails, as on a machine without Ray
    corpus = _corpus(tmp_path / "c.jsonl", json.dumps({"id": "a", "statement": GOOD}))
    code, _, err = _cli(capsys, "selfcheck", corpus, "--backend", "ray")
    assert code == EXIT_UNAVAILABLE and err.count("\n") == 1 and "needs Ray" in err


# ---------------------------------------------------------------------------------------------------------------
# 4: done, verdict negative — and bad entries are rows, the run goes on


@pytest.mark.kernel
def test_exit_4_a_bad_problem_is_a_row_in_verify_run_and_generate(tmp_path, capsys, kernel_lean_exe):
    problems = _problems(tmp_path / "problems", broken_toml=True, bad_target=True)

    code, out, err = _cli(capsys, "verify", problems, "--tier", "kernel", "-j", "1")
    assert code == EXIT_NEGATIVE, out + err
    assert "nat_pos_facts                    complete" in out
    assert "nat_double_add                   incomplete" in out
    assert "  Doubling.bad_one: the reference statement does not parse: unexpected '↔'" in out
    assert out.splitlines()[-1] == "verified 3 problems (kernel tier): 1/3 complete"

    code, out, err = _cli(capsys, "run", problems, "-o", tmp_path / "ws", "-j", "1")
    assert code == EXIT_NEGATIVE, out + err
    assert "skipped problem:" in out and "no checkers for nat_double_add" in out
    assert out.splitlines()[-1].startswith("3 problems: 1/3 complete (kernel tier)")

    code, out, err = _cli(capsys, "generate", problems, "-o", tmp_path / "ws2")
    assert code == EXIT_NEGATIVE and "2 problems left out" in out
    manifest = json.loads((tmp_path / "ws2" / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(manifest["problems"]) == ["nat_pos_facts"]


@pytest.mark.kernel
def test_exit_4_identity_shadow_only_is_something_to_fix_for_check_problem(tmp_path, capsys, kernel_lean_exe):
    folder = tmp_path / "nat_exists_greater"
    shutil.copytree(PROBLEMS_DIR / "nat_exists_greater", folder)
    code, out, _ = _cli(capsys, "check-problem", folder, "--tier", "kernel", "-j", "1")
    assert code == EXIT_NEGATIVE
    assert out.rstrip().splitlines()[-1].startswith("complete (identity shadow only): nat_exists_greater has 1")
    code, out, _ = _cli(capsys, "verify", tmp_path, "--tier", "kernel", "-j", "1")
    assert code == EXIT_OK and "nat_exists_greater               complete (identity shadow only)" in out


def test_bad_corpus_lines_are_rows_in_parse_and_shadows(tmp_path, capsys):
    corpus = _corpus(tmp_path / "c.jsonl", json.dumps({"id": "a", "statement": GOOD}), "{oops",
                     json.dumps({"id": "b"}))
    for command, last in (("parse", "parsed 1/3 statements (33.3%)"), ("shadows", "decomposed 1/3, atomic 0, errors 2")):
        out_path = tmp_path / f"{command}.jsonl"
        code, out, err = _cli(capsys, command, corpus, "-o", out_path)
        assert code == EXIT_OK and err == "" and out.splitlines()[-1] == last
        rows = [json.loads(line) for line in out_path.read_text(encoding="utf-8").splitlines()]
        assert [r["id"] for r in rows] == ["a", "<line 2>", "b"]


@pytest.mark.kernel
def test_bad_corpus_lines_are_rows_in_selfcheck(tmp_path, capsys, kernel_lean_exe):
    corpus = _corpus(tmp_path / "c.jsonl", json.dumps({"id": "a", "statement": GOOD}), "{oops")
    out_path = tmp_path / "report.jsonl"
    code, out, _ = _cli(capsys, "selfcheck", corpus, "-o", out_path, "-j", "1")
    assert code == EXIT_OK
    assert "kernel-checked 1/1 statements" in out and "1 not checkable" in out
    rows = {r["id"]: r for r in map(json.loads, out_path.read_text(encoding="utf-8").splitlines())}
    assert rows["<line 2>"]["status"] == "error" and "not valid JSON" in rows["<line 2>"]["error"]


# ---------------------------------------------------------------------------------------------------------------
# 130: interrupted, rows kept, rerun resumes; 141: the reader closed the pipe; a results file another run writes


def test_exit_130_says_how_many_rows_were_kept_and_how_to_resume(tmp_path, capsys, monkeypatch):
    from pyshadow.jsonl import AppendLog

    class Row:
        def to_dict(self):
            return {"id": "r"}

    def interrupted_handler(_args):
        with AppendLog(tmp_path / "results.jsonl") as log:
            for _ in range(3):
                log.append(Row())
            raise KeyboardInterrupt

    monkeypatch.setattr("pyshadow.commands.parse.run", interrupted_handler)
    code, _out, err = _cli(capsys, "parse", tmp_path / "corpus.jsonl")
    assert code == 130
    assert err.strip() == (f"pyshadow parse: interrupted; 3 new rows kept in {tmp_path / 'results.jsonl'}; "
                           "rerun the same command to resume")
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 3


def test_exit_141_quietly_when_the_reader_closes_the_pipe(tmp_path):
    import os
    import subprocess

    # a command whose output outlives its reader (as `pyshadow score … | head -n 1`)
    script = ("import sys, pyshadow.cli as cli, pyshadow.commands.parse as parse\n"
              "parse.run = lambda args: [print('row ' * 20) for _ in range(200000)] and 0\n"
              "sys.exit(cli.main(['parse', 'corpus.jsonl']))\n")
    env = {**os.environ, "SCRIPT": script, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    shell = subprocess.run(f'{sys.executable} -c "$SCRIPT" | head -n 1; echo "status ${{PIPESTATUS[0]}}"',
                           shell=True, executable="/bin/bash", capture_output=True, text=True, timeout=120,
                           cwd=tmp_path, env=env)
    lines = shell.stdout.splitlines()
    assert lines[0].startswith("row ") and lines[-1] == "status 141", shell.stdout[-200:]
    assert shell.stderr == "", shell.stderr


def test_a_results_file_another_run_is_writing_is_refused(tmp_path):
    from pyshadow.errors import BadInput
    from pyshadow.jsonl import AppendLog

    path = tmp_path / "results.jsonl"
    with AppendLog(path):
        with pytest.raises(BadInput, match="another run is writing this file"):
            with AppendLog(path):
                pass
    with AppendLog(path):  # released when the first run ends
        pass
