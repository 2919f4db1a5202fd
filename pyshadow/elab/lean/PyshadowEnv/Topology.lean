prelude
import PyshadowEnv.Functions
/-! # pyshadow's signature environment: topology and calculus predicates

Separation and compactness classes, connectedness, density, bases, the product topology, and the
differentiability predicates, each with its Mathlib signature. The classes and predicates are axioms (their
definitions go through filters no statement comparison unfolds), except those whose definition is a statement's
other spelling: `IsConnected` (`s.Nonempty ∧ IsPreconnected s`) and `Dense`, defined as in Mathlib.
The calculus predicates are over topological spaces only: Mathlib's `NontriviallyNormedField 𝕜` and
`[AddCommGroup E] [Module 𝕜 E]` are not declared here (the instances are found, never written, in a statement).
Sources: `leanprover-community/mathlib4`.
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u v w
noncomputable section

-- Mathlib/Topology/Separation/Hausdorff.lean (`class T2Space (X : Type u) [TopologicalSpace X] : Prop`; opaque)
axiom T2Space (X : Type u) [TopologicalSpace X] : Prop
-- Mathlib/Topology/Separation/Regular.lean (`class RegularSpace (X : Type u) [TopologicalSpace X] : Prop`)
axiom RegularSpace (X : Type u) [TopologicalSpace X] : Prop
-- Mathlib/Topology/Defs/Filter.lean (`variable (X) in class CompactSpace : Prop`)
axiom CompactSpace (X : Type u) [TopologicalSpace X] : Prop
-- Mathlib/Topology/Bases.lean (`class TopologicalSpace.SeparableSpace : Prop`, `variable (α) [TopologicalSpace α]`)
axiom TopologicalSpace.SeparableSpace (α : Type u) [TopologicalSpace α] : Prop
attribute [class] T2Space RegularSpace CompactSpace TopologicalSpace.SeparableSpace
-- Mathlib/Topology/Defs/Filter.lean (`def IsCompact (s : Set X) := ∀ ⦃f⦄ [NeBot f], f ≤ 𝓟 s → …`; opaque)
axiom IsCompact {X : Type u} [TopologicalSpace X] (s : Set X) : Prop
-- Mathlib/Topology/Connected/Basic.lean (`def IsPreconnected (s : Set α) : Prop`; opaque)
axiom IsPreconnected {α : Type u} [TopologicalSpace α] (s : Set α) : Prop
-- Mathlib/Topology/Connected/Basic.lean (`def IsConnected (s : Set α) : Prop := s.Nonempty ∧ IsPreconnected s`)
def IsConnected {α : Type u} [TopologicalSpace α] (s : Set α) : Prop := And (Set.Nonempty s) (IsPreconnected s)
-- Mathlib/Topology/Defs/Basic.lean (`def Dense (s : Set X) : Prop := ∀ x, x ∈ closure s`)
def Dense {X : Type u} [TopologicalSpace X] (s : Set X) : Prop := ∀ x, Membership.mem (closure s) x
-- Mathlib/Topology/Bases.lean (`structure TopologicalSpace.IsTopologicalBasis (s : Set (Set α)) : Prop`; opaque)
axiom TopologicalSpace.IsTopologicalBasis {α : Type u} [TopologicalSpace α] (s : Set (Set α)) : Prop
-- Mathlib/Topology/Order.lean (`def TopologicalSpace.generateFrom (g : Set (Set α)) : TopologicalSpace α`)
axiom TopologicalSpace.generateFrom {α : Type u} (g : Set (Set α)) : TopologicalSpace α
-- Mathlib/Topology/Constructions.lean (`instance Pi.topologicalSpace {ι : Type*} {Y : ι → Type v}
-- [t₂ : (i : ι) → TopologicalSpace (Y i)] : TopologicalSpace ((i : ι) → Y i)`)
axiom Pi.topologicalSpace {ι : Type u} {Y : ι → Type v} [(i : ι) → TopologicalSpace (Y i)] :
  TopologicalSpace ((i : ι) → Y i)
attribute [instance] Pi.topologicalSpace

-- Mathlib/Topology/Algebra/InfiniteSum/SummationFilter.lean (`structure SummationFilter (β)`; opaque, and
-- `def unconditional : SummationFilter β`, `β` explicit)
axiom SummationFilter (β : Type u) : Type u
axiom SummationFilter.unconditional (β : Type u) : SummationFilter β
-- Mathlib/Topology/Algebra/InfiniteSum/Defs.lean (`variable {α β : Type*} [AddCommMonoid α] [TopologicalSpace α]`:
-- `def Summable (f : β → α) (L := unconditional β) : Prop`, `irreducible_def tsum (f : β → α) (L := unconditional β)`,
-- the additive forms of `Multipliable` and `tprod`; opaque)
axiom Summable {α : Type u} {β : Type v} [AddCommMonoid α] [TopologicalSpace α] (f : β → α)
  (L : SummationFilter β := SummationFilter.unconditional β) : Prop
axiom tsum {α : Type u} {β : Type v} [AddCommMonoid α] [TopologicalSpace α] (f : β → α)
  (L : SummationFilter β := SummationFilter.unconditional β) : α

-- Mathlib/Analysis/Calculus/FDeriv/Defs.lean (`variable (𝕜)`: `def DifferentiableAt (f : E → F) (x : E)`,
-- `def DifferentiableOn (f : E → F) (s : Set E)`, `def Differentiable (f : E → F)`; opaque)
axiom DifferentiableAt (𝕜 : Type u) {E : Type v} {F : Type w} [TopologicalSpace E] [TopologicalSpace F]
  (f : E → F) (x : E) : Prop
axiom DifferentiableOn (𝕜 : Type u) {E : Type v} {F : Type w} [TopologicalSpace E] [TopologicalSpace F]
  (f : E → F) (s : Set E) : Prop
axiom Differentiable (𝕜 : Type u) {E : Type v} {F : Type w} [TopologicalSpace E] [TopologicalSpace F]
  (f : E → F) : Prop
-- Mathlib/Analysis/Calculus/ContDiff/Defs.lean (`variable (𝕜) in def ContDiff (n : ℕ∞ω) (f : E → F) : Prop`, with
-- Mathlib/Analysis/Calculus/ContDiff/FTaylorSeries.lean `scoped[ContDiff] notation "ℕ∞ω" => WithTop ℕ∞`; opaque)
axiom ContDiff (𝕜 : Type u) {E : Type v} {F : Type w} [TopologicalSpace E] [TopologicalSpace F]
  (n : WithTop ENat) (f : E → F) : Prop
end
