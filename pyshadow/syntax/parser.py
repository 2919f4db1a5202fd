"""Parse a Lean 4 declaration header into the typed tree of ``pyshadow.syntax.ast``.

Two stages. ``StructuralLexer`` walks the Lean-aware tokens of ``pyshadow.syntax.lexer`` once and emits the
grammar's terminals: the skeleton's symbols, binder brackets, quantifier heads — and ``ATOM`` tokens for every
maximal run of opaque Lean text, with the identifiers it mentions. Lark's LALR(1) parser then reads
``grammar/lean_statement.lark`` over those tokens, building the tree directly (an inline transformer, no
intermediate parse tree), which keeps parsing at thousands of statements a second.

Entry points: ``parse_declaration`` (one declaration's header, with or without its proof) and ``parse_term``.
Both raise ``ParseError`` with the 1-based line and 0-based column where parsing stopped.
"""

from __future__ import annotations

from functools import lru_cache

import lark
from lark import Lark, Transformer, v_args
from lark.exceptions import UnexpectedInput

from ..errors import PyshadowError
from ..paths import GRAMMAR_FILE
from . import lexer as lx
from .ast import ASCII_OPERATORS, RELATIONS, Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term


class ParseError(PyshadowError):
    """A statement pyshadow cannot read; ``line``/``column`` point into the statement text."""

    def __init__(self, message: str, line: int = 1, column: int = 0):
        super().__init__(f"{message} (line {line}, column {column})")
        self.reason = message
        self.line = line
        self.column = column


class _Tok(lark.Token):
    """A lark token that can carry a payload (the ``Atom`` or ``Let`` head it stands for)."""


QUANTIFIERS = {"∀": "∀", "∃": "∃", "∃!": "∃!", "forall": "∀", "exists": "∃"}
CONNECTIVES = {"∧": "AND", "∨": "OR", "→": "ARROW", "↔": "IFF", "¬": "NOT"}
LET_KEYWORDS = frozenset({"let", "have", "letI", "haveI", "let'"})
DECL_KEYWORDS = frozenset({"theorem", "lemma", "def", "abbrev", "instance", "example"})
BINDER_BRACKETS = {"(": ("LPAREN_BINDER", "RPAREN_BINDER"), "{": ("LBRACE_BINDER", "RBRACE_BINDER"),
                   "⦃": ("LSTRICT_BINDER", "RSTRICT_BINDER"), "[": ("LBRACKET_BINDER", "RBRACKET_BINDER")}
# Big operators: `∑ i ∈ s, body` — the head runs to its comma; the body (precedence 67) stays inside the atom.
BIG_OPERATORS = frozenset({"∑", "∏", "⋃", "⋂", "⨆", "⨅", "∫", "∮", "∑'", "∏'", "⨁", "⨂", "∀ᶠ", "∃ᶠ", "∐", "⨿"})
# Constructs whose body runs to the end of the enclosing bracket: the rest of the region is one atom.
EXTENDS_TO_END = frozenset({"fun", "λ", "if", "match", "by", "<|", "$", "show", "do", "calc", "Π", "Σ", "∃ᶠ", "∀ᶠ"})
SKELETON_SYMBOLS = frozenset(QUANTIFIERS) | frozenset(CONNECTIVES) | frozenset(RELATIONS) | frozenset(
    k for k, v in ASCII_OPERATORS.items()) | LET_KEYWORDS
# Inside parentheses, any of these at depth 0 makes the group a term that is not logic (ascription, tuple, …).
PAREN_ATOM_MARKERS = frozenset({":", ",", ":=", "·", "|", "<;>"})


def _normalize(text: str) -> str:
    return ASCII_OPERATORS.get(text, text)


class StructuralLexer(lark.lexer.Lexer):
    """Lark's lexer hook: ``lex`` receives a ``_Prepared`` statement and yields its grammar terminals."""

    def __init__(self, lexer_conf):  # noqa: D401 - lark's signature
        pass

    def lex(self, prepared: "_Prepared", parser_state=None):  # type: ignore[override]
        return iter(prepared.terminals)


