"""The public API's result types: frozen dataclasses with typed fields, each field documented where it is declared.

They are views of the internal records (``pyshadow.score.pipeline.ScoreRow``, the ``verify`` report dicts, the
skeleton engine's ``SkeletonVerdict``), built once at the edge of the API; ``ScoreRow.to_dict()`` gives back the
RESULTS.jsonl row ``pyshadow score`` writes, so rows scored from a notebook and from the CLI are one format.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from ..errors import BadInput
from ..problems import Problem, ProblemError
from ..score import metrics
from ..score.pipeline import ScoreRow as ResultRow

Verdict = Literal["pass", "fail", "undecided", "error"]


@dataclass(frozen=True)
class ProblemSet:
    """The problems of a folder (``pyshadow.load_problems``), and those that did not load. Iterating gives the
    problems; ``problems["nat_double_add"]`` one of them by id."""

    folder: Path
    """The folder the problems were read from."""
    problems: tuple[Problem, ...]
    """The problems that loaded, sorted by id (``pyshadow.problems.Problem``)."""
    errors: tuple[ProblemError, ...] = ()
    """The problems that did not load, each with its one-line reason (``str(error)``); never dropped."""

    def __iter__(self) -> Iterator[Problem]:
        return iter(self.problems)

    def __len__(self) -> int:
        return len(self.problems)

    def __getitem__(self, problem_id: str) -> Problem:
        for p in self.problems:
            if p.id == problem_id:
                return p
        shown = ", ".join(p.id for p in self.problems[:6]) + (", …" if len(self.problems) > 6 else "")
        raise BadInput(f"no problem {problem_id!r} in {self.folder} (problems: {shown or 'none'})")

    @property
    def ids(self) -> tuple[str, ...]:
        """The ids of the problems that loaded."""
        return tuple(p.id for p in self.problems)


@dataclass(frozen=True)
class Check:
    """One check Lean ran (or could not run): a forward shadow, the backward certificate, or the axioms audit."""

    name: str
    """``<target>:forward:<i>``, ``<target>:backward`` or the checker's name."""
    kind: str
    """``forward`` (the statement implies shadow i), ``backward`` (the shadows imply the statement) or ``axioms``."""
    target: str
    """The reference target the check belongs to."""
    passed: bool
    """Lean accepted the check."""
    message: str
    """``passed``, or why not — Lean's message when Lean said why."""
    shadow: int | None = None
    """The 1-based shadow index of a forward check."""
    undecided: bool = False
    """Kernel tier: failed only because of atom pairs the kernel tier cannot judge (named in ``message``)."""
    text: str = ""
    """The shadow's statement (forward) or the reference's (backward), when known."""


