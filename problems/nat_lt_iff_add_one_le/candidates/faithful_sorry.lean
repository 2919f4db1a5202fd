namespace NatOrder

/-- A statement-benchmark submission: the statement, its proof left to a prover. -/
theorem lt_iff_add_one_le {m n : Nat} : m < n ↔ m + 1 ≤ n := by
  sorry

end NatOrder
