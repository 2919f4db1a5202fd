/-!
# No number is both even and odd

Reference formalization of the pyshadow problem `nat_not_even_and_odd` (core Lean 4 only, no Mathlib).
-/

namespace Parity

/-- A remainder modulo two is not both zero and one. -/
theorem not_even_and_odd (n : Nat) : ¬(n % 2 = 0 ∧ n % 2 = 1) := by
  omega

end Parity
