import Mathlib

namespace PyShadow.Checkers.RealSumOddEqSq

/-!
# Sum of odd numbers is a square

Reference formalization of the pyshadow problem `real_sum_odd_eq_sq` (needs Mathlib).
-/

open Finset

/-- The first `n` odd numbers add up to `n ^ 2`. -/
theorem real_sum_odd_eq_sq (n : ℕ) : ∑ i ∈ range n, (2 * (i : ℝ) + 1) = (n : ℝ) ^ 2 := by
  induction n with
  | zero => simp
  | succ k ih =>
    rw [sum_range_succ, ih]
    push_cast
    ring

end PyShadow.Checkers.RealSumOddEqSq
