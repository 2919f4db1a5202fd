namespace NatOrder

/-- A `sorry` outside a theorem's proof: a definition's body is part of what statements mean. -/
def witness : Nat := sorry

theorem lt_iff_add_one_le (m n : Nat) : m < n ↔ m + 1 ≤ n := by
  sorry

end NatOrder
