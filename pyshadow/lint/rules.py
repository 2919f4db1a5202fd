"""The lint rules, one function each (registered with :func:`~pyshadow.lint.findings.rule`).

==========================  ========  =========================================================================
rule                        severity  flags
==========================  ========  =========================================================================
bigop-body                  error     a variable bound by ``∑``/``∏`` (body at precedence 67, Mathlib
                                      Algebra/BigOperators/Group/Finset/Defs.lean) reappearing after the body,
                                      where no other binder binds it: ``∑ k ∈ s, a + k * d`` is
                                      ``(∑ k ∈ s, a) + k * d`` with a new auto-bound ``k``. A warning when an
                                      outer binder of that name exists (the occurrence then means the outer one).
bigop-trailing-constant     warning   ``∑ k ∈ s, 2 * k + 1 = n ^ 2``, ``(∏ k ∈ s, 2 * k + 1) % 10``: a constant
                                      after the body is outside it (added once); clean when the big operator
                                      is closed by its own parentheses, ``(∑ k ∈ s, 2 * k) + 1``.
nat-exponent-division       error     ``x ^ (1 / 3)``: a literal exponent is ℕ (Monoid.Pow is the default
                                      instance), so ``1 / 3`` is ℕ division, here 0. A warning when the
                                      division has a variable (``x ^ (1 / n)``).
nat-subtraction             warning   truncated ℕ subtraction where the statement otherwise lives in ℤ/ℚ/ℝ, or
                                      compared with 0 or 1 (``a - b = 0`` holds whenever ``a ≤ b``); not when a
                                      hypothesis guards it (``0 < n`` for ``n - 1``, ``b ≤ a`` for ``a - b``).
nat-division                warning   ℕ division where the statement otherwise lives in ℤ/ℚ/ℝ, unless a
                                      hypothesis says the divisor divides.
binder-shadowing            error     a header binder declaring a name an earlier header binder declared: the
                                      hypotheses after it constrain the new variable. A warning for a quantifier
                                      or ``fun`` inside the statement re-binding a header variable.
factorial-identifier        error     ``n!`` where ``n`` is a variable: one identifier (a new auto-bound
                                      variable), not ``n !``.
optparam-binder             error     ``(S : Set ℕ := {…})`` in a theorem: the default value is no hypothesis,
                                      ``S`` ranges over every value.
vacuous-hypotheses          error     hypotheses that contradict each other syntactically (``x < 0`` and
                                      ``0 < x``, ``a = 2`` and ``a = 3``), or an ℕ variable below 0.
single-point-hypothesis     warning   an equation about a function variable at one header variable that
                                      nothing else mentions: ``(x : ℤ) (h : f x + f (x - 1) = x ^ 2)`` where
                                      ``∀ x,`` was meant.
unused-hypothesis           warning   a hypothesis whose variables appear neither in the conclusion nor in any
                                      hypothesis connected to it.
==========================  ========  =========================================================================
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Iterator

from ..syntax import terms as tm
from .context import Context, free_names
from .findings import ERROR, WARNING, Finding, rule
from .signatures import COMPLEX, INT, NAT, NUMERIC, RAT, REAL, TYPE_NAMES
from .statement import Part, children

ADDITIVE = frozenset({"+", "-"})  # the operators below a big operator's body precedence (65 < 67)
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


_BINDING = (tm.Quantifier, tm.Lambda, tm.SetBuilder, tm.BigOperator)
_CONNECTIVES = frozenset({"∧", "∨", "→", "↔", "/\\", "\\/", "->", "<->"})


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


def _numeral_text(text: str) -> int | None:
    return int(text) if text.isdigit() else None


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


# ---------------------------------------------------------------------------------------------------------------
# Binders


@rule("binder-shadowing", ERROR, "a header binder shadows an earlier one")
def binder_shadowing(ctx: Context) -> Iterator[Finding]:
    """A variable declared twice in the header: what comes between the two declarations constrains the first, the
    rest the second. An error when something between them mentions the name (the constraints are split between
    two variables), a warning when nothing does (the first is an unused extra variable). Hypothesis names are
    not checked: proofs are not part of the statement's meaning."""
    binders = ctx.statement.binders
    first: dict[str, int] = {}
    for k, part in enumerate(binders):
        if part in ctx.hypotheses or part.bracket == "[":
            continue
        for name in part.names:
            if name == "_" or name.startswith("_"):
                continue
            if name in first:
                between = [p for p in binders[first[name] + 1:k] if p.tree is not None and name in free_names(p.tree)]
                earlier = binders[first[name]]
                span = (part.group_start, part.start + len(part.text) + 1)
                if between:
                    yield ctx.finding("binder-shadowing", span,
                                      f"`{name}` is declared again: `{between[0].text}` constrains the earlier "
                                      f"`{name} : {earlier.text or '?'}`, everything after this binder the new one")
                else:
                    yield ctx.finding("binder-shadowing", span,
                                      f"`{name}` is declared again: the earlier `{name}` is an unused extra variable "
                                      "and everything refers to this one", severity=WARNING)
            first[name] = k