@dataclass(frozen=True)
class ScoreRow:
    """One scored candidate (``pyshadow.score``): SA-Pass and its parts, every check, and why it failed."""

    problem_id: str | None
    """The problem the candidate is for (None for an input entry whose problem is unknown)."""
    system: str | None
    """The system that wrote the candidate."""
    origin: str
    """Where the candidate came from: a file, ``file.jsonl:LINE``, or ``<api>`` for code passed in."""
    tier: str
    """``kernel`` (skeleton SA-Pass: the statement is checked, not its proof) or ``full`` (SA-Pass)."""
    sa_pass: bool
    """Compiled, every forward check passed and the backward check passed."""
    sa_pass_soft: float
    """½·(fraction of forward checks passed) + ½·(backward indicator); 0 when not compiled."""
    fwd: float
    """Fraction of forward checks passed (1 with none; 0 when not compiled)."""
    bwd: float
    """The backward indicator, 0 or 1 (0 when not compiled)."""
    compiled: bool
    """Full tier: the candidate compiled and passed the audit. Kernel tier: its statements were read and it passed
    the audit."""
    undecided: bool
    """Kernel tier: not passed, and every failed check is one only elaboration could decide (never a pass)."""
    bucket: str | None
    """``both``, ``backward_only``, ``forward_only`` or ``neither``; None when not compiled."""
    forward: tuple[bool, ...]
    """Each forward check's verdict, in the reference's shadow order (targets in order)."""
    backward: bool
    """Every target's backward check passed."""
    checks: tuple[Check, ...]
    """Every check with its verdict and message; failing checks are kept, never dropped."""
    reason: str | None
    """Why the candidate fails as a whole (bad input, audit, compile error, unreadable statement), if it does."""
    audit: tuple[Mapping[str, Any], ...]
    """The trust gate's findings (``kind``, ``line``, ``column``, ``excerpt``); any finding fails the candidate."""
    declarations: Mapping[str, str | None]
    """Target → the candidate declaration checked for it (None: the candidate declares none)."""
    area: str | None
    """The problem's area."""
    level: str | None
    """The problem's level (L1, L2, L3)."""
    content_hash: str
    """Hash of everything that decides the row (the key a rerun of ``pyshadow score`` resumes by)."""
    row: ResultRow = field(repr=False, compare=False)
    """The internal row (``pyshadow.score.pipeline.ScoreRow``), for fields this view does not carry."""

    @property
    def measure(self) -> str:
        """What ``sa_pass`` measures here: ``skeleton SA-Pass`` (kernel tier) or ``SA-Pass`` (full tier)."""
        return "skeleton SA-Pass" if self.tier == "kernel" else "SA-Pass"

    @property
    def failed_checks(self) -> tuple[Check, ...]:
        """The checks that did not pass."""
        return tuple(c for c in self.checks if not c.passed)

    def to_dict(self) -> dict[str, Any]:
        """The row as ``pyshadow score`` writes it to RESULTS.jsonl."""
        return self.row.to_dict()

    @classmethod
    def from_row(cls, row: ResultRow) -> ScoreRow:
        s = row.score
        return cls(
            problem_id=row.problem_id, system=row.system, origin=row.origin, tier=row.tier,
            sa_pass=metrics.sa_pass(s), sa_pass_soft=float(metrics.sa_pass_soft(s)), fwd=float(metrics.fwd(s)),
            bwd=float(metrics.bwd(s)), compiled=s.compiled, undecided=s.undecided, bucket=metrics.bucket(s),
            forward=tuple(s.forward), backward=s.backward,
            checks=tuple(Check(c.name, c.kind, c.target, c.passed, c.message, c.shadow, c.undecided, c.text)
                         for c in row.checks),
            reason=row.reason, audit=tuple(dict(a) for a in row.audit),
            declarations={t: (d or {}).get("name") for t, d in row.declarations.items()},
            area=row.area, level=row.level, content_hash=row.content_hash, row=row,
        )


@dataclass(frozen=True)
class TargetReport:
    """Is one target's shadow set complete (``pyshadow.verify``)?"""

    target: str
    """The target's fully qualified name."""
    status: str
    """``decomposed``, ``atomic`` (only the identity shadow) or ``error`` (the target could not be checked)."""
    complete: bool
    """Every check passed: T ⇒ Sᵢ for each shadow and ⋀ Sᵢ ⇒ T."""
    checks: tuple[Check, ...]
    """Every checker with Lean's verdict and message."""
    error: str | None
    """Why the target could not be checked, or the first accepted mutant (``mutate=True``)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Tier-specific details: ``mutants_rejected`` (kernel, ``mutate=True``), ``reference_sorry`` (full)."""


@dataclass(frozen=True)
class ProblemReport:
    """Is a problem's shadow set complete (``pyshadow.verify``)? One per problem, loaded or not."""

    problem_id: str | None
    """The problem's id (None for a problem that did not load: see ``origin``)."""
    tier: str
    """``kernel`` or ``full``: the tier that checked it."""
    status: str
    """``complete``, ``complete (identity shadow only)`` or ``incomplete``."""
    complete: bool
    """Every target complete (identity shadow only included)."""
    targets: tuple[TargetReport, ...]
    """One report per target."""
    error: str | None
    """Why the problem could not be checked at all (it did not load), if so."""
    origin: str | None = None
    """For a problem that did not load: its file."""
    report: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """The report as ``pyshadow verify -o`` writes it (``to_dict``)."""

    def to_dict(self) -> dict[str, Any]:
        """The report as ``pyshadow verify -o REPORT.jsonl`` writes it, one line per problem."""
        return dict(self.report)

    @classmethod
    def from_dict(cls, report: Mapping[str, Any]) -> ProblemReport:
        targets = []
        for t in report["targets"]:
            extra = {k: v for k, v in t.items() if k not in ("target", "status", "complete", "checks", "error")}
            checks = tuple(Check(c["name"], c["kind"], t["target"], bool(c["passed"]), c["message"], c.get("shadow"))
                           for c in t["checks"])
            targets.append(TargetReport(t["target"], t["status"], bool(t["complete"]), checks, t.get("error"), extra))
        return cls(report["problem_id"], report["tier"], report["status"], bool(report["complete"]), tuple(targets),
                   report.get("error"), report.get("origin"), dict(report))


