"""Merging expert (and LLM) shadows from ``problem.toml`` into a generated decomposition.

An expert shadow is a Lean conclusion under the target's binders that the target implies — a consequence, not a
projection: it has no path. Merging:

- parses each statement with ``pyshadow.syntax.parse_term`` (a statement that does not parse is bad input);
- dedupes by **tree equality** (the typed tree is a frozen dataclass: equal trees are the same statement up to
  the layout the renderer normalises). A statement equal to a generated shadow keeps the generated one — its path,
  kind and structural checker — and records both provenances; a statement equal to an earlier expert one is
  dropped the same way;
- keeps a stable order: the generated shadows in path order (as ``decompose`` emitted them), then the new expert
  shadows in file order.

The certificate is untouched: its leaves index the generated shadows, which keep their positions, so the backward
certificate stays structural over them alone. Expert shadows add forward checks and never weaken completeness.

Provenance: ``Shadow.provenance`` is ``generated``, ``expert`` or ``llm:<model>``; a shadow found by several
sources lists them joined by ``", "`` in the order found (``generated, expert``). A problem-file provenance never
contains whitespace (``expert|llm:\\S+``), so the separator is unambiguous; ``provenances`` splits it back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import BadInput
from ..syntax.ast import Declaration, Term
from ..syntax.parser import ParseError, parse_term
from ..syntax.render import render_term
from .expert import CONSEQUENCE_KINDS, ExpertShadow
from .rules import Decomposition, Shadow

PROVENANCE_SEPARATOR = ", "


class ExpertShadowError(BadInput):
    """An expert shadow's statement is not a Lean term pyshadow can read; ``index`` is its 0-based position."""

    def __init__(self, index: int, shadow: ExpertShadow, reason: str):
        self.index = index
        self.shadow = shadow
        super().__init__(f"shadow for {shadow.target}: cannot parse statement {shadow.statement!r}: {reason}")


@dataclass(frozen=True)
class MergeReport:
    """What a merge did with each expert shadow, in input order: ``added`` at a position, or ``duplicate`` of one."""

    outcomes: tuple[tuple[str, int], ...]  # ("added" | "duplicate", 0-based index in the merged shadow list)

    @property
    def added(self) -> int:
        return sum(1 for outcome, _ in self.outcomes if outcome == "added")


def provenances(shadow: Shadow) -> tuple[str, ...]:
    """Every source of ``shadow``, in the order they were found (``("generated", "expert")``)."""
    return tuple(shadow.provenance.split(PROVENANCE_SEPARATOR))


def consequence_kind(provenance: str) -> str:
    """The shadow kind for a non-generated provenance: ``llm`` for ``llm:<model>``, else ``expert``."""
    return "llm" if provenance.startswith("llm:") else "expert"


def parse_expert_statement(index: int, shadow: ExpertShadow) -> Term:
    try:
        return parse_term(shadow.statement)
    except ParseError as err:
        raise ExpertShadowError(index, shadow, str(err)) from None


def merge_shadows(dec: Decomposition, experts: Sequence[ExpertShadow]) -> tuple[Decomposition, MergeReport]:
    """``dec`` with ``experts`` (all for the same target) merged in; see the module docstring.

    Returns a new ``Decomposition`` (``dec`` is not modified) and what happened to each expert shadow. Raises
    ``ExpertShadowError`` (bad input) for a statement that does not parse.
    """
    shadows = list(dec.shadows)
    position = {s.statement: i for i, s in reversed(list(enumerate(shadows)))}
    outcomes: list[tuple[str, int]] = []
    for index, expert in enumerate(experts):
        statement = parse_expert_statement(index, expert)
        found = position.get(statement)
        if found is not None:
            shadows[found] = _with_provenance(shadows[found], expert.provenance)
            outcomes.append(("duplicate", found))
            continue
        kind = consequence_kind(expert.provenance)
        shadows.append(Shadow(kind, (), statement, statement, provenance=expert.provenance))
        position[statement] = len(shadows) - 1
        outcomes.append(("added", len(shadows) - 1))
    return Decomposition(shadows, dec.certificate, dec.residual), MergeReport(tuple(outcomes))


def generated_only(dec: Decomposition) -> Decomposition:
    """The decomposition without its merged-in consequences (what the kernel tier and the certificate see)."""
    kept = [s for s in dec.shadows if s.kind not in CONSEQUENCE_KINDS]
    return Decomposition(kept, dec.certificate, dec.residual)


def _with_provenance(shadow: Shadow, provenance: str) -> Shadow:
    known = provenances(shadow)
    if provenance in known:
        return shadow
    return replace(shadow, provenance=PROVENANCE_SEPARATOR.join((*known, provenance)))


# ---------------------------------------------------------------------------------------------------------------
# Shadows proposed by an LLM (residual task "shadows")


def answer_shadows(code: str, target: str, decl: Declaration, provenance: str) -> tuple[list[ExpertShadow], list[str]]:
    """The shadows an accepted LLM answer proposes for ``target``, and why any declaration was not taken.

    Each declaration of the answer states one shadow: its conclusion, provided its binders are the target's
    (the same names, brackets and types, after the naming ``named_binders`` applies to both) — a conclusion
    under other binders is not "a conclusion under the target's binders". The answer's proofs are not kept: the
    shadow gets the consequence checker like any expert shadow, so Lean judges it the same way.
    """
    from ..syntax.declarations import find_declarations
    from ..syntax.parser import parse_declaration
    from .checkers import named_binders

    wanted = _binder_signature(named_binders(decl.binders))
    shadows: list[ExpertShadow] = []
    reasons: list[str] = []
    for n, source in enumerate(find_declarations(code), start=1):
        try:
            proposed = parse_declaration(source.header(code))
        except ParseError as err:
            reasons.append(f"declaration {n}: does not parse: {err}")
            continue
        if proposed.type is None:
            reasons.append(f"declaration {n}: states no conclusion")
        elif _binder_signature(named_binders(proposed.binders)) != wanted:
            reasons.append(f"declaration {n}: its binders are not the target's")
        else:
            shadows.append(ExpertShadow(target, render_term(proposed.type), provenance))
    return shadows, reasons


def _binder_signature(binders) -> list[tuple[str, str, str | None]]:
    return [(b.bracket, name, render_term(b.type) if b.type is not None else None) for b in binders for name in b.names]
