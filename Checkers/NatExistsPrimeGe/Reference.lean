import Mathlib

namespace PyShadow.Checkers.NatExistsPrimeGe

/-!
# There are arbitrarily large primes

Reference formalization of the pyshadow problem `nat_exists_prime_ge` (needs Mathlib).
-/

/-- Primes are unbounded. -/
theorem exists_prime_ge (n : ℕ) : ∃ p, n ≤ p ∧ Nat.Prime p :=
  Nat.exists_infinite_primes n

end PyShadow.Checkers.NatExistsPrimeGe
