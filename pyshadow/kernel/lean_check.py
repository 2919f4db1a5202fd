"""Lean disposes: the skeleton search's proof terms checked against the statements as Lean elaborates them.

The skeleton search (``pyshadow.kernel.skeleton``) proves its checks over opaque atoms, and which atoms are one is
a Python reading (canonical keys). Here the same terms, printed with real names (``pyshadow.kernel.concrete``),
are checked by the kernel-tier Lean against the reference's shadows and the candidate as its own elaborator reads
them in the signature environment (``pyshadow.elab``), each statement in its own context:

- the candidate is ``axiom stmt <binders> : <type>`` in its context (``K<n>.C``);
- forward ``i`` is ``theorem fwd <reference binders> : <shadow i> := <term>`` in the reference's context;
- the backward check is ``theorem bwd (hS_1 : K<n>.R1.S) … : type_of% @<candidate> := <term>``, each
  ``K<n>.Ri.S`` an ``abbrev`` of shadow ``i`` closed over the reference's binders (variables implicit) in the
  reference's context — the full tier's goal and hypotheses (``pyshadow.shadows.checkers``), term for term.

Lean accepts a term exactly when the atoms it relates are definitionally equal as elaborated: casts, binder types,
name resolution and unfolding are Lean's. ``lean_check`` returns, per pair, ``accepted`` (every role's term is
Lean's proof), ``rejected`` with Lean's first error (a statement reading Lean does not share: the skeleton's pass
is then *undecided*, never a pass), or ``unchecked`` with why (a statement the environment cannot elaborate, a role
without a term, a core-only problem; the skeleton's verdict then stands alone, and reports say so).
"""

from __future__ import annotations

import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields, is_dataclass, replace
from pathlib import Path
from typing import Sequence

from ..elab.elaborate import BATCH_TIMEOUT_S, MIN_PER_PROCESS, processes, run_blocks
from ..elab.statements import (LeanStatement, lean_statement, scoped_block, shared_block, shared_declarations,
                               without_declarations)
from ..elab.translate import Untranslatable
from ..errors import PyshadowError
from ..lean.toolchain import LeanExecutable
from ..shadows.rules import decompose
from ..syntax.ast import Atom, Binder, Declaration, is_proposition
from ..syntax.parser import ParseError, parse_declaration
from ..syntax.render import render_declaration
from .concrete import concrete_terms, full_certificate_prefix, written_pair
from .local_definitions import open_slots
from .reading_check import plain, readings_proved
from .skeleton import SkeletonPair, SkeletonSearch, skeleton_search

ACCEPTED, REJECTED, UNCHECKED = "accepted", "rejected", "unchecked"


@dataclass(frozen=True)
class LeanCheck:
    """Lean's answer for one pair's skeleton terms."""

    key: str
    status: str  # accepted | rejected | unchecked
    reason: str = ""  # rejected: the role and Lean's first error; unchecked: why Lean was not asked
    role: str = ""  # rejected: the first role Lean rejected
    read: bool = False  # decided against the statements as the search read them (normalised), not as written

    @property
    def accepted(self) -> bool:
        return self.status == ACCEPTED


# the search's shadows are the read reference's; checked against it, with the reading proved (``reading_check``)
_OTHER_SHADOWS = "the written reference decomposes into other shadows than the read one"


@dataclass
class _Plan:
    key: str
    blocks: list[tuple[str, str]]  # (role or "statement", block text), in file order


def lean_check(items: Sequence[tuple[SkeletonPair, SkeletonSearch]], lean: LeanExecutable, *,
               cache_root: Path | None = None, timeout_s: float = BATCH_TIMEOUT_S,
               n_jobs: int = -1) -> dict[str, LeanCheck]:
    """One ``LeanCheck`` per ``(pair, search)`` by key; the pairs split over ``n_jobs`` Lean processes (all
    cores when negative), run twice at most.

    The terms are first checked against the statements as written. The search reads a statement after its
    normalisations (``pyshadow.kernel.definitions.normalize_declaration``: a variable a hypothesis fixes
    substituted, a definition unfolded); where those changed the statement's shape, its terms are over the read
    statement, so a term Lean rejects against the written one is checked again against the read one, printed as
    Lean text: Lean then judges the atoms, and the normalisation stays the skeleton's reading."""
    searches = {pair.key: (pair, search) for pair, search in items}
    run = {"lean": lean, "cache_root": cache_root, "timeout_s": timeout_s, "n_jobs": n_jobs}
    out = _run([(pair, search, written_pair(search)) for pair, search in items], **run)
    again = []
    for key, check in out.items():
        pair, search = searches[key]
        if check.reason == _OTHER_SHADOWS or check.status == REJECTED and not (
                same_shape(search.reference, written_pair(search)[0])
                and same_shape(search.candidate, written_pair(search)[1])):
            again.append((pair, search, (_slots_named(plain(search.reference), pair.reference_context),
                                         _slots_named(plain(_read_candidate(pair, search)), pair.candidate_context))))
    if again:
        second = _run(again, read=True, **run)
        for key, check in second.items():
            out[key] = check if check.status != UNCHECKED else replace(
                out[key], status=UNCHECKED, reason=f"{out[key].reason}; against the read statements: {check.reason}")
        _prove_readings([(searches[k], out[k]) for k in second], out, lean, timeout_s, n_jobs)
    return out


