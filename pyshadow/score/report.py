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

from collections.abc import Iterable, Sequence
from pathlib import Path

from ..errors import BadInput
from ..jsonl import AppendLog, read_records
from .metrics import STANDARD_GROUPINGS, ScoreRecord, render_csv, render_markdown, standard_tables
from .pipeline import ScoreRow


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


def summary_markdown(rows: Sequence[ScoreRow], tier: str) -> str:
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
    return "\n".join(lines) + "\n" + "\n".join(render_markdown(t) for t in standard_tables(counted))


def write_summaries(rows: Sequence[ScoreRow], results: Path, tier: str) -> list[Path]:
    """Write the markdown summary and one CSV per standard table; returns the paths written."""
    md_path, csv_paths = summary_paths(results)
    written = [md_path]
    md_path.write_text(summary_markdown(rows, tier), encoding="utf-8")
    counted = records(rows)
    if counted:
        for table in standard_tables(counted):
            csv_paths[table.by].write_text(render_csv(table), encoding="utf-8")
            written.append(csv_paths[table.by])
    return written