@rule("factorial-identifier", ERROR, "`n!` is one identifier, not the factorial of `n`")
def factorial_identifier(ctx: Context) -> Iterator[Finding]:
    """An identifier may contain ``!`` (Lean's identifier syntax), so ``n!`` is a new name — auto-bound, or
    unknown — and not ``n !``: Mathlib's ``scoped notation:10000 n "!" => Nat.factorial n`` needs the space
    (Mathlib/Data/Nat/Factorial/Basic.lean). Flagged when the name without its ``!`` is a variable in scope."""
    for part in _parts(ctx):
        header = _names_before(ctx, part)
        occurrences: list[tuple[tm.Name, tuple[tm.Node, ...]]] = []
        _free_occurrences(part.tree, frozenset(), (), occurrences)
        for name, parents in occurrences:
            stem = name.text.rstrip("!")
            if not name.text.endswith("!") or not stem or "." in name.text:
                continue
            in_scope = header | {p.binder.name for p in parents if isinstance(p, _BINDING)}
            if stem in in_scope:
                yield ctx.finding("factorial-identifier", part.span(name),
                                  f"`{name.text}` is one identifier (a new variable), not the factorial of `{stem}`",
                                  f"{stem} {name.text[len(stem):]}")


@rule("optparam-binder", ERROR, "a default value in a theorem's binder constrains nothing")
def optparam_binder(ctx: Context) -> Iterator[Finding]:
    """``(S : Set ℕ := {n | p n = 0})`` in a theorem is an optParam: ``S`` is still universally quantified and the
    default is no hypothesis (PutnamBench commit 6ab737c "Fix optParam issue"; Lean core
    ``src/Init/Prelude.lean``: ``optParam``)."""
    if ctx.statement.keyword not in ("theorem", "lemma", "example"):
        return
    for part in ctx.statement.binders:
        if part.default is None or part.default.startswith("by "):
            continue  # `(h : p := by tac)` is an auto-param: the tactic proves it, a hypothesis all the same
        name = part.names[0] if part.names else "x"
        typed = f" : {part.text}" if part.text else ""
        yield ctx.finding("optparam-binder", (part.group_start, part.end),
                          f"`{name}`'s default value is no hypothesis: in a theorem `{name}` ranges over every value, "
                          "so the statement does not say what the default suggests",
                          f"({name}{typed}) (h{name} : {name} = {part.default})")


# ---------------------------------------------------------------------------------------------------------------
# Hypotheses


_CONTRADICTORY = {("<", "<"), ("<", "≤"), ("≤", "<")}  # a op1 b and b op2 a


@rule("vacuous-hypotheses", ERROR, "hypotheses that contradict each other")
def vacuous_hypotheses(ctx: Context) -> Iterator[Finding]:
    facts: list[tuple[tuple[str, str, str], Part, tm.Node]] = []
    for part in ctx.hypotheses:
        if part.tree is None:
            continue
        for c in _conjuncts(part.tree):
            rel = _relation(c)
            if rel is not None:
                facts.append((rel, part, c))
    redeclared = {n for n in ctx.variables if sum(n in p.names for p in ctx.statement.binders) > 1}
    for k, (rel, part, node) in enumerate(facts):
        lhs, op, rhs = rel
        if free_names(node) & redeclared:
            continue  # `(n : ℤ) (h : n = 2) (n : ℕ) (h' : n = 3)`: two different n (binder-shadowing's case)
        if lhs == rhs and op in ("<", "≠"):
            yield ctx.finding("vacuous-hypotheses", part.span(node), f"`{tm.render(node)}` is false: the "
                              "statement is vacuously true")
            continue
        if op == "<" and rhs == "0" and ctx.scope_types.get(lhs) == NAT:
            yield ctx.finding("vacuous-hypotheses", part.span(node), f"`{lhs}` is a natural number, so "
                              f"`{tm.render(node)}` is false: the statement is vacuously true")
            continue
        for rel2, part2, node2 in facts[:k]:
            l2, op2, r2 = rel2
            clash = ((l2, r2) == (rhs, lhs) and (op2, op) in _CONTRADICTORY) or (
                (l2, r2) in ((lhs, rhs), (rhs, lhs)) and {op, op2} == {"=", "≠"}) or (
                op == op2 == "<" and (l2, r2) == (rhs, lhs)) or (
                op == op2 == "=" and l2 == lhs and _numeral_text(rhs) is not None
                and _numeral_text(r2) is not None and rhs != r2)
            if clash:
                yield ctx.finding("vacuous-hypotheses", part.span(node),
                                  f"`{tm.render(node)}` contradicts `{tm.render(node2)}`: no value satisfies both, "
                                  "so the statement is vacuously true")
                break


