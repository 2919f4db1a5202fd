"""A precedence-aware reader for Lean term notation: typed trees, canonical printing, α-equivalence.

The statement parser (``pyshadow.syntax.parser``) structures only the logic of a statement and keeps everything
else as verbatim ``Atom`` text. This module reads such text as Lean does — Pratt parsing (precedence climbing) over
the project's lexer, with Lean's own precedences — so that two atoms can be compared as *terms*: ``x^2`` and
``x ^ 2``, ``y * (f x (x + y))`` and ``y * f x (x + y)``, ``∑ k in s, f k`` and ``∑ i ∈ s, f i`` are one term,
while ``a - b - c`` and ``a - (b - c)`` stay two.

- ``read_term(text)`` gives a tree of frozen dataclasses (``Name``, ``App``, ``Binary``, ``Prefix``, ``Postfix``,
  ``Enclosed``, ``Ascription``, ``Anonymous``, ``Collection``, ``Projection``, ``Lambda``, ``Quantifier``,
  ``BigOperator``, ``SetBuilder``, ``IfThenElse``, ``Opaque``) or ``None`` when the text is not a term this reader
  knows. It never guesses: notation it does not know (an infix operator whose precedence is not in the table, a
  ``match``, a tactic block) makes the *whole* text an ``Opaque`` token sequence — never a wrong tree.
- ``render(tree)`` prints valid Lean with minimal parentheses under the precedences below, one spelling per token
  (``λ``→``fun``, ``↦``→``=>``, ``<=``→``≤``, ``in``→``∈`` in big operators …) and fixed spacing.
- ``canonical(text)`` is the key: the canonical print with bound variables renamed by binding order (α-equivalence:
  ``fun x => x + 1`` and ``fun y => y + 1`` share it). Text that does not read as a term keys by its tokens.

The reader is built in layers, each importing only those above it in this list:

- ``term_tree`` — the node dataclasses and the walks over them (``map_children``, ``without_casts``);
- ``term_notation`` — Lean's precedences and operator tables, each with the declaration it comes from;
- ``term_tokens`` — the token stream (Mathlib's multi-character tokens merged) and ``ReadError``;
- ``term_binders`` and ``term_reader`` — the Pratt parser (binding notations, then expressions);
- ``term_printer`` — printing with minimal parentheses and α-renaming.

This module is the entry point and the import surface: every public name of those layers that callers use is
re-exported here (``from ..syntax import terms as tm``; ``tm.Name``, ``tm.INFIX``, ``tm.read_term``).

The oracle for these parses is real Lean: ``tests/test_terms.py`` declares the same notations, with the same
precedences, in a prelude-mode test file and checks that Lean elaborates each table entry to the structure this
reader gives (where the kernel tier is available).
"""

from __future__ import annotations

from functools import lru_cache

from . import lexer as lx
from .term_notation import (ARG_PREC, BIG_OPERATORS, ENCLOSED, INFIX, LEAD_PREC, MAX_PREC, MIN_PREC, POSTFIX, PREFIX,
                            SPELLING, SYMBOL_CONSTANTS)
from .term_printer import TermPrinter
from .term_reader import TermParser
from .term_tokens import ReadError, read_tokens
from .term_tree import (BINDERS, CASTS, Anonymous, App, Ascription, BigOperator, Binary, Binder, Collection, Enclosed,
                        IfThenElse, Lambda, ModEq, Name, Node, Opaque, Postfix, Prefix, Projection, Quantifier,
                        SetBuilder, children, map_children, without_casts)

# The name callers outside the reader use for a node's subterms (``tm._children``).
_children = children


def read_term(text: str) -> Node | None:
    """The tree of ``text`` read as one Lean term, or None when it is not one this reader knows."""
    return _read(text)


@lru_cache(maxsize=65536)
def _read(text: str) -> Node | None:
    toks = read_tokens(text)
    if not toks:
        return None
    if any(t.kind in (lx.UNTERMINATED_STRING,) for t in toks):
        return None
    p = TermParser(toks)
    try:
        node = p.expr(0)
    except (ReadError, RecursionError):
        return None
    if p.i != len(toks):
        return None
    return node


def read_or_opaque(text: str) -> Node:
    """``read_term``, or the text's token sequence as an ``Opaque`` node (one spelling per token)."""
    node = read_term(text)
    if node is not None:
        return node
    return Opaque(tuple(SPELLING.get(t.text, t.text) for t in read_tokens(text)))


def render(node: Node) -> str:
    """Lean text for ``node``: minimal parentheses, one spelling per token, fixed spacing."""
    return TermPrinter(alpha=False).show(node, 0, True)


@lru_cache(maxsize=65536)
def canonical(text: str) -> str:
    """The key of a term: its canonical print with bound variables renamed by binding order (α-equivalence).
    Text that does not read as a term keys by its normalised token sequence."""
    return TermPrinter(alpha=True).show(read_or_opaque(text), 0, True)


def canonical_node(node: Node) -> str:
    """``canonical`` of a tree (e.g. one rewritten by name resolution)."""
    return TermPrinter(alpha=True).show(node, 0, True)


def same_term(a: str, b: str) -> bool:
    """Whether two texts are the same term up to spelling, parentheses Lean does not need, and bound names."""
    return canonical(a) == canonical(b)


__all__ = ["Node", "Name", "App", "Binary", "Prefix", "Postfix", "Enclosed", "Ascription", "Anonymous",
           "Collection", "Projection", "Binder", "Lambda", "Quantifier", "BigOperator", "SetBuilder", "IfThenElse",
           "ModEq", "Opaque", "read_term", "read_or_opaque", "render", "canonical", "canonical_node", "same_term",
           "map_children", "without_casts", "children", "BINDERS", "CASTS", "ReadError",
           "INFIX", "PREFIX", "POSTFIX", "BIG_OPERATORS", "ENCLOSED", "SPELLING", "SYMBOL_CONSTANTS",
           "MAX_PREC", "ARG_PREC", "LEAD_PREC", "MIN_PREC"]
