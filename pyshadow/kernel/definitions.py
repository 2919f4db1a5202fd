"""Readings of a statement that Lean makes equal by a proof term, applied to normalised declarations
(``normalize_declaration`` below: ``atoms.canonical_atoms`` first, then ``fold_definitions``, on both sides of every
comparison).

1. **Bool terms in Prop position.** A Bool term written where a proposition is expected (a conclusion, a
   hypothesis, an operand of ∧ ∨ → ↔ ¬) is coerced by Lean core's ``instance boolToProp : Coe Bool Prop where
   coe b := Eq b true`` (src/Init/Coe.lean), so ``b`` there is ``b = true`` — for every term surely of type Bool:
   the literals, a variable declared ``: Bool``, ``==`` ``!=`` ``&&`` ``||`` ``!`` and the Bool functions of Lean
   core (``_BOOL_HEADS``). The literals then fold: ``(false = true) ↔ False`` and ``(true = true) ↔ True`` are
   proved by ``BOOL_PROP_SCHEMA`` (``Bool.rec``, no axiom), which tests/test_skeleton_definitions.py has the
   kernel-tier Lean check. Only outside relations (``b = false`` is Bool equality and stays) and never for a name
   bound in scope.

2. **A variable fixed by a hypothesis.** A top-level binder ``(v : T)`` with a later top-level hypothesis
   ``(h : v = e)`` or ``(h : e = v)`` (``v ↔ e`` for ``v : Prop``; atoms.py already reads a Prop equation as ↔),
   where ``e`` does not mention ``v`` and mentions only binders bound before ``v``: ``∀ v, … → v = e → P v`` is
   ``… → P e``. ``SUBST_SCHEMA`` states both directions for an arbitrary ``P`` (``Eq.rec``; the ↔ form with
   ``propext``, Lean core src/Init/Core.lean, which is no classical axiom) and the same test has Lean check it.
   The instance here is that schema with ``P := fun v => <rest of the statement>``: ``v`` is replaced by ``e`` in
   the tree and inside atoms (as term trees, so precedence and binders are respected); the rewrite is skipped
   whenever it could capture a name, ``h`` is mentioned elsewhere, or an atom mentioning ``v`` does not read.

3. **Auto-bound implicits.** Lean's ``autoImplicit`` (on by default, src/Lean/Elab/AutoBound.lean
   ``register_builtin_option autoImplicit … defValue := true``; off after ``set_option autoImplicit false`` in the
   statement's file or ``… in`` preamble, ``auto_implicit``) binds an identifier the signature uses but that
   resolves to nothing as an implicit ``{x : ?}`` in front of the binders, its type found by unification. Eligible
   are the names ``isValidAutoBoundSuffix`` admits (one character, then digits, subscripts, ``_`` or ``'``; in the
   default relaxed mode any atomic name, but which longer names resolve is Mathlib's to say); read here for the
   lowercase Latin ones, which no constant is spelled as (at the root or in the namespaces the alias table knows),
   whose type a use fixes (``f x`` with ``f : ℤ → ℤ``, ``atoms.infer_binder_type``); anything else is left alone.
   ``∀ {x : T}`` and ``∀ (x : T)`` state the same proposition.

4. Data declarations and formal-conjectures' ``answer(e)``: ``kernel/answers.py``; the unfolding of the definitions
   a statement uses: ``kernel/local_definitions.py`` (both readings come first).

5. **Pointwise definitions.** A hypothesis ``(h : ∀ x₁ … xₖ, P x₁ … xₖ ↔ Q)`` defines the variable ``P`` as
   ``fun x₁ … xₖ => Q`` (``(∀ x, P x ↔ Q x) ↔ P = fun x => Q x``: ``funext`` and ``propext``), ``(h : ∀ x₁ … xₖ,
   f x₁ … xₖ = e)`` defines ``f`` (``funext``) and ``(h : ∀ x, x ∈ S ↔ Q)`` with ``S : Set A`` defines ``S`` as
   ``{x | Q}`` (Mathlib ``Set.ext``, Mathlib/Data/Set/Defs.lean; membership in ``{x | p x}`` is ``p a`` by ``rfl``,
   ``Set.mem_setOf_eq``). ``POINTWISE_SCHEMA`` proves the three (``funext``/``propext`` are no classical axioms) and
   the same test has Lean check it. Only for a variable of the statement, applied to exactly the ∀'s distinct
   variables in order, each untyped or typed with the variable's declared domain; the value is then eliminated as
   in 2. (each binder typed with the variable's declared domain — the type ``P x`` gives an untyped ``∀ x`` — and
   ascribed with its type), and every use ``P a b`` is beta-reduced to ``Q[a, b]`` (the kernel's definitional
   equality). A written value with an untyped binder (``v = {x | p}``) is not substituted: which of ``p`` and
   ``v``'s type fixes ``x``'s type is the elaborator's call.

7. **Quantifiers over a set's elements.** ``∀ n : S, P`` with ``S : Set T`` or ``S : Finset T`` a variable of the
   statement ranges over the subtype ``{x // x ∈ S}`` (Mathlib ``Set.Elem``, Mathlib/Data/Set/Defs.lean; the
   ``CoeSort`` of ``Finset``, Mathlib/Data/Finset/Defs.lean), so it is ``∀ n : T, n ∈ S → P`` and ``∃ n : S, P`` is
   ``∃ n : T, n ∈ S ∧ P`` (Mathlib ``Subtype.forall``/``Subtype.exists``, Mathlib/Data/Subtype.lean), with each use
   of the element now the value ``↑⟨n, h⟩ = n`` (``Subtype.val``, by ``rfl``). Only where every use of ``n`` is
   surely that value: ``(n : T)``, ``n.val``, ``n.1``, or an argument at a position of type ``T`` of a function
   the statement declares; any other use (``n`` alone as an operand, ``↑n`` to an unknown type) leaves the
   quantifier as written. ``∀ n ∈ S`` (untyped) gets that same ``n : T``: ``Membership``'s element type is an
   ``outParam`` (Lean core src/Init/Prelude.lean), so ``S``'s type fixes it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from ..syntax import terms as tm
from ..syntax.ast import IFF, Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term, atoms, is_proposition
from ..syntax.render import render_declaration, render_term
from .atoms import canonical_atoms, recheck_casts
from .keys import key_idents
from .resolver import infer_binder_type
from .binder_types import BinderTypes, type_text
from .casts import expected_type_reaches, stands_alone
from .answers import (DATA_KEYWORDS, answers_unwrapped, constant_iffs, data_as_proposition,  # noqa: F401
                      is_data_declaration)
from .context_variables import with_context_variables
from .local_definitions import unfold_definitions
from .opens import unread_context
from .substitution import (Skip as _Skip, free_names, idents as _idents, map_atoms as _map_atoms,
                           map_terms as _map_terms, quantified as _quantified, read_key as _read_key,
                           rebuild as _rebuild, subst as _subst, subst_binder as _subst_binder, terms as _terms)

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

_LOGICAL_FALSE = {"false": "False", "true": "True"}


@functools.lru_cache(maxsize=4096)  # the search, its alias pass and the undecided re-check read the same pair
def normalize_declaration(decl: Declaration, context: str = "") -> Declaration:
    """How the skeleton reads a statement: the ``variable`` s of its ``context`` it includes as its first binders
    (``context_variables``), the definitions of its ``context`` unfolded
    (``local_definitions.unfold_definitions``) and a data declaration read as the proposition it stands for
    (``data_as_proposition``) first, then canonical atoms under its own ``open`` s (``atoms.canonical_atoms``), then
    the Lean-checked folds of this module (auto-bound names as the context's ``autoImplicit`` says)."""
    decl = with_context_variables(decl, context)
    written = _pointwise_as_definitions(answers_unwrapped(data_as_proposition(unfold_definitions(decl, context))))
    read = fold_definitions(canonical_atoms(written, context), auto_implicit(context, decl.preamble))
    unread = unread_context(context, render_declaration(decl))
    if unread is None:
        return read
    # a context command the kernel does not read may change every atom's meaning: atoms are keyed with it
    # (as an opaque function applied to the atom, so that the variables it mentions stay visible to the search)
    return _map_terms(read, lambda t: _map_atoms(t, lambda a: replace(a, text=f"«context {unread}» ({a.text})")))


def fold_definitions(decl: Declaration, autobound: bool = True) -> Declaration:
    """``decl`` with Bool terms in Prop position coerced, auto-bound names bound (when ``autobound``: the file's
    ``autoImplicit``) and variables fixed by a defining hypothesis substituted away (module docstring)."""
    decl = _subtype_binders(_bool_props(_autobound(decl) if autobound else _unknown_names(decl)))
    while True:
        folded = _eliminate_one(decl)
        if folded is None:
            return constant_iffs(decl)
        decl = folded


# ---------------------------------------------------------------------------------------------------------------
# 7. Quantifiers over a set's elements


def _subtype_binders(decl: Declaration) -> Declaration:
    """``∀ n : S, P`` as ``∀ n : T, n ∈ S → P`` (and ``∃``) for a set variable ``S`` (module docstring, 7.)."""
    scope = _Sets({}, {})
    for b in decl.binders:
        scope = scope.bind(b)

    def term(t: Term, scope: _Sets) -> Term:
        if isinstance(t, Not):
            return Not(term(t.arg, scope))
        if isinstance(t, (BinOp, Rel)):
            return replace(t, left=term(t.left, scope), right=term(t.right, scope))
        if isinstance(t, Let):
            return t
        if not isinstance(t, Quant):
            return t
        inner = scope
        for b in t.binders:
            inner = inner.bind(b)
        body = term(t.body, inner)
        binders = list(t.binders)
        current = scope
        for k, b in enumerate(t.binders):
            elements, current = current.elements, current.bind(b)  # the sets bound before this binder
            if b.type is None and b.bound is not None and b.bound[0] == "∈" and isinstance(b.bound[1], Atom) \
                    and b.bound[1].text in elements:
                # `∀ n ∈ S` binds `n : T`: `Membership`'s element type is an outParam (Lean core
                # src/Init/Prelude.lean `class Membership (α : outParam (Type u)) (γ : Type v)`)
                element = tm.canonical_node(elements[b.bound[1].text])
                binders[k] = replace(b, type=Atom(element, key_idents(element)))
                continue
            s = b.type.text if isinstance(b.type, Atom) else None
            if s not in elements or b.bound is not None or t.kind not in ("∀", "∃") or b.bracket not in ("", "("):
                continue
            element = tm.canonical_node(elements[s])
            later = [x for c in t.binders[k + 1:] for x in (c.type, c.bound[1] if c.bound else None) if x is not None]
            if any(n in _idents(x) for n in b.names for x in later):
                continue  # a later binder's type depends on the element: keep it
            try:
                new_body = body
                for n in b.names:
                    new_body = _map_atoms(new_body, lambda a, n=n: _as_value(a, n, element, inner.functions))
            except _Skip:
                continue
            body = new_body
            binders[k] = replace(b, type=Atom(element, key_idents(element)), bound=("∈", Atom(s, (s,))))
        return Quant(t.kind, tuple(binders), body)

    binders = tuple(replace(b, type=term(b.type, scope)) if b.type is not None and is_proposition(b) else b
                    for b in decl.binders)
    return replace(decl, binders=binders, type=term(decl.type, scope) if decl.type is not None else None)


@dataclass(frozen=True)
class _Sets:
    """The set variables in scope (name → element type) and the functions (name → domains), by declared type."""

    elements: dict[str, tm.Node]
    functions: dict[str, list[tm.Node]]

    def bind(self, b: Binder) -> "_Sets":
        elements = {k: v for k, v in self.elements.items() if k not in b.names}
        functions = {k: v for k, v in self.functions.items() if k not in b.names}
        ty = _read_key(_text(b.type)) if b.type is not None and not b.is_instance else None
        for n in b.names:
            if isinstance(ty, tm.App) and ty.fn in (tm.Name("Set"), tm.Name("Finset")) and len(ty.args) == 1:
                elements[n] = ty.args[0]
            domains, rest = [], ty
            while isinstance(rest, tm.Binary) and rest.op == "→":
                domains.append(rest.left)
                rest = rest.right
            if domains:
                functions[n] = domains
        return _Sets(elements, functions)


def _as_value(a: Atom, n: str, element: str, functions: dict[str, list[tm.Node]]) -> Atom:
    """``a`` with every use of the subtype element ``n`` read as its value (``_subtype_binders``); raises ``_Skip``
    where a use is not surely coerced to the element type."""
    if n not in a.idents:
        return a
    node = _read_key(a.text)
    if node is None:
        raise _Skip

    def go(x: tm.Node, position: str | None) -> tm.Node:
        if isinstance(x, tm.Name):
            if x.text in (f"{n}.val", f"{n}.1"):
                return tm.Name(n)
            if x.text == n and position == element:
                return x
            if x.text == n or x.text.startswith(n + "."):
                raise _Skip
            return x
        if isinstance(x, tm.Projection) and x.expr == tm.Name(n) and x.field in ("1", "val"):
            return tm.Name(n)
        if isinstance(x, tm.Ascription) and x.expr == tm.Name(n) and tm.canonical_node(x.type) == element:
            return tm.Name(n)
        if isinstance(x, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)) and x.binder.name == n:
            raise _Skip
        if isinstance(x, tm.App) and isinstance(x.fn, tm.Name) and x.fn.text in functions:
            domains = functions[x.fn.text]
            args = tuple(go(arg, tm.canonical_node(domains[i]) if i < len(domains) else None)
                         for i, arg in enumerate(x.args))
            return tm.App(x.fn, args)
        return _rebuild(x, lambda c: go(c, None))

    key = tm.canonical_node(go(node, None))
    return Atom(key, key_idents(key), a.open_right)


