namespace PyShadow.Checkers.ListLengthAppend

/-!
# Length of a concatenation

Reference formalization of the pyshadow problem `list_length_append` (core Lean 4 only, no Mathlib).
-/

universe u

/-- Concatenation adds lengths. -/
theorem list_length_append {α : Type u} (l₁ l₂ : List α) :
    (l₁ ++ l₂).length = l₁.length + l₂.length := by
  simp

end PyShadow.Checkers.ListLengthAppend
