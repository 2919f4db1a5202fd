prelude
import PyshadowEnv.GroupTheory
/-! # pyshadow's signature environment: units, modules, ideals, polynomials

`IsUnit` and `Irreducible`, `Module` (its parent `SMul` an instance projection), `Submodule`/`Ideal` with
`span`, `Polynomial` with `X` and its ring instances, `ZMod`, and the domain
predicates ring statements assume. `Irreducible` and `Ideal` (`Submodule R R`) are defined as in Mathlib; the
types and functions are axioms, so no two of them are ever unfolded into each other.
Sources: `leanprover-community/mathlib4`.
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u v w u'
noncomputable section

-- Mathlib/Algebra/Group/Units/Defs.lean (`def IsUnit [Monoid M] (a : M) : Prop := ∃ u : Mˣ, (u : M) = a`; opaque)
axiom IsUnit {M : Type u} [Monoid M] (a : M) : Prop
-- Mathlib/Algebra/Group/Irreducible/Defs.lean
structure Irreducible {M : Type u} [Monoid M] (p : M) : Prop where
  not_isUnit : Not (IsUnit p)
  isUnit_or_isUnit : ∀ ⦃a b : M⦄, Eq p (HMul.hMul a b) → Or (IsUnit a) (IsUnit b)
-- Mathlib/Algebra/Ring/Defs.lean (`class IsDomain (α) [Semiring α] : Prop`; opaque)
axiom IsDomain (α : Type u) [Semiring α] : Prop
attribute [class] IsDomain

-- Mathlib/Algebra/Module/Defs.lean (through `DistribMulAction`, `MulAction`)
class Module (R : Type u) (M : Type v) [Semiring R] [AddCommMonoid M] extends SMul R M
-- Mathlib/Algebra/Module/Defs.lean (`instance (priority := 910) Semiring.toModule [Semiring R] : Module R R`)
axiom Semiring.toModule {R : Type u} [Semiring R] : Module R R
attribute [instance 910] Semiring.toModule
-- Mathlib/Algebra/Module/Submodule/Defs.lean
axiom Submodule (R : Type u) (M : Type v) [Semiring R] [AddCommMonoid M] [Module R M] : Type v
namespace Submodule
variable {R : Type u} {M : Type v} [Semiring R] [AddCommMonoid M] [Module R M]
-- Mathlib/Algebra/Module/Submodule/Defs.lean
axiom instSetLike : SetLike (Submodule R M) M
-- Mathlib/Algebra/Module/Submodule/Lattice.lean
axiom instTop : Top (Submodule R M)
axiom instBot : Bot (Submodule R M)
attribute [instance] instSetLike instTop instBot
-- Mathlib/LinearAlgebra/Span/Defs.lean
axiom span (R : Type u) {M : Type v} [Semiring R] [AddCommMonoid M] [Module R M] (s : Set M) : Submodule R M
end Submodule
-- Mathlib/RingTheory/Ideal/Defs.lean
abbrev Ideal (R : Type u) [Semiring R] := Submodule R R
-- Mathlib/RingTheory/Ideal/Span.lean
axiom Ideal.span {α : Type u} [Semiring α] (s : Set α) : Ideal α
-- Mathlib/RingTheory/Ideal/Maximal.lean (`class Ideal.IsMaximal (I : Ideal α) : Prop`; opaque)
axiom Ideal.IsMaximal {α : Type u} [Semiring α] (I : Ideal α) : Prop
-- Mathlib/RingTheory/Ideal/Prime.lean (`class Ideal.IsPrime (I : Ideal α) : Prop`; opaque)
axiom Ideal.IsPrime {α : Type u} [Semiring α] (I : Ideal α) : Prop
attribute [class] Ideal.IsMaximal Ideal.IsPrime