class _Prepared:
    """One statement's terminals, produced eagerly so lexing errors carry positions."""

    def __init__(self, src: str, mode: str):
        self.src = src
        tokens = lx.tokenize(src)
        for t in tokens:
            if t.kind in (lx.UNTERMINATED_COMMENT, lx.UNTERMINATED_STRING):
                raise _error(src, t.start, f"unterminated {t.kind.split('_', 1)[1]}")
        self.trivia = [t for t in tokens if t.is_trivia]
        self.toks = [t for t in tokens if not t.is_trivia]
        self.match = _match_brackets(src, self.toks)
        self.terminals: list[_Tok] = []
        self._pending: list[int] = []  # token indices of the atom being accumulated: [start, end)
        self._atom_start = -1
        self._atom_end = -1
        self._atom_open_right = False
        if mode == "declaration":
            self._declaration()
        else:
            self._term(0, len(self.toks))
            self._flush()

    # -- emitting ---------------------------------------------------------------------------------------------
    def _emit(self, kind: str, start: int, end: int, value: str | None = None, payload=None) -> None:
        self._flush()
        tok = _Tok(kind, value if value is not None else self.src[start:end], start_pos=start, end_pos=end)
        tok.payload = payload
        self.terminals.append(tok)

    def _atom_piece(self, i: int, j: int, open_right: bool = False) -> None:
        """Add code tokens [i, j) to the atom being accumulated."""
        if self._atom_start < 0:
            self._atom_start = i
        self._atom_end = j
        self._atom_open_right = open_right

    def _flush(self) -> None:
        if self._atom_start < 0:
            return
        i, j = self._atom_start, self._atom_end
        self._atom_start = -1
        start, end = self.toks[i].start, self.toks[j - 1].end
        atom = Atom(self.src[start:end], _idents(self.toks, i, j), self._atom_open_right)
        tok = _Tok("ATOM", atom.text, start_pos=start, end_pos=end)
        tok.payload = atom
        self.terminals.append(tok)

    # -- the header -------------------------------------------------------------------------------------------
    def _declaration(self) -> None:
        toks, src = self.toks, self.src
        first = toks[0].start if toks else len(src)
        docs = [t for t in self.trivia if t.kind == lx.DOC_COMMENT and t.end <= first and t.text.startswith("/--")]
        if docs:
            self._emit("DOC", docs[-1].start, docs[-1].end)
        i, n = 0, len(toks)
        if i < n and toks[i].text == "@[":
            m = self.match[i]
            self._emit("ATTRIBUTES", toks[i].start, toks[m].end)
            i = m + 1
        while i < n and toks[i].kind == lx.IDENT and toks[i].text in lx.MODIFIERS:
            self._emit("MODIFIER", toks[i].start, toks[i].end)
            i += 1
        if i >= n or toks[i].text not in DECL_KEYWORDS:
            at = toks[i].start if i < n else len(src)
            raise _error(src, at, "not a declaration: expected theorem, lemma, def, abbrev, instance or example")
        keyword = toks[i].text
        self._emit("DECL_KW", toks[i].start, toks[i].end)
        i += 1
        if keyword != "example" and i < n and toks[i].kind == lx.IDENT:
            self._emit("DECL_NAME", toks[i].start, toks[i].end)
            i += 1
            if i + 1 < n and toks[i].text == "." and toks[i].start == toks[i - 1].end and toks[i + 1].text == "{":
                m = self.match[i + 1]
                names = [t.text for t in toks[i + 2 : m] if t.kind == lx.IDENT]
                self._emit("UNIVERSES", toks[i].start, toks[m].end, ",".join(names))
                i = m + 1
        while i < n and toks[i].text in BINDER_BRACKETS and toks[i].kind == lx.SYMBOL:
            m = self.match[i]
            self._binder(i, m)
            i = m + 1
        if i < n:
            if toks[i].text != ":":
                raise _error(src, toks[i].start, f"unexpected {toks[i].text!r} in the declaration's binders")
            self._emit("COLON", toks[i].start, toks[i].end)
            statement_end = _top_level_assign(self.toks, i + 1, n, src)
            if i + 1 >= statement_end:
                raise _error(src, toks[i].end, "missing type after ':'")
            self._term(i + 1, statement_end)
        self._flush()

    def _binder(self, i: int, m: int) -> None:
        """A bracketed binder group: tokens i (opening bracket) .. m (its closer)."""
        toks, src = self.toks, self.src
        opener, closer = BINDER_BRACKETS[toks[i].text]
        self._emit(opener, toks[i].start, toks[i].end)
        k = i + 1
        if toks[i].text == "[":
            if k + 1 < m and toks[k].kind == lx.IDENT and toks[k + 1].text == ":":
                self._emit("BINDER_NAME", toks[k].start, toks[k].end)
                self._emit("COLON", toks[k + 1].start, toks[k + 1].end)
                k += 2
            if k >= m:
                raise _error(src, toks[m].start, "empty instance binder")
            self._term(k, m)
        else:
            if k >= m or toks[k].kind != lx.IDENT:
                raise _error(src, toks[k].start if k < m else toks[m].start, "expected a binder name")
            while k < m and toks[k].kind == lx.IDENT:
                self._emit("BINDER_NAME", toks[k].start, toks[k].end)
                k += 1
            if k < m and toks[k].text == ":":
                self._emit("COLON", toks[k].start, toks[k].end)
                assign = _find_depth0(toks, self.match, k + 1, m, ":=")
                stop = assign if assign is not None else m
                if k + 1 >= stop:
                    raise _error(src, toks[k].end, "missing type after ':'")
                self._term(k + 1, stop)
                k = stop
            if k < m and toks[k].text == ":=":
                default = src[toks[k].end : toks[m].start].strip()
                self._emit("DEFAULT", toks[k].start, toks[m].start, default)
                k = m
            if k != m:
                raise _error(src, toks[k].start, f"unexpected {toks[k].text!r} in a binder")
        self._emit(closer, toks[m].start, toks[m].end)

    # -- terms ------------------------------------------------------------------------------------------------
    def _term(self, i: int, j: int) -> None:
        toks, src, match = self.toks, self.src, self.match
        k = i
        while k < j:
            t = toks[k]
            text = t.text
            kind = t.kind
            if kind == lx.SYMBOL or (kind == lx.IDENT and text in SKELETON_OR_KEYWORD):
                norm = _normalize(text)
                if norm in QUANTIFIERS:
                    comma = _find_depth0(toks, match, k + 1, j, ",")
                    if comma is None:
                        raise _error(src, t.start, f"expected ',' after the binders of {text!r}")
                    self._emit("QUANTIFIER", t.start, t.end, QUANTIFIERS[norm])
                    self._quantifier_binders(k + 1, comma)
                    self._emit("COMMA", toks[comma].start, toks[comma].end)
                    k = comma + 1
                    continue
                if norm in CONNECTIVES:
                    self._emit(CONNECTIVES[norm], t.start, t.end, norm)
                    k += 1
                    continue
                if norm in RELATIONS:
                    self._emit("RELATION", t.start, t.end, norm)
                    k += 1
                    continue
                if norm in LET_KEYWORDS:
                    k = self._let(k, j)
                    continue
                if norm in EXTENDS_TO_END:
                    self._atom_piece(k, j, open_right=True)
                    k = j
                    continue
                if norm == "(":
                    m = match[k]
                    if _paren_is_logic(toks, match, k + 1, m):
                        self._emit("LPAREN", t.start, t.end)
                        self._term(k + 1, m)
                        self._emit("RPAREN", toks[m].start, toks[m].end)
                    else:
                        self._atom_piece(k, m + 1)
                    k = m + 1
                    continue
                if norm in lx.OPEN_BRACKETS:
                    m = match[k]
                    self._atom_piece(k, m + 1)
                    k = m + 1
                    continue
                if norm in BIG_OPERATORS:
                    comma = _find_depth0(toks, match, k + 1, j, ",")
                    if comma is None:
                        raise _error(src, t.start, f"expected ',' after the binders of {text!r}")
                    self._atom_piece(k, comma + 1)
                    k = comma + 1
                    continue
                if norm in lx.CLOSE_BRACKETS:
                    raise _error(src, t.start, f"unmatched {text!r}")
            self._atom_piece(k, k + 1)
            k += 1

    def _quantifier_binders(self, i: int, j: int) -> None:
        toks, src = self.toks, self.src
        if i >= j:
            raise _error(src, toks[j].start, "expected binders before ','")
        k = i
        while k < j:
            t = toks[k]
            if t.kind == lx.SYMBOL and t.text in BINDER_BRACKETS:
                m = self.match[k]
                self._binder(k, m)
                k = m + 1
            elif t.kind == lx.IDENT and t.text not in SKELETON_OR_KEYWORD:
                self._emit("BINDER_NAME", t.start, t.end)
                k += 1
            elif t.text == ":":
                self._emit("COLON", t.start, t.end)
                if k + 1 >= j:
                    raise _error(src, t.end, "missing type after ':'")
                self._term(k + 1, j)
                self._flush()
                return
            elif _normalize(t.text) in RELATIONS:
                self._emit("RELATION", t.start, t.end, _normalize(t.text))
                self._term(k + 1, j)
                self._flush()
                return
            else:
                raise _error(src, t.start, f"unexpected {t.text!r} in quantifier binders")

    def _let(self, k: int, j: int) -> int:
        """``let x : T := v; body`` (or a newline instead of ``;``): emit LET_HEAD, return where the body starts."""
        toks, src, match = self.toks, self.src, self.match
        keyword = toks[k]
        if k + 1 >= j or toks[k + 1].kind != lx.IDENT:
            raise _error(src, keyword.end, f"expected a name after {keyword.text!r}")
        name = toks[k + 1].text
        assign = _find_depth0(toks, match, k + 2, j, ":=")
        if assign is None:
            raise _error(src, keyword.start, f"expected ':=' in {keyword.text!r}")
        let_type = None
        if assign > k + 2:
            if toks[k + 2].text != ":" or assign == k + 3:
                raise _error(src, toks[k + 2].start, f"unsupported {keyword.text!r} form")
            let_type = Atom(src[toks[k + 3].start : toks[assign - 1].end], _idents(toks, k + 3, assign))
        end = assign + 1
        depth = 0
        while end < j:
            t = toks[end]
            if t.text in lx.OPEN_BRACKETS:
                depth += 1
            elif t.text in lx.CLOSE_BRACKETS:
                depth -= 1
            elif depth == 0 and (t.text == ";" or "\n" in src[toks[end - 1].end : t.start]):
                break
            end += 1
        if end == assign + 1 or end >= j:
            raise _error(src, toks[assign].end, f"expected a value and a body for {keyword.text!r}")
        value = Atom(src[toks[assign + 1].start : toks[end - 1].end], _idents(toks, assign + 1, end))
        body_start = end + 1 if toks[end].text == ";" else end
        stop = toks[end].end if toks[end].text == ";" else toks[end - 1].end
        self._emit("LET_HEAD", keyword.start, stop, src[keyword.start : stop],
                   payload=(keyword.text, name, let_type, value))
        return body_start