# ---------------------------------------------------------------------------------------------------------------
# 1. Bool terms in Prop position

# Heads whose application is surely a `Bool` (Lean core src/Init/Prelude.lean `Nat.beq`, `Nat.ble`, `and`, `or`,
# `not`, `decide : (p : Prop) → [Decidable p] → Bool`, `BEq.beq`; src/Init/Core.lean `def bne … : Bool := !(a == b)`)
# and the operators of type Bool (`a == b` is `BEq.beq`, `a != b` is `bne`, `&&` `||` `!` are `and` `or` `not`).
_BOOL_HEADS = frozenset({"decide", "Nat.beq", "Nat.ble", "and", "or", "not", "bne", "BEq.beq"})
_BOOL_OPS = frozenset({"==", "!=", "&&", "||"})


def _bool_props(decl: Declaration) -> Declaration:
    """Every Bool term in Prop position coerced (module docstring, 1.); the literals then folded."""
    bound = {n for b in decl.binders for n in b.names}
    if not bound.isdisjoint(_LOGICAL_FALSE) or "Bool" in bound:
        return decl
    types = {n: _text(b.type) for b in decl.binders if b.type is not None for n in b.names}
    binders = tuple(replace(b, type=_prop(b.type, types)) if b.type is not None and b.bracket != "[" else b
                    for b in decl.binders)
    return replace(decl, binders=binders, type=_prop(decl.type, types) if decl.type is not None else None)


