"""``pyshadow lint FILE.lean|CORPUS.jsonl|PROBLEMS_DIR``: the known ways a statement silently says something
else (the rules: :mod:`pyshadow.lint.rules`; output: docs/commands.md#lint)."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from ..lint import RULES, lint_source, read_inputs
from .helptext import add_command

EXIT_CLEAN = 0
EXIT_FINDINGS = 4  # a negative verdict (README exit codes: 1 is an internal error)


def register(subparsers) -> None:
    p = add_command(subparsers, "lint", "flag Lean statements that silently say something else",
                    "lint problems --json")
    p.add_argument("input", type=Path, metavar="INPUT", help="FILE.lean, CORPUS.jsonl or PROBLEMS_DIR")
    p.add_argument("--json", action="store_true", help="print one JSON object per statement")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    inputs = read_inputs(args.input)  # BadInput (exit 2) when unreadable
    counts: Counter[str] = Counter()
    flagged = 0
    for source in inputs.sources:
        findings = lint_source(source)
        counts.update(f.rule for f in findings)
        flagged += bool(findings)
        if args.json:
            print(json.dumps({"id": source.id, "path": source.path, "line": source.line,
                              "findings": [f.to_dict() for f in findings]}, ensure_ascii=False))
            continue
        for f in findings:
            print(f"{source.path}:{f.line}:{f.column}: {f.severity} {f.rule}: {f.message}")
            if f.suggestion:
                print(f"  suggested: {f.suggestion}")
    for line in inputs.skipped:
        print(f"skipped: {line}")
    detail = ", ".join(f"{rule} {counts[rule]}" for rule in RULES if counts[rule])
    noun = "statement" if len(inputs.sources) == 1 else "statements"
    summary = (f"linted {len(inputs.sources)} {noun}: {sum(counts.values())} findings in {flagged}"
               + (f" ({detail})" if detail else ""))
    print(summary if not args.json else json.dumps({"summary": summary}, ensure_ascii=False))
    return EXIT_FINDINGS if counts else EXIT_CLEAN
