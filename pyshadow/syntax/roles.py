"""The statement parser's vocabulary: what each Lean token means to the skeleton, and the scans over code tokens.

``ROLES`` gives each token text its role (quantifier, connective, relation, ``let``, a construct that runs to the
end, a bracket, a big operator); texts not in it are atom material. The scans read a statement's code tokens by
those roles: matching brackets, the comma that ends a binder head, whether parentheses hold logic, where a
``let`` value ends, the identifiers an atom mentions. ``ParseError`` is the one error the parser raises, with the
position where it stopped.
"""

from __future__ import annotations

from ..errors import PyshadowError
from . import lexer as lx
from .ast import ASCII_OPERATORS, RELATIONS


class ParseError(PyshadowError):
    """A statement pyshadow cannot read; ``line``/``column`` point into the statement text."""

    def __init__(self, message: str, line: int = 1, column: int = 0):
        super().__init__(f"{message} (line {line}, column {column})")
        self.reason = message
        self.line = line
        self.column = column


# ---------------------------------------------------------------------------------------------------------------
# What each Lean token means to the skeleton

QUANTIFIERS = {"∀": "∀", "∃": "∃", "∃!": "∃!", "forall": "∀", "exists": "∃"}
CONNECTIVES = {"∧": "AND", "∨": "OR", "→": "ARROW", "↔": "IFF", "¬": "NOT"}
LET_KEYWORDS = frozenset({"let", "have", "letI", "haveI", "let'"})
DECL_KEYWORDS = frozenset({"theorem", "lemma", "def", "abbrev", "instance", "example", "axiom", "opaque"}
                          | set(lx.DIALECT_DECLARATIONS))  # compfiles' `problem` / `determine`
BINDER_BRACKETS = {"(": ("LPAREN_BINDER", "RPAREN_BINDER"), "{": ("LBRACE_BINDER", "RBRACE_BINDER"),
                   "⦃": ("LSTRICT_BINDER", "RSTRICT_BINDER"), "[": ("LBRACKET_BINDER", "RBRACKET_BINDER")}
# Big operators: `∑ i ∈ s, body` — the head runs to its comma; the body (precedence 60–67 in Mathlib, above every
# relation) stays inside the atom, so `∑ i ∈ s, f i = 0` is `(∑ i ∈ s, f i) = 0` as in Lean.
BIG_OPERATORS = frozenset({"∑", "∏", "⋃", "⋂", "⨆", "⨅", "∫", "∮", "∑'", "∏'", "⨁", "⨂", "∐", "⨿", "∑ᶠ", "∏ᶠ",
                           "∫⁻", "⨍"})
# Constructs whose body runs to the end of the enclosing region: the rest of the region is one atom. The filter and
# measure quantifiers `∀ᶠ x in l, p`, `∀ᵐ x ∂μ, p` and the extended binders `∀ᵉ (x ∈ s), p` take their body at
# precedence 0, like `fun`.
EXTENDS_TO_END = frozenset({"fun", "λ", "if", "match", "by", "<|", "$", "show", "do", "calc", "Π", "Σ", "Σ'",
                            "∀ᶠ", "∃ᶠ", "∀ᵐ", "∃ᵐ", "∀ᵉ", "∃ᵉ"})
# Keywords that are never identifiers of an atom (so never a "mentioned" variable).
KEYWORDS = frozenset({"fun", "if", "then", "else", "match", "with", "by", "show", "from", "do", "calc", "at", "in",
                      "forall", "exists", "let", "have", "letI", "haveI", "let'", "Type", "Sort", "Prop"})
# Inside parentheses, any of these at depth 0 makes the group a term that is not logic (ascription, tuple, …).
PAREN_ATOM_MARKERS = frozenset({":", ",", ":=", "·", "<;>", "=>", "↦"})

