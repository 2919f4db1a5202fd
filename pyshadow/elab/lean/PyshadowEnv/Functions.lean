prelude
import PyshadowEnv.Order
/-! # pyshadow's signature environment: functions and predicates of Mathlib

The constants benchmark statements name most (harvested from the corpora; `benchmarks/env_coverage.py` prints
the table), each with its Mathlib signature. Predicates whose definition is what makes two spellings equal
(`Even`, `Odd`, `Function.Injective`, `StrictMono`, …) are definitions as in Mathlib; functions are axioms.
Sources: `leanprover-community/mathlib4`.
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u v w
noncomputable section

-- Mathlib/Analysis/SpecialFunctions/Pow/NNRpow.lean … the real functions:
-- Mathlib/Analysis/SpecialFunctions/Sqrt.lean, Mathlib/Analysis/SpecialFunctions/Pow/Real.lean (`Real.sqrt` is
-- in Mathlib/Analysis/SpecialFunctions/Pow/NNRpow.lean's import Mathlib/Analysis/SpecialFunctions/Sqrt.lean;
-- declared in Mathlib/Analysis/Real/Sqrt.lean)
axiom Real.sqrt : Real → Real
-- Mathlib/Analysis/SpecialFunctions/Log/Basic.lean
axiom Real.log : Real → Real
-- Mathlib/Analysis/SpecialFunctions/Exp.lean (declared in Mathlib/Analysis/Complex/Exponential.lean)
axiom Real.exp : Real → Real
-- Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean
axiom Real.pi : Real
-- Mathlib/Analysis/Complex/Trigonometric.lean
axiom Real.sin : Real → Real
axiom Real.cos : Real → Real
axiom Real.tan : Real → Real
-- Mathlib/Analysis/SpecialFunctions/Log/Base.lean
axiom Real.logb : Real → Real → Real
-- Mathlib/Analysis/Complex/Exponential.lean
axiom Complex.exp : Complex → Complex
-- Mathlib/Data/Complex/Basic.lean
axiom Complex.I : Complex
axiom Complex.re : Complex → Real
axiom Complex.im : Complex → Real
-- Mathlib/Analysis/Normed/Group/Basic.lean
class Norm (E : Type u) where norm : E → Real
export Norm (norm)
axiom Complex.instNorm : Norm Complex
axiom Real.instNorm : Norm Real
attribute [instance] Complex.instNorm Real.instNorm
-- Mathlib/Data/Complex/Abs.lean (`noncomputable abbrev abs (z : ℂ) : ℝ := ‖z‖`, deprecated for `‖z‖`;
-- `theorem norm_eq_abs (z : ℂ) : ‖z‖ = abs z := rfl` there and in every earlier Mathlib 4, where
-- Mathlib/Analysis/Complex/Basic.lean had `instance : Norm ℂ := ⟨abs⟩`): the two spellings are one term
noncomputable abbrev Complex.abs (z : Complex) : Real := Norm.norm z
-- Mathlib/Algebra/Order/Group/Unbundled/Abs.lean (`|a|` is `abs a`, over a lattice-ordered group)
class Lattice (α : Type u) : Type u
axiom abs {α : Type u} [Lattice α] [Neg α] (a : α) : α
axiom instLatticeInt : Lattice Int
axiom instLatticeRat : Lattice Rat
axiom instLatticeReal : Lattice Real
attribute [instance] instLatticeInt instLatticeRat instLatticeReal
-- Mathlib/Order/Floor/Defs.lean (`Int.floor : α → ℤ` over `FloorRing`; `Nat.floor : α → ℕ` over `FloorSemiring`)
class FloorRing (α : Type u) : Type u
class FloorSemiring (α : Type u) : Type u
axiom instFloorRingReal : FloorRing Real
axiom instFloorRingRat : FloorRing Rat
axiom instFloorSemiringReal : FloorSemiring Real
-- Mathlib/Algebra/Order/Floor/Defs.lean (`instance : FloorSemiring ℕ where floor := id …`; opaque here)
axiom instFloorSemiringNat : FloorSemiring Nat
attribute [instance] instFloorRingReal instFloorRingRat instFloorSemiringReal instFloorSemiringNat
axiom Int.floor {α : Type u} [FloorRing α] : α → Int
axiom Int.ceil {α : Type u} [FloorRing α] : α → Int
axiom Int.fract {α : Type u} [FloorRing α] : α → α
axiom Nat.floor {α : Type u} [FloorSemiring α] : α → Nat
axiom Nat.ceil {α : Type u} [FloorSemiring α] : α → Nat

