prelude
/-! # pyshadow's signature environment: Lean core (`Init`)

The declarations of Lean 4's `Init` that statements elaborate against, restated for a `prelude` file: the logic
(`True` … `Exists`), `Nat` with its literals, the operator classes that `binop%`/`binrel%`/`unop%`/`rightact%`
elaborate to, order and membership classes, and the coercion chain with its `coe_decl` attributes. Each declaration
cites the `leanprover/lean4` file it restates (paths under `src/`). Inductive types, structures, classes and the
definitions whose unfolding makes two spellings equal (`Not`, `Ne`, `GE.ge`, `GT.gt`, `outParam`) are as in
`Init`; operations whose meaning no statement comparison needs are axioms, so they are never unfolded into a false
equality. Code generation does not apply: the file is compiled only to check and export the declarations.
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u v w

-- the compiler's own axioms, which `prelude` files must declare before any definition (src/Init/Prelude.lean)
unsafe axiom lcErased : Type
unsafe axiom lcAny : Type
unsafe axiom lcVoid : Type
unsafe axiom lcProof {α : Prop} : α
unsafe axiom lcUnreachable {α : Sort u} : α

-- src/Init/Prelude.lean
@[reducible] def outParam (α : Sort u) : Sort u := α
-- src/Init/Prelude.lean
@[reducible] def semiOutParam (α : Sort u) : Sort u := α
-- src/Init/Prelude.lean (`@[reducible] def optParam (α : Sort u) (default : α) : Sort u := α`: a default argument)
@[reducible] def optParam (α : Sort u) (default : α) : Sort u := α
-- src/Init/Prelude.lean
@[reducible] def id {α : Sort u} (a : α) : α := a
-- src/Init/Prelude.lean
inductive True : Prop where
  | intro : True
-- src/Init/Prelude.lean
inductive False : Prop
-- src/Init/Prelude.lean
def Not (a : Prop) : Prop := a → False
-- src/Init/Prelude.lean
inductive Eq {α : Sort u} (a : α) : α → Prop where
  | refl : Eq a a
-- src/Init/Prelude.lean
structure And (a b : Prop) : Prop where
  intro ::
  left : a
  right : b
-- src/Init/Prelude.lean
inductive Or (a b : Prop) : Prop where
  | inl (h : a) : Or a b
  | inr (h : b) : Or a b
-- src/Init/Core.lean
structure Iff (a b : Prop) : Prop where
  intro ::
  mp : a → b
  mpr : b → a
-- src/Init/Core.lean
inductive Exists {α : Sort u} (p : α → Prop) : Prop where
  | intro (w : α) (h : p w) : Exists p
-- src/Init/Core.lean
@[reducible] def Ne {α : Sort u} (a b : α) : Prop := Not (Eq a b)
-- src/Init/Prelude.lean
inductive Bool : Type where
  | false : Bool
  | true : Bool
-- src/Init/Prelude.lean (`export Bool (false true)`: `false` is `Bool.false` unqualified)
export Bool (false true)
-- src/Init/Prelude.lean
-- A type in every universe, as src/Init/Prelude.lean's `PUnit : Sort u` is: the witness that a binder over `Type u`
-- no part of a statement uses can be dropped (pyshadow.elab.equivalence). Not named `PUnit`: with that name
-- declared, Lean's inductive compiler reaches for `PUnit.unit` and `PProd`, which the environment does not have.
axiom PyshadowEnv.someType : Sort u
structure Subtype {α : Sort u} (p : α → Prop) where
  val : α
  property : p val
-- src/Init/Prelude.lean
structure Prod (α : Type u) (β : Type v) where
  fst : α
  snd : β
-- src/Init/Prelude.lean
inductive Nat where
  | zero : Nat
  | succ (n : Nat) : Nat
-- src/Init/Prelude.lean
class OfNat (α : Type u) (_ : Nat) where
  ofNat : α
-- src/Init/Prelude.lean
@[default_instance 100]
instance instOfNatNat (n : Nat) : OfNat Nat n := ⟨n⟩

-- src/Init/Prelude.lean: the heterogeneous operator classes and their homogeneous defaults
class HAdd (α : Type u) (β : Type v) (γ : outParam (Type w)) where
  hAdd : α → β → γ
