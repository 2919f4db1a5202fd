"""Mathlib's partially applied coercion ``(↑)`` (Mathlib/Tactic/Coe.lean) printed for Lean under a function type's
ascription as ``fun x => (x :)`` (``pyshadow.elab.translate``), checked against the environment's own coercion, with
a mutation partner that must not pass."""

from __future__ import annotations

import pytest

from lean_claims import assert_lean_decides
from pyshadow.elab.translate import Untranslatable, to_lean
from pyshadow.syntax import terms as tm


def test_the_coercion_function_is_printed_only_at_a_function_type():
    assert to_lean(tm.read_term("((↑) : ℚ → ℝ)")) == "(fun x => (x :) : Rat → Real)"
    for text in ("Set.range (↑)", "((↑) : ℕ)"):
        with pytest.raises(Untranslatable):
            to_lean(tm.read_term(text))


@pytest.mark.kernel
def test_the_range_of_the_coercion_is_the_range_of_the_cast(kernel_lean_exe):
    # ProofNet's `Irrational`-style statements spell the rationals inside ℝ as `range ((↑) : ℚ → ℝ)`
    assert_lean_decides("theorem t (x : ℝ) : x ∉ Set.range ((↑) : ℚ → ℝ)", "theorem t (x : ℝ) : Irrational x",
                        ["theorem t (x : ℝ) : x ∉ Set.range ((↑) : ℤ → ℝ)"])
