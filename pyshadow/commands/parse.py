"""``pyshadow parse CORPUS.jsonl -o OUT.jsonl``: parse every statement of a corpus (docs/DESIGN.md interface)."""

from __future__ import annotations

import argparse

from ..corpus import JsonlWriter, read_corpus
from ..syntax import ParseError, parse_declaration
from ..syntax.serialize import declaration_to_dict
from .helptext import add_command


def register(subparsers) -> None:
    p = add_command(subparsers, "parse", "parse a corpus of Lean statements into typed trees",
                    "parse corpus.jsonl -o parsed.jsonl")
    p.add_argument("corpus", metavar="CORPUS.jsonl", help="JSONL corpus: one {id, statement, …} object per line")
    p.add_argument("-o", "--output", metavar="OUT.jsonl", help="{id, ok, error, declaration} per input")
    p.set_defaults(handler=run)


def parse_entry(entry) -> dict:
    if entry.error:
        return {"id": entry.id, "ok": False, "error": f"line {entry.line}: {entry.error}", "declaration": None}
    try:
        decl = parse_declaration(entry.statement)
    except ParseError as err:
        return {"id": entry.id, "ok": False, "error": str(err), "declaration": None}
    return {"id": entry.id, "ok": True, "error": None, "declaration": declaration_to_dict(decl)}


def run(args: argparse.Namespace) -> int:
    entries = read_corpus(args.corpus)
    ok = 0
    with JsonlWriter(args.output) as out:
        for entry in entries:
            result = parse_entry(entry)
            ok += result["ok"]
            out.write(result)
    total = len(entries)
    percent = 100.0 * ok / total if total else 0.0
    print(f"parsed {ok}/{total} statements ({percent:.1f}%)")
    return 0
