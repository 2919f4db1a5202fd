"""An atom's key: its text read as a term tree, names resolved (``resolver.Resolver``) and printed canonically
(``pyshadow.syntax.terms``), so that spacing, redundant parentheses, ASCII/Unicode spellings and bound-variable
names no longer matter and parentheses Lean needs still do — the kernel tier abstracts every atom into an opaque
constant keyed by this text — and the identifiers a key mentions.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..syntax import terms as tm
from ..syntax import lexer as lx
from .resolver import Resolver


@lru_cache(maxsize=65536)
def _key(text: str, opens: frozenset[str], variables: tuple[tuple[str, str], ...],
         types: tuple[tuple[str, str], ...]) -> str:
    node = tm.read_term(text)
    if node is None:
        return tm.canonical(text)
    node = Resolver(opens, dict(variables), dict(types)).resolve(node)
    return tm.canonical_node(node)


def term_key(text: str, opens: frozenset[str] = frozenset(), variables: dict[str, str] | None = None,
             types: dict[str, str] | None = None) -> str:
    """The canonical key of an atom's text under ``opens``, with ``variables`` (name → type namespace) in scope
    and ``types`` (name → type text) for binder-type inference."""
    return _key(text, opens, tuple(sorted((variables or {}).items())), tuple(sorted((types or {}).items())))


_BOUND_NAME = re.compile(r"x✝\d+")


def key_idents(key: str) -> tuple[str, ...]:
    """The identifier roots a key mentions, in order of first appearance (canonical bound names excluded)."""
    text = _BOUND_NAME.sub(" ", key)
    return tuple(dict.fromkeys(lx.ident_root(t.text) for t in lx.code_tokens(text) if t.kind == lx.IDENT))
