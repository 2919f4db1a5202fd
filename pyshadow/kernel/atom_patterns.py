"""An atom's key as a pattern over the bound variables it mentions, and the identifier tokens of a text that can be a
variable: how the kernel tier's abstraction keys an atom constant (``abstraction``), how α-renaming finds the
variables of a text (``alpha``), and how a concrete term is read back (``concrete``, ``undecided``).
"""

from __future__ import annotations

import functools

from ..syntax import lexer as lx


def alpha_pattern(key: str, args: list[tuple[str, str]]) -> tuple[str, list[tuple[str, str]]]:
    """An atom's key with the bound variables it is applied to replaced by positions (``#1``, ``#2`` … in order of
    first occurrence), and those variables in that order.

    An atom becomes a constant applied to the variables it mentions, i.e. the λ-abstraction of its text over them;
    two atoms that differ only in the names of those variables (``Infinite A`` under ``∀ A``, ``Infinite S`` under
    ``∀ S``) are the same abstraction and must be the same constant, or a statement and its α-renaming abstract to
    different propositions (and the search, which renames variables to match a rule, proposes terms Lean rejects).
    Positions are not identifiers, so no name of the text can be confused with one; the pattern applied to the
    variables is the text again, hence equal patterns with equal argument types are the same term."""
    if not args:
        return key, args
    pattern, order = _alpha_pattern(key, tuple(args))
    return pattern, list(order)


@functools.lru_cache(maxsize=1 << 16)
def _alpha_pattern(key: str, args: tuple[tuple[str, str], ...]) -> tuple[str, tuple[tuple[str, str], ...]]:
    types = dict(args)
    position: dict[str, int] = {}
    out, last = [], 0
    for tok in variable_tokens(key):
        root = lx.ident_root(tok.text)
        if root not in types:
            continue
        k = position.setdefault(root, len(position) + 1)
        out.append(key[last:tok.start] + f"#{k}" + tok.text[len(root):])
        last = tok.end
    out.append(key[last:])
    # A variable the atom mentions but the key does not show as an identifier keeps its place after the others.
    order = sorted(types, key=lambda n: position.get(n, len(position) + 1 + list(types).index(n)))
    return "".join(out), tuple((n, types[n]) for n in order)


def variable_tokens(text: str) -> list[lx.Token]:
    """The identifier tokens of ``text`` that can be a variable: not a field after ``.`` (``(f a).le``) and not the
    stem of an inaccessible name (``x✝1``, the canonical keys' own binders, lexed as ``x`` ``✝`` ``1``) — renaming
    or abstracting those would change the term. An atom's text is lexed once: the search asks for the same texts
    many times."""
    return list(_variable_tokens(text))


@functools.lru_cache(maxsize=1 << 16)
def _variable_tokens(text: str) -> tuple[lx.Token, ...]:
    tokens = lx.tokenize(text)
    out = []
    for i, tok in enumerate(tokens):
        if tok.kind != lx.IDENT:
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        before = tokens[i - 1] if i else None
        if after is not None and after.text == "✝" and after.start == tok.end:
            continue
        if before is not None and before.text == "." and before.end == tok.start:
            continue
        out.append(tok)
    return tuple(out)
