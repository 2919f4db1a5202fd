namespace ListFacts

theorem reverse_reverse_and_length {α : Type} {l : List α} :
    l.reverse.reverse = l ∧ l.reverse.length = l.length := by
  simp

end ListFacts
