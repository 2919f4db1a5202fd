prelude
import PyshadowEnv.Logic
/-! # pyshadow's signature environment: the algebraic hierarchy

`Zero`/`One` (Lean core) with their numerals, `Inv`, and Mathlib's classes of monoids, groups, rings and fields,
each declared with `extends` over Mathlib ancestors so that its parents are instance projections as in Mathlib
(`Group.toDivInvMonoid`, `Ring.toSemiring` …). Only the operations are fields: the axioms of a class are not
stated (no statement comparison uses them), and intermediate classes no statement names (`MulOneClass`'s
`MulOne`, `NonUnitalSemiring`, …) are left out, so a parent is an ancestor in Mathlib, not always the direct one.
The number types' instances are built from the operations `PyshadowEnv.Numbers` declares, so every instance path
to `Mul ℝ` reduces to the same `Real.instMul` (no diamond that Mathlib does not have).
Sources: `leanprover/lean4` (`src/…`) and `leanprover-community/mathlib4` (`Mathlib/…`).
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u v
noncomputable section

-- src/Init/Prelude.lean
class Zero (α : Type u) where zero : α
-- src/Init/Prelude.lean
class One (α : Type u) where one : α
-- src/Init/Data/Zero.lean (`OfNat α (nat_lit 0)`: the literal is the raw `0`, as `0` elaborates here)
instance (priority := 300) Zero.toOfNat0 {α : Type u} [Zero α] : OfNat α 0 := ⟨Zero.zero⟩
-- src/Init/Data/Zero.lean
instance (priority := 300) One.toOfNat1 {α : Type u} [One α] : OfNat α 1 := ⟨One.one⟩
-- Mathlib/Algebra/Group/Defs.lean (`postfix:max "⁻¹" => Inv.inv`)
class Inv (α : Type u) where inv : α → α

-- Mathlib/Algebra/Group/Defs.lean
class Semigroup (G : Type u) extends Mul G
-- Mathlib/Algebra/Group/Defs.lean
class AddSemigroup (G : Type u) extends Add G
-- Mathlib/Algebra/Group/Defs.lean
class CommSemigroup (G : Type u) extends Semigroup G
-- Mathlib/Algebra/Group/Defs.lean
class AddCommSemigroup (G : Type u) extends AddSemigroup G
-- Mathlib/Algebra/Group/Defs.lean (through `MulOne`)
class MulOneClass (M : Type u) extends One M, Mul M
-- Mathlib/Algebra/Group/Defs.lean (through `AddZero`)
class AddZeroClass (M : Type u) extends Zero M, Add M
-- Mathlib/Algebra/Group/Defs.lean
class Monoid (M : Type u) extends Semigroup M, MulOneClass M where
  npow : Nat → M → M
-- Mathlib/Algebra/Group/Defs.lean
class AddMonoid (M : Type u) extends AddSemigroup M, AddZeroClass M where
  nsmul : Nat → M → M
-- Mathlib/Algebra/Group/Defs.lean
@[default_instance 10000] instance Monoid.Pow {M : Type u} [Monoid M] : Pow M Nat := ⟨fun x n => Monoid.npow n x⟩

-- Mathlib/Algebra/Group/Defs.lean
class CommMonoid (M : Type u) extends Monoid M, CommSemigroup M
-- Mathlib/Algebra/Group/Defs.lean
class AddCommMonoid (M : Type u) extends AddMonoid M, AddCommSemigroup M
-- Mathlib/Algebra/Group/Defs.lean
class DivInvMonoid (G : Type u) extends Monoid G, Inv G, Div G where
  zpow : Int → G → G
-- Mathlib/Algebra/Group/Defs.lean
class SubNegMonoid (G : Type u) extends AddMonoid G, Neg G, Sub G where
  zsmul : Int → G → G
-- Mathlib/Algebra/Group/Defs.lean
instance DivInvMonoid.Pow {M : Type u} [DivInvMonoid M] : Pow M Int := ⟨fun x n => DivInvMonoid.zpow n x⟩

-- Mathlib/Algebra/Group/Defs.lean
class Group (G : Type u) extends DivInvMonoid G
-- Mathlib/Algebra/Group/Defs.lean
class AddGroup (A : Type u) extends SubNegMonoid A
-- Mathlib/Algebra/Group/Defs.lean
class CommGroup (G : Type u) extends Group G, CommMonoid G
-- Mathlib/Algebra/Group/Defs.lean
class AddCommGroup (G : Type u) extends AddGroup G, AddCommMonoid G