def _header_variables(ctx: Context) -> dict[str, Part]:
    return {n: p for n, p in ctx.variables.items() if p not in ctx.hypotheses and p.bracket != "["}


@rule("single-point-hypothesis", WARNING, "an equation at one point where a functional equation was meant")
def single_point_hypothesis(ctx: Context) -> Iterator[Finding]:
    conclusion = ctx.statement.conclusion
    if conclusion is None or conclusion.tree is None:
        return
    variables = _header_variables(ctx)
    functions = {n for n, t in ctx.scope_types.items() if isinstance(t, tuple)}
    mentions = {id(h): free_names(h.tree) for h in ctx.hypotheses if h.tree is not None}
    in_conclusion = free_names(conclusion.tree)
    for h in ctx.hypotheses:
        if h.tree is None or not (isinstance(h.tree, tm.Binary) and h.tree.op == "="):
            continue
        for x in sorted(mentions[id(h)] & set(variables)):
            if x in functions or ctx.scope_types.get(x) not in NUMERIC or x in in_conclusion:
                continue
            others = [g for g in ctx.hypotheses if g is not h and x in mentions.get(id(g), ())]
            if others:
                continue
            applied = [n for n, _ in _walk(h.tree) if isinstance(n, tm.App) and isinstance(n.fn, tm.Name)
                       and n.fn.text in functions and any(x in free_names(a) for a in n.args)]
            if not applied:
                continue
            name = h.names[0] if h.names else "_"
            yield ctx.finding("single-point-hypothesis", part_span(h),
                              f"`{name}` constrains `{applied[0].fn.text}` only at the one point `{x}`, which "
                              "nothing else mentions: a functional equation needs `∀`",
                              f"({name} : ∀ {x}, {h.text})")


def part_span(part: Part) -> tuple[int, int]:
    return part.start, part.start + len(part.text)


@rule("unused-hypothesis", WARNING, "a hypothesis unrelated to the conclusion and to every other hypothesis")
def unused_hypothesis(ctx: Context) -> Iterator[Finding]:
    conclusion = ctx.statement.conclusion
    binders = [p for p in ctx.statement.binders if p.text]
    if conclusion is None or conclusion.tree is None or any(p.tree is None for p in binders):
        return  # a part the reader cannot see might be the link
    variables = set(_header_variables(ctx))
    if not free_names(conclusion.tree) & variables:
        return  # `: False`, a closed conclusion: the hypotheses are the point
    # Links go through every shared name, not only header variables (`variable`s and auto-bound names link too),
    # and through a hypothesis's own name when another part mentions it (`congr_arg f h`).
    def names(node: tm.Node | None) -> set[str]:
        return {n for n in free_names(node) if n in variables or not (n[:1].isupper() or n in TYPE_NAMES)}

    uses = {id(h): names(h.tree) | set(h.names) for h in ctx.hypotheses}
    # A variable's type links it to the names it mentions (`(R : ι → V)` links R with ι and V), both ways.
    links = [uses[id(h)] for h in ctx.hypotheses]
    links += [names(p.tree) | {n} for p in binders if p not in ctx.hypotheses for n in p.names]
    reached = names(conclusion.tree)
    changed = True
    while changed:
        changed = False
        for group in links:
            if group & reached and not group <= reached:
                reached |= group
                changed = True
    for h in ctx.hypotheses:
        about = uses[id(h)] & variables
        if about and not uses[id(h)] & reached:
            name = h.names[0] if h.names else "_"
            vars_text = ", ".join(f"`{v}`" for v in sorted(about))
            yield ctx.finding("unused-hypothesis", part_span(h),
                              f"`{name}` is about {vars_text}, which neither the conclusion nor any hypothesis "
                              "connected to it mentions")
