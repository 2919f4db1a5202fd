"""Writing scores: the results JSONL (appended as candidates finish, resumable) and the summary tables.

``ResultsLog`` appends one flushed line per ``ScoreRow``; ``read_rows`` reads a results file back (a line cut
short by an interruption, or any unreadable line, is skipped), keyed by ``content_hash`` — a rerun reuses those
rows and scores only what is new or changed. Rows are never rewritten: a changed candidate gets a new row and the
old one stays in the file, but only the current run's rows enter the summaries.

``write_summaries`` writes, next to ``RESULTS.jsonl``: ``RESULTS.summary.md`` (every standard table of
``pyshadow.score.metrics`` — by system, area, level, system × level — titled full or skeleton SA-Pass, with the
compile − SA-Pass gap as its own column) and one CSV per table, ``RESULTS.by_system.csv`` and so on.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import BadInput
from ..jsonl import AppendLog, read_records
from .agreement import row_is_undecided
from .metrics import (
    STANDARD_GROUPINGS,
    MixedTierError,
    ScoreRecord,
    natural_key,
    percent,
    render_csv,
    render_markdown,
    standard_tables,
)
from .pipeline import ScoreRow
from .skeleton_llm import answer_errors, column_verdict


def read_rows(path: Path) -> dict[str, ScoreRow]:
    """The rows already in a results file by content hash (a later line wins); {} when there is no file."""
    try:
        return read_records(path, ScoreRow.from_dict, lambda r: r.content_hash)
    except OSError as err:
        raise BadInput(f"{path}: cannot read the results file ({err.strerror})") from None


class ResultsLog(AppendLog):
    """Appends rows to a JSONL file, one flushed line each (``pyshadow.jsonl.AppendLog``: a file that ends
    mid-line, cut off by an interruption, gets a fresh line first); an unwritable file is bad input."""

    def __init__(self, path: Path):
        super().__init__(Path(path))

    def __enter__(self) -> ResultsLog:
        try:
            super().__enter__()
        except OSError as err:
            raise BadInput(f"{self.path}: cannot write ({err.strerror})") from None
        return self


# ---------------------------------------------------------------------------------------------------------------
# Summaries


def summary_paths(results: Path) -> tuple[Path, dict[tuple[str, ...], Path]]:
    """``RESULTS.summary.md`` and ``{grouping: RESULTS.by_<grouping>.csv}`` beside the results file."""
    results = Path(results)
    stem = results.name.removesuffix(".jsonl")
    csvs = {by: results.with_name(f"{stem}.by_{'_'.join(by)}.csv") for by in STANDARD_GROUPINGS}
    return results.with_name(f"{stem}.summary.md"), csvs


def records(rows: Iterable[ScoreRow]) -> list[ScoreRecord]:
    """The counted rows as metric records (a bad input row with a known problem and system counts as a failure)."""
    return [ScoreRecord(r.problem_id or "", r.system or "", r.score, r.area, r.level) for r in rows if r.counted]


def problem_levels(rows: Iterable[Mapping[str, Any]]) -> dict[str, str | None]:
    """Every problem the rows mention, with its level: the coverage denominator when nothing better is known."""
    return {r["problem_id"]: r.get("level") for r in rows if r.get("problem_id") and r.get("counted", True)}


def summary_markdown(rows: Sequence[ScoreRow], tier: str, problems: Mapping[str, str | None] | None = None) -> str:
    """The score summary: the readable report (Table 3, coverage, buckets, per problem, failures), then every
    standard table. ``problems`` (id → level) is the benchmark; by default the problems the rows mention."""
    counted = records(rows)
    measure = "skeleton SA-Pass (kernel tier: statements checked on abstracted atoms, proofs not checked)" \
        if tier == "kernel" else "SA-Pass (full tier: real Lean, candidate compiled as its own module)"
    lines = [f"# pyshadow score — {measure}", ""]
    left_out = len(rows) - len(counted)
    lines.append(f"{len(counted)} candidates counted" + (f"; {left_out} input rows not counted (unknown problem or "
                                                        "no system; reasons in the results file)" if left_out else ""))
    lines.append("")
    if not counted:
        return "\n".join(lines + ["No candidate was scored."]) + "\n"
    dicts = [r.to_dict() for r in rows]
    readable = render_report_markdown(build_tables(report_rows(dicts), problems or problem_levels(dicts)))
    return ("\n".join(lines) + "\n" + readable + "\n## Standard tables\n\n"
            + "\n".join(render_markdown(t) for t in standard_tables(counted)))


def write_summaries(rows: Sequence[ScoreRow], results: Path, tier: str,
                    problems: Mapping[str, str | None] | None = None) -> list[Path]:
    """Write the markdown summary and one CSV per standard table; returns the paths written."""
    md_path, csv_paths = summary_paths(results)
    written = [md_path]
    md_path.write_text(summary_markdown(rows, tier, problems), encoding="utf-8")
    counted = records(rows)
    if counted:
        for table in standard_tables(counted):
            csv_paths[table.by].write_text(render_csv(table), encoding="utf-8")
            written.append(csv_paths[table.by])
    return written


# ---------------------------------------------------------------------------------------------------------------
# The report people read: Table 3, coverage, buckets that add up, per problem, failures with reasons
#
# These read plain row dicts (``ScoreRow.to_dict()`` or a line of RESULTS.jsonl), so fields other tools add to a
# row (an ``undecided`` skeleton verdict, per-shadow findings) never break them.

BUCKET_ORDER = ("audit_failed", "not_compiled", "undecided", "both", "backward_only", "forward_only", "neither")
BUCKET_HEADERS = {
    "audit_failed": "Audit failed", "not_compiled": "Not compiled", "undecided": "Undecided", "both": "Both",
    "backward_only": "Bwd only", "forward_only": "Fwd only", "neither": "Neither",
}
# the per-problem table's cell for each bucket
BUCKET_CELLS = {
    "audit_failed": "audit", "not_compiled": "no compile", "undecided": "undecided", "both": "SA-Pass",
    "backward_only": "bwd only", "forward_only": "fwd only", "neither": "neither",
}


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
            "; undecided = the checker could not decide; both = every forward and the backward check pass "
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

    @classmethod
    def from_dict(cls, row: Mapping[str, Any]) -> ReportRow:
        return cls(row["problem_id"], row["system"], row.get("tier", "full"), row.get("level"), row.get("area"),
                   bool(row.get("compiled")), bool(row.get("sa_pass")), float(row.get("sa_pass_soft", 0.0)),
                   row_bucket(row), first_reason(row), row.get("origin", ""), column_verdict(dict(row)),
                   answer_errors(dict(row)))


def row_bucket(row: Mapping[str, Any]) -> str:
    """The row's bucket (``BUCKET_ORDER``): audit failures and non-compiling rows have their own."""
    if row.get("audit"):
        return "audit_failed"
    if not row.get("compiled"):
        return "not_compiled"
    if row_is_undecided(row):
        return "undecided"
    if row.get("bucket") in BUCKET_ORDER:
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
    """Counted rows, one per (tier, problem, system) — the last one wins, as in a resumed results file."""
    chosen: dict[tuple[str, str, str], ReportRow] = {}
    for row in rows:
        if row.get("counted", True) and row.get("problem_id") and row.get("system"):
            chosen[(row.get("tier", "full"), row["problem_id"], row["system"])] = ReportRow.from_dict(row)
    return list(chosen.values())