# Token text → its role; texts not in the table are atom material. A token's text decides its role whatever its
# kind: identifiers that collide are exactly the keywords listed, and strings/chars carry their quotes.
_QUANT, _CONN, _REL, _LET, _EXTEND, _PAREN, _OPEN, _BIG, _CLOSE = range(9)
ROLES: dict[str, int] = {}
ROLES.update({k: _QUANT for k in QUANTIFIERS})
ROLES.update({k: _CONN for k in CONNECTIVES})
ROLES.update({k: _CONN for k, v in ASCII_OPERATORS.items() if v in CONNECTIVES})
ROLES.update({k: _REL for k in RELATIONS})
ROLES.update({k: _REL for k, v in ASCII_OPERATORS.items() if v in RELATIONS})
ROLES.update({k: _LET for k in LET_KEYWORDS})
ROLES.update({k: _EXTEND for k in EXTENDS_TO_END})
ROLES.update({k: _BIG for k in BIG_OPERATORS})
ROLES.update({k: _OPEN for k in lx.OPEN_BRACKETS})
ROLES.update({k: _CLOSE for k in lx.CLOSE_BRACKETS})
ROLES["("] = _PAREN
# Token texts that may begin another command (a cheap first test before looking at line starts).
_COMMAND_TEXTS = lx.COMMAND_KEYWORDS | lx.DIALECT_COMMANDS | {"#"}
_NOT_CODE = frozenset({lx.COMMENT, lx.DOC_COMMENT, lx.UNTERMINATED_COMMENT, lx.UNTERMINATED_STRING})
# Roles of tokens that continue an application when they follow a closing parenthesis.
_ATOM_CONTINUES = frozenset({None, _OPEN, _PAREN, _BIG, _EXTEND})
# Tokens after which a term may be complete: a `let` value can end before the next line (see ``_let_value_end``).
_POSTFIX = frozenset(lx.CLOSE_BRACKETS) | {"!", "⁻¹", "'", "ᶜ", "ᵀ", "²", "³", "|", "‖", "⌋", "⌉", "⌋₊", "⌉₊"}


def _normalize(text: str) -> str:
    return ASCII_OPERATORS.get(text, text)


def _error(src: str, offset: int, message: str) -> ParseError:
    line, col = lx.line_col(src, offset)
    return ParseError(message, line, col)


# ---------------------------------------------------------------------------------------------------------------
# Scans over a statement's code tokens


def _not_a_declaration(toks: list[lx.Token], texts: list[str], i: int) -> str:
    expected = "not a declaration: expected theorem, lemma, def, abbrev, instance or example"
    if i >= len(toks):
        return f"{expected}, found nothing"
    if _is_command(toks, texts, i):
        name = texts[i] if texts[i] != "#" else "#" + texts[i + 1]
        return (f"{expected}, found the command {name!r}; a statement starts at its declaration keyword "
                f"(opens and other commands belong in the entry's context, or before it as `open … in`)")
    return f"{expected}, found {texts[i]!r}"


def _is_command(toks: list[lx.Token], texts: list[str], i: int) -> bool:
    if texts[i] in lx.COMMAND_KEYWORDS:
        return True
    return texts[i] == "#" and i + 1 < len(toks) and ("#" + texts[i + 1]) in lx.COMMAND_KEYWORDS


def _preamble_end(toks: list[lx.Token], texts: list[str]) -> int:
    """Index just after the leading ``open … in`` / ``set_option … in`` commands (0 when there are none)."""
    i = 0
    n = len(toks)
    while i < n and texts[i] in ("open", "set_option") and toks[i].kind == lx.IDENT:
        k = i + 1
        while k < n and not (texts[k] == "in" and toks[k].kind == lx.IDENT) and texts[k] not in DECL_KEYWORDS:
            k += 1
        if k >= n or texts[k] != "in":
            return i
        i = k + 1
    return i


def _let_value_end(src: str, toks: list[lx.Token], texts: list[str], match: list[int], i: int, j: int,
                   let_column: int) -> int:
    """Index of the ``;`` or first body token that ends a ``let`` value starting at ``i``.

    Lean saves the ``let`` keyword's position and only takes a later line as more of the value if it is indented
    further (``checkColGt`` on application arguments). So the value ends at a depth-0 ``;``, or at a token that
    opens a line right after a token that can end a term (an identifier, a literal, a closing bracket …) and
    either sits at or left of the ``let`` column or cannot be an argument at all (``∀``, ``∑``, ``fun``, ``¬``,
    another ``let`` …); after ``=>``, ``+``, ``then`` … the next line continues the value.
    """
    k = i + 1
    while k < j:
        text = texts[k]
        if text == ";":
            return k
        if "\n" in src[toks[k - 1].end : toks[k].start]:
            prev = toks[k - 1]
            if ((prev.kind in (lx.NUMBER, lx.STRING, lx.CHAR) or texts[k - 1] in _POSTFIX
                    or (prev.kind == lx.IDENT and texts[k - 1] not in KEYWORDS))
                    and (_column(src, toks[k].start) <= let_column or ROLES.get(text) in _LEADING_ONLY
                         or text == "¬")):
                return k
        m = match[k]
        k = m + 1 if m > k else k + 1
    return j


