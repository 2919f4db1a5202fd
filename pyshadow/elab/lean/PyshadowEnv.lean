prelude
import PyshadowEnv.Core
import PyshadowEnv.Numbers
import PyshadowEnv.Logic
import PyshadowEnv.Algebra
import PyshadowEnv.Sets
import PyshadowEnv.Functions
import PyshadowEnv.Topology
import PyshadowEnv.GroupTheory
import PyshadowEnv.Rings
import PyshadowEnv.NumberTheory
import PyshadowEnv.Namespaces
import PyshadowEnv.Proofs
import PyshadowEnv.Order
import PyshadowEnv.Lemmas
/-! # pyshadow's signature environment

The Lean core and Mathlib declarations benchmark statements elaborate against, for the kernel-tier Lean (no
`Init`, no Mathlib): a statement printed as builtin syntax (`pyshadow.elab.translate`) elaborates here with Lean's
own elaborator — its coercions, binder types and unfolding — instead of a re-implementation of it.
-/
