"""``pyshadow import-shadowbench DATA_DIR -o PROBLEMS_DIR``: turn the public ShadowBench split into problems.

``DATA_DIR`` is laid out as ``<area>/<level>/<problem_id>/{meta.json,text.md}`` (ShadowBench's ``data/``); each
problem becomes ``PROBLEMS_DIR/<area>.<level>.<problem_id>/`` with a ``problem.toml`` keeping every ``meta.json``
field and a stub ``Reference.lean`` naming the targets (see :mod:`pyshadow.shadowbench`). A problem that cannot
be imported (malformed ``meta.json``, missing ``text.md``, already imported) is listed and the rest go
on. Exit codes (README): 0 every problem imported; 4 some imported, some not (each listed); 2 none could be.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import EXIT_BAD_INPUT, EXIT_NEGATIVE, EXIT_OK, BadInput
from ..shadowbench import import_shadowbench


def register(subparsers) -> None:
    p = subparsers.add_parser("import-shadowbench", help="import ShadowBench's public data/ folder as problems")
    p.add_argument("data", type=Path, metavar="DATA_DIR", help="ShadowBench data folder: <area>/<level>/<id>/")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="PROBLEMS_DIR", help="folder to write into")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not args.data.is_dir():
        raise BadInput(f"{args.data}: expected a ShadowBench data folder, found none")
    imported, errors, found = import_shadowbench(args.data, args.output)
    if not found:
        raise BadInput(f"{args.data}: no ShadowBench problem (a folder with meta.json or text.md) under it")
    for problem in imported:
        print(f"imported {problem.id}: targets {', '.join(problem.targets) or 'none (missing)'}")
        for note in problem.notes:
            print(f"  note: {note}")
    for error in errors:
        print(f"error: {error}")
    print(f"imported {len(imported)}/{found} problems into {args.output}, {len(errors)} errors; each reference is a "
          "stub to write before the problem loads")
    return (EXIT_NEGATIVE if errors else EXIT_OK) if imported else EXIT_BAD_INPUT
