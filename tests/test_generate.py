"""``pyshadow generate``: the Lake workspace it writes, its determinism, its manifest, residuals, LLM, bad input.

No Lean runs here: whether the generated files elaborate needs a full toolchain (``@pytest.mark.lean`` at the end).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from pyshadow.references import reference_as_axioms

import pyshadow.cli
from pyshadow.references import target_declaration
from pyshadow.llm.fakeserver import FakeChatServer, Reply
from pyshadow.paths import LEAN_TOOLCHAIN_FILE, PROBLEMS_DIR
from pyshadow.problems import load_problems, reference_text
from pyshadow.shadows import decompose
from pyshadow.references import checker_ids
from pyshadow.workspace import in_own_namespace, mathlib_rev, module_name, module_names, root_declarations
from pyshadow.errors import BadInput

PROBLEM_TOML = """\
id = "{id}"
area = "arithmetic"
level = "L1"
source = "test"
imports = {imports}
reference = "Reference.lean"
targets = {targets}

[informal]
statement = "A test problem."
{extra}"""

CORE_REFERENCE = """\
namespace Tiny

/-- Two facts. -/
theorem facts (n : Nat) (h : 0 < n) : n ≠ 0 ∧ 1 ≤ n := ⟨by omega, h⟩

/-- An atomic one. -/
theorem exists_gt (n : Nat) : ∃ m, n < m := ⟨n + 1, Nat.lt_succ_self n⟩

end Tiny
"""


def make_problem(root: Path, pid: str, reference: str = CORE_REFERENCE, targets=("Tiny.facts", "Tiny.exists_gt"),
                 imports=(), extra: str = "") -> Path:
    folder = root / pid
    folder.mkdir(parents=True)
    (folder / "Reference.lean").write_text(reference, encoding="utf-8")
    (folder / "problem.toml").write_text(
        PROBLEM_TOML.format(id=pid, imports=json.dumps(list(imports)), targets=json.dumps(list(targets)), extra=extra),
        encoding="utf-8",
    )
    return folder


def run_generate(*argv) -> int:
    """``pyshadow.cli.main`` with only this command registered (other commands may be mid-change)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pyshadow.cli, "COMMAND_MODULES", ["generate"])
        return pyshadow.cli.main(["generate", *map(str, argv)])


