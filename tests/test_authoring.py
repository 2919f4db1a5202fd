"""Authoring a problem: ``new`` → fill in → ``check-problem`` (real kernel-tier Lean) → ``export``; targets found
by their fully qualified names; what ``check-problem`` tells the author to fix."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
import tomlkit

import pyshadow.commands.check_problem as check_problem_command
import pyshadow.commands.common as common_command
import pyshadow.kernel.check as kernel_check
from pyshadow.cli import main
from pyshadow.problems import PROBLEM_FILE, ProblemError, load_problem
from pyshadow.references import TargetNotFound, TargetParseError, reference_skeleton, target_declaration
from pyshadow.shadows.rules import Step
from pyshadow.syntax import render_term

from conftest_lean import write_standin

TARGET = "ToyAdd.add_zero_and_comm"
THEOREM = """theorem add_zero_and_comm (a b : Nat) : a + 0 = a ∧ a + b = b + a :=
  ⟨Nat.add_zero a, Nat.add_comm a b⟩
"""


def new_problem(root: Path, capsys, problem_id: str = "toy_add") -> Path:
    assert main(["new", str(root), "--id", problem_id, "--area", "arithmetic", "--level", "L1"]) == 0
    capsys.readouterr()
    return root / problem_id


def fill_in(folder: Path, targets: list[str], declarations: str, shadows: list[dict] | None = None) -> None:
    """What an author does after ``new``: metadata, informal text, the reference's declarations."""
    path = folder / PROBLEM_FILE
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    doc["source"] = "written for the authoring test"
    doc["targets"] = targets
    doc["informal"]["statement"] = "Adding nothing to a number leaves it unchanged, and the order of a sum is free."
    doc["rules"]["text"] = "Name the theorem as listed in targets."
    if shadows:
        table = tomlkit.aot()
        for entry in shadows:
            table.append(tomlkit.item(entry))
        doc["shadows"] = table
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")
    reference = folder / "Reference.lean"
    text = reference.read_text(encoding="utf-8")
    reference.write_text(text.replace("namespace ToyAdd\n", f"namespace ToyAdd\n\n{declarations}"), encoding="utf-8")


# ---------------------------------------------------------------------------------------------------------------
# new


def test_new_writes_every_field_commented_and_a_reference_skeleton(tmp_path, capsys):
    assert main(["new", str(tmp_path), "--id", "toy_add", "--area", "arithmetic", "--level", "L2"]) == 0
    out = capsys.readouterr().out
    assert "check-problem" in out
    toml_text = (tmp_path / "toy_add" / PROBLEM_FILE).read_text(encoding="utf-8")
    doc = tomlkit.parse(toml_text)
    for key in ("id", "area", "level", "source", "imports", "reference", "targets"):
        assert key in doc, key
        assert doc[key].trivia.comment, f"{key} has no comment"
    assert (doc["id"], doc["area"], doc["level"], doc["reference"]) == ("toy_add", "arithmetic", "L2", "Reference.lean")
    assert set(doc["informal"]) == {"statement", "proof"} and set(doc["rules"]) == {"text"}
    assert "[[shadows]]" in toml_text  # the expert-shadow layout, commented
    reference = (tmp_path / "toy_add" / "Reference.lean").read_text(encoding="utf-8")
    assert reference.startswith("/-!\n# toy_add: reference formalization\n")
    assert "namespace ToyAdd\n\nend ToyAdd\n" in reference
    assert not re.search(r"^import ", reference, re.M)  # imports = [] matches a file without imports
    with pytest.raises(ProblemError, match="field 'source': expected a non-empty string"):
        load_problem(tmp_path / "toy_add")  # placeholders must be filled in


