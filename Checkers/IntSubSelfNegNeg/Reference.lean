/-!
# Two additive identities on `Int`

Reference formalization of the pyshadow problem `int_sub_self_neg_neg` (core Lean 4 only, no Mathlib).
-/

namespace IntArith

/-- Subtracting a number from itself gives zero, and negation is an involution. -/
theorem sub_self_and_neg_neg (a : Int) : a - a = 0 ∧ -(-a) = a := by
  omega

end IntArith
