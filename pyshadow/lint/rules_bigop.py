"""The lint rules about big operators: ``bigop-body`` and ``bigop-trailing-constant``.

A big operator's body ends at precedence 67 (Mathlib Algebra/BigOperators/Group/Finset/Defs.lean), so what follows a
``+`` or ``-`` after it is outside the body. The table of every rule is ``pyshadow.lint.rules``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from ..syntax import terms as tm
from .context import Context, free_names
from .findings import ERROR, WARNING, Finding, rule
from .rule_tools import _free_occurrences, _names_before, _parts, _walk


ADDITIVE = frozenset({"+", "-"})  # the operators below a big operator's body precedence (65 < 67)


# ---------------------------------------------------------------------------------------------------------------
# Big operators


def _body_spine_top(big: tm.BigOperator, parents: tuple[tm.Node, ...]) -> tm.Node | None:
    """The largest ``+``/``-`` expression that has ``big`` at the start of its left spine: what the author most
    likely meant as the body (``∑ k, a + k * d + e`` → ``a + k * d + e``)."""
    top, child = None, big
    for parent in reversed(parents):
        if isinstance(parent, tm.Binary) and parent.op in ADDITIVE and parent.left is child:
            top, child = parent, parent
            continue
        break
    return top


def _replace_left(node: tm.Node, target: tm.Node, new: tm.Node) -> tm.Node:
    if node is target:
        return new
    assert isinstance(node, tm.Binary)
    return replace(node, left=_replace_left(node.left, target, new))


def _widened(big: tm.BigOperator, top: tm.Node) -> str:
    body = _replace_left(top, big, big.body)
    return tm.render(tm.BigOperator(big.op, big.binder, body, big.filter))


_CONNECTIVES = frozenset({"∧", "∨", "→", "↔", "/\\", "\\/", "->", "<->"})


@rule("bigop-body", ERROR, "a variable bound by a big operator reappears after its body")
def bigop_body(ctx: Context) -> Iterator[Finding]:
    """Each free occurrence of a name is laid at the door of the nearest big operator before it that binds that
    name and shares an arithmetic expression (or relation) with it — not across ``∧``/``→``, which no body could
    have reached. An error when nothing else binds the name (it is a new auto-bound variable), a warning when a
    header binder does (it silently means that one)."""
    for part in _parts(ctx):
        header = _names_before(ctx, part)
        bigs = [n for n, _ in _walk(part.tree) if isinstance(n, tm.BigOperator) and n.op in tm.BIG_OPERATORS]
        if not bigs:
            continue
        occurrences: list[tuple[tm.Name, tuple[tm.Node, ...]]] = []
        _free_occurrences(part.tree, frozenset(), (), occurrences)
        blamed: dict[int, list[tm.Name]] = {}
        for name, parents in occurrences:
            at = part.span(name)[0]
            candidates = [g for g in bigs if g.binder.name == name.text and g not in parents
                          and part.span(g)[1] <= at and _same_expression(g, parents, part.tree)]
            if candidates:
                g = max(candidates, key=lambda g: part.span(g)[0])
                blamed.setdefault(id(g), []).append(name)
        for g in bigs:
            names = blamed.get(id(g))
            if not names:
                continue
            x, prec = g.binder.name, tm.BIG_OPERATORS[g.op]
            g_parents = next(p for n, p in _walk(part.tree) if n is g)
            top = _body_spine_top(g, g_parents)
            ends = [part.span(n)[1] for n in names] + ([part.span(top)[1]] if top is not None else [])
            span = (part.span(g)[0], max(ends))
            if x in header:
                yield ctx.finding("bigop-body", span, f"`{x}` after the body of `{g.op} {x}` is the header's "
                                  f"`{x}`, not the big operator's (its body ends at precedence {prec})",
                                  severity=WARNING)
            else:
                yield ctx.finding("bigop-body", span, f"the body of `{g.op} {x}` ends before this `{x}` (body "
                                  f"precedence {prec}): that `{x}` is a new, unrelated variable",
                                  _widened(g, top) if top is not None else None)


def _same_expression(big: tm.Node, occurrence_parents: tuple[tm.Node, ...], root: tm.Node) -> bool:
    """Whether the big operator and the occurrence meet below any logical connective or quantifier."""
    big_parents = next(p for n, p in _walk(root) if n is big)
    shared = [p for p in occurrence_parents if p in big_parents]
    if not shared:
        return False
    meet = shared[-1]
    return not (isinstance(meet, tm.Binary) and meet.op in _CONNECTIVES) and not isinstance(
        meet, (tm.Quantifier, tm.Lambda, tm.SetBuilder))


@rule("bigop-trailing-constant", WARNING, "a constant after a big operator's body, outside it")
def bigop_trailing_constant(ctx: Context) -> Iterator[Finding]:
    """``∑ k ∈ range n, 2 * k + 1 = n ^ 2`` and ``(∏ k ∈ range 6, 2 * k + 1) % 10``: the body stops before
    ``+ 1`` (precedence 67), so the constant is added once, not in every term. Likely a slip when the constant
    follows the body unparenthesised, or when parentheses enclose the big operator together with it (they
    suggest a body the parse does not have). ``(∑ k ∈ s, f k) + 1`` is clean."""
    text = ctx.text
    for part in _parts(ctx):
        for node, parents in _walk(part.tree):
            if not isinstance(node, tm.BigOperator) or node.op not in ("∑", "∏"):
                continue
            top = _body_spine_top(node, parents)
            if top is None or free_names(top.right):
                continue  # nothing after the body; or a term with variables (`∑ k, k - x`): bigop-body's case
            start, end = part.span(top)
            big_start, big_end = part.span(node)
            if text[big_end:].lstrip().startswith(")") and text[:big_start].rstrip().endswith("("):
                continue  # `(∑ k ∈ s, f k) + 1`: the author closed the body
            grouped = text[:start].rstrip().endswith("(") and text[end:].lstrip().startswith(")")
            what = "the parentheses around it do not extend the body" if grouped else "it is added once"
            yield ctx.finding(
                "bigop-trailing-constant", (start, end),
                f"this is `({node.op} …, {tm.render(node.body)}) {top.op} {tm.render(top.right)}`: the body of "
                f"`{node.op}` stops before `{top.op}` (precedence 67) and {what}", _widened(node, top))
