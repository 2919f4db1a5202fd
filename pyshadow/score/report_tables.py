"""The tables of the report people read: Table 3, coverage, pass@k, buckets that add up, per problem, failures,
and what was not scored (problems that did not load, input entries that could not be read).

These read plain row dicts (``ScoreRow.to_dict()`` or a line of RESULTS.jsonl), so fields other tools add to a row
(an ``undecided`` skeleton verdict, per-shadow findings) never break them, and rows written before a field existed
(``compiled`` for ``statement_elaborated``, no ``sample``) still read.

Denominators hold: every problem of the set — those that did not load included — is a row of the per-problem table
and counts in the coverage and pass@k denominators (as a failure for every system); every CSV has a fixed schema
(every bucket column, ``Undecided`` and ``Name not found`` included, whether or not a row falls in it).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .agreement_inputs import row_is_undecided
from .metrics import BUCKETS, MixedTierError, is_score_row, natural_key, percent, row_compiled  # noqa: F401
from .passk import ks_for, per_problem, per_system
from .plots import PassCounts
from .skeleton_llm import answer_errors, column_verdict

BUCKET_ORDER: tuple[str, ...] = BUCKETS
BUCKET_HEADERS = {
    "audit_failed": "Audit failed", "not_compiled": "Not compiled", "name_not_found": "Name not found",
    "undecided": "Undecided", "both": "Both", "backward_only": "Bwd only", "forward_only": "Fwd only",
    "neither": "Neither",
}
# the per-problem table's cell for each bucket
BUCKET_CELLS = {
    "audit_failed": "audit", "not_compiled": "no compile", "name_not_found": "name not found",
    "undecided": "undecided", "both": "SA-Pass", "backward_only": "bwd only", "forward_only": "fwd only",
    "neither": "neither",
}
NOT_LOADED_CELL = "problem did not load"

Table = tuple[list[str], list[list[str]]]


def bucket_header(bucket: str, tier: str) -> str:
    return "Not elaborated" if bucket == "not_compiled" and tier == "kernel" else BUCKET_HEADERS[bucket]


def _cell(bucket: str, tier: str) -> str:
    return "not elaborated" if bucket == "not_compiled" and tier == "kernel" else BUCKET_CELLS[bucket]


def compile_label(tier: str) -> str:
    """What the compile column measures in ``tier``: the kernel tier compiles nothing, it elaborates statements."""
    return "Statement elaborated" if tier == "kernel" else "Compile"


def bucket_legend(tier: str) -> str:
    compiled = "not elaborated = bad input or a statement that does not parse" if tier == "kernel" \
        else "not compiled = bad input or a Lean error"
    return ("Buckets add up to n: audit failed = the trust gate flagged the file; " + compiled +
            "; name not found = a target the candidate does not declare (a wrong name, an `example`); "
            "undecided = the checker could not decide; both = every forward and the backward check pass "
            "(SA-Pass); Bwd only / Fwd only = only that direction passes; neither = no direction passes.")


@dataclass(frozen=True)
class ReportRow:
    """What a report needs from one counted score row."""

    problem_id: str
    system: str
    tier: str
    level: str | None
    area: str | None
    compiled: bool
    sa_pass: bool
    sa_pass_soft: float
    bucket: str
    reason: str | None
    origin: str
    skeleton_llm: str | None = None  # the skeleton + LLM verdict (pass | fail | undecided) when --llm gave one
    llm_unanswered: int = 0  # atom-pair questions without a usable answer
    sample: str | None = None

    @classmethod
    def from_dict(cls, row: Mapping[str, Any]) -> ReportRow:
        return cls(row["problem_id"], row["system"], row.get("tier", "full"), row.get("level"), row.get("area"),
                   row_compiled(row), bool(row.get("sa_pass")), float(row.get("sa_pass_soft", 0.0)),
                   row_bucket(row), first_reason(row), row.get("origin", ""), column_verdict(dict(row)),
                   answer_errors(dict(row)), row.get("sample"))


def row_bucket(row: Mapping[str, Any]) -> str:
    """The row's one bucket (``BUCKET_ORDER``)."""
    if row.get("audit"):
        return "audit_failed"
    if not row_compiled(row):
        return "not_compiled"
    if row.get("bucket") == "name_not_found":
        return "name_not_found"
    if row_is_undecided(row):
        return "undecided"
    if row.get("bucket") in ("both", "backward_only", "forward_only", "neither"):
        return row["bucket"]
    forward, backward = bool(row.get("fwd_all")), bool(row.get("backward"))
    return "both" if forward and backward else "backward_only" if backward else "forward_only" if forward \
        else "neither"