-- Mathlib/Algebra/Polynomial/Basic.lean (`structure Polynomial (R : Type*) [Semiring R]`; opaque)
axiom Polynomial (R : Type u) [Semiring R] : Type u
namespace Polynomial
variable {R : Type u}
-- Mathlib/Algebra/Polynomial/Basic.lean (`instance semiring`, `ring`, `commRing`)
axiom semiring [Semiring R] : Semiring (Polynomial R)
axiom ring [Ring R] : Ring (Polynomial R)
axiom commRing [CommRing R] : CommRing (Polynomial R)
attribute [instance] semiring ring commRing
-- Mathlib/Algebra/Polynomial/Basic.lean
axiom X [Semiring R] : Polynomial R
-- Mathlib/Algebra/Polynomial/Basic.lean (`def C : R →+* R[X]`, a bundled ring hom applied through its coercion to a
-- function: declared here as that function)
axiom C [Semiring R] : R → Polynomial R
-- Mathlib/Algebra/Polynomial/Basic.lean (`def coeff : R[X] → ℕ → R`)
axiom coeff [Semiring R] : Polynomial R → Nat → R
-- Mathlib/Algebra/Polynomial/Eval/Defs.lean (`def eval (x : R) (p : R[X]) : R := eval₂ (RingHom.id _) x p`; opaque)
axiom eval [Semiring R] (x : R) (p : Polynomial R) : R
-- Mathlib/Algebra/Polynomial/Degree/Defs.lean (`def degree (p : R[X]) : WithBot ℕ`, `def natDegree (p : R[X]) : ℕ`)
axiom degree [Semiring R] (p : Polynomial R) : WithBot Nat
axiom natDegree [Semiring R] (p : Polynomial R) : Nat
end Polynomial

-- Mathlib/Algebra/GroupWithZero/Basic.lean (`def IsNilpotent [Zero R] [Pow R ℕ] (x : R) : Prop := ∃ n : ℕ, x ^ n = 0`)
def IsNilpotent {R : Type u} [Zero R] [Pow R Nat] (x : R) : Prop := Exists fun n : Nat => Eq (HPow.hPow x n) 0

-- Mathlib/LinearAlgebra/Matrix/Defs.lean (`def Matrix (m : Type u) (n : Type u') (α : Type v) : Type max u u' v :=
-- m → n → α`): a matrix is applied to its indices as the function it unfolds to
def Matrix (m : Type u) (n : Type u') (α : Type v) : Type (max u u' v) := m → n → α
namespace Matrix
variable {l : Type u} {m : Type u'} {n : Type w} {α : Type v}
-- Mathlib/LinearAlgebra/Matrix/Defs.lean (`instance neg [Neg α] : Neg (Matrix m n α)`, entrywise; opaque here)
axiom neg [Neg α] : Neg (Matrix m n α)
-- Mathlib/Data/Matrix/Diagonal.lean (`variable [DecidableEq n] [Zero α] [One α]`, `instance one : One (Matrix n n α)`)
axiom one [DecidableEq n] [Zero α] [One α] : One (Matrix n n α)
-- Mathlib/Data/Matrix/Mul.lean (`@[default_instance 100] instance [Fintype m] [Mul α] [AddCommMonoid α] :
-- HMul (Matrix l m α) (Matrix m n α) (Matrix l n α)`)
axiom instHMulOfFintypeOfMulOfAddCommMonoid [Fintype m] [Mul α] [AddCommMonoid α] :
  HMul (Matrix l m α) (Matrix m n α) (Matrix l n α)
attribute [instance] neg one
attribute [instance, default_instance 100] instHMulOfFintypeOfMulOfAddCommMonoid
-- Mathlib/LinearAlgebra/Matrix/Rank.lean (`variable [Fintype n]`, `noncomputable def rank [CommSemiring R]
-- (A : Matrix m n R) : ℕ`; opaque)
axiom rank {R : Type v} [Fintype n] [CommSemiring R] (A : Matrix m n R) : Nat
end Matrix

-- Mathlib/Data/ZMod/Defs.lean (`def ZMod : ℕ → Type | 0 => ℤ | n + 1 => Fin (n + 1)`; opaque)
axiom ZMod (n : Nat) : Type
-- Mathlib/Data/ZMod/Defs.lean
axiom ZMod.commRing (n : Nat) : CommRing (ZMod n)
-- Mathlib/Data/ZMod/Basic.lean (`instance : Inv (ZMod n)`)
axiom ZMod.instInv (n : Nat) : Inv (ZMod n)
attribute [instance] ZMod.commRing ZMod.instInv
-- Mathlib/Data/ZMod/Basic.lean (`def val : ∀ {n : ℕ}, ZMod n → ℕ | 0 => Int.natAbs | n + 1 => ((↑) : Fin (n + 1) → ℕ)`;
-- opaque)
axiom ZMod.val {n : Nat} : ZMod n → Nat
end
