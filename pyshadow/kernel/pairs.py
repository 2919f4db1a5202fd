"""Labelled statement pairs through skeleton SA-Pass: recall, precision and the undecided rate.

A pair is two real formalizations of one problem (``tests/fixtures/pairs/dev_pairs.jsonl``), labelled by hand as
the same meaning or changed. Side ``a`` is the reference, side ``b`` the candidate; a pair *passes* when every
forward shadow and the backward certificate pass, is *undecided* when the structures match but some atom pairs
differ in a way the kernel tier cannot judge, and *fails* otherwise.

- recall: same-meaning pairs that pass / same-meaning pairs;
- precision: passed pairs that are same-meaning / passed pairs (the bar: no changed pair ever passes);
- undecided rate: undecided pairs / all pairs.

Figures are reported overall, per pair family (``origin``) and per diff category (``diff``). With a model
(``judge_undecided``, ``benchmarks/skeleton_pairs.py --llm …``) each undecided pair's atom pairs are asked about
(``pyshadow.llm.same_term``) and a second column, *skeleton + LLM*, gets its own recall and precision: an
undecided pair passes there only when every atom pair is answered the same (and its failed checks are exactly those
the atom pairs account for), fails when one is answered different. It is a model's opinion, not a Lean check, and
never changes the skeleton's figures.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Iterable, Sequence

from ..elab.elaborate import StatementInput
from ..elab.equivalence import definitional_equivalence
from ..llm.same_term import AtomPairJudge, AtomQuestion, combine, term_scope
from ..syntax import ParseError, parse_declaration
from ..syntax.scanner import declarations
from .answers import declared_value, is_data_declaration, open_data_statement, with_value
from .skeleton import SkeletonPair
from .scoring import skeleton_score


@dataclass(frozen=True)
class LabelledPair:
    id: str
    a: str
    b: str
    a_context: str
    b_context: str
    same_meaning: bool
    diff: str
    origin: str
    unsure: bool = False


@dataclass
class PairResult:
    pair: LabelledPair
    verdict: str  # pass | fail | undecided | error
    reason: str = ""
    atom_pairs: list[tuple[str, str]] = field(default_factory=list)
    failed_roles: list[str] = field(default_factory=list)  # undecided: the checks that failed (forward:i, backward)
    undecided_roles: list[str] = field(default_factory=list)  # … and those that pass once the atoms are one
    llm: dict | None = None  # the skeleton + LLM column (``judge_undecided``): {"verdict", "answers"}
    lean: str = ""  # Lean's check of a verdict's terms (``kernel.lean_check``: accepted | rejected | unchecked), or
    # ``equal`` when Lean elaborates the two statements to one proposition (``lean_equal_keys``)

    @property
    def llm_verdict(self) -> str | None:
        return self.llm["verdict"] if self.llm else None

    def to_dict(self) -> dict:
        out = {"id": self.pair.id, "same_meaning": self.pair.same_meaning, "diff": self.pair.diff,
               "origin": self.pair.origin, "verdict": self.verdict, "reason": self.reason,
               "atom_pairs": [list(p) for p in self.atom_pairs], "lean": self.lean}
        if self.llm is not None:
            out["skeleton_llm"] = self.llm
        return out


def read_pairs(path: Path) -> list[LabelledPair]:
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        out.append(LabelledPair(r["id"], r["a"], r["b"], r.get("a_context", ""), r.get("b_context", ""),
                                bool(r["same_meaning"]), r.get("diff", ""), r.get("origin", ""),
                                bool(r.get("unsure", False))))
    return out


# A shard is a Python process of its own (it imports pyshadow and starts its own Lean processes): worth it only
# for this many pairs at least.
SHARD_MIN = 200


def evaluate(pairs: Sequence[LabelledPair], lean, *, n_jobs: int = -1, cache_dir=None,
             lean_checked: bool = True, strict: bool = False) -> list[PairResult]:
    """Skeleton SA-Pass of every pair (``b`` as the candidate for reference ``a``); ``lean_checked`` off skips
    Lean's check of the terms against the elaborated statements (``skeleton_score``), for measuring its cost;
    ``strict``: a pass Lean did not check is undecided.

    A pair's verdict depends on that pair alone, so a large run is split into shards (``_shards``), one Python
    process each (``n_jobs`` of them, all cores when not positive): the skeleton search is Python, and one
    process would keep one core busy while the other waits for Lean. This process runs the first shard itself,
    and with a core for every shard each shard is held to its own (``_shard_cpus``). The rows come back in the
    pairs' order."""
    cores = n_jobs if n_jobs > 0 else (os.cpu_count() or 1)
    shards = max(1, min(cores, len(pairs) // SHARD_MIN))
    if shards == 1:
        return _evaluate(pairs, lean, n_jobs, cache_dir, lean_checked, strict)
    parts = _shards(pairs, shards)
    jobs = max(1, cores // shards)  # the Lean processes each shard starts at once
    cpus = _shard_cpus(shards)
    run = (lean, jobs, cache_dir, lean_checked, strict)
    at: dict[int, PairResult] = {}
    # This process runs the first shard itself while the others start (each imports pyshadow anew: ≈ 1 s).
    with ProcessPoolExecutor(shards - 1, mp_context=get_context("spawn")) as pool:
        try:
            done = pool.map(_evaluate_on, cpus[1:], [[pairs[i] for i in part] for part in parts[1:]],
                            *zip(*[run] * (shards - 1)))
        except BrokenProcessPool:  # a shard could not start (a caller's script that runs again on import)
            done = iter(())
        with _on_cpu(cpus[0]):
            at.update(zip(parts[0], _evaluate([pairs[i] for i in parts[0]], *run)))
        try:
            for part, results in zip(parts[1:], done):
                at.update(zip(part, results))
        except BrokenProcessPool:
            pass
    for part in parts[1:]:  # the shards that did not come back: this process runs them
        if part and part[0] not in at:
            at.update(zip(part, _evaluate([pairs[i] for i in part], *run)))
    return [at[i] for i in range(len(pairs))]


def _shard_cpus(shards: int) -> list[int | None]:
    """The processor each shard is held to, when there is one for every shard and none to spare (two shards on
    two cores): Lean's threads then take turns on their shard's core instead of waking each other across cores,
    which cost a tenth of Lean's CPU time and bought no wall time while the other shard kept the other core busy.
    ``None`` (no pinning) otherwise, and where the platform cannot pin."""
    try:
        available = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return [None] * shards
    return available if len(available) == shards else [None] * shards


@contextmanager
def _on_cpu(cpu: int | None):
    """Hold this process (and the Lean processes it starts) to one processor for the block; ``None``: no change."""
    before = None
    if cpu is not None:
        try:
            before = os.sched_getaffinity(0)
            os.sched_setaffinity(0, {cpu})
        except (AttributeError, OSError):
            before = None
    try:
        yield
    finally:
        if before is not None:
            os.sched_setaffinity(0, before)


def _evaluate_on(cpu: int | None, pairs: Sequence[LabelledPair], *run) -> list[PairResult]:
    """A shard process's work: ``_evaluate`` held to ``cpu`` (``_shard_cpus``)."""
    with _on_cpu(cpu):
        return _evaluate(pairs, *run)


def _shards(pairs: Sequence[LabelledPair], n: int) -> list[list[int]]:
    """``n`` lists of pair indices, each in order: the pairs of one reference together (Lean then elaborates its
    shadows once), the references dealt out in turn, so that every family of pairs is spread over the shards."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, p in enumerate(pairs):
        groups.setdefault((p.a, p.a_context), []).append(i)
    parts: list[list[int]] = [[] for _ in range(n)]
    for k, members in enumerate(groups.values()):
        parts[k % n] += members
    return [sorted(part) for part in parts]


def _evaluate(pairs: Sequence[LabelledPair], lean, n_jobs: int, cache_dir, lean_checked: bool,
              strict: bool) -> list[PairResult]:
    results: dict[str, PairResult] = {}
    skeleton_pairs = []
    for p in pairs:
        try:
            ref = with_written_value(p.a, parse_declaration(p.a))
            cand = with_written_value(p.b, parse_declaration(p.b))
        except ParseError as err:
            results[p.id] = PairResult(p, "error", f"does not parse: {err}")
            continue
        if ref.type is None or cand.type is None:
            results[p.id] = PairResult(p, "error", "no stated type")
            continue
        skeleton_pairs.append(SkeletonPair(p.id, ref, cand, True, p.a_context, p.b_context))
    verdicts = skeleton_score(skeleton_pairs, lean, n_jobs=n_jobs, cache_dir=cache_dir,
                              lean_checked=lean_checked, strict=strict) if skeleton_pairs else {}
    for p in pairs:
        if p.id in results:
            continue
        v = verdicts.get(p.id)
        if v is None:
            results[p.id] = PairResult(p, "error", "no verdict")
            continue
        passed = not v.error and all(v.forward) and v.backward
        reason = "; ".join(f"{k}: {m}" for k, m in sorted(v.messages.items()))[:500]
        if passed:
            results[p.id] = PairResult(p, "pass", v.messages.get("atom lemmas", "") if v.lean != "unchecked"
                                       else f"not Lean-checked: {v.lean_reason}", lean=v.lean)
        elif v.is_undecided:
            failed = [f"forward:{i}" for i, ok in enumerate(v.forward, start=1) if not ok]
            failed += [] if v.backward else ["backward"]
            reason = reason if v.undecided else v.undecided_reason()
            results[p.id] = PairResult(p, "undecided", reason, list(v.undecided), failed, list(v.undecided_roles),
                                       lean=v.lean)
        else:
            results[p.id] = PairResult(p, "fail", v.error or reason)
    _lean_equal(pairs, results, lean, n_jobs)
    return [results[p.id] for p in pairs]


LEAN_EQUAL = "Lean elaborates both statements to definitionally equal propositions (pyshadow.elab.equivalence)"


def _lean_equal(pairs: Sequence[LabelledPair], results: dict[str, PairResult], lean, n_jobs: int = -1) -> None:
    todo = [p for p in pairs if results[p.id].verdict != "pass"]
    equal = lean_equal_keys([(p.id, p.a, p.a_context, p.b, p.b_context) for p in todo], lean, n_jobs=n_jobs)
    for p in todo:
        if p.id in equal:
            results[p.id] = PairResult(p, "pass", LEAN_EQUAL, lean="equal")


def lean_equal_keys(items: Sequence[tuple[str, str, str, str, str]], lean, n_jobs: int = -1) -> set[str]:
    """The keys of ``(key, reference, reference context, candidate, candidate context)`` items whose statements
    Lean's own elaborator, in the signature environment, proves the same proposition (``Iff`` by the identity,
    kernel-checked): every cast, binder type and definition is then Lean's, not a reading. A pair the skeleton
    search does not pass passes on this; one Lean does not prove equal keeps the skeleton's verdict. The items
    are split over ``n_jobs`` Lean processes."""
    if not items:
        return set()
    verdicts = definitional_equivalence([(key, StatementInput(key, open_data_statement(a), a_ctx),
                                          StatementInput(key, open_data_statement(b), b_ctx))
                                         for key, a, a_ctx, b, b_ctx in items], lean, n_jobs=n_jobs)
    return {item[0] for item, v in zip(items, verdicts) if v.equal}


def with_written_value(text: str, decl):
    """A data declaration written with its value (``abbrev sol : ℕ := 42``) read with it, as scoring reads a data
    target (``kernel.answers.with_value``); written without one, it states only that its type is inhabited."""
    if not is_data_declaration(decl):
        return decl
    found = declarations(text)
    if not found or found[-1].end <= found[-1].statement_end:
        return decl
    return with_value(decl, declared_value(text[found[-1].statement_end:found[-1].end]))


def judge_undecided(results: Sequence[PairResult], judge: AtomPairJudge) -> None:
    """Fill the skeleton + LLM column of every result: a skeleton pass stays ``pass``, a fail or an error ``fail``
    (neither is sent to the model); an undecided pair asks about each of its atom pairs, under each side's scope
    (``a_context`` / ``b_context`` and the statement's variables), and gets ``combine``'s verdict — unless its
    failed checks are not exactly the ``undecided_roles``, when it stays undecided and nothing is asked."""
    for r in results:
        if r.verdict != "undecided":
            r.llm = {"verdict": "pass" if r.verdict == "pass" else "fail", "answers": []}
            continue
        if sorted(r.failed_roles) != sorted(r.undecided_roles):
            r.llm = {"verdict": "undecided", "answers": [],
                     "note": "the failed checks are not exactly those the atom pairs account for; no model asked"}
            continue
        ref_scope = term_scope(r.pair.a_context, parse_declaration(r.pair.a))
        cand_scope = term_scope(r.pair.b_context, parse_declaration(r.pair.b))
        questions = [AtomQuestion(a, b, ref_scope, cand_scope) for a, b in r.atom_pairs]
        answers = judge.answer_all(questions, f"atom-pair/pairs/{r.pair.id}")
        r.llm = {"verdict": combine(answers), "answers": [a.to_dict() for a in answers]}


def _rates(results: Iterable[PairResult]) -> dict:
    results = list(results)
    same = [r for r in results if r.pair.same_meaning]
    changed = [r for r in results if not r.pair.same_meaning]
    passed = [r for r in results if r.verdict == "pass"]
    llm = {}
    if any(r.llm is not None for r in results):
        llm_passed = [r for r in results if r.llm_verdict == "pass"]
        llm = {
            "llm_same_passed": sum(r.llm_verdict == "pass" for r in same),
            "llm_changed_passed": sum(r.llm_verdict == "pass" for r in changed),
            "llm_undecided": sum(r.llm_verdict == "undecided" for r in results),
            "llm_recall": (sum(r.llm_verdict == "pass" for r in same) / len(same)) if same else None,
            "llm_precision": (sum(r.pair.same_meaning for r in llm_passed) / len(llm_passed)) if llm_passed else None,
        }
    return {
        "pairs": len(results),
        "same_meaning": len(same),
        "same_passed": sum(r.verdict == "pass" for r in same),
        "changed": len(changed),
        "changed_passed": sum(r.verdict == "pass" for r in changed),
        "undecided": sum(r.verdict == "undecided" for r in results),
        "recall": (sum(r.verdict == "pass" for r in same) / len(same)) if same else None,
        "precision": (sum(r.pair.same_meaning for r in passed) / len(passed)) if passed else None,
        "undecided_rate": (sum(r.verdict == "undecided" for r in results) / len(results)) if results else None,
        "passed": len(passed),
        "lean_checked": sum(r.lean in ("accepted", "equal") for r in passed),
        **llm,
    }


def summarize(results: Sequence[PairResult]) -> dict:
    """Overall figures, and the same per pair family and per diff category."""
    by_origin: dict[str, list[PairResult]] = defaultdict(list)
    by_diff: dict[str, list[PairResult]] = defaultdict(list)
    for r in results:
        by_origin[r.pair.origin].append(r)
        by_diff[r.pair.diff].append(r)
    return {
        "overall": _rates(results),
        "origin": {k: _rates(v) for k, v in sorted(by_origin.items())},
        "diff": {k: _rates(v) for k, v in sorted(by_diff.items())},
    }


def _pct(x) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def summary_markdown(summary: dict) -> str:
    """The figures as markdown tables (overall, per family, per diff category); with the skeleton + LLM column,
    its figures follow the skeleton's in the same rows (a model's opinion, not a Lean check)."""
    with_llm = "llm_recall" in summary["overall"]
    lines = ["| slice | pairs | same-meaning passed | changed passed | undecided | recall | precision |"
             + (" skeleton+LLM: same-meaning passed | changed passed | undecided | recall | precision |"
                if with_llm else ""),
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |" + (" ---: | ---: | ---: | ---: | ---: |"
                                                                   if with_llm else "")]

    def row(name: str, s: dict) -> str:
        text = (f"| {name} | {s['pairs']} | {s['same_passed']}/{s['same_meaning']} | "
                f"{s['changed_passed']}/{s['changed']} | {s['undecided']} | {_pct(s['recall'])} | "
                f"{_pct(s['precision'])} |")
        if with_llm:
            text += (f" {s['llm_same_passed']}/{s['same_meaning']} | {s['llm_changed_passed']}/{s['changed']} | "
                     f"{s['llm_undecided']} | {_pct(s['llm_recall'])} | {_pct(s['llm_precision'])} |")
        return text

    lines.append(row("**all pairs**", summary["overall"]))
    for k, s in summary["origin"].items():
        lines.append(row(f"family: {k}", s))
    for k, s in summary["diff"].items():
        lines.append(row(f"diff: {k}", s))
    overall = summary["overall"]
    if "lean_checked" in overall:
        lines += ["", f"Passes Lean-checked: {overall['lean_checked']}/{overall['passed']} (the skeleton's terms "
                      "accepted against the elaborated statements, or the statements Lean-equal); the others rest on "
                      "the skeleton's readings (a statement the environment cannot elaborate)."]
    return "\n".join(lines)
