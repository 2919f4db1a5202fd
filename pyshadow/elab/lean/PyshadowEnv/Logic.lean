prelude
import PyshadowEnv.Numbers
/-! # pyshadow's signature environment: logic and type-level predicates

`Decidable`, `Nonempty`, `Subsingleton` (Lean core), `ExistsUnique`, `Xor'`, `IsEmpty`, `Nontrivial`, `Fin`,
`Equiv`, `Finite`/`Infinite` (Mathlib), as they are defined there (a `class inductive` as the inductive and
`attribute [class]`, which is what the command does): their definitions are what makes `∃! x, p x`
and `∃ x, p x ∧ ∀ y, p y → y = x` one proposition. A class whose Mathlib definition needs more than this file
has is an opaque `axiom` marked `[class]` (never a field-less structure, which would make it provable).
Sources: `leanprover/lean4` (`src/…`) and `leanprover-community/mathlib4` (`Mathlib/…`).
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u v

-- src/Init/Prelude.lean
inductive Decidable (p : Prop) where
  | isFalse (h : Not p) : Decidable p
  | isTrue (h : p) : Decidable p
attribute [class] Decidable
-- src/Init/Prelude.lean
abbrev DecidablePred {α : Sort u} (r : α → Prop) := (a : α) → Decidable (r a)
-- src/Init/Prelude.lean
abbrev DecidableEq (α : Sort u) := (a b : α) → Decidable (Eq a b)
-- src/Init/Prelude.lean
inductive Nonempty (α : Sort u) : Prop where
  | intro (val : α) : Nonempty α
attribute [class] Nonempty
-- Mathlib/Logic/Basic.lean (`class Fact (p : Prop) : Prop where out : p`): a proposition as an instance
inductive Fact (p : Prop) : Prop where
  | intro (out : p) : Fact p
attribute [class] Fact
-- src/Init/Core.lean
class Subsingleton (α : Sort u) : Prop where
  intro ::
  allEq : (a b : α) → Eq a b
-- Mathlib/Logic/ExistsUnique.lean
def ExistsUnique {α : Sort u} (p : α → Prop) : Prop := Exists fun x => And (p x) (∀ y, p y → Eq y x)
-- Mathlib/Logic/Basic.lean
def Xor' (a b : Prop) : Prop := Or (And a (Not b)) (And b (Not a))
-- Mathlib/Logic/IsEmpty/Defs.lean
class IsEmpty (α : Sort u) : Prop where
  false : α → False
-- Mathlib/Logic/Nontrivial/Defs.lean
class Nontrivial (α : Type u) : Prop where
  exists_pair_ne : Exists fun x : α => Exists fun y : α => Ne x y
-- src/Init/Prelude.lean
structure Fin (n : Nat) where
  val : Nat
  isLt : LT.lt val n
-- src/Init/Prelude.lean (`instance : CoeOut (Fin n) Nat := ⟨Fin.val⟩`, src/Init/Data/Fin/Basic.lean)
instance {n : Nat} : CoeOut (Fin n) Nat := ⟨Fin.val⟩
-- Mathlib/Logic/Function/Defs.lean
def Function.LeftInverse {α : Sort u} {β : Sort v} (g : β → α) (f : α → β) : Prop := ∀ x, Eq (g (f x)) x
-- Mathlib/Logic/Function/Defs.lean
def Function.RightInverse {α : Sort u} {β : Sort v} (g : β → α) (f : α → β) : Prop := Function.LeftInverse f g
-- Mathlib/Logic/Equiv/Defs.lean
structure Equiv (α : Sort u) (β : Sort v) where
  toFun : α → β
  invFun : β → α
  left_inv : Function.LeftInverse invFun toFun
  right_inv : Function.RightInverse invFun toFun
-- Mathlib/Logic/Equiv/Defs.lean (`instance : CoeFun (α ≃ β) fun _ => α → β` through `EquivLike`/`FunLike`)
instance {α : Sort u} {β : Sort v} : CoeFun (Equiv α β) (fun _ => α → β) := ⟨Equiv.toFun⟩
-- Mathlib/Logic/Equiv/Defs.lean (`abbrev Equiv.Perm (α : Sort*) := Equiv α α`)
abbrev Equiv.Perm (α : Sort u) := Equiv α α
-- Mathlib/Data/Finite/Defs.lean
inductive Finite (α : Sort u) : Prop where
  | intro {n : Nat} : Equiv α (Fin n) → Finite α
attribute [class] Finite
-- Mathlib/Data/Finite/Defs.lean
class Infinite (α : Sort u) : Prop where
  not_finite : Not (Finite α)
