namespace NatPos

theorem pos_facts {n : Nat} (h : n > 0) : n ≠ 0 ∧ 1 ≤ n ∧ n - 1 + 1 = n := by
  omega

end NatPos
