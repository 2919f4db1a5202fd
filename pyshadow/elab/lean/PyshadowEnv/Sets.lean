prelude
import PyshadowEnv.Algebra
/-! # pyshadow's signature environment: sets, intervals and finite sets

Mathlib's `Set` is a predicate and its operations are definitions over membership, so the elaborator and kernel see
`x ∈ {y | p y}`, `x ∈ Set.Icc a b` and `x ∈ ({a} : Set α)` unfold to the propositions they stand for — as in
Mathlib, where these are `Iff.rfl` (`Set.mem_setOf_eq`, `Set.mem_Icc`, `Set.mem_singleton_iff`). `Finset`,
`Multiset` and their operations are axioms (their definitions are quotients no statement comparison unfolds).
A set or a finset used as a type is the subtype of its members, by Mathlib's `CoeSort` instances.
Sources: `leanprover-community/mathlib4`.
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u v
noncomputable section

-- Mathlib/Order/Notation.lean (`class Compl`, `postfix:1024 "ᶜ" => compl`)
class Compl (α : Type u) where compl : α → α
-- Mathlib/Data/Set/Defs.lean
def Set (α : Type u) : Type u := α → Prop
-- Mathlib/Data/Set/Defs.lean
def setOf {α : Type u} (p : α → Prop) : Set α := p
namespace Set
variable {α : Type u}
-- Mathlib/Data/Set/Defs.lean
protected def Mem (s : Set α) (a : α) : Prop := s a
-- Mathlib/Data/Set/Defs.lean
instance : Membership α (Set α) := ⟨fun s a => s a⟩
-- Mathlib/Data/Set/Defs.lean
protected def Subset (s₁ s₂ : Set α) : Prop := ∀ ⦃a : α⦄, Membership.mem s₁ a → Membership.mem s₂ a
-- Mathlib/Data/Set/Defs.lean (`instance : HasSubset (Set α) := ⟨(· ≤ ·)⟩` over `LE (Set α) := ⟨Set.Subset⟩`)
instance : LE (Set α) := ⟨Set.Subset⟩
instance : HasSubset (Set α) := ⟨fun s t => LE.le s t⟩
-- Mathlib/Data/Set/Defs.lean
def univ : Set α := setOf fun _ => True
-- Mathlib/Data/Set/Defs.lean
instance : EmptyCollection (Set α) := ⟨setOf fun _ => False⟩
-- Mathlib/Data/Set/Defs.lean (`Set.singleton a = {b | b = a}`, `Set.insert a s = {b | b = a ∨ b ∈ s}`)
instance : Singleton α (Set α) := ⟨fun a => setOf fun b => Eq b a⟩
instance : Insert α (Set α) := ⟨fun a s => setOf fun b => Or (Eq b a) (Membership.mem s b)⟩
-- Mathlib/Data/Set/Defs.lean (`Set.union`, `Set.inter`, `Set.diff`, `Set.compl`)
protected def union (s₁ s₂ : Set α) : Set α := setOf fun a => Or (Membership.mem s₁ a) (Membership.mem s₂ a)
instance : Union (Set α) := ⟨Set.union⟩
protected def inter (s₁ s₂ : Set α) : Set α := setOf fun a => And (Membership.mem s₁ a) (Membership.mem s₂ a)
instance : Inter (Set α) := ⟨Set.inter⟩
protected def diff (s t : Set α) : Set α := setOf fun a => And (Membership.mem s a) (Not (Membership.mem t a))
instance : SDiff (Set α) := ⟨Set.diff⟩
-- Mathlib/Data/Set/Defs.lean (`Set.compl s = {a | a ∉ s}`, the `Compl (Set α)` instance)
protected def compl (s : Set α) : Set α := setOf fun a => Not (Membership.mem s a)
instance : Compl (Set α) := ⟨Set.compl⟩
-- Mathlib/Data/Set/Defs.lean
def image {β : Type v} (f : α → β) (s : Set α) : Set β :=
  setOf fun b => Exists fun a => And (Membership.mem s a) (Eq (f a) b)
