"""``pyshadow lint``: the known ways a Lean statement silently says something else, found from its syntax.

``lint_statement(text, informal=None)`` reads one statement (:mod:`.statement`, built on the precedence-aware term
reader), infers the numeric type of its arithmetic (:mod:`.types`, :mod:`.signatures`) and runs every rule of
:mod:`.rules`; it returns the findings sorted by position. ``lint_source`` does the same for a
:class:`~pyshadow.lint.inputs.Source` and places the findings in its file.
"""

from __future__ import annotations

from dataclasses import replace

from . import rules as _rules  # noqa: F401  (registers the rules)
from .context import build_context
from .findings import ERROR, RULES, WARNING, Finding
from .inputs import Inputs, Source, lean_sources, read_inputs
from .statement import Statement, read_statement


def lint_statement(text: str, informal: str | None = None) -> list[Finding]:
    """Every finding of every rule on one statement (``theorem … : T``, up to its ``:=``), by position."""
    ctx = build_context(read_statement(text), informal)
    found: list[Finding] = []
    for r in RULES.values():
        found.extend(r.check(ctx))
    unique = {(f.rule, f.start, f.end): f for f in found}
    return sorted(unique.values(), key=lambda f: (f.start, f.rule))


def lint_source(source: Source) -> list[Finding]:
    """``lint_statement`` on a source, each finding's line and column placed in the source's file."""
    out = []
    for f in lint_statement(source.text, source.informal):
        line = source.line + f.line - 1
        column = f.column + (source.column if f.line == 1 else 0)
        out.append(replace(f, line=line, column=column))
    return out


def lint_lean(src: str, path: str = "", informal: str | None = None) -> list[tuple[Source, Finding]]:
    """Every finding on the theorem-like declarations of a Lean file's text, with the declaration it is in."""
    return [(source, f) for source in lean_sources(src, path, informal) for f in lint_source(source)]


def finding_records(src: str, path: str = "") -> list[dict]:
    """``lint_lean`` as JSON-ready records (``declaration`` plus the finding's fields), for a results row."""
    return [{"declaration": source.id, **f.to_dict()} for source, f in lint_lean(src, path)]


def format_finding(path: str, f: Finding) -> str:
    """``PATH:LINE:COLUMN: severity rule: message`` and, when there is one, `` — suggested: …``."""
    line = f"{path}:{f.line}:{f.column}: {f.severity} {f.rule}: {f.message}"
    return line + (f" — suggested: {f.suggestion}" if f.suggestion else "")


def coverage(text: str) -> tuple[int, int]:
    """(parts the term reader read, parts) of a statement: how much of it the rules can see."""
    statement = read_statement(text)
    parts = [p for p in statement.parts if p.text]
    return sum(p.tree is not None for p in parts), len(parts)


__all__ = ["lint_statement", "lint_source", "lint_lean", "finding_records", "format_finding", "coverage", "Finding", "RULES", "ERROR", "WARNING", "Source",
           "Inputs", "read_inputs", "Statement", "read_statement"]
