import Mathlib

/-!
# Brahmagupta's formula

Reference formalization of the pyshadow problem `brahmagupta_formula` (needs Mathlib).
-/

open EuclideanGeometry MeasureTheory

namespace Brahmagupta

/-- The area of a convex cyclic quadrilateral from its side lengths. -/
axiom brahmagupta_formula {A B C D : EuclideanSpace ℝ (Fin 2)}
    (h_cyclic : Concyclic ({A, B, C, D} : Set (EuclideanSpace ℝ (Fin 2))))
    (h_convex : (openSegment ℝ A C ∩ openSegment ℝ B D).Nonempty) :
    let s := (dist A B + dist B C + dist C D + dist D A) / 2
    let K := (volume (convexHull ℝ ({A, B, C, D} : Set (EuclideanSpace ℝ (Fin 2))))).toReal
    K = Real.sqrt ((s - dist A B) * (s - dist B C) * (s - dist C D) * (s - dist D A))

end Brahmagupta
