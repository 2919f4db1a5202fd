namespace PyShadow.Checkers.PropAndOrDistrib

/-!
# Conjunction distributes over disjunction

Reference formalization of the pyshadow problem `prop_and_or_distrib` (core Lean 4 only, no Mathlib).
-/

/-- `∧` distributes over `∨` on the left. -/
theorem prop_and_or_distrib (p q r : Prop) : p ∧ (q ∨ r) ↔ (p ∧ q) ∨ (p ∧ r) :=
  ⟨fun ⟨hp, hqr⟩ => hqr.elim (fun hq => Or.inl ⟨hp, hq⟩) (fun hr => Or.inr ⟨hp, hr⟩),
   fun h => h.elim (fun ⟨hp, hq⟩ => ⟨hp, Or.inl hq⟩) (fun ⟨hp, hr⟩ => ⟨hp, Or.inr hr⟩)⟩

end PyShadow.Checkers.PropAndOrDistrib