class HSub (α : Type u) (β : Type v) (γ : outParam (Type w)) where
  hSub : α → β → γ
class HMul (α : Type u) (β : Type v) (γ : outParam (Type w)) where
  hMul : α → β → γ
class HDiv (α : Type u) (β : Type v) (γ : outParam (Type w)) where
  hDiv : α → β → γ
class HMod (α : Type u) (β : Type v) (γ : outParam (Type w)) where
  hMod : α → β → γ
class HPow (α : Type u) (β : Type v) (γ : outParam (Type w)) where
  hPow : α → β → γ
class HSMul (α : Type u) (β : Type v) (γ : outParam (Type w)) where
  hSMul : α → β → γ
class HAppend (α : Type u) (β : Type v) (γ : outParam (Type w)) where
  hAppend : α → β → γ
class Add (α : Type u) where add : α → α → α
class Sub (α : Type u) where sub : α → α → α
class Mul (α : Type u) where mul : α → α → α
class Div (α : Type u) where div : α → α → α
class Mod (α : Type u) where mod : α → α → α
class Neg (α : Type u) where neg : α → α
class Pow (α : Type u) (β : Type v) where pow : α → β → α
class SMul (M : Type u) (α : Type v) where smul : M → α → α
class Append (α : Type u) where append : α → α → α
@[default_instance]
instance instHAdd {α : Type u} [Add α] : HAdd α α α := ⟨fun a b => Add.add a b⟩
@[default_instance]
instance instHSub {α : Type u} [Sub α] : HSub α α α := ⟨fun a b => Sub.sub a b⟩
@[default_instance]
instance instHMul {α : Type u} [Mul α] : HMul α α α := ⟨fun a b => Mul.mul a b⟩
@[default_instance]
instance instHDiv {α : Type u} [Div α] : HDiv α α α := ⟨fun a b => Div.div a b⟩
@[default_instance]
instance instHMod {α : Type u} [Mod α] : HMod α α α := ⟨fun a b => Mod.mod a b⟩
@[default_instance]
instance instHPow {α : Type u} {β : Type v} [Pow α β] : HPow α β α := ⟨fun a b => Pow.pow a b⟩
@[default_instance]
instance instHSMul {α : Type u} {β : Type v} [SMul α β] : HSMul α β β := ⟨fun a b => SMul.smul a b⟩
instance instHAppend {α : Type u} [Append α] : HAppend α α α := ⟨fun a b => Append.append a b⟩
-- src/Init/Prelude.lean: `Monoid.npow` is the default `x ^ n` with a `Nat` exponent
class NatPow (α : Type u) where pow : α → Nat → α
@[default_instance]
instance instPowNat {α : Type u} [NatPow α] : Pow α Nat := ⟨fun a n => NatPow.pow a n⟩

-- src/Init/Prelude.lean: order and divisibility
class LE (α : Type u) where le : α → α → Prop
class LT (α : Type u) where lt : α → α → Prop
@[reducible] def GE.ge {α : Type u} [LE α] (a b : α) : Prop := LE.le b a
@[reducible] def GT.gt {α : Type u} [LT α] (a b : α) : Prop := LT.lt b a
class Dvd (α : Type u) where dvd : α → α → Prop
-- src/Init/Prelude.lean
class Max (α : Type u) where max : α → α → α
class Min (α : Type u) where min : α → α → α
-- src/Init/Prelude.lean (`export Max (max)`, `export Min (min)`)
export Max (max)
export Min (min)
-- src/Init/Prelude.lean: collections
class Membership (α : outParam (Type u)) (γ : Type v) where
  mem : γ → α → Prop
-- src/Init/Core.lean
class HasSubset (α : Type u) where Subset : α → α → Prop
class HasSSubset (α : Type u) where SSubset : α → α → Prop
class Union (α : Type u) where union : α → α → α
class Inter (α : Type u) where inter : α → α → α
class SDiff (α : Type u) where sdiff : α → α → α
class EmptyCollection (α : Type u) where emptyCollection : α
class Singleton (α : outParam (Type u)) (β : Type v) where singleton : α → β
class Insert (α : outParam (Type u)) (γ : Type v) where insert : α → γ → γ

