import Mathlib

/-!
# Derivatives at a saddle point

Reference formalization of the pyshadow problem `saddle_point_derivatives` (needs Mathlib).
-/

open Filter

namespace Saddle

/-- At a saddle point the derivatives of both sections vanish. -/
theorem saddle_sections_hasFDerivAt_eq_zero {n m : ℕ}
    {f : (Fin n → ℝ) × (Fin m → ℝ) → ℝ} {x0 : Fin n → ℝ} {z0 : Fin m → ℝ}
    {Dx : (Fin n → ℝ) →L[ℝ] ℝ} {Dz : (Fin m → ℝ) →L[ℝ] ℝ}
    (hs : ∀ x z, f (x0, z) ≤ f (x0, z0) ∧ f (x0, z0) ≤ f (x, z0))
    (hx : HasFDerivAt (fun x => f (x, z0)) Dx x0)
    (hz : HasFDerivAt (fun z => f (x0, z)) Dz z0) :
    Dx = 0 ∧ Dz = 0 := by
  have hmin : IsLocalMin (fun x => f (x, z0)) x0 :=
    Filter.Eventually.of_forall fun x => (hs x z0).2
  have hmax : IsLocalMax (fun z => f (x0, z)) z0 :=
    Filter.Eventually.of_forall fun z => (hs x0 z).1
  exact ⟨hmin.hasFDerivAt_eq_zero hx, hmax.hasFDerivAt_eq_zero hz⟩

end Saddle