def _is_bool(a: Atom, types: dict[str, str]) -> bool:
    node = _read_key(a.text)
    if node is None:
        return False
    if isinstance(node, tm.Binary) and node.op in _BOOL_OPS or isinstance(node, tm.Prefix) and node.op == "!":
        return True
    if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text in _BOOL_HEADS:
        return True
    return BinderTypes(types).type_of(node) == "Bool"


def _prop(t: Term, types: dict[str, str]) -> Term:
    """``t`` read at a Prop position: a Bool term ``b`` becomes ``b = true`` (``boolToProp``), the literals
    ``False``/``True``."""
    if isinstance(t, Atom):
        if t.text in _LOGICAL_FALSE:
            return Atom(_LOGICAL_FALSE[t.text], ())
        return Rel("=", t, Atom("true", ())) if _is_bool(t, types) else t
    if isinstance(t, Not):
        return Not(_prop(t.arg, types))
    if isinstance(t, BinOp):
        return replace(t, left=_prop(t.left, types), right=_prop(t.right, types))
    if isinstance(t, Quant):
        names = {n for b in t.binders for n in b.names}
        if not names.isdisjoint(_LOGICAL_FALSE):
            return t
        inner = {k: v for k, v in types.items() if k not in names}
        inner.update({n: _text(b.type) for b in t.binders if b.type is not None for n in b.names})
        return replace(t, body=_prop(t.body, inner))
    if isinstance(t, Let):
        return t if t.name in _LOGICAL_FALSE else replace(t, body=_prop(t.body, {k: v for k, v in types.items()
                                                                                   if k != t.name}))
    return t  # relations: `b = false` is an equation between Bools