@pytest.fixture
def cli(monkeypatch):
    for name in ("PYSHADOW_LLM_BASE_URL", "PYSHADOW_LLM_MODEL", "PYSHADOW_LLM_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return run_generate


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------------------------------------------------------
# The bundled problems


@pytest.fixture(scope="module")
def bundled_workspace(tmp_path_factory):
    out = tmp_path_factory.mktemp("ws") / "workspace"
    assert run_generate(PROBLEMS_DIR, "-o", out) == 0
    problems, errors = load_problems(PROBLEMS_DIR)
    assert not errors
    return out, problems, json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def test_bundled_layout(bundled_workspace):
    out, problems, manifest = bundled_workspace
    files = tree(out)
    expected = {"lakefile.toml", "lean-toolchain", "Checkers.lean", "manifest.json"}
    for p in problems:
        expected |= {f"Checkers/{module_name(p.id)}/{kind}.lean" for kind in ("Reference", "Forward", "Backward")}
    assert set(files) == expected
    assert files["lean-toolchain"] == LEAN_TOOLCHAIN_FILE.read_bytes()
    for p in problems:
        module = module_name(p.id)
        # the reference verbatim, but for targets proved with `sorry`: stated as axioms (issue #16, class 6)
        reference = p.reference.read_text(encoding="utf-8")
        expected_reference = reference_as_axioms(reference, p.targets, only_admitted=True)
        written = expected_reference
        if root_declarations(reference):  # issue #26: root names inside the checkers' namespace, no clash
            written = in_own_namespace(expected_reference, f"PyShadow.Checkers.{module}")
        assert files[f"Checkers/{module}/Reference.lean"] == written.encode()
        assert (expected_reference == reference) == ("sorry" not in reference)
        for kind in ("Forward", "Backward"):
            text = files[f"Checkers/{module}/{kind}.lean"].decode()
            lines = text.splitlines()
            imports = [line for line in lines if line.startswith("import ")]
            assert imports == [f"import {m}" for m in p.imports] + [f"import Checkers.{module}.Reference"]
            assert lines[: len(imports)] == imports  # imports come first
            assert lines[len(imports) + 1] == "/-!" and f"# {kind} " in lines[len(imports) + 2]
            assert f"\nnamespace PyShadow.Checkers.{module}\n" in text
            assert text.endswith(f"\nend PyShadow.Checkers.{module}\n")
            # every named checker is followed by its #print axioms
            names = re.findall(r"^theorem (\S+)", text, re.M)
            assert re.findall(r"^#print axioms (\S+)$", text, re.M) == names
    root = files["Checkers.lean"].decode()
    assert [line for line in root.splitlines() if line.startswith("import")] == [
        f"import Checkers.{module_name(p.id)}.{kind}" for p in problems for kind in ("Reference", "Forward", "Backward")
    ]
    assert manifest["mathlib"] == "v4.35.0"


def test_bundled_lakefile_requires_mathlib_at_the_toolchain_tag(bundled_workspace):
    out, _, _ = bundled_workspace
    lakefile = (out / "lakefile.toml").read_text(encoding="utf-8")
    assert '[[require]]\nname = "mathlib"\nscope = "leanprover-community"\nrev = "v4.35.0"\n' in lakefile
    assert '[[lean_lib]]\nname = "Checkers"\n' in lakefile and 'defaultTargets = ["Checkers"]' in lakefile
    assert mathlib_rev(LEAN_TOOLCHAIN_FILE.read_text()) == "v4.35.0"


def test_manifest_hashes_and_spans(bundled_workspace):
    out, problems, manifest = bundled_workspace
    assert set(manifest["problems"]) == {p.id for p in problems}
    for rel, digest in manifest["files"].items():
        assert hashlib.sha256((out / rel).read_bytes()).hexdigest() == digest
    assert "manifest.json" not in manifest["files"]
    count = 0
    for entry in manifest["problems"].values():
        for target in entry["targets"]:
            for checker in target["checkers"]:
                lines = (out / checker["file"]).read_text(encoding="utf-8").split("\n")
                first, last = checker["lines"]
                text = "\n".join(lines[first - 1 : last])
                assert hashlib.sha256(text.encode()).hexdigest() == checker["sha256"]
                assert lines[last + 1] == f"#print axioms {checker['name']}"
                assert checker["qualified_name"] == f"{entry['namespace']}.{checker['name']}"
                count += 1
            for shadow in target["shadows"]:
                assert set(shadow) == {"index", "kind", "path", "statement", "provenance"}
    assert count == sum(1 for _ in re.finditer("#print axioms", "".join(
        (out / f).read_text(encoding="utf-8") for f in manifest["files"] if f.endswith(("Forward.lean", "Backward.lean")))))


def test_residual_listing_is_exactly_the_residual_decompositions(bundled_workspace):
    _, problems, manifest = bundled_workspace
    expected = []
    for p in problems:
        src = reference_text(p)
        for target in p.targets:
            if decompose(target_declaration(src, target), mathlib=p.needs_mathlib).residual:
                expected.append({"problem": p.id, "target": target})
    assert manifest["residual_targets"] == expected and expected
    for p in problems:
        entry = manifest["problems"][p.id]
        assert entry["residual_targets"] == [r["target"] for r in expected if r["problem"] == p.id]
        for target in entry["targets"]:
            has_certificate = any(c["kind"] == "backward" for c in target["checkers"])
            assert target["residual"] is (not has_certificate) and target["llm"] is None


def test_expert_shadows_in_the_manifest(bundled_workspace):
    _, _, manifest = bundled_workspace
    saddle = manifest["problems"]["saddle_point_derivatives"]["targets"][0]
    assert [(s["path"], s["provenance"]) for s in saddle["shadows"]] == [
        (".1", ["generated", "expert"]), (".2", ["generated", "expert"])]
    parity = manifest["problems"]["nat_not_even_and_odd"]["targets"][0]
    assert parity["shadows"][1] == {"index": 2, "kind": "llm", "path": None, "statement": "n % 2 = 0 → n % 2 ≠ 1",
                                    "provenance": ["llm:gpt-oss-120b"]}


def test_several_targets_get_distinct_checker_names(bundled_workspace):
    out, _, manifest = bundled_workspace
    names = [c["name"] for t in manifest["problems"]["nat_dvd_facts"]["targets"] for c in t["checkers"]]
    assert names == ["shadow_nat_dvd_facts_dvd_add_of_dvd_1", "shadow_nat_dvd_facts_dvd_trans_of_dvd_1",
                     "shadow_nat_dvd_facts_dvd_mul_of_self_1"]
    forward = (out / "Checkers/NatDvdFacts/Forward.lean").read_text(encoding="utf-8")
    assert "exact @Divisibility.dvd_add_of_dvd a b c hb hc" in forward  # fully qualified target
    assert "\nopen Divisibility\n" in forward


def test_context_opens_and_universes(bundled_workspace):
    out, _, _ = bundled_workspace
    text = (out / "Checkers/FiniteImpliesProjective/Forward.lean").read_text(encoding="utf-8")
    assert "\nuniverse u\n" in text and "\nopen CategoryTheory AlgebraicGeometry\nopen ProjectiveMorphisms\n" in text
    gaussian = (out / "Checkers/GaussianTruncationLimit/Forward.lean").read_text(encoding="utf-8")
    assert "\nuniverse u_1 u_2\n" in gaussian and "\nopen scoped Topology\n" in gaussian
    assert "\nset_option autoImplicit false\n" in text


# ---------------------------------------------------------------------------------------------------------------
# Small problem folders


def test_core_only_workspace_has_no_mathlib(tmp_path, cli, capsys):
    make_problem(tmp_path / "problems", "tiny")
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 0
    lakefile = (tmp_path / "ws" / "lakefile.toml").read_text(encoding="utf-8")
    assert "require" not in lakefile and "mathlib" not in lakefile
    manifest = json.loads((tmp_path / "ws" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["mathlib"] is None
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "[1/1] tiny: 2 targets, 3 shadows, 3 forward + 1 backward checkers, 1 residual"
    assert out[1:3] == ["residual targets (identity shadow only; --llm none): 1", "  tiny: Tiny.exists_gt"]
    assert out[-1].startswith("generated 1 problems, 2 targets (1 decomposed, 1 residual), 3 shadows, 4 checkers into ")
    assert out[-1].endswith(": 7 files written, 0 unchanged, 0 removed")


def test_mathlib_problem_switches_mathlib_on(tmp_path, cli):
    make_problem(tmp_path / "problems", "tiny")
    make_problem(tmp_path / "problems", "real_one", reference="import Mathlib\n\ntheorem r (x : ℝ) : x = x := rfl\n",
                 targets=("r",), imports=("Mathlib",))
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 0
    assert 'rev = "v4.35.0"' in (tmp_path / "ws" / "lakefile.toml").read_text(encoding="utf-8")
    forward = (tmp_path / "ws" / "Checkers/RealOne/Forward.lean").read_text(encoding="utf-8")
    assert forward.startswith("import Mathlib\nimport Checkers.RealOne.Reference\n")
    assert "le_antisymm" in (tmp_path / "ws" / "Checkers/RealOne/Backward.lean").read_text(encoding="utf-8")


def test_rerun_is_byte_identical_and_rewrites_nothing(tmp_path, cli, capsys):
    problems, ws = tmp_path / "problems", tmp_path / "ws"
    make_problem(problems, "tiny")
    make_problem(problems, "other", reference=CORE_REFERENCE.replace("Tiny", "Other"),
                 targets=("Other.facts", "Other.exists_gt"))
    assert cli(problems, "-o", ws) == 0
    before = tree(ws)
    past = 1_000_000_000
    for path in ws.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(past, past))
    capsys.readouterr()
    assert cli(problems, "-o", ws) == 0
    assert tree(ws) == before
    assert all(p.stat().st_mtime_ns == past for p in ws.rglob("*") if p.is_file())
    assert capsys.readouterr().out.splitlines()[-1].endswith(": 0 files written, 10 unchanged, 0 removed")

    # An edit to one problem rewrites its files and the manifest only.
    reference = problems / "tiny" / "Reference.lean"
    reference.write_text(reference.read_text().replace("1 ≤ n", "n ≥ 1"), encoding="utf-8")
    assert cli(problems, "-o", ws) == 0
    changed = {rel for rel, data in tree(ws).items() if before.get(rel) != data}
    assert changed == {"Checkers/Tiny/Reference.lean", "Checkers/Tiny/Forward.lean", "Checkers/Tiny/Backward.lean",
                       "manifest.json"}
    assert (ws / "lakefile.toml").stat().st_mtime_ns == past


def test_removed_problem_files_are_removed(tmp_path, cli, capsys):
    problems, ws = tmp_path / "problems", tmp_path / "ws"
    make_problem(problems, "tiny")
    make_problem(problems, "other", reference=CORE_REFERENCE.replace("Tiny", "Other"),
                 targets=("Other.facts",))
    assert cli(problems, "-o", ws) == 0
    (ws / "notes.txt").write_text("mine", encoding="utf-8")
    shutil.rmtree(problems / "other")
    capsys.readouterr()
    assert cli(problems, "-o", ws) == 0
    assert not (ws / "Checkers" / "Other").exists() and (ws / "notes.txt").read_text() == "mine"
    assert capsys.readouterr().out.splitlines()[-1].endswith("3 removed")
    assert "Other" not in (ws / "Checkers.lean").read_text(encoding="utf-8")


def test_expert_shadows_merge_in_file_order(tmp_path, cli):
    extra = (
        '\n[[shadows]]\ntarget = "Tiny.exists_gt"\nstatement = "∃ m, m > n"\n'
        '\n[[shadows]]\ntarget = "Tiny.facts"\nstatement = "n ≠ 0"\n'
        '\n[[shadows]]\ntarget = "Tiny.facts"\nstatement = "n * 1 = n"\nprovenance = "llm:m2"\n'
    )
    make_problem(tmp_path / "problems", "tiny", extra=extra)
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 0
    manifest = json.loads((tmp_path / "ws" / "manifest.json").read_text(encoding="utf-8"))
    facts, exists = manifest["problems"]["tiny"]["targets"]
    assert [(s["kind"], s["path"], s["provenance"]) for s in facts["shadows"]] == [
        ("conjunct", ".1", ["generated", "expert"]), ("conjunct", ".2", ["generated"]),
        ("llm", None, ["llm:m2"])]
    assert [(s["kind"], s["statement"]) for s in exists["shadows"]] == [("identity", "∃ m, n < m"),
                                                                      ("expert", "∃ m, m > n")]
    forward = (tmp_path / "ws" / "Checkers/Tiny/Forward.lean").read_text(encoding="utf-8")
    assert "  | simpa using @Tiny.facts n h\n" in forward and "  | simpa using @Tiny.exists_gt n\n" in forward
    backward = (tmp_path / "ws" / "Checkers/Tiny/Backward.lean").read_text(encoding="utf-8")
    assert "hS_3" not in backward and "(hS_1 : ∀ {n : Nat} (h : 0 < n), n ≠ 0)" in backward


def test_universes_of_the_reference_and_the_target(tmp_path, cli):
    reference = ("universe v\n\nopen Nat in\ntheorem poly.{w} {α : Sort w} {β : Type v} (a : α) (f : β → Nat) (b : β) :\n"
                 "    a = a ∧ f b = f b := ⟨rfl, rfl⟩\n")
    make_problem(tmp_path / "problems", "poly", reference=reference, targets=("poly",))
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 0
    forward = (tmp_path / "ws" / "Checkers/Poly/Forward.lean").read_text(encoding="utf-8")
    assert "\nuniverse v w\n\nopen Nat\n\nnamespace PyShadow.Checkers.Poly\n" in forward


# ---------------------------------------------------------------------------------------------------------------
# Bad input: exit 2, one line, nothing written


def test_missing_problems_folder(tmp_path, cli, capsys):
    assert cli(tmp_path / "nope", "-o", tmp_path / "ws") == 2
    assert "expected a folder of problems" in capsys.readouterr().err
    assert not (tmp_path / "ws").exists()


def test_empty_problems_folder(tmp_path, cli, capsys):
    (tmp_path / "problems").mkdir()
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 2
    assert "no problems found" in capsys.readouterr().err


# A bad problem among good ones is a reported row: the others are written, exit 4 (README exit-code table).


def test_malformed_problem_is_a_row_and_the_rest_is_written(tmp_path, cli, capsys):
    make_problem(tmp_path / "problems", "tiny")
    bad = make_problem(tmp_path / "problems", "bad")
    (bad / "problem.toml").write_text((bad / "problem.toml").read_text().replace('"L1"', '"L4"'), encoding="utf-8")
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 4
    out, err = capsys.readouterr()
    assert "no checkers for" in err and "field 'level': expected one of L1, L2, L3" in err
    assert "1 problem left out" in out
    manifest = json.loads((tmp_path / "ws" / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(manifest["problems"]) == ["tiny"]


def test_unparsable_expert_shadow_names_its_field(tmp_path, cli, capsys):
    extra = '\n[[shadows]]\ntarget = "Tiny.facts"\nstatement = "n ≠ 0"\n\n[[shadows]]\ntarget = "Tiny.facts"\nstatement = "(n ≤"\n'
    make_problem(tmp_path / "problems", "tiny", extra=extra)
    make_problem(tmp_path / "problems", "other")
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 4
    err = capsys.readouterr().err
    assert "no checkers for tiny:" in err and "shadows[2]:" in err and "cannot parse statement '(n ≤'" in err
    manifest = json.loads((tmp_path / "ws" / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(manifest["problems"]) == ["other"]


def test_unparsable_target_statement(tmp_path, cli, capsys):
    make_problem(tmp_path / "problems", "tiny", reference="theorem t (n : Nat) : (n ≤ := sorry\n", targets=("t",))
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 4
    err = capsys.readouterr().err
    assert "no checkers for tiny:" in err and "target t does not parse" in err


def test_module_name_collision(tmp_path, cli, capsys):
    make_problem(tmp_path / "problems", "tiny_one")
    make_problem(tmp_path / "problems", "tiny-one", reference=CORE_REFERENCE.replace("Tiny", "Other"),
                 targets=("Other.facts",))
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 2
    assert "problem ids 'tiny-one' and 'tiny_one' both map to the Lean module name 'TinyOne'" in capsys.readouterr().err


def test_declaration_clash_between_problems(tmp_path, cli, capsys):
    make_problem(tmp_path / "problems", "tiny")
    make_problem(tmp_path / "problems", "twin")
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 2
    assert "problems 'tiny' and 'twin' both declare 'Tiny.exists_gt'" in capsys.readouterr().err


def test_output_is_a_file(tmp_path, cli, capsys):
    make_problem(tmp_path / "problems", "tiny")
    (tmp_path / "ws").write_text("x")
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 2
    assert "expected a folder for the workspace" in capsys.readouterr().err


def test_llm_settings_missing(tmp_path, cli, capsys):
    make_problem(tmp_path / "problems", "tiny")
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws", "--llm", "replay", "--llm-model", "m") == 2
    assert "--llm-cache DIR" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------------------------
# Names


@pytest.mark.parametrize("pid, module", [
    ("nat_dvd_facts", "NatDvdFacts"), ("int_natAbs_cases", "IntNatAbsCases"), ("minif2f.aime-1983", "Minif2fAime1983"),
    ("2021_amc", "P2021Amc"), ("type", "PType"), ("x", "X"),
])
def test_module_name(pid, module):
    assert module_name(pid) == module


def test_module_names_collide_case_insensitively():
    with pytest.raises(BadInput, match="'ab_c' and 'a_bc'"):
        module_names(["ab_c", "a_bc"])  # AbC / ABc: one folder on a case-insensitive file system


def test_checker_ids():
    assert checker_ids("p", ["A.foo"]) == {"A.foo": "p"}
    assert checker_ids("p", ["A.foo", "A.bar"]) == {"A.foo": "p_foo", "A.bar": "p_bar"}
    assert checker_ids("p", ["A.foo", "B.foo", "bar"]) == {"A.foo": "p_A_foo", "B.foo": "p_B_foo", "bar": "p_bar"}


def test_mathlib_rev_rejects_other_toolchains():
    assert mathlib_rev("leanprover/lean4:v4.36.0-rc1\n") == "v4.36.0-rc1"
    with pytest.raises(BadInput, match="lean-toolchain"):
        mathlib_rev("leanprover/lean4:nightly")


def test_templates_load_lazily():
    import subprocess
    import sys

    code = ("import pyshadow.workspace, pyshadow.shadows.checkers as c; "
            "assert c.template_environment.cache_info().currsize == 0; print('ok')")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout == "ok\n"


def test_templates_are_strict():
    import jinja2

    from pyshadow.shadows.checkers import render_lean

    with pytest.raises(jinja2.UndefinedError, match="via_let"):
        render_lean("forward", {"doc": "d", "name": "n", "binders": "", "statement": "s", "head": "h",
                                "form": "projection", "direct": "x", "via_show": "y"})


# ---------------------------------------------------------------------------------------------------------------
# LLM for residual targets


LLM_ANSWER = json.dumps({
    "checker_code": (
        "theorem shadow_tiny_exists_gt_2 (n : Nat) : ∃ m, m ≠ n := by\n"
        "  first\n  | exact (let ⟨m, hm⟩ := Tiny.exists_gt n; ⟨m, Nat.ne_of_gt hm⟩)\n"
        "  | simpa using Tiny.exists_gt n\n"
    ),
    "items": [{"checker_name": "shadow_tiny_exists_gt_2", "method": "consequence", "substatement": "m ≠ n"}],
    "rationale": "a consequence",
})


def test_llm_record_then_replay(tmp_path, cli, capsys, monkeypatch):
    problems, cache = tmp_path / "problems", tmp_path / "cache"
    make_problem(problems, "tiny")
    with FakeChatServer([Reply.text(LLM_ANSWER, model="fake-model")]) as server:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", server.base_url)
        assert cli(problems, "-o", tmp_path / "ws1", "--llm", "record", "--llm-cache", cache,
                   "--llm-model", "fake-model") == 0
        assert len(server.requests) == 1  # one residual target, one task
        prompt = server.requests[0].body["messages"][1]["content"]
        assert "theorem Tiny.exists_gt (n : Nat) : ∃ m, n < m" in prompt
        assert "theorem facts (n : Nat)" in prompt  # the reference before the target, as context
    out = capsys.readouterr().out
    assert "residual targets (sent to the LLM): 1" in out
    assert "  tiny: Tiny.exists_gt — LLM (llm:fake-model): 1 shadows added, 0 duplicates" in out
    assert "llm: mode record, model fake-model: 1 calls" in out
    manifest = json.loads((tmp_path / "ws1" / "manifest.json").read_text(encoding="utf-8"))
    target = manifest["problems"]["tiny"]["targets"][1]
    assert target["residual"] is True
    assert target["shadows"][1] == {"index": 2, "kind": "llm", "path": None, "statement": "∃ m, m ≠ n",
                                    "provenance": ["llm:fake-model"]}
    assert target["llm"]["status"] == "accepted" and target["llm"]["added"] == 1
    forward = (tmp_path / "ws1" / "Checkers/Tiny/Forward.lean").read_text(encoding="utf-8")
    assert "/-- Shadow 2: llm consequence (llm:fake-model) -/" in forward

    # replay: no network, the same workspace byte for byte
    monkeypatch.delenv("PYSHADOW_LLM_BASE_URL")
    assert cli(problems, "-o", tmp_path / "ws2", "--llm", "replay", "--llm-cache", cache,
               "--llm-model", "fake-model") == 0
    assert tree(tmp_path / "ws2") == tree(tmp_path / "ws1")
    # a replay that does not match its recording stops (bad input)
    assert cli(problems, "-o", tmp_path / "ws3", "--llm", "replay", "--llm-cache", tmp_path / "empty",
               "--llm-model", "fake-model") == 2
    assert "no recorded LLM answer" in capsys.readouterr().err


def test_llm_rejected_answer_leaves_the_target_alone(tmp_path, cli, capsys, monkeypatch):
    make_problem(tmp_path / "problems", "tiny")
    answer = json.dumps({"checker_code": "theorem x (n : Nat) : ∃ m, n < m := by\n  exact Tiny.exists_gt n\n"})
    with FakeChatServer([Reply.text(answer, model="fake-model")]) as server:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", server.base_url)
        assert cli(tmp_path / "problems", "-o", tmp_path / "ws", "--llm", "live", "--llm-model", "fake-model") == 0
    out = capsys.readouterr().out
    assert "  tiny: Tiny.exists_gt — LLM rejected: " in out and "restates the target" in out
    manifest = json.loads((tmp_path / "ws" / "manifest.json").read_text(encoding="utf-8"))
    assert len(manifest["problems"]["tiny"]["targets"][1]["shadows"]) == 1


# ---------------------------------------------------------------------------------------------------------------
# With a full toolchain: the workspace builds


@pytest.mark.lean
def test_core_workspace_builds_with_lake(tmp_path, cli):
    import subprocess

    make_problem(tmp_path / "problems", "tiny")
    assert cli(tmp_path / "problems", "-o", tmp_path / "ws") == 0
    proc = subprocess.run(["lake", "build"], cwd=tmp_path / "ws", capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_benchmark_render_stage(tmp_path):
    import importlib.util

    from pyshadow.corpus import parse_corpus_lines

    spec = importlib.util.spec_from_file_location("parse_corpus", Path(__file__).parents[1] / "benchmarks" / "parse_corpus.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = [{"id": "a", "statement": "theorem a (p q : Prop) (hp : p) : p ∧ q"},
            {"id": "b", "statement": "example : True"}, {"id": "c", "statement": "theorem c : (1 ="}]
    entries = list(parse_corpus_lines([json.dumps(r) for r in rows], "mem"))
    assert bench.bench_render(entries) == 1
    assert [name for name, _ in bench.STAGES] == ["parse", "parse+decompose+render"]
    seconds, ok = bench.best_of(bench.bench_render, entries, 1, bench.CLOCKS["cpu"])
    assert ok == 1 and seconds >= 0
