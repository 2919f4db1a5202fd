"""``pyshadow selfcheck CORPUS.jsonl``: the kernel tier over a corpus (docs/commands.md#selfcheck)."""

from __future__ import annotations

import argparse

from ..corpus import JsonlWriter, read_corpus
from ..kernel.check import blocks_for, check_blocks, summary_line
from ..lean.backends import lean_backend
from .common import add_lean_arguments, lean_settings
from .helptext import add_command
from ..lean.toolchain import kernel_lean
from ..shadows.rules import uncheckable_reason
from ..syntax import ParseError, parse_declaration
from ..progress import set_default


def register(subparsers) -> None:
    p = add_command(subparsers, "selfcheck", "check generated checkers with the kernel-tier Lean",
                    "selfcheck corpus.jsonl --mutate -o report.jsonl")
    p.add_argument("corpus", metavar="CORPUS.jsonl", help="JSONL corpus: one {id, statement, …} object per line")
    p.add_argument("-o", "--output", metavar="REPORT.jsonl", help="JSONL report: which checkers Lean accepted")
    p.add_argument("--mutate", action="store_true", help="add negative controls that Lean must reject")
    p.add_argument("--batch", type=int, default=40, metavar="N", help="statements per Lean file (default 40)")
    add_lean_arguments(p, tier=False, workspace=False)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    set_default(True)  # progress on Lean jobs: a bar on a terminal, plain lines in a log
    settings = lean_settings(args)
    entries = read_corpus(args.corpus)
    lean = kernel_lean()  # KernelTierUnavailable is a PyshadowError: one line, documented exit code
    items, errors = [], {}
    for e in entries:
        if e.error:
            errors[e.id] = e.error
            continue
        try:
            decl = parse_declaration(e.statement)
        except ParseError as err:
            errors[e.id] = str(err)
            continue
        reason = uncheckable_reason(decl)
        if reason:
            errors[e.id] = reason
            continue
        items.append((e.id, decl, any(i.startswith("Mathlib") for i in e.imports)))
    blocks = blocks_for(items, mutants=settings.mutate)
    with lean_backend(settings, announce=print):
        reports = check_blocks(blocks, lean, batch_size=args.batch, n_jobs=settings.jobs, cache_dir=settings.cache,
                               progress=True)
    with JsonlWriter(args.output) as out:
        for e in entries:
            if e.id in errors:
                out.write({"id": e.id, "status": "error", "error": errors[e.id], "kernel_checked": False})
            elif e.id in reports:
                out.write(reports[e.id].to_dict())
    print(f"lean: {lean.path} ({lean.tier} tier, Lean {lean.version})")
    print(summary_line(reports.values()) + (f"; {len(errors)} not checkable (reasons in the report)" if errors else ""))
    return 0