# ---------------------------------------------------------------------------------------------------------------
# 3. Auto-bound implicits

# Lean's eligible names when not relaxed (src/Lean/Elab/AutoBound.lean `isValidAutoBoundSuffix`: one character, then
# digits, subscripts, `_` or `'`); of those only lowercase Latin ones, which no constant is spelled as (see 3.).
_AUTOBOUND_NAME = re.compile(r"^[a-z][0-9₀-₉ₐ-ₜ_']*$")
_AUTO_IMPLICIT_OFF = re.compile(r"set_option\s+autoImplicit\s+false")


def auto_implicit(context: str, preamble: str | None) -> bool:
    """Whether the file leaves ``autoImplicit`` on for the statement (its default, ``register_builtin_option
    autoImplicit … defValue := true``): off after ``set_option autoImplicit false`` in the context or the
    statement's ``… in`` preamble."""
    return not (_AUTO_IMPLICIT_OFF.search(context or "") or _AUTO_IMPLICIT_OFF.search(preamble or ""))


def _free_names(decl: Declaration) -> list[str]:
    """The names ``autoImplicit`` would bind: eligible, and bound nowhere in the statement."""
    declared = {n for b in decl.binders for n in b.names} | _quantified(decl)
    return list(dict.fromkeys(i for t in _terms(decl) for a in atoms(t) for i in a.idents
                              if _AUTOBOUND_NAME.match(i) and i not in declared))


