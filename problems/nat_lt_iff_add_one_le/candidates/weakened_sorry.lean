namespace NatOrder

/-- A statement-benchmark submission: only one direction of the reference's `↔`. -/
theorem lt_iff_add_one_le (m n : Nat) (h : m < n) : m + 1 ≤ n := by
  sorry

end NatOrder
