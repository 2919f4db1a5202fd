namespace PyShadow.Checkers.NatAddCommAssoc

/-!
# Commutativity and associativity of addition on `Nat`

Reference formalization of the pyshadow problem `nat_add_comm_assoc` (core Lean 4 only, no Mathlib).
-/

/-- Addition of natural numbers is commutative and associative. -/
theorem nat_add_comm_assoc (a b c : Nat) : a + b = b + a ∧ a + b + c = a + (b + c) :=
  ⟨Nat.add_comm a b, Nat.add_assoc a b c⟩

end PyShadow.Checkers.NatAddCommAssoc
