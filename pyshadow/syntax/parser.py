"""Parse a Lean 4 declaration header into the typed tree of ``pyshadow.syntax.ast``.

Two stages. ``StructuralLexer`` (``pyshadow.syntax.terminals``) walks the Lean-aware tokens of
``pyshadow.syntax.lexer`` once and emits the grammar's terminals: the skeleton's symbols, binder brackets,
quantifier heads — and ``ATOM`` tokens for every maximal run of opaque Lean text, with the identifiers it mentions.
An LALR(1) parser (this module) then reads those terminals with the table lark builds from
``grammar/lean_statement.lark``, building the typed tree directly as it reduces.

The parse loop is ``pyshadow.syntax.lalr.LalrDriver`` (its own module: why, and which parts of lark it relies
on); the grammar, the table and its LALR(1) conflict checks stay lark's.

Entry points: ``parse_declaration`` (one declaration's header, with or without its proof) and ``parse_term``.
Both raise ``ParseError`` (``pyshadow.syntax.roles``) with the 1-based line and 0-based column where parsing
stopped, and nothing else: any input, however broken, either parses or raises ``ParseError``.
"""

from __future__ import annotations

from functools import lru_cache

from ..paths import GRAMMAR_FILE
from .lalr import LalrDriver, NodeError
from .ast import Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term
from .roles import ParseError, _error
from .terminals import StructuralLexer


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
