namespace PyShadow.Checkers.NatMinMax

/-!
# Minimum and maximum

Reference formalization of the pyshadow problem `nat_min_max` (core Lean 4 only, no Mathlib).
-/

/-- The minimum and the maximum of two numbers add up to their sum. -/
theorem nat_min_add_max : ∀ a b : Nat, min a b + max a b = a + b := by
  intro a b
  omega

/-- The minimum is at most the maximum. -/
theorem nat_min_le_max (a b : Nat) : min a b ≤ max a b := by
  omega

end PyShadow.Checkers.NatMinMax
