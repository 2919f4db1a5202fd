import Mathlib

open Filter MeasureTheory
open scoped Topology

namespace FourierInversion

theorem tendsto_integral_cexp_sq_smul {V : Type*} [NormedAddCommGroup V] [InnerProductSpace ℝ V]
    [MeasurableSpace V] [BorelSpace V] [FiniteDimensional ℝ V]
    {E : Type*} [NormedAddCommGroup E] [NormedSpace ℝ E] {f : V → E} {μ : Measure V}
    (hf : Integrable f μ) :
    Tendsto (fun c : ℝ => ∫ v, Real.exp (-c⁻¹ * ‖v‖ ^ 2) • f v ∂μ) atTop (𝓝 (∫ v, f v ∂μ)) := by
  sorry

end FourierInversion
