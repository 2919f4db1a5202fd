"""SA-Pass and friends: per-candidate metrics, aggregation, and markdown / CSV tables.

Per candidate (docs/DESIGN.md, paper §3.3 and §5.1), from ``CandidateScore(compiled, forward, backward)``:

- ``sa_pass`` = compiled ∧ every forward check passed ∧ the backward check passed;
- ``fwd`` = fraction of forward checks passed; ``bwd`` = the backward indicator (0 or 1);
- ``sa_pass_soft`` = ½·fwd + ½·bwd;
- ``fwd_all`` = every forward check passed;
- ``bucket``: exactly one per candidate, so buckets add up to n in every table — ``audit_failed`` (the trust gate
  flagged the file), ``not_compiled`` (in the kernel tier: the statement was not elaborated), ``name_not_found``
  (a target the candidate does not declare under its name or a matched one: a wrong name or an ``example``, kept
  apart from a wrong meaning), ``undecided`` (kernel tier: only atom pairs elaboration could decide differ), then
  ``both`` (fwd_all and backward: SA-Pass), ``backward_only``, ``forward_only``, ``neither``.

A candidate that does not compile scores 0 on every metric whatever its check results say. With **zero forward
checks** the forward fraction of a compiling candidate is 1 (vacuously, no forward check failed). This is the only
choice that keeps the paper's identity SA-Pass_soft = 1 ⟺ SA-Pass = 1: with 0, a candidate passing everything
would score SA-Pass 1 but SA-Pass_soft ½.

Aggregation (``aggregate``) groups records by any of ``system``, ``area``, ``level`` (and ``problem_id``) and
reports per group: n, compiled count, compile rate, SA-Pass, SA-Pass_soft, Fwd, Bwd, Fwd_all (means over the n
candidates, non-compiling ones counting 0), the **compile − SA-Pass gap** as its own column, and the count of every
bucket (they add up to n; the columns are the same in both tiers, only their names differ). Means are exact
fractions; rendering rounds half up to a fixed number of
decimals, and the gap is computed exactly before rounding (it may differ by one in the last digit from the
difference of the two rounded columns).

Skeleton SA-Pass (the kernel tier: checks run on abstracted statements) and full SA-Pass are different measures:
each score carries ``skeleton``; a table is one or the other, says which in its title and ``tier`` column, and
aggregating a mix raises ``MixedTierError``.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

Bucket = Literal["audit_failed", "not_compiled", "name_not_found", "undecided", "both", "backward_only",
                 "forward_only", "neither"]
BUCKETS: tuple[Bucket, ...] = ("audit_failed", "not_compiled", "name_not_found", "undecided", "both",
                               "backward_only", "forward_only", "neither")
GROUP_FIELDS = ("system", "area", "level", "problem_id")


class MixedTierError(ValueError):
    """Skeleton (kernel-tier) and full SA-Pass scores were put in one table."""


# ---------------------------------------------------------------------------------------------------------------
# Per candidate


@dataclass(frozen=True, slots=True)
class CandidateScore:
    """What the runner established for one candidate: its file compiled, each forward check, the backward check.

    ``forward`` is stored as a tuple (any sequence of bools is accepted). ``skeleton`` marks a kernel-tier score.
    """

    compiled: bool
    forward: tuple[bool, ...]
    backward: bool
    skeleton: bool = False
    # Skeleton only: not passed, and every failed check is one the kernel tier cannot judge (atom pairs differ
    # where only elaboration could decide). Counted apart; never an SA-Pass.
    undecided: bool = False
    audit_failed: bool = False  # the trust gate flagged the file (then ``compiled`` is False)
    name_not_found: bool = False  # some target has no declaration in the candidate (its checks fail)

    def __post_init__(self) -> None:
        object.__setattr__(self, "forward", tuple(bool(x) for x in self.forward))


def fwd(score: CandidateScore) -> Fraction:
    """Fraction of forward checks passed; 1 with no forward checks; 0 if the candidate does not compile."""
    if not score.compiled:
        return Fraction(0)
    if not score.forward:
        return Fraction(1)
    return Fraction(sum(score.forward), len(score.forward))


def bwd(score: CandidateScore) -> Fraction:
    """The backward indicator as a fraction (0 or 1); 0 if the candidate does not compile."""
    return Fraction(int(score.compiled and score.backward))


def fwd_all(score: CandidateScore) -> bool:
    """Every forward check passed (and the candidate compiled)."""
    return score.compiled and all(score.forward)


def sa_pass(score: CandidateScore) -> bool:
    """Compiled, every forward check passed, and the backward check passed."""
    return fwd_all(score) and bwd(score) == 1


def sa_pass_soft(score: CandidateScore) -> Fraction:
    """½·(fraction of forward checks passed) + ½·(backward indicator); 0 if the candidate does not compile."""
    return (fwd(score) + bwd(score)) / 2


def bucket(score: CandidateScore) -> Bucket:
    """The candidate's one bucket (``BUCKETS``, in that order of precedence)."""
    if score.audit_failed:
        return "audit_failed"
    if not score.compiled:
        return "not_compiled"
    if score.name_not_found:
        return "name_not_found"
    if score.undecided:
        return "undecided"
    forward, backward = fwd_all(score), bool(score.backward)
    if forward and backward:
        return "both"
    if backward:
        return "backward_only"
    if forward:
        return "forward_only"
    return "neither"


