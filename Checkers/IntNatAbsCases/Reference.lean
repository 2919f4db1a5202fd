/-!
# Absolute value is `a` or `-a`

Reference formalization of the pyshadow problem `int_natAbs_cases` (core Lean 4 only, no Mathlib).
-/

namespace IntAbs

/-- `|a|` is `a` or `-a`. -/
theorem natAbs_cases (a : Int) : (a.natAbs : Int) = a ∨ (a.natAbs : Int) = -a := by
  omega

end IntAbs