def test_new_refuses_to_overwrite_with_one_line(tmp_path, capsys):
    folder = new_problem(tmp_path, capsys)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert main(["new", str(tmp_path), "--id", "toy_add", "--area", "algebra", "--level", "L1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already exists" in err and "refusing to overwrite" in err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    # The same id deeper in the problems folder is refused too (load_problems would reject the pair).
    nested = tmp_path / "more"
    assert main(["new", str(nested), "--id", "x", "--area", "logic", "--level", "L1"]) == 0
    assert main(["new", str(tmp_path), "--id", "x", "--area", "logic", "--level", "L1"]) == 2
    assert "already used" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["--id", "bad id", "--area", "logic", "--level", "L1"], "problem id"),
    (["--id", "ok", "--area", "Logic", "--level", "L1"], "problem area"),
    (["--id", "ok", "--area", "logic", "--level", "L4"], "problem level"),
])
def test_new_rejects_malformed_values(tmp_path, capsys, args, message):
    assert main(["new", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not any(tmp_path.iterdir())


# ---------------------------------------------------------------------------------------------------------------
# Finding a target: fully qualified, namespaces tracked


NAMESPACED = """namespace A
theorem foo (n : Nat) : n = n := rfl
namespace B
theorem bar : True := trivial
end B
theorem _root_.baz : True := trivial
end A
section S
theorem foo : 1 = 1 := rfl
end S
namespace C.D
theorem «odd name» : True := trivial
end C.D
"""


@pytest.mark.parametrize("target, name", [
    ("A.foo", "foo"), ("A.B.bar", "bar"), ("baz", "_root_.baz"), ("foo", "foo"), ("C.D.«odd name»", "«odd name»"),
    ("C.D.odd name", "«odd name»"),
])
def test_targets_resolve_through_namespaces(target, name):
    assert target_declaration(NAMESPACED, target).name == name


def test_root_foo_and_namespaced_foo_are_different_targets():
    assert render_term(target_declaration(NAMESPACED, "foo").type) == "1 = 1"
    assert render_term(target_declaration(NAMESPACED, "A.foo").type) == "n = n"


@pytest.mark.parametrize("target", ["B.bar", "bar", "D.foo", "A.baz", "S.foo"])
def test_targets_are_never_guessed_from_the_last_component(target):
    with pytest.raises(TargetNotFound, match="is not declared in the reference"):
        target_declaration(NAMESPACED, target)


def test_parse_errors_point_into_the_reference_file():
    src = "/-! doc -/\nnamespace C\n\ntheorem bad (a : Nat) :\n    a = a ↔ a = a ↔ a = a := sorry\nend C\n"
    with pytest.raises(TargetParseError) as info:
        target_declaration(src, "C.bad")
    err = info.value
    line = src.splitlines()[err.line - 1]
    assert (err.line, err.column) == (5, line.rindex("↔"))  # the second ↔, in file coordinates
    one_line = "theorem worse (a : Nat) : a = a ↔ a = a ↔ a = a := sorry\n"
    with pytest.raises(TargetParseError) as info:
        target_declaration("\n\n  " + one_line, "worse")
    assert (info.value.line, info.value.column) == (3, 2 + one_line.rindex("↔"))


def test_reference_skeleton_layout():
    text = reference_skeleton("t: title", "Body line.", imports=("Mathlib",), preamble="open Nat", namespace="T")
    assert text == "import Mathlib\n\n/-!\n# t: title\n\nBody line.\n-/\n\nopen Nat\n\nnamespace T\n\nend T\n"


# ---------------------------------------------------------------------------------------------------------------
# check-problem


def test_check_problem_reports_load_errors_as_is(tmp_path, capsys):
    folder = new_problem(tmp_path, capsys)
    try:
        load_problem(folder)
    except ProblemError as err:
        expected = str(err)
    assert main(["check-problem", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err == f"pyshadow check-problem: error: {expected}\n"
    assert main(["check-problem", str(tmp_path / "missing")]) == 2
    assert "file not found" in capsys.readouterr().err


def test_check_problem_exits_3_when_the_requested_tier_is_missing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(common_command, "find_full_toolchain", lambda: None)
    monkeypatch.setattr(check_problem_command, "find_full_toolchain", lambda: None)
    folder = new_problem(tmp_path, capsys)
    fill_in(folder, [TARGET], THEOREM)
    assert main(["check-problem", str(folder), "--tier", "full"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("pyshadow check-problem: error: no full Lean toolchain") and err.count("\n") == 1


@pytest.mark.kernel
def test_authoring_round_trip(tmp_path, capsys, kernel_lean_exe):
    """new → fill in (a real core-Lean reference) → check-problem (kernel tier, real Lean) → export."""
    folder = new_problem(tmp_path / "problems", capsys)
    fill_in(folder, [TARGET], THEOREM)
    problem = load_problem(folder)
    assert problem.targets == (TARGET,) and problem.imports == ()

    assert main(["check-problem", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "lean: kernel tier" in out and "no full Lean toolchain on PATH" in out
    assert f"{TARGET}: 4 shadows (decomposed); Lean accepted all 5 checkers" in out
    assert out.rstrip().endswith("complete: every shadow set of toy_add is complete (kernel tier)")

    public, hidden = tmp_path / "public", tmp_path / "hidden"
    assert main(["export", str(tmp_path / "problems"), "--public", str(public), "--hidden", str(hidden)]) == 0
    record = json.loads((public / "problems.jsonl").read_text(encoding="utf-8"))
    assert record["id"] == "toy_add" and record["targets"] == [TARGET]
    manifest = json.loads((hidden / "manifest.json").read_text(encoding="utf-8"))
    checkers = manifest["problems"]["toy_add"]["targets"][0]["checkers"]
    assert len(checkers) == 5 and all(len(c["sha256"]) == 64 for c in checkers)
    reference = (folder / "Reference.lean").read_text(encoding="utf-8")
    assert (hidden / "Checkers/ToyAdd/Reference.lean").read_text(encoding="utf-8") == reference
    assert THEOREM not in (public / "problems.jsonl").read_text(encoding="utf-8")


@pytest.mark.kernel
def test_check_problem_lists_what_to_fix(tmp_path, capsys, kernel_lean_exe):
    folder = new_problem(tmp_path, capsys)
    declarations = (THEOREM + "\ntheorem exists_zero : ∃ n : Nat, n = 0 := ⟨0, rfl⟩\n"
                    "\ntheorem bad_one (a : Nat) :\n    a = a ↔ a = a ↔ a = a := sorry\n")
    fill_in(folder, [TARGET, "ToyAdd.exists_zero", "ToyAdd.bad_one"], declarations,
            shadows=[{"target": TARGET, "statement": "a = a ↔ a = a ↔ a = a"}])
    assert main(["check-problem", str(folder)]) == 4
    out = capsys.readouterr().out
    fixes = out[out.index("to fix (3):"):].splitlines()[1:4]
    reference = (folder / "Reference.lean").read_text(encoding="utf-8")
    line_no = next(n for n, line in enumerate(reference.splitlines(), start=1) if line.startswith("    a = a ↔"))
    column = reference.splitlines()[line_no - 1].rindex("↔")
    assert any(f"shadows[1]: shadow for {TARGET}: cannot parse statement" in f for f in fixes)
    assert any(f"target ToyAdd.exists_zero has only the identity shadow" in f and "[[shadows]]" in f for f in fixes)
    assert any(f.strip().startswith(f"{folder / 'Reference.lean'}:{line_no}:{column}: target ToyAdd.bad_one "
                                    "does not parse: unexpected '↔'") for f in fixes), fixes
    assert "incomplete: toy_add has 3 things to fix" in out


@pytest.mark.kernel
def test_expert_shadows_lift_the_residual_finding(tmp_path, capsys, kernel_lean_exe):
    folder = new_problem(tmp_path, capsys)
    fill_in(folder, ["ToyAdd.exists_zero"], "theorem exists_zero : ∃ n : Nat, n = 0 := ⟨0, rfl⟩\n",
            shadows=[{"target": "ToyAdd.exists_zero", "statement": "∃ n : Nat, n ≤ 0"}])
    assert main(["check-problem", str(folder)]) == 0
    out = capsys.readouterr().out
    # the expert shadow is checked (T ⇒ S by the skeleton search: `∃ n, n = 0` gives `∃ n, n ≤ 0`)
    assert "2 shadows (residual: the identity shadow and 1 expert shadow); Lean accepted all 2 checkers" in out
    assert "unchecked" not in out


@pytest.mark.kernel
def test_check_problem_quotes_lean_when_it_rejects_a_checker(tmp_path, capsys, kernel_lean_exe, monkeypatch):
    """A wrong projection (`.2` where the shadow is the first conjunct's) must reach the author as Lean's words."""
    real = kernel_check.decompose

    def wrong_first_projection(decl, **kwargs):
        dec = real(decl, **kwargs)
        first = dec.shadows[0]
        path = (Step("right"), *first.path[1:]) if first.path[0].kind == "left" else first.path
        dec.shadows[0] = dataclasses.replace(first, path=path)
        return dec

    monkeypatch.setattr(kernel_check, "decompose", wrong_first_projection)
    folder = new_problem(tmp_path, capsys)
    fill_in(folder, [TARGET], THEOREM)
    assert main(["check-problem", str(folder)]) == 4
    out = capsys.readouterr().out
    assert "Lean rejected 1 of 5 checkers" in out
    assert out.rstrip().splitlines()[-1] == "incomplete: toy_add has 1 thing to fix"
    fix = next(line for line in out.splitlines() if line.strip().startswith("Lean rejected the forward checker"))
    assert f"shadow 1 (le `.1.le`: a + 0 ≤ a) of {TARGET}: error:" in fix


def test_check_problem_full_tier_plumbing(tmp_path, capsys, monkeypatch):
    """With a full toolchain on PATH the full tier is used and says so; Lean's complaint reaches the author.

    A plumbing stand-in plays the toolchain (it answers every non-prelude file with "no Init"), so every checker
    fails with that message — what is tested is the tier choice and the reporting, not the mathematics.
    """
    standin = dataclasses.replace(write_standin(tmp_path / "standin"), tier="full")
    monkeypatch.setattr(check_problem_command, "find_full_toolchain", lambda: standin)
    monkeypatch.setattr(common_command, "find_full_toolchain", lambda: standin)
    folder = new_problem(tmp_path / "problems", capsys)
    fill_in(folder, [TARGET], THEOREM)
    assert main(["check-problem", str(folder)]) == 4
    out = capsys.readouterr().out
    assert f"lean: full tier — {standin.path} (Lean 4.35.0)" in out
    rejected = [line for line in out.splitlines() if line.strip().startswith("Lean rejected")]
    assert len(rejected) == 5 and all("unknown module prefix 'Init'" in line for line in rejected)
