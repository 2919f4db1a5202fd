"""Parse a Lean 4 declaration header into the typed tree of ``pyshadow.syntax.ast``.

Two stages. ``StructuralLexer`` walks the Lean-aware tokens of ``pyshadow.syntax.lexer`` once and emits the
grammar's terminals: the skeleton's symbols, binder brackets, quantifier heads — and ``ATOM`` tokens for every
maximal run of opaque Lean text, with the identifiers it mentions. An LALR(1) parser then reads those terminals
with the table lark builds from ``grammar/lean_statement.lark``, building the typed tree directly as it reduces.

The parse loop is ``pyshadow.syntax.lalr.LalrDriver`` (its own module: why, and which parts of lark it relies
on); the grammar, the table and its LALR(1) conflict checks stay lark's.

Entry points: ``parse_declaration`` (one declaration's header, with or without its proof) and ``parse_term``.
Both raise ``ParseError`` with the 1-based line and 0-based column where parsing stopped, and nothing else: any
input, however broken, either parses or raises ``ParseError``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..errors import PyshadowError
from ..paths import GRAMMAR_FILE
from . import lexer as lx
from .declarations import command_starts, statement_boundary
from .lalr import LalrDriver, NodeError
from .ast import ASCII_OPERATORS, RELATIONS, Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term


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
# Stage 1: Lean tokens → grammar terminals
#
# A terminal is a plain tuple (type, text, start, end, payload): thousands are made per second, and a tuple is the
# cheapest object Python builds. Tree nodes are never tuples, so the builders can tell the two apart.


class StructuralLexer:
    """One statement's terminals: ``StructuralLexer(src).declaration()`` or ``.term()``.

    Raises ``ParseError`` for text that cannot be a header (unbalanced brackets, an unterminated comment or string,
    a binder that is not one, a quantifier without its comma …), with the offending position.
    """

    def __init__(self, src: str):
        self.src = src
        tokens = lx.tokenize(src)
        code = [t for t in tokens if t[0] not in _NOT_CODE]
        docs = []
        if len(code) != len(tokens):  # comments, or something unterminated
            for t in tokens:
                kind = t.kind
                if kind == lx.UNTERMINATED_COMMENT or kind == lx.UNTERMINATED_STRING:
                    raise _error(src, t.start, f"unterminated {kind.split('_', 1)[1]}")
                if kind == lx.DOC_COMMENT:
                    docs.append(t)
        self.toks = code
        self.docs = docs
        self.texts = [t[1] for t in code]
        self.match = _match_brackets(src, code, self.texts)
        self.out: list[tuple] = []
        self._a0 = -1  # the atom being accumulated: code tokens [_a0, _a1)
        self._a1 = -1
        self._open_right = False

    # -- emitting ---------------------------------------------------------------------------------------------
    def _emit(self, kind: str, start: int, end: int, value: str | None = None, payload: Any = None) -> None:
        if self._a0 >= 0:
            self._flush()
        self.out.append((kind, self.src[start:end] if value is None else value, start, end, payload))

    def _flush(self) -> None:
        i, j = self._a0, self._a1
        self._a0 = -1
        toks = self.toks
        start, end = toks[i].start, toks[j - 1].end
        text = self.src[start:end]
        atom = Atom(text, _idents(toks, i, j), self._open_right)
        self.out.append(("ATOM", text, start, end, atom))

    # -- the header -------------------------------------------------------------------------------------------
    def declaration(self) -> list[tuple]:
        toks, src, texts, match = self.toks, self.src, self.texts, self.match
        n = len(toks)
        i = _preamble_end(toks, texts)
        if i:
            self._emit("PREAMBLE", toks[0].start, toks[i - 1].end)
        after = toks[i - 1].end if i else 0
        first = toks[i].start if i < n else len(src)
        docs = [t for t in self.docs if after <= t.start and t.end <= first and t.text.startswith("/--")]
        if docs:
            self._emit("DOC", docs[-1].start, docs[-1].end)
        if i < n and texts[i] == "@[":
            a = i
            while i < n and texts[i] == "@[":  # `@[simp] @[norm_cast]`: one verbatim attributes block
                i = match[i] + 1
            self._emit("ATTRIBUTES", toks[a].start, toks[i - 1].end)
        while i < n and texts[i] in lx.MODIFIERS:
            self._emit("MODIFIER", toks[i].start, toks[i].end)
            i += 1
        if i >= n or texts[i] not in DECL_KEYWORDS:
            raise _error(src, toks[i].start if i < n else len(src), _not_a_declaration(toks, texts, i))
        keyword = texts[i]
        self._emit("DECL_KW", toks[i].start, toks[i].end)
        i += 1
        boundary = statement_boundary(src, toks, i, n, bar_ends=False)
        end = n if boundary is None else boundary  # the header stops at its `:=` (or `where`, `| … =>`)
        self._check_single_command(i, end)
        if keyword != "example" and i < n and toks[i].kind == lx.IDENT and texts[i] not in KEYWORDS:
            self._emit("DECL_NAME", toks[i].start, toks[i].end)
            i += 1
            if i + 1 < n and texts[i] == "." and toks[i].start == toks[i - 1].end and texts[i + 1] == "{":
                m = match[i + 1]
                names = [texts[k] for k in range(i + 2, m) if toks[k].kind == lx.IDENT]
                self._emit("UNIVERSES", toks[i].start, toks[m].end, ",".join(names))
                i = m + 1
        while i < end:
            text = texts[i]
            if text in BINDER_BRACKETS:
                m = match[i]
                self._binder(i, m)
                i = m + 1
            elif toks[i].kind == lx.IDENT and text not in KEYWORDS:  # `def f x : …`: bare binder names
                i = self._names(i, end)
            else:
                break
        if i < end:
            if texts[i] != ":":
                raise _error(src, toks[i].start, f"unexpected {texts[i]!r} in the declaration's binders")
            self._emit("COLON", toks[i].start, toks[i].end)
            if i + 1 >= end:
                raise _error(src, toks[i].end, "missing type after ':'")
            self._term(i + 1, end)
        if self._a0 >= 0:
            self._flush()
        return self.out

    def _check_single_command(self, i: int, end: int) -> None:
        """A statement is one declaration header: another command (``#check``, ``open``, a second ``theorem`` …)
        starting before its ``:=`` is an error, not more of the type."""
        toks, src = self.toks, self.src
        if _COMMAND_TEXTS.isdisjoint(self.texts[i:end]):  # the usual case, decided in C
            return
        for k in command_starts(src, toks):
            if i <= k < end:
                name = self.texts[k] if self.texts[k] != "#" else "#" + self.texts[k + 1]
                raise _error(src, toks[k].start, f"the command {name!r} starts inside the statement: a statement "
                                                 f"is one declaration header")

    def term(self) -> list[tuple]:
        """A bare term, as the type of an anonymous ``example``."""
        self.out = [("DECL_KW", "example", 0, 0, None), ("COLON", ":", 0, 0, None)]
        if not self.toks:
            raise _error(self.src, len(self.src), "empty term")
        self._term(0, len(self.toks))
        if self._a0 >= 0:
            self._flush()
        return self.out

    def _binder(self, i: int, m: int) -> None:
        """A bracketed binder group: tokens i (opening bracket) .. m (its closer)."""
        toks, src, texts = self.toks, self.src, self.texts
        opener, closer = BINDER_BRACKETS[texts[i]]
        self._emit(opener, toks[i].start, toks[i].end)
        k = i + 1
        if texts[i] == "[":
            if k + 1 < m and toks[k].kind == lx.IDENT and texts[k + 1] == ":":
                self._names(k, k + 1)
                self._emit("COLON", toks[k + 1].start, toks[k + 1].end)
                k += 2
            if k >= m:
                raise _error(src, toks[m].start, "empty instance binder")
            self._term(k, m)
        else:
            if k >= m or toks[k].kind != lx.IDENT or texts[k] in KEYWORDS:
                raise _error(src, toks[k].start, "expected a binder name")
            k = self._names(k, m)
            if k < m and texts[k] == ":":
                self._emit("COLON", toks[k].start, toks[k].end)
                assign = _find_depth0(texts, self.match, k + 1, m, ":=")
                stop = assign if assign is not None else m
                if k + 1 >= stop:
                    raise _error(src, toks[k].end, "missing type after ':'")
                self._term(k + 1, stop)
                k = stop
            if k < m and texts[k] == ":=":
                if k + 1 >= m:
                    raise _error(src, toks[k].end, "missing default value after ':='")
                # The default's code tokens only: a trailing comment must not swallow the closing bracket.
                default = src[toks[k + 1].start : toks[m - 1].end]
                self._emit("DEFAULT", toks[k].start, toks[m].start, default)
                k = m
            if k != m:
                raise _error(src, toks[k].start, f"unexpected {texts[k]!r} in a binder")
        self._emit(closer, toks[m].start, toks[m].end)

    # -- terms ------------------------------------------------------------------------------------------------
    def _term(self, i: int, j: int) -> None:
        """Terminals for code tokens [i, j)."""
        toks, texts, match = self.toks, self.texts, self.match
        roles = ROLES
        k = i
        while k < j:
            role = roles.get(texts[k])
            if role is None or role == _CLOSE:  # a closer never starts a piece: brackets were matched already
                if self._a0 < 0:
                    self._a0 = k
                self._a1 = k + 1
                self._open_right = False
                k += 1
                continue
            t = toks[k]
            if role == _PAREN:
                m = match[k]
                # Logic in parentheses is structure only as a whole operand; next to other atom material it is
                # an argument (`f (a = b) x`, `(a = b).symm`) and stays inside the atom's text.
                if (self._a0 < 0 and (m + 1 >= j or ROLES.get(texts[m + 1]) not in _ATOM_CONTINUES)
                        and _paren_is_logic(texts, match, k + 1, m)):
                    self._emit("LPAREN", t.start, t.end)
                    self._term(k + 1, m)
                    self._emit("RPAREN", toks[m].start, toks[m].end)
                else:
                    self._piece(k, m + 1)
                k = m + 1
            elif role == _OPEN:
                m = match[k]
                self._piece(k, m + 1)
                k = m + 1
            elif role == _CONN:
                norm = _normalize(texts[k])
                self._emit(CONNECTIVES[norm], t.start, t.end, norm)
                k += 1
            elif role == _REL:
                self._emit("RELATION", t.start, t.end, _normalize(texts[k]))
                k += 1
            elif role == _QUANT:
                comma = _head_comma(texts, match, k + 1, j)
                if comma is None:
                    raise _error(self.src, t.start, f"expected ',' after the binders of {texts[k]!r}")
                self._emit("QUANTIFIER", t.start, t.end, QUANTIFIERS[texts[k]])
                self._quantifier_binders(k + 1, comma)
                self._emit("COMMA", toks[comma].start, toks[comma].end)
                k = comma + 1
            elif role == _LET:
                k = self._let(k, j)
            elif role == _EXTEND:
                self._piece(k, j, open_right=True)
                k = j
            else:  # _BIG
                comma = _head_comma(texts, match, k + 1, j)
                if comma is None:
                    raise _error(self.src, t.start, f"expected ',' after the binders of {texts[k]!r}")
                self._piece(k, comma + 1)
                k = comma + 1

    def _piece(self, i: int, j: int, open_right: bool = False) -> None:
        """Add code tokens [i, j) to the atom being accumulated."""
        if self._a0 < 0:
            self._a0 = i
        self._a1 = j
        self._open_right = open_right

    def _quantifier_binders(self, i: int, j: int) -> None:
        toks, src, texts = self.toks, self.src, self.texts
        if i >= j:
            raise _error(src, toks[j].start, "expected binders before ','")
        k = i
        while k < j:
            t = toks[k]
            text = texts[k]
            if text in BINDER_BRACKETS:
                m = self.match[k]
                self._binder(k, m)
                k = m + 1
            elif t.kind == lx.IDENT and text not in KEYWORDS:
                k = self._names(k, j)
            elif text == ":":
                self._emit("COLON", t.start, t.end)
                if k + 1 >= j:
                    raise _error(src, t.end, "missing type after ':'")
                self._term(k + 1, j)
                self._flush_pending()
                return
            elif ROLES.get(text) == _REL:
                self._emit("RELATION", t.start, t.end, _normalize(text))
                if k + 1 >= j:
                    raise _error(src, t.end, f"missing bound after {text!r}")
                self._term(k + 1, j)
                self._flush_pending()
                return
            else:
                raise _error(src, t.start, f"unexpected {text!r} in quantifier binders")

    def _names(self, k: int, stop: int) -> int:
        """One BINDER_NAMES terminal for the run of binder names at ``k`` (before ``stop``); returns its end."""
        toks, texts = self.toks, self.texts
        i = k
        while k < stop and toks[k].kind == lx.IDENT and texts[k] not in KEYWORDS:
            k += 1
        self._emit("BINDER_NAMES", toks[i].start, toks[k - 1].end, payload=tuple(texts[i:k]))
        return k

    def _flush_pending(self) -> None:
        if self._a0 >= 0:
            self._flush()

    def _let(self, k: int, j: int) -> int:
        """``let x (a : A) : T := v`` up to its ``;`` or line break: emit LET_HEAD, return where the body starts."""
        toks, src, texts, match = self.toks, self.src, self.texts, self.match
        keyword = toks[k]
        i = k + 1
        name = ""  # `have : p := …`, `haveI : Fintype α := …`, `letI := …` bind no name of their own
        if i < j and toks[i].kind == lx.IDENT and texts[i] not in KEYWORDS:
            name = texts[i]
            i += 1
        elif i < j and texts[i] in ("⟨", "(") and match[i] + 1 < j and texts[match[i] + 1] in (":", ":="):
            # A pattern, `let ⟨x, hx⟩ := h` / `let (a, b) := p`: kept verbatim as the name it binds.
            name = src[toks[i].start : toks[match[i]].end]
            i = match[i] + 1
        binders: list[Binder] = []
        while i < j and texts[i] not in (":", ":="):
            if texts[i] in BINDER_BRACKETS:
                m = match[i]
                binders.append(self._opaque_binder(i, m))
                i = m + 1
            elif name and toks[i].kind == lx.IDENT and texts[i] not in KEYWORDS:
                binders.append(Binder("", (texts[i],)))
                i += 1
            else:
                raise _error(src, toks[i].start, f"unsupported {keyword.text!r} form (a pattern or binder "
                                                 f"pyshadow does not read)")
        assign = _find_depth0(texts, match, i, j, ":=")
        if assign is None:
            raise _error(src, keyword.start, f"expected ':=' in {keyword.text!r}")
        let_type = None
        if texts[i] == ":":
            if assign == i + 1:
                raise _error(src, toks[i].end, "missing type after ':'")
            let_type = Atom(self._folded(i + 1, assign), _idents(toks, i + 1, assign))
        elif assign != i:
            raise _error(src, toks[i].start, f"unexpected {texts[i]!r} in {keyword.text!r}")
        end = _let_value_end(src, toks, texts, match, assign + 1, j, _column(src, keyword.start))
        if end == assign + 1 or end >= j:
            raise _error(src, toks[assign].end, f"expected a value and a body for {keyword.text!r}")
        value = Atom(self._folded(assign + 1, end), _idents(toks, assign + 1, end))
        semicolon = texts[end] == ";"
        stop = toks[end].end if semicolon else toks[end - 1].end
        self._emit("LET_HEAD", keyword.start, stop, src[keyword.start:stop],
                   payload=(keyword.text, name, tuple(binders), let_type, value))
        return end + 1 if semicolon else end

    def _opaque_binder(self, i: int, m: int) -> Binder:
        """A ``let``'s own binder group, its type kept as one atom: ``(n : ℕ)``, ``{α}``, ``[inst : C α]``."""
        toks, texts = self.toks, self.texts
        bracket = texts[i]
        k = i + 1
        names: list[str] = []
        while k < m and toks[k].kind == lx.IDENT and texts[k] not in KEYWORDS and (bracket != "[" or
                                                                                  texts[k + 1] == ":"):
            names.append(texts[k])
            k += 1
        type_ = None
        if k < m and texts[k] == ":":
            k += 1
        if k < m:
            type_ = Atom(self._folded(k, m), _idents(toks, k, m))
        if bracket == "[" and type_ is None:
            raise _error(self.src, toks[m].start, "empty instance binder")
        if bracket != "[" and not names:
            raise _error(self.src, toks[i].start, "expected a binder name")
        return Binder(bracket, tuple(names), type_)

    def _folded(self, i: int, j: int) -> str:
        """The text of code tokens [i, j) on one line: line breaks and comments between tokens become a space.

        A ``let`` value or type is re-laid out by the renderer on one line after ``let x :=``; keeping its line
        breaks would let a continuation line land left of the new ``let`` column, where Lean ends the value.
        """
        toks, src = self.toks, self.src
        start, end = toks[i].start, toks[j - 1].end
        text = src[start:end]
        if "\n" not in text and "-" not in text:
            return text
        parts = [toks[i].text]
        for k in range(i + 1, j):
            gap = src[toks[k - 1].end : toks[k].start]
            if "\n" in gap or "-" in gap:  # a gap holds only blanks and comments ("--", "/-")
                gap = " "
            parts.append(gap)
            parts.append(toks[k].text)
        return "".join(parts)


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


# ---------------------------------------------------------------------------------------------------------------
# Stage 2: terminals → tree, by LALR(1) over lark's table


class _Builder:
    """One method per grammar rule: children (terminal tuples and built nodes) → node."""

    def __init__(self) -> None:
        self.src = ""

    def start(self, c):
        return c[0]

    def declaration(self, c):
        doc = attrs = preamble = None
        modifiers: list[str] = []
        keyword = name = None
        universes: tuple[str, ...] = ()
        binders: list[Binder] = []
        type_: Term | None = None
        for it in c:
            if type(it) is tuple:
                kind = it[0]
                if kind == "PREAMBLE":
                    preamble = it[1]
                elif kind == "DOC":
                    doc = it[1]
                elif kind == "ATTRIBUTES":
                    attrs = it[1]
                elif kind == "MODIFIER":
                    modifiers.append(it[1])
                elif kind == "DECL_KW":
                    keyword = it[1]
                elif kind == "DECL_NAME":
                    name = it[1]
                elif kind == "UNIVERSES":
                    universes = tuple(it[1].split(",")) if it[1] else ()
                elif kind == "BINDER_NAMES":  # `def f x y : T`
                    binders.append(Binder("", it[4]))
            elif type(it) is Binder:
                binders.append(it)
            else:
                type_ = it
        return Declaration(keyword, name, tuple(binders), type_, universes, attrs, tuple(modifiers), doc, preamble)

    def _binder(self, bracket: str, c) -> Binder:
        names: tuple[str, ...] = ()
        type_ = default = None
        for it in c[1:-1]:
            if type(it) is tuple:
                if it[0] == "BINDER_NAMES":
                    names = it[4]
                elif it[0] == "DEFAULT":
                    default = it[1]
            else:
                type_ = it
        return Binder(bracket, names, type_, default)

    def explicit_binder(self, c):
        return self._binder("(", c)

    def implicit_binder(self, c):
        return self._binder("{", c)

    def strict_binder(self, c):
        return self._binder("⦃", c)

    def instance_binder(self, c):
        names = c[1][4] if type(c[1]) is tuple and c[1][0] == "BINDER_NAMES" else ()  # `[inst : C α]` / `[C α]`
        return Binder("[", names, c[-2])

    def quantifier(self, c):
        return Quant(c[0][1], tuple(c[1]), c[3])

    def quantifier_binders(self, c):
        groups: list[Binder] = []
        bare: list[str] = []
        type_ = bound = None
        k = 0
        while k < len(c):
            it = c[k]
            if type(it) is Binder:
                if bare:
                    groups.append(Binder("", tuple(bare)))
                    bare = []
                groups.append(it)
            elif it[0] == "BINDER_NAMES":
                bare.extend(it[4])
            elif it[0] == "COLON":
                type_ = c[k + 1]
                k += 1
            else:  # RELATION
                bound = (it[1], c[k + 1])
                k += 1
            k += 1
        if bare:
            groups.append(Binder("", tuple(bare), type_, None, bound))
        elif type_ is not None or bound is not None:
            raise NodeError(c[-2], "a type or bound must follow bare binder names")
        return groups

    def let_term(self, c):
        keyword, name, binders, let_type, value = c[0][4]
        return Let(keyword, name, let_type, value, c[1], binders)

    def _binop(self, c):
        return BinOp(c[1][1], c[0], c[2])

    iff = implication = disjunction = conjunction = _binop

    def not_term(self, c):
        return Not(c[1])

    def relation(self, c):
        return Rel(c[1][1], c[0], c[2])

    def parenthesized(self, c):
        return c[1]


def _unexpected(src: str, tok: tuple, expected: set[str]) -> ParseError:
    """Why the terminal ``tok`` cannot come next, given the terminals that could."""
    kind = tok[0]
    if kind == "$END":
        hint = ": expected a term" if "ATOM" in expected else ""
        return _error(src, len(src.rstrip()), f"unexpected end of statement{hint}")
    what = f"unexpected {tok[1]!r}"
    if kind == "RELATION" and "ATOM" not in expected:
        what += " (relations do not chain in Lean: `a = b = c` needs parentheses)"
    elif kind == "IFF" and "ATOM" not in expected:
        what += " (↔ does not chain in Lean: `p ↔ q ↔ r` needs parentheses)"
    elif "ATOM" in expected and kind not in expected:
        what += " where a term should be"
    return _error(src, tok[2], what)


def _invalid(src: str, err: NodeError) -> ParseError:
    return _error(src, max(err.terminal[2], 0), str(err))


@lru_cache(maxsize=1)
def _lalr() -> LalrDriver:
    return LalrDriver(GRAMMAR_FILE.read_text(encoding="utf-8"), _Builder(), _unexpected, _invalid)


def _parse(src: str, mode: str):
    lalr = _lalr()
    try:
        lexer = StructuralLexer(src)
        terminals = lexer.declaration() if mode == "declaration" else lexer.term()
        return lalr.parse(src, terminals)
    except RecursionError:
        raise ParseError("statement nests too deeply to read") from None


def parse_declaration(src: str) -> Declaration:
    """Parse ``theorem name binders : type`` (a trailing ``:= proof`` is ignored)."""
    return _parse(src, "declaration")


def parse_term(src: str) -> Term:
    """Parse a bare Lean term (a proposition or a type)."""
    return _parse(src, "term").type
