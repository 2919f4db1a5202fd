"""What the lint rules share: walking a part's term tree with its ancestors, free occurrences, conjuncts, relations.

The rule families (``rules_bigop``, ``rules_nat``, ``rules_binders``, ``rules_hypotheses``; their table is
``pyshadow.lint.rules``) read the statement's parts through ``pyshadow.lint.context``; these helpers are the tree
walks more than one family needs.
"""

from __future__ import annotations

from typing import Iterator

from ..syntax import terms as tm
from .context import Context
from .statement import Part, children

ASCII_RELATIONS = {">=": "≥", "<=": "≤", "!=": "≠"}


def _walk(node: tm.Node, parents: tuple[tm.Node, ...] = ()) -> Iterator[tuple[tm.Node, tuple[tm.Node, ...]]]:
    yield node, parents
    for child in children(node):
        yield from _walk(child, parents + (node,))


def _parts(ctx: Context) -> Iterator[Part]:
    return (p for p in ctx.statement.parts if p.tree is not None)


def _names_before(ctx: Context, part: Part) -> set[str]:
    out: set[str] = set()
    for p in ctx.statement.parts:
        if p is part:
            break
        out.update(p.names)
    return out


_BINDING = (tm.Quantifier, tm.Lambda, tm.SetBuilder, tm.BigOperator)


def _free_occurrences(node: tm.Node, bound: frozenset[str], parents: tuple[tm.Node, ...],
                      out: list[tuple[tm.Name, tuple[tm.Node, ...]]]) -> None:
    """Every identifier occurrence free in the part, with its ancestors."""
    if isinstance(node, tm.Name):
        if node.text[:1].isalpha() and node.text not in bound:
            out.append((node, parents))
        return
    inner = bound
    if isinstance(node, (tm.Quantifier, tm.Lambda, tm.SetBuilder, tm.BigOperator)):
        b = node.binder
        for x in (b.type, b.bound[1] if b.bound else None):
            if x is not None:
                _free_occurrences(x, bound, parents + (node,), out)
        inner = bound | {b.name}
        rest = [node.filter] if isinstance(node, tm.BigOperator) and node.filter is not None else []
        for child in (*rest, node.body):
            _free_occurrences(child, inner, parents + (node,), out)
        return
    for child in children(node):
        _free_occurrences(child, bound, parents + (node,), out)


def _conjuncts(node: tm.Node) -> list[tm.Node]:
    if isinstance(node, tm.Binary) and node.op in ("∧", "/\\"):
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _relation(node: tm.Node) -> tuple[str, str, str] | None:
    """``(lhs, op, rhs)`` with ``>``/``≥`` turned around (``a > b`` is ``b < a``), sides as canonical text."""
    if not isinstance(node, tm.Binary):
        return None
    op = ASCII_RELATIONS.get(node.op, node.op)
    if op not in ("<", "≤", "=", "≠", ">", "≥"):
        return None
    left, right = tm.render(node.left), tm.render(node.right)
    if op in (">", "≥"):
        return right, {">": "<", "≥": "≤"}[op], left
    return left, op, right


def _numeral_text(text: str) -> int | None:
    return int(text) if text.isdigit() else None
