/-!
# Subtracting then adding back

Reference formalization of the pyshadow problem `nat_sub_add_cancel` (core Lean 4 only, no Mathlib).
-/

namespace Arith

/-- Truncated subtraction is undone by adding back, when nothing was truncated. -/
theorem sub_add_cancel_of_le (a b : Nat) (h : b ≤ a) : a - b + b = a :=
  Nat.sub_add_cancel h

end Arith