def candidate_metrics(score: CandidateScore) -> dict[str, object]:
    """All per-candidate metrics as a JSON-serialisable dict (fractions as floats). A kernel-tier (skeleton) score
    says ``statement_elaborated`` where a full-tier one says ``compiled``: the kernel tier compiles nothing."""
    return {
        ("statement_elaborated" if score.skeleton else "compiled"): score.compiled,
        "skeleton": score.skeleton,
        "sa_pass": sa_pass(score),
        "sa_pass_soft": float(sa_pass_soft(score)),
        "fwd": float(fwd(score)),
        "bwd": float(bwd(score)),
        "fwd_all": fwd_all(score),
        "bucket": bucket(score),
        "undecided": score.undecided,
    }


def row_compiled(row: Mapping[str, Any]) -> bool:
    """A results row's ``compiled`` (full tier) or ``statement_elaborated`` (kernel tier)."""
    return bool(row["compiled"] if "compiled" in row else row.get("statement_elaborated"))


def is_score_row(obj: Mapping[str, Any]) -> bool:
    """Whether a JSON object is a line of RESULTS.jsonl (either tier, rows of every pyshadow version)."""
    return "tier" in obj and ("compiled" in obj or "statement_elaborated" in obj)


# ---------------------------------------------------------------------------------------------------------------
# Aggregation


@dataclass(frozen=True, slots=True)
class ScoreRecord:
    """One scored candidate with the metadata it is grouped by."""

    problem_id: str
    system: str
    score: CandidateScore
    area: str | None = None
    level: str | None = None


@dataclass(frozen=True, slots=True)
class AggregateRow:
    """The metrics of one group of candidates; rates are exact fractions in [0, 1]."""

    key: tuple[str | None, ...]  # the group's values, in the table's `by` order
    n: int
    compiled: int
    compile_rate: Fraction
    sa_pass: Fraction
    sa_pass_soft: Fraction
    fwd: Fraction
    bwd: Fraction
    fwd_all: Fraction
    both: int
    backward_only: int
    forward_only: int
    neither: int
    undecided: int = 0  # candidates the kernel tier could not judge (not passes; always 0 in the full tier)
    audit_failed: int = 0
    not_compiled: int = 0  # audit failures excluded
    name_not_found: int = 0

    @property
    def gap(self) -> Fraction:
        """Compile rate − SA-Pass: what compilation alone overstates."""
        return self.compile_rate - self.sa_pass


