"""Definitions are part of the statement: the candidate's counterpart of each reference definition, checked equal.

``add_definition_checks`` copies the reference definitions the targets use into the statements module and adds, per
compared definition, an ``rfl`` check to the candidate's checker file (``pyshadow.score.full``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..kernel.answers import DATA_KEYWORDS, declared_value, is_open_value
from ..syntax.lexer import IDENT, code_tokens
from ..syntax.scanner import NamedDeclaration, declarations, name_components, normalize_name
from .pipeline import PreparedCandidate
from .checker_file import CHECKS_NAMESPACE, CheckerFile, Role, StatementsModule


DEFINITIONS_NAMESPACE = "Reference"  # inside the statements module: `PyshadowStatements_<nonce>.Reference.<name>`


@dataclass(frozen=True)
class DefinitionCheck:
    """One reference definition the targets use (a helper, an answer, a data target's value) and the candidate's
    declaration it is compared with."""

    reference: str  # fully qualified, in the reference
    candidate: str  # fully qualified, in the candidate
    target: str  # the target whose verdict it is part of


def definition_checks(prepared: PreparedCandidate) -> tuple[list[DefinitionCheck], list[NamedDeclaration]]:
    """The reference definitions to compare with the candidate's, and every reference definition their copies in
    the statements module need (file order). A definition is compared when a target uses it — directly, through
    another definition, or as the target itself (a data target with a value) — and the candidate has a counterpart
    (``prepared.renames``); not when its value is left open (``:= sorry``: the slot a candidate fills, nothing to
    compare with) or it needs one that is, and not when it sits in a namespace of the reference's (not copied)."""
    info = prepared.info
    src = info.reference
    defs = {normalize_name(d.qualified_name): d for d in declarations(src) if d.keyword in DATA_KEYWORDS}
    by_short = {}
    for name in defs:
        by_short.setdefault(name_components(name)[-1], []).append(name)

    def used_in(text: str) -> set[str]:
        out = set()
        for tok in code_tokens(text):
            if tok.kind == IDENT:
                n = normalize_name(tok.text)
                out.update([n] if n in defs else by_short.get(n, []) if len(by_short.get(n, [])) == 1 else [])
        return out

    def closure(names: set[str]) -> set[str]:
        seen, todo = set(), list(names)
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            d = defs[n]
            todo += sorted(used_in(src[d.keyword_start : d.end]) - {n})
        return seen

    def is_open(n: str) -> bool:
        return is_open_value(declared_value(src[defs[n].statement_end : defs[n].end]))

    checks: list[DefinitionCheck] = []
    needed: set[str] = set()
    for t in info.targets:
        found = prepared.extracted.get(t.name)
        if t.source is None or t.error or found is None:
            continue
        own = normalize_name(t.name)
        uses = used_in(t.source.header) - {own}
        if own in defs:
            uses |= {own}
        for n in sorted(uses):
            deps = closure({n})
            cand = found.qualified_name if n == own else prepared.renames.get(n)
            if cand is None or any(is_open(m) for m in deps) or any(name_components(m)[:-1] for m in deps):
                continue
            if all(c.reference != n for c in checks):
                checks.append(DefinitionCheck(n, cand, t.name))
                needed |= deps
    return checks, [d for n, d in defs.items() if n in needed]


def add_definition_checks(out: CheckerFile, statements: StatementsModule, prepared: PreparedCandidate,
                          nonce: str) -> int:
    """The reference definitions copied into the statements module (``namespace <module>.Reference``, verbatim, in
    a ``noncomputable section``: the module never runs them), and in the checker file, per compared definition,
    ``theorem … : @Cand.f = @<module>.Reference.f := rfl`` — only a candidate definition definitionally equal to
    the reference's meets it (Lean core src/Init/Prelude.lean ``theorem rfl {α : Sort u} {a : α} : Eq a a``; the
    header's universe metavariables become parameters, as the kernel-tier Lean shows in
    tests/test_definitions_full.py). Role ``definition``: a failed one fails its target's backward verdict
    (``pipeline.finish_row``). Returns the number of checks."""
    checks, copies = definition_checks(prepared)
    if not checks:
        return 0
    src = prepared.info.reference
    module = f"{statements.name}.{DEFINITIONS_NAMESPACE}"
    statements.add("\n".join(["noncomputable section", f"namespace {module}",
                              *(src[d.start : d.end].rstrip() for d in copies),
                              f"end {module}", "end"]))
    namespace = f"{CHECKS_NAMESPACE}_{nonce}_definitions"
    out.add(f"namespace {namespace}")
    for i, check in enumerate(checks, start=1):
        name = f"definition_{i}"
        text = "\n".join([f"/-- Definition check: the candidate's `{check.candidate}` is the reference's "
                          f"`{check.reference}` -/",
                          # `_root_.`: the candidate's name, never one an `open` namespace also has (Lean's name
                          # resolution reads `_root_.x` as the root declaration only; checked with the kernel-tier
                          # Lean in tests/test_definitions_full.py)
                          f"theorem {name} : @_root_.{check.candidate} = @_root_.{module}.{check.reference} := rfl"])
        out.add_checker(f"{namespace}.{name}", text, Role("definition", check.target))
    out.add(f"end {namespace}")
    return len(checks)