SKELETON_OR_KEYWORD = frozenset({"forall", "exists", "fun", "if", "match", "by", "show", "do", "calc"}) | LET_KEYWORDS


def _paren_is_logic(toks: list[lx.Token], match: list[int], i: int, j: int) -> bool:
    """Whether a parenthesised group may hold logic the grammar must see (else it is opaque text)."""
    depth = 0
    logic = False
    for k in range(i, j):
        t = toks[k]
        text = t.text
        if t.kind == lx.SYMBOL:
            if text in lx.OPEN_BRACKETS:
                depth += 1
                continue
            if text in lx.CLOSE_BRACKETS:
                depth -= 1
                continue
            if depth == 0 and text in PAREN_ATOM_MARKERS:
                return False
        if depth == 0 and (text in SKELETON_SYMBOLS or text in QUANTIFIERS):
            logic = True
        if depth == 0 and k == i and text in EXTENDS_TO_END:
            return False
    return logic


def _find_depth0(toks: list[lx.Token], match: list[int], i: int, j: int, text: str) -> int | None:
    k = i
    while k < j:
        t = toks[k]
        if t.text == text and t.kind == lx.SYMBOL:
            return k
        if t.kind == lx.SYMBOL and t.text in lx.OPEN_BRACKETS and match[k] > k:
            k = match[k] + 1
            continue
        k += 1
    return None