@dataclass(frozen=True, slots=True)
class ScoreTable:
    """Rows grouped by ``by``; every score in it is of one tier (``skeleton`` or full)."""

    by: tuple[str, ...]
    skeleton: bool
    rows: tuple[AggregateRow, ...]

    @property
    def tier(self) -> str:
        return "skeleton" if self.skeleton else "full"

    @property
    def title(self) -> str:
        measure = "Skeleton SA-Pass (kernel tier)" if self.skeleton else "SA-Pass (full)"
        return f"{measure} by {' × '.join(self.by)}" if self.by else measure


def summarize(scores: Sequence[CandidateScore], key: tuple[str | None, ...] = ()) -> AggregateRow:
    """The row of metrics over ``scores`` (at least one)."""
    if not scores:
        raise ValueError("cannot summarize an empty group")
    n = len(scores)
    buckets = [bucket(s) for s in scores]

    def mean(values: Iterable[Fraction | bool]) -> Fraction:
        return Fraction(sum(Fraction(v) for v in values), n)

    return AggregateRow(
        key=key,
        n=n,
        compiled=sum(s.compiled for s in scores),
        compile_rate=mean(s.compiled for s in scores),
        sa_pass=mean(sa_pass(s) for s in scores),
        sa_pass_soft=mean(sa_pass_soft(s) for s in scores),
        fwd=mean(fwd(s) for s in scores),
        bwd=mean(bwd(s) for s in scores),
        fwd_all=mean(fwd_all(s) for s in scores),
        **{b: buckets.count(b) for b in BUCKETS},
    )


def natural_key(value: str | None) -> tuple[bool, tuple[tuple[int, object], ...]]:
    """Sort key: None last; digits compared as numbers (L2 before L10)."""
    if value is None:
        return (True, ())
    parts = re.split(r"(\d+)", value)
    return (False, tuple((0, int(p)) if p.isdigit() else (1, p) for p in parts if p))


def tier_of(records: Sequence[ScoreRecord]) -> bool:
    """Whether the records are skeleton scores; raises ``MixedTierError`` when they mix tiers."""
    tiers = {r.score.skeleton for r in records}
    if len(tiers) > 1:
        raise MixedTierError("skeleton (kernel-tier) and full SA-Pass scores cannot share a table")
    return tiers.pop() if tiers else False


def aggregate(records: Iterable[ScoreRecord], by: Sequence[str] = ("system",)) -> ScoreTable:
    """One row per distinct value of the ``by`` fields (sorted naturally, missing values last)."""
    records = list(records)
    unknown = [f for f in by if f not in GROUP_FIELDS]
    if unknown:
        raise ValueError(f"cannot group by {', '.join(unknown)}; choose from {', '.join(GROUP_FIELDS)}")
    skeleton = tier_of(records)
    groups: dict[tuple[str | None, ...], list[CandidateScore]] = {}
    for r in records:
        groups.setdefault(tuple(getattr(r, f) for f in by), []).append(r.score)
    keys = sorted(groups, key=lambda k: tuple(natural_key(v) for v in k))
    return ScoreTable(tuple(by), skeleton, tuple(summarize(groups[k], k) for k in keys))


STANDARD_GROUPINGS: tuple[tuple[str, ...], ...] = (("system",), ("area",), ("level",), ("system", "level"))


def standard_tables(records: Iterable[ScoreRecord]) -> list[ScoreTable]:
    """The report's tables: by system, by area, by level, and by system × level."""
    records = list(records)
    return [aggregate(records, by) for by in STANDARD_GROUPINGS]


# ---------------------------------------------------------------------------------------------------------------
# Rendering


def percent(value: Fraction, digits: int = 1) -> str:
    """``value`` (a fraction of 1) in percent, rounded half up (away from zero) to ``digits`` decimals."""
    scaled = abs(value) * 100 * 10**digits
    rounded = math.floor(scaled + Fraction(1, 2))
    sign = "-" if value < 0 and rounded else ""
    whole, frac = divmod(rounded, 10**digits)
    return f"{sign}{whole}.{frac:0{digits}d}" if digits else f"{sign}{whole}"


