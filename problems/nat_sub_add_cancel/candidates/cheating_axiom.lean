namespace Arith

axiom sub_add_cancel_of_le (a b : Nat) (h : b ≤ a) : a - b + b = a

end Arith