def _unknown_names(decl: Declaration) -> Declaration:
    """With ``autoImplicit`` off, a free name the statement uses is an unknown identifier (the statement does not
    elaborate): every atom that mentions one is keyed so, never as the name another file auto-binds."""
    free = set(_free_names(decl))
    if not free:
        return decl

    def key(a: Atom) -> Atom:
        unknown = sorted(free & set(a.idents))
        return replace(a, text=f"«unknown {' '.join(unknown)}» ({a.text})") if unknown else a

    return _map_terms(decl, lambda t: _map_atoms(t, key))


def _autobound(decl: Declaration) -> Declaration:

    terms = _terms(decl)
    free = _free_names(decl)
    if not free:
        return decl
    types = {n: (b.type.text if isinstance(b.type, Atom) else render_term(b.type))
             for b in decl.binders if b.type is not None for n in b.names}
    added = []
    for name in free:
        found = set()
        for t in terms:
            for a in atoms(t):
                node = _read_key(a.text) if name in a.idents else None
                got = infer_binder_type(name, node, types) if node is not None else None
                if got is not None:
                    found.add(got)
        if len(found) != 1:
            return decl  # a name whose type no use fixes (or two uses disagree): leave the statement alone
        added.append(Binder("{", (name,), Atom(found.pop(), ())))
    return replace(decl, binders=(*added, *decl.binders))


# ---------------------------------------------------------------------------------------------------------------
# 2. Variables fixed by a hypothesis


def _eliminate_one(decl: Declaration) -> Declaration | None:
    binders = decl.binders
    for i, vb in enumerate(binders):
        if vb.bracket not in ("(", "{") or vb.default is not None or vb.type is None:
            continue
        # `(f g : T)` is `(f : T) (g : T)`: each name of a group may be fixed by its own hypothesis
        for pos, v in enumerate(vb.names):
            folded = _eliminate_variable(decl, i, pos, v)
            if folded is not None:
                return folded
    return None


def _eliminate_variable(decl: Declaration, i: int, pos: int, v: str) -> Declaration | None:
    binders = decl.binders
    vb = binders[i]
    earlier = {n for b in binders[:i] for n in b.names} | set(vb.names[:pos])
    later = {n for b in binders[i + 1:] for n in b.names} | set(vb.names[pos + 1:])
    for j in range(i + 1, len(binders)):
        hb = binders[j]
        if hb.bracket != "(" or hb.default is not None or len(hb.names) > 1 or hb.type is None:
            continue
        value = _defining_value(hb.type, v)
        if value is None:
            continue
        before = (*binders[:i], replace(vb, names=vb.names[:pos])) if pos else binders[:i]  # `(a b x : ℕ)`
        value = _typed_value(value, vb.type, before)
        if value is None:
            continue
        free = _idents(value)
        if v in free or free & (later | {v}) - earlier:
            continue
        if hb.names and any(hb.names[0] in _idents(t) for t in _terms(decl) if t is not hb.type):
            continue  # the hypothesis itself is used (a dependent binder): keep it
        out = []
        types = {n: b.type.text for b in binders if isinstance(b.type, Atom) and not b.is_instance
                 for n in b.names if n != v}
        try:
            for k, b in enumerate(binders):
                if k == i and len(vb.names) > 1:
                    out.append(replace(vb, names=tuple(n for n in vb.names if n != v)))
                elif k not in (i, j):
                    out.append(_subst_binder(b, v, value, free, types) if k > i else b)
            type_ = _subst(decl.type, v, value, free, types) if decl.type is not None else None
        except _Skip:
            continue
        return replace(decl, binders=tuple(out), type=type_)
    return None


