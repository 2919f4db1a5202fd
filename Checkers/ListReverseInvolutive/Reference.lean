/-!
# Reverse is an involution that keeps length

Reference formalization of the pyshadow problem `list_reverse_involutive` (core Lean 4 only, no Mathlib).
-/

namespace ListFacts

/-- Reversal is an involution and preserves length. -/
theorem reverse_reverse_and_length {α : Type} (l : List α) :
    l.reverse.reverse = l ∧ l.reverse.length = l.length := by
  simp

end ListFacts
