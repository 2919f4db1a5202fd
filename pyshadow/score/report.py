"""Writing scores: the results JSONL (appended as candidates finish, resumable) and the summary tables.

``ResultsLog`` appends one flushed line per ``ScoreRow``; ``read_rows`` reads a results file back (a line cut
short by an interruption, or any unreadable line, is skipped), keyed by ``content_hash`` — a rerun reuses those
rows and scores only what is new or changed. Rows are never rewritten: a changed candidate gets a new row and the
old one stays in the file, but only the current run's rows enter the summaries.

``write_summaries`` writes, next to ``RESULTS.jsonl``: ``RESULTS.summary.md`` (the readable tables of
``pyshadow.score.report_tables`` — Table 3, coverage, pass@k, buckets, per problem, problems that did not load,
inputs not scored, failures — then every standard table of ``pyshadow.score.metrics``: by system, area, level,
system × level, titled full or skeleton SA-Pass, with the compile − SA-Pass gap as its own column), one CSV per
standard table (``RESULTS.by_system.csv`` …) and per readable table (``RESULTS.pass_at_k.csv``,
``RESULTS.samples.csv``, ``RESULTS.buckets.csv``, ``RESULTS.per_problem.csv``, ``RESULTS.not_loaded.csv``,
``RESULTS.skipped.csv``). ``write_report`` writes the report ``pyshadow report`` makes from results files. Both say
the submission kind (``proofs``) the rows were scored under.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import BadInput
from ..jsonl import AppendLog, read_records
from ..problems import proofs_description
from .metrics import STANDARD_GROUPINGS, ScoreRecord, render_csv, render_markdown, standard_tables
from .pipeline import ScoreRow
from .report_tables import (  # noqa: F401 - re-exported: the report's vocabulary lives in report_tables
    BUCKET_CELLS,
    BUCKET_HEADERS,
    BUCKET_ORDER,
    NotScored,
    ReportRow,
    ReportTables,
    build_tables,
    bucket_header,
    compile_label,
    first_reason,
    is_score_row,
    not_scored,
    render_report_markdown,
    report_csvs,
    report_rows,
    row_bucket,
)


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


def extra_summary_paths(results: Path) -> dict[str, Path]:
    """The summary's other CSVs beside the results file: ``RESULTS.<table>.csv`` for each readable table."""
    results = Path(results)
    stem = results.name.removesuffix(".jsonl")
    return {name: results.with_name(f"{stem}.{name}.csv")
            for name in ("pass_at_k", "samples", "buckets", "per_problem", "not_loaded", "skipped")}


def records(rows: Iterable[ScoreRow]) -> list[ScoreRecord]:
    """The counted rows as metric records (a bad input row with a known problem and system counts as a failure)."""
    return [ScoreRecord(r.problem_id or "", r.system or "", r.score, r.area, r.level) for r in rows if r.counted]


def problem_levels(rows: Iterable[Mapping[str, Any]]) -> dict[str, str | None]:
    """Every problem the rows mention, with its level: the coverage denominator when nothing better is known."""
    return {r["problem_id"]: r.get("level") for r in rows if r.get("problem_id") and r.get("counted", True)}


def _summary_tables(rows: Sequence[ScoreRow], problems: Mapping[str, str | None] | None) -> ReportTables:
    dicts = [r.to_dict() for r in rows]
    return build_tables(report_rows(dicts), problems if problems is not None else problem_levels(dicts),
                        not_scored(dicts))


def summary_markdown(rows: Sequence[ScoreRow], tier: str, problems: Mapping[str, str | None] | None = None,
                     *, proofs: str | None = None) -> str:
    """The score summary: the readable report (Table 3, coverage, pass@k, buckets, per problem, what was not
    scored, failures), then every standard table. ``problems`` (id → level) is the benchmark (default: the
    problems the rows mention); problems that did not load come from their rows. ``proofs`` says what the
    submission kind was (``pyshadow.problems.PROOFS_MODES``)."""
    counted = records(rows)
    measure = "skeleton SA-Pass (kernel tier: statements checked on abstracted atoms, proofs not checked)" \
        if tier == "kernel" else "SA-Pass (full tier: real Lean, candidate compiled as its own module)"
    lines = [f"# pyshadow score — {measure}", ""]
    if proofs is not None:
        lines += [proofs_line(proofs, tier), ""]
    sorried = sum(bool(r.sorry) for r in rows if r.counted)
    if sorried:
        lines += [f"{sorried} candidates have `sorry` in a theorem's proof, allowed (proofs ignored); each row's "
                  "`sorry` lists them.", ""]
    tables = _summary_tables(rows, problems)
    left_out = len(tables.skipped[1])
    lines.append(f"{len(counted)} candidates counted on {tables.problems} problems"
                 + (f" ({len(tables.not_loaded[1])} did not load)" if tables.not_loaded[1] else "")
                 + (f"; {left_out} input rows not counted (listed below)" if left_out else ""))
    lines.append("")
    if not counted:
        lines.append("No candidate was scored.")
        return "\n".join(lines) + "\n\n" + render_report_markdown(tables)
    return ("\n".join(lines) + "\n" + render_report_markdown(tables) + "\n## Standard tables\n\n"
            + "\n".join(render_markdown(t) for t in standard_tables(counted)))