# Constants whose type is fixed, so that substituting one for a variable of that type needs no ascription:
# Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean `protected noncomputable def Real.pi : ℝ`.
CONSTANT_TYPES = {"Real.pi": "ℝ"}


def _typed_value(value: Term, v_type: Term, earlier: tuple[Binder, ...]) -> Term | None:
    """The value to put in ``v``'s place so that it elaborates at ``v``'s type ``T``, as ``v`` did: bare when
    ``T`` is ``Prop``, or ``value`` is a variable declared with type ``T`` or a constant of type ``T``; otherwise
    ``(value : T)`` — ``x / 3`` with ``x : ℝ`` is real division, ``2 / 3`` alone would be ℕ's."""
    t_text = v_type.text if isinstance(v_type, Atom) else render_term(v_type)
    if t_text == "Prop":
        return value
    if not isinstance(value, Atom):
        return None
    declared = {n: (b.type.text if isinstance(b.type, Atom) else None) for b in earlier for n in b.names}
    if declared.get(value.text) == t_text or CONSTANT_TYPES.get(value.text) == t_text:
        return value
    node, ty = _read_key(value.text), _read_key(t_text)
    if node is None or ty is None:
        return None
    known = {n: b.type.text if isinstance(b.type, Atom) else render_term(b.type)
             for b in earlier if b.type is not None for n in b.names}  # arrows are BinOps here
    typing = BinderTypes(known)
    if typing.type_of(node) == type_text(ty) and stands_alone(node, typing):
        return value  # `S E` with `S : X → Set (ℝ × ℝ)` is a `Set (ℝ × ℝ)` already (binder_types.type_of); a
        # compound `m - 1` keeps `(m - 1 : ℕ)`: substituted bare under `(n : ℝ)` it would subtract in ℝ
    if _closed_lambda(node, {n for b in earlier for n in b.names}) and _unified_alone(node, ty):
        node = _domains_given(node, ty)  # a body over the statement's names, or one that fixes x's type, stays
    if not _binders_fit(node, ty):
        return None  # `{x | p}` in `v = {x | p}`: whether `p` or `v`'s type fixes x's type is the elaborator's call
    if _reached(node, ty, typing):
        return None  # `(S : ℝ) (h : S = ∑ i ∈ s, (i - 1))`: the sum is ℕ's, cast; `(∑ … : ℝ)` would be ℝ's
    key = tm.canonical_node(recheck_casts(tm.Ascription(node, ty), known))  # `((3 : ℕ) - 5 : ℕ)` is `(3 - 5 : ℕ)`
    return Atom(key, key_idents(key))


def _reached(node: tm.Node, ty: tm.Node, typing: BinderTypes) -> bool:
    """Whether ascribing the value with ``v``'s type changes how it elaborates (``casts.expected_type_reaches``);
    a ``fun (x : A) => e`` value (a pointwise definition ``∀ x, f x = e``) is judged by its body at the codomain."""
    while isinstance(node, tm.Lambda) and isinstance(ty, tm.Binary) and ty.op == "→":
        b = node.binder
        types = {k: v for k, v in typing.types.items() if k != b.name}
        if b.type is not None:
            types[b.name] = tm.render(b.type)
        node, ty, typing = node.body, ty.right, BinderTypes(types)
    if ty == tm.Name("Prop"):
        return False  # a predicate's body is put in unascribed (`substitution.beta`): a proposition as written
    return expected_type_reaches(node, type_text(ty), typing)


def _domains_given(node: tm.Node, ty: tm.Node) -> tm.Node:
    """``fun x => e`` at ``A → B`` as ``fun (x : A) => e``: beside ``v : A → B`` (``v = fun x => e``) Lean gives an
    untyped binder ``v``'s domain (the kernel-tier Lean, in the signature environment: ``f = fun x ↦ x + 1`` and
    ``f = fun (x : ℝ) => x + 1`` with ``f : ℝ → ℝ`` are one proposition; ``tests/test_skeleton_definitions.py``).
    Other values as they are."""
    if not (isinstance(node, tm.Lambda) and isinstance(ty, tm.Binary) and ty.op == "→"):
        return node
    b = node.binder
    if b.bound is not None:
        return node
    binder = b if b.type is not None else tm.Binder(b.name, ty.left, None, b.bracket)
    return replace(node, binder=binder, body=_domains_given(node.body, ty.right))


_ARITH_OPS = frozenset({"+", "-", "*", "/", "%", "^"})
_PROP_OPS = frozenset({"<", "≤", ">", "≥", "=", "≠", "∧", "∨", "↔", "→"})


