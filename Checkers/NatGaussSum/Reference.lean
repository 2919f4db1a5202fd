/-!
# Gauss's sum formula

Reference formalization of the pyshadow problem `nat_gauss_sum` (core Lean 4 only, no Mathlib).
-/

namespace Gauss

/-- `sumUpTo n = 0 + 1 + ⋯ + n`. -/
def sumUpTo : Nat → Nat
  | 0 => 0
  | n + 1 => sumUpTo n + (n + 1)

/-- Twice the sum of the first `n` numbers is `n * (n + 1)`. -/
theorem two_mul_sumUpTo (n : Nat) : 2 * sumUpTo n = n * (n + 1) := by
  induction n with
  | zero => rfl
  | succ k ih =>
    simp only [sumUpTo, Nat.mul_add, Nat.add_mul, Nat.mul_one, Nat.one_mul] at *
    omega

end Gauss