def _pct(part: int | float, whole: int) -> str:
    return percent(Fraction(part).limit_denominator(10**9) / whole) if whole else "—"


def _mean_pct(values: Sequence[float | bool]) -> str:
    return percent(sum(Fraction(v).limit_denominator(10**9) for v in values) / len(values)) if values else "—"


@dataclass(frozen=True)
class ReportTables:
    """Every table of the report as (headers, rows of cells); markdown and CSV are both rendered from these."""

    tier: str
    table3: tuple[list[str], list[list[str]]]
    coverage: tuple[list[str], list[list[str]]]
    buckets: tuple[list[str], list[list[str]]]
    per_problem: tuple[list[str], list[list[str]]]
    failures: tuple[list[str], list[list[str]]]
    chart: list[tuple[str, float, float, float]]  # system, compile, SA-Pass_soft, SA-Pass (fractions) for plots
    # skeleton SA-Pass beside skeleton + LLM, per system; None when no row has the column (no --llm)
    skeleton_llm: tuple[list[str], list[list[str]]] | None = None


def build_tables(rows: Sequence[ReportRow], problems: Mapping[str, str | None]) -> ReportTables:
    """The tables of one tier's rows; ``problems`` maps every problem of the benchmark to its level (the coverage
    denominator; a problem a system did not submit counts as a failure in the leaderboard columns)."""
    tiers = {r.tier for r in rows}
    if len(tiers) > 1:
        raise MixedTierError("skeleton (kernel-tier) and full SA-Pass rows cannot share one report")
    tier = tiers.pop() if tiers else "full"
    compile_name = compile_label(tier)
    sa_name = "Skeleton SA-Pass" if tier == "kernel" else "SA-Pass"
    soft_name = f"{sa_name}_soft"
    systems = sorted({r.system for r in rows}, key=natural_key)
    levels = sorted({r.level for r in rows if r.level}, key=natural_key)
    by_system = {s: [r for r in rows if r.system == s] for s in systems}

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
        n = len(group)
        chart.append((system, sum(r.compiled for r in group) / n,
                      sum(r.sa_pass_soft for r in group) / n, sum(r.sa_pass for r in group) / n))

    total = len(problems)
    headc = ["System", "Submitted", "Problems", "Coverage %", f"{sa_name} % (submitted)",
             f"{sa_name} % (leaderboard: missing = fail)", f"{compile_name} % (leaderboard)"]
    bodyc = []
    for system, group in by_system.items():
        bodyc.append([system, str(len(group)), str(total), _pct(len(group), total),
                      _mean_pct([r.sa_pass for r in group]), _pct(sum(r.sa_pass for r in group), total),
                      _pct(sum(r.compiled for r in group), total)])

    present = [b for b in BUCKET_ORDER if b != "undecided" or any(r.bucket == b for r in rows)]
    headb = ["System", "n", *(bucket_header(b, tier) for b in present)]
    bodyb = [[system, str(len(group)), *(str(sum(r.bucket == b for r in group)) for b in present)]
             for system, group in by_system.items()]

    cell = {(r.problem_id, r.system): r for r in rows}
    headp = ["Problem", "Level", *systems]
    bodyp = [[pid, problems.get(pid) or "—",
              *(_cell(cell[(pid, s)].bucket, tier) if (pid, s) in cell else "—" for s in systems)]
             for pid in sorted(problems, key=natural_key)]

    headf = ["System", "Problem", "Bucket", "First reason", "File"]
    bodyf = [[r.system, r.problem_id, bucket_header(r.bucket, tier), _one_line(r.reason or ""), r.origin]
             for r in sorted(rows, key=lambda r: (natural_key(r.system), natural_key(r.problem_id)))
             if not r.sa_pass or r.bucket == "undecided"]
    return ReportTables(tier, (head3, body3), (headc, bodyc), (headb, bodyb), (headp, bodyp), (headf, bodyf), chart,
                        skeleton_llm_table(by_system))


