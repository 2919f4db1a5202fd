"""The negative controls: rewrites that change a statement's meaning on purpose, as a skeleton with opaque atoms.

A dropped hypothesis or conjunct, ``<`` for ``≤``, one direction of an ``↔``: a checker set that accepts one is too
weak to notice that change. ``supplied`` decides whether what a control removes could be recovered from what stays
(then the control is not generated). The registry and the generator are ``pyshadow.robustness.variants``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..syntax.ast import AND, IFF, IMP, Atom, BinOp, Declaration, Let, Not, Quant, Rel, Term
from ..syntax.render import render_term
from .rewrite_trees import Rewrite, _conclusion_nodes, is_hypothesis, used_elsewhere


# ---------------------------------------------------------------------------------------------------------------
# Negative controls
#
# A control removes or changes a part of the statement. It is non-equivalent by construction only when what it
# removes cannot be recovered from what stays — ``p ∧ q ∧ r → (p ∧ q) ∧ r`` is a tautology, and ``m = n`` follows
# from ``m ≤ n`` and ``n ≤ m`` (``le_antisymm``), so dropping such a part changes nothing. ``supplied`` is the
# test: every leaf (an atom, or a relation between two operands) of the removed part must be found among the
# leaves that stay — directly, ``=`` from ``≤``/``⊆`` both ways, ``≤``/``⊆`` from ``=`` either way. A control is
# generated only when some leaf is *not* supplied: with opaque atoms that leaf is then free to be false.


_NORMAL_REL = {">": "<", "≥": "≤", "⊇": "⊆", "⊃": "⊂"}


def _leaf_key(term: Term) -> tuple[str, ...]:
    if isinstance(term, Rel):
        left, right = " ".join(render_term(term.left).split()), " ".join(render_term(term.right).split())
        if term.op in _NORMAL_REL:
            return (_NORMAL_REL[term.op], right, left)
        return (term.op, left, right)
    return ("atom", " ".join(render_term(term).split()))


def _leaves(term: Term | None) -> set[tuple[str, ...]]:
    """The skeleton's leaves: atoms standing as propositions, relations, and whole ``∃``/``∃!`` statements."""
    if term is None:
        return set()
    if isinstance(term, (Atom, Rel)) or (isinstance(term, Quant) and term.kind != "∀"):
        return {_leaf_key(term)}
    if isinstance(term, Not):
        return _leaves(term.arg)
    if isinstance(term, BinOp):
        return _leaves(term.left) | _leaves(term.right)
    if isinstance(term, Quant):
        return set().union(*(_leaves(b.type) for b in term.binders if is_hypothesis(b))) | _leaves(term.body)
    if isinstance(term, Let):
        return _leaves(term.body)
    raise TypeError(term)


def supplied(part: Term, context: Iterable[Term | None]) -> bool:
    """Whether every leaf of ``part`` can be supplied by the leaves of ``context`` (see the note above)."""
    have = set().union(*(_leaves(t) for t in context))
    for leaf in _leaves(part):
        if leaf in have:
            continue
        op, *sides = leaf
        if op == "=" and len(sides) == 2:
            a, b = sides
            if ("=", b, a) in have or any({(r, a, b), (r, b, a)} <= have for r in ("≤", "⊆")):
                continue
        if op in ("≤", "⊆") and len(sides) == 2:
            a, b = sides
            if ("=", a, b) in have or ("=", b, a) in have:
                continue
        return False
    return True


def _hypothesis_types(decl: Declaration, skip: int | None = None) -> list[Term]:
    return [b.type for i, b in enumerate(decl.binders) if i != skip and is_hypothesis(b)]


def drop_hypothesis(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """One hypothesis dropped (a variant per hypothesis nothing else mentions by name).

    Not equivalent: the dropped hypothesis has a leaf no other hypothesis supplies (``supplied``), so with opaque
    atoms the variant is strictly stronger than the reference, and the backward check must fail.
    """
    out: list[Rewrite] = []
    for i, b in enumerate(decl.binders):
        if not is_hypothesis(b) or any(used_elsewhere(decl, n, skip=i) for n in b.names):
            continue
        if supplied(b.type, _hypothesis_types(decl, skip=i)):
            continue  # the other hypotheses supply it: dropping it may change nothing
        out.append((" ".join(b.names), replace(decl, binders=decl.binders[:i] + decl.binders[i + 1:])))
    return out


def le_as_lt(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The first ``≤`` (or ``≥``) of the conclusion — else of a hypothesis — made strict (``<``, ``>``).

    Not equivalent: ``≤`` and ``<`` are different opaque relations; in the conclusion the variant is stronger, in
    a hypothesis weaker.
    """
    strict = {"≤": "<", "≥": ">"}
    if decl.type is not None:
        for node, put in _conclusion_nodes(decl.type):
            if isinstance(node, Rel) and node.op in strict:
                return [("conclusion", replace(decl, type=put(Rel(strict[node.op], node.left, node.right))))]
    for i, b in enumerate(decl.binders):
        if not is_hypothesis(b):
            continue
        for node, put in _conclusion_nodes(b.type):
            if isinstance(node, Rel) and node.op in strict:
                new = replace(b, type=put(Rel(strict[node.op], node.left, node.right)))
                return [(f"hypothesis {' '.join(b.names)}",
                         replace(decl, binders=decl.binders[:i] + (new,) + decl.binders[i + 1:]))]
    return []


def _conjuncts(term: Term) -> list[Term]:
    if isinstance(term, BinOp) and term.op == AND:
        return _conjuncts(term.left) + _conjuncts(term.right)
    return [term]


def drop_conjunct(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The last conjunct of the first conjunction in the conclusion dropped (``A ∧ B ∧ C`` → ``A ∧ B``).

    Not equivalent: the dropped conjunct has a leaf that neither the kept conjuncts nor the hypotheses supply
    (``supplied``); the variant is weaker, and the forward check of the dropped shadow must fail.
    """
    if decl.type is None:
        return []
    for node, put in _conclusion_nodes(decl.type):
        if isinstance(node, BinOp) and node.op == AND:
            parts = _conjuncts(node)
            if supplied(parts[-1], [*parts[:-1], *_hypothesis_types(decl)]):
                return []
            kept = parts[-2]
            for p in reversed(parts[:-2]):
                kept = BinOp(AND, p, kept)
            return [(f"conjunct {len(parts)} of {len(parts)}", replace(decl, type=put(kept)))]
    return []


def iff_one_direction(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The first ``A ↔ B`` of the conclusion (sides differing) weakened to ``A → B``.

    Not equivalent: the converse ``B → A`` is lost — ``A`` has a leaf ``B`` and the hypotheses do not supply
    (``supplied``) — so the ``.mpr`` shadows' forward checks must fail.
    """
    if decl.type is None:
        return []
    for node, put in _conclusion_nodes(decl.type):
        if isinstance(node, BinOp) and node.op == IFF and node.left != node.right:
            if supplied(node.left, [node.right, *_hypothesis_types(decl)]):
                return []  # the converse holds outright (`p ∧ q ∧ r → (p ∧ q) ∧ r`): nothing is lost
            return [("", replace(decl, type=put(BinOp(IMP, node.left, node.right))))]
    return []
