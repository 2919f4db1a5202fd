"""Definitions are part of the statement (issue 21; kernel/local_definitions.py): answers, helper definitions and
data targets' values are compared, whatever their names — checked through the real kernel-tier Lean (skeleton
SA-Pass). Every claimed equivalence has its mutation partner (the other answer, the changed body), which must not
pass. Statements are PutnamBench's (tests/fixtures/pairs/extra_pairs.jsonl) and ProofNet's (the dev corpus
contexts), with their answers filled in."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from pyshadow.kernel.definitions import normalize_declaration
from pyshadow.kernel.local_definitions import local_definitions, unfold_definitions
from pyshadow.kernel.pairs import LabelledPair, evaluate
from pyshadow.lean.toolchain import kernel_lean
from pyshadow.problems import load_problem
from pyshadow.score.candidates import Candidate
from pyshadow.score.pipeline import kernel_rows, prepare_candidate, prepare_problem
from pyshadow.syntax import parse_declaration
from pyshadow.syntax.render import render_term


def verdicts(cases: list[tuple[str, str, str, str]]) -> list[str]:
    """Skeleton SA-Pass of each (reference, candidate, reference context, candidate context)."""
    pairs = [LabelledPair(str(i), a, b, ac, bc, True, "", "test") for i, (a, b, ac, bc) in enumerate(cases)]
    with tempfile.TemporaryDirectory() as tmp:
        return [r.verdict for r in evaluate(pairs, kernel_lean(), n_jobs=1, cache_dir=Path(tmp))]


# PutnamBench putnam_2001_a3 / putnam_1988_a1 (extra_pairs.jsonl), with the answer slot filled.
A3 = """theorem putnam_2001_a3
(P : ℤ → Polynomial ℤ)
(hP : P = fun m : ℤ => (Polynomial.X)^4 - (Polynomial.C (2*m + 4))*(Polynomial.X)^2 + Polynomial.C ((m - 2)^2))
: {m : ℤ | ∃ a : Polynomial ℤ, ∃ b : Polynomial ℤ, P m = a * b ∧
(∃ n ∈ Ici 1, a.coeff n ≠ 0) ∧ (∃ n ∈ Ici 1, b.coeff n ≠ 0)} = putnam_2001_a3_solution"""
A3_OPEN = "open Topology Filter Polynomial Set\n"
A3_ANSWER = A3_OPEN + "abbrev putnam_2001_a3_solution : Set ℤ := {m : ℤ | ∃ k : ℤ, k ^ 2 = m ∨ 2 * k ^ 2 = m}\n"
A1 = """theorem putnam_1988_a1
(R : Set (Fin 2 → ℝ))
(hR : R = {p : Fin 2 → ℝ | |p 0| - |p 1| ≤ 1 ∧ |p 1| ≤ 1})
: (MeasureTheory.volume R).toReal = putnam_1988_a1_solution"""


def test_answers_are_compared():
    inline = A3.replace("putnam_2001_a3_solution", "{m : ℤ | ∃ k : ℤ, k ^ 2 = m ∨ 2 * k ^ 2 = m}")
    got = verdicts([
        (A3, A3, A3_ANSWER, A3_ANSWER.replace("k ^ 2 = m ∨", "j ^ 2 = m ∨").replace("∃ k", "∃ j")
         .replace("2 * k ^ 2", "2 * j ^ 2")),                                        # α-renamed answer: same
        (A3, A3, A3_ANSWER, A3_ANSWER.replace("2 * k ^ 2", "3 * k ^ 2")),            # the other answer
        (A3, inline, A3_ANSWER, A3_OPEN),                                            # inlined answer: same
        (A3, inline.replace("2 * k ^ 2", "3 * k ^ 2"), A3_ANSWER, A3_OPEN),          # inlined, changed
        (A1, A1, "abbrev putnam_1988_a1_solution : ℝ := 6", "abbrev putnam_1988_a1_solution : ℝ := 6"),
        (A1, A1, "abbrev putnam_1988_a1_solution : ℝ := 6", "abbrev putnam_1988_a1_solution : ℝ := 4"),
        (A1, A1, "abbrev putnam_1988_a1_solution : ℝ := 6", "abbrev putnam_1988_a1_solution : ℝ := sorry"),
    ])
    assert got[0] == "pass" and got[2] == "pass" and got[4] == "pass"
    assert all(v != "pass" for v in (got[1], got[3], got[5], got[6])), got


def test_open_answers_are_one_slot_only_at_one_type():
    open_ = "abbrev putnam_1988_a1_solution : ℝ := sorry"
    got = verdicts([(A1, A1, open_, open_), (A1, A1, open_, open_.replace("ℝ", "ℚ")),
                    (A1, A1, "open Topology\n" + open_, "open Real\n" + open_)])  # opens: no value to read
    assert got[0] == "pass" and got[1] != "pass" and got[2] == "pass", got


def test_helper_definitions_are_compared_whatever_their_names():
    stmt = "theorem t (m : ℕ) (h : 0 < m) : double m = 4 ↔ m = 2"
    renamed = stmt.replace("double", "twice")
    got = verdicts([
        (stmt, renamed, "def double (n : ℕ) : ℕ := 2 * n", "def twice (k : ℕ) : ℕ := 2 * k"),
        (stmt, renamed, "def double (n : ℕ) : ℕ := 2 * n", "def twice (n : ℕ) : ℕ := 3 * n"),
        (stmt, stmt, "def double (n : ℕ) : ℕ := 2 * n", "def double (n : ℕ) : ℕ := 3 * n"),
        # untyped parameter: not unfolded, compared as the definition it is
        (stmt, stmt, "def double (n) := 2 * n", "def double (n) := 2 * n"),
        (stmt, stmt, "def double (n) := 2 * n", "def double (n) := 3 * n"),
        # the chain: a definition using another, inlined by the candidate
        ("theorem t (m : ℕ) : g m = 5", "theorem t (m : ℕ) : 2 * m + 1 = 5",
         "def double (n : ℕ) : ℕ := 2 * n\ndef g (n : ℕ) : ℕ := double n + 1", ""),
        ("theorem t (m : ℕ) : g m = 5", "theorem t (m : ℕ) : 3 * m + 1 = 5",
         "def double (n : ℕ) : ℕ := 2 * n\ndef g (n : ℕ) : ℕ := double n + 1", ""),
    ])
    assert got[0] == "pass" and got[3] == "pass" and got[5] == "pass", got
    assert all(v != "pass" for v in (got[1], got[2], got[4], got[6])), got


def test_a_named_proposition_is_judged_by_unfolding():
    named = "theorem t (n : ℕ) (h : 0 < n) : Answer n ↔ n ≤ 2"
    ctx = "def Answer (n : ℕ) : Prop := n = 1 ∨ n = 2"
    got = verdicts([
        (named, "theorem t (n : ℕ) (h : 0 < n) : (n = 1 ∨ n = 2) ↔ n ≤ 2", ctx, ""),
        (named, "theorem t (n : ℕ) (h : 0 < n) : (n = 1 ∨ n = 3) ↔ n ≤ 2", ctx, ""),
        ("theorem t (n : ℕ) (h : 0 < n) : (n = 1 ∨ n = 2) ↔ n ≤ 2", named, "", ctx),
        ("theorem t (n : ℕ) (h : 0 < n) : (n = 1 ∨ n = 2) ↔ n ≤ 2", named, "", ctx.replace("n = 2", "n = 3")),
    ])
    assert got[0] == "pass" and got[2] == "pass" and got[1] != "pass" and got[3] != "pass", got


# ProofNet Munkres exercise_13_4b1 with its context (dev corpus, tests/fixtures/pairs/dev_pairs.jsonl).
TOPOLOGY = """open Filter Set TopologicalSpace
open scoped Topology
def is_topology (X : Type*) (T : Set (Set X)) :=
  univ ∈ T ∧
  (∀ s t, s ∈ T → t ∈ T → s ∩ t ∈ T) ∧
  (∀s, (∀t ∈ s, t ∈ T) → sUnion s ∈ T)
