namespace PyShadow.Checkers.NatExistsGreater

/-!
# No largest natural number

Reference formalization of the pyshadow problem `nat_exists_greater` (core Lean 4 only, no Mathlib).
-/

/-- Every natural number has a larger one. -/
theorem nat_exists_greater : ∀ n : Nat, ∃ m, n < m :=
  fun n => ⟨n + 1, Nat.lt_succ_self n⟩

end PyShadow.Checkers.NatExistsGreater
