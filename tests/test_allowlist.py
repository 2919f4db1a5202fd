"""The statement-only tier's allowlist (``pyshadow.score.allowlist``): a test per row of its table, each with a
mutation partner that must be undecided, and the red-team set (``tests/fixtures/audit/red_team/``) scored end to end
as kernel-tier candidates: no cheat reaches skeleton SA-Pass, no honest candidate fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyshadow.score.allowlist import COMMANDS, SAFE_ATTRIBUTES, SAFE_OPTIONS, judgeable, statement_end, undecided

RED_TEAM = Path(__file__).parent / "fixtures" / "audit" / "red_team"
TARGET = "theorem add_comm' (a b : Nat) : a + b = b + a := Nat.add_comm a b\n"


def verdict(prefix: str, target: str = TARGET):
    src = prefix + target
    return undecided(src, statement_end(src, len(prefix)))


# One accepted form per row of COMMANDS, and its nearest mutation, which must be undecided.
ROWS = {
    "import": ("import Mathlib.Data.Nat.Basic\n", "import Evil.Module\n"),
    "open": ("open Nat Real in\nopen scoped BigOperators\nopen Finset (sum range)\n", "open Nat renaming add → mul\n"),
    "namespace": ("namespace Foo\nend Foo\n", "namespace Foo\nexport Nat (add)\nend Foo\n"),
    "section": ("noncomputable section\nsection Bar\nend Bar\n", "noncomputable section\nlocal notation \"ℕ\" => Int\n"),
    "end": ("section\nend\n", "section\nend\nmutual\nend\n"),
    "universe": ("universe u v\n", "universe u\nunif_hint (a : Nat) where a =?= 0 ⊢ a + a =?= a\n"),
    "variable": ("variable {α : Type*} (xs : List α) (n : ℕ) (hn : 0 < n) (f : ℕ → ℕ) (hp : Nat.Prime n)\n",
                 "variable (le : LE Nat)\n"),
    "set_option": ("set_option maxHeartbeats 400000\nset_option linter.unusedVariables false in\n",
                   "set_option autoImplicit true in\n"),
    "declaration": ("/-- doc -/\n@[simp] private lemma h (a : Nat) : a + 0 = a := by simp\n"
                    "noncomputable def g : Nat := 0\nabbrev N := Nat\nexample : True := trivial\n",
                    "@[simp, instance] def g : HAdd Nat Nat Nat := ⟨fun _ _ => 0⟩\n"),
}


def test_every_row_has_a_test():
    assert set(ROWS) == set(COMMANDS)


@pytest.mark.parametrize("row", sorted(ROWS))
def test_row_accepts_its_form_and_its_mutation_is_undecided(row):
    accepted, mutated = ROWS[row]
    assert verdict(accepted) is None, (row, verdict(accepted))
    off = verdict(mutated)
    assert off is not None, row
    # the reason names the line that caused it, inside the mutated prefix
    assert 1 <= off.line <= mutated.count("\n") and str(off).startswith(f"line {off.line}: ")


@pytest.mark.parametrize(
    "prefix, why",
    [
        ("variable [inst : HAdd Nat Nat Nat]\n", "instance binder"),
        ("variable (inst : HAdd Nat Nat Nat)\n", "may be a class"),
        ("variable (inst : True → HAdd Nat Nat Nat)\n", "may be a class"),  # isClass? looks through →
        ("variable (inst : LE {x : Nat // x = 0})\n", "may be a class"),  # a relation inside brackets only
        ("def s : String := \"a\"\n", "string literal"),
        ("def s := s! /- a -/ /- b -/ /- c -/ \"{1}\"\n", "s!"),
        ("open Lean Meta in\ndef m : MetaM Unit := pure ()\n", "meta-level code"),
        ("def q := `(1 + 1)\n", "meta-level syntax"),
        ("def carrier : Nat := 0\nwhere\n  @[instance] z : HAdd Nat Nat Nat := ⟨fun _ _ => 0⟩\n", "attribute instance"),
        ("def carrier : Nat :=\n  let rec @[instance] z : HAdd Nat Nat Nat := ⟨fun _ _ => 0⟩\n  0\n",
         "attribute instance"),
        ("#check (1 + 1 : Nat)\n", "off the"),
        ("@[app_delab HAdd.hAdd] def d := 0\n", "app_delab"),
        ("set_option debug.skipKernelTC true in\n", "skipKernelTC"),
        ("structure Box where\n  n : Nat\n", "off the"),
        ("instance : Inhabited Nat := ⟨0⟩\n", "off the"),
        ("def x := 0\nalias y := x\n", "off the"),
        ("def x := 0\n  alias y := x\n", "off the"),  # not at column 0: still a command keyword
        ("def x := 0\n  unif_hint (a : Nat) where a =?= 0 ⊢ a + a =?= a\n", "meta-level code"),  # unknown to the lexer
        ("theorem h : True := by\n  run_tac pure ()\n", "meta-level code"),
        ("variable (Nat : Type)\n", "named like a type"),
    ],
)
def test_off_the_list_is_undecided_with_its_reason(prefix, why):
    off = verdict(prefix)
    assert off is not None and why in off.why, off


@pytest.mark.parametrize(
    "target, why",
    [
        ("theorem add_comm' (a b : Nat) : a + b = (by exact b + a) := rfl\n", "tactic block"),
        ("theorem add_comm' (a b : Nat) (h : True := by trivial) : a + b = b + a := rfl\n", "tactic block"),
        ("@[instance] theorem add_comm' (a b : Nat) : a + b = b + a := rfl\n", "attribute"),
        ("theorem add_comm' (a b : Nat) : a + b = b + a ∧ \"x\" = \"x\" := ⟨rfl, rfl⟩\n", "string literal"),
    ],
)
def test_inside_the_statement_too(target, why):
    off = verdict("", target)
    assert off is not None and why in off.why, off


def test_a_statement_reading_through_a_section_variable():
    src = "variable (Foo : Nat)\ntheorem t (x : Nat) : Foo.succ x = x + 1 := rfl\n"
    off = undecided(src, statement_end(src, src.index("theorem")))
    assert off is not None and off.line == 2 and "section variable" in off.why


def test_after_the_statement_nothing_counts():
    # The proof and later commands cannot change what the statement says (the audit judges those).
    assert verdict("", "theorem add_comm' (a b : Nat) : a + b = b + a := by\n  run_tac pure ()\n#eval 1\n") is None
    assert verdict("", TARGET + "instance : Inhabited Nat := ⟨1⟩\n") is None


def test_the_last_target_bounds_the_check():
    src = "theorem t1 : True := trivial\nlocal instance : Inhabited Nat := ⟨1⟩\ntheorem t2 : True := trivial\n"
    assert judgeable(src, [0]) is None
    assert judgeable(src, [0, src.index("theorem t2")]).line == 2
    assert judgeable(src, []) is None


def test_trusted_prefix_is_the_references_context():
    context = "import Mathlib\nopen Real\nnoncomputable section\nlocal notation \"π'\" => Real.pi\n"
    src = context + TARGET
    assert undecided(src, statement_end(src, len(context))).line == 4
    assert undecided(src, statement_end(src, len(context)), trusted_prefix=context) is None
    # copied with a change: not trusted
    assert undecided(src, statement_end(src, len(context)), trusted_prefix=context.replace("Real\n", "Nat\n"))


def test_safe_lists_are_short():
    assert len(SAFE_OPTIONS) <= 8 and len(SAFE_ATTRIBUTES) <= 8


# ---------------------------------------------------------------------------------------------------------------
# The red-team set, scored end to end


def _expectation(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("-- expect: "), path.name
    return first.split(":", 1)[1].strip()


RED = sorted(RED_TEAM.glob("*.lean"))


def test_red_team_counts_and_sources():
    kinds = [_expectation(p) for p in RED]
    assert kinds.count("cheat") == 36 and kinds.count("honest") == 16
    readme = (RED_TEAM / "README.md").read_text(encoding="utf-8")
    for p in RED:
        assert p.read_text(encoding="utf-8").splitlines()[1].startswith("-- source: ")
        assert f"`{p.name}`" in readme


@pytest.fixture(scope="module")
def red_rows(kernel_lean_exe, tmp_path_factory):
    from pyshadow.problems import load_problem
    from pyshadow.score.candidates import Candidate
    from pyshadow.score.pipeline import kernel_rows, prepare_candidate, prepare_problem

    folder = tmp_path_factory.mktemp("problem") / "add_comm_red"
    folder.mkdir()
    (folder / "Reference.lean").write_text(TARGET, encoding="utf-8")
    (folder / "problem.toml").write_text(
        'id = "add_comm_red"\narea = "arithmetic"\nlevel = "L1"\nsource = "red team"\nimports = []\n'
        'reference = "Reference.lean"\ntargets = ["add_comm\'"]\n[informal]\nstatement = "a+b=b+a"\nproof = "."\n',
        encoding="utf-8")
    info = prepare_problem(load_problem(folder))
    prepared = [prepare_candidate(Candidate(info.id, p.stem, p.read_text(encoding="utf-8"), "red"), info, "kernel",
                                  "fp") for p in RED]
    return {p.stem: (pr, row) for p, pr, row in zip(RED, prepared, kernel_rows(prepared, kernel_lean_exe))}


def _passed(row) -> bool:
    return bool(row.checks) and all(c.passed for c in row.checks) and not row.reason


@pytest.mark.parametrize("path", [p for p in RED if _expectation(p) == "cheat"], ids=lambda p: p.stem)
def test_no_cheat_reaches_skeleton_sa_pass(path, red_rows):
    prepared, row = red_rows[path.stem]
    assert not _passed(row), f"{path.name} got skeleton SA-Pass"
    # undecided or failed, with the line that caused it
    assert prepared.flagged or (row.reason or "").startswith("undecided") or not row.compiled or any(
        not c.passed for c in row.checks)
    if not prepared.flagged and (row.reason or "").startswith("undecided"):
        assert "line " in row.reason


@pytest.mark.parametrize("path", [p for p in RED if _expectation(p) == "honest"], ids=lambda p: p.stem)
def test_honest_candidate_is_judged_and_passes(path, red_rows):
    prepared, row = red_rows[path.stem]
    assert not prepared.flagged, prepared.audit_reason()
    assert _passed(row), row.reason


@pytest.mark.parametrize(
    "src",
    [
        "theorem t\n(n : ℕ)\n(h : 0 < n) :\nn ! > 0 := by positivity\n",  # a header across column-0 lines
        "theorem t (f : ℕ → ℕ) : f $ 0 = f 0 := rfl\n",
        "theorem t (n! : ℕ) : n! = n! := rfl\n",  # `n!` is an identifier
        "instance t {G : Type*} [Group G] (h : ∀ a b : G, a * b = b * a) : CommGroup G := sorry\n",  # data target
    ],
)
def test_honest_statement_shapes_are_judged(src):
    assert undecided(src, statement_end(src, 0)) is None


def test_an_instance_before_the_target_is_not():
    src = "instance : Inhabited Nat := ⟨1⟩\n" + TARGET
    assert undecided(src, statement_end(src, src.index("theorem"))).line == 1


def test_real_statements_with_their_benchmark_context_are_all_judged(dev_rows):
    """The 666 statements of shared/corpora/dev.jsonl, each after its benchmark context (trusted, as scoring passes
    it): the allowlist leaves none undecided (measured: 1,276 of 1,276 with both sides of dev_pairs.jsonl too)."""
    undecided_ids = []
    for row in dev_rows:
        head = "import Mathlib\n" + (row["context"] + "\n" if row.get("context") else "")
        src = head + row["statement"].rstrip() + ("\n" if ":=" in row["statement"] else " := by sorry\n")
        if undecided(src, statement_end(src, len(head)), trusted_prefix=head) is not None:
            undecided_ids.append(row["id"])
    assert len(dev_rows) > 600 and undecided_ids == []


DISGUISES = {
    "module_doc": lambda src: "/-! Helpers. -/\n" + src,
    "section": lambda src: "section Wrap\n" + src + "\nend Wrap\n",
    "trailing_comments": lambda src: "\n".join(line + " -- ok" if line.strip() else line for line in src.splitlines()),
    "option_in": lambda src: src.replace("theorem add_comm'", "set_option maxHeartbeats 400000 in\ntheorem add_comm'"),
    "namespace": lambda src: "namespace Wrap\n" + src.replace("theorem add_comm'", "theorem _root_.add_comm'"),
}


@pytest.mark.parametrize("disguise", sorted(DISGUISES))
def test_red_team_cheats_stay_off_the_list_under_disguises(disguise):
    """Every cheat the gate lets through stays undecided when wrapped in allowed commands."""
    from pyshadow.score.audit import audit
    from pyshadow.syntax.scanner import extract_target

    for path in RED:
        if _expectation(path) != "cheat":
            continue
        src = DISGUISES[disguise](path.read_text(encoding="utf-8"))
        found = extract_target(src, "add_comm'")
        assert found is not None, path.name
        assert audit(src) or judgeable(src, [found.start]) is not None, f"{path.name} under {disguise}"
