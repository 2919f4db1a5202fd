"""``pyshadow robustness PROBLEMS_DIR [--tier kernel|full] -o REPORT_DIR``: every checker of every problem
against every variant of its reference (``pyshadow.robustness``).

Writes ``REPORT_DIR/robustness.json`` (format ``pyshadow-robustness/1``) and ``REPORT_DIR/robustness.md``, and
prints the per-rewrite summary. Exit codes: 0 when every faithful variant passes every checker and every control
is rejected; 1 when not (the report names each false negative and blind control) or on an internal error; 2 on
bad input; 3 when the requested tier is not available here (``--tier full`` without a full toolchain).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import BadInput
from ..robustness.matrix import build_report, load_targets, render_markdown, report_to_dict, summary_lines
from ..robustness.tiers import TIERS, make_tier
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
    p.add_argument("-j", "--jobs", type=int, default=-1, help="parallel Lean processes (default: all cores)")
    p.add_argument("--cache", type=Path, help="result cache directory (reruns of unchanged checks are free)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    set_default(True)  # progress on Lean jobs: a bar on a terminal, plain lines in a log
    if not args.problems.is_dir():
        raise BadInput(f"{args.problems}: not a folder of problems")
    tier = make_tier(args.tier, n_jobs=args.jobs, cache_dir=args.cache)  # TierUnavailable: exit 3
    targets, errors = load_targets(args.problems)
    report = build_report(targets, tier, problems_dir=str(args.problems), problem_errors=errors, kinds=args.kinds)
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
    return 0 if report.clean else 1
