"""A table lemma under a quantifier: the atom pair is asked of Lean as a function of the bound variable (after the
statement's own variables, implicit type variables and their instances included), and the congruence holes the
atom under its ∀/∃ (``pyshadow.elab.atom_lemmas``, ``pyshadow.elab.congruence``). Every claim is checked by the
kernel-tier Lean and has a mutation partner that must not pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pyshadow

pytestmark = pytest.mark.kernel
PAIRS = Path(__file__).resolve().parent / "fixtures" / "pairs"

# (reference, candidate, the candidate changed at one place)
CASES = [
    # Set.nonempty_iff_ne_empty under ∀, the bound variable untyped (Lean infers it from `A n`)
    ("theorem t (A : ℕ → Set ℝ) (h : ∀ n, A n ∩ A (n + 1) ≠ ∅) : A 0 ≠ ∅",
     "theorem t (A : ℕ → Set ℝ) (h : ∀ n, (A n ∩ A (n + 1)).Nonempty) : A 0 ≠ ∅",
     "theorem t (A : ℕ → Set ℝ) (h : ∀ n, (A n ∩ A (n + 2)).Nonempty) : A 0 ≠ ∅"),
    # Nat.even_iff under a typed ∀
    ("theorem t (f : ℕ → ℕ) (h : ∀ n : ℕ, Even (f n)) : f 0 = f 0",
     "theorem t (f : ℕ → ℕ) (h : ∀ n : ℕ, f n % 2 = 0) : f 0 = f 0",
     "theorem t (f : ℕ → ℕ) (h : ∀ n : ℕ, f n % 2 = 1) : f 0 = f 0"),
    # under ∃ in the conclusion
    ("theorem t (f : ℕ → ℕ) : ∃ n, Even (f n) ∧ n > 2",
     "theorem t (f : ℕ → ℕ) : ∃ n, f n % 2 = 0 ∧ n > 2",
     "theorem t (f : ℕ → ℕ) : ∃ n, f (n + 1) % 2 = 0 ∧ n > 2"),
]


@pytest.mark.parametrize("reference,candidate,changed", CASES)
def test_a_lemma_under_a_quantifier_is_lean_checked_and_its_mutation_fails(reference, candidate, changed,
                                                                           kernel_lean_exe):
    ok = pyshadow.check_pair(reference, candidate)
    assert ok.verdict == "pass" and ok.lean == "accepted", ok.reason
    assert pyshadow.check_pair(reference, changed).verdict != "pass"


def test_the_bound_names_of_the_two_statements_need_not_agree(kernel_lean_exe):
    reference, candidate, _ = CASES[0]
    renamed = candidate.replace("∀ n, (A n ∩ A (n + 1))", "∀ k, (A k ∩ A (k + 1))")
    v = pyshadow.check_pair(reference, renamed)
    assert v.verdict == "pass" and v.lean == "accepted", v.reason


# ProofNetVerif rows (tests/fixtures/pairs/MODEL.md), each with the prediction changed at the place the lemma is
# used: row62 (Munkres 23.2: `{X : Type*} [TopologicalSpace X] {A : ℕ → Set X}`, `A n ∩ A (n + 1) ≠ ∅` against
# `(A n ∩ A (n + 1)).Nonempty` under `∀ n`); row71 (Rudin 2.24: `∀ (A : Set X), Infinite A → …`, a set coerced to a
# type, against `∀ (S : Set X) (hS : S.Infinite), …`: Set.infinite_coe_iff under the ∀, a hypothesis binder read as
# an implication)
REAL = [("proofnetverif-valid/Munkres/exercise_23_2#row62", "(A n ∩ A (n + 1)).Nonempty", "(A n ∩ A (n + 2)).Nonempty"),
        ("proofnetverif-valid/Rudin/exercise_2_24#row71", "(hS : S.Infinite)", "(hS : S.Nonempty)")]


@pytest.mark.parametrize("key,place,changed", REAL)
def test_a_real_model_prediction_passes_lean_checked_and_its_mutation_fails(key, place, changed, kernel_lean_exe):
    rows = [json.loads(line) for line in (PAIRS / "model_pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    row = next(r for r in rows if r["id"] == key)
    assert row["same_meaning"] and place in row["b"]
    v = pyshadow.check_pair(row["a"], row["b"], context=row["a_context"], candidate_context=row["b_context"])
    assert v.verdict == "pass" and v.lean == "accepted", v.reason
    mutant = row["b"].replace(place, changed)
    assert pyshadow.check_pair(row["a"], mutant, context=row["a_context"],
                               candidate_context=row["b_context"]).verdict != "pass"
