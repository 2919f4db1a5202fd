prelude
import PyshadowEnv.Rings
/-! # pyshadow's signature environment: number theory

`Rat.num`/`Rat.den`, `Nat.totient`, `legendreSym` and `Nat.ofDigits`, each with its Lean core or Mathlib signature; all are
axioms (no statement comparison unfolds them).
Sources: `leanprover/lean4` (`src/…`) and `leanprover-community/mathlib4` (`Mathlib/…`).
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u
noncomputable section

-- src/Init/Data/Rat/Basic.lean (`structure Rat` with fields `num : Int`, `den : Nat`; `Rat` is opaque here)
axiom Rat.num : Rat → Int
axiom Rat.den : Rat → Nat
-- Mathlib/Data/Nat/Totient.lean
axiom Nat.totient (n : Nat) : Nat
-- Mathlib/NumberTheory/LegendreSymbol/Basic.lean (`variable (p : ℕ) [Fact p.Prime]`, `def legendreSym (a : ℤ) : ℤ`)
axiom legendreSym (p : Nat) [Fact (Nat.Prime p)] (a : Int) : Int
-- Mathlib/Data/Nat/Digits/Defs.lean
axiom Nat.ofDigits {α : Type u} [Semiring α] (b : α) : List Nat → α
-- Mathlib/Data/Nat/Sqrt.lean (its lemmas; `def Nat.sqrt (n : Nat) : Nat` is Batteries' Batteries/Data/Nat/Basic.lean)
axiom Nat.sqrt (n : Nat) : Nat
-- Mathlib/Logic/Function/Iterate.lean (`def Nat.iterate {α : Sort u} (op : α → α) : ℕ → α → α`, `f^[n]`; opaque)
axiom Nat.iterate {α : Sort u} (op : α → α) : Nat → α → α
-- Mathlib/Algebra/Group/Even.lean (`def IsSquare [Mul α] (a : α) : Prop := ∃ r, a = r * r`)
def IsSquare {α : Type u} [Mul α] (a : α) : Prop := Exists fun r => Eq a (HMul.hMul r r)
-- Mathlib/Analysis/SpecialFunctions/Trigonometric/Arctan.lean (`noncomputable def Real.arctan (x : ℝ) : ℝ`)
axiom Real.arctan (x : Real) : Real
end