def _unified_alone(node: tm.Node, ty: tm.Node) -> bool:
    """Whether ``fun x => e``, elaborated alone as Lean does beside ``v = ·`` (``binrel%`` elaborates its leaves
    without the expected type), gets its binder types from ``v``'s type by unification — so that writing the domains
    changes nothing. Lean fixes ``x``'s type from ``e`` first wherever ``e`` uses ``x`` at a known type
    (``Real.sqrt x``, ``(x : ℝ)``), and no coercion is inserted between ``x`` and the body: with ``f : ℕ → ℝ``,
    ``f = fun x => x - 1`` does not elaborate (``HSub ℕ ℕ ℝ``; checked in the kernel-tier Lean, red team 4). So: one
    domain ``A`` for every binder, a body of only the binders and numerals under arithmetic, relations and
    connectives, and a codomain ``A`` (an arithmetic body) or ``Prop`` (a relation)."""
    domains, bound = [], set()
    while isinstance(node, tm.Lambda) and isinstance(ty, tm.Binary) and ty.op == "→":
        domains.append(tm.canonical_node(ty.left))
        bound.add(node.binder.name)
        node, ty = node.body, ty.right
    if isinstance(node, tm.Lambda) or len(set(domains)) != 1:
        return False

    def plain(n: tm.Node) -> bool:
        if isinstance(n, tm.Name):
            return n.text in bound or n.text.isdigit()
        if isinstance(n, tm.Binary) and n.op in _ARITH_OPS | _PROP_OPS:
            return plain(n.left) and plain(n.right)
        return isinstance(n, tm.Prefix) and n.op in ("-", "¬") and plain(n.arg)

    if not plain(node):
        return False
    is_prop = isinstance(node, tm.Binary) and node.op in _PROP_OPS or isinstance(node, tm.Prefix) and node.op == "¬"
    return ty == tm.Name("Prop") if is_prop else tm.canonical_node(ty) == domains[0]


def _closed_lambda(node: tm.Node, variables: set[str]) -> bool:
    """Whether ``node`` is a ``fun`` whose body mentions none of the statement's ``variables`` (only its own
    binders, constants and numerals): ``fun x => 2 * x + 3``, not ``fun y => x ^ 2`` with ``x`` a variable
    (precision corpus ``alpha_rename/04``)."""
    bound: set[str] = set()
    while isinstance(node, tm.Lambda):
        bound.add(node.binder.name)
        node = node.body
    return bool(bound) and not ({n.split(".", 1)[0] for n in free_names(node)} - bound) & variables


def _binders_fit(node: tm.Node, ty: tm.Node) -> bool:
    """Whether a ``fun``/set-builder value binds each variable with a written type, the one ``ty`` gives it
    (``fun (x : A) => e`` at ``A → B``, ``{x : A | p}`` at ``Set A``); any other value: True."""
    if isinstance(node, tm.SetBuilder):
        b = node.binder
        return (b.bound is None and b.type is not None and isinstance(ty, tm.App) and ty.fn == tm.Name("Set")
                and len(ty.args) == 1 and tm.canonical_node(b.type) == tm.canonical_node(ty.args[0]))
    while isinstance(node, tm.Lambda):
        b = node.binder
        if b.bound is not None or b.type is None or not (isinstance(ty, tm.Binary) and ty.op == "→"):
            return False
        if tm.canonical_node(b.type) != tm.canonical_node(ty.left):
            return False
        node, ty = node.body, ty.right
    return True


def _defining_value(t: Term, v: str) -> Term | None:
    """``e`` when ``t`` is ``v = e``, ``e = v``, ``v ↔ e`` or ``e ↔ v``."""
    if isinstance(t, Rel) and t.op == "=" or isinstance(t, BinOp) and t.op == IFF:
        left, right = t.left, t.right
        if isinstance(left, Atom) and left.text == v:
            return right
        if isinstance(right, Atom) and right.text == v:
            return left
    return None


