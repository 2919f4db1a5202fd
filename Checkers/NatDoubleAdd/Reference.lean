/-!
# Doubling is additive

Reference formalization of the pyshadow problem `nat_double_add` (core Lean 4 only, no Mathlib).
-/

namespace Doubling

/-- Twice a natural number. -/
def double (n : Nat) : Nat := n + n

/-- Doubling distributes over addition. -/
theorem double_add (m n : Nat) : double (m + n) = double m + double n := by
  unfold double
  omega

end Doubling
