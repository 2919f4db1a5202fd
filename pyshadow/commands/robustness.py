"""``pyshadow robustness PROBLEMS_DIR -o REPORT_DIR``: every checker against rewrites of its reference
(docs/commands.md#robustness)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import EXIT_NEGATIVE, EXIT_OK, BadInput
from ..lean.backends import lean_backend
from .common import add_lean_arguments, choose_tier, lean_settings, load_problem_set
from .helptext import add_command
from ..robustness.matrix import build_report, load_targets, render_markdown, report_to_dict, summary_lines
from ..robustness.tiers import TIERS, VariantTier
from ..robustness.variants import KINDS
from ..progress import set_default

JSON_REPORT = "robustness.json"
MARKDOWN_REPORT = "robustness.md"


def register(subparsers) -> None:
    p = add_command(subparsers, "robustness", "run every checker against rewrites of each reference",
                    "robustness problems -o robustness")
    p.add_argument("problems", type=Path, metavar="PROBLEMS_DIR", help="problems folder")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="REPORT_DIR",
                   help=f"folder for {JSON_REPORT} and {MARKDOWN_REPORT}")
    p.add_argument("--tier", choices=TIERS, default="kernel",
                   help="kernel (default) or full (lean + lake)")
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
    with lean_backend(settings, announce=print):
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