def _prove_readings(checked, out: dict[str, LeanCheck], lean, timeout_s: float, n_jobs: int = -1) -> None:
    """Checks accepted against the read statements become checks of the written ones where Lean also proves each
    written statement equivalent to its reading (``reading_check``: the substitutions replayed step by step)."""
    items, sides = [], {}
    for (pair, search), check in checked:
        if check.status != ACCEPTED or not check.read:
            continue
        reference, candidate = written_pair(search)
        mine = []
        for tag, written, read, ctx in (
                ("R", reference, _slots_named(plain(search.reference), pair.reference_context),
                 pair.reference_context),
                ("C", candidate, _slots_named(plain(_read_candidate(pair, search)), pair.candidate_context),
                 pair.candidate_context)):
            if render_declaration(written) != render_declaration(read):
                mine.append(f"{pair.key}#{tag}")
                items.append((f"{pair.key}#{tag}", written, read, ctx))
        sides[pair.key] = mine
    if not items:
        return
    proved = readings_proved(items, lean, timeout_s=timeout_s, n_jobs=n_jobs)
    for key, mine in sides.items():
        if mine and all(proved.get(k) for k in mine):
            out[key] = LeanCheck(key, ACCEPTED, "against the read statements, each of which Lean proves equivalent "
                                                "to the written one (its substitutions replayed, its definitions unfolded)")


def _run(items, *, lean, cache_root, timeout_s, n_jobs: int, read: bool = False) -> dict[str, LeanCheck]:
    out: dict[str, LeanCheck] = {}
    plans: list[_Plan] = []
    for n, (pair, search, written) in enumerate(items):
        plan = _plan(n, pair, replace(search, written=written))
        if isinstance(plan, LeanCheck):
            out[pair.key] = plan
        else:
            plans.append(plan)
    if not plans:
        return out
    n = processes(n_jobs, len(plans))
    with ThreadPoolExecutor(max_workers=n) as pool:
        for part in pool.map(lambda chunk: _run_plans(chunk, lean, cache_root, timeout_s, read),
                             _chunks(plans, n)):
            out.update(part)
    return out


# Pieces of work per Lean process: a statement can cost a second where most cost milliseconds, so the plans go
# to the processes in several chunks, the largest first, each to whichever process is free.
CHUNKS_PER_PROCESS = 3


