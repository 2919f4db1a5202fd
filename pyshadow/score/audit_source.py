"""A candidate's text lexed once for the trust gate's detectors (``pyshadow.score.audit``): its code tokens (with
the holes of interpolated strings), the attribute lists ``@[…]`` / ``attribute […] x``, its declarations, and the
small token walks the detectors share."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..syntax.lexer import CLOSE_BRACKETS, COMMAND_KEYWORDS, IDENT, OPEN_BRACKETS, SYMBOL, Token, tokenize
from ..syntax.scanner import NamedDeclaration, column_of, declarations, normalize_name


@dataclass(frozen=True, slots=True)
class AttributeEntry:
    """One attribute inside ``@[...]`` or ``attribute [...]``: ``local simp``, ``-instance``, ``implemented_by f``."""

    name: str  # normalized: `simp`, `instance`, `implemented_by`
    token: Token  # the name's token
    command: Token | None  # the `attribute` keyword, or None for `@[...]`
    targets: tuple[Token, ...]  # for `attribute [...] a b`: a, b
    local: bool  # `local` or `scoped`
    owner_offset: int  # for `@[...]`: where the bracket opens (the declaration follows)
    scoped: bool = False  # `scoped` (or `scoped[NS]`): it comes back wherever the namespace is opened


@dataclass(frozen=True, slots=True)
class Source:
    """A candidate's text lexed once for all detectors."""

    text: str
    tokens: tuple[Token, ...]  # everything, comments included
    code: tuple[Token, ...]  # code tokens, plus those of interpolated-string holes, in order
    attribute_tokens: frozenset[int]  # indices into `code` of tokens inside attribute brackets
    attributes: tuple[AttributeEntry, ...]
    declarations: tuple[NamedDeclaration, ...]  # all declarations; named ones fully qualified, others ""
    policy: Any  # the AuditPolicy the detectors apply (pyshadow.score.audit)
    reference_names: frozenset[str] = frozenset()  # library names the reference uses (``reference_used_names``)

    @property
    def named(self) -> tuple[NamedDeclaration, ...]:
        return tuple(d for d in self.declarations if d.qualified_name)


def lex_source(text: str, policy: Any) -> Source:
    """Lex ``text``, locate its attribute lists and its declarations."""
    tokens = tuple(tokenize(text))
    code = [t for t in tokens if not t.is_trivia]  # the lexer already lexes interpolation holes as code
    inside, entries = _attribute_lists(text, code)
    decls = tuple(declarations(text, include_anonymous=True))
    return Source(text, tokens, tuple(code), frozenset(inside), tuple(entries), decls, policy)


def _attribute_lists(text: str, code: list[Token]) -> tuple[set[int], list[AttributeEntry]]:
    """Indices of tokens inside ``@[...]`` / ``attribute [...]``, and the attribute entries found there."""
    inside: set[int] = set()
    entries: list[AttributeEntry] = []
    for i, tok in enumerate(code):
        is_at = tok.kind == SYMBOL and tok.text == "@["
        is_cmd = tok.kind == IDENT and tok.text == "attribute" and i + 1 < len(code) and code[i + 1].text == "["
        if not (is_at or is_cmd):
            continue
        open_i = i if is_at else i + 1
        close_i = _matching_bracket(code, open_i)
        inside.update(range(open_i + 1, close_i))
        # `attribute [..] ident+` (src/Lean/Parser/Command.lean) takes identifiers on any later line too.
        targets = tuple(_command_arguments(text, code, close_i + 1, across_lines=True)) if is_cmd else ()
        for group in _split_on_commas(code, open_i + 1, close_i):
            entry = _attribute_entry(group, tok if is_cmd else None, targets, tok.start)
            if entry is not None:
                entries.append(entry)
    return inside, entries


def _depths(toks: Sequence[Token], start: int) -> Iterator[tuple[int, Token, int]]:
    """(index, token, bracket depth after it) from ``start``; a closing bracket is reported at the outer depth."""
    depth = 0
    for k in range(start, len(toks)):
        t = toks[k]
        if t.kind == SYMBOL and t.text in OPEN_BRACKETS:
            depth += 1
        elif t.kind == SYMBOL and t.text in CLOSE_BRACKETS:
            depth -= 1
        yield k, t, depth


def _matching_bracket(code: Sequence[Token], i: int) -> int:
    """Index of the bracket closing the one at ``i`` (or the end)."""
    return next((k for k, t, depth in _depths(code, i) if depth == 0 and t.text in CLOSE_BRACKETS), len(code))


def _split_on_commas(code: list[Token], start: int, stop: int) -> Iterator[list[Token]]:
    depth, group = 0, []
    for k in range(start, stop):
        t = code[k]
        if t.kind == SYMBOL and t.text in OPEN_BRACKETS:
            depth += 1
        elif t.kind == SYMBOL and t.text in CLOSE_BRACKETS:
            depth -= 1
        if depth == 0 and t.kind == SYMBOL and t.text == ",":
            yield group
            group = []
        else:
            group.append(t)
    if group:
        yield group


def _attribute_entry(
    group: list[Token], command: Token | None, targets: tuple[Token, ...], owner: int
) -> AttributeEntry | None:
    local = scoped = False
    k = 0
    while k < len(group) and group[k].text in {"local", "scoped", "-"}:
        local = local or group[k].text in {"local", "scoped"}
        scoped = scoped or group[k].text == "scoped"
        k += 1
        if k < len(group) and group[k].text == "[":  # `scoped[NS] simp`
            while k < len(group) and group[k].text != "]":
                k += 1
            k += 1
    if k >= len(group) or group[k].kind != IDENT:
        return None
    return AttributeEntry(normalize_name(group[k].text), group[k], command, targets, local, owner, scoped)


def _command_arguments(text: str, code: Sequence[Token], i: int, *, across_lines: bool = False) -> Iterator[Token]:
    """The identifiers that follow a command's bracket (``attribute [simp] a b``), up to the next command (or, unless
    ``across_lines``, the next line starting at column 0)."""
    prev_end = code[i - 1].end if i > 0 else 0
    while i < len(code):
        t = code[i]
        new_line = "\n" in text[prev_end : t.start]
        if t.kind != IDENT or t.text in COMMAND_KEYWORDS or t.text == "in":
            return
        if new_line and column_of(text, t.start) == 0 and not across_lines:
            return
        yield t
        prev_end = t.end
        i += 1


def _idents(s: Source, *, outside_attributes: bool = False) -> Iterator[tuple[int, Token]]:
    for i, t in enumerate(s.code):
        if t.kind == IDENT and not (outside_attributes and i in s.attribute_tokens):
            yield i, t


def _hash_command(s: Source, i: int) -> str | None:
    """The name of a ``#command`` whose ``#`` is ``code[i]`` (``#`` and name written together), else None."""
    t = s.code[i]
    if t.kind != SYMBOL or t.text != "#" or i + 1 >= len(s.code):
        return None
    nxt = s.code[i + 1]
    return nxt.text if nxt.kind == IDENT and nxt.start == t.end else None


def _top_level(toks: Sequence[Token], start: int, wanted: set[str]) -> int | None:
    """Index of the first token at bracket depth 0 (from ``start``) whose text is in ``wanted``."""
    return next((k for k, t, depth in _depths(toks, start)
                 if depth == 0 and t.text in wanted and t.text not in CLOSE_BRACKETS), None)
