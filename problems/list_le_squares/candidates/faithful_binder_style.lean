namespace Squares

theorem le_squares (l : List Nat) : ∀ x, x ∈ l → x > 0 → x ≤ x * x :=
  fun x _ _ => Nat.le_mul_self x

end Squares
