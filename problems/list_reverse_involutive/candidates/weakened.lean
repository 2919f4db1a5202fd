namespace ListFacts

theorem reverse_reverse_and_length {α : Type} (l : List α) : l.reverse.reverse = l := by
  simp

end ListFacts
