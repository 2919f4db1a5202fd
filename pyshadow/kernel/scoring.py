"""The skeleton's scoring driver: every pair's checks run in real Lean, then the passes that refine the verdicts.

``skeleton_score`` builds each pair's block (``pyshadow.kernel.skeleton.skeleton_block``), runs them in batches
of Lean files, and reads the verdicts; then, in order: a failed candidate with a flatter shape is tried again
(``reshape.reshaped``); a failed pair whose atoms differ only where the kernel tier cannot judge is re-checked with
those atoms read as one (*undecided*: ``pyshadow.kernel.undecided``), and Lean settles what it can of those atom
pairs by a table lemma (``pyshadow.kernel.lemma_pairs``); finally Lean checks every pass's and undecided verdict's
terms against the statements as it elaborates them (``pyshadow.kernel.lean_check``): Lean disposes.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from ..errors import PyshadowError
from ..lean.batch import LeanJob, run_jobs
from ..lean.toolchain import LeanExecutable
from .abstract import PRELUDE
from .check import block_spans
from .definitions import normalize_declaration
from .lean_check import ACCEPTED, REJECTED, lean_check
from .lemma_pairs import lemma_rewrites, lemma_upgrade, settle_atom_pairs, settlement_message
from .reading_check import plain
from .reshape import reshaped
from .search import ELIMINATORS
from .skeleton import SkeletonBlock, SkeletonPair, SkeletonVerdict, skeleton_block, skeleton_search
from .undecided import AtomPair, aligned_atom_pairs


def skeleton_score(pairs: Sequence[SkeletonPair], lean: LeanExecutable, *, n_jobs: int = -1,
                   cache_dir: Path | None = None, batch_size: int = 80, recheck: bool = True,
                   lean_checked: bool = True, strict: bool = False) -> dict[str, SkeletonVerdict]:
    """Build every pair's checks, run them in real Lean (one file per candidate), and read the verdicts; failed
    pairs get the undecided re-check (``_recheck_undecided``) unless ``recheck`` is off; then, unless
    ``lean_checked`` is off, Lean checks the terms of every pass and undecided verdict against the elaborated
    statements (``pyshadow.kernel.lean_check``): Lean disposes. ``strict``: a pass of a Mathlib problem that Lean
    did not check (``unchecked``: it rests on the skeleton's readings alone) is *undecided* instead."""
    blocks: list[SkeletonBlock] = []
    verdicts: dict[str, SkeletonVerdict] = {}
    for n, pair in enumerate(pairs):
        if pair.candidate.type is None:
            verdicts[pair.key] = SkeletonVerdict(pair.key, [], False, {}, "the candidate has no stated type")
            continue
        blocks.append(skeleton_block(pair, f"C{n}"))
    # Several candidates share one Lean file (each in its own namespace; only generated constant names reach
    # Lean, never candidate text), so a large run starts few processes; a candidate's checks never span files.
    jobs, job_of = [], {}
    # At most `batch_size` candidates per file, but at least one file per Lean process when there are few.
    processes = n_jobs if n_jobs > 0 else (os.cpu_count() or 1)
    batch_size = max(1, min(batch_size, -(-len(blocks) // processes)))
    for start in range(0, len(blocks), batch_size):
        chunk = blocks[start : start + batch_size]
        text = PRELUDE + ELIMINATORS + "\n" + "\n".join(b.text for b in chunk)
        spans = block_spans(text)
        allowed = frozenset().union(*(b.axioms for b in chunk))
        key = f"skeleton-{start // batch_size}:" + ",".join(b.key for b in chunk)
        jobs.append(LeanJob(key=key, text=text, spans=spans, allowed_axioms=allowed))
        job_of.update({b.key: key for b in chunk})
    results = {r.key: r for r in run_jobs(jobs, lean, n_jobs=n_jobs, cache_dir=cache_dir)} if jobs else {}
    for b in blocks:
        r = results[job_of[b.key]]
        passed = {name: v for name, v in r.verdicts.items()}
        role_ok: dict[str, bool] = {}
        messages = dict(b.unbuilt)
        for name, role in b.checks.items():
            v = passed.get(name)
            role_ok[role] = bool(v and v.passed)
            if not role_ok[role]:
                messages[role] = v.reason if v else "no verdict"
        forward = [role_ok.get(f"forward:{i}", False) for i in range(1, b.n_forward + 1)]
        verdicts[b.key] = SkeletonVerdict(b.key, forward, role_ok.get("backward", False), messages)
    if recheck:
        run = {"n_jobs": n_jobs, "cache_dir": cache_dir, "batch_size": batch_size}
        flat = _retry_reshaped(pairs, verdicts, lean, **run)
        settled = _recheck_undecided(pairs, verdicts, lean, flat, **run)
        if lean_checked:
            _lean_disposes(pairs, verdicts, lean, {b.key: b.search for b in blocks}, flat, n_jobs)
            lemma_upgrade(pairs, verdicts, settled, lean, n_jobs)
            if strict:
                _require_lean(pairs, verdicts)
    return verdicts


def _require_lean(pairs: Sequence[SkeletonPair], verdicts: dict[str, SkeletonVerdict]) -> None:
    """Strict scoring: a Mathlib pair's pass that Lean did not check becomes undecided (every role), with why."""
    for pair in pairs:
        v = verdicts.get(pair.key)
        if v is None or not v.passed or not pair.mathlib or v.lean != "unchecked":
            continue
        v.undecided_roles = [f"forward:{i}" for i in range(1, len(v.forward) + 1)] + ["backward"]
        v.forward, v.backward = [False] * len(v.forward), False
        v.messages = {role: v.undecided_reason() for role in v.undecided_roles}


def _lean_disposes(pairs: Sequence[SkeletonPair], verdicts: dict[str, SkeletonVerdict], lean,
                   searches: dict, flat: dict[str, SkeletonPair], n_jobs: int) -> None:
    """Lean's check of the terms (``lean_check``) applied: a pass Lean rejects becomes undecided, an undecided
    verdict whose re-check terms Lean accepts (the atoms are definitionally equal as Lean elaborates them)
    becomes a pass; an unchecked one keeps the skeleton's verdict, marked so."""
    items = []
    for pair in pairs:
        v = verdicts.get(pair.key)
        if v is None or v.error:
            continue
        if v.passed and searches.get(pair.key) is not None:
            items.append((pair, searches[pair.key]))
        elif v.undecided:
            source = pair if undecided_atom_pairs(pair) else flat.get(pair.key, pair)
            aliased = replace(source, aliases=undecided_aliases(source))
            items.append((aliased, skeleton_search(aliased)))
    for key, check in lean_check(items, lean, n_jobs=n_jobs).items():
        v = verdicts[key]
        v.lean, v.lean_reason = check.status, check.reason
        if check.status == ACCEPTED and check.read:
            # the reading is the skeleton's, not Lean's (``reading_check`` proved no equivalence): not a check
            v.lean, v.lean_reason = "unchecked", "accepted only against the read statements, a reading Lean has not proved"
        if v.passed and check.status == REJECTED:
            role = check.role
            if role.startswith("forward:"):
                v.forward[int(role.split(":")[1]) - 1] = False
            else:
                v.backward = False
            v.undecided_roles = [role]
            v.messages[role] = v.undecided_reason()
        elif not v.passed and v.undecided and check.status == ACCEPTED and not check.read:
            # Only the written statements: the read ones print atoms as canonical keys, which are the very
            # reading an upgrade must not rest on.
            v.forward, v.backward = [True] * len(v.forward), True
            v.undecided, v.undecided_roles, v.messages = [], [], {}


def _retry_reshaped(pairs: Sequence[SkeletonPair], verdicts: dict[str, SkeletonVerdict], lean, **run
                    ) -> dict[str, SkeletonPair]:
    """Failed pairs whose candidate has a flatter shape (``reshape.reshaped``: the conclusion's ∀/→ as binders,
    conjunctive hypotheses split) are run again with it; a check either run proves passes. Returns those pairs
    with the candidate reshaped, by key (the undecided re-check's second choice)."""
    again = []
    for pair in pairs:
        v = verdicts.get(pair.key)
        flat = reshaped(pair.candidate) if v is not None and not v.error and not v.passed else pair.candidate
        if flat != pair.candidate:
            again.append(replace(pair, candidate=flat))
    out = {pair.key: pair for pair in again}
    if again:
        second = skeleton_score(again, lean, recheck=False, **run)
        for pair in again:
            v, w = verdicts[pair.key], second.get(pair.key)
            if w is None or w.error or len(w.forward) != len(v.forward):
                continue
            v.forward = [a or b for a, b in zip(v.forward, w.forward)]
            v.backward = v.backward or w.backward
            passed = {f"forward:{i}" for i, ok in enumerate(v.forward, start=1) if ok} | ({"backward"} if v.backward else set())
            v.messages = {r: (w.messages.get(r) or m) for r, m in v.messages.items() if r not in passed}
    return out


def undecided_atom_pairs(pair: SkeletonPair) -> list[AtomPair]:
    """The aligned atom pairs of ``pair`` the kernel tier cannot judge (``undecided.aligned_atom_pairs``)."""
    ref = normalize_declaration(pair.reference, pair.reference_context)
    cand = normalize_declaration(pair.candidate, pair.candidate_context)
    return aligned_atom_pairs(ref, cand)


def undecided_aliases(pair: SkeletonPair) -> tuple[tuple[str, str], ...]:
    """``SkeletonPair.aliases`` for the undecided re-check: each candidate atom read as the reference's atom over
    the candidate atom's own variables (``AtomPair.read_as``)."""
    return tuple((p.read_as, p.candidate) for p in undecided_atom_pairs(pair))


def _recheck_undecided(pairs: Sequence[SkeletonPair], verdicts: dict[str, SkeletonVerdict], lean,
                       flat: dict[str, SkeletonPair] | None = None, **run) -> dict:
    """Failed pairs whose aligned atoms differ only where the kernel tier cannot judge (``undecided.py``) — or at a
    relation Lean proves equal by a table lemma (``lemma_pairs.lemma_rewrites``) — are run again with those atoms
    read as one; where that passes, the verdict becomes *undecided*, naming the pairs, and the checks that passed
    only so are listed in ``undecided_roles``. Returns, by key, the pair re-checked and Lean's answer on each of its
    atom pairs (``lemma_pairs.AtomSettlement``), for ``lemma_pairs.lemma_upgrade``."""
    again: list[SkeletonPair] = []
    shown: dict[str, list[tuple[str, str]]] = {}
    found: dict[str, list[AtomPair]] = {}
    unaligned: dict[str, SkeletonPair] = {}
    presettled: dict = {}  # key -> the lemma_pairs.AtomSettlement rows Lean already proved
    for pair in pairs:
        v = verdicts.get(pair.key)
        if v is None or v.error or v.passed:
            continue
        atom_pairs = undecided_atom_pairs(pair)
        if not atom_pairs and flat and pair.key in flat:  # the reshaped candidate's atoms may align instead
            pair = flat[pair.key]
            atom_pairs = undecided_atom_pairs(pair)
        if atom_pairs:
            again.append(replace(pair, aliases=tuple((p.read_as, p.candidate) for p in atom_pairs)))
            shown[pair.key] = [(p.reference, p.candidate) for p in atom_pairs]
            found[pair.key] = atom_pairs
        else:  # a difference at a relation or connective: a table lemma may restate it (lemma_pairs.lemma_rewrites)
            unaligned[pair.key] = pair
    try:
        rewritten = lemma_rewrites([(k, normalize_declaration(p.reference, p.reference_context),
                                     normalize_declaration(p.candidate, p.candidate_context), p.reference_context,
                                     p.candidate_context) for k, p in unaligned.items()], lean) if unaligned else {}
    except PyshadowError:
        rewritten = {}
    for key, (cand2, rows) in rewritten.items():
        # cand2 is a read statement (its inner bound names `x✝1`, which reading it again would split): as text
        again.append(replace(unaligned[key], candidate=plain(cand2)))
        shown[key] = [(r.pair.reference, r.pair.candidate) for r in rows]
        presettled[key] = rows
    if not again:
        return {}
    second = skeleton_score(again, lean, recheck=False, **run)
    asked, out = [], {}
    for pair in again:
        w = second.get(pair.key)
        if w is None or not w.passed:
            continue
        v = verdicts[pair.key]
        v.undecided = shown[pair.key]  # as each statement writes its atom
        v.undecided_roles = [f"forward:{i}" for i, ok in enumerate(v.forward, start=1) if not ok]
        if not v.backward:
            v.undecided_roles.append("backward")
        if pair.key in presettled:
            v.messages["atom lemmas"] = settlement_message(presettled[pair.key])
            out[pair.key] = (unaligned[pair.key], presettled[pair.key])
            continue
        asked.append((pair.key, normalize_declaration(pair.candidate, pair.candidate_context),
                      pair.candidate_context, pair.reference_context, found[pair.key]))
    try:  # which lemma settles which pair, for the report (lemma_pairs.settle_atom_pairs): never a pass by itself
        settled = settle_atom_pairs(asked, lean) if asked else {}
    except PyshadowError as err:
        settled, reason = {}, str(err).splitlines()[0]
        for key, *_ in asked:
            verdicts[key].messages["atom lemmas"] = f"not asked: {reason}"
    for key, rows in settled.items():
        verdicts[key].messages["atom lemmas"] = settlement_message(rows)
        out[key] = (next(p for p in again if p.key == key), rows)
    return out


__all__ = ["skeleton_score", "undecided_aliases", "undecided_atom_pairs"]
