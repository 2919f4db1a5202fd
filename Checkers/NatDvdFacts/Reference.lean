/-!
# Three divisibility facts

Reference formalization of the pyshadow problem `nat_dvd_facts` (core Lean 4 only, no Mathlib).
-/

namespace Divisibility

/-- A common divisor of two numbers divides their sum. -/
theorem dvd_add_of_dvd (a b c : Nat) (hb : a ∣ b) (hc : a ∣ c) : a ∣ b + c :=
  Nat.dvd_add hb hc

/-- Divisibility is transitive. -/
theorem dvd_trans_of_dvd (a b c : Nat) : a ∣ b → b ∣ c → a ∣ c :=
  fun hab hbc => Nat.dvd_trans hab hbc

/-- A number divides each of its multiples. -/
theorem dvd_mul_of_self (a b : Nat) : a ∣ a * b :=
  Nat.dvd_mul_right a b

end Divisibility
