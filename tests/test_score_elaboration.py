"""Kernel-tier scoring judges a target the skeleton search cannot pass by Lean's own elaborator, as pairs are
judged (``pyshadow.kernel.pairs.lean_equal_keys``): a candidate Lean elaborates to the reference's proposition
passes, its mutation partner does not, and a core-only problem never borrows the environment's Mathlib names."""

from __future__ import annotations

import pytest

import pyshadow
from pyshadow.paths import PROBLEMS_DIR

pytestmark = pytest.mark.kernel

HEADER = "import Mathlib\nopen Finset\n"
SAME = "theorem real_sum_odd_eq_sq (n : ℕ) : ∑ i ∈ range n, (2 * (i : ℝ) + 1) ∈ ({(n : ℝ) ^ 2} : Set ℝ) := by\n  simp"
CHANGED = SAME.replace("(n : ℝ) ^ 2", "(n : ℝ) ^ 3")


def test_a_candidate_lean_elaborates_to_the_reference_passes_and_its_mutation_fails():
    problems = pyshadow.load_problems(PROBLEMS_DIR)
    problem = problems["real_sum_odd_eq_sq"]
    same, = pyshadow.score(problem, {"real_sum_odd_eq_sq": HEADER + SAME})
    changed, = pyshadow.score(problem, {"real_sum_odd_eq_sq": HEADER + CHANGED})
    assert same.sa_pass, same.reason
    assert not changed.sa_pass


def test_a_core_only_problem_does_not_pass_on_mathlib_names():
    problems = pyshadow.load_problems(PROBLEMS_DIR)
    code = "theorem int_lt_iff_sub_pos (a b : Int) : a < b ↔ b - a ∈ Set.Ioi 0 := by\n  omega"
    row, = pyshadow.score(problems["int_lt_iff_sub_pos"], {"int_lt_iff_sub_pos": code})
    assert not row.sa_pass  # `Set.Ioi` is Mathlib's: the core-only reference's full tier would not elaborate it


def test_without_lean_the_skeleton_alone_does_not_pass_it(monkeypatch):
    """The first test exercises Lean: with neither Lean-equality nor Lean's check of the skeleton's terms (which
    proves the reading of `∈ {·}` as `=` definitionally), the skeleton's pass stands on nothing and strict scoring
    leaves it undecided."""
    import pyshadow.kernel.pairs as pairs
    import pyshadow.kernel.scoring as scoring
    import pyshadow.kernel.lean_check as lean_check_module
    from pyshadow.kernel.lean_check import UNCHECKED, LeanCheck

    monkeypatch.setattr(pairs, "lean_equal_keys", lambda items, lean: set())
    def no_lean(items, lean, **kw):
        return {pair.key: LeanCheck(pair.key, UNCHECKED, "no Lean (test)") for pair, _ in items}

    monkeypatch.setattr(scoring, "lean_check", no_lean)
    monkeypatch.setattr(lean_check_module, "lean_check", no_lean)  # lemma_pairs imports it where it uses it
    problems = pyshadow.load_problems(PROBLEMS_DIR)
    row, = pyshadow.score(problems["real_sum_odd_eq_sq"], {"real_sum_odd_eq_sq": HEADER + SAME})
    assert not row.sa_pass
