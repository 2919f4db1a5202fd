"""The parser's first stage: a statement's Lean tokens → the grammar's terminals (``StructuralLexer``).

``StructuralLexer`` walks the Lean-aware tokens of ``pyshadow.syntax.lexer`` once and emits the terminals of
``grammar/lean_statement.lark``: the skeleton's symbols, binder brackets, quantifier heads — and ``ATOM`` tokens for
every maximal run of opaque Lean text, with the identifiers it mentions. What each token means is
``pyshadow.syntax.roles``; the second stage, terminals → tree, is ``pyshadow.syntax.parser``.

A terminal is a plain tuple (type, text, start, end, payload): thousands are made per second, and a tuple is the
cheapest object Python builds. Tree nodes are never tuples, so the builders can tell the two apart.
"""

from __future__ import annotations

from typing import Any

from . import lexer as lx
from .ast import Atom, Binder
from .declarations import command_starts, statement_boundary
from .roles import (
    _ATOM_CONTINUES,
    _CLOSE,
    _COMMAND_TEXTS,
    _CONN,
    _EXTEND,
    _LET,
    _NOT_CODE,
    _OPEN,
    _PAREN,
    _QUANT,
    _REL,
    BINDER_BRACKETS,
    CONNECTIVES,
    DECL_KEYWORDS,
    KEYWORDS,
    QUANTIFIERS,
    ROLES,
    _column,
    _error,
    _find_depth0,
    _head_comma,
    _idents,
    _let_value_end,
    _match_brackets,
    _normalize,
    _not_a_declaration,
    _paren_is_logic,
    _preamble_end,
)


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