def _pointwise_as_definitions(decl: Declaration) -> Declaration:
    """Each pointwise hypothesis ``(h : ∀ x, P x ↔ Q)`` as the definition ``(h : P = fun x => Q)`` it states
    (module docstring, 5.), as written text, before atoms are read — so the value is read exactly as a written
    ``P = fun x => Q`` is, binder types inferred alike — and then eliminated as in 2."""
    binders = list(decl.binders)
    for j, hb in enumerate(binders):
        if hb.bracket != "(" or hb.default is not None or len(hb.names) != 1 or hb.type is None:
            continue
        for vb in binders[:j]:
            if vb.bracket not in ("(", "{") or vb.type is None or vb.default is not None:
                continue
            found = next(((v, value) for v in vb.names
                          if (value := _pointwise_value(hb.type, v, vb.type)) is not None), None)
            if found is not None:
                binders[j] = replace(hb, type=Rel("=", Atom(found[0], (found[0],)), found[1]))
                break
    return replace(decl, binders=tuple(binders))


def _pointwise_value(t: Term, v: str, v_type: Term) -> Term | None:
    """The function (or set) a pointwise hypothesis defines ``v`` to be (module docstring, 5.): ``fun x₁ … xₖ => Q``
    for ``∀ x₁ … xₖ, v x₁ … xₖ ↔ Q`` (``v : A₁ → … → Aₖ → Prop``) or ``∀ x₁ … xₖ, v x₁ … xₖ = e`` (``v : A₁ → … →
    Aₖ → B``); ``{x | Q}`` for ``∀ x, x ∈ v ↔ Q`` (``v : Set A``). The arguments must be exactly the ∀'s distinct
    variables in order, each written untyped or with its domain's type; otherwise None."""
    names, domains, body = [], [], t
    while isinstance(body, Quant) and body.kind == "∀":
        for b in body.binders:
            if b.bound is not None or not b.names or b.bracket not in ("", "("):
                return None
            for n in b.names:
                names.append(n)
                domains.append(b.type)
        body = body.body
    if not names or len(set(names)) != len(names) or "_" in names or v in names:
        return None
    ty = _read_key(_text(v_type))
    if ty is None:
        return None
    if isinstance(body, BinOp) and body.op == IFF:
        sides = [(body.left, body.right), (body.right, body.left)]
    elif isinstance(body, Rel) and body.op == "=":
        sides = [(body.left, body.right), (body.right, body.left)]
    else:
        return None
    for head, other in sides:
        if isinstance(head, Rel) and head.op == "∈" and isinstance(body, BinOp) and len(names) == 1:
            # ∀ x, x ∈ S ↔ Q  with  S : Set A  (Mathlib Set.ext, Mathlib/Data/Set/Defs.lean; `x ∈ {x | p x}` is
            # `p x` by rfl there: `Set.mem_setOf_eq`)
            if not (_is_name(head.left, names[0]) and _is_name(head.right, v)):
                continue
            if not (isinstance(ty, tm.App) and ty.fn == tm.Name("Set") and len(ty.args) == 1):
                return None
            if not _domains_fit(domains, [ty.args[0]]):
                return None
            element = tm.render(ty.args[0])
            return _written_atom(f"{{{names[0]} : {element} | {render_term(other)}}}", other, False)
        if not isinstance(head, Atom):
            continue
        node = _read_key(head.text)
        if not (isinstance(node, tm.App) and node.fn == tm.Name(v)
                and list(node.args) == [tm.Name(n) for n in names]):
            continue
        arrows = []
        result = ty
        for _ in names:
            if not (isinstance(result, tm.Binary) and result.op == "→"):
                return None
            arrows.append(result.left)
            result = result.right
        if isinstance(body, BinOp) and result != tm.Name("Prop"):
            return None  # `↔` defines a predicate; `=` a function, or a predicate (`eq_iff_iff`, as atoms.py reads it)
        if not _domains_fit(domains, arrows):
            return None
        typed = " ".join(f"({n} : {tm.render(d)})" for n, d in zip(names, arrows))
        return _written_atom(f"fun {typed} => {render_term(other)}", other, True)
    return None


def _domains_fit(written: list[Term | None], domains: list[tm.Node]) -> bool:
    """Each ∀ binder untyped (its type is the domain, by unification) or typed with exactly its domain."""
    for w, d in zip(written, domains):
        if w is not None and tm.canonical(_text(w)) != tm.canonical_node(d):
            return False
    return True


def _is_name(t: Term, name: str) -> bool:
    return isinstance(t, Atom) and t.text == name


def _text(t: Term) -> str:
    return t.text if isinstance(t, Atom) else render_term(t)


def _written_atom(text: str, body: Term, open_right: bool) -> Atom:
    """The value as Lean text (read as terms, like every atom, by ``canonical_atoms`` after this pass)."""
    return Atom(text, tuple(dict.fromkeys(i for a in atoms(body) for i in a.idents)), open_right)
