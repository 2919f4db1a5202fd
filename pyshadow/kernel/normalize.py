"""When two pieces of opaque Lean text are the same atom: the keys the kernel tier abstracts by.

Atoms are compared as text, so harmless spelling differences must be folded first, or a faithful candidate is
rejected for writing what the reference means in other words. Each rule is a notation Lean itself treats as the
same term:

- white space, and redundant outer parentheses (``(x + 1)`` is ``x + 1``);
- ``fun x ↦ e`` and ``λ x => e`` are ``fun x => e`` (``↦`` and ``λ`` are alternative tokens of the same syntax);
- ``∑ x in s, f x`` is ``∑ x ∈ s, f x`` (Mathlib's deprecated big-operator binder, same elaboration);
- universe annotations of a sort: ``Type*``, ``Type _``, ``Type u`` are one abstract type ``Type`` (the kernel tier
  has no universes; a checker never depends on which universe a binder lives in).

Each key is computed with the project's Lean-aware lexer, so text inside strings and comments is never rewritten.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..syntax import lexer as lx
from ..syntax.brackets import strip_outer_parens

BIG_OPERATORS = frozenset({"∑", "∏", "⋃", "⋂", "⨆", "⨅", "∑'", "∏'", "⨁", "⨂"})
_SORT = re.compile(r"^(Type|Sort)(\*|\s+[^\s]+|\s*\{[^}]*\})?$")


@lru_cache(maxsize=65536)  # the skeleton search keys the same few atoms hundreds of times per candidate
def atom_key(text: str) -> str:
    """The key two atoms share exactly when they are the same term up to the spellings above."""
    key = strip_outer_parens(" ".join(_respell(text).split()))
    return key.replace("( ", "(").replace(" )", ")")


@lru_cache(maxsize=65536)
def type_key(text: str) -> str:
    """The key of a binder type: ``Type*``/``Type u``/``Type _`` (and ``Sort …``) fold to ``Type``/``Sort``."""
    key = atom_key(text)
    m = _SORT.match(key)
    return m.group(1) if m else key


def _respell(text: str) -> str:
    """``↦`` → ``=>``, ``λ`` → ``fun``, and ``in`` → ``∈`` in a big operator's binder, token by token."""
    tokens = lx.tokenize(text)
    edits: list[tuple[int, int, str]] = []
    in_big_head = False
    depth = 0
    for tok in tokens:
        if tok.kind != lx.SYMBOL and not (tok.kind == lx.IDENT and tok.text == "in"):
            continue
        t = tok.text
        if t == "↦":
            edits.append((tok.start, tok.end, "=>"))
        elif t == "λ":
            edits.append((tok.start, tok.end, "fun"))
        elif t in BIG_OPERATORS:
            in_big_head, depth = True, 0
        elif in_big_head:
            if t in lx.OPEN_BRACKETS:
                depth += 1
            elif t in lx.CLOSE_BRACKETS:
                depth -= 1
            elif t == "," and depth == 0:
                in_big_head = False
            elif t == "in" and depth == 0:
                edits.append((tok.start, tok.end, "∈"))
    for start, end, new in reversed(edits):
        text = text[:start] + new + text[end:]
    return text
