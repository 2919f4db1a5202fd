import Mathlib

open EuclideanGeometry

namespace Brahmagupta

theorem brahmagupta_formula {V P : Type*} [NormedAddCommGroup V] [InnerProductSpace ℝ V]
    [MetricSpace P] [NormedAddTorsor V P] (A B C D : P) (a b c d s K : ℝ)
    (ha : a = dist A B) (hb : b = dist B C) (hc : c = dist C D) (hd : d = dist D A)
    (hs : s = (a + b + c + d) / 2)
    (hcyclic : EuclideanGeometry.angle D A B + EuclideanGeometry.angle B C D = Real.pi)
    (harea : K = 1 / 2 * a * d * Real.sin (EuclideanGeometry.angle D A B) +
      1 / 2 * b * c * Real.sin (EuclideanGeometry.angle B C D))
    (hK : 0 ≤ K) :
    K = Real.sqrt ((s - a) * (s - b) * (s - c) * (s - d)) := by
  sorry

end Brahmagupta
