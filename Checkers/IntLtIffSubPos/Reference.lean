namespace PyShadow.Checkers.IntLtIffSubPos

/-!
# Comparing by a difference

Reference formalization of the pyshadow problem `int_lt_iff_sub_pos` (core Lean 4 only, no Mathlib).
-/

/-- `a < b` exactly when `b - a` is positive. -/
theorem int_lt_iff_sub_pos (a b : Int) : a < b ↔ 0 < b - a := by
  omega

end PyShadow.Checkers.IntLtIffSubPos
