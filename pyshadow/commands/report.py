"""``pyshadow report RESULTS.jsonl… -o DIR``: the report benchmark authors read (docs/commands.md#report)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import BadInput
from ..problems import load_problems
from ..score.plots import PLOTS_EXTRA_HINT, matplotlib_available
from ..score.report import read_result_dicts, write_report
from .helptext import add_command
from .score import unloaded_problems


def register(subparsers) -> None:
    p = add_command(subparsers, "report", "Table 3, coverage, buckets, per-problem and failure tables (+ plots)",
                    "report results.jsonl -o report --problems problems --html",
                    description="the report benchmark authors read")
    p.add_argument("results", type=Path, nargs="+", metavar="RESULTS.jsonl", help="score results (pyshadow score)")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="DIR", help="folder to write the report into")
    p.add_argument("--problems", type=Path, metavar="PROBLEMS_DIR",
                   help="the benchmark's problems (coverage denominator)")
    p.add_argument("--no-plots", action="store_true", help="write the text report and CSVs only")
    p.add_argument("--html", action="store_true",
                   help="also report.html, one self-contained page")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rows, unreadable = read_result_dicts(args.results)
    for line in unreadable:
        print(f"skipped: {line}")
    if not rows:
        raise BadInput("no score row in " + ", ".join(str(p) for p in args.results))
    universe, not_loaded = None, {}
    if args.problems is not None:
        loaded, errors = load_problems(args.problems)
        for err in errors:
            print(f"skipped problem: {err}")
        universe = {p.id: p.level for p in loaded}
        not_loaded = unloaded_problems(errors, set(universe))
    written = write_report(rows, args.output, universe, plots=not args.no_plots, unreadable=unreadable,
                           not_loaded=not_loaded, html=args.html)
    if not args.no_plots and not matplotlib_available():
        print(PLOTS_EXTRA_HINT)
    print(f"report: {written[0]} and {len(written) - 1} more files in {args.output}")
    if args.html:
        print(f"page: {args.output / 'report.html'} (self-contained: open it in a browser, no network needed)")
    return 0
