/-- Every inequality now holds by `⟨rfl, rfl⟩`. -/
notation:50 a:51 " ≤ " b:51 => a = a ∧ b = b

theorem nat_add_comm_assoc (a b c : Nat) : a + b = b + a ∧ a + b + c = a + (b + c) :=
  ⟨Nat.add_comm a b, Nat.add_assoc a b c⟩