-- src/Init/Prelude.lean and src/Init/Coe.lean: the coercion classes the elaborator unfolds (`coe_decl`)
class Coe (α : semiOutParam (Sort u)) (β : Sort v) where coe : α → β
attribute [coe_decl] Coe.coe
class CoeTC (α : Sort u) (β : Sort v) where coe : α → β
attribute [coe_decl] CoeTC.coe
class CoeOut (α : Sort u) (β : semiOutParam (Sort v)) where coe : α → β
attribute [coe_decl] CoeOut.coe
class CoeOTC (α : Sort u) (β : Sort v) where coe : α → β
attribute [coe_decl] CoeOTC.coe
class CoeHead (α : Sort u) (β : semiOutParam (Sort v)) where coe : α → β
attribute [coe_decl] CoeHead.coe
class CoeHTC (α : Sort u) (β : Sort v) where coe : α → β
attribute [coe_decl] CoeHTC.coe
class CoeTail (α : semiOutParam (Sort u)) (β : Sort v) where coe : α → β
attribute [coe_decl] CoeTail.coe
class CoeHTCT (α : Sort u) (β : Sort v) where coe : α → β
attribute [coe_decl] CoeHTCT.coe
class CoeDep (α : Sort u) (_ : α) (β : Sort v) where coe : β
attribute [coe_decl] CoeDep.coe
class CoeT (α : Sort u) (_ : α) (β : Sort v) where coe : β
attribute [coe_decl] CoeT.coe
class CoeFun (α : Sort u) (γ : outParam (α → Sort v)) where coe : (f : α) → γ f
attribute [coe_decl] CoeFun.coe
class CoeSort (α : Sort u) (β : outParam (Sort v)) where coe : α → β
attribute [coe_decl] CoeSort.coe
-- src/Init/Coe.lean: a function or a sort coercion is a `CoeOut` step of the chain
instance {α : Sort u} {β : Sort v} [CoeFun α fun _ => β] : CoeOut α β where coe a := CoeFun.coe a
instance {α : Sort u} {β : Sort v} [CoeSort α β] : CoeOut α β where coe a := CoeSort.coe a
section
variable {α : Sort u} {β : Sort v} {γ : Sort w}
instance [Coe β γ] [CoeTC α β] : CoeTC α γ where coe a := Coe.coe (CoeTC.coe a : β)
instance [Coe α β] : CoeTC α β where coe a := Coe.coe a
instance : CoeTC α α where coe a := a
instance [CoeOut α β] [CoeOTC β γ] : CoeOTC α γ where coe a := CoeOTC.coe (CoeOut.coe a : β)
instance [CoeTC α β] : CoeOTC α β where coe a := CoeTC.coe a
instance : CoeOTC α α where coe a := a
instance [CoeHead α β] [CoeOTC β γ] : CoeHTC α γ where coe a := CoeOTC.coe (CoeHead.coe a : β)
instance [CoeOTC α β] : CoeHTC α β where coe a := CoeOTC.coe a
instance : CoeHTC α α where coe a := a
instance [CoeTail β γ] [CoeHTC α β] : CoeHTCT α γ where coe a := CoeTail.coe (CoeHTC.coe a : β)
instance [CoeHTC α β] : CoeHTCT α β where coe a := CoeHTC.coe a
instance : CoeHTCT α α where coe a := a
instance {a : α} [CoeHTCT α β] : CoeT α a β where coe := CoeHTCT.coe a
instance {a : α} [CoeDep α a β] : CoeT α a β where coe := CoeDep.coe a
instance {a : α} : CoeT α a α where coe := a
end
-- src/Init/Coe.lean: a Bool in Prop position is `b = true`
instance boolToProp : Coe Bool Prop where coe b := Eq b Bool.true
-- src/Init/Coe.lean (`instance boolToSort : CoeSort Bool Prop where coe b := b`, through `boolToProp`): in type
-- position too
instance boolToSort : CoeSort Bool Prop where coe b := Eq b Bool.true
-- src/Init/Coe.lean: a subtype's value
instance {α : Sort u} {p : α → Prop} : CoeOut (Subtype p) α := ⟨Subtype.val⟩