-- Mathlib/Algebra/Ring/Defs.lean (through `NonUnitalSemiring`, `NonAssocSemiring` — whose
-- `AddCommMonoidWithOne`/`AddMonoidWithOne` bring `NatCast` — and `MonoidWithZero`)
class Semiring (α : Type u) extends NatCast α, AddCommMonoid α, Monoid α
-- Mathlib/Algebra/Ring/Defs.lean (through `AddGroupWithOne`, which brings `IntCast`)
class Ring (R : Type u) extends Semiring R, IntCast R, AddCommGroup R
-- Mathlib/Data/Nat/Cast/Defs.lean
class Nat.AtLeastTwo (n : Nat) : Prop where
  prop : LE.le 2 n
-- Mathlib/Data/Nat/Cast/Defs.lean (`instance instNatAtLeastTwo {n : ℕ} : Nat.AtLeastTwo (n + 2)`)
axiom instNatAtLeastTwo {n : Nat} : Nat.AtLeastTwo (HAdd.hAdd n 2)
attribute [instance] instNatAtLeastTwo
-- Mathlib/Data/Nat/Cast/Defs.lean (`instance instOfNatAtLeastTwo [NatCast R] [Nat.AtLeastTwo n] : OfNat R n`,
-- `ofNat := n.cast`; below the number types' own literal instances here, which stay opaque)
instance (priority := 900) instOfNatAtLeastTwo {R : Type u} {n : Nat} [NatCast R] [Nat.AtLeastTwo n] : OfNat R n :=
  ⟨Nat.cast (OfNat.ofNat n)⟩
-- Mathlib/Algebra/Ring/Defs.lean
class CommSemiring (R : Type u) extends Semiring R, CommMonoid R
-- Mathlib/Algebra/Ring/Defs.lean
class CommRing (α : Type u) extends Ring α, CommMonoid α
-- Mathlib/Algebra/Ring/Defs.lean (`instance (priority := 100) CommRing.toCommSemiring [s : CommRing α] :
-- CommSemiring α := { s with }`)
@[reducible] def CommRing.toCommSemiring {α : Type u} [s : CommRing α] : CommSemiring α := { s with }
attribute [instance 100] CommRing.toCommSemiring
-- Mathlib/Algebra/Field/Defs.lean (through `Nontrivial`, `NNRatCast`, `RatCast`)
class DivisionRing (K : Type u) extends Ring K, DivInvMonoid K
-- Mathlib/Algebra/Field/Defs.lean (through `DivisionSemiring`, `CommGroupWithZero`)
class Semifield (α : Type u) extends CommSemiring α, DivInvMonoid α
-- Mathlib/Algebra/Field/Defs.lean
class Field (K : Type u) extends CommRing K, DivisionRing K

-- Mathlib/Algebra/Group/Defs.lean (`AddMonoid.nsmul`, `SubNegMonoid.zsmul` of the number types: opaque here)
axiom Int.nsmul : Nat → Int → Int
axiom Int.zsmul : Int → Int → Int
axiom Rat.nsmul : Nat → Rat → Rat
axiom Rat.zsmul : Int → Rat → Rat
axiom Real.nsmul : Nat → Real → Real
axiom Real.zsmul : Int → Real → Real
axiom Complex.nsmul : Nat → Complex → Complex
axiom Complex.zsmul : Int → Complex → Complex
-- Mathlib/Analysis/SpecialFunctions/Pow/Complex.lean … `zpow` on ℂ (Mathlib/Algebra/Group/Defs.lean `DivInvMonoid.Pow`)
axiom Complex.instPowInt : Pow Complex Int
attribute [instance] Complex.instPowInt
-- the number types' structures, over their operations: Mathlib/Algebra/Ring/Nat.lean (`Nat.instCommSemiring`),
-- Mathlib/Algebra/Ring/Int/Defs.lean (`Int.instCommRing`), Mathlib/Algebra/Ring/Rat.lean and
-- Mathlib/Algebra/Field/Rat.lean (`Rat.instField`), Mathlib/Data/Real/Basic.lean (`Real.instField` via
-- `Real.commRing`), Mathlib/Data/Complex/Basic.lean (`Complex.instField`)
-- Mathlib/Algebra/Ring/Nat.lean
instance Nat.instCommSemiring : CommSemiring Nat where
  add := Add.add
  zero := 0
  natCast n := n
  nsmul n x := HMul.hMul n x
  mul := Mul.mul
  one := 1
  npow n x := NatPow.pow x n
-- Mathlib/Algebra/Ring/Int/Defs.lean
instance Int.instCommRing : CommRing Int where
  add := Add.add
  zero := 0
  natCast := Int.ofNat
  intCast n := n
  nsmul := Int.nsmul
  neg := Neg.neg
  sub := Sub.sub
  zsmul := Int.zsmul
  mul := Mul.mul
  one := 1
  npow n x := NatPow.pow x n
-- Mathlib/Data/Rat/Defs.lean (`Rat.instInv`)
axiom Rat.instInv : Inv Rat
-- Mathlib/Data/Real/Basic.lean (`Real.instInv`)
axiom Real.instInv : Inv Real
-- Mathlib/Data/Complex/Basic.lean (`Complex.instInv`)
axiom Complex.instInv : Inv Complex
attribute [instance] Rat.instInv Real.instInv Complex.instInv
-- Mathlib/Algebra/Field/Rat.lean
instance Rat.instField : Field Rat where
  add := Add.add
  zero := 0
  natCast := Nat.cast
  intCast := Int.cast
  nsmul := Rat.nsmul
  neg := Neg.neg
  sub := Sub.sub
  zsmul := Rat.zsmul
  mul := Mul.mul
  one := 1
  npow n x := NatPow.pow x n
  zpow n x := Pow.pow x n
  inv := Inv.inv
  div := Div.div
-- Mathlib/Data/NNReal/Defs.lean (`ℝ≥0`'s `x ^ n`, `x⁻¹`, `n • x`: opaque operations)
axiom NNReal.instNatPow : NatPow NNReal
axiom NNReal.instInv : Inv NNReal
axiom NNReal.nsmul : Nat → NNReal → NNReal
axiom NNReal.zpow : Int → NNReal → NNReal
attribute [instance] NNReal.instNatPow NNReal.instInv
-- Mathlib/Data/NNReal/Defs.lean (`instance : Semifield ℝ≥0`)
instance NNReal.instSemifield : Semifield NNReal where
  add := Add.add
  zero := 0
  natCast := Nat.cast
  nsmul := NNReal.nsmul
  mul := Mul.mul
  one := 1
  npow n x := NNReal.instNatPow.pow x n
  inv := Inv.inv
  div := Div.div
  zpow := NNReal.zpow
-- Mathlib/Data/Real/Basic.lean
instance Real.instField : Field Real where
  add := Add.add
  zero := 0
  natCast := Nat.cast
  intCast := Int.cast
  nsmul := Real.nsmul
  neg := Neg.neg
  sub := Sub.sub
  zsmul := Real.zsmul
  mul := Mul.mul
  one := 1
  npow n x := NatPow.pow x n
  zpow n x := Pow.pow x n
  inv := Inv.inv
  div := Div.div
-- Mathlib/Data/Complex/Basic.lean
instance Complex.instField : Field Complex where
  add := Add.add
  zero := 0
  natCast := Nat.cast
  intCast := Int.cast
  nsmul := Complex.nsmul
  neg := Neg.neg
  sub := Sub.sub
  zsmul := Complex.zsmul
  mul := Mul.mul
  one := 1
  npow n x := NatPow.pow x n
  zpow n x := Complex.instPowInt.pow x n
  inv := Inv.inv
  div := Div.div
-- src/Init/Data/NeZero.lean (`class NeZero {R} [Zero R] (n : R) : Prop`)
class NeZero {R : Type u} [Zero R] (n : R) : Prop where
  out : Ne n 0
-- src/Init/Data/NeZero.lean (`instance Nat.instNeZeroSucc {n : Nat} : NeZero (n + 1)`)
axiom Nat.instNeZeroSucc {n : Nat} : NeZero (HAdd.hAdd n 1)
attribute [instance] Nat.instNeZeroSucc
-- src/Init/Data/Fin/Basic.lean (`instance Fin.instOfNat {n : Nat} [NeZero n] {i : Nat} : OfNat (Fin n) i`)
axiom Fin.instOfNat {n : Nat} [NeZero n] {i : Nat} : OfNat (Fin n) i
attribute [instance] Fin.instOfNat
-- Mathlib/Algebra/Group/Prod.lean (componentwise operations; Mathlib/Algebra/Notation/Prod.lean)
instance Prod.instAdd {M : Type u} {N : Type v} [Add M] [Add N] : Add (Prod M N) :=
  ⟨fun p q => Prod.mk (HAdd.hAdd p.1 q.1) (HAdd.hAdd p.2 q.2)⟩
instance Prod.instMul {M : Type u} {N : Type v} [Mul M] [Mul N] : Mul (Prod M N) :=
  ⟨fun p q => Prod.mk (HMul.hMul p.1 q.1) (HMul.hMul p.2 q.2)⟩
instance Prod.instSub {M : Type u} {N : Type v} [Sub M] [Sub N] : Sub (Prod M N) :=
  ⟨fun p q => Prod.mk (HSub.hSub p.1 q.1) (HSub.hSub p.2 q.2)⟩
instance Prod.instNeg {M : Type u} {N : Type v} [Neg M] [Neg N] : Neg (Prod M N) :=
  ⟨fun p => Prod.mk (Neg.neg p.1) (Neg.neg p.2)⟩
-- Mathlib/Algebra/Group/Defs.lean (`instance (priority := 910) Mul.toSMul (α) [Mul α] : SMul α α := ⟨(· * ·)⟩`)
instance (priority := 910) Mul.toSMul (α : Type u) [Mul α] : SMul α α := ⟨fun a b => Mul.mul a b⟩
end
