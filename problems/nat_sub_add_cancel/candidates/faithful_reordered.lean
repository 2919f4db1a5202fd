namespace Arith

theorem sub_add_cancel_of_le {b a : Nat} (h : a ≥ b) : a - b + b = a :=
  Nat.sub_add_cancel h

end Arith
