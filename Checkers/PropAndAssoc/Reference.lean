/-!
# Associativity of conjunction

Reference formalization of the pyshadow problem `prop_and_assoc` (core Lean 4 only, no Mathlib).
-/

namespace Logic

/-- `∧` is associative. -/
theorem and_assoc_iff (p q r : Prop) : (p ∧ q) ∧ r ↔ p ∧ (q ∧ r) :=
  ⟨fun ⟨⟨hp, hq⟩, hr⟩ => ⟨hp, hq, hr⟩, fun ⟨hp, hq, hr⟩ => ⟨⟨hp, hq⟩, hr⟩⟩

end Logic
