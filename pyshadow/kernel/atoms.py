"""Atoms compared as terms: a declaration's opaque atoms rewritten to their canonical keys, names resolved as Lean
resolves them.

The kernel tier abstracts every atom into an opaque constant keyed by its text, so two statements share a constant
exactly when their atoms have the same key. ``canonical_atoms`` rewrites every atom of a declaration (binder
types, binder bounds, quantifier binders, ``let`` values, the conclusion) to the canonical print of its term tree
(``pyshadow.syntax.terms``): spacing, redundant parentheses, ASCII/Unicode spellings and bound-variable names no
longer matter, and parentheses Lean needs still do.

Names are resolved first (``resolver.py``: notations, short names under opens, dot notation; the table there says
which spellings are one constant, each with its source), then the tree is printed as its key (``keys.py``).

Untyped binders (``∃ a b, P m = a * b``, ``{n | Nat.gcd n 7 = 1}``, ``(x) (h : x ∈ l)``, ``fun n => √n`` under
``Tendsto``) get the type the first use that fixes it gives — ``binder_order.py`` says which uses count and in which
order; casts Lean inserts anyway are dropped (``casts.py``: only at leaves); a header binder of type
ℕ/ℤ/ℚ/ℝ/ℂ or a universe that nothing mentions is dropped (``∀ n : ℕ, P`` is ``P``: the type is inhabited;
``header_binders.py``, which also keeps apart the universe levels several binders share).

One logical reading is folded the same way: an equation whose side is syntactically a proposition
(``p x = ∃ n, …``) is ``↔`` (Lean core ``eq_iff_iff``, by ``propext``). This step is not re-checked by the kernel
tier (its abstraction has no ``Prop``-valued equality to state it on).

``definitions.py`` then folds two readings backed by Lean-checked schemas: ``false``/``true`` in Prop position as
``False``/``True``, and a variable fixed by a hypothesis ``(v : T) (h : v = e)`` substituted by ``e``.

Nothing merely provably equal is folded (``Complex.abs z`` and ``‖z‖`` stay apart, so do ``x⁻¹`` and ``1 / x``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..syntax import terms as tm
from ..syntax.render import render_term
from ..syntax.ast import IFF, Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term
from . import binder_order
from .binder_types import BinderTypes
from .dot_notation import type_namespace
from .header_binders import drop_unused_inhabited, shared_universes
from .keys import key_idents, term_key
from .notations import BINREL
from .opens import in_namespace, opened_namespaces
from .resolver import Resolver


@dataclass(frozen=True)
class _Scope:
    opens: frozenset[str]
    variables: dict[str, str]  # name → namespace of its type ("" unknown)
    types: dict[str, str]  # name → canonical type text

    def bind(self, names, type_text: str | None) -> "_Scope":
        variables, types = dict(self.variables), dict(self.types)
        for n in names:
            variables[n] = type_namespace(type_text) if type_text else ""
            if type_text:
                types[n] = type_text
            else:
                types.pop(n, None)
        return _Scope(self.opens, variables, types)


def canonical_atoms(decl: Declaration, context: str = "") -> Declaration:
    """``decl`` with every atom's text replaced by its canonical key (see the module docstring), and untyped
    quantifier binders typed where a use fixes their type (``∀ x, f x = 1`` with ``f : ℝ → ℝ``). The skeleton
    reads statements through ``definitions.normalize_declaration``, which folds definitions after this step."""
    # `theorem Real.t` is elaborated inside `namespace Real` (src/Lean/Elab/Declaration.lean): its names resolve there
    # (inside `namespace Foo` it is Foo.Real.t, in namespace Foo.Real: not read)
    parts = decl.name.split(".") if decl.name and "«" not in decl.name and not in_namespace(context) else []
    named = frozenset(".".join(parts[:k]) for k in range(1, len(parts)))
    scope = _Scope(opened_namespaces(context, decl.preamble) | named, {}, {})
    binders = []
    header = decl.binders
    for i, b in enumerate(header):
        nb = _binder(b, scope)
        if nb.type is None and b.names and b.bound is None and b.bracket in ("(", "{", "⦃"):
            # `theorem t (l : List ℕ) (x) (h : x ∈ l)`: the header binder's type is fixed by later uses, as a ∀'s
            inferred = binder_order.infer_in_header(b.names, header[i + 1:], decl.type, scope.types,
                                                    _resolver(scope).resolve)
            if inferred is not None:
                nb = replace(nb, type=Atom(inferred, key_idents(inferred)))
        binders.append(nb)
        scope = scope.bind(b.names, _type_text(nb.type))
    type_ = _term(decl.type, scope) if decl.type is not None else None
    return shared_universes(replace(decl, binders=drop_unused_inhabited(tuple(binders), type_), type=type_))


def _atom(a: Atom, scope: _Scope) -> Atom:
    key = term_key(a.text, scope.opens, scope.variables, scope.types)
    if key == a.text:
        return a
    return Atom(key, key_idents(key), a.open_right)


def _binder(b: Binder, scope: _Scope) -> Binder:
    if b.is_instance and b.type is not None and not isinstance(b.type, Atom):
        # An instance binder's type is one class term (`[∀ i, TopologicalSpace (X i)]`, `[Π i, …]`): keyed whole,
        # so its spellings meet whatever structure the statement reader gave it.
        b = replace(b, type=Atom(render_term(b.type), ()))
    t = _term(b.type, scope) if b.type is not None else None
    bound = (b.bound[0], _term(b.bound[1], scope)) if b.bound is not None else None
    return replace(b, type=t, bound=bound)


def _term(t: Term, scope: _Scope) -> Term:
    if isinstance(t, Atom):
        return _atom(t, scope)
    if isinstance(t, Not):
        return Not(_term(t.arg, scope))
    if isinstance(t, Rel) and t.op == "=" and any(_logical(x) or _prop_valued(x, scope) for x in (t.left, t.right)):
        # An equation between propositions is read as `↔`: Lean core's `eq_iff_iff {p q : Prop} : (p = q) ↔
        # (p ↔ q)` (src/Init/Core.lean, by `propext`, which is no classical axiom). Only where one side is
        # syntactically a proposition, so the equation is surely one between Props.
        return BinOp(IFF, _term(t.left, scope), _term(t.right, scope))
    if isinstance(t, Rel) and t.op in ("=", "≠") and isinstance(t.left, Atom) and isinstance(t.right, Atom):
        t = replace(t, left=_typed_side(t.left, t.right, scope), right=_typed_side(t.right, t.left, scope))
    if isinstance(t, Rel) and t.op in (*BINREL, "∈") and isinstance(t.left, Atom) and isinstance(t.right, Atom):
        t = _plain_sides(t, scope)
    if isinstance(t, (BinOp, Rel)):
        return replace(t, left=_term(t.left, scope), right=_term(t.right, scope))
    if isinstance(t, Quant):
        binders = []
        inner = scope
        for b in t.binders:
            nb = _binder(b, inner)
            if nb.type is None and b.names and b.bound is None:
                inferred = binder_order.infer_in_term(b.names, t.body, inner.types, _resolver(inner).resolve)
                if inferred is not None:
                    nb = replace(nb, type=Atom(inferred, key_idents(inferred)))
            elif nb.type is None and b.names and b.bound is not None:
                # `∀ x ∈ l,`: x's type is l's element type; `∀ ε > 0,`: read off the bound and the body
                inferred = _bound_element_type(b.bound[1], inner) if b.bound[0] == "∈" else \
                    binder_order.infer_in_term(b.names, t.body, inner.types, _resolver(inner).resolve,
                                               binder_order.bound_pieces(b))
                if inferred is not None:
                    nb = replace(nb, type=Atom(inferred, key_idents(inferred)))
            binders.append(nb)
            inner = inner.bind(b.names, _type_text(nb.type))
        return Quant(t.kind, tuple(binders), _term(t.body, inner))
    if isinstance(t, Let):
        inner = scope.bind((t.name,), None) if t.name else scope
        return replace(t, value=_atom(t.value, scope),
                       type=_term(t.type, scope) if t.type is not None else None,
                       body=_term(t.body, inner))
    return t


def _typed_side(side: Atom, other: Atom, scope: _Scope) -> Atom:
    """``{p | q}`` as ``{p : T | q}`` when the equation's other side is a ``Set T`` (``Resolver._typed_set_builder``;
    the two sides are separate atoms here, one ``binrel%`` tree in Lean)."""
    node, other_node = tm.read_term(side.text), tm.read_term(other.text)
    if not isinstance(node, tm.SetBuilder) or other_node is None:
        return side
    typed = _resolver(scope)._typed_set_builder(node, other_node)
    if typed is node:
        return side
    text = tm.render(typed)
    return Atom(text, key_idents(text), side.open_right)


def _plain_sides(t: Rel, scope: _Scope) -> Rel:
    """``Resolver._plain_relation`` (and ``_finset_builder``: a side has no expected type) for a relation whose
    sides are two atoms (one ``binrel%`` tree in Lean)."""
    left, right = tm.read_term(t.left.text), tm.read_term(t.right.text)
    if left is None or right is None:
        return t
    resolver = _resolver(scope)
    left, right = resolver.resolve(left), resolver.resolve(right)
    if t.op == "∈":
        new_left, new_right = left, resolver._interval_at(right, BinderTypes(scope.types).type_of(left))
    else:
        new_left, new_right = resolver._plain_relation(resolver._finset_builder(left),
                                                       resolver._finset_builder(right))
    if new_left is left and new_right is right:
        return t
    left_text, right_text = tm.render(new_left), tm.render(new_right)
    return replace(t, left=Atom(left_text, key_idents(left_text), t.left.open_right),
                   right=Atom(right_text, key_idents(right_text), t.right.open_right))


def recheck_casts(node: tm.Node, types: dict[str, str] | None = None) -> tm.Node:
    """``node`` — a tree already read by ``Resolver`` into which ``definitions.py`` substituted a value — read
    again, so casts the substitution made redundant (``(fun (x : ℕ) => 1 / ((x : ℝ) + 1) : ℕ → ℝ)``, ``(a - 5 :
    ℕ) < 3`` with ``a : ℕ``) go as they would have had the statement been written so; ``types``: the statement
    variables' types. The names in it are resolved already; reading is idempotent."""
    return Resolver(frozenset(), {}, dict(types or {})).resolve(node)


