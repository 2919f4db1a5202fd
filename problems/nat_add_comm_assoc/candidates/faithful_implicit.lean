theorem nat_add_comm_assoc {a b c : Nat} : a + b = b + a ∧ a + b + c = a + (b + c) :=
  ⟨Nat.add_comm a b, Nat.add_assoc a b c⟩
