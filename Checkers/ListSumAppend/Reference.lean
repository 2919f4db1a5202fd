/-!
# Sum of a concatenation

Reference formalization of the pyshadow problem `list_sum_append` (core Lean 4 only, no Mathlib).
-/

namespace ListSum

/-- `List.sum` turns concatenation into addition. -/
theorem sum_append (l₁ l₂ : List Nat) : (l₁ ++ l₂).sum = l₁.sum + l₂.sum := by
  induction l₁ with
  | nil => simp
  | cons a as ih => simp [ih, Nat.add_assoc]

end ListSum