# (csv column, markdown header, how to print it). The order is the table's column order.
_METRIC_COLUMNS: tuple[tuple[str, str], ...] = (
    ("n", "n"),
    ("compiled", "Compiled"),
    ("compile_pct", "Compile %"),
    ("sa_pass_pct", "SA-Pass %"),
    ("sa_pass_soft_pct", "SA-Pass_soft %"),
    ("fwd_pct", "Fwd %"),
    ("bwd_pct", "Bwd %"),
    ("fwd_all_pct", "Fwd_all %"),
    ("compile_minus_sa_pass_pts", "Compile − SA-Pass (pts)"),
    ("audit_failed", "Audit failed"),
    ("not_compiled", "Not compiled"),
    ("name_not_found", "Name not found"),
    ("undecided", "Undecided"),
    ("both", "Both"),
    ("backward_only", "Bwd only"),
    ("forward_only", "Fwd only"),
    ("neither", "Neither"),
)


def _columns(table: ScoreTable) -> tuple[tuple[str, str], ...]:
    return metric_columns(table.skeleton)


def _row_values(row: AggregateRow, digits: int) -> list[str]:
    return [
        str(row.n),
        str(row.compiled),
        percent(row.compile_rate, digits),
        percent(row.sa_pass, digits),
        percent(row.sa_pass_soft, digits),
        percent(row.fwd, digits),
        percent(row.bwd, digits),
        percent(row.fwd_all, digits),
        percent(row.gap, digits),
        *(str(getattr(row, b)) for b in BUCKETS),
    ]


# The kernel tier compiles nothing: its "compiled" means the statement was read and abstracted (elaborated in the
# prelude), so its columns say so rather than "Compiled".
_KERNEL_NAMES = {
    "compiled": ("statement_elaborated", "Statement elaborated"),
    "compile_pct": ("statement_elaborated_pct", "Statement elaborated %"),
    "sa_pass_pct": ("skeleton_sa_pass_pct", "Skeleton SA-Pass %"),
    "compile_minus_sa_pass_pts": ("elaborated_minus_sa_pass_pts", "Elaborated − SA-Pass (pts)"),
    "not_compiled": ("not_elaborated", "Not elaborated"),
}


def metric_columns(skeleton: bool) -> tuple[tuple[str, str], ...]:
    """(csv column, markdown header) of the metric columns for a table of that tier."""
    if not skeleton:
        return _METRIC_COLUMNS
    return tuple(_KERNEL_NAMES.get(c, (c, h)) for c, h in _METRIC_COLUMNS)


def csv_columns(table: ScoreTable) -> list[str]:
    """The CSV header: ``tier``, the grouping fields, then the metrics (a stable order)."""
    return ["tier", *table.by, *(c for c, _ in _columns(table))]


def render_csv(table: ScoreTable, digits: int = 1) -> str:
    """The table as CSV (``\\n`` line ends); a missing group value is an empty cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csv_columns(table))
    for row in table.rows:
        writer.writerow([table.tier, *("" if v is None else v for v in row.key),
                         *_row_values(row, digits)])
    return out.getvalue()


def _md_cell(value: str) -> str:
    return value.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def render_markdown(table: ScoreTable, digits: int = 1) -> str:
    """The table as markdown, headed by its title (which says whether it is skeleton or full SA-Pass)."""
    columns = _columns(table)
    headers = [f.replace("_", " ").capitalize() for f in table.by] + [h for _, h in columns]
    lines = [f"### {table.title}", "", "| " + " | ".join(headers) + " |"]
    lines.append("| " + " | ".join(["---"] * len(table.by) + ["---:"] * len(columns)) + " |")
    for row in table.rows:
        cells = [_md_cell("—" if v is None else v) for v in row.key] + _row_values(row, digits)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def render_tables_markdown(tables: Iterable[ScoreTable], digits: int = 1) -> str:
    """Several tables, one after another; raises ``MixedTierError`` if they are not all of one tier."""
    tables = list(tables)
    if len({t.skeleton for t in tables}) > 1:
        raise MixedTierError("skeleton (kernel-tier) and full SA-Pass tables cannot share one report")
    return "\n".join(render_markdown(t, digits) for t in tables)
