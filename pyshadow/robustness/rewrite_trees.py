"""What the rewrite rules share: rebuilding the typed tree, the names a term mentions, fresh names, hypotheses.

The rules of ``pyshadow.robustness.variants`` (faithful rewrites and negative controls) are pure functions over
``pyshadow.syntax.ast``; these helpers map a function over every node of a declaration, tell which names a term or
binder mentions free, pick names no part of a declaration uses, and walk a conclusion's skeleton nodes with a way
to put a replacement back. ``Rewrite`` is what every rule returns: a one-line detail and the new declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from ..syntax import lexer as lx
from ..syntax.ast import Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term, atoms
from ..syntax.ast import bound_names, is_proposition
from ..syntax.names import FreshNames


# A rewrite: what it changed (one line) and the rewritten declaration.
Rewrite = tuple[str, Declaration]


def map_term(term: Term, fn: Callable[[Term], Term]) -> Term:
    """``term`` rebuilt bottom-up with ``fn`` applied to every node (binder types, bounds and let values too)."""
    if isinstance(term, Not):
        term = Not(map_term(term.arg, fn))
    elif isinstance(term, (BinOp, Rel)):
        term = replace(term, left=map_term(term.left, fn), right=map_term(term.right, fn))
    elif isinstance(term, Quant):
        term = Quant(term.kind, tuple(map_binder(b, fn) for b in term.binders), map_term(term.body, fn))
    elif isinstance(term, Let):
        term = replace(term, type=map_term(term.type, fn) if term.type is not None else None,
                       value=map_term(term.value, fn), body=map_term(term.body, fn),
                       binders=tuple(map_binder(b, fn) for b in term.binders))
    return fn(term)


def map_binder(b: Binder, fn: Callable[[Term], Term]) -> Binder:
    t = map_term(b.type, fn) if b.type is not None else None
    bound = (b.bound[0], map_term(b.bound[1], fn)) if b.bound is not None else None
    return replace(b, type=t, bound=bound)


def map_declaration(decl: Declaration, fn: Callable[[Term], Term], *, binders: bool = True,
                    conclusion: bool = True) -> Declaration:
    new_binders = tuple(map_binder(b, fn) for b in decl.binders) if binders else decl.binders
    new_type = map_term(decl.type, fn) if conclusion and decl.type is not None else decl.type
    return replace(decl, binders=new_binders, type=new_type)


def mentions(term: Term | None, bound: frozenset[str] = frozenset()) -> set[str]:
    """The identifier roots ``term`` mentions free: names its own quantifiers and lets bind are left out. Names
    bound *inside* atoms (``fun x => …``) cannot be told apart and count as mentioned — an over-approximation,
    which only ever makes the rules below more careful."""
    if term is None:
        return set()
    if isinstance(term, Atom):
        return set(term.idents) - bound
    if isinstance(term, Not):
        return mentions(term.arg, bound)
    if isinstance(term, (BinOp, Rel)):
        return mentions(term.left, bound) | mentions(term.right, bound)
    found: set[str] = set()
    if isinstance(term, Quant):
        for b in term.binders:
            found |= mentions(b.type, bound)
            if b.bound is not None:
                found |= mentions(b.bound[1], bound)
            bound = bound | set(b.names)
        return found | mentions(term.body, bound)
    if isinstance(term, Let):
        inner = bound
        for b in term.binders:
            found |= mentions(b.type, inner)
            inner = inner | set(b.names)
        found |= mentions(term.type, inner) | mentions(term.value, inner)
        return found | mentions(term.body, bound | {term.name})
    raise TypeError(term)


def binder_mentions(b: Binder) -> set[str]:
    found = mentions(b.type)
    if b.bound is not None:
        found |= mentions(b.bound[1])
    if b.default is not None:
        found |= {lx.ident_root(t.text) for t in lx.code_tokens(b.default) if t.kind == lx.IDENT}
    return found


def used_elsewhere(decl: Declaration, name: str, *, skip: int | None = None) -> bool:
    """Whether ``name`` is mentioned by any binder (except the one at index ``skip``) or by the conclusion."""
    if name in mentions(decl.type):
        return True
    return any(name in binder_mentions(b) for i, b in enumerate(decl.binders) if i != skip)


def all_names(decl: Declaration) -> set[str]:
    """Every name the declaration binds or mentions: fresh names must avoid all of them."""
    names = {decl.name or "", *decl.universes, *bound_names(decl)}
    for t in [decl.type, *(b.type for b in decl.binders)]:
        if t is not None:
            names |= {i for a in atoms(t) for i in a.idents}
    return names


class Fresh(FreshNames):
    """Fresh names, none of which occurs in the declaration: ``h``, else ``h2``, ``h3`` …"""

    def __init__(self, decl: Declaration):
        super().__init__(all_names(decl), bare_first=True)


def is_hypothesis(b: Binder) -> bool:
    return b.type is not None and not b.is_instance and is_proposition(b)


def in_dependency_order(binders: tuple[Binder, ...]) -> bool:
    """Whether every binder comes after the binders whose names its type mentions."""
    declared = {n for b in binders for n in b.names}
    seen: set[str] = set()
    for b in binders:
        if (binder_mentions(b) & declared) - seen:
            return False
        seen.update(b.names)
    return True


def _split_group(b: Binder, keep: Callable[[str], bool], bracket: str) -> list[Binder]:
    """A binder group split into runs: names with ``keep(name)`` get ``bracket``, the rest keep theirs."""
    out: list[Binder] = []
    for n in b.names:
        br = bracket if keep(n) else b.bracket
        if out and out[-1].bracket == br:
            out[-1] = replace(out[-1], names=out[-1].names + (n,))
        else:
            out.append(replace(b, bracket=br, names=(n,)))
    return out


def _conclusion_nodes(term: Term) -> Iterator[tuple[Term, Callable[[Term], Term]]]:
    """Skeleton nodes of a conclusion with a function that puts a replacement back in their place (pre-order)."""
    yield term, lambda new: new
    if isinstance(term, Not):
        for node, put in _conclusion_nodes(term.arg):
            yield node, lambda new, put=put: Not(put(new))
    elif isinstance(term, (BinOp, Rel)):
        for node, put in _conclusion_nodes(term.left):
            yield node, lambda new, put=put: replace(term, left=put(new))
        for node, put in _conclusion_nodes(term.right):
            yield node, lambda new, put=put: replace(term, right=put(new))
    elif isinstance(term, (Quant, Let)):
        for node, put in _conclusion_nodes(term.body):
            yield node, lambda new, put=put: replace(term, body=put(new))