def _chunks(plans: list[_Plan], n: int) -> list[list[_Plan]]:
    """``plans`` in about ``CHUNKS_PER_PROCESS * n`` chunks (never under ``MIN_PER_PROCESS`` plans), largest
    text first; plans over the same reference stay in one chunk, so its shadow blocks are elaborated once."""
    group = lambda p: p.blocks[1][1] if len(p.blocks) > 1 else ""  # noqa: E731
    plans = sorted(plans, key=group)
    pieces = 1 if n == 1 else max(n, min(CHUNKS_PER_PROCESS * n, len(plans) // MIN_PER_PROCESS))
    size = -(-len(plans) // pieces)
    chunks: list[list[_Plan]] = [[]]
    for k, plan in enumerate(plans):
        if len(chunks[-1]) >= size and group(plan) != group(plans[k - 1]):
            chunks.append([])
        chunks[-1].append(plan)
    return sorted(chunks, key=lambda c: -sum(len(text) for p in c for _, text in p.blocks))


def _run_plans(plans: list[_Plan], lean, cache_root, timeout_s, read: bool) -> dict[str, LeanCheck]:
    out: dict[str, LeanCheck] = {}
    # owner[i]: the (key, role)s block i decides; block 0 bounds every later command (``HEARTBEATS``)
    blocks, owner, seen = [(0, f"set_option maxHeartbeats {HEARTBEATS}")], [[]], {}
    for plan in plans:
        for role, text in plan.blocks:
            # the read statements name their bound variables `x✝1`, which Lean's parser does not accept
            text = text.replace("✝", "_read") if read else text
            if text in seen:
                owner[seen[text]].append((plan.key, role))
                continue
            seen[text] = len(blocks)
            owner.append([(plan.key, role)])
            blocks.append((len(blocks), text))
    sorry: set[int] = set()
    try:
        result, errors = run_blocks(blocks, lean, cache_root=cache_root, timeout_s=timeout_s, sorry=sorry)
    except PyshadowError as err:
        return {p.key: LeanCheck(p.key, UNCHECKED, f"the environment is not available: {err}") for p in plans}
    first: dict[str, tuple[str, str]] = {}
    sorried: set[str] = set()
    for index, owners in enumerate(owner):
        for key, role in owners:
            if index in errors and key not in first:
                first[key] = (role, errors[index].splitlines()[0])
            if index in sorry:
                sorried.add(key)
    for plan in plans:
        key = plan.key
        if result.status != "ok":
            out[key] = LeanCheck(key, UNCHECKED, f"Lean did not finish: {result.detail}")
        elif key in sorried:
            out[key] = LeanCheck(key, UNCHECKED, "a statement uses `sorry`")
        elif key in first:
            role, message = first[key]
            if role == "statement" and message.startswith(_STATEMENT_ERRORS):
                # an error in the statement itself, not a gap of the environment: not a pass even unchecked
                out[key] = LeanCheck(key, REJECTED, f"{role}: {message}", role, read=read)
            elif role == "statement":
                out[key] = LeanCheck(key, UNCHECKED, f"a statement does not elaborate in the environment: {message}")
            else:
                out[key] = LeanCheck(key, REJECTED, f"{role}: {message}", role, read=read)
        else:
            out[key] = LeanCheck(key, ACCEPTED, "against the read statements" if read else "", read=read)
    return out


# Errors a statement earns itself, whatever the environment declares: `[h : T]` with `T` not a class
# (src/Lean/Elab/Binders.lean, `checkBinderAnnotations`, on by default). Rejecting makes a pass undecided, so an
# environment that lacked a class would cost a pass, never give one.
_STATEMENT_ERRORS = ("invalid binder annotation",)


def _plan(n: int, pair: SkeletonPair, search: SkeletonSearch) -> _Plan | LeanCheck:
    key = pair.key
    if not pair.mathlib:
        return LeanCheck(key, UNCHECKED, "a core-only problem: the environment restates Mathlib")
    reference, candidate = written_pair(search)
    try:
        cand = lean_statement(candidate, pair.candidate_context)
        cand_block, cand_name = scoped_block(f"K{n}.C", cand, cand.axiom_command)
        shadows = _written_shadows(reference, pair, len(search.shadows))
        if shadows is None:
            return LeanCheck(key, UNCHECKED, _OTHER_SHADOWS)
        closed = [lean_statement(replace(reference, binders=_implicit_variables(reference.binders), type=s),
                                 pair.reference_context) for s in shadows]
    except (ParseError, Untranslatable) as err:
        return LeanCheck(key, UNCHECKED, f"not printed for Lean: {str(err).splitlines()[0]}")
    if any(len(s.universes) != len(cand.universes) for s in closed):
        return LeanCheck(key, UNCHECKED, "the statements have different numbers of universes")
    terms = concrete_terms(search, cand_name)
    missing = sorted(terms.why)
    if missing or terms.backward is None or len(terms.forward) != len(shadows):
        why = "; ".join(f"{r}: {terms.why[r]}" for r in missing) or "the search found no term"
        return LeanCheck(key, UNCHECKED, f"no term to check ({why})")
    levels = _levels(cand.universes)
    shared = shared_declarations(closed[0].context.commands, cand.context.commands)
    blocks: list[tuple[str, str]] = [("statement", shared_block(f"K{n}", closed[0], shared))] if shared else []
    if shared:
        cand, closed = without_declarations(cand, shared), [without_declarations(c, shared) for c in closed]
        cand_block = scoped_block(f"K{n}.C", cand, cand.axiom_command)[0]
    blocks.append(("statement", cand_block))
    names = []
    for i, stmt in enumerate(closed, start=1):
        command = stmt.proposition("abbrev")
        # without shared declarations a shadow depends on its text and context only: one block for every
        # candidate of the same reference (named by a digest of both)
        space = f"K{n}.R{i}" if shared else f"S{_digest(stmt, command)}"
        block, name = scoped_block(space, stmt, command)
        blocks.append(("statement", block))
        names.append(name)
    # The checks themselves need no context: every name in a term is a local, a full name or a root lemma.
    for i, (stmt, name) in enumerate(zip(closed, names), start=1):
        binders = " ".join(_fun_binder(g) for g in stmt.binders)
        body = f"fun {binders} =>\n  {terms.forward[i]}" if binders else terms.forward[i]
        blocks.append((f"forward:{i}", f"theorem K{n}.F{i}.fwd{levels} : {name}{levels} :=\n  {body}"))
    prefix = full_certificate_prefix(search)
    hyps = " ".join(f"({prefix}{i} : {name}{levels})" for i, name in enumerate(names, start=1))
    blocks.append(("backward", f"theorem K{n}.B.bwd{levels} {hyps} : type_of% @{cand_name}{levels} :=\n"
                               f"  {terms.backward}"))
    return _Plan(key, blocks)


def _slots_named(decl: Declaration, context: str) -> Declaration:
    """A read statement with each open answer's tag (``…_solution_def<hash>``) written as the name the context
    declares the slot under, which Lean knows (``local_definitions.open_slots``)."""
    slots = open_slots(context)
    text = render_declaration(decl)
    if not any(tag in text for tag in slots):
        return decl
    for tag, name in slots.items():
        text = re.sub(rf"(?<![\w.']){re.escape(tag)}(?![\w'])", name, text)
    return parse_declaration(text)


def _read_candidate(pair: SkeletonPair, search: SkeletonSearch) -> Declaration:
    """The candidate as the search read it *before* its atoms were read as the reference's (the undecided
    re-check's aliases): the atoms Lean must judge are the candidate's own."""
    if not pair.aliases:
        return search.candidate
    return skeleton_search(replace(pair, aliases=())).candidate


def same_shape(read: Declaration, written: Declaration) -> bool:
    """The two declarations have the same binders (names, brackets) and the same logical tree, atoms aside: the
    search's terms over ``read`` are then terms over ``written``."""
    if len(read.binders) != len(written.binders):
        return False
    for a, b in zip(read.binders, written.binders):
        if a.names != b.names or a.bracket != b.bracket or not _same_tree(a.type, b.type):
            return False
    return _same_tree(read.type, written.type)


def _same_tree(a, b) -> bool:
    if isinstance(a, Atom) and isinstance(b, Atom):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, Binder):
        return a.names == b.names and a.bracket == b.bracket and _same_tree(a.type, b.type) and (
            (a.bound is None) == (b.bound is None))
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same_tree(x, y) for x, y in zip(a, b))
    if not is_dataclass(a):
        return a == b
    return all(_same_tree(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))


def _written_shadows(reference: Declaration, pair: SkeletonPair, count: int):
    """The reference's shadows as written (the search's are over its read atoms): the same decomposition."""
    if reference.type is None:
        return None
    if pair.whole:
        return [reference.type]
    shadows = [s.statement for s in decompose(reference, mathlib=pair.mathlib).shadows]
    return shadows if len(shadows) == count else None


def _implicit_variables(binders: tuple[Binder, ...]) -> tuple[Binder, ...]:
    """The certificate hypotheses' binders: variables implicit, hypotheses and instances as written (the kernel
    tier's ``Printer.binders(implicit_variables=True)``)."""
    return tuple(b if (b.is_instance or (b.type is not None and is_proposition(b))) else replace(b, bracket="{")
                 for b in binders)


# Lean's budget per command (``maxHeartbeats``, in thousands; set once at the top of each file): a statement the
# environment makes the elaborator search long for (numerals under `^` without Init's default instances) is cut off
# and left unchecked, not waited for.
HEARTBEATS = 20000


def _digest(stmt: LeanStatement, command: str) -> str:
    text = "\n".join([*stmt.context.commands, str(stmt.context.auto_implicit), command])
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _fun_binder(group: str) -> str:
    """A printed binder group as the ``fun`` binder that introduces it under its own names and kind:
    ``{u v : T}`` → ``{u v}``, ``(h : P)`` → ``h``; an instance binder keeps its class (``[Group G]``)."""
    if group.startswith("["):
        return group
    names = group[1:-1].split(" : ", 1)[0].strip()
    return {"(": names, "{": f"{{{names}}}", "⦃": f"⦃{names}⦄"}.get(group[0], names)


def _levels(universes: tuple[str, ...]) -> str:
    return f".{{{', '.join(universes)}}}" if universes else ""


__all__ = ["ACCEPTED", "REJECTED", "UNCHECKED", "LeanCheck", "lean_check"]