def _top_level_assign(toks: list[lx.Token], i: int, j: int, src: str) -> int:
    """Where a declaration's type ends: its top-level ``:=`` (not a ``let``'s), ``where``, or the end."""
    code_slice = toks[i:j]
    boundary = lx.statement_boundary(src, code_slice, 0, len(code_slice), bar_ends=False)
    return j if boundary is None else i + boundary


def _match_brackets(src: str, toks: list[lx.Token]) -> list[int]:
    """For each opening bracket token, the index of its closer (-1 elsewhere); unbalanced input is an error."""
    match = [-1] * len(toks)
    stack: list[int] = []
    for k, t in enumerate(toks):
        if t.kind != lx.SYMBOL:
            continue
        if t.text in lx.OPEN_BRACKETS:
            stack.append(k)
        elif t.text in lx.CLOSE_BRACKETS:
            if not stack:
                raise _error(src, t.start, f"unmatched {t.text!r}")
            o = stack.pop()
            if lx.OPEN_BRACKETS[toks[o].text] != t.text:
                raise _error(src, t.start, f"{toks[o].text!r} closed by {t.text!r}")
            match[o] = k
            match[k] = o
    if stack:
        raise _error(src, toks[stack[-1]].start, f"unclosed {toks[stack[-1]].text!r}")
    return match


