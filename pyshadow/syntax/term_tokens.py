"""The term reader's token stream: the project lexer's tokens merged into Mathlib's multi-character tokens, each
with the spacing around it, and a cursor over them.

``ReadError`` is how every reading step says the text is not a term it knows; the entry points
(``pyshadow.syntax.terms``) turn it into ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import lexer as lx
from .term_notation import MODEQ_OPENERS


class ReadError(Exception):
    """The text is not a term this reader knows (never raised to callers of ``read_term``)."""


@dataclass(frozen=True, slots=True)
class Tok:
    text: str
    kind: str
    space_before: bool  # whitespace between this token and the previous one
    space_after: bool


def read_tokens(text: str) -> list[Tok]:
    raw = [t for t in lx.tokenize(text) if not t.is_trivia]
    merged: list[tuple[str, str, int, int]] = []
    i = 0
    while i < len(raw):
        t = raw[i]
        kind, s, start, end = t.kind, t.text, t.start, t.end
        # `⁻¹'` (preimage) and `''` (image) are single Mathlib tokens the project lexer splits.
        if s == "⁻¹" and i + 1 < len(raw) and raw[i + 1].text == "'" and raw[i + 1].start == end:
            s, end, i = "⁻¹'", raw[i + 1].end, i + 1
        elif s == "'" and i + 1 < len(raw) and raw[i + 1].text == "'" and raw[i + 1].start == end:
            s, end, i = "''", raw[i + 1].end, i + 1
        if kind == lx.IDENT and s == "in":
            kind = lx.SYMBOL
        # `[ZMOD`, `[MOD`, `[PMOD`, `[SMOD` are single tokens of Mathlib's congruence notations.
        if s == "[" and i + 1 < len(raw) and "[" + raw[i + 1].text in MODEQ_OPENERS:
            s, end, i = "[" + raw[i + 1].text, raw[i + 1].end, i + 1
        merged.append((kind, s, start, end))
        i += 1
    out: list[Tok] = []
    for k, (kind, s, start, end) in enumerate(merged):
        before = k > 0 and start > merged[k - 1][3]
        after = k + 1 < len(merged) and merged[k + 1][2] > end
        out.append(Tok(s, kind, before, after))
    return out


class Cursor:
    """A position in a token list, with the look-ahead and consuming steps every reading step uses."""

    def __init__(self, toks: list[Tok]):
        self.toks = toks
        self.i = 0

    def peek(self, k: int = 0) -> Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def at(self, *texts: str) -> bool:
        t = self.peek()
        return t is not None and t.text in texts

    def take(self) -> Tok:
        t = self.peek()
        if t is None:
            raise ReadError("unexpected end")
        self.i += 1
        return t

    def expect(self, text: str) -> Tok:
        t = self.take()
        if t.text != text:
            raise ReadError(f"expected {text!r}, found {t.text!r}")
        return t
