/-!
# Elements are at most their squares

Reference formalization of the pyshadow problem `list_le_squares` (core Lean 4 only, no Mathlib).
-/

namespace Squares

/-- Every positive element of a list of naturals is at most its square. -/
theorem le_squares (l : List Nat) : ∀ x ∈ l, 0 < x → x ≤ x * x :=
  fun x _ _ => Nat.le_mul_self x

end Squares
