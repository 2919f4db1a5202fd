namespace PyShadow.Checkers.NatEqIffLeAndGe

/-!
# Equality as two inequalities

Reference formalization of the pyshadow problem `nat_eq_iff_le_and_ge` (core Lean 4 only, no Mathlib).
-/

/-- Equality of natural numbers is the conjunction of the two inequalities. -/
theorem nat_eq_iff_le_and_ge (m n : Nat) : m = n ↔ m ≤ n ∧ n ≤ m := by
  omega

end PyShadow.Checkers.NatEqIffLeAndGe
