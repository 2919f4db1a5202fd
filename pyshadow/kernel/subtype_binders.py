"""Quantifiers over a set's elements (``definitions.py``, 7.). ``∀ n : S, P`` with ``S : Set T`` or ``S : Finset T``
a variable of the statement ranges over the subtype ``{x // x ∈ S}`` (Mathlib ``Set.Elem``,
Mathlib/Data/Set/Defs.lean; the ``CoeSort`` of ``Finset``, Mathlib/Data/Finset/Defs.lean), so it is
``∀ n : T, n ∈ S → P`` and ``∃ n : S, P`` is ``∃ n : T, n ∈ S ∧ P`` (Mathlib ``Subtype.forall``/``Subtype.exists``,
Mathlib/Data/Subtype.lean), with each use of the element now the value ``↑⟨n, h⟩ = n`` (``Subtype.val``, by
``rfl``). Only where every use of ``n`` is surely that value: ``(n : T)``, ``n.val``, ``n.1``, or an argument at a
position of type ``T`` of a function the statement declares; any other use (``n`` alone as an operand, ``↑n`` to an
unknown type) leaves the quantifier as written. ``∀ n ∈ S`` (untyped) gets that same ``n : T``: ``Membership``'s
element type is an ``outParam`` (Lean core src/Init/Prelude.lean), so ``S``'s type fixes it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..syntax import terms as tm
from ..syntax.ast import Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term, is_proposition
from .keys import key_idents
from .substitution import (Skip as _Skip, idents as _idents, map_atoms as _map_atoms, read_key as _read_key,
                           rebuild as _rebuild, term_text as _text)


def subtype_binders(decl: Declaration) -> Declaration:
    """``∀ n : S, P`` as ``∀ n : T, n ∈ S → P`` (and ``∃``) for a set variable ``S`` (module docstring)."""
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
    """``a`` with every use of the subtype element ``n`` read as its value (``subtype_binders``); raises ``_Skip``
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