-- src/Init/Data/Fin/Basic.lean (`def succ : Fin n → Fin (n + 1) | ⟨i, h⟩ => ⟨i+1, Nat.succ_lt_succ h⟩`; opaque)
axiom Fin.succ {n : Nat} : Fin n → Fin (HAdd.hAdd n 1)
-- src/Init/Data/Fin/Basic.lean (`@[inline] def castSucc : Fin n → Fin (n + 1) := castAdd 1`; opaque)
axiom Fin.castSucc {n : Nat} : Fin n → Fin (HAdd.hAdd n 1)
-- Mathlib/NumberTheory/Padics/PadicVal/Defs.lean (`def padicValInt (p : ℕ) (z : ℤ) : ℕ := padicValNat p z.natAbs`;
-- opaque)
axiom padicValInt (p : Nat) (z : Int) : Nat
-- Mathlib/NumberTheory/LSeries/RiemannZeta.lean (`def riemannZeta := hurwitzZetaEven 0`, with
-- Mathlib/NumberTheory/LSeries/HurwitzZetaEven.lean `def hurwitzZetaEven (a : UnitAddCircle) (s : ℂ) : ℂ`; opaque)
axiom riemannZeta : Complex → Complex
-- Mathlib/Data/Nat/Factorial/Basic.lean
axiom Nat.factorial : Nat → Nat
-- Mathlib/Data/Nat/Choose/Basic.lean
axiom Nat.choose : Nat → Nat → Nat
-- Mathlib/Data/Nat/Prime/Defs.lean (`Nat.Prime p := Irreducible p`; kept opaque)
axiom Nat.Prime : Nat → Prop
-- Mathlib/Algebra/Prime/Defs.lean (`Prime` in a monoid with zero)
axiom Prime {α : Type u} (p : α) : Prop
-- src/Init/Data/Nat/Gcd.lean, src/Init/Data/Nat/Lcm.lean
axiom Nat.gcd : Nat → Nat → Nat
axiom Nat.lcm : Nat → Nat → Nat
-- Mathlib/Data/Nat/GCD/Basic.lean → src/Init/Data/Nat/Coprime? (`Nat.Coprime m n : Prop := Nat.gcd m n = 1`)
def Nat.Coprime (m n : Nat) : Prop := Eq (Nat.gcd m n) 1
-- src/Init/Data/Int/Gcd.lean
axiom Int.gcd : Int → Int → Nat
-- src/Init/Prelude.lean
inductive List (α : Type u) where
  | nil : List α
  | cons (head : α) (tail : List α) : List α
-- src/Init/Data/List/Basic.lean (`List.Mem`, `instance : Membership α (List α) := ⟨fun l a => Mem a l⟩`)
inductive List.Mem {α : Type u} (a : α) : List α → Prop where
  | head (as : List α) : List.Mem a (List.cons a as)
  | tail (b : α) {as : List α} : List.Mem a as → List.Mem a (List.cons b as)
