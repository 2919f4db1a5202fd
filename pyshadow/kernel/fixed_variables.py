"""A variable fixed by a hypothesis (``definitions.py``, 2.). A top-level binder ``(v : T)`` with a later top-level
hypothesis ``(h : v = e)`` or ``(h : e = v)`` (``v ↔ e`` for ``v : Prop``; atoms.py already reads a Prop equation as
↔), where ``e`` does not mention ``v`` and mentions only binders bound before ``v``: ``∀ v, … → v = e → P v`` is
``… → P e``. ``schemas.SUBST_SCHEMA`` states both directions for an arbitrary ``P`` (``Eq.rec``; the ↔ form with
``propext``, Lean core src/Init/Core.lean, which is no classical axiom) and tests/test_skeleton_definitions.py has
Lean check it. The instance here is that schema with ``P := fun v => <rest of the statement>``: ``v`` is replaced by
``e`` in the tree and inside atoms (as term trees, so precedence and binders are respected); the rewrite is skipped
whenever it could capture a name, ``h`` is mentioned elsewhere, or an atom mentioning ``v`` does not read. The
value is put in ascribed with ``v``'s type where it would otherwise elaborate differently (``_typed_value``).
"""

from __future__ import annotations

from dataclasses import replace

from ..syntax import terms as tm
from ..syntax.ast import IFF, Atom, Binder, BinOp, Declaration, Rel, Term
from ..syntax.render import render_term
from .atoms import recheck_casts
from .binder_types import BinderTypes, type_text
from .casts import expected_type_reaches, stands_alone
from .keys import key_idents
from .substitution import (Skip as _Skip, free_names, idents as _idents, read_key as _read_key,
                           subst as _subst, subst_binder as _subst_binder, terms as _terms)


def eliminate_one(decl: Declaration) -> Declaration | None:
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
