namespace NatPos

theorem pos_facts (n : Nat) : 0 < n → n ≠ 0 ∧ 1 ≤ n := by
  intro h
  omega

end NatPos