def recheck_relation(t: Rel, types: dict[str, str] | None = None) -> Rel:
    """A relation between two atoms into which a value was substituted, its casts read again as one ``binrel%``
    tree (``_plain_sides``; ``recheck_casts`` reads each atom alone)."""
    if t.op not in (*BINREL, "∈") or not (isinstance(t.left, Atom) and isinstance(t.right, Atom)):
        return t
    return _plain_sides(t, _Scope(frozenset(), {}, dict(types or {})))


def _resolver(scope: _Scope) -> Resolver:
    return Resolver(scope.opens, scope.variables, scope.types)


def _logical(t: Term) -> bool:
    return isinstance(t, (Quant, BinOp, Not, Rel, Let))


def _prop_valued(t: Term, scope: _Scope) -> bool:
    """An atom ``v a₁ … aₖ`` (or ``v``) where the variable ``v``'s declared type is ``A₁ → … → Aₖ → Prop``."""
    if not isinstance(t, Atom):
        return False
    node = tm.read_term(t.text)
    head, n_args = (node.fn, len(node.args)) if isinstance(node, tm.App) else (node, 0)
    if not isinstance(head, tm.Name) or head.text not in scope.types:
        return False
    ty = tm.read_term(scope.types[head.text])
    for _ in range(n_args):
        if not (isinstance(ty, tm.Binary) and ty.op == "→"):
            return False
        ty = ty.right
    return isinstance(ty, tm.Name) and ty.text == "Prop"


def _type_text(t: Term | None) -> str | None:
    if t is None:
        return None
    return t.text if isinstance(t, Atom) else render_term(t)


def _bound_element_type(collection: Term, scope: _Scope) -> str | None:
    node = tm.read_term(_type_text(collection) or "")
    return BinderTypes(scope.types).element_type(_resolver(scope).resolve(node)) if node is not None else None