SKELETON_LLM_NOTE = ("Skeleton + LLM is a model's opinion, not a Lean check: a row the skeleton leaves undecided "
                     "counts as a pass there only when the model answered every undecided atom pair `same: true`, "
                     "as a fail when it answered one `false`; skeleton SA-Pass is unchanged by it.")


def skeleton_llm_table(by_system: Mapping[str, Sequence[ReportRow]]) -> tuple[list[str], list[list[str]]] | None:
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


def render_report_markdown(tables: ReportTables, *, heading: str = "##") -> str:
    h = heading
    compile_name = compile_label(tables.tier)
    measure = ("skeleton SA-Pass (kernel tier: candidate statements checked on abstracted atoms, proofs not "
               "checked; 'statement elaborated' = the statement was read and abstracted)" if tables.tier == "kernel"
               else "SA-Pass (full tier: real Lean, each candidate compiled as its own module)")
    lines = [f"{h} Pass rates by system and level (Table 3) — {measure}", "",
             *_md_table(*tables.table3, left=2), "",
             f"{h} Coverage", "",
             "Submitted of the benchmark's problems; the leaderboard columns count a problem a system did not "
             f"submit as a failure ({compile_name.lower()} and SA-Pass 0).", "",
             *_md_table(*tables.coverage), "",
             f"{h} Buckets", "", bucket_legend(tables.tier), "",
             *_md_table(*tables.buckets), "",
             *([f"{h} Skeleton SA-Pass and skeleton + LLM", "", SKELETON_LLM_NOTE, "",
                *_md_table(*tables.skeleton_llm), ""] if tables.skeleton_llm else []),
             f"{h} Per problem", "", *_md_table(*tables.per_problem, left=2), "",
             f"{h} Failures and their first reason", ""]
    if tables.failures[1]:
        lines += _md_table(*tables.failures, left=5)
    else:
        lines.append("None: every candidate passes.")
    return "\n".join(lines) + "\n"