# Roles of tokens that start a term but can never be an application's argument.
_LEADING_ONLY = frozenset({_QUANT, _EXTEND, _BIG, _LET})


def _column(src: str, offset: int) -> int:
    return offset - (src.rfind("\n", 0, offset) + 1)


def _paren_is_logic(texts: list[str], match: list[int], i: int, j: int) -> bool:
    """Whether a parenthesised group may hold logic the grammar must see (else it is opaque text).

    Logic means a connective, relation, quantifier or ``let`` at depth 0. A quantifier's or big operator's head
    runs to its comma, so that comma is not a tuple's. Ascriptions, tuples, ``·`` sections and named arguments
    (``(x : ℝ)``, ``(a, b)``, ``(· + 1)``, ``(p := 2)``) are atoms, as is a group that starts or ends with a binary
    operator or starts with a construct that extends to the end (``(fun x => x = 1)``).
    """
    if i >= j:
        return False
    first = ROLES.get(texts[i])
    if first in (_EXTEND, _REL) or (first == _CONN and texts[i] != "¬") or ROLES.get(texts[j - 1]) in (_CONN, _REL):
        return False
    logic = False
    k = i
    while k < j:
        text = texts[k]
        role = ROLES.get(text)
        if role is None:
            k += 1
            continue
        if role == _PAREN or role == _OPEN:
            k = match[k] + 1
            continue
        if text in PAREN_ATOM_MARKERS:
            return False
        if role == _QUANT or role == _BIG:
            comma = _head_comma(texts, match, k + 1, j)
            if comma is None:
                return False
            logic = logic or role == _QUANT
            k = comma + 1
            continue
        if role == _EXTEND:  # the rest is that construct's body: whatever came before decides
            return logic
        if role in (_CONN, _REL, _LET):
            logic = True
        k += 1
    return logic


def _head_comma(texts: list[str], match: list[int], i: int, j: int) -> int | None:
    """The comma that ends a binder head starting at ``i`` (after ``∀``, ``∃``, ``∑`` …), or None.

    The first depth-0 comma, except that a quantifier or big operator inside the head (``∀ x ≤ ∑ i ∈ s, f i, p x``)
    owns the next comma itself.
    """
    owed = 0
    k = i
    while k < j:
        text = texts[k]
        if text == ",":
            if not owed:
                return k
            owed -= 1
        else:
            role = ROLES.get(text)
            if role == _QUANT or role == _BIG:
                owed += 1
        m = match[k]
        k = m + 1 if m > k else k + 1
    return None


def _find_depth0(texts: list[str], match: list[int], i: int, j: int, text: str) -> int | None:
    k = i
    while k < j:
        t = texts[k]
        if t == text:
            return k
        m = match[k]
        k = m + 1 if m > k else k + 1
    return None


def _match_brackets(src: str, toks: list[lx.Token], texts: list[str]) -> list[int]:
    """For each opening bracket token, the index of its closer (-1 elsewhere); unbalanced input is an error."""
    match = [-1] * len(toks)
    stack: list[int] = []
    opens, closes = lx.OPEN_BRACKETS, lx.CLOSE_BRACKETS
    for k, text in enumerate(texts):
        if text in opens:
            stack.append(k)
        elif text in closes:
            if not stack:
                raise _error(src, toks[k].start, f"unmatched {text!r}")
            o = stack.pop()
            if opens[texts[o]] != text:
                raise _error(src, toks[k].start, f"{texts[o]!r} closed by {text!r}")
            match[o] = k
            match[k] = o
    if stack:
        raise _error(src, toks[stack[-1]].start, f"unclosed {texts[stack[-1]]!r}")
    return match


def _idents(toks: list[lx.Token], i: int, j: int) -> tuple[str, ...]:
    """Roots of the identifiers of code tokens [i, j), in order of first appearance, keywords left out."""
    seen: dict[str, None] = {}
    ident, keywords = lx.IDENT, KEYWORDS
    for k in range(i, j):
        t = toks[k]
        if t.kind == ident:
            text = t.text
            if "." in text or text.startswith("«"):
                text = lx.ident_root(text)
            if text not in keywords:
                seen[text] = None
    return tuple(seen)
