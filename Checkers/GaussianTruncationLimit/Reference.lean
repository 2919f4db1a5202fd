import Mathlib

/-!
# Gaussian truncation limit (complex-valued)

Reference formalization of the pyshadow problem `gaussian_truncation_limit` (needs Mathlib).
-/

open Filter MeasureTheory Complex
open scoped Topology

namespace FourierInversion

/-- Gaussian truncations of an integrable function have integrals tending to its integral. -/
theorem tendsto_integral_cexp_sq_smul {V : Type*} [NormedAddCommGroup V] [InnerProductSpace ℝ V]
    [MeasurableSpace V] [BorelSpace V] [FiniteDimensional ℝ V]
    {E : Type*} [NormedAddCommGroup E] [NormedSpace ℂ E] {f : V → E} (hf : Integrable f) :
    Tendsto (fun c : ℝ => ∫ v : V, cexp (-c⁻¹ * ‖v‖ ^ 2) • f v) atTop (𝓝 (∫ v : V, f v)) :=
  Real.tendsto_integral_cexp_sq_smul hf

end FourierInversion
