namespace Logic

theorem not_or_iff_and_not (p q : Prop) : ¬(p ∨ q) → ¬p ∧ ¬q :=
  fun h => ⟨fun hp => h (Or.inl hp), fun hq => h (Or.inr hq)⟩

end Logic
