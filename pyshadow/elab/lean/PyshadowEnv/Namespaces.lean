prelude
import PyshadowEnv.Functions
/-! # pyshadow's signature environment: namespaces benchmark headers open

`open X` fails on a namespace with no declaration in it. Mathlib's scoped-notation namespaces that benchmark files
open (`open BigOperators Real Nat Topology Rat`, the miniF2F header; `Filter`, `Finset`, `Polynomial`, `Classical`)
get one marker each, so the header elaborates; their notations are printed by `pyshadow.elab.translate`.
Sources: Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean (`namespace BigOperators`),
Mathlib/Topology/Defs/Filter.lean (`namespace Topology`), Mathlib/Order/Filter/Defs.lean (`namespace Filter`).
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
axiom BigOperators.pyshadowMarker : True
axiom Topology.pyshadowMarker : True
axiom Classical.pyshadowMarker : True
axiom Polynomial.pyshadowMarker : True
axiom Function.pyshadowMarker : True
