"""Where the declarations of a Lean file begin and end, and where each one's statement ends.

Built on the tokens of ``pyshadow.syntax.lexer``, so a keyword inside a comment, a string or a «quoted» name never
starts a command. ``find_declarations`` gives every declaration of a file with its statement boundary (the
top-level ``:=``, ``where`` or ``| … =>``); ``command_starts`` the code tokens that begin a top-level command;
``statement_boundary`` and ``split_statement`` the end of one declaration header.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from .lexer import (
    CLOSE_BRACKETS,
    COMMAND_KEYWORDS,
    DIALECT_COMMANDS,
    DIALECT_DECLARATIONS,
    DOC_COMMENT,
    IDENT,
    MODIFIERS,
    OPEN_BRACKETS,
    SYMBOL,
    Token,
    code_tokens,
    tokenize,
)

_LET_KEYWORDS = frozenset({"let", "have", "letI", "haveI", "let'", "set"})


@dataclass(frozen=True, slots=True)
class DeclarationSource:
    """Where one declaration sits in a source text (offsets into that text)."""

    keyword: str  # theorem / lemma / def / …
    name: str | None  # None for `example`
    start: int  # first character of its docstring / attributes / modifiers
    keyword_start: int  # the `theorem` keyword itself
    statement_end: int  # offset of the top-level `:=` (or `where` / `|`), or `end` when there is none
    end: int  # where the next command starts (or end of text)
    has_body: bool  # a top-level `:=`/`where`/`|` was found

    def header(self, src: str) -> str:
        """``theorem name binders : type`` — from the keyword up to (not including) the top-level ``:=``."""
        return src[self.keyword_start : self.statement_end].rstrip()

    def body(self, src: str) -> str:
        return src[self.statement_end : self.end]


# Keywords that can only begin a declaration: wherever they stand at bracket depth 0 (even mid-line, as in
# `open Real in theorem foo …`), a new command starts there or at the modifiers and attributes just before them.
DECLARATION_STARTS = frozenset({"theorem", "lemma", "def", "abbrev", "example", "instance", "structure", "class",
                                "inductive", "axiom", "opaque"})
# Command keywords that may begin an indented line and still be a top-level command.
_INDENTABLE_COMMANDS = DECLARATION_STARTS | {"namespace", "section", "@["} | {
    k for k in COMMAND_KEYWORDS if k.startswith("#")}  # `#check` … never occur inside a term


def _command_name(code: list[Token], i: int) -> str | None:
    """The command keyword at ``code[i]``: ``theorem``, ``open``, ``@[``, or ``#print`` written as ``#`` + name."""
    tok = code[i]
    if tok.kind == IDENT or tok.kind == SYMBOL:
        if tok.text in COMMAND_KEYWORDS or tok.text in DIALECT_COMMANDS:
            return tok.text
        # `#print` is two tokens (`#`, `print`) for the audit's sake; written together they name a command.
        if tok.text == "#" and i + 1 < len(code) and code[i + 1].start == tok.end and code[i + 1].kind == IDENT:
            name = "#" + code[i + 1].text
            if name in COMMAND_KEYWORDS:
                return name
    return None


def command_starts(src: str, code: list[Token]) -> list[int]:
    """Indices of the code tokens of ``src`` that begin a top-level command (see ``find_declarations``)."""
    return _command_starts(src, code)


def _command_starts(src: str, code: list[Token]) -> list[int]:
    """Indices of the code tokens that begin a top-level command.

    A command keyword that is the first code token of its line (comments before it do not count) begins a command —
    at column 0, or indented for keywords that never occur inside terms (an indented ``end``/``open`` is usually a
    proof's ``open … in``). A declaration keyword anywhere at bracket depth 0 also begins one, at the modifiers and
    ``@[…]`` attributes written just before it.
    """
    starts: set[int] = set()
    depth = 0
    for i, tok in enumerate(code):
        if depth == 0:
            name = _command_name(code, i)
            if name is not None:
                if i == 0 or "\n" in src[code[i - 1].end : tok.start]:
                    line_start = src.rfind("\n", 0, tok.start) + 1
                    indented = src[line_start : tok.start] and not src[line_start : tok.start].strip()
                    if not indented or name in _INDENTABLE_COMMANDS:
                        starts.add(i)
                elif name in DECLARATION_STARTS:
                    starts.add(_prefix_start(code, i))
        if tok.kind == SYMBOL:
            if tok.text in OPEN_BRACKETS:
                depth += 1
            elif tok.text in CLOSE_BRACKETS:
                depth = max(0, depth - 1)
    return sorted(starts)


def _prefix_start(code: list[Token], i: int) -> int:
    """Index of the first of the modifiers and ``@[…]`` attribute blocks written right before ``code[i]``."""
    k = i
    while k > 0:
        prev = code[k - 1]
        if prev.kind == IDENT and prev.text in MODIFIERS:
            k -= 1
        elif prev.kind == SYMBOL and prev.text == "]":
            opener = _opener_of(code, k - 1)
            if opener is None or code[opener].text != "@[":
                break
            k = opener
        else:
            break
    return k


def _opener_of(code: list[Token], close: int) -> int | None:
    """Index of the bracket that ``code[close]`` closes, scanning back; None if unbalanced."""
    depth = 0
    for k in range(close, -1, -1):
        t = code[k]
        if t.kind != SYMBOL:
            continue
        if t.text in CLOSE_BRACKETS:
            depth += 1
        elif t.text in OPEN_BRACKETS:
            depth -= 1
            if depth == 0:
                return k
    return None


def find_declarations(src: str) -> list[DeclarationSource]:
    """Every declaration in a Lean file, in order, with its statement boundary (the top-level ``:=``)."""
    tokens = tokenize(src)
    code = [t for t in tokens if not t.is_trivia]
    starts = _command_starts(src, code)
    decls: list[DeclarationSource] = []
    for n_start, i in enumerate(starts):
        stop = starts[n_start + 1] if n_start + 1 < len(starts) else len(code)
        end_offset = code[stop].start if stop < len(code) else len(src)
        j = i
        # Skip attributes and modifiers to reach the keyword.
        while j < stop:
            t = code[j]
            if t.text == "@[":
                j = _skip_brackets(code, j, stop)
                continue
            if t.text in MODIFIERS:
                j += 1
                continue
            break
        if j >= stop or (code[j].text not in DECLARATION_STARTS and code[j].text not in DIALECT_DECLARATIONS):
            continue
        keyword = code[j]
        name = None
        if keyword.text != "example" and j + 1 < stop and code[j + 1].kind == IDENT:
            name = code[j + 1].text
        like = DIALECT_DECLARATIONS.get(keyword.text, keyword.text)
        boundary = statement_boundary(src, code, j + 1, stop, bar_ends=like not in ("theorem", "lemma"))
        start = _leading_docstring_start(tokens, code[i].start)
        decls.append(
            DeclarationSource(
                keyword=keyword.text,
                name=name,
                start=start,
                keyword_start=keyword.start,
                statement_end=code[boundary].start if boundary is not None else end_offset,
                end=end_offset,
                has_body=boundary is not None,
            )
        )
    return decls


def _leading_docstring_start(tokens: list[Token], offset: int) -> int:
    """Include a doc comment that immediately precedes the command."""
    k = bisect_left([t.start for t in tokens], offset)
    prev = tokens[k - 1] if k > 0 else None
    if prev is not None and prev.kind == DOC_COMMENT and prev.text.startswith("/--"):
        return prev.start
    return offset


def _skip_brackets(code: list[Token], i: int, stop: int) -> int:
    """Index just after the bracket group opening at ``i``."""
    depth = 0
    while i < stop:
        t = code[i].text
        if t in OPEN_BRACKETS and code[i].kind == SYMBOL:
            depth += 1
        elif t in CLOSE_BRACKETS and code[i].kind == SYMBOL:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return stop


def statement_boundary(src: str, code: list[Token], i: int, stop: int, bar_ends: bool = True) -> int | None:
    """Index of the top-level ``:=`` / ``where`` / ``|`` that ends a declaration header, or None.

    A ``:=`` at bracket depth 0 that belongs to a ``let``/``have`` inside the type does not count: each such
    keyword seen at depth 0 claims the next depth-0 ``:=``. A depth-0 ``|`` starts the equations of a definition
    by pattern matching (``theorem f : A → B | ⟨x, h⟩ => …``) when a ``=>`` follows it before the next ``|`` or
    ``:=`` — which a statement's own ``|x|`` never has — unless a ``fun``/``match`` in the type owns it. With
    ``bar_ends``, a ``|`` opening a line also ends the header (definitions); a statement's own ``|x|`` can open a
    line, so callers that read statements, not definitions, turn that off.
    """
    depth = 0
    pending_lets = 0
    owned_bars = False  # a depth-0 `fun`/`match` was seen: its alternatives' `|` are part of the type
    for k in range(i, stop):
        t = code[k]
        text = t.text
        if t.kind == SYMBOL:
            if text in OPEN_BRACKETS:
                depth += 1
                continue
            if text in CLOSE_BRACKETS:
                depth = max(0, depth - 1)
                continue
            if depth:
                continue
            if text == ":=":
                if pending_lets:
                    pending_lets -= 1
                    continue
                return k
            if text == "|" and not owned_bars:
                if bar_ends and _at_line_start(src, code, k):
                    return k
                if _starts_alternative(code, k + 1, stop):
                    return k
            elif text == "λ":
                owned_bars = True
        elif t.kind == IDENT and depth == 0:
            if text in _LET_KEYWORDS:
                pending_lets += 1
            elif text == "where":
                return k
            elif text in ("fun", "match"):
                owned_bars = True
    return None


def _starts_alternative(code: list[Token], i: int, stop: int) -> bool:
    """Whether ``| patterns => value`` starts here: a depth-0 ``=>`` follows before any ``:=``.

    Alternatives may share a value (``| 0 | 1 | 2 => by decide``); a ``fun``/``match`` on the way owns the ``=>``.
    """
    depth = 0
    for k in range(i, stop):
        t = code[k]
        text = t.text
        if t.kind == IDENT:
            if depth == 0 and text in ("fun", "match"):
                return False
            continue
        if t.kind != SYMBOL:
            continue
        if text in OPEN_BRACKETS:
            depth += 1
        elif text in CLOSE_BRACKETS:
            depth -= 1
            if depth < 0:
                return False
        elif depth == 0:
            if text == "=>":
                return True
            if text == ":=" or text == "λ":
                return False
    return False


def _at_line_start(src: str, code: list[Token], k: int) -> bool:
    """Whether token ``k`` is the first code token on its line."""
    return k > 0 and "\n" in src[code[k - 1].end : code[k].start]


def split_statement(text: str) -> tuple[str, str]:
    """Split ``theorem … : T := proof`` into (statement, rest-from-:=). Without a top-level ``:=``: (text, "")."""
    code = code_tokens(text)
    boundary = statement_boundary(text, code, 0, len(code), bar_ends=False)
    if boundary is None:
        return text.rstrip(), ""
    offset = code[boundary].start
    return text[:offset].rstrip(), text[offset:]
