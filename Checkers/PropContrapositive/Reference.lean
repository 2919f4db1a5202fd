namespace PyShadow.Checkers.PropContrapositive

/-!
# Contraposition

Reference formalization of the pyshadow problem `prop_contrapositive` (core Lean 4 only, no Mathlib).
-/

/-- An implication gives its contrapositive. -/
theorem prop_contrapositive (p q : Prop) : (p → q) → ¬q → ¬p :=
  fun hpq hnq hp => hnq (hpq hp)

end PyShadow.Checkers.PropContrapositive
