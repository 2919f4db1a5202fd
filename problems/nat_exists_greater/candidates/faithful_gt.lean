theorem nat_exists_greater (n : Nat) : ∃ m, m > n :=
  ⟨n + 1, Nat.lt_succ_self n⟩
