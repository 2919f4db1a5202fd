prelude
import PyshadowEnv.Rings
/-! # pyshadow's signature environment: number theory

`Rat.num`/`Rat.den`, `Nat.totient`, `Nat.ofDigits`, and `Fact` (the class statements use for `[Fact p.Prime]`),
each with its Lean core or Mathlib signature. `Fact` is the structure Mathlib defines; the functions are axioms.
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
-- Mathlib/Data/Nat/Digits/Defs.lean
axiom Nat.ofDigits {α : Type u} [Semiring α] (b : α) : List Nat → α
-- Mathlib/Logic/Basic.lean
class Fact (p : Prop) : Prop where
  out : p
end
