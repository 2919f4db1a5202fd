"""Reading and writing Lean statements: the lexer, the typed tree, the parser and the renderer."""

from .ast import Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term
from .parser import ParseError, parse_declaration, parse_term
from .render import render_binder, render_binders, render_declaration, render_term

__all__ = [
    "Atom", "Binder", "BinOp", "Declaration", "Let", "Not", "Quant", "Rel", "Term", "ParseError",
    "parse_declaration", "parse_term", "render_binder", "render_binders", "render_declaration", "render_term",
]
