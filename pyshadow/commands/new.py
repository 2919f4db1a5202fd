"""``pyshadow new PROBLEMS_DIR --id ID --area AREA --level L1|L2|L3``: scaffold a problem folder to fill in
(docs/commands.md#new)."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from ..errors import BadInput
from ..lint import lint_lean
from ..problems import PROBLEM_FILE, new_problem_document, save_problem
from ..references import reference_skeleton
from ..workspace import module_name
from .helptext import add_command

REFERENCE_FILE = "Reference.lean"


def register(subparsers) -> None:
    p = add_command(subparsers, "new", "scaffold a new problem folder (problem.toml + reference skeleton)",
                    "new problems --id my_problem --area number_theory --level L1")
    p.add_argument("problems", type=Path, metavar="PROBLEMS_DIR", help="folder of problems to add it to")
    p.add_argument("--id", required=True, help="problem id and folder name: letters, digits, _ . -")
    p.add_argument("--area", required=True, help="lower_snake area, e.g. number_theory")
    p.add_argument("--level", required=True, metavar="L1|L2|L3", help="difficulty level")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    document = new_problem_document(args.id, args.area, args.level)  # BadInput (exit 2) on a malformed value
    folder = args.problems / args.id
    for existing in (folder / PROBLEM_FILE, folder / REFERENCE_FILE):
        if existing.exists():
            raise BadInput(f"{existing} already exists; refusing to overwrite problem {args.id!r}")
    if args.problems.is_dir():
        for other in args.problems.rglob(PROBLEM_FILE):
            if other.parent.name == args.id:
                raise BadInput(f"problem id {args.id!r} is already used by {other}")
    namespace = module_name(args.id)  # the problem's Lean module name in a generated workspace
    body = textwrap.fill(
        f"Problem `{args.id}` ({args.area}, {args.level}). State the target declaration(s) inside the namespace "
        f"below and list them, fully qualified (e.g. `{namespace}.my_theorem`), under `targets` in `problem.toml`. "
        "Auxiliary definitions the targets use go here too.", width=100)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / REFERENCE_FILE).write_text(
        reference_skeleton(f"{args.id}: reference formalization", body, namespace=namespace), encoding="utf-8")
    save_problem(document, folder)
    print(f"created {folder / PROBLEM_FILE} and {folder / REFERENCE_FILE}")
    findings = lint_lean((folder / REFERENCE_FILE).read_text(encoding="utf-8"), str(folder / REFERENCE_FILE))
    print(f"lint: {len(findings)} findings in the reference (check-problem lints it again once it is written)")
    print(f"next: fill in source, targets and [informal] in {PROBLEM_FILE}, write the reference, then run "
          f"`pyshadow check-problem {folder}`")
    return 0
