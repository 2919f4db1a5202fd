"""The lint rules about a header's binders: ``binder-shadowing``, ``factorial-identifier``, ``optparam-binder``.

The table of every rule is ``pyshadow.lint.rules``.
"""

from __future__ import annotations

from typing import Iterator

from ..syntax import terms as tm
from .context import Context, free_names
from .findings import ERROR, WARNING, Finding, rule
from .rule_tools import _BINDING, _free_occurrences, _names_before, _parts


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