"""
M13 = """theorem exercise_13_4b1 (X I : Type*) (T : I → Set (Set X)) (h : ∀ i, is_topology X (T i)) :
  ∃! T', is_topology X T' ∧ (∀ i, T i ⊆ T') ∧
  ∀ T'', is_topology X T'' → (∀ i, T i ⊆ T'') → T'' ⊆ T'"""


def test_a_changed_helper_body_of_a_real_statement_fails():
    got = verdicts([(M13, M13, TOPOLOGY, TOPOLOGY),
                    (M13, M13, TOPOLOGY, TOPOLOGY.replace("s ∩ t ∈ T", "s ∪ t ∈ T")),
                    (M13, M13, TOPOLOGY, TOPOLOGY.replace("univ ∈ T ∧", "∅ ∈ T ∧"))])
    assert got[0] == "pass" and got[1] != "pass" and got[2] != "pass", got


def test_unfolding_ascribes_arguments_and_values():
    # `abbrev I : Set ℝ := Icc 0 1` is `(Icc 0 1 : Set ℝ)`, never `Icc 0 1` read at ℕ (ProofNet exercise_21_6a)
    d = unfold_definitions(parse_declaration("theorem x (f : ℕ → I → ℝ) : True"), "abbrev I : Set ℝ := Icc 0 1")
    assert render_term(d.binders[0].type) == "ℕ → (Icc 0 1 : Set ℝ) → ℝ"
    # an argument of another type keeps its coercion target: `half n` with `half (x : ℝ)` is `(n : ℝ) / 2`
    d = unfold_definitions(parse_declaration("theorem x (n : ℕ) : half n = 1"), "def half (x : ℝ) : ℝ := x / 2")
    assert "(n : ℝ) / 2" in d.type.left.text
    # a value of unknown type is not inlined (`1 / 2` alone is ℕ's): read as its definition's constant
    d = unfold_definitions(parse_declaration("theorem x (y : ℝ) : y = half"), "def half := 1 / 2")
    assert d.type.right.text.startswith("half_def")
    # a name the statement binds shadows the definition
    d = parse_declaration("theorem x (double : ℕ → ℕ) : double 1 = 2")
    assert unfold_definitions(d, "def double (n : ℕ) : ℕ := 2 * n") is d
    assert [x.name for x in local_definitions("namespace A\ndef f (n : ℕ) : ℕ := n\nend A")] == ["A.f"]


def test_bool_terms_in_prop_position_are_coerced():
    # `boolToProp` (Lean core src/Init/Coe.lean): a Bool `b` where a proposition stands is `b = true`
    got = verdicts([
        ("theorem t (b : Bool) (f : Bool → ℕ) (h : f b = 0) : b", "theorem t (b : Bool) (f : Bool → ℕ) (h : f b = 0) :"
         " b = true", "", ""),
        ("theorem t (b : Bool) (f : Bool → ℕ) (h : f b = 0) : b", "theorem t (b : Bool) (f : Bool → ℕ) (h : f b = 0) :"
         " b = false", "", ""),
        ("theorem t (m n : ℕ) (h : m == n) : m ≤ n", "theorem t (m n : ℕ) (h : (m == n) = true) : m ≤ n", "", ""),
        ("theorem t (m n : ℕ) (h : m == n) : m ≤ n", "theorem t (m n : ℕ) (h : (m == n) = false) : m ≤ n", "", ""),
        ("theorem t (p q : Prop) (h : p) : q → false", "theorem t (p q : Prop) (h : p) : q → False", "", ""),
        ("theorem t (p q : Prop) (h : p) : q → false", "theorem t (p q : Prop) (h : p) : q → True", "", ""),
    ])
    # `q → false` against `q → False`: the reading is proved (`BOOL_PROP_SCHEMA`), but Lean, which now elaborates
    # `false` (Lean core's `export Bool (false true)`, `boolToSort`), rejects the skeleton's identity term: `false`
    # in a type is `false = true`, not definitionally `False` — undecided, Lean's rejection standing
    assert got[0::2] == ["pass", "pass", "undecided"] and all(v != "pass" for v in got[1::2]), got


def test_auto_bound_names_follow_the_files_auto_implicit():
    # minif2f aime_1994_p3 (dev corpus): `x` auto-bound as `{x : ℤ}` — unless the file turns autoImplicit off
    a = "theorem t (x : ℤ) (f : ℤ → ℤ) (h0 : f x + f (x-1) = x^2) (h1 : f 19 = 94) : f 94 % 1000 = 561"
    b = "theorem t (f : ℤ → ℤ) (h0 : f x + f (x-1) = x^2) (h1 : f 19 = 94) : f 94 % 1000 = 561"
    got = verdicts([(a, b, "", ""), (a, b, "", "set_option autoImplicit false"),
                    (a, b.replace("(x-1)", "(x+1)"), "", "")])
    assert got[0] == "pass" and got[1] != "pass" and got[2] != "pass", got
    off = normalize_declaration(parse_declaration(b), "set_option autoImplicit false")
    assert "x" not in off.variables()


# ---------------------------------------------------------------------------------------------------------------
# Through the scoring pipeline: the candidate's helpers in the reference's names, data targets with their values

PROBLEM = """id = "p1"
area = "algebra"
level = "L1"
source = "written for this test (PutnamBench style)"
imports = ["Mathlib"]
reference = "Reference.lean"
targets = [{targets}]

[informal]
statement = "Determine the answer."
"""


def problem(tmp_path: Path, reference: str, targets: str):
    folder = tmp_path / "p1"
    folder.mkdir()
    (folder / "problem.toml").write_text(PROBLEM.replace("{targets}", targets), encoding="utf-8")
    (folder / "Reference.lean").write_text(reference, encoding="utf-8")
    return prepare_problem(load_problem(folder))


def kernel_verdicts(info, candidates: list[str]) -> list[str]:
    prepared = [prepare_candidate(Candidate("p1", f"s{i}", code, "x"), info, "kernel", "fp")
                for i, code in enumerate(candidates)]
    with tempfile.TemporaryDirectory() as tmp:
        rows = {r.system: r for r in kernel_rows(prepared, kernel_lean(), n_jobs=1, cache_dir=Path(tmp))}
    out = []
    for i in range(len(candidates)):  # the statements' verdict (the audit fails a `sorry` proof on its own)
        checks = [c for c in rows[f"s{i}"].checks if c.kind in ("forward", "backward")]
        out.append("pass" if checks and all(c.passed and not c.undecided for c in checks)
                   else "undecided" if all(c.passed or c.undecided for c in checks) else "fail")
    return out


def test_a_data_target_compares_its_value(tmp_path):
    """A value is compared as the full tier's definition check compares it (``rfl``, docs/checker-idioms.md): the
    literal arithmetic ``6 * 7`` is definitionally ``42`` (the kernel's Nat literals, as in real Lean), ``6 * 8``
    and ``7`` are not, and an open value is no answer."""
    info = problem(tmp_path, "import Mathlib\nabbrev sol : ℕ := 42\n", '"sol"')
    got = kernel_verdicts(info, ["import Mathlib\nabbrev sol : ℕ := 42\n", "import Mathlib\nabbrev sol : ℕ := 7\n",
                                 "import Mathlib\nabbrev sol : ℕ := sorry\n", "import Mathlib\ndef sol : ℕ := 6 * 7\n",
                                 "import Mathlib\ndef sol : ℕ := 6 * 8\n"])
    assert got[0] == "pass" and got[3] == "pass", got
    assert all(v != "pass" for v in (got[1], got[2], got[4])), got


def test_an_open_data_target_is_an_existence_claim(tmp_path):
    info = problem(tmp_path, "import Mathlib\ninstance e {R : Type*} [Ring R] (h : ∀ x : R, x ^ 3 = x) : CommRing R "
                   ":= sorry\n", '"e"')
    got = kernel_verdicts(info, [
        "import Mathlib\ninstance e {R : Type*} [Ring R] (h : ∀ x : R, x ^ 3 = x) : CommRing R := sorry\n",
        "import Mathlib\ninstance e {R : Type*} [Ring R] (h : ∀ x : R, x ^ 2 = x) : CommRing R := sorry\n"])
    assert got == ["pass", "fail"], got


def test_a_renamed_helper_is_compared_by_its_body(tmp_path):
    reference = "import Mathlib\ndef double (n : ℕ) : ℕ := 2 * n\n\ntheorem main (m : ℕ) : double m = 4 ↔ m = 2 := sorry\n"
    info = problem(tmp_path, reference, '"main"')
    same = "import Mathlib\ndef twice (k : ℕ) : ℕ := 2 * k\n\ntheorem main (m : ℕ) : twice m = 4 ↔ m = 2 := sorry\n"
    got = kernel_verdicts(info, [same, same.replace(":= 2 * k", ":= 3 * k"), reference.replace("2 * n", "3 * n"),
                                 "import Mathlib\ntheorem main (m : ℕ) : 2 * m = 4 ↔ m = 2 := sorry\n",
                                 "import Mathlib\ntheorem main (m : ℕ) : 3 * m = 4 ↔ m = 2 := sorry\n"])
    assert got[0] == "pass" and got[3] == "pass", got
    assert all(v != "pass" for v in (got[1], got[2], got[4])), got


@pytest.mark.parametrize("text", ["def f : ℕ → ℕ\n  | 0 => 1\n  | n + 1 => 2 * f n", "def f (n : ℕ) : ℕ := by exact n"])
def test_a_body_that_is_no_term_is_compared_as_written(text):
    stmt = "theorem t : f 3 = 8"
    got = verdicts([(stmt, stmt, text, text), (stmt, stmt, text, text.replace("2 *", "3 *").replace("exact n",
                                                                                                    "exact n + 1"))])
    assert got[0] == "pass" and got[1] != "pass", got


def test_an_opaque_definition_is_read_under_its_own_opens():
    stmt = "theorem t (y : ℝ) : g y = 1"
    got = verdicts([(stmt, stmt, "open Real\ndef g (x) := sqrt x", "open Real\ndef g (x) := sqrt x"),
                    (stmt, stmt, "open Real\ndef g (x) := sqrt x", "open NNReal\ndef g (x) := sqrt x")])
    assert got[0] == "pass" and got[1] != "pass", got


def test_formal_conjectures_answers_are_compared():
    # google-deepmind/formal-conjectures `answer(e)` (FormalConjectures/Util/Answer.lean): the answer is `e`
    a = "theorem erdos_t : {n : ℕ | 0 < n ∧ n ^ 2 ∣ 8} = answer({1, 2})"
    got = verdicts([(a, a.replace("answer({1, 2})", "{1, 2}"), "", ""), (a, a.replace("{1, 2}", "{1, 3}"), "", ""),
                    ("theorem t : (∀ n : ℕ, n ^ 2 ≠ 2) ↔ answer(True)", "theorem t : ∀ n : ℕ, n ^ 2 ≠ 2", "", ""),
                    ("theorem t : (∀ n : ℕ, n ^ 2 ≠ 2) ↔ answer(True)", "theorem t : ¬∀ n : ℕ, n ^ 2 ≠ 2", "", "")])
    assert got[0] == "pass" and got[2] == "pass" and got[1] != "pass" and got[3] != "pass", got


def test_a_name_two_definitions_share_is_never_read_as_one_of_them():
    stmt = "theorem t (m : ℕ) : f m = 4"
    two = "namespace A\ndef f (n : ℕ) : ℕ := 2 * n\nend A\nnamespace B\ndef f (n : ℕ) : ℕ := {b} * n\nend B\nopen A B"
    got = verdicts([(stmt, stmt, two.format(b=3), two.format(b=3)), (stmt, stmt, two.format(b=3), two.format(b=5))])
    assert got[0] == "pass" and got[1] != "pass", got


def test_an_opaque_definition_changes_with_the_helpers_it_uses():
    stmt = "theorem t (m : ℕ) : g m = 5"
    ctx = "def double (n : ℕ) : ℕ := {k} * n\ndef g (n) := double n + 1"
    got = verdicts([(stmt, stmt, ctx.format(k=2), ctx.format(k=2)), (stmt, stmt, ctx.format(k=2), ctx.format(k=3))])
    assert got[0] == "pass" and got[1] != "pass", got