def _idents(toks: list[lx.Token], i: int, j: int) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for k in range(i, j):
        t = toks[k]
        if t.kind == lx.IDENT:
            seen.setdefault(lx.ident_root(t.text), None)
    return tuple(seen)


def _error(src: str, offset: int, message: str) -> ParseError:
    line, col = lx.line_col(src, offset)
    return ParseError(message, line, col)


# ---------------------------------------------------------------------------------------------------------------
# Tree construction (lark calls these bottom-up while parsing)


class _Paren:
    """A parenthesised term while parsing; becomes its inner term, or part of an atom's text."""

    __slots__ = ("term", "start", "end")

    def __init__(self, term: Term, start: int, end: int):
        self.term, self.start, self.end = term, start, end


@v_args(inline=True)
class _Build(Transformer):
    def __init__(self):
        super().__init__(visit_tokens=False)
        self.src = ""

    def start(self, decl):
        return decl

    def declaration(self, *items):
        doc = attrs = None
        modifiers: list[str] = []
        keyword = name = None
        universes: tuple[str, ...] = ()
        binders: list[Binder] = []
        type_: Term | None = None
        expect_type = False
        for it in items:
            if isinstance(it, lark.Token):
                if it.type == "DOC":
                    doc = str(it)
                elif it.type == "ATTRIBUTES":
                    attrs = str(it)
                elif it.type == "MODIFIER":
                    modifiers.append(str(it))
                elif it.type == "DECL_KW":
                    keyword = str(it)
                elif it.type == "DECL_NAME":
                    name = str(it)
                elif it.type == "UNIVERSES":
                    universes = tuple(str(it).split(",")) if str(it) else ()
                elif it.type == "COLON":
                    expect_type = True
                continue
            if isinstance(it, Binder):
                binders.append(it)
            elif expect_type:
                type_ = self._term(it)
        return Declaration(keyword, name, tuple(binders), type_, universes, attrs, tuple(modifiers), doc)

    def _binder(self, bracket: str, items) -> Binder:
        names: list[str] = []
        type_ = default = None
        for it in items:
            if isinstance(it, lark.Token):
                if it.type == "DEFAULT":
                    default = str(it)
                continue
            if isinstance(it, tuple):
                names.extend(it)
            else:
                type_ = self._term(it)
        return Binder(bracket, tuple(names), type_, default)

    def explicit_binder(self, *items):
        return self._binder("(", items)

    def implicit_binder(self, *items):
        return self._binder("{", items)

    def strict_binder(self, *items):
        return self._binder("⦃", items)

    def instance_binder(self, *items):
        names = tuple(str(it) for it in items if isinstance(it, lark.Token) and it.type == "BINDER_NAME")
        type_ = next(self._term(it) for it in items if not isinstance(it, lark.Token))
        return Binder("[", names, type_)

    def binder_names(self, *names):
        return tuple(str(n) for n in names)

    def quantifier(self, kind, binders, _comma, body):
        return Quant(str(kind), binders, self._term(body))

    def quantifier_binders(self, *items):
        groups: list[Binder] = []
        bare: list[str] = []
        type_ = bound = None
        i = 0
        while i < len(items):
            it = items[i]
            if isinstance(it, Binder):
                if bare:
                    groups.append(Binder("", tuple(bare)))
                    bare = []
                groups.append(it)
            elif isinstance(it, lark.Token) and it.type == "BINDER_NAME":
                bare.append(str(it))
            elif isinstance(it, lark.Token) and it.type == "COLON":
                type_ = self._term(items[i + 1])
                i += 1
            elif isinstance(it, lark.Token) and it.type == "RELATION":
                bound = (str(it), self._term(items[i + 1]))
                i += 1
            i += 1
        if bare:
            groups.append(Binder("", tuple(bare), type_, None, bound))
        elif type_ is not None or bound is not None:
            raise ParseError("a type or bound must follow bare binder names")
        return tuple(groups)

    def let_term(self, head, body):
        keyword, name, let_type, value = head.payload
        return Let(keyword, name, let_type, value, self._term(body))

    def _binop(self, left, op, right):
        return BinOp(str(op), self._term(left), self._term(right))

    iff = implication = disjunction = conjunction = _binop

    def negation(self, _not, arg):
        return Not(self._term(arg))

    def relation(self, left, op, right):
        return Rel(str(op), self._term(left), self._term(right))

    def parenthesized(self, lpar, term, rpar):
        return _Paren(self._term(term), lpar.start_pos, rpar.end_pos)

    def atom(self, *pieces):
        if len(pieces) == 1:
            p = pieces[0]
            return p.term if isinstance(p, _Paren) else p.payload
        start = _piece_start(pieces[0])
        end = _piece_end(pieces[-1])
        idents: dict[str, None] = {}
        for p in pieces:
            for i in _piece_idents(p):
                idents.setdefault(i, None)
        last = pieces[-1]
        open_right = isinstance(last, lark.Token) and last.payload.open_right
        return Atom(self.src[start:end], tuple(idents), open_right)

    def _term(self, node) -> Term:
        if isinstance(node, _Paren):
            return node.term
        if isinstance(node, lark.Token):  # a lone ATOM
            return node.payload
        return node


