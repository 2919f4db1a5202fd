/-!
# Three consequences of positivity

Reference formalization of the pyshadow problem `nat_pos_facts` (core Lean 4 only, no Mathlib).
-/

namespace NatPos

/-- A positive natural number is nonzero, at least one, and the successor of its predecessor. -/
theorem pos_facts (n : Nat) : 0 < n → n ≠ 0 ∧ 1 ≤ n ∧ n - 1 + 1 = n := by
  intro h
  omega

end NatPos
