"""``pyshadow shadows CORPUS.jsonl -o OUT.jsonl``: shadow sets and checker texts for a corpus (docs/DESIGN.md)."""

from __future__ import annotations

import argparse

from ..corpus import CorpusEntry, JsonlWriter, read_corpus
from ..references import statement_declaration
from ..shadows import decompose
from ..shadows.rules import uncheckable_reason
from ..shadows.checkers import full_tier_checkers
from ..syntax import ParseError, render_term
from .helptext import add_command


def register(subparsers) -> None:
    p = add_command(subparsers, "shadows", "emit shadow sets and checkers for a corpus",
                    "shadows corpus.jsonl -o shadows.jsonl")
    p.add_argument("corpus", metavar="CORPUS.jsonl", help="JSONL corpus: one {id, statement, …} object per line")
    p.add_argument("-o", "--output", metavar="OUT.jsonl",
                   help="{id, status, shadows, forward, backward, error}")
    p.set_defaults(handler=run)


def shadows_entry(entry: CorpusEntry) -> dict:
    """One output object; a statement that cannot be parsed or decomposed is data (status ``error``)."""
    base = {"id": entry.id, "status": "error", "shadows": [], "forward": [], "backward": None, "error": None}
    if entry.error:
        return {**base, "error": f"line {entry.line}: {entry.error}"}
    try:
        decl = statement_declaration(entry.statement, entry.context)  # as `generate` reads a reference
    except ParseError as err:
        return {**base, "error": str(err)}
    reason = uncheckable_reason(decl)
    if reason:
        return {**base, "error": reason}
    mathlib = "Mathlib" in entry.imports or any(i.startswith("Mathlib") for i in entry.imports)
    dec = decompose(decl, mathlib=mathlib)
    checkers = full_tier_checkers(entry.id, decl.name, decl, dec)
    backward = checkers.backward
    return {
        "id": entry.id,
        "status": dec.status,
        "shadows": [{"kind": s.kind, "path": s.path_text, "statement": render_term(s.statement),
                     "provenance": s.provenance} for s in dec.shadows],
        "forward": [c.text for c in checkers.forward],
        "backward": backward.text if backward else None,
        "error": None,
    }


def run(args: argparse.Namespace) -> int:
    entries = read_corpus(args.corpus)
    counts = {"decomposed": 0, "atomic": 0, "error": 0}
    with JsonlWriter(args.output) as out:
        for entry in entries:
            result = shadows_entry(entry)
            counts[result["status"]] += 1
            out.write(result)
    print(f"decomposed {counts['decomposed']}/{len(entries)}, atomic {counts['atomic']}, errors {counts['error']}")
    return 0