def proofs_line(proofs: str, tier: str) -> str:
    """One line saying what the submission kind means in this tier."""
    return f"Submission kind: proofs = \"{proofs}\" — {proofs_description(proofs, tier)}"


def write_summaries(rows: Sequence[ScoreRow], results: Path, tier: str,
                    problems: Mapping[str, str | None] | None = None, *, proofs: str | None = None) -> list[Path]:
    """Write the markdown summary, one CSV per standard table and the readable tables' CSVs (pass@k, samples,
    buckets, per problem, not loaded, skipped); returns the paths written."""
    md_path, csv_paths = summary_paths(results)
    written = [md_path]
    md_path.write_text(summary_markdown(rows, tier, problems, proofs=proofs), encoding="utf-8")
    counted = records(rows)
    if counted:
        for table in standard_tables(counted):
            csv_paths[table.by].write_text(render_csv(table), encoding="utf-8")
            written.append(csv_paths[table.by])
    csvs = report_csvs(_summary_tables(rows, problems))
    for name, path in extra_summary_paths(results).items():
        path.write_text(csvs[name], encoding="utf-8")
        written.append(path)
    return written


def read_result_dicts(paths: Sequence[Path]) -> tuple[list[dict[str, Any]], list[str]]:
    """The score rows of RESULTS.jsonl files (in order) and one line per line that is not a score row."""
    from .agreement import read_jsonl_objects

    rows, problems = [], []
    for path in paths:
        objects, bad = read_jsonl_objects(path)
        problems += bad
        for number, obj in objects:
            if is_score_row(obj):
                rows.append(obj)
            else:
                problems.append(f"{path}:{number}: not a score row (no tier / compiled)")
    return rows, problems


def write_report(rows: Sequence[Mapping[str, Any]], out_dir: Path,
                 problems: Mapping[str, str | None] | None = None, *, plots: bool = True,
                 unreadable: Sequence[str] = (), not_loaded: Mapping[str, str] | None = None,
                 html: bool = False) -> list[Path]:
    """``report.md``, the CSVs and (with matplotlib) ``pass_rates.{png,svg}`` in ``out_dir``; one section per tier
    when the rows hold both (their numbers never share a table). ``unreadable``: lines of the results files that
    are not score rows (listed as inputs not scored); ``not_loaded``: problems of ``--problems`` that did not load
    (id → reason), besides those the rows record; ``html``: also ``report.html``, the same tables on one
    self-contained page with each problem's drill-down (``pyshadow.score.html``). Returns the paths written."""
    from .plots import matplotlib_available, plot_pass_rates

    chosen = report_rows(rows)
    missing = not_scored(rows, unreadable)
    missing.problems.update(not_loaded or {})
    universe = dict(problems) if problems is not None else problem_levels(rows)
    total = len(set(universe) | set(missing.problems))
    tiers = sorted({r.tier for r in chosen}, key=lambda t: t != "full")
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    parts = ["# pyshadow report", "",
             f"{len(chosen)} scored candidates of {len({r.system for r in chosen})} systems on {total} problems"
             + (f" ({len(missing.problems)} did not load)" if missing.problems else "") + ".", ""]
    kinds = sorted({(str(r.get("tier")), str(r["proofs"])) for r in rows if r.get("proofs")})
    parts += [f"{proofs_line(proofs, tier)} ({tier} tier)" for tier, proofs in kinds] + ([""] if kinds else [])
    sorried = sum(bool(r.get("sorry")) for r in rows if r.get("counted", True))
    if sorried:
        parts += [f"{sorried} candidates have `sorry` in a theorem's proof, allowed (proofs ignored); each row's "
                  "`sorry` lists them.", ""]
    intro = [line for line in parts if line and not line.startswith("#")]
    sections = []
    for tier in tiers or ["full"]:
        tables = build_tables([r for r in chosen if r.tier == tier], universe, missing)
        figure = None
        prefix = "" if len(tiers) <= 1 else f"{tier}_"
        if len(tiers) > 1:
            parts += [f"## {'Full tier' if tier == 'full' else 'Kernel tier (skeleton)'}", ""]
        if not chosen:
            parts += ["No scored candidate in the input.", ""]
        parts.append(render_report_markdown(tables, heading="###" if len(tiers) > 1 else "##"))
        for name, text in report_csvs(tables).items():
            path = out_dir / f"{prefix}{name}.csv"
            path.write_text(text, encoding="utf-8")
            written.append(path)
        if plots and matplotlib_available() and tables.chart:
            sa_name = "skeleton SA-Pass" if tier == "kernel" else "SA-Pass"
            figures = plot_pass_rates(tables.chart, out_dir / f"{prefix}pass_rates",
                                      compile_name=compile_label(tier), sa_name=sa_name)
            written += figures
            figure = figures[0].read_bytes()
        sections.append((("Full tier" if tier == "full" else "Kernel tier (skeleton)"), tables, figure))
    md = out_dir / "report.md"
    md.write_text("\n".join(parts).rstrip("\n") + "\n", encoding="utf-8")
    if html:
        from .html import write_page

        last = {(r.get("tier", "full"), r["problem_id"], r["system"], r.get("sample")): r for r in rows
                if r.get("counted", True) and r.get("problem_id") and r.get("system")}
        written.append(write_page(out_dir / "report.html",
                                  [(title, tables, [r for r in last.values() if r.get("tier", "full") == tables.tier],
                                    figure) for title, tables, figure in sections], intro))
    return [md, *written]
