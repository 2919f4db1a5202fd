prelude
import PyshadowEnv.Core
/-! # pyshadow's signature environment: the number types and their casts

`Nat`'s operations, `Int` (core), `Rat`, `Real`, `Complex`, `NNReal`, `PNat` (Mathlib), each type's literals and
operator instances, and the casts `Nat.cast`/`Int.cast`/`Rat.cast`/`Complex.ofReal` with the coercion instances
that make the elaborator insert them. Types and operations are axioms (their definitions never make two spellings
equal in a statement comparison) except `Nat.add`, whose equations make `Fin (m + 1 + 1)` and `Fin (m + 2)` one
type; the casts are `@[coe, reducible]` definitions over their classes as in Lean
core and Mathlib, so `↑n` elaborates to the same term Mathlib gives. Sources are `leanprover/lean4` (`src/…`) and
`leanprover-community/mathlib4` (`Mathlib/…`).
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u
noncomputable section

-- src/Init/Prelude.lean: `Nat.add`'s defining equations (`n + 0 = n`, `n + succ m = succ (n + m)`, there by
-- structural recursion on `m`) are what make `Fin (m + 1 + 1)` and `Fin (m + 2)` one type; written with `Nat.rec`
-- directly (the same equations definitionally) since this environment has no structural-recursion machinery
protected def Nat.add (n m : Nat) : Nat := Nat.rec (motive := fun _ => Nat) n (fun _ ih => Nat.succ ih) m
-- src/Init/Prelude.lean (Nat's other operations; their defining equations are not needed to compare statements)
axiom Nat.sub : Nat → Nat → Nat
axiom Nat.mul : Nat → Nat → Nat
axiom Nat.div : Nat → Nat → Nat
axiom Nat.mod : Nat → Nat → Nat
axiom Nat.pow : Nat → Nat → Nat
axiom Nat.le : Nat → Nat → Prop
axiom Nat.lt : Nat → Nat → Prop
instance instAddNat : Add Nat := ⟨Nat.add⟩
instance instSubNat : Sub Nat := ⟨Nat.sub⟩
instance instMulNat : Mul Nat := ⟨Nat.mul⟩
instance Nat.instDiv : Div Nat := ⟨Nat.div⟩
instance Nat.instMod : Mod Nat := ⟨Nat.mod⟩
instance instPowNat' : NatPow Nat := ⟨Nat.pow⟩
instance instLENat : LE Nat := ⟨Nat.le⟩
instance instLTNat : LT Nat := ⟨Nat.lt⟩
-- src/Init/Data/Nat/Dvd.lean
axiom Nat.instDvdNat : Dvd Nat
attribute [instance] Nat.instDvdNat
-- src/Init/Prelude.lean (`instMaxNat`/`instMinNat` via `maxOfLe`/`minOfLe`)
axiom instMaxNat : Max Nat
axiom instMinNat : Min Nat
attribute [instance] instMaxNat instMinNat

-- src/Init/Data/Int/Basic.lean: `Int` (an inductive in core; its constructors are not needed here)
axiom Int : Type
axiom Int.ofNat : Nat → Int
instance instOfNat (n : Nat) : OfNat Int n := ⟨Int.ofNat n⟩
axiom Int.instAdd : Add Int
axiom Int.instSub : Sub Int
axiom Int.instMul : Mul Int
axiom Int.instDiv : Div Int
axiom Int.instMod : Mod Int
axiom Int.instNeg : Neg Int
axiom Int.instNatPow : NatPow Int
axiom Int.instLE : LE Int
axiom Int.instLT : LT Int
axiom Int.instDvd : Dvd Int
axiom Int.instMax : Max Int
axiom Int.instMin : Min Int
attribute [instance] Int.instAdd Int.instSub Int.instMul Int.instDiv Int.instMod Int.instNeg Int.instNatPow
  Int.instLE Int.instLT Int.instDvd Int.instMax Int.instMin
-- src/Init/Data/Int/Basic.lean
axiom Int.natAbs : Int → Nat
axiom Int.toNat : Int → Nat
-- src/Init/Data/Cast.lean: `NatCast`, `Nat.cast` and the instances that make `↑n` a `Nat.cast`
class NatCast (R : Type u) where natCast : Nat → R
@[coe, reducible] protected def Nat.cast {R : Type u} [NatCast R] : Nat → R := NatCast.natCast
instance {R : Type u} [NatCast R] : CoeTail Nat R := ⟨Nat.cast⟩
instance {R : Type u} [NatCast R] : CoeHTCT Nat R := ⟨Nat.cast⟩
-- src/Init/Data/Int/Basic.lean
instance instNatCastInt : NatCast Int := ⟨Int.ofNat⟩
-- src/Init/Data/Cast.lean: `IntCast`, `Int.cast`
class IntCast (R : Type u) where intCast : Int → R
@[coe, reducible] protected def Int.cast {R : Type u} [IntCast R] : Int → R := IntCast.intCast
instance {R : Type u} [IntCast R] : CoeTail Int R := ⟨Int.cast⟩
instance {R : Type u} [IntCast R] : CoeHTCT Int R := ⟨Int.cast⟩

-- Mathlib/Data/Rat/Init.lean (`Rat` itself is Batteries' structure; `RatCast`, `Rat.cast` are Mathlib's)
axiom Rat : Type
class RatCast (K : Type u) where ratCast : Rat → K
@[coe, reducible] protected def Rat.cast {K : Type u} [RatCast K] : Rat → K := RatCast.ratCast
instance {K : Type u} [RatCast K] : CoeTail Rat K := ⟨Rat.cast⟩
instance {K : Type u} [RatCast K] : CoeHTCT Rat K := ⟨Rat.cast⟩

-- Mathlib/Data/Real/Basic.lean
axiom Real : Type
-- Mathlib/Data/Complex/Basic.lean
axiom Complex : Type
-- Mathlib/Data/NNReal/Defs.lean
axiom NNReal : Type
-- Mathlib/Data/PNat/Notation.lean (`def PNat := { n : ℕ // 0 < n }`; kept opaque)
axiom PNat : Type

-- Literals: Mathlib/Data/Nat/Cast/Defs.lean `instOfNat [NatCast R] [Nat.AtLeastTwo n] : OfNat R n`, with
-- `Zero`/`One` for 0 and 1 (Mathlib/Algebra/Group/ZeroOne.lean); one axiom instance per type stands for them.
axiom Rat.instOfNat (n : Nat) : OfNat Rat n
axiom Real.instOfNat (n : Nat) : OfNat Real n
axiom Complex.instOfNat (n : Nat) : OfNat Complex n
axiom NNReal.instOfNat (n : Nat) : OfNat NNReal n
axiom PNat.instOfNat (n : Nat) : OfNat PNat n
attribute [instance] Rat.instOfNat Real.instOfNat Complex.instOfNat NNReal.instOfNat PNat.instOfNat

-- The casts between them: Mathlib/Data/Rat/Defs.lean, Mathlib/Data/Real/Basic.lean (`Real.instNatCast`,
-- `Real.instIntCast`, `Real.instRatCast`), Mathlib/Data/Complex/Basic.lean (and `Complex.ofReal` with
-- `instance : Coe ℝ ℂ := ⟨ofReal⟩`), Mathlib/Data/NNReal/Defs.lean (`NNReal.toReal`, `Coe ℝ≥0 ℝ`),
-- Mathlib/Data/PNat/Notation.lean (`PNat.val`, `Coe ℕ+ ℕ`).
axiom Rat.instNatCast : NatCast Rat
axiom Rat.instIntCast : IntCast Rat
axiom Real.instNatCast : NatCast Real
axiom Real.instIntCast : IntCast Real
axiom Real.instRatCast : RatCast Real
axiom Complex.instNatCast : NatCast Complex
axiom Complex.instIntCast : IntCast Complex
axiom Complex.instRatCast : RatCast Complex
axiom NNReal.instNatCast : NatCast NNReal
attribute [instance] Rat.instNatCast Rat.instIntCast Real.instNatCast Real.instIntCast Real.instRatCast
  Complex.instNatCast Complex.instIntCast Complex.instRatCast NNReal.instNatCast
@[coe] axiom Complex.ofReal : Real → Complex
instance : Coe Real Complex := ⟨Complex.ofReal⟩
@[coe] axiom NNReal.toReal : NNReal → Real
instance : Coe NNReal Real := ⟨NNReal.toReal⟩
@[coe] axiom PNat.val : PNat → Nat
instance : Coe PNat Nat := ⟨PNat.val⟩

-- Operations on each field-like type (Mathlib's `Field`/`LinearOrder` instances reduce to these for the
-- elaborator; one axiom instance per (class, type))
axiom Rat.instAdd : Add Rat
axiom Rat.instSub : Sub Rat
axiom Rat.instMul : Mul Rat
axiom Rat.instDiv : Div Rat
axiom Rat.instNeg : Neg Rat
axiom Rat.instNatPow : NatPow Rat
axiom Rat.instLE : LE Rat
axiom Rat.instLT : LT Rat
axiom Real.instAdd : Add Real
axiom Real.instSub : Sub Real
axiom Real.instMul : Mul Real
axiom Real.instDiv : Div Real
axiom Real.instNeg : Neg Real
axiom Real.instNatPow : NatPow Real
axiom Real.instLE : LE Real
axiom Real.instLT : LT Real
axiom Real.instMax : Max Real
axiom Real.instMin : Min Real
axiom Complex.instAdd : Add Complex
axiom Complex.instSub : Sub Complex
axiom Complex.instMul : Mul Complex
axiom Complex.instDiv : Div Complex
axiom Complex.instNeg : Neg Complex
axiom Complex.instNatPow : NatPow Complex
axiom NNReal.instAdd : Add NNReal
axiom NNReal.instSub : Sub NNReal
axiom NNReal.instMul : Mul NNReal
axiom NNReal.instDiv : Div NNReal
axiom NNReal.instLE : LE NNReal
axiom NNReal.instLT : LT NNReal
axiom PNat.instAdd : Add PNat
axiom PNat.instMul : Mul PNat
axiom PNat.instLE : LE PNat
axiom PNat.instLT : LT PNat
axiom PNat.instDvd : Dvd PNat
attribute [instance] Rat.instAdd Rat.instSub Rat.instMul Rat.instDiv Rat.instNeg Rat.instNatPow Rat.instLE
  Rat.instLT Real.instAdd Real.instSub Real.instMul Real.instDiv Real.instNeg Real.instNatPow Real.instLE
  Real.instLT Real.instMax Real.instMin Complex.instAdd Complex.instSub Complex.instMul Complex.instDiv
  Complex.instNeg Complex.instNatPow NNReal.instAdd NNReal.instSub NNReal.instMul NNReal.instDiv NNReal.instLE
  NNReal.instLT PNat.instAdd PNat.instMul PNat.instLE PNat.instLT PNat.instDvd
-- Mathlib/Analysis/SpecialFunctions/Pow/Real.lean: `x ^ y` with a real exponent (`Real.rpow`)
axiom Real.instPowReal : Pow Real Real
-- Mathlib/Algebra/Group/Defs.lean (`DivInvMonoid.Pow`, `zpow`): integer exponents
axiom Real.instPowInt : Pow Real Int
axiom Rat.instPowInt : Pow Rat Int
-- Mathlib/Analysis/SpecialFunctions/Pow/Complex.lean
axiom Complex.instPowComplex : Pow Complex Complex
attribute [instance] Real.instPowReal Real.instPowInt Rat.instPowInt Complex.instPowComplex
end