def first_reason(row: Mapping[str, Any]) -> str | None:
    """Why a row fails, in one line: its own reason, else its first failing check; None when it passes."""
    if row.get("sa_pass") and not row_is_undecided(row):
        return None
    if row.get("reason"):
        return str(row["reason"])
    for check in row.get("checks", []):
        if not check.get("passed"):
            return f"{check.get('name')}: {check.get('message')}"
    return "undecided" if row_is_undecided(row) else None


def report_rows(rows: Iterable[Mapping[str, Any]]) -> list[ReportRow]:
    """Counted rows, one per (tier, problem, system, sample) — the last one wins, as in a resumed results file."""
    chosen: dict[tuple[str, str, str, str | None], ReportRow] = {}
    for row in rows:
        if row.get("counted", True) and row.get("problem_id") and row.get("system"):
            key = (row.get("tier", "full"), row["problem_id"], row["system"], row.get("sample"))
            chosen[key] = ReportRow.from_dict(row)
    return list(chosen.values())


@dataclass(frozen=True)
class NotScored:
    """What the rows say was not scored: problems that did not load (id → reason) and input entries that were
    not counted (origin, reason) — an unknown problem, a line without a system, an unreadable results line."""

    problems: dict[str, str] = field(default_factory=dict)
    inputs: list[tuple[str, str]] = field(default_factory=list)


def not_scored(rows: Iterable[Mapping[str, Any]], unreadable: Sequence[str] = ()) -> NotScored:
    """The problem rows (``problem_not_loaded``) and the uncounted entries of ``rows``, plus ``unreadable`` lines
    (``path:line: why``) of the results files themselves."""
    out = NotScored()
    seen: set[tuple[str, str]] = set()
    for row in rows:
        if row.get("problem_not_loaded"):
            out.problems[str(row.get("problem_id"))] = str(row.get("reason") or "does not load")
        elif not row.get("counted", True):
            item = (str(row.get("origin", "")), str(row.get("reason") or "not counted"))
            if item not in seen:
                seen.add(item)
                out.inputs.append(item)
    for line in unreadable:
        where, _, why = line.partition(": ")
        out.inputs.append((where, why or line))
    return out


def _pct(part: int | float | Fraction, whole: int) -> str:
    return percent(Fraction(part).limit_denominator(10**9) / whole) if whole else "—"


def _mean_pct(values: Sequence[float | bool]) -> str:
    return percent(sum(Fraction(v).limit_denominator(10**9) for v in values) / len(values)) if values else "—"


@dataclass(frozen=True)
class ReportTables:
    """Every table of the report as (headers, rows of cells); markdown and CSV are both rendered from these."""

    tier: str
    table3: Table
    coverage: Table
    buckets: Table
    per_problem: Table
    failures: Table
    chart: list[PassCounts]  # per system × level ("All" included): the counts the figure draws
    # skeleton SA-Pass beside skeleton + LLM, per system; None when no row has the column (no --llm)
    skeleton_llm: Table | None = None
    pass_at_k: Table = ([], [])  # per system: pass@k and mean@k over every problem of the set
    samples: Table = ([], [])  # per (system, problem): samples, passes, pass@k
    not_loaded: Table = (["Problem", "Reason"], [])
    skipped: Table = (["Input", "Reason"], [])
    problems: int = 0  # the denominator: every problem of the set, those that did not load included


