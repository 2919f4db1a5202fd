prelude
import PyshadowEnv.Functions
import PyshadowEnv.NumberTheory
/-! # pyshadow's signature environment: namespaces benchmark headers open

`open X` fails on a namespace with no declaration in it. Mathlib's scoped-notation namespaces that benchmark files
open (`open BigOperators Real Nat Topology Rat`, the miniF2F header; `Filter`, `Finset`, `Polynomial`, `Classical`)
get one marker each, so the header elaborates; their notations are printed by `pyshadow.elab.translate`.
Sources: Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean (`namespace BigOperators`),
Mathlib/Topology/Defs/Filter.lean (`namespace Topology`), Mathlib/Order/Filter/Defs.lean (`namespace Filter`);
the namespaces the corpora's headers open that have no declaration here yet (`open Ideal Submodule Zsqrtd`, the
ProofNet header; `open symmDiff`, `open MeasureTheory ENNReal` …), each one a namespace of Mathlib: a marker
makes `open` succeed and resolves no name, so a statement naming a missing constant is still rejected.
`EuclideanGeometry` is Mathlib's (Mathlib/Geometry/Euclidean/Triangle.lean, `namespace EuclideanGeometry`);
`LeanInfer` is not Mathlib's but the LeanInfer package's (lean-dojo/LeanInfer, `LeanInfer/Frontend.lean`), which
early miniF2F ports open in their header.
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
axiom BigOperators.pyshadowMarker : True
axiom Topology.pyshadowMarker : True
axiom Classical.pyshadowMarker : True
axiom Function.pyshadowMarker : True
axiom Zsqrtd.pyshadowMarker : True
axiom LinearMap.pyshadowMarker : True
axiom Metric.pyshadowMarker : True
axiom TopologicalSpace.pyshadowMarker : True
axiom symmDiff.pyshadowMarker : True
axiom MeasurableSpace.pyshadowMarker : True
axiom MeasureTheory.pyshadowMarker : True
axiom ENNReal.pyshadowMarker : True
axiom Interval.pyshadowMarker : True
axiom FiniteDimensional.pyshadowMarker : True
axiom Module.pyshadowMarker : True
axiom Module.End.pyshadowMarker : True
axiom InnerProductSpace.pyshadowMarker : True
axiom OrderDual.pyshadowMarker : True
axiom ComplexConjugate.pyshadowMarker : True
axiom Pointwise.pyshadowMarker : True
axiom EuclideanGeometry.pyshadowMarker : True
axiom LeanInfer.pyshadowMarker : True
