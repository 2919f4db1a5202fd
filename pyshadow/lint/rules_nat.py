"""The lint rules about ℕ arithmetic: ``nat-exponent-division``, ``nat-subtraction``, ``nat-division``.

Truncated subtraction and division of natural numbers where the statement most likely means exact arithmetic;
a hypothesis that guards the operation (``b ≤ a`` for ``a - b``, a divisibility fact) silences the rule. The table
of every rule is ``pyshadow.lint.rules``.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Iterator

from ..syntax import terms as tm
from .context import Context
from .findings import ERROR, WARNING, Finding, rule
from .rule_tools import _conjuncts, _numeral_text, _parts, _relation, _walk
from .signatures import COMPLEX, INT, NAT, RAT, REAL
from .statement import Part


# ---------------------------------------------------------------------------------------------------------------
# ℕ arithmetic


def _numeral(node: tm.Node) -> int | None:
    if isinstance(node, tm.Name) and node.text.isdigit():
        return int(node.text)
    return None


def _exact_quotient(div: tm.Binary) -> Fraction | None:
    a, b = _numeral(div.left), _numeral(div.right)
    if a is None or b is None or b == 0:
        return None
    return Fraction(a, b)


@rule("nat-exponent-division", ERROR, "ℕ division in an exponent")
def nat_exponent_division(ctx: Context) -> Iterator[Finding]:
    for part in _parts(ctx):
        for node, _ in _walk(part.tree):
            if not (isinstance(node, tm.Binary) and node.op == "^"):
                continue
            exp = node.right
            divisions = [d for d, _ in _walk(exp) if isinstance(d, tm.Binary) and d.op == "/"
                         and ctx.types.of(d) == NAT]
            for div in divisions:
                q = _exact_quotient(div)
                if q is not None and q.denominator == 1:
                    continue  # `6 / 2` is exactly 3 in ℕ too
                base = ctx.types.of(node)
                target = base if base in (RAT, REAL) else REAL
                a = tm.render(div.left)
                fixed = f"(({a} : {target}) / {tm.render(div.right)})" if div is exp else None
                if q is not None:
                    yield ctx.finding("nat-exponent-division", part.span(div),
                                      f"`{tm.render(div)}` in this exponent is ℕ division (a literal exponent is ℕ: "
                                      f"Monoid.Pow is the default instance), so it is {q.numerator // q.denominator},"
                                      f" not {q}", fixed)
                elif base in (RAT, REAL, COMPLEX) or _numeral(div.left) is not None:
                    # a root meant (`x ^ (1 / n)`); over ℕ, ZMod … `a ^ ((p - 1) / 2)` is meant as written
                    yield ctx.finding("nat-exponent-division", part.span(div),
                                      f"`{tm.render(div)}` in this exponent is ℕ division (truncating): the power is"
                                      " by a natural number", fixed, severity=WARNING)


def _facts(ctx: Context, part: Part, parents: tuple[tm.Node, ...]) -> list[tm.Node]:
    """Hypotheses in force: the header's, and the antecedents of ``→`` the node is under, split on ``∧``."""
    facts: list[tm.Node] = []
    for h in ctx.hypotheses:
        if h.tree is not None:
            facts += _conjuncts(h.tree)
    for k, p in enumerate(parents):
        child = parents[k + 1] if k + 1 < len(parents) else None
        if isinstance(p, tm.Binary) and p.op in ("→", "->") and child is not p.left:
            facts += _conjuncts(p.left)
        if isinstance(p, tm.Binary) and p.op in ("∧", "/\\") and child is p.right:
            facts += _conjuncts(p.left)
    return facts


def _guarded(sub: tm.Binary, facts: list[tm.Node]) -> bool:
    """Whether a hypothesis says ``b ≤ a`` for ``a - b`` (``0 < a``, ``a ≠ 0`` for ``b = 1``; ``k ≤ a`` for a
    numeral ``b ≤ k``; ``b < a``)."""
    a, b = tm.render(sub.left), tm.render(sub.right)
    k = _numeral(sub.right)
    for fact in facts + _prime_facts(facts):
        rel = _relation(fact)
        if rel is None:
            continue
        lhs, op, rhs = rel
        if rhs == a and lhs == b and op in ("<", "≤"):
            return True
        if rhs == a and op in ("<", "≤") and k is not None and (m := _numeral_text(lhs)) is not None:
            if m + (1 if op == "<" else 0) >= k:
                return True
        if k == 1 and op == "≠" and ((lhs == a and rhs == "0") or (rhs == a and lhs == "0")):
            return True
    return False


def _in_index_position(node: tm.Node, parents: tuple[tm.Node, ...]) -> bool:
    """Whether the arithmetic tree holding ``node`` is a function's argument or an exponent."""
    child = node
    for parent in reversed(parents):
        if isinstance(parent, tm.Binary) and parent.op in ("+", "-", "*", "/", "%"):
            child = parent
            continue
        if isinstance(parent, tm.Binary) and parent.op == "^":
            return parent.right is child
        return isinstance(parent, tm.App) and child is not parent.fn
    return False


_POSITIVE_PREDICATES = ("Nat.Prime", "Prime", "Nat.Prime.two_le")


