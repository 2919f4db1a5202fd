namespace PyShadow.Checkers.NatModTwoCases

/-!
# Every number is even or odd

Reference formalization of the pyshadow problem `nat_mod_two_cases` (core Lean 4 only, no Mathlib).
-/

/-- The remainder of `n` modulo two is zero or one. -/
theorem nat_mod_two_cases (n : Nat) : n % 2 = 0 ∨ n % 2 = 1 := by
  omega

end PyShadow.Checkers.NatModTwoCases
