"""Two readings of a statement that Lean makes equal by a proof term, applied to normalised declarations
(``normalize_declaration`` below: ``atoms.canonical_atoms`` first, then ``fold_definitions``, on both sides of every
comparison).

1. **Bool literals in Prop position.** ``false``/``true`` written where a proposition is expected (a conclusion,
   a hypothesis, an operand of ∧ ∨ → ↔ ¬) is coerced by Lean core's ``instance boolToProp : Coe Bool Prop where
   coe b := Eq b true`` (src/Init/Coe.lean), i.e. ``false = true``; ``(false = true) ↔ False`` and
   ``(true = true) ↔ True`` are proved by ``BOOL_PROP_SCHEMA`` (``Bool.rec``, no axiom), which
   tests/test_skeleton_pairs.py has the kernel-tier Lean check. So the literal is read as ``False``/``True``.
   Only outside relations (``b = false`` is Bool equality and stays) and never for a name bound in scope.

2. **A variable fixed by a hypothesis.** A top-level binder ``(v : T)`` with a later top-level hypothesis
   ``(h : v = e)`` or ``(h : e = v)`` (``v ↔ e`` for ``v : Prop``; atoms.py already reads a Prop equation as ↔),
   where ``e`` does not mention ``v`` and mentions only binders bound before ``v``: ``∀ v, … → v = e → P v`` is
   ``… → P e``. ``SUBST_SCHEMA`` states both directions for an arbitrary ``P`` (``Eq.rec``; the ↔ form with
   ``propext``, Lean core src/Init/Core.lean, which is no classical axiom) and the same test has Lean check it.
   The instance here is that schema with ``P := fun v => <rest of the statement>``: ``v`` is replaced by ``e`` in
   the tree and inside atoms (as term trees, so precedence and binders are respected); the rewrite is skipped
   whenever it could capture a name, ``h`` is mentioned elsewhere, or an atom mentioning ``v`` does not read.

3. **Auto-bound implicits.** Lean's ``autoImplicit`` (on by default, src/Lean/Elab/AutoBound.lean; neither miniF2F
   port turns it off, see the pairs README) binds an identifier the signature uses but never declares as an
   implicit ``{x : ?}`` in front of the binders, its type found by unification. Read here only for a lowercase
   one-letter name (``x``, ``n₁``, ``y'``: no Mathlib constant is spelled so, at the root or in the namespaces the
   alias table knows) whose type a use fixes (``f x`` with ``f : ℤ → ℤ``, ``atoms.infer_binder_type``); anything
   else is left alone. ``∀ {x : T}`` and ``∀ (x : T)`` state the same proposition.

4. **A data declaration means its type is inhabited.** ``def``/``abbrev``/``instance``/``opaque X (b…) : T``
   (PutnamBench's ``determine`` is an ``abbrev``) is discharged by giving a term of ``T`` for every argument; as a
   proposition that is ``∀ b…, Nonempty T`` (Lean core src/Init/Prelude.lean: ``class inductive Nonempty (α :
   Sort u) : Prop | intro (val : α)``). So ProofNet's Lean 4 port ``instance … : G ≃* H`` reads as ProofNet#'s
   ``theorem … : Nonempty (G ≃* H)``. The reading is right whatever ``T`` is: for a proposition ``T``,
   ``Nonempty T ↔ T`` (Lean core src/Init/PropLemmas.lean ``nonempty_prop``, by ``⟨fun ⟨h⟩ => h, fun h => ⟨h⟩⟩``,
   no axiom), so a data declaration whose type is syntactically a proposition (a relation, ∧ ∨ ↔ ¬ ∃, a ∀ with a
   logical body) keeps it unwrapped. From the declaration to the reading is ``fun b… => Nonempty.intro (X b…)``
   (no axiom: the full tier prints the candidate's applications so, ``pyshadow.score.skeleton_terms``); back, a
   data declaration is built from ``∀ b…, Nonempty T`` by ``fun b… => Classical.choice (h b…)`` (Prelude
   ``axiom Classical.choice``) — noncomputable, as the ProofNet files' ``noncomputable section`` is; that direction
   is the reading's, and no kernel-tier proof term uses it (the full tier's backward goal for a data candidate is
   the type ``type_of% @X``, which no ``theorem`` can state: it gets no skeleton alternative, see
   ``skeleton_terms.concrete_terms``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from ..syntax import terms as tm
from ..syntax import lexer as lx
from ..syntax.ast import IFF, Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term, atoms, is_proposition
from ..syntax.render import render_term
from .atoms import canonical_atoms, infer_binder_type, key_idents

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

_LOGICAL_FALSE = {"false": "False", "true": "True"}


@functools.lru_cache(maxsize=4096)  # the search, its alias pass and the undecided re-check read the same pair
def normalize_declaration(decl: Declaration, context: str = "") -> Declaration:
    """How the skeleton reads a statement: canonical atoms under its own ``open`` s (``atoms.canonical_atoms``),
    then the Lean-checked folds of this module; a data declaration is read as the proposition it stands for first
    (``data_as_proposition``)."""
    return fold_definitions(canonical_atoms(data_as_proposition(decl), context))


# ---------------------------------------------------------------------------------------------------------------
# 4. Data declarations

# Declarations whose body is a term of their type (data), not a proof: `determine` is PutnamBench's `abbrev`
# (``lexer.DIALECT_DECLARATIONS``).
DATA_KEYWORDS = frozenset({"def", "abbrev", "instance", "opaque"} |
                          {k for k, core in lx.DIALECT_DECLARATIONS.items() if core == "abbrev"})


def is_data_declaration(decl: Declaration) -> bool:
    """Whether ``decl`` is read as ``Nonempty`` of its type (module docstring, 4.): a data keyword and a type that is
    not syntactically a proposition."""
    t = decl.type
    if decl.keyword not in DATA_KEYWORDS or t is None or is_proposition(Binder("(", ("x",), t)):
        return False
    # `Nonempty T` is itself a proposition: `Nonempty (Nonempty T) ↔ Nonempty T` (`nonempty_prop`), keep it.
    node = tm.read_term(t.text) if isinstance(t, Atom) else None
    return not (isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text == "Nonempty")


def data_as_proposition(decl: Declaration) -> Declaration:
    """``def X (b…) : T`` as ``theorem X (b…) : Nonempty (T)`` (module docstring, 4.); any other declaration as it
    is (its keyword, too: a data declaration of a proposition means that proposition)."""
    if not is_data_declaration(decl):
        return replace(decl, keyword="theorem") if decl.keyword in DATA_KEYWORDS else decl
    assert decl.type is not None
    text = f"Nonempty ({decl.type.text if isinstance(decl.type, Atom) else render_term(decl.type)})"
    idents = tuple(dict.fromkeys(["Nonempty", *(i for a in atoms(decl.type) for i in a.idents)]))
    return replace(decl, keyword="theorem", type=Atom(text, idents))


def fold_definitions(decl: Declaration) -> Declaration:
    """``decl`` with Bool literals in Prop position read as ``False``/``True`` and variables fixed by a defining
    hypothesis substituted away (module docstring)."""
    decl = _bool_props(_autobound(decl))
    while True:
        folded = _eliminate_one(decl)
        if folded is None:
            return decl
        decl = folded


# ---------------------------------------------------------------------------------------------------------------
# 1. Bool literals


def _bool_props(decl: Declaration) -> Declaration:
    bound = {n for b in decl.binders for n in b.names}
    if not bound.isdisjoint(_LOGICAL_FALSE):
        return decl
    binders = tuple(replace(b, type=_prop(b.type, bound)) if b.type is not None and b.bracket != "[" else b
                    for b in decl.binders)
    return replace(decl, binders=binders, type=_prop(decl.type, bound) if decl.type is not None else None)


def _prop(t: Term, bound: set[str]) -> Term:
    """``t`` read at a Prop position: Bool literal leaves become ``False``/``True``."""
    if isinstance(t, Atom):
        return Atom(_LOGICAL_FALSE[t.text], ()) if t.text in _LOGICAL_FALSE else t
    if isinstance(t, Not):
        return Not(_prop(t.arg, bound))
    if isinstance(t, BinOp):
        return replace(t, left=_prop(t.left, bound), right=_prop(t.right, bound))
    if isinstance(t, Quant):
        names = {n for b in t.binders for n in b.names}
        if not names.isdisjoint(_LOGICAL_FALSE):
            return t
        return replace(t, body=_prop(t.body, bound))
    if isinstance(t, Let):
        return t if t.name in _LOGICAL_FALSE else replace(t, body=_prop(t.body, bound))
    return t  # relations: `b = false` is an equation between Bools


# ---------------------------------------------------------------------------------------------------------------
# 3. Auto-bound implicits

_AUTOBOUND_NAME = re.compile(r"^[a-z][₀-₉']*$")


def _autobound(decl: Declaration) -> Declaration:

    declared = {n for b in decl.binders for n in b.names} | _quantified(decl)
    terms = _terms(decl)
    free = [i for t in terms for a in atoms(t) for i in a.idents if _AUTOBOUND_NAME.match(i) and i not in declared]
    if not free:
        return decl
    types = {n: (b.type.text if isinstance(b.type, Atom) else render_term(b.type))
             for b in decl.binders if b.type is not None for n in b.names}
    added = []
    for name in dict.fromkeys(free):
        found = set()
        for t in terms:
            for a in atoms(t):
                node = tm.read_term(a.text) if name in a.idents else None
                got = infer_binder_type(name, node, types) if node is not None else None
                if got is not None:
                    found.add(got)
        if len(found) != 1:
            return decl  # a name whose type no use fixes (or two uses disagree): leave the statement alone
        added.append(Binder("{", (name,), Atom(found.pop(), ())))
    return replace(decl, binders=(*added, *decl.binders))


def _quantified(decl: Declaration) -> set[str]:
    out: set[str] = set()
    stack = list(_terms(decl))
    while stack:
        t = stack.pop()
        if isinstance(t, Quant):
            out.update(n for b in t.binders for n in b.names)
            stack.extend(b.type for b in t.binders if b.type is not None)
            stack.append(t.body)
        elif isinstance(t, Not):
            stack.append(t.arg)
        elif isinstance(t, (BinOp, Rel)):
            stack.extend((t.left, t.right))
        elif isinstance(t, Let):
            out.add(t.name)
            stack.append(t.body)
    return out


# ---------------------------------------------------------------------------------------------------------------
# 2. Variables fixed by a hypothesis


def _eliminate_one(decl: Declaration) -> Declaration | None:
    binders = decl.binders
    for i, vb in enumerate(binders):
        if vb.bracket not in ("(", "{") or vb.default is not None or vb.type is None or len(vb.names) != 1:
            continue
        v = vb.names[0]
        earlier = {n for b in binders[:i] for n in b.names}
        later = {n for b in binders[i + 1:] for n in b.names}
        for j in range(i + 1, len(binders)):
            hb = binders[j]
            if hb.bracket != "(" or hb.default is not None or len(hb.names) > 1 or hb.type is None:
                continue
            value = _defining_value(hb.type, v)
            if value is None:
                continue
            value = _typed_value(value, vb.type, binders[:i])
            if value is None:
                continue
            free = _idents(value)
            if v in free or free & (later | {v}) - earlier:
                continue
            if hb.names and any(hb.names[0] in _idents(t) for t in _terms(decl) if t is not hb.type):
                continue  # the hypothesis itself is used (a dependent binder): keep it
            out = []
            try:
                for k, b in enumerate(binders):
                    if k in (i, j):
                        continue
                    out.append(_subst_binder(b, v, value, free) if k > i else b)
                type_ = _subst(decl.type, v, value, free) if decl.type is not None else None
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
    node, ty = tm.read_term(value.text), tm.read_term(t_text)
    if node is None or ty is None:
        return None

    key = tm.canonical_node(tm.Ascription(node, ty))
    return Atom(key, key_idents(key))


def _defining_value(t: Term, v: str) -> Term | None:
    """``e`` when ``t`` is ``v = e``, ``e = v``, ``v ↔ e`` or ``e ↔ v``."""
    if isinstance(t, Rel) and t.op == "=" or isinstance(t, BinOp) and t.op == IFF:
        left, right = t.left, t.right
        if isinstance(left, Atom) and left.text == v:
            return right
        if isinstance(right, Atom) and right.text == v:
            return left
    return None


class _Skip(Exception):
    """The substitution could capture a name or meets an atom it cannot read: leave the declaration as it is."""


def _terms(decl: Declaration) -> list[Term]:
    out = [b.type for b in decl.binders if b.type is not None]
    out += [b.bound[1] for b in decl.binders if b.bound is not None]
    return out + ([decl.type] if decl.type is not None else [])


def _idents(t: Term) -> set[str]:
    return {i for a in atoms(t) for i in a.idents}


def _subst_binder(b: Binder, v: str, value: Term, free: set[str]) -> Binder:
    t = _subst(b.type, v, value, free) if b.type is not None else None
    bound = (b.bound[0], _subst(b.bound[1], v, value, free)) if b.bound is not None else None
    return replace(b, type=t, bound=bound)


def _subst(t: Term, v: str, value: Term, free: set[str]) -> Term:
    if isinstance(t, Atom):
        if v not in t.idents:
            return t
        if t.text == v:
            return value
        return _subst_atom(t, v, value)
    if isinstance(t, Not):
        return Not(_subst(t.arg, v, value, free))
    if isinstance(t, (BinOp, Rel)):
        return replace(t, left=_subst(t.left, v, value, free), right=_subst(t.right, v, value, free))
    if isinstance(t, Quant):
        names = {n for b in t.binders for n in b.names}
        if v not in _idents(t):
            return t
        if names & (free | {v}):
            raise _Skip  # a binder would capture the value's names (or shadows v: keep it simple, skip)
        return Quant(t.kind, tuple(_subst_binder(b, v, value, free) for b in t.binders),
                     _subst(t.body, v, value, free))
    if isinstance(t, Let):
        if v not in _idents(t):
            return t
        raise _Skip
    return t


def _subst_atom(a: Atom, v: str, value: Term) -> Atom:

    node = tm.read_term(a.text)
    replacement = tm.read_term(value.text if isinstance(value, Atom) else render_term(value))
    if node is None or replacement is None:
        raise _Skip
    free_in_value = _node_names(replacement)
    new = _subst_node(node, v, replacement, free_in_value)
    key = tm.canonical_node(new)
    return Atom(key, key_idents(key), a.open_right)


def _node_names(node: tm.Node) -> set[str]:
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tm.Name):
            out.add(n.text.split(".", 1)[0])
        stack.extend(tm._children(n))
    return out


def _subst_node(node: tm.Node, v: str, value: tm.Node, free: set[str]) -> tm.Node:
    if isinstance(node, tm.Name):
        if node.text == v:
            return value
        if node.text.startswith(v + "."):
            raise _Skip  # `v.f` is field notation on v: its resolution depends on v's type
        return node
    if isinstance(node, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)):
        b = node.binder
        if b.name == v or b.name in free:
            raise _Skip
    if isinstance(node, tm.IfThenElse) and node.hyp in free | {v}:
        raise _Skip
    return _rebuild(node, lambda c: _subst_node(c, v, value, free))


def _rebuild(node: tm.Node, f) -> tm.Node:
    """``node`` with ``f`` applied to each child (``terms.map_children``)."""
    if isinstance(node, tm.Opaque):
        raise _Skip  # unread token run: cannot tell where v occurs in it
    return tm.map_children(node, f)
