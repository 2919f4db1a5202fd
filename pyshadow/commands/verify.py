"""``pyshadow verify [PROBLEMS_DIR]``: is every problem's shadow set complete? (docs/commands.md#verify)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..corpus import JsonlWriter
from ..errors import EXIT_NEGATIVE, EXIT_OK
from ..lean.backends import lean_backend
from ..score.pipeline import prepare_problem
from ..score.verification import COMPLETE_IDENTITY_ONLY, UNCHECKED, unloadable_report
from ..progress import set_default
from .helptext import add_command
from .common import add_lean_arguments, choose_tier, lean_settings, load_problem_set


def register(subparsers) -> None:
    p = add_command(subparsers, "verify", "check that each problem's shadow set is complete (T ⇒ Sᵢ and ⋀ Sᵢ ⇒ T)",
                    "verify problems --tier kernel -o report.jsonl")
    p.add_argument("problems", nargs="?", type=Path, metavar="PROBLEMS_DIR",
                   help="problems folder (default: ./problems, else bundled)")
    p.add_argument("-o", "--output", type=Path, metavar="REPORT.jsonl", help="JSONL report: one object per problem")
    add_lean_arguments(p)
    p.add_argument("--mutate", action="store_true", help="kernel tier: add mutants that Lean must reject")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    set_default(True)  # progress on Lean jobs: a bar on a terminal, plain lines in a log
    settings = lean_settings(args)
    _, problems, errors = load_problem_set(args.problems, quiet=True)
    tier = choose_tier(settings)
    with lean_backend(settings, announce=print):
        reports = tier.verify([prepare_problem(p) for p in problems])
    reports += [unloadable_report(str(e.path), tier.name, str(e)) for e in errors]
    with JsonlWriter(args.output) as out:
        for report in reports:
            out.write(report)
    lean = tier.lean
    print(f"lean: {lean.path} ({lean.tier} toolchain, Lean {lean.version}); verifying with the {tier.name} tier")
    for report in reports:
        print_report(report)
    print(f"verified {len(reports)} problems ({tier.name} tier): {completeness_summary(reports)}")
    return EXIT_OK if all(r["complete"] for r in reports) else EXIT_NEGATIVE


def completeness_summary(reports: list[dict[str, Any]]) -> str:
    """``K/N complete`` and, when some are, how many of them with the identity shadow only, and how many problems
    are ``unchecked`` (not counted in K)."""
    complete = sum(r["complete"] for r in reports)
    identity = sum(r["status"] == COMPLETE_IDENTITY_ONLY for r in reports)
    unchecked = sum(r["status"] == UNCHECKED for r in reports)
    return (f"{complete}/{len(reports)} complete" + (f", {identity} of them identity shadow only" if identity else "")
            + (f"; {unchecked} unchecked (expert shadows this tier could not check)" if unchecked else ""))


def print_report(report: dict[str, Any]) -> None:
    name = report["problem_id"] or report.get("origin", "?")
    if report["complete"]:
        print(f"{name:<32} {report['status']}")
        return
    print(f"{name:<32} {report['status']}" + (f": {report['error']}" if report.get("error") else ""))
    for target in report["targets"]:
        if target.get("error"):
            print(f"  {target['target']}: {target['error']}")
        for check in target["checks"]:
            if not check["passed"]:
                print(f"  {target['target']}: {check['name']}: {check['message']}")
        for item in target.get("unchecked", ()):
            print(f"  {target['target']}: expert shadow {item['shadow']} `{item['statement']}` unchecked: "
                  f"{item['reason']}")
