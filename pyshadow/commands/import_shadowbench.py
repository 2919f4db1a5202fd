"""``pyshadow import-shadowbench DATA_DIR -o PROBLEMS_DIR``: the public ShadowBench split as problems
(docs/commands.md#import-shadowbench)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import EXIT_BAD_INPUT, EXIT_NEGATIVE, EXIT_OK, BadInput
from ..shadowbench import import_shadowbench, loading
from .helptext import add_command


def register(subparsers) -> None:
    p = add_command(subparsers, "import-shadowbench", "import ShadowBench's public data/ folder as problems",
                    "import-shadowbench ShadowBench/data -o shadowbench")
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
    print(f"imported {len(imported)}/{found} problems into {args.output}, {len(errors)} errors")
    if imported:
        ok, not_yet = loading(imported)
        print(f"load as written: {len(ok)}/{len(imported)} problems")
        if not_yet:
            untargeted = sum(not p.targets for p in not_yet)
            print(f"to write ({len(not_yet)}): each Reference.lean is a stub that declares nothing yet; write the "
                  "reference formalization, declaring exactly these names"
                  + (f" ({untargeted} without a named target: choose one)" if untargeted else "") + ":")
            for problem in not_yet:
                print(f"  {problem.to_write()}")
            print(f"then run `pyshadow check-problem {args.output}/<id>` on each")
    return (EXIT_NEGATIVE if errors else EXIT_OK) if imported else EXIT_BAD_INPUT
