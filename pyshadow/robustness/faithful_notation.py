"""Faithful notation rewrites: relations flipped, ``↦``/``=>`` in ``fun``, ``∈``/``in`` in ``∑``, ``↔`` swapped.

Relations are flipped in the skeleton; the rest are token-level rewrites inside atoms, through the project lexer, so
text inside comments, strings and «quoted names» is never touched. Each rule's docstring says why it is
equivalent; the registry and the generator are ``pyshadow.robustness.variants``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..syntax import lexer as lx
from ..syntax.ast import IFF, Atom, BinOp, Declaration, Rel, Term, walk
from .rewrite_trees import Rewrite, _conclusion_nodes, map_declaration


# ---------------------------------------------------------------------------------------------------------------
# Faithful rewrites: relations and notation


_FLIP = {">": "<", "≥": "≤", "<": ">", "≤": "≥"}


def _flipping(ops: tuple[str, ...]) -> Callable[[Term], Term]:
    def fn(t: Term) -> Term:
        if isinstance(t, Rel) and t.op in ops:
            return Rel(_FLIP[t.op], t.right, t.left)
        return t

    return fn


def _count_rels(decl: Declaration, ops: tuple[str, ...]) -> int:
    terms = [decl.type, *(b.type for b in decl.binders)]
    return sum(isinstance(n, Rel) and n.op in ops for t in terms if t is not None for n in walk(t))


def gt_as_lt(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``a > b`` written ``b < a`` and ``a ≥ b`` written ``b ≤ a`` (in hypotheses and the conclusion).

    Equivalent: ``>`` and ``≥`` are notation — ``a > b`` unfolds to ``b < a`` (``GT.gt a b := LT.lt b a``).
    Relations inside atoms and binder predicates (``∃ n > 0,``) are left as written.
    """
    n = _count_rels(decl, (">", "≥"))
    return [(f"{n} relation(s)", map_declaration(decl, _flipping((">", "≥"))))] if n else []


def lt_as_gt(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``a < b`` written ``b > a`` and ``a ≤ b`` written ``b ≥ a``: the converse of ``gt_as_lt``."""
    n = _count_rels(decl, ("<", "≤"))
    return [(f"{n} relation(s)", map_declaration(decl, _flipping(("<", "≤"))))] if n else []


def _rewrite_atoms(decl: Declaration, rewrite: Callable[[str], tuple[str, int]]) -> tuple[Declaration, int]:
    """Every atom's text through ``rewrite`` (text → new text, number of sites); the declaration and the total."""
    total = 0

    def fn(t: Term) -> Term:
        nonlocal total
        if isinstance(t, Atom):
            text, n = rewrite(t.text)
            if n:
                total += n
                return Atom(text, t.idents, t.open_right)
        return t

    return map_declaration(decl, fn), total


def _substitute(text: str, edits: list[tuple[lx.Token, str]]) -> str:
    for tok, new in sorted(edits, key=lambda e: e[0].start, reverse=True):
        text = text[:tok.start] + new + text[tok.end:]
    return text


def _first_after(text: str, starters: tuple[str, ...], wanted: tuple[str, ...]) -> list[lx.Token]:
    """For every ``starters`` token of ``text``, the first token after it in ``wanted`` at its own bracket depth,
    before a ``,`` at that depth (the end of a binder head) or the bracket that closes around it. A starter
    followed by ``|`` (``fun | p => …``, pattern-matching arms) is skipped."""
    if not any(s in text for s in starters):
        return []  # most atoms: no need to tokenize
    toks = lx.code_tokens(text)
    found = []
    for i, tok in enumerate(toks):
        if tok.text not in starters or i + 1 >= len(toks) or toks[i + 1].text == "|":
            continue
        depth = 0
        for t in toks[i + 1:]:
            if t.text in lx.OPEN_BRACKETS:
                depth += 1
            elif t.text in lx.CLOSE_BRACKETS:
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and t.text in wanted:
                found.append(t)
                break
            elif depth == 0 and t.text == ",":
                break
    return found


def _fun_rewriter(old: str, new: str) -> Callable[[str], tuple[str, int]]:
    def rewrite(text: str) -> tuple[str, int]:
        edits = [(t, new) for t in _first_after(text, ("fun", "λ"), ("=>", "↦")) if t.text == old]
        return _substitute(text, edits), len(edits)

    return rewrite


def fun_mapsto(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``fun x => e`` written ``fun x ↦ e`` inside atoms (Mathlib problems only).

    Equivalent: ``↦`` is Mathlib's alternative token for ``=>`` in ``fun``; both parse to the same lambda.
    """
    if not mathlib:
        return []
    new, n = _rewrite_atoms(decl, _fun_rewriter("=>", "↦"))
    return [(f"{n} lambda(s)", new)] if n else []


def fun_arrow(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``fun x ↦ e`` written ``fun x => e``: the converse of ``fun_mapsto``."""
    new, n = _rewrite_atoms(decl, _fun_rewriter("↦", "=>"))
    return [(f"{n} lambda(s)", new)] if n else []


_BIG_OPERATORS = ("∑", "∏")


def _sum_rewriter(old: str, new: str) -> Callable[[str], tuple[str, int]]:
    def rewrite(text: str) -> tuple[str, int]:
        edits = [(t, new) for t in _first_after(text, _BIG_OPERATORS, (old,))]
        return _substitute(text, edits), len(edits)

    return rewrite


def sum_in_as_mem(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``∑ x in s, f`` / ``∏ x in s, f`` written with ``∈``.

    Equivalent: both are Mathlib's notation for ``Finset.sum s (fun x ↦ f)``; ``in`` is the older spelling
    (deprecated, still read).
    """
    new, n = _rewrite_atoms(decl, _sum_rewriter("in", "∈"))
    return [(f"{n} big operator(s)", new)] if n else []


def sum_mem_as_in(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``∑ x ∈ s, f`` written ``∑ x in s, f``: the converse of ``sum_in_as_mem`` (the older spelling, which
    newer Mathlib reads with a deprecation warning)."""
    new, n = _rewrite_atoms(decl, _sum_rewriter("∈", "in"))
    return [(f"{n} big operator(s)", new)] if n else []


def iff_swapped(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The first ``A ↔ B`` of the conclusion whose sides differ written ``B ↔ A``.

    Equivalent (``Iff.comm``), but it reverses which direction is ``.mp``: checkers that only project ``.mp`` /
    ``.mpr`` out of the candidate reject it, a checker that searches for the direction accepts it. Kept with the
    faithful rewrites because it is one — a checker that fails it is a false negative.
    """
    if decl.type is None:
        return []
    for node, put in _conclusion_nodes(decl.type):
        if isinstance(node, BinOp) and node.op == IFF and node.left != node.right:
            return [("", replace(decl, type=put(BinOp(IFF, node.right, node.left))))]
    return []
