"""The lemma table: Mathlib iff/eq lemmas that restate one content in another API, read from the Lean file.

``PyshadowEnv/Lemmas.lean`` is the one place the table lives: below its ``## The table`` heading, each lemma is an
``axiom`` named as in Mathlib, in the builtin syntax statements are printed in, with Mathlib's statement and its
file in the comments above it. ``lemma_table()`` reads it back — name, binders, statement, kind (``iff`` or
``eq``), the cited file and Mathlib's own statement — the way ``environment.declarations()`` reads the
environment, so the kernel tier (``atom_lemmas``) and the full tier use the same names. ``key_constants`` are the
constants a lemma's statement names beyond logic and the number types: a lemma is only tried on an atom pair whose
printed atoms mention them all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..syntax.brackets import split_top_level
from ..syntax.lexer import IDENT, code_tokens
from .environment import module_path

MODULE = "PyshadowEnv.Lemmas"
_HEADING = "/-! ## The table -/"
_SOURCE_RE = re.compile(r"(?:src/|Mathlib/)\S+\.lean")
_AXIOM_RE = re.compile(r"^axiom\s+(?P<name>[^\s:({\[⦃]+)\s*(?P<rest>.*)$", re.S)
# Names no atom comparison is keyed on: logic, the elaborator helpers, the number and collection types.
_NOT_KEYS = frozenset({"Iff", "Eq", "Ne", "Not", "And", "Or", "True", "False", "Nat", "Int", "Rat", "Real", "Complex",
                       "Set", "Finset", "Prop", "Type", "Sort"})
_HELPERS = frozenset({"binop", "binrel", "rightact", "unop", "leftact"})  # `binop%` … lex as a name and `%`
# Coercions Lean inserts where a statement writes nothing (`Infinite s` for `Infinite ↥s`): no key either.
_COERCIONS = frozenset({"Set.Elem"})


@dataclass(frozen=True)
class Lemma:
    """One row of the lemma table."""

    name: str  # as in Mathlib: `Nat.even_iff`
    binders: str  # `{n : Nat}`, as declared
    statement: str  # the type, in builtin syntax: `Iff (Even n) (binrel% Eq (binop% HMod.hMod n 2) 0)`
    kind: str  # iff | eq
    source: str  # the Lean/Mathlib file the comment above it cites
    mathlib: str  # Mathlib's statement, as the comment above it quotes it
    key_constants: frozenset[str]

    @property
    def lean_text(self) -> str:
        return f"axiom {self.name} {self.binders} : {self.statement}".replace("  ", " ")


@lru_cache(maxsize=1)
def lemma_table() -> tuple[Lemma, ...]:
    """Every lemma of the table, in file order."""
    text = module_path(MODULE).read_text(encoding="utf-8")
    if _HEADING not in text:
        raise ValueError(f"{module_path(MODULE).name} has no `{_HEADING}` heading")
    rows: list[Lemma] = []
    comments: list[str] = []
    for chunk in _declarations(text.split(_HEADING, 1)[1]):
        if chunk.startswith("--"):
            comments.append(chunk.removeprefix("--").strip())
            continue
        match = _AXIOM_RE.match(chunk)
        if match is None:
            comments = []
            continue
        binders, statement = _split_signature(match.group("rest"))
        source = next((_SOURCE_RE.findall(c)[-1] for c in reversed(comments) if _SOURCE_RE.search(c)), "")
        quoted = next((c for c in comments if c.startswith(("theorem ", "lemma "))), "")
        kind = "iff" if statement.startswith("Iff ") else "eq"
        rows.append(Lemma(match.group("name"), binders, statement, kind, source, quoted.split("  (")[0],
                          _keys(statement, binders)))
        comments = []
    return tuple(rows)


def _declarations(text: str) -> list[str]:
    """Comment lines one by one, and each declaration with its indented continuation lines joined."""
    out: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if line[:1].isspace() and out and not out[-1].startswith("--"):
            out[-1] += " " + stripped
        else:
            out.append(stripped)
    return out


def _split_signature(rest: str) -> tuple[str, str]:
    """``{n : Nat} : Iff …`` into the binders and the type (the first ``:`` outside every bracket)."""
    parts = split_top_level(rest, ":")
    if len(parts) < 2:
        raise ValueError(f"a lemma without a type: `{rest[:60]}`")
    return parts[0].strip(), ":".join(parts[1:]).strip()


def _keys(statement: str, binders: str) -> frozenset[str]:
    bound = {t.text for t in code_tokens(binders) if t.kind == IDENT}
    names = {t.text.removeprefix("_root_.") for t in code_tokens(statement) if t.kind == IDENT}
    return frozenset(n for n in names if n not in bound and n not in _NOT_KEYS | _HELPERS | _COERCIONS)


def lemma_names() -> tuple[str, ...]:
    return tuple(row.name for row in lemma_table())
