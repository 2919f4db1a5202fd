namespace NatPos

theorem pos_facts (n : Nat) : 0 < n → n ≠ 0 ∧ 1 ≤ n ∧ n - 1 + 1 = n := by
  sorry

end NatPos