def _prime_facts(facts: list[tm.Node]) -> list[tm.Node]:
    """``Nat.Prime p`` / ``p.Prime`` give ``2 ≤ p`` (Mathlib/Data/Nat/Prime/Defs.lean: ``Nat.Prime.two_le``)."""
    out = []
    for fact in facts:
        arg = None
        if isinstance(fact, tm.App) and isinstance(fact.fn, tm.Name) and fact.fn.text in ("Nat.Prime", "Prime") \
                and len(fact.args) == 1:
            arg = fact.args[0]
        elif isinstance(fact, tm.Name) and fact.text.endswith(".Prime"):
            arg = tm.Name(fact.text[: -len(".Prime")])
        if arg is not None:
            out.append(tm.Binary("≤", tm.Name("2"), arg))
    return out


def _lives_beyond_nat(ctx: Context) -> bool:
    return bool(ctx.types.numeric_types() & {INT, RAT, REAL})


def _leftmost_leaf(node: tm.Node) -> tm.Node:
    while isinstance(node, tm.Binary) and node.op in ("+", "-", "*", "/", "%"):
        node = node.left
    return node


def _cast_suggestion(node: tm.Binary, target: str) -> str:
    leaf = _leftmost_leaf(node)
    return tm.render(_replace_left_leaf(node, leaf, tm.Ascription(leaf, tm.Name(target))))


def _replace_left_leaf(node: tm.Node, leaf: tm.Node, new: tm.Node) -> tm.Node:
    if node is leaf:
        return new
    assert isinstance(node, tm.Binary)
    return replace(node, left=_replace_left_leaf(node.left, leaf, new))


def _compared_with_small(sub: tm.Node, parents: tuple[tm.Node, ...]) -> bool:
    """``a - b = 0`` / ``a - b ≤ 1`` …: the subtraction (or a chain of them) is one side of a relation whose other
    side is 0 or 1."""
    child = sub
    for parent in reversed(parents):
        if isinstance(parent, tm.Binary) and parent.op == "-" and parent.left is child:
            child = parent
            continue
        if isinstance(parent, tm.Binary) and parent.op in ("=", "≤", "<", "<=") and parent.left is child:
            return _numeral(parent.right) in (0, 1)
        return False
    return False


@rule("nat-subtraction", WARNING, "truncated ℕ subtraction")
def nat_subtraction(ctx: Context) -> Iterator[Finding]:
    beyond = _lives_beyond_nat(ctx)
    for part in _parts(ctx):
        for node, parents in _walk(part.tree):
            if not (isinstance(node, tm.Binary) and node.op == "-" and ctx.types.of(node) == NAT):
                continue
            if parents and isinstance(parents[-1], tm.Binary) and parents[-1].op == "-" and parents[-1].left is node:
                continue  # report a chain `a - b - c` once, at its top
            small = _compared_with_small(node, parents)
            if not small and _in_index_position(node, parents):
                continue  # `a (n - 1)`, `range (p - 1)`, `x ^ (n - 1)`: a count or an index, ℕ by nature
            if not (beyond or small) or _guarded(node, _facts(ctx, part, parents)):
                continue
            why = ("compared with 0 or 1, truncation makes it hold whenever the right side is larger" if small
                   else "the statement otherwise computes in ℤ/ℚ/ℝ")
            yield ctx.finding("nat-subtraction", part.span(node),
                              f"`{tm.render(node)}` is truncated ℕ subtraction (0 when the right side is larger); "
                              f"{why}", _cast_suggestion(node, "ℤ"))


@rule("nat-division", WARNING, "truncating ℕ/ℤ division where exact division is likely meant")
def nat_division(ctx: Context) -> Iterator[Finding]:
    """ℕ division in a statement that otherwise computes in ℤ/ℚ/ℝ; and anywhere, ℕ or ℤ division of a numeral by
    a variable expression (``1 / k`` is 0 for every ``k ≥ 2``)."""
    beyond = _lives_beyond_nat(ctx)
    exponents = {id(d) for part in _parts(ctx) for n, _ in _walk(part.tree)
                 if isinstance(n, tm.Binary) and n.op == "^" for d, _ in _walk(n.right)}
    for part in _parts(ctx):
        for node, parents in _walk(part.tree):
            if not (isinstance(node, tm.Binary) and node.op == "/" and ctx.types.of(node) in (NAT, INT)):
                continue
            if id(node) in exponents:
                continue  # nat-exponent-division's case
            q = _exact_quotient(node)
            if q is not None and q.denominator == 1:
                continue
            kind = "ℕ" if ctx.types.of(node) == NAT else "ℤ"
            reciprocal = _numeral(node.left) is not None and _numeral(node.right) is None
            if not (reciprocal or (beyond and kind == "ℕ")):
                continue
            divisor, dividend = tm.render(node.right), tm.render(node.left)
            if any(_divides(f, divisor, dividend) for f in _facts(ctx, part, parents)):
                continue
            why = (f"a numeral over `{divisor}` is 0 once `{divisor}` exceeds it" if reciprocal
                   else "the statement otherwise computes in ℤ/ℚ/ℝ")
            yield ctx.finding("nat-division", part.span(node),
                              f"`{tm.render(node)}` is {kind} division (rounds down): {why}",
                              _cast_suggestion(node, "ℝ"))


def _divides(fact: tm.Node, divisor: str, dividend: str) -> bool:
    return (isinstance(fact, tm.Binary) and fact.op == "∣" and tm.render(fact.left) == divisor
            and tm.render(fact.right) == dividend)