def _piece_start(p) -> int:
    return p.start if isinstance(p, _Paren) else p.start_pos


def _piece_end(p) -> int:
    return p.end if isinstance(p, _Paren) else p.end_pos


def _piece_idents(p) -> tuple[str, ...]:
    if isinstance(p, lark.Token):
        return p.payload.idents
    from .ast import atoms  # local: only needed for mixed atoms

    seen: dict[str, None] = {}
    for a in atoms(p.term):
        for i in a.idents:
            seen.setdefault(i, None)
    for node in _binder_names_in(p.term):
        seen.setdefault(node, None)
    return tuple(seen)


def _binder_names_in(term: Term):
    from .ast import walk

    for node in walk(term):
        if isinstance(node, Quant):
            for b in node.binders:
                yield from b.names
        elif isinstance(node, Let):
            yield node.name


@lru_cache(maxsize=1)
def _parser() -> tuple[Lark, _Build]:
    build = _Build()
    parser = Lark(
        GRAMMAR_FILE.read_text(encoding="utf-8"),
        parser="lalr",
        lexer=StructuralLexer,
        transformer=build,
        start="start",
        maybe_placeholders=False,
    )
    return parser, build


def _parse(src: str, mode: str):
    prepared = _Prepared(src, mode)
    parser, build = _parser()
    build.src = src
    if mode == "term":
        # A bare term is parsed as the type of an anonymous example.
        head = [_Tok("DECL_KW", "example", start_pos=0, end_pos=0), _Tok("COLON", ":", start_pos=0, end_pos=0)]
        for t in head:
            t.payload = None
        prepared.terminals = head + prepared.terminals
    try:
        return parser.parse(prepared)
    except UnexpectedInput as err:
        tok = getattr(err, "token", None)
        offset = tok.start_pos if tok is not None and tok.start_pos is not None else len(src)
        what = "end of statement" if tok is None or tok.type == "$END" else repr(str(tok))
        raise _error(src, offset, f"unexpected {what}") from None


def parse_declaration(src: str) -> Declaration:
    """Parse ``theorem name binders : type`` (a trailing ``:= proof`` is ignored)."""
    return _parse(src, "declaration")


def parse_term(src: str) -> Term:
    """Parse a bare Lean term (a proposition or a type)."""
    return _parse(src, "term").type
