namespace Squares

theorem le_squares (l : List Nat) : ∀ x ∈ l, x ≤ x * x :=
  fun x _ => Nat.le_mul_self x

end Squares
