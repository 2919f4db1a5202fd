"""Faithful rewrites of a declaration's binders: explicit and implicit, instance binders, universes.

Each rule takes a ``Declaration`` and returns its rewrites (``pyshadow.robustness.rewrite_trees.Rewrite``); its
docstring says why the rewrite means the same. The registry and the generator are ``pyshadow.robustness.variants``.
"""

from __future__ import annotations

from dataclasses import replace

from ..syntax import lexer as lx
from ..syntax.ast import Atom, Binder, Declaration, atoms
from .rewrite_trees import Fresh, Rewrite, _split_group, binder_mentions, is_hypothesis, used_elsewhere


# ---------------------------------------------------------------------------------------------------------------
# Faithful rewrites: binders


def implicit_binders(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Explicit variables made implicit where a later explicit hypothesis's type mentions them.

    Equivalent: binder information (explicit, implicit) is not part of a proposition's meaning — ``∀ {x}, P x``
    and ``∀ x, P x`` are the same Lean type up to how arguments are passed. The rule keeps to variables a later
    hypothesis mentions, because only those can be inferred from the hypothesis a caller passes.
    """
    binders = decl.binders
    out: list[Binder] = []
    made: list[str] = []
    for i, b in enumerate(binders):
        if b.bracket != "(" or is_hypothesis(b) or b.default is not None:
            out.append(b)
            continue
        later = set().union(*(binder_mentions(c) for c in binders[i + 1:] if c.bracket == "(" and is_hypothesis(c)))
        inferable = [n for n in b.names if n in later and n != "_"]
        made += inferable
        out.extend(_split_group(b, lambda n: n in inferable, "{"))
    return [(", ".join(made), replace(decl, binders=tuple(out)))] if made else []


def explicit_binders(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Implicit and strict-implicit binders made explicit.

    Equivalent for the same reason as ``implicit_binders``: only how arguments are passed changes.
    """
    made = [n for b in decl.binders if b.bracket in ("{", "⦃") for n in b.names]
    binders = tuple(replace(b, bracket="(") if b.bracket in ("{", "⦃") else b for b in decl.binders)
    return [(", ".join(made), replace(decl, binders=binders))] if made else []


# Classes with no instance-implicit parameters of their own: an instance binder of one of them elaborates
# anywhere after the variables it mentions, so it may trade places with a neighbouring instance binder.
BASE_CLASSES = frozenset({
    "Fintype", "Finite", "DecidableEq", "DecidablePred", "DecidableRel", "Decidable", "Nonempty", "Inhabited",
    "Countable", "Infinite", "Fact", "Nontrivial", "Subsingleton", "Unique", "IsEmpty", "Encodable",
})


def _instance_head(b: Binder) -> str:
    text = b.type.text if isinstance(b.type, Atom) else ""
    return text.split(" ", 1)[0]


def instances_reordered(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Adjacent instance binders swapped where neither can need the other.

    Equivalent: instance arguments are arguments like any other, and reordering arguments whose types do not
    depend on each other gives an equivalent statement. Class hierarchies are invisible to syntax
    (``[InnerProductSpace ℝ V]`` needs ``[NormedAddCommGroup V]`` before it), so two instance binders swap only
    when they mention disjoint variables (``[Group G] [Ring R]``) or one is a class without instance parameters
    (``[Fintype α] [DecidableEq α]``, ``BASE_CLASSES``).
    """
    declared = set(decl.variables())
    binders = list(decl.binders)
    swapped: list[str] = []
    i = 0
    while i + 1 < len(binders):
        a, b = binders[i], binders[i + 1]
        if a.is_instance and b.is_instance:
            vars_a, vars_b = binder_mentions(a) & declared, binder_mentions(b) & declared
            independent = not (vars_a & vars_b) or {_instance_head(a), _instance_head(b)} & BASE_CLASSES
            if independent and not (set(a.names) & binder_mentions(b)):
                binders[i], binders[i + 1] = b, a
                swapped.append(f"{_instance_head(a)}↔{_instance_head(b)}")
                i += 2
                continue
        i += 1
    return [(", ".join(swapped), replace(decl, binders=tuple(binders)))] if swapped else []


def instances_named(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Anonymous instance binders given names (``[Group G]`` → ``[instGroup : Group G]``).

    Equivalent: a binder's name is not part of the proposition (α-equivalence); a fresh name shadows nothing.
    """
    fresh = Fresh(decl)
    named: list[str] = []
    binders = []
    for b in decl.binders:
        if b.is_instance and not b.names:
            name = fresh(f"inst{_instance_head(b).split('.')[-1]}")
            b = replace(b, names=(name,))
            named.append(name)
        binders.append(b)
    return [(", ".join(named), replace(decl, binders=tuple(binders)))] if named else []


def instances_anonymous(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Named instance binders made anonymous when nothing mentions their name.

    Equivalent: α-equivalence again — an unused binder name carries no meaning.
    """
    dropped: list[str] = []
    binders = []
    for i, b in enumerate(decl.binders):
        if b.is_instance and len(b.names) == 1 and not used_elsewhere(decl, b.names[0], skip=i):
            dropped.append(b.names[0])
            b = replace(b, names=())
        binders.append(b)
    return [(", ".join(dropped), replace(decl, binders=tuple(binders)))] if dropped else []


def type_star_as_universe(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``Type*`` / ``Sort*`` binders written with explicit universe variables (``Type u_1``), declared on the
    declaration (``theorem foo.{u_1}``).

    Equivalent: Mathlib's ``Type*`` elaborates to ``Type u`` for a fresh universe variable ``u``, one per bound
    name — so ``{α β : Type*}`` becomes ``{α : Type u_1} {β : Type u_2}``, two universes, not one.
    """
    fresh = Fresh(decl)
    universes = list(decl.universes)
    binders: list[Binder] = []
    for b in decl.binders:
        if isinstance(b.type, Atom) and b.type.text in ("Type*", "Sort*"):
            for n in b.names or ("_",):
                u = fresh("u_1" if not universes else f"u_{len(universes) + 1}")
                universes.append(u)
                text = f"{b.type.text[:-1]} {u}"
                binders.append(replace(b, names=(n,) if b.names else (), type=Atom(text, (u,))))
        else:
            binders.append(b)
    added = [u for u in universes if u not in decl.universes]
    if not added:
        return []
    return [(", ".join(added), replace(decl, binders=tuple(binders), universes=tuple(universes)))]


def universe_as_type_star(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``Type u`` / ``Sort u`` written ``Type*`` where ``u`` occurs nowhere else (Mathlib problems only).

    Equivalent: a universe variable used by one binder alone is exactly what ``Type*`` introduces. A universe
    shared by two binders (``{α β : Type u}``) is not rewritten: ``Type*`` would give each its own universe, a more
    general statement. ``Type*`` is Mathlib syntax, so core problems are left alone.
    """
    if not mathlib:
        return []
    counts: dict[str, int] = {}
    for a in _all_atoms(decl):
        for tok in lx.code_tokens(a.text):
            if tok.kind == lx.IDENT:
                counts[tok.text] = counts.get(tok.text, 0) + 1
    binders: list[Binder] = []
    removed: list[str] = []
    for b in decl.binders:
        text = b.type.text if isinstance(b.type, Atom) else ""
        head, _, u = text.partition(" ")
        if head in ("Type", "Sort") and u.isidentifier() and counts.get(u) == 1 and len(b.names) == 1:
            removed.append(u)
            b = replace(b, type=Atom(f"{head}*", ()))
        binders.append(b)
    if not removed:
        return []
    universes = tuple(u for u in decl.universes if u not in removed)
    return [(", ".join(removed), replace(decl, binders=tuple(binders), universes=universes))]


def _all_atoms(decl: Declaration) -> list[Atom]:
    found = atoms(decl.type) if decl.type is not None else []
    for b in decl.binders:
        if b.type is not None:
            found += atoms(b.type)
        if b.bound is not None:
            found += atoms(b.bound[1])
    return found
