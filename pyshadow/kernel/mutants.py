"""Mutants of a kernel block's checkers: proof terms that must NOT be accepted, so that a run shows the kernel tier
tells a right term from a wrong one — a shadow's last projection-like step swapped (``mutate_path``; ``follow``
says which statement the swapped path reaches) and a certificate with two shadows' hypotheses swapped
(``distinct_pairs``).
"""

from __future__ import annotations

from dataclasses import replace

from ..shadows.rules import Shadow, Step
from ..syntax.ast import AND, IFF, IMP, BinOp, Let, Quant, Rel, Term


_SWAP = {"left": "right", "right": "left", "mp": "mpr", "mpr": "mp", "le": "ge", "ge": "le"}


def mutate_path(shadow: Shadow) -> Shadow | None:
    """The shadow with its last projection-like step swapped (``.1``↔``.2``, ``.mp``↔``.mpr``, ``≤``↔``≥``)."""
    for k in range(len(shadow.path) - 1, -1, -1):
        step = shadow.path[k]
        if step.kind in _SWAP:
            if any(s.kind not in ("let",) for s in shadow.path[k + 1:]):
                return None  # steps after it may not exist on the other side
            path = shadow.path[:k] + (Step(_SWAP[step.kind], step.names, step.split),) + shadow.path[k + 1:]
            return Shadow(shadow.kind, path, shadow.statement, shadow.leaf)
    return None


def follow(term: Term, path: tuple[Step, ...]) -> Term | None:
    """The sub-statement a path reaches, re-wrapped in the ∀/→/let it passed (None if the path does not fit)."""
    frames: list = []
    for step in path:
        if step.kind in ("left", "right"):
            if not (isinstance(term, BinOp) and term.op == AND):
                return None
            term = term.left if step.kind == "left" else term.right
        elif step.kind in ("mp", "mpr"):
            if not (isinstance(term, BinOp) and term.op == IFF):
                return None
            term = BinOp(IMP, term.left, term.right) if step.kind == "mp" else BinOp(IMP, term.right, term.left)
        elif step.kind == "intro":
            if isinstance(term, Quant):
                frames.append(("q", term))
                term = term.body
            elif isinstance(term, BinOp) and term.op == IMP:
                frames.append(("i", term))
                term = term.right
            else:
                return None
        elif step.kind == "let":
            if not isinstance(term, Let):
                return None
            frames.append(("l", term))
            term = term.body
        elif step.kind in ("le", "ge"):
            if not isinstance(term, Rel):
                return None
            rel = step.split.relation
            term = Rel(rel, term.left, term.right) if step.kind == "le" else Rel(rel, term.right, term.left)
    for kind, node in reversed(frames):
        if kind == "q":
            term = Quant(node.kind, node.binders, term)
        elif kind == "i":
            term = BinOp(IMP, node.left, term)
        else:
            term = replace(node, body=term)
    return term


def distinct_pairs(props: list[str]) -> list[tuple[int, int]]:
    """Pairs of shadows with different abstract statements, for swapped-certificate mutants (one per shadow)."""
    pairs = []
    for i in range(len(props) - 1):
        j = next((j for j in range(i + 1, len(props)) if props[j] != props[i]), None)
        if j is not None:
            pairs.append((i, j))
    return pairs
