/-!
# Strict order via the successor

Reference formalization of the pyshadow problem `nat_lt_iff_add_one_le` (core Lean 4 only, no Mathlib).
-/

namespace NatOrder

/-- `m < n` exactly when `m + 1 ≤ n`. -/
theorem lt_iff_add_one_le (m n : Nat) : m < n ↔ m + 1 ≤ n := by
  omega

end NatOrder