-- Mathlib/Data/Set/Defs.lean
def preimage {β : Type v} (f : α → β) (s : Set β) : Set α := setOf fun x => Membership.mem s (f x)
-- Mathlib/Data/Set/Defs.lean
def range {ι : Sort v} (f : ι → α) : Set α := setOf fun x => Exists fun y => Eq (f y) x
-- Mathlib/Order/Interval/Set/Defs.lean
section Intervals
variable [LE α] [LT α]
def Icc (a b : α) : Set α := setOf fun x => And (LE.le a x) (LE.le x b)
def Ico (a b : α) : Set α := setOf fun x => And (LE.le a x) (LT.lt x b)
def Ioc (a b : α) : Set α := setOf fun x => And (LT.lt a x) (LE.le x b)
def Ioo (a b : α) : Set α := setOf fun x => And (LT.lt a x) (LT.lt x b)
def Ici (a : α) : Set α := setOf fun x => LE.le a x
def Iic (b : α) : Set α := setOf fun x => LE.le x b
def Ioi (a : α) : Set α := setOf fun x => LT.lt a x
def Iio (b : α) : Set α := setOf fun x => LT.lt x b
end Intervals
end Set

-- Mathlib/Order/SetNotation.lean (`def sUnion (S : Set (Set α)) : Set α := sSup S`, with Set's `sSup s` the set
-- `{a | ∃ t ∈ s, a ∈ t}`): unfolded as there
def Set.sUnion {α : Type u} (S : Set (Set α)) : Set α :=
  setOf fun a => Exists fun t => And (Membership.mem S t) (Membership.mem t a)
-- Mathlib/Order/SetNotation.lean (`def sInter (S : Set (Set α)) : Set α := sInf S`, with Set's `sInf s` the set
-- `{a | ∀ t ∈ s, a ∈ t}`): unfolded as there
def Set.sInter {α : Type u} (S : Set (Set α)) : Set α :=
  setOf fun a => ∀ t, Membership.mem S t → Membership.mem t a
