namespace Arith

theorem sub_add_cancel_of_le (a b : Nat) (h : b ≤ a) (hb : 0 < b) : a - b + b = a :=
  Nat.sub_add_cancel h

end Arith
