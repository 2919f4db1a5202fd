import Mathlib

open Filter

namespace Saddle

theorem saddle_sections_hasFDerivAt_eq_zero (n m : ℕ)
    (f : (Fin n → ℝ) × (Fin m → ℝ) → ℝ) (x0 : Fin n → ℝ) (z0 : Fin m → ℝ)
    (Dx : (Fin n → ℝ) →L[ℝ] ℝ) (Dz : (Fin m → ℝ) →L[ℝ] ℝ)
    (h_saddle : ∀ x z, f (x0, z) ≤ f (x0, z0) ∧ f (x0, z0) ≤ f (x, z0))
    (h_dx : HasFDerivAt (fun x => f (x, z0)) Dx x0)
    (h_dz : HasFDerivAt (fun z => f (x0, z)) Dz z0) :
    Dx = 0 ∧ Dz = 0 := by
  have hmin : IsLocalMin (fun x => f (x, z0)) x0 :=
    Filter.Eventually.of_forall fun x => (h_saddle x z0).2
  have hmax : IsLocalMax (fun z => f (x0, z)) z0 :=
    Filter.Eventually.of_forall fun z => (h_saddle x0 z).1
  exact ⟨hmin.hasFDerivAt_eq_zero h_dx, hmax.hasFDerivAt_eq_zero h_dz⟩

end Saddle
