"""The lint rules about hypotheses: ``vacuous-hypotheses``, ``single-point-hypothesis``, ``unused-hypothesis``.

The table of every rule is ``pyshadow.lint.rules``.
"""

from __future__ import annotations

from typing import Iterator

from ..syntax import terms as tm
from .context import Context, free_names
from .findings import ERROR, WARNING, Finding, rule
from .rule_tools import _conjuncts, _numeral_text, _relation, _walk
from .signatures import NAT, NUMERIC, TYPE_NAMES
from .statement import Part


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