@dataclass(frozen=True)
class Shadow:
    """One shadow of a statement, as text: a consequence the statement implies (``pyshadow.shadows.rules.Shadow``)."""

    kind: str
    """The rule that made it: conjunct, iff_mp, iff_mpr, le, ge, identity (the statement itself), expert, llm."""
    path: str
    """Where in the statement the rule was applied (``id`` for the statement itself)."""
    statement: str
    """The shadow's statement, under the statement's binders."""
    provenance: str = "generated"
    """``generated`` (the rules), ``expert`` or ``llm:<model>``."""


@dataclass(frozen=True)
class ShadowSet:
    """The shadow set of one statement (``pyshadow.shadows``) and the full-tier checker texts built from it."""

    name: str | None
    """The statement's declaration name (None for ``example``)."""
    status: str
    """``decomposed`` (several shadows) or ``atomic`` (only the identity shadow: the rules found nothing to split)."""
    shadows: tuple[Shadow, ...]
    """The shadows, in checker order (forward check i is shadow i)."""
    forward_checkers: tuple[str, ...]
    """Full-tier Lean text of each forward checker: the statement implies shadow i."""
    backward_checker: str | None
    """Full-tier Lean text of the certificate: the shadows together imply the statement."""

    def __len__(self) -> int:
        return len(self.shadows)

    def __iter__(self) -> Iterator[Shadow]:
        return iter(self.shadows)


@dataclass(frozen=True)
class PairVerdict:
    """Two statements judged by Lean (``pyshadow.check_pair``): does the candidate mean what the reference means?"""

    verdict: Verdict
    """``pass`` (every forward shadow and the backward certificate passed), ``fail``, ``undecided`` (the structures
    match but some atom pairs differ where only elaboration could decide; never a pass) or ``error`` (a statement
    could not be read: ``check_pairs`` only — ``check_pair`` raises)."""
    tier: str
    """``kernel``: skeleton SA-Pass (statements only, atoms abstracted, checked by prelude-mode Lean)."""
    forward: tuple[bool, ...]
    """Each forward check: the candidate (with the reference's hypotheses) implies the reference's shadow i."""
    backward: bool
    """The backward check: the reference's shadows imply the candidate."""
    messages: Mapping[str, str]
    """Why each failed check failed, by role (``forward:i``, ``backward``): Lean's message or the search's."""
    undecided_pairs: tuple[tuple[str, str], ...]
    """(reference atom, candidate atom) pairs the kernel tier cannot judge (an undecided verdict names them)."""
    reason: str | None
    """One line on why the pair did not pass (None when it passed)."""
    key: str = ""
    """The pair's key (its id in ``check_pairs``)."""
    lean: str = ""
    """Lean's check of the verdict's terms against the statements as its elaborator reads them
    (``pyshadow.kernel.lean_check``): ``accepted`` (a pass is Lean-checked), ``equal`` (Lean elaborates the two
    statements to one proposition), ``rejected`` (why a pass became
    undecided), ``unchecked`` (a statement the signature environment cannot elaborate: a pass rests on the
    skeleton's readings), or ``""`` when Lean was not asked (a fail)."""
    search: Any = field(default=None, repr=False, compare=False)
    """The skeleton search's input (``pyshadow.kernel.skeleton.SkeletonPair``), for ``shadows``."""

    @property
    def sa_pass(self) -> bool:
        """The pair passed (the candidate states the reference, as far as this tier can tell)."""
        return self.verdict == "pass"

    @cached_property
    def shadows(self) -> tuple[str, ...]:
        """The reference's shadows as the checks stated them (statements normalised, atoms as read)."""
        if self.search is None:
            return ()
        from ..kernel.skeleton import skeleton_search
        from ..syntax.render import render_term

        return tuple(render_term(s.statement) for s in skeleton_search(self.search).shadows)
