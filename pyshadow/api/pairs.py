"""Statements without a problem folder: ``check_pair`` / ``check_pairs`` (skeleton SA-Pass of a candidate statement
against a reference statement) and ``shadows`` (a statement's shadows and checker texts).

A pair is judged as ``benchmarks/skeleton_pairs.py`` judges the labelled pairs (``pyshadow.kernel.pairs``): the
reference is decomposed into shadows, both statements are abstracted with one atom map, and the kernel-tier Lean
checks every forward shadow (the candidate implies it) and the backward certificate (the shadows imply the
candidate). The proofs are not checked; ``:= …`` after a statement is ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ..errors import BadInput, Unavailable
from ..kernel.definitions import data_as_proposition, is_data_declaration
from ..kernel.pairs import lean_equal_keys, with_written_value
from ..kernel.skeleton import SkeletonPair, SkeletonVerdict
from ..kernel.scoring import skeleton_score
from ..lean.toolchain import kernel_lean
from ..settings import Settings
from ..shadows import decompose
from ..shadows.checkers import full_tier_checkers
from ..shadows.rules import uncheckable_reason
from ..syntax import Declaration, ParseError, parse_declaration, render_term
from .types import PairVerdict, Shadow, ShadowSet


class StatementError(BadInput):
    """A statement pyshadow cannot read or check; the message is one line saying which and why."""


@dataclass(frozen=True)
class Pair:
    """One pair for ``check_pairs``: a reference and a candidate statement, each with the ``open``/``namespace``
    lines it is written under."""

    reference: str
    """The reference statement (``theorem name binders : type``)."""
    candidate: str
    """The candidate statement."""
    context: str = ""
    """The lines before the reference (``open Real``, ``namespace Foo``): how its names resolve."""
    candidate_context: str | None = None
    """The lines before the candidate (None: the same as ``context``)."""
    key: str = ""
    """An id for the pair (default: its position)."""


def read_statement(text: str, role: str) -> Declaration:
    """``text`` parsed as one declaration header; ``StatementError`` (one line, naming ``role``) otherwise."""
    what = f"the {role} statement" if role else "the statement"
    if not isinstance(text, str):
        raise StatementError(f"{what}: expected Lean text, got {type(text).__name__}")
    try:
        decl = parse_declaration(text)
    except ParseError as err:
        raise StatementError(f"{what} does not parse (pyshadow's parser): {err}") from None
    if decl.type is None:
        raise StatementError(f"{what} states no type (expected `theorem name binders : type`)")
    return decl


def check_pair(reference: str, candidate: str, *, context: str = "", candidate_context: str | None = None,
               tier: str = "kernel", mathlib: bool = True, settings: Settings | None = None) -> PairVerdict:
    """Does ``candidate`` state what ``reference`` states? Skeleton SA-Pass of the two statements.

    ``context`` / ``candidate_context``: the ``open``/``namespace`` lines each is written under (the candidate's
    defaults to the reference's). ``mathlib``: read the atoms as Mathlib statements (numerals, operators) — False
    for core-Lean statements. ``tier``: only ``kernel`` judges statements; ``full`` raises ``Unavailable``.
    A statement that does not parse raises ``StatementError`` (a ``BadInput``) with one line saying which.
    """
    verdicts = _judge([Pair(reference, candidate, context, candidate_context, "pair")], tier, mathlib, settings,
                      strict=True)
    return verdicts[0]


def check_pairs(pairs: Iterable[Pair | tuple[str, str]], *, tier: str = "kernel", mathlib: bool = True,
                settings: Settings | None = None) -> list[PairVerdict]:
    """``check_pair`` for many pairs in one Lean run (few Lean processes, fast), in input order. A pair whose
    statement does not parse is a verdict ``error`` with the reason, and the rest are judged."""
    items = [p if isinstance(p, Pair) else Pair(*p) for p in pairs]
    items = [p if p.key else Pair(p.reference, p.candidate, p.context, p.candidate_context, str(i))
             for i, p in enumerate(items)]
    return _judge(items, tier, mathlib, settings, strict=False)


def _judge(pairs: Sequence[Pair], tier: str, mathlib: bool, settings: Settings | None, *, strict: bool
           ) -> list[PairVerdict]:
    if tier == "full":
        raise Unavailable("check_pair: the full tier does not judge bare statements yet (a pair needs a problem "
                          "folder and a full Lean + Mathlib toolchain); use tier='kernel'")
    if tier != "kernel":
        raise BadInput(f"check_pair: tier {tier!r} is not one of kernel, full")
    settings = settings or Settings()
    if len({p.key for p in pairs}) != len(pairs):
        raise BadInput("check_pairs: two pairs share a key")
    out: dict[str, PairVerdict] = {}
    searches: list[SkeletonPair] = []
    for p in pairs:
        try:
            ref = with_written_value(p.reference, read_statement(p.reference, "reference"))
            cand = with_written_value(p.candidate, read_statement(p.candidate, "candidate"))
        except StatementError as err:
            if strict:
                raise
            out[p.key] = PairVerdict("error", "kernel", (), False, {}, (), str(err), p.key)
            continue
        context = p.context or ""
        other = context if p.candidate_context is None else p.candidate_context
        searches.append(SkeletonPair(p.key, ref, cand, mathlib, context, other))
    if searches:
        lean = kernel_lean()
        verdicts = skeleton_score(searches, lean, n_jobs=settings.jobs, cache_dir=settings.cache,
                                  strict=settings.lean_checked_only)
        for search in searches:
            out[search.key] = _verdict(search, verdicts.get(search.key))
        by_key = {p.key: p for p in pairs}
        todo = [(s.key, by_key[s.key].reference, s.reference_context, by_key[s.key].candidate, s.candidate_context)
                for s in searches if out[s.key].verdict != "pass"]
        for key in lean_equal_keys(todo, lean):  # the same rule as pyshadow.kernel.pairs.evaluate
            old = out[key]  # Lean proved the two statements one proposition: every check holds
            out[key] = replace(old, verdict="pass", reason=None, forward=tuple(True for _ in old.forward),
                               backward=True, messages={}, undecided_pairs=(), lean="equal")
    return [out[p.key] for p in pairs]


def _verdict(search: SkeletonPair, v: SkeletonVerdict | None) -> PairVerdict:
    """The pass / undecided / fail reading of ``pyshadow.kernel.pairs.evaluate``."""
    if v is None:
        return PairVerdict("error", "kernel", (), False, {}, (), "no verdict from the skeleton engine", search.key,
                           search=search)
    failed = [f"forward:{i}" for i, ok in enumerate(v.forward, start=1) if not ok] + ([] if v.backward else
                                                                                     ["backward"])
    if not v.error and all(v.forward) and v.backward:
        verdict, reason = "pass", None
    elif v.error:
        verdict, reason = "fail", v.error
    else:
        verdict = "undecided" if v.is_undecided else "fail"
        first = failed[0] if failed else ""
        reason = f"{len(failed)} check(s) failed ({', '.join(failed)}); {first}: {v.messages.get(first, 'failed')}"
        if v.is_undecided:
            reason = v.undecided_reason()
    messages = {role: v.messages.get(role, "failed") for role in failed}
    return PairVerdict(verdict, "kernel", tuple(v.forward), bool(v.backward), messages,
                       tuple((a, b) for a, b in v.undecided), reason, search.key, v.lean, search)


def shadows(statement: str, *, mathlib: bool = True) -> ShadowSet:
    """The shadows the rules derive from ``statement`` and the full-tier checkers built from them (what
    ``pyshadow shadows`` writes per corpus line). No Lean runs, and no proof is read. ``StatementError`` (one line) when the statement
    does not parse or cannot be checked (an ``example``: checkers need a name). A data declaration (``def x : T``)
    is read as ``Nonempty T``, as a problem's reference is (``pyshadow.references``)."""
    decl = read_statement(statement, "")
    if is_data_declaration(decl):  # `def x : T` states that T is inhabited: checked as `Nonempty T`, as references are
        decl = data_as_proposition(decl)
    if reason := uncheckable_reason(decl):
        raise StatementError(f"the statement cannot be checked: {reason}")
    dec = decompose(decl, mathlib=mathlib)
    checkers = full_tier_checkers(decl.name or "statement", decl.name, decl, dec)
    found = tuple(Shadow(s.kind, s.path_text, render_term(s.statement), s.provenance) for s in dec.shadows)
    return ShadowSet(decl.name, dec.status, found, tuple(c.text for c in checkers.forward),
                     checkers.backward.text if checkers.backward else None)
