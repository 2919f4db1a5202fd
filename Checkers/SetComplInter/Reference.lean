import Mathlib

/-!
# Complement of an intersection

Reference formalization of the pyshadow problem `set_compl_inter` (needs Mathlib).
-/

namespace SetAlgebra

/-- De Morgan's law: `(s ∩ t)ᶜ = sᶜ ∪ tᶜ`. -/
theorem compl_inter_eq {α : Type*} (s t : Set α) : (s ∩ t)ᶜ = sᶜ ∪ tᶜ :=
  Set.compl_inter s t

end SetAlgebra
