import Mathlib

/-!
# Finite morphisms to an affine scheme embed into affine space

Reference formalization of the pyshadow problem `finite_affine_embedding` (needs Mathlib). Every Mathlib name
below was read at the pinned commit `fabf563a` (Mathlib tag `v4.31.0`; docs/full-tier.md, "Mathlib names of the
bundled references"): `AlgebraicGeometry.Scheme` (Mathlib/AlgebraicGeometry/Scheme.lean:42, one universe),
`AlgebraicGeometry.AffineSpace (n : Type u) (S : Scheme.{u}) : Scheme.{u}` (AffineSpace.lean:44) with
`instance over : 𝔸(n; S).CanonicallyOver S` (:66), the structure map `X ↘ S`
(Mathlib/CategoryTheory/Comma/Over/OverClass.lean:55), `IsClosedImmersion` (Morphisms/ClosedImmersion.lean:45),
`IsFinite … extends IsAffineHom f` (Morphisms/Finite.lean:39), `IsAffineHom` (Morphisms/Affine.lean:47),
`IsAffine` (AffineScheme.lean:59), `Finite` (Mathlib/Data/Finite/Defs.lean:101).
-/

open CategoryTheory AlgebraicGeometry

universe u

namespace AffineEmbeddings

/-- `f` is a closed immersion into a finite-dimensional affine space over `S`, followed by the structure map: the
trusted notion the hidden checks use. -/
def HasAffineEmbedding {X S : Scheme.{u}} (f : X ⟶ S) : Prop :=
  ∃ (ι : Type u) (_ : Finite ι) (i : X ⟶ AffineSpace ι S),
    IsClosedImmersion i ∧ i ≫ AffineSpace ι S ↘ S = f

/-- A finite morphism to an affine scheme is affine and factors through a closed immersion into affine space. -/
theorem finite_affine_embedding {X S : Scheme.{u}} [IsAffine S] {f : X ⟶ S} (hf : IsFinite f) :
    IsAffineHom f ∧ HasAffineEmbedding f :=
  ⟨hf.toIsAffineHom, sorry⟩

end AffineEmbeddings