def build_tables(rows: Sequence[ReportRow], problems: Mapping[str, str | None],
                 missing: NotScored | None = None) -> ReportTables:
    """The tables of one tier's rows. ``problems`` maps every problem of the benchmark to its level; ``missing``
    adds the problems that did not load (rows of every table with their reason, failures for every system) and
    the inputs that were not scored."""
    missing = missing or NotScored()
    tiers = {r.tier for r in rows}
    if len(tiers) > 1:
        raise MixedTierError("skeleton (kernel-tier) and full SA-Pass rows cannot share one report")
    tier = tiers.pop() if tiers else "full"
    compile_name = compile_label(tier)
    sa_name = "Skeleton SA-Pass" if tier == "kernel" else "SA-Pass"
    soft_name = f"{sa_name}_soft"
    universe: dict[str, str | None] = {**{p: None for p in missing.problems}, **problems}
    universe.update({r.problem_id: r.level for r in rows if r.problem_id not in universe})
    total = len(universe)
    systems = sorted({r.system for r in rows}, key=natural_key)
    levels = sorted({r.level for r in rows if r.level}, key=natural_key)
    by_system = {s: [r for r in rows if r.system == s] for s in systems}
    cells: dict[tuple[str, str], list[ReportRow]] = {}
    for r in rows:
        cells.setdefault((r.problem_id, r.system), []).append(r)

    head3 = ["System", "Level", "n", f"{compile_name} %", f"{soft_name} %", f"{sa_name} %",
             f"{compile_name} − {sa_name} (pts)"]
    body3, chart = [], []
    for system, group in by_system.items():
        for level in [*levels, None]:
            part = [r for r in group if level is None or r.level == level]
            if not part:
                continue
            n = len(part)
            gap = Fraction(sum(r.compiled for r in part) - sum(r.sa_pass for r in part), n)
            body3.append([system, level or "All", str(n), _mean_pct([r.compiled for r in part]),
                          _mean_pct([r.sa_pass_soft for r in part]), _mean_pct([r.sa_pass for r in part]),
                          percent(gap)])
            chart.append(PassCounts(system, level or "All", n, sum(r.compiled for r in part),
                                    sum(r.sa_pass_soft for r in part), sum(r.sa_pass for r in part)))

    def per_problem_mean(system: str, attr: str) -> list[Fraction]:
        """Per submitted problem, the fraction of the system's samples with ``attr`` (one sample: 0 or 1)."""
        out = []
        for (pid, s), group in cells.items():
            if s == system:
                out.append(Fraction(sum(bool(getattr(r, attr)) for r in group), len(group)))
        return out

    headc = ["System", "Submitted", "Problems", "Coverage %", f"{sa_name} % (submitted)",
             f"{sa_name} % (leaderboard: missing = fail)", f"{compile_name} % (leaderboard)"]
    bodyc = []
    for system in by_system:
        passed, compiled = per_problem_mean(system, "sa_pass"), per_problem_mean(system, "compiled")
        bodyc.append([system, str(len(passed)), str(total), _pct(len(passed), total),
                      _pct(sum(passed, Fraction(0)), len(passed)), _pct(sum(passed, Fraction(0)), total),
                      _pct(sum(compiled, Fraction(0)), total)])

    headb = ["System", "n", *(bucket_header(b, tier) for b in BUCKET_ORDER)]
    bodyb = [[system, str(len(group)), *(str(sum(r.bucket == b for r in group)) for b in BUCKET_ORDER)]
             for system, group in by_system.items()]

    def problem_cell(pid: str, system: str) -> str:
        if pid in missing.problems:
            return NOT_LOADED_CELL
        group = cells.get((pid, system))
        if not group:
            return "—"
        if len(group) == 1:
            return _cell(group[0].bucket, tier)
        return f"{sum(r.sa_pass for r in group)}/{len(group)} SA-Pass"

    headp = ["Problem", "Level", *systems]
    bodyp = [[pid, universe.get(pid) or "—", *(problem_cell(pid, s) for s in systems)]
             for pid in sorted(universe, key=natural_key)]

    headf = ["System", "Problem", "Sample", "Bucket", "First reason", "File"]
    bodyf = [[r.system, r.problem_id, r.sample or "", bucket_header(r.bucket, tier), _one_line(r.reason or ""),
              r.origin]
             for r in sorted(rows, key=lambda r: (natural_key(r.system), natural_key(r.problem_id),
                                                  natural_key(r.sample)))
             if not r.sa_pass or r.bucket == "undecided"]

    outcomes = [(r.system, r.problem_id, r.sa_pass and r.bucket != "undecided") for r in rows]
    groups = per_problem(outcomes)
    ks = ks_for(max((g.n for g in groups), default=0))
    headk = ["System", "Problems", "Submitted", "Samples", "Samples per problem",
             *(f"pass@{k} %" for k in ks), "mean@k %"]
    bodyk = []
    for s in sorted(per_system(groups, universe, ks), key=lambda s: natural_key(s.system)):
        spread = str(s.min_samples) if s.min_samples == s.max_samples else f"{s.min_samples}–{s.max_samples}"
        bodyk.append([s.system, str(s.problems), str(s.submitted), str(s.samples), spread,
                      *("—" if s.pass_at[k] is None else percent(s.pass_at[k]) for k in ks), percent(s.mean)])
    heads = ["System", "Problem", "Samples", "Passed", *(f"pass@{k} %" for k in ks), "mean@k %"]
    bodys = [[g.system, g.problem_id, str(g.n), str(g.c),
              *("—" if g.pass_at(k) is None else percent(g.pass_at(k)) for k in ks),
              "—" if g.mean is None else percent(g.mean)]
             for g in sorted(groups, key=lambda g: (natural_key(g.system), natural_key(g.problem_id)))]

    not_loaded = (["Problem", "Reason"], [[pid, _one_line(why)] for pid, why in sorted(missing.problems.items())])
    skipped = (["Input", "Reason"], [[where, _one_line(why)] for where, why in missing.inputs])
    return ReportTables(tier, (head3, body3), (headc, bodyc), (headb, bodyb), (headp, bodyp), (headf, bodyf), chart,
                        skeleton_llm_table(by_system), (headk, bodyk), (heads, bodys), not_loaded, skipped, total)


