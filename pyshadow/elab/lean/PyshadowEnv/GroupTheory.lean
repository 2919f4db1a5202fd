prelude
import PyshadowEnv.Functions
/-! # pyshadow's signature environment: finite types, subobjects and groups

`Fintype.card`, `⊤`/`⊥` (`Top`/`Bot`), `SetLike` with the membership and coercions Mathlib derives from it, and
`Subgroup` with the operations group-theory statements name (`orderOf`, `Subgroup.center`, `Subgroup.closure`,
`Subgroup.Normal`, `Subgroup.index`). `SetLike`'s membership and coercions are definitions as in Mathlib, so
`x ∈ H` unfolds to `x ∈ (H : Set G)`; the subgroups themselves and the operations on them are axioms.
Sources: `leanprover-community/mathlib4`.
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u v
noncomputable section

-- Mathlib/Data/Fintype/Card.lean
axiom Fintype.card (α : Type u) [Fintype α] : Nat
-- Mathlib/Algebra/Group/Equiv/Defs.lean (`structure MulEquiv (M N : Type*) [Mul M] [Mul N] extends M ≃ N, M →ₙ* N`);
-- opaque here, and without its coercion to a function, which no real statement of the corpora applies yet
axiom MulEquiv (M : Type u) (N : Type v) [Mul M] [Mul N] : Type (max u v)
-- Mathlib/Algebra/Group/End.lean (`instance Equiv.Perm.permGroup : Group (Perm α)`)
axiom Equiv.Perm.permGroup {α : Type u} : Group (Equiv.Perm α)
attribute [instance] Equiv.Perm.permGroup

-- Mathlib/Data/SetLike/Basic.lean
class SetLike (A : Type u) (B : outParam (Type v)) where
  coe : A → Set B
  coe_injective' : Function.Injective coe
-- Mathlib/Data/SetLike/Basic.lean (`instance (priority := 100) : CoeTC A (Set B) := ⟨SetLike.coe⟩`)
instance (priority := 100) SetLike.instCoeTCSet {A : Type u} {B : Type v} [SetLike A B] : CoeTC A (Set B) :=
  ⟨SetLike.coe⟩
-- Mathlib/Data/SetLike/Basic.lean (`instance (priority := 100) instMembership : Membership B A`)
instance (priority := 100) SetLike.instMembership {A : Type u} {B : Type v} [SetLike A B] : Membership B A :=
  ⟨fun p x => Membership.mem (SetLike.coe p) x⟩
-- Mathlib/Data/SetLike/Basic.lean (`instance (priority := 100) : CoeSort A (Type _) := ⟨fun p => { x : B // x ∈ p }⟩`)
instance (priority := 100) SetLike.instCoeSortType {A : Type u} {B : Type v} [SetLike A B] : CoeSort A (Type v) :=
  ⟨fun p => Subtype fun x : B => Membership.mem p x⟩

-- Mathlib/Data/SetLike/Basic.lean (the `le` of `SetLike.instPartialOrder`: `fun H K => ∀ ⦃x⦄, x ∈ H → x ∈ K`)
instance (priority := 100) SetLike.instLE {A : Type u} {B : Type v} [SetLike A B] : LE A :=
  ⟨fun H K => ∀ ⦃x : B⦄, Membership.mem H x → Membership.mem K x⟩

-- Mathlib/GroupTheory/OrderOfElement.lean
axiom orderOf {G : Type u} [Monoid G] (x : G) : Nat
-- Mathlib/Algebra/Group/Subgroup/Defs.lean (`structure Subgroup (G : Type*) [Group G] extends Submonoid G`)
axiom Subgroup (G : Type u) [Group G] : Type u
namespace Subgroup
variable {G : Type u} [Group G]
-- Mathlib/Algebra/Group/Subgroup/Defs.lean
axiom instSetLike : SetLike (Subgroup G) G
attribute [instance] instSetLike
-- Mathlib/Algebra/Group/Subgroup/Lattice.lean (the complete lattice of subgroups: `⊤`, `⊥`, `≤`)
axiom instTop : Top (Subgroup G)
axiom instBot : Bot (Subgroup G)
attribute [instance] instTop instBot
-- Mathlib/Algebra/Group/Subgroup/Defs.lean (`instance toGroup {G : Type*} [Group G] (H : Subgroup G) : Group H`)
axiom toGroup (H : Subgroup G) : Group H
attribute [instance] toGroup
-- Mathlib/GroupTheory/Subgroup/Center.lean
axiom center (G : Type u) [Group G] : Subgroup G
-- Mathlib/Algebra/Group/Subgroup/Lattice.lean
axiom closure (k : Set G) : Subgroup G
-- Mathlib/GroupTheory/Index.lean
axiom index (H : Subgroup G) : Nat
-- Mathlib/Algebra/Group/Subgroup/Defs.lean (`structure Normal : Prop`, `attribute [class] Normal`)
structure Normal (H : Subgroup G) : Prop where
  conj_mem : ∀ n, Membership.mem H n → ∀ g : G, Membership.mem H (HMul.hMul (HMul.hMul g n) (Inv.inv g))
attribute [class] Normal
end Subgroup
-- Mathlib/GroupTheory/Subgroup/Simple.lean
class IsSimpleGroup (G : Type u) [Group G] : Prop extends Nontrivial G where
  eq_bot_or_eq_top_of_normal : ∀ H : Subgroup G, Subgroup.Normal H → Or (Eq H Bot.bot) (Eq H Top.top)
-- Mathlib/Algebra/Group/Subgroup/Basic.lean (`structure Subgroup.Characteristic : Prop`, `attribute [class]`;
-- fixed by every automorphism: opaque here)
axiom Subgroup.Characteristic {G : Type u} [Group G] (H : Subgroup G) : Prop
attribute [class] Subgroup.Characteristic
-- Mathlib/GroupTheory/Subgroup/Centralizer.lean (`def Subgroup.centralizer (s : Set G) : Subgroup G`)
axiom Subgroup.centralizer {G : Type u} [Group G] (s : Set G) : Subgroup G
-- Mathlib/Algebra/Group/Defs.lean (`class IsCyclic (G : Type u) [Pow G ℤ] : Prop`; opaque)
axiom IsCyclic (G : Type u) [Pow G Int] : Prop
-- Mathlib/GroupTheory/Nilpotent.lean (`class Group.IsNilpotent (G : Type*) [Group G] : Prop`; opaque)
axiom Group.IsNilpotent (G : Type u) [Group G] : Prop
attribute [class] IsCyclic Group.IsNilpotent
-- Mathlib/GroupTheory/PGroup.lean (`def IsPGroup (p : ℕ) (G : Type*) [Group G] : Prop := ∀ g : G, ∃ k : ℕ, g ^ p ^ k = 1`)
def IsPGroup (p : Nat) (G : Type u) [Group G] : Prop :=
  ∀ g : G, Exists fun k : Nat => Eq (HPow.hPow g (HPow.hPow p k)) 1
-- Mathlib/GroupTheory/Solvable.lean (`class IsSolvable : Prop`, over the derived series; opaque)
axiom IsSolvable (G : Type u) [Group G] : Prop
attribute [class] IsSolvable
end
