/-!
# De Morgan for disjunction

Reference formalization of the pyshadow problem `prop_not_or_iff` (core Lean 4 only, no Mathlib).
-/

namespace Logic

/-- De Morgan's law for `∨`. -/
theorem not_or_iff_and_not (p q : Prop) : ¬(p ∨ q) ↔ ¬p ∧ ¬q :=
  ⟨fun h => ⟨fun hp => h (Or.inl hp), fun hq => h (Or.inr hq)⟩,
   fun ⟨hnp, hnq⟩ h => h.elim hnp hnq⟩

end Logic
