"""``pyshadow robustness PROBLEMS_DIR [--tier kernel|full] -o REPORT_DIR``: every checker of every problem
against every variant of its reference (``pyshadow.robustness``).

Writes ``REPORT_DIR/robustness.json`` (format ``pyshadow-robustness/1``) and ``REPORT_DIR/robustness.md``, and
prints the per-rewrite summary. A problem that does not load is one ``skipped:`` line (and a row of the report).
Exit codes (README): 0 when every faithful variant passes every checker and every control is rejected; 4 when not
(the report names each false negative and blind control); 2 bad input (no folder, an empty one, nothing loads); 3
the requested tier is not available here; 1 internal error.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import EXIT_NEGATIVE, EXIT_OK, BadInput
from ..lean.backends import lean_backend
from .common import add_lean_arguments, choose_tier, lean_settings, load_problem_set
from ..robustness.matrix import build_report, load_targets, render_markdown, report_to_dict, summary_lines
from ..robustness.tiers import TIERS, VariantTier
from ..robustness.variants import KINDS
from ..progress import set_default

JSON_REPORT = "robustness.json"
MARKDOWN_REPORT = "robustness.md"


def register(subparsers) -> None:
    p = subparsers.add_parser("robustness", help="run every checker against rewrites of each reference")
    p.add_argument("problems", type=Path, metavar="PROBLEMS_DIR", help="problems folder")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="REPORT_DIR",
                   help=f"folder for {JSON_REPORT} and {MARKDOWN_REPORT} (created if missing)")
    p.add_argument("--tier", choices=TIERS, default="kernel",
                   help="kernel: skeleton SA-Pass by the prelude-mode Lean (default); full: lean + lake")
    p.add_argument("--kinds", nargs="+", choices=KINDS, metavar="KIND",
                   help="only these rewrite kinds (default: all)")
    add_lean_arguments(p, tier=False, workspace=False)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    set_default(True)  # progress on Lean jobs: a bar on a terminal, plain lines in a log
    settings = lean_settings(args)
    load_problem_set(args.problems, quiet=True)  # empty or unloadable: exit 2, as everywhere
    tier = VariantTier(choose_tier(settings))  # Unavailable (exit 3) before any work
    targets, errors = load_targets(args.problems)
    with lean_backend(settings):
        report = build_report(targets, tier, problems_dir=str(args.problems), problem_errors=errors,
                              kinds=args.kinds)
    try:
        args.output.mkdir(parents=True, exist_ok=True)
        (args.output / JSON_REPORT).write_text(
            json.dumps(report_to_dict(report), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        (args.output / MARKDOWN_REPORT).write_text(render_markdown(report), encoding="utf-8")
    except OSError as err:
        raise BadInput(f"{args.output}: cannot write the report: {err.strerror or err}") from err
    for err in errors:
        print(f"skipped: {err}")
    print(tier.description)
    print("\n".join(summary_lines(report)))
    print(f"report: {args.output / MARKDOWN_REPORT}, {args.output / JSON_REPORT}")
    return EXIT_OK if report.clean else EXIT_NEGATIVE