-- Mathlib/Order/SetNotation.lean (`def iUnion (s : ι → Set α) : Set α := iSup s`, `def iInter … := iInf s`, with
-- `iSup s = sSup (range s)`, `iInf s = sInf (range s)`): unfolded as there
def Set.iUnion {α : Type u} {ι : Sort v} (s : ι → Set α) : Set α := Set.sUnion (Set.range s)
def Set.iInter {α : Type u} {ι : Sort v} (s : ι → Set α) : Set α := Set.sInter (Set.range s)
-- Mathlib/Data/Set/Finite/Defs.lean (`protected def Set.Finite (s : Set α) : Prop := Finite s`): kept opaque, and
-- protected as there (under `open Set`, `Finite s` is the root `Finite ↥s`)
protected axiom Set.Finite {α : Type u} (s : Set α) : Prop
-- Mathlib/Data/Set/Countable.lean (`protected def Set.Countable (s : Set α) : Prop := Countable s`; opaque, and
-- protected as there: under `open Set`, `Countable s` is the class `Countable ↥s`, which is not declared here)
protected axiom Set.Countable {α : Type u} (s : Set α) : Prop
-- Mathlib/Data/Set/Finite/Defs.lean (`protected def Set.Infinite (s : Set α) : Prop := ¬s.Finite`, "protected so
-- that it does not conflict with global `Infinite`")
protected def Set.Infinite {α : Type u} (s : Set α) : Prop := Not (Set.Finite s)
-- Mathlib/Data/Set/Defs.lean (`protected def Set.Nonempty (s : Set α) : Prop := ∃ x, x ∈ s`)
protected def Set.Nonempty {α : Type u} (s : Set α) : Prop := Exists fun x => Membership.mem s x
-- Mathlib/Data/Set/Card.lean
axiom Set.ncard {α : Type u} (s : Set α) : Nat
-- Mathlib/Order/Bounds/Defs.lean
def upperBounds {α : Type u} [LE α] (s : Set α) : Set α :=
  setOf fun x => ∀ ⦃a : α⦄, Membership.mem s a → LE.le a x
def lowerBounds {α : Type u} [LE α] (s : Set α) : Set α :=
  setOf fun x => ∀ ⦃a : α⦄, Membership.mem s a → LE.le x a
def IsLeast {α : Type u} [LE α] (s : Set α) (a : α) : Prop :=
  And (Membership.mem s a) (Membership.mem (lowerBounds s) a)
def IsGreatest {α : Type u} [LE α] (s : Set α) (a : α) : Prop :=
  And (Membership.mem s a) (Membership.mem (upperBounds s) a)
def BddAbove {α : Type u} [LE α] (s : Set α) : Prop := Set.Nonempty (upperBounds s)
def BddBelow {α : Type u} [LE α] (s : Set α) : Prop := Set.Nonempty (lowerBounds s)

-- Mathlib/Data/Finset/Defs.lean
axiom Finset (α : Type u) : Type u
axiom Finset.instMembership {α : Type u} : Membership α (Finset α)
attribute [instance] Finset.instMembership
-- Mathlib/Data/Finset/Defs.lean (`⊆` and `⊂` by membership)
instance {α : Type u} : HasSubset (Finset α) :=
  ⟨fun s t => ∀ ⦃a : α⦄, Membership.mem s a → Membership.mem t a⟩
instance {α : Type u} : HasSSubset (Finset α) :=
  ⟨fun s t => And (HasSubset.Subset s t) (Not (HasSubset.Subset t s))⟩
-- Mathlib/Data/Finset/Card.lean
axiom Finset.card {α : Type u} (s : Finset α) : Nat
-- Mathlib/Data/Finset/Range.lean (`Finset.range n = {0, …, n - 1}`)
axiom Finset.range (n : Nat) : Finset Nat
-- Mathlib/Order/Interval/Finset/Defs.lean (over `LocallyFiniteOrder`; one instance per number type stands for it)
class LocallyFiniteOrder (α : Type u) : Type u
axiom instLocallyFiniteOrderNat : LocallyFiniteOrder Nat
axiom instLocallyFiniteOrderInt : LocallyFiniteOrder Int
attribute [instance] instLocallyFiniteOrderNat instLocallyFiniteOrderInt
axiom Finset.Icc {α : Type u} [LE α] [LocallyFiniteOrder α] (a b : α) : Finset α
axiom Finset.Ico {α : Type u} [LE α] [LocallyFiniteOrder α] (a b : α) : Finset α
axiom Finset.Ioc {α : Type u} [LE α] [LocallyFiniteOrder α] (a b : α) : Finset α
axiom Finset.Ioo {α : Type u} [LE α] [LocallyFiniteOrder α] (a b : α) : Finset α
-- Mathlib/Data/Finset/Filter.lean
axiom Finset.filter {α : Type u} (p : α → Prop) (s : Finset α) : Finset α
-- Mathlib/Data/Finset/Image.lean
axiom Finset.image {α : Type u} {β : Type v} (f : α → β) (s : Finset α) : Finset β
-- Mathlib/Data/Set/CoeSort.lean (`@[coe, reducible] def Elem (s : Set α) : Type u := {x // x ∈ s}`,
-- `instance : CoeSort (Set α) (Type u) := ⟨Elem⟩`): a set used as a type (`Fintype s`, `↥s`)
@[reducible] def Set.Elem {α : Type u} (s : Set α) : Type u := Subtype fun x => Membership.mem s x
instance Set.instCoeSortType {α : Type u} : CoeSort (Set α) (Type u) := ⟨Set.Elem⟩
-- Mathlib/Data/Fintype/Defs.lean
class Fintype (α : Type u) : Type u
axiom Finset.univ {α : Type u} [Fintype α] : Finset α
-- Mathlib/Data/Fintype/Sets.lean (`def toFinset (s : Set α) [Fintype s] : Finset α`, in `namespace Set`)
axiom Set.toFinset {α : Type u} (s : Set α) [Fintype (Set.Elem s)] : Finset α
-- Mathlib/Data/Fintype/Basic.lean (`instance Fin.fintype (n : ℕ) : Fintype (Fin n)`)
axiom Fin.fintype (n : Nat) : Fintype (Fin n)
-- src/Init/Prelude.lean (`instance : DecidableEq (Fin n)`, `instDecidableEqFin`)
axiom instDecidableEqFin (n : Nat) : DecidableEq (Fin n)
attribute [instance] Fin.fintype instDecidableEqFin
-- Mathlib/Data/Finset/Defs.lean (`Finset α` coerces to `Set α` by `CoeSort`/`CoeTC` through `{a | a ∈ s}`)
instance {α : Type u} : CoeTC (Finset α) (Set α) := ⟨fun s => setOf fun a => Membership.mem s a⟩
-- Mathlib/Data/Finset/Defs.lean (`instance {α : Type u} : CoeSort (Finset α) (Type u) := ⟨fun s => { x // x ∈ s }⟩`):
-- a finset used as a type (`Nonempty S`, `x : S`)
instance Finset.instCoeSortType {α : Type u} : CoeSort (Finset α) (Type u) :=
  ⟨fun s => Subtype fun x => Membership.mem s x⟩
-- Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean (over `AddCommMonoid`/`CommMonoid`, PyshadowEnv.Algebra)
axiom Finset.sum {β : Type u} {α : Type v} [AddCommMonoid β] (s : Finset α) (f : α → β) : β
axiom Finset.prod {β : Type u} {α : Type v} [CommMonoid β] (s : Finset α) (f : α → β) : β
end
