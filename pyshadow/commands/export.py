"""``pyshadow export PROBLEMS_DIR [--public OUT] [--hidden OUT]``: release a problem set in two halves
(docs/commands.md#export)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import BadInput
from ..export import check_outputs, export_hidden, export_public
from .helptext import add_command


def register(subparsers) -> None:
    p = add_command(subparsers, "export", "write the public (solver) and/or hidden (evaluator) half of a problem set",
                    "export problems --public public --hidden hidden")
    p.add_argument("problems", type=Path, metavar="PROBLEMS_DIR", help="folder of problems")
    p.add_argument("--public", type=Path, metavar="OUT", help="new folder for what solvers may see")
    p.add_argument("--hidden", type=Path, metavar="OUT", help="new folder for references, shadows, checkers")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.public is None and args.hidden is None:
        raise BadInput("nothing to export: give --public OUT, --hidden OUT or both")
    check_outputs(args.public, args.hidden)
    summaries = []
    if args.hidden is not None:  # first: it also checks that every target can be given checkers
        summaries.append(export_hidden(args.problems, args.hidden))
    if args.public is not None:
        summaries.append(export_public(args.problems, args.public))
    for s in summaries:
        pins = f"Lean {s.manifest['lean_toolchain']}, Mathlib {s.manifest['mathlib'] or 'not needed'}"
        if s.kind == "hidden":
            print(f"hidden export: {_count(s.problems, 'problem')}, {s.checkers} checkers (sha256 of each in "
                  f"{s.folder / 'manifest.json'}); {pins}; {s.manifest['generator']}")
        else:
            print(f"public export: {_count(s.problems, 'problem')} in {s.folder / 'problems.jsonl'}; {pins}")
    return 0


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"