SKELETON_LLM_NOTE = ("Skeleton + LLM is a model's opinion, not a Lean check: a row the skeleton leaves undecided "
                     "counts as a pass there only when the model answered every undecided atom pair `same: true`, "
                     "as a fail when it answered one `false`; skeleton SA-Pass is unchanged by it.")


def skeleton_llm_table(by_system: Mapping[str, Sequence[ReportRow]]) -> Table | None:
    """Skeleton SA-Pass and skeleton + LLM side by side, per system (None when no row has the LLM column)."""
    if not any(r.skeleton_llm is not None for group in by_system.values() for r in group):
        return None
    head = ["System", "n", "Skeleton SA-Pass", "Skeleton undecided", "Skeleton + LLM pass", "Skeleton + LLM fail",
            "Skeleton + LLM undecided", "Skeleton SA-Pass %", "Skeleton + LLM pass %", "Unanswered atom pairs"]
    body = []
    for system, group in by_system.items():
        n = len(group)
        verdicts = [r.skeleton_llm for r in group]
        body.append([system, str(n), str(sum(r.sa_pass for r in group)),
                     str(sum(r.bucket == "undecided" for r in group)), str(verdicts.count("pass")),
                     str(verdicts.count("fail")), str(verdicts.count("undecided")),
                     _pct(sum(r.sa_pass for r in group), n), _pct(verdicts.count("pass"), n),
                     str(sum(r.llm_unanswered for r in group))])
    return head, body


def _one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _md_table(headers: Sequence[str], body: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    def esc(v: str) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(esc(h) for h in headers) + " |",
             "| " + " | ".join(["---"] * left + ["---:"] * (len(headers) - left)) + " |"]
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in body]
    return lines


def _csv_table(headers: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows(body)
    return out.getvalue()


PASS_AT_K_NOTE = ("pass@k = 1 − C(n−c, k)/C(n, k) per (system, problem) with n samples of which c pass (the unbiased "
                  "estimator; — where a submitted problem has fewer than k samples); mean@k = c/n, the unbiased "
                  "estimate of the passing fraction of k samples for every k ≤ n. Both are means over every problem "
                  "of the set: a problem not submitted, or that did not load, counts 0.")


def render_report_markdown(tables: ReportTables, *, heading: str = "##") -> str:
    h = heading
    compile_name = compile_label(tables.tier)
    measure = ("skeleton SA-Pass (kernel tier: candidate statements checked on abstracted atoms, proofs not "
               "checked; 'statement elaborated' = the statement was read and abstracted)" if tables.tier == "kernel"
               else "SA-Pass (full tier: real Lean, each candidate compiled as its own module)")
    lines = [f"{h} Pass rates by system and level (Table 3) — {measure}", "",
             *_md_table(*tables.table3, left=2), "",
             f"{h} Coverage", "",
             f"Submitted of the benchmark's {tables.problems} problems (those that did not load included); the "
             "leaderboard columns count a problem a system did not submit, or that did not load, as a failure "
             f"({compile_name.lower()} and SA-Pass 0); with several samples a problem counts the fraction of its "
             "samples that pass.", "",
             *_md_table(*tables.coverage), "",
             f"{h} Samples: pass@k and mean@k", "", PASS_AT_K_NOTE, "",
             *_md_table(*tables.pass_at_k), "",
             f"{h} Buckets", "", bucket_legend(tables.tier), "",
             *_md_table(*tables.buckets), "",
             *([f"{h} Skeleton SA-Pass and skeleton + LLM", "", SKELETON_LLM_NOTE, "",
                *_md_table(*tables.skeleton_llm), ""] if tables.skeleton_llm else []),
             f"{h} Per problem", "", *_md_table(*tables.per_problem, left=2), "",
             f"{h} Problems that did not load", ""]
    lines += [*_md_table(*tables.not_loaded, left=2), ""] if tables.not_loaded[1] else ["None.", ""]
    lines += [f"{h} Inputs not scored", ""]
    lines += [*_md_table(*tables.skipped, left=2), ""] if tables.skipped[1] else ["None.", ""]
    lines += [f"{h} Failures and their first reason", ""]
    if tables.failures[1]:
        lines += _md_table(*tables.failures, left=6)
    else:
        lines.append("None: every candidate passes.")
    return "\n".join(lines) + "\n"


REPORT_CSVS = ("table3", "coverage", "pass_at_k", "samples", "buckets", "per_problem", "not_loaded", "skipped",
               "failures")


def report_csvs(tables: ReportTables) -> dict[str, str]:
    out = {name: _csv_table(*getattr(tables, name)) for name in REPORT_CSVS}
    if tables.skeleton_llm is not None:
        out["skeleton_llm"] = _csv_table(*tables.skeleton_llm)
    return out
