namespace PyShadow.Checkers.ListMemAppendIff

/-!
# Membership in a concatenation

Reference formalization of the pyshadow problem `list_mem_append_iff` (core Lean 4 only, no Mathlib).
-/

/-- Membership in `l₁ ++ l₂` is membership in `l₁` or in `l₂`. -/
theorem list_mem_append_iff {α : Type} (a : α) (l₁ l₂ : List α) :
    a ∈ l₁ ++ l₂ ↔ a ∈ l₁ ∨ a ∈ l₂ := by
  simp

end PyShadow.Checkers.ListMemAppendIff
