"""``pyshadow report RESULTS.jsonl… -o DIR [--problems PROBLEMS_DIR]``: the report benchmark authors read.

In DIR: ``report.md`` — per system × level the paper's Table 3 (compile, SA-Pass_soft, SA-Pass and the compile −
SA-Pass gap; in the kernel tier the compile column says "statement elaborated"), coverage (submitted / problems,
and leaderboard columns counting a missing problem as a failure), buckets that add up to n with a legend, a
per-problem table and the failures with their first reason — plus one CSV per table and, when matplotlib is
installed (``pip install 'pyshadow-lean[plots]'``), ``pass_rates.png``/``.svg`` (bars per system, one panel
per level, Wilson 95% whiskers). With ``--html``, also ``report.html``: the same tables on one self-contained page
(inline CSS and script, the figure inline; no network), sortable by a click on a header, with each problem's
candidates — their checks, the shadow statements, the failing messages, the trust gate's findings.

The coverage denominator is the problems of ``--problems`` when given, else every problem the results mention
(the report says how many); problems that did not load — recorded by ``score``, or found so in ``--problems`` —
are rows of the per-problem table, failures for every system in the leaderboard columns and pass@k, and listed
with their reasons; input rows that were not scored and lines of the results that are not score rows are listed
too. Rows of both tiers get a section each. Exit codes: 0 written; 2 no readable results
(or no score row in them); 1 internal error.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import BadInput
from ..problems import load_problems
from ..score.plots import PLOTS_EXTRA_HINT, matplotlib_available
from ..score.report import read_result_dicts, write_report
from .score import unloaded_problems


def register(subparsers) -> None:
    p = subparsers.add_parser("report", help="Table 3, coverage, buckets, per-problem and failure tables (+ plots)",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", type=Path, nargs="+", metavar="RESULTS.jsonl", help="score results (pyshadow score)")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="DIR", help="folder to write the report into")
    p.add_argument("--problems", type=Path, metavar="PROBLEMS_DIR",
                   help="the benchmark's problems (the coverage denominator; default: the problems in the results)")
    p.add_argument("--no-plots", action="store_true", help="write the text report and CSVs only")
    p.add_argument("--html", action="store_true",
                   help="also write report.html: one self-contained page (sortable tables, each problem's "
                        "candidates with their checks; opens offline)")
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