REPORT_CSVS = ("table3", "coverage", "buckets", "per_problem", "failures")


def report_csvs(tables: ReportTables) -> dict[str, str]:
    out = {name: _csv_table(*getattr(tables, name)) for name in REPORT_CSVS}
    if tables.skeleton_llm is not None:
        out["skeleton_llm"] = _csv_table(*tables.skeleton_llm)
    return out


def read_result_dicts(paths: Sequence[Path]) -> tuple[list[dict[str, Any]], list[str]]:
    """The score rows of RESULTS.jsonl files (in order) and one line per line that is not a score row."""
    from .agreement import read_jsonl_objects

    rows, problems = [], []
    for path in paths:
        objects, bad = read_jsonl_objects(path)
        problems += bad
        for number, obj in objects:
            if "tier" in obj and "compiled" in obj:
                rows.append(obj)
            else:
                problems.append(f"{path}:{number}: not a score row (no tier / compiled)")
    return rows, problems


def write_report(rows: Sequence[Mapping[str, Any]], out_dir: Path,
                 problems: Mapping[str, str | None] | None = None, *, plots: bool = True) -> list[Path]:
    """``report.md``, the CSVs and (with matplotlib) ``pass_rates.{png,svg}`` in ``out_dir``; one section per tier
    when the rows hold both (their numbers never share a table). Returns the paths written."""
    from .plots import matplotlib_available, plot_pass_rates

    chosen = report_rows(rows)
    universe = dict(problems) if problems is not None else problem_levels(rows)
    tiers = sorted({r.tier for r in chosen}, key=lambda t: t != "full")
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    parts = ["# pyshadow report", "",
             f"{len(chosen)} scored candidates of {len({r.system for r in chosen})} systems on {len(universe)} "
             "problems.", ""]
    for tier in tiers:
        tables = build_tables([r for r in chosen if r.tier == tier], universe)
        prefix = "" if len(tiers) == 1 else f"{tier}_"
        if len(tiers) > 1:
            parts += [f"## {'Full tier' if tier == 'full' else 'Kernel tier (skeleton)'}", ""]
        parts.append(render_report_markdown(tables, heading="###" if len(tiers) > 1 else "##"))
        for name, text in report_csvs(tables).items():
            path = out_dir / f"{prefix}{name}.csv"
            path.write_text(text, encoding="utf-8")
            written.append(path)
        if plots and matplotlib_available() and tables.chart:
            sa_name = "skeleton SA-Pass" if tier == "kernel" else "SA-Pass"
            written += plot_pass_rates(tables.chart, out_dir / f"{prefix}pass_rates",
                                       compile_name=compile_label(tier), sa_name=sa_name)
    if not chosen:
        parts.append("No scored candidate in the input.")
    md = out_dir / "report.md"
    md.write_text("\n".join(parts).rstrip("\n") + "\n", encoding="utf-8")
    return [md, *written]
