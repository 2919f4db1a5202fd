namespace NatOrder

/-- A statement-benchmark submission that says something else: `≤` where the reference has `<`. -/
theorem lt_iff_add_one_le (m n : Nat) : m ≤ n ↔ m + 1 ≤ n := by
  sorry

end NatOrder
