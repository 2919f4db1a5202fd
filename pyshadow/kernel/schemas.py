"""The Lean-checked schemas behind the folds of ``definitions.fold_definitions``: prelude-mode Lean that proves each
reading states the same proposition as the text it replaces — Bool literals in Prop position
(``BOOL_PROP_SCHEMA``), a variable fixed by a hypothesis (``SUBST_SCHEMA``), pointwise definitions
(``POINTWISE_SCHEMA``) and formal-conjectures' ``answer(e)`` (``ANSWER_SCHEMA``, ``answers``).
tests/test_skeleton_definitions.py has the kernel-tier Lean check them.
"""

from __future__ import annotations

# Checked by the kernel-tier Lean (prelude mode) in tests/test_skeleton_pairs.py.
BOOL_PROP_SCHEMA = """inductive Bool : Type where
  | false : Bool
  | true : Bool
inductive True : Prop where
  | intro : True
theorem false_prop_iff : Iff (Eq Bool.false Bool.true) False :=
  Iff.intro (fun h => @Eq.rec Bool Bool.false (fun b _ => @Bool.rec (fun _ => Prop) True False b) True.intro
    Bool.true h) (fun h => False.rec (fun _ => Eq Bool.false Bool.true) h)
theorem true_prop_iff : Iff (Eq Bool.true Bool.true) True :=
  Iff.intro (fun _ => True.intro) (fun _ => @Eq.refl Bool Bool.true)
"""
SUBST_SCHEMA = """axiom propext {a b : Prop} : Iff a b → Eq a b
theorem subst_eq {α : Sort u} (e : α) (P : α → Prop) : Iff (∀ v, Eq v e → P v) (P e) :=
  Iff.intro (fun (h : ∀ v, Eq v e → P v) => h e (@Eq.refl α e))
    (fun (h : P e) (v : α) (hv : Eq v e) => @Eq.rec α e (fun x _ => P x) h v (Eq.symm hv))
theorem subst_iff (X : Prop) (P : Prop → Prop) : Iff (∀ v : Prop, Iff v X → P v) (P X) :=
  Iff.intro (fun (h : ∀ v : Prop, Iff v X → P v) => h X (Iff.intro (fun x => x) (fun x => x)))
    (fun (h : P X) (v : Prop) (hv : Iff v X) => @Eq.rec Prop X (fun x _ => P x) h v (Eq.symm (propext hv)))
"""

# After SUBST_SCHEMA (its `propext`). `funext` is a theorem of Lean core (src/Init/Core.lean, from `Quot.sound`),
# stated here as an axiom of its type; `Set`/`setOf`/`Set.Mem` as Mathlib/Data/Set/Defs.lean defines them
# (`def Set (α : Type u) := α → Prop`, `{x | p x}` is `setOf p`, `a ∈ s` is `s a`).
POINTWISE_SCHEMA = """universe v
axiom funext {α : Sort u} {β : α → Sort v} {f g : (x : α) → β x} (h : ∀ x, Eq (f x) (g x)) : Eq f g
theorem pointwise_iff {α : Sort u} (P Q : α → Prop) : Iff (∀ x, Iff (P x) (Q x)) (Eq P (fun x => Q x)) :=
  Iff.intro (fun h => funext (fun x => propext (h x)))
    (fun h x => @Eq.rec (α → Prop) (fun x => Q x) (fun R _ => Iff (R x) (Q x))
      (Iff.intro (fun q => q) (fun q => q)) P (Eq.symm h))
theorem pointwise_eq {α : Sort u} {β : Sort v} (f g : α → β) : Iff (∀ x, Eq (f x) (g x)) (Eq f (fun x => g x)) :=
  Iff.intro (fun h => funext h)
    (fun h x => @Eq.rec (α → β) f (fun (k : α → β) _ => Eq (f x) (k x)) (@Eq.refl β (f x)) (fun y => g y) h)
@[reducible] def Set (α : Type u) : Type u := α → Prop
def setOf {α : Type u} (p : α → Prop) : Set α := p
def Set.Mem {α : Type u} (s : α → Prop) (a : α) : Prop := s a
theorem pointwise_mem {α : Type u} (S : Set α) (Q : α → Prop) :
    Iff (∀ x, Iff (Set.Mem S x) (Q x)) (Eq S (setOf (fun x => Q x))) :=
  pointwise_iff S Q
theorem mem_setOf {α : Type u} (a : α) (Q : α → Prop) : Eq (Set.Mem (setOf (fun x => Q x)) a) (Q a) := @Eq.refl Prop (Q a)
"""

# After BOOL_PROP_SCHEMA (its `True`).
ANSWER_SCHEMA = """theorem iff_true_is (p : Prop) : Iff (Iff p True) p :=
  Iff.intro (fun h => h.mpr True.intro) (fun hp => Iff.intro (fun _ => True.intro) (fun _ => hp))
theorem iff_false_is (p : Prop) : Iff (Iff p False) (p → False) :=
  Iff.intro (fun h => h.mp) (fun hn => Iff.intro hn (fun f => False.rec (fun _ => p) f))
"""
