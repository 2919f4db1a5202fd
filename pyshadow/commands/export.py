"""``pyshadow export PROBLEMS_DIR [--public OUT] [--hidden OUT]``: release a problem set in two halves.

``--public``: what solvers may see — informal text, formalization rules, target names, imports, the Lean
toolchain pin (``problems.jsonl``, ``lean-toolchain``, ``manifest.json``). ``--hidden``: what evaluation uses —
references, shadows, checker texts, as the Lake workspace ``pyshadow generate`` writes, with ``manifest.json``
pinning the toolchain, the Mathlib tag, the pyshadow version and the sha256 of every checker text. Layouts:
``pyshadow.export``.

Exit codes: 0 written; 2 bad input — no problems folder, a malformed problem or one whose targets cannot be given
checkers (nothing is written then), an output folder that is not new or empty, the two outputs overlapping, no
output asked for; 1 internal error.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import BadInput
from ..export import check_outputs, export_hidden, export_public


def register(subparsers) -> None:
    p = subparsers.add_parser("export", help="write the public (solver) and/or hidden (evaluator) half of a problem set")
    p.add_argument("problems", type=Path, metavar="PROBLEMS_DIR", help="folder of problems")
    p.add_argument("--public", type=Path, metavar="OUT", help="new folder for what solvers may see")
    p.add_argument("--hidden", type=Path, metavar="OUT", help="new folder for references, shadows and checkers")
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
