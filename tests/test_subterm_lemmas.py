"""A lemma of the table at several closed subterms of one atom (``pyshadow.kernel.subterms``): each rewrite is
Lean's proof, the atom around it the same; each claim with its mutation partner."""

from __future__ import annotations

import pytest

import pyshadow
from pyshadow.kernel.subterms import differing_subterms, rewritten


def test_differing_subterms_are_outermost_and_closed():
    assert differing_subterms("Real.sqrt (Real.log 6 / Real.log 2 + Real.log 6 / Real.log 3)",
                              "Real.sqrt (Real.logb 2 6 + Real.logb 3 6)") == [
        ("Real.log 6 / Real.log 2", "Real.logb 2 6"), ("Real.log 6 / Real.log 3", "Real.logb 3 6")]
    assert differing_subterms("x ^ 2 + 1 / x ^ 2", "x ^ 2 + (x ^ 2)⁻¹") == [("1 / x ^ 2", "(x ^ 2)⁻¹")]
    # a binder is compared whole: the pair never mentions the bound name alone
    assert differing_subterms("∑ i ∈ s, 1 / i", "∑ i ∈ s, i⁻¹") == [("∑ i ∈ s, 1 / i", "∑ i ∈ s, i⁻¹")]
    assert differing_subterms("x + 1", "x + 1") == []


def test_rewritten_replaces_every_occurrence_and_says_which_keys():
    text, used = rewritten("x ^ 2 + (x ^ 2)⁻¹ + (x ^ 2)⁻¹", {"(x ^ 2)⁻¹": "1 / x ^ 2"})
    assert text == "x ^ 2 + 1 / x ^ 2 + 1 / x ^ 2" and used == {"(x ^ 2)⁻¹"}
    assert rewritten("x + 1", {"y": "z"}) is None


REF = ("theorem amc12b_2020_p13 : Real.sqrt (Real.log 6 / Real.log 2 + Real.log 6 / Real.log 3) = "
       "Real.sqrt (Real.log 3 / Real.log 2) + Real.sqrt (Real.log 2 / Real.log 3)")
CAND = ("theorem formal_7418 : Real.sqrt (Real.logb 2 6 + Real.logb 3 6) = "
        "Real.sqrt (Real.logb 2 3) + Real.sqrt (Real.logb 3 2)")


@pytest.mark.kernel
@pytest.mark.parametrize("ref, cand, mutated", [
    # miniF2F amc12b_2020_p13 as yangky11's port and Harmonic's formalization write it
    (REF, CAND, CAND.replace("Real.logb 3 2", "Real.logb 3 4")),
    ("theorem t (x : ℝ) (h₀ : x ≠ 0) (h₁ : x + 1 / x = 3) : x ^ 2 + 1 / x ^ 2 = 7",
     "theorem t (x : ℝ) (h₀ : x ≠ 0) (h₁ : x + x⁻¹ = 3) : x ^ 2 + (x ^ 2)⁻¹ = 7",
     "theorem t (x : ℝ) (h₀ : x ≠ 0) (h₁ : x + x⁻¹ = 3) : x ^ 2 + (x ^ 3)⁻¹ = 7"),
])
def test_a_lemma_at_several_subterms_passes_and_its_mutation_does_not(kernel_lean_exe, ref, cand, mutated):
    ok = pyshadow.check_pair(ref, cand)
    assert ok.verdict == "pass" and ok.lean == "accepted", ok.reason
    assert pyshadow.check_pair(ref, mutated).verdict != "pass"