instance List.instMembership {α : Type u} : Membership α (List α) := ⟨fun l a => List.Mem a l⟩
-- src/Init/Data/List/Basic.lean
inductive List.Pairwise {α : Type u} (R : α → α → Prop) : List α → Prop where
  | nil : List.Pairwise R List.nil
  | cons {a : α} {l : List α} : (∀ a', Membership.mem l a' → R a a') → List.Pairwise R l →
      List.Pairwise R (List.cons a l)
-- Mathlib/Data/Nat/Digits/Defs.lean
axiom Nat.digits : Nat → Nat → List Nat
-- src/Init/Data/List/Basic.lean
axiom List.sum {α : Type u} [Add α] [Zero α] : List α → α
-- src/Init/Prelude.lean
axiom List.length {α : Type u} : List α → Nat
-- Mathlib/NumberTheory/Divisors.lean
axiom Nat.divisors : Nat → Finset Nat
axiom Nat.properDivisors : Nat → Finset Nat
-- Mathlib/Algebra/Group/Even.lean (`Even a ↔ ∃ r, a = r + r`), Mathlib/Algebra/Group/Basic.lean (`Odd`)
def Even {α : Type u} [Add α] (a : α) : Prop := Exists fun r => Eq a (HAdd.hAdd r r)
def Odd {α : Type u} [Add α] [Mul α] [OfNat α 1] [OfNat α 2] (a : α) : Prop :=
  Exists fun m => Eq a (HAdd.hAdd (HMul.hMul (OfNat.ofNat 2) m) (OfNat.ofNat 1))
-- Mathlib/Data/Int/ModEq.lean, Mathlib/Data/Nat/ModEq.lean (`a ≡ b [MOD n]` is `a % n = b % n`)
def Nat.ModEq (n a b : Nat) : Prop := Eq (HMod.hMod a n) (HMod.hMod b n)
def Int.ModEq (n a b : Int) : Prop := Eq (HMod.hMod a n) (HMod.hMod b n)
-- Mathlib/Data/Real/Irrational.lean (`Irrational x := x ∉ Set.range ((↑) : ℚ → ℝ)`)
def Irrational (x : Real) : Prop := Not (Membership.mem (Set.range (fun q : Rat => Rat.cast q)) x)

-- Mathlib/Logic/Function/Defs.lean
def Function.Injective {α : Sort u} {β : Sort v} (f : α → β) : Prop := ∀ ⦃a₁ a₂⦄, Eq (f a₁) (f a₂) → Eq a₁ a₂
def Function.Surjective {α : Sort u} {β : Sort v} (f : α → β) : Prop := ∀ b, Exists fun a => Eq (f a) b
def Function.Bijective {α : Sort u} {β : Sort v} (f : α → β) : Prop :=
  And (Function.Injective f) (Function.Surjective f)
-- src/Init/Prelude.lean
@[reducible] def Function.comp {α : Sort u} {β : Sort v} {δ : Sort w} (f : β → δ) (g : α → β) : α → δ :=
  fun x => f (g x)
-- Mathlib/Order/Monotone/Defs.lean
def Monotone {α : Type u} {β : Type v} [LE α] [LE β] (f : α → β) : Prop := ∀ ⦃a b⦄, LE.le a b → LE.le (f a) (f b)
def Antitone {α : Type u} {β : Type v} [LE α] [LE β] (f : α → β) : Prop := ∀ ⦃a b⦄, LE.le a b → LE.le (f b) (f a)
def StrictMono {α : Type u} {β : Type v} [LT α] [LT β] (f : α → β) : Prop :=
  ∀ ⦃a b⦄, LT.lt a b → LT.lt (f a) (f b)
def StrictAnti {α : Type u} {β : Type v} [LT α] [LT β] (f : α → β) : Prop :=
  ∀ ⦃a b⦄, LT.lt a b → LT.lt (f b) (f a)
-- Mathlib/Order/Monotone/Defs.lean (over `[Preorder α] [Preorder β]`: `def MonotoneOn (f : α → β) (s : Set α) : Prop :=
-- ∀ ⦃a⦄ (_ : a ∈ s) ⦃b⦄ (_ : b ∈ s), a ≤ b → f a ≤ f b`, and `StrictMonoOn`, `StrictAntiOn` alike)
def MonotoneOn {α : Type u} {β : Type v} [Preorder α] [Preorder β] (f : α → β) (s : Set α) : Prop :=
  ∀ ⦃a⦄, Membership.mem s a → ∀ ⦃b⦄, Membership.mem s b → LE.le a b → LE.le (f a) (f b)
def StrictMonoOn {α : Type u} {β : Type v} [Preorder α] [Preorder β] (f : α → β) (s : Set α) : Prop :=
  ∀ ⦃a⦄, Membership.mem s a → ∀ ⦃b⦄, Membership.mem s b → LT.lt a b → LT.lt (f a) (f b)
def StrictAntiOn {α : Type u} {β : Type v} [Preorder α] [Preorder β] (f : α → β) (s : Set α) : Prop :=
  ∀ ⦃a⦄, Membership.mem s a → ∀ ⦃b⦄, Membership.mem s b → LT.lt a b → LT.lt (f b) (f a)
-- Mathlib/Data/Set/Operations.lean (`def Set.InjOn (f : α → β) (s : Set α) : Prop :=
-- ∀ ⦃x₁ : α⦄, x₁ ∈ s → ∀ ⦃x₂ : α⦄, x₂ ∈ s → f x₁ = f x₂ → x₁ = x₂`)
def Set.InjOn {α : Type u} {β : Type v} (f : α → β) (s : Set α) : Prop :=
  ∀ ⦃x₁ : α⦄, Membership.mem s x₁ → ∀ ⦃x₂ : α⦄, Membership.mem s x₂ → Eq (f x₁) (f x₂) → Eq x₁ x₂

-- Mathlib/Order/Filter/Defs.lean, Mathlib/Order/Filter/AtTopBot/Defs.lean, Mathlib/Topology/Defs/Filter.lean
axiom Filter (α : Type u) : Type u
axiom Filter.Tendsto {α : Type u} {β : Type v} (f : α → β) (l₁ : Filter α) (l₂ : Filter β) : Prop
-- (`Preorder` and its instances: PyshadowEnv/Order.lean)
axiom Filter.atTop {α : Type u} [Preorder α] : Filter α
axiom Filter.atBot {α : Type u} [Preorder α] : Filter α
class TopologicalSpace (α : Type u) : Type u
axiom instTopologicalSpaceReal : TopologicalSpace Real
axiom instTopologicalSpaceComplex : TopologicalSpace Complex
attribute [instance] instTopologicalSpaceReal instTopologicalSpaceComplex
-- Mathlib/Topology/Constructions.lean (`instance instTopologicalSpaceSubtype {p : X → Prop} [t : TopologicalSpace X] :
-- TopologicalSpace (Subtype p) := induced (↑) t`; opaque): a set used as a space
axiom instTopologicalSpaceSubtype {X : Type u} {p : X → Prop} [t : TopologicalSpace X] : TopologicalSpace (Subtype p)
-- Mathlib/Topology/Constructions.lean (`instance instTopologicalSpaceProd [t₁ : TopologicalSpace X]
-- [t₂ : TopologicalSpace Y] : TopologicalSpace (X × Y) := induced Prod.fst t₁ ⊓ induced Prod.snd t₂`; opaque)
axiom instTopologicalSpaceProd {X : Type u} {Y : Type v} [t₁ : TopologicalSpace X] [t₂ : TopologicalSpace Y] :
  TopologicalSpace (Prod X Y)
attribute [instance] instTopologicalSpaceSubtype instTopologicalSpaceProd
axiom nhds {X : Type u} [TopologicalSpace X] (x : X) : Filter X
-- Mathlib/Topology/Defs/Basic.lean (`def IsOpen : Set X → Prop := TopologicalSpace.IsOpen`; opaque)
axiom IsOpen {X : Type u} [TopologicalSpace X] (s : Set X) : Prop
-- Mathlib/Topology/Defs/Basic.lean
structure IsClosed {X : Type u} [TopologicalSpace X] (s : Set X) : Prop where
  isOpen_compl : IsOpen (Compl.compl s)
attribute [class] IsClosed
-- Mathlib/Topology/Defs/Basic.lean (`interior s = ⋃₀ {t | IsOpen t ∧ t ⊆ s}`, `closure`; opaque)
axiom interior {X : Type u} [TopologicalSpace X] (s : Set X) : Set X
axiom closure {X : Type u} [TopologicalSpace X] (s : Set X) : Set X
-- Mathlib/Topology/MetricSpace/Pseudo/Defs.lean
class Dist (α : Type u) where dist : α → α → Real
export Dist (dist)
-- Mathlib/Topology/MetricSpace/Pseudo/Defs.lean (the topology through `toUniformSpace`)
class PseudoMetricSpace (α : Type u) extends Dist α, TopologicalSpace α
-- Mathlib/Topology/MetricSpace/Defs.lean
class MetricSpace (α : Type u) extends PseudoMetricSpace α
axiom nhdsWithin {X : Type u} [TopologicalSpace X] (x : X) (s : Set X) : Filter X
-- Mathlib/Topology/Defs/Basic.lean, Mathlib/Topology/ContinuousOn.lean
axiom Continuous {X : Type u} {Y : Type v} [TopologicalSpace X] [TopologicalSpace Y] (f : X → Y) : Prop
axiom ContinuousOn {X : Type u} {Y : Type v} [TopologicalSpace X] [TopologicalSpace Y] (f : X → Y) (s : Set X) : Prop
-- Mathlib/Analysis/Calculus/Deriv/Basic.lean (over a normed field; ℝ and ℂ only here)
axiom deriv {𝕜 : Type u} (f : 𝕜 → 𝕜) (x : 𝕜) : 𝕜
axiom HasDerivAt {𝕜 : Type u} (f : 𝕜 → 𝕜) (f' : 𝕜) (x : 𝕜) : Prop
end
