"""``pyshadow audit FILE.lean``: the static trust gate on one candidate file (docs/commands.md#audit)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import EXIT_NEGATIVE, EXIT_OK
from ..files import read_utf8
from ..score.audit import RULES, AuditPolicy, Finding, audit
from .helptext import add_command

EXIT_CLEAN = EXIT_OK
EXIT_FINDINGS = EXIT_NEGATIVE  # a negative verdict, not an internal error (README exit codes)


def register(subparsers) -> None:
    p = add_command(subparsers, "audit", "flag what in a candidate Lean file could fake a pass",
                    "audit candidate.lean --json")
    p.add_argument("file", metavar="FILE.lean", help="the candidate file to audit")
    p.add_argument(
        "--allow-native-decide",
        action="store_true",
        help="do not flag native_decide and kin",
    )
    p.add_argument("--json", action="store_true", help="print the findings as a JSON list")
    p.set_defaults(handler=run)


def format_finding(path: str, finding: Finding) -> str:
    return f"{path}:{finding.line}:{finding.column}: {finding.kind}: {finding.excerpt}"


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    findings = audit(read_utf8(path), AuditPolicy(allow_native_decide=args.allow_native_decide))
    if args.json:
        print(json.dumps([f.to_dict() for f in findings], ensure_ascii=False, indent=2))
    else:
        for f in findings:
            print(format_finding(args.file, f))
        kinds = sorted({f.kind for f in findings})
        detail = "; ".join(f"{k}: {RULES[k].summary}" for k in kinds)
        print(f"{len(findings)} finding(s) in {args.file}" + (f" ({detail})" if detail else ""))
    return EXIT_FINDINGS if findings else EXIT_CLEAN
