"""Faithful rewrites of hypotheses: their names, order and bundling, and quantifiers moved in and out of the header.

Each rule takes a ``Declaration`` and returns its rewrites (``pyshadow.robustness.rewrite_trees.Rewrite``); its
docstring says why the rewrite means the same. The registry and the generator are ``pyshadow.robustness.variants``.
"""

from __future__ import annotations

from dataclasses import replace

from ..syntax.ast import AND, IMP, Atom, Binder, BinOp, Declaration, Quant, Rel
from .rewrite_trees import Fresh, Rewrite, binder_mentions, is_hypothesis, mentions, used_elsewhere


# ---------------------------------------------------------------------------------------------------------------
# Faithful rewrites: hypotheses


def hypotheses_renamed(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Hypotheses given other names (``hs`` → ``hyp1``) where nothing else mentions them.

    Equivalent: α-equivalence — the names of hypotheses no later type or the conclusion mentions carry no meaning.
    """
    fresh = Fresh(decl)
    renamed: list[str] = []
    binders = []
    for i, b in enumerate(decl.binders):
        if is_hypothesis(b) and not any(used_elsewhere(decl, n, skip=i) or n == "_" for n in b.names):
            names = tuple(fresh(f"hyp{len(renamed) + k + 1}") for k in range(len(b.names)))
            renamed += [f"{old}→{new}" for old, new in zip(b.names, names)]
            b = replace(b, names=names)
        binders.append(b)
    return [(", ".join(renamed), replace(decl, binders=tuple(binders)))] if renamed else []


def hypotheses_reordered(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Hypotheses moved after the variables, in reverse order, each still after every binder its type mentions.

    Equivalent: ``∀ (h₁ : A) (h₂ : B), C`` and ``∀ (h₂ : B) (h₁ : A), C`` are equivalent when neither type mentions
    the other's name (swap the arguments), and likewise for a hypothesis and a variable its type does not mention.
    A hypothesis also stays after every instance binder that came before it, since its type may need that
    instance to elaborate (instance arguments are invisible to syntax).
    """
    binders = decl.binders
    names = [n for b in binders for n in b.names]
    if len(set(names)) != len(names):
        return []  # a repeated name (shadowing): order carries meaning we cannot see
    hyps = [i for i, b in enumerate(binders) if is_hypothesis(b)]
    if not hyps:
        return []
    wanted = [i for i in range(len(binders)) if i not in hyps] + hyps[::-1]
    owner = {n: i for i, b in enumerate(binders) for n in b.names}
    needs = {}
    for j, b in enumerate(binders):
        need = {owner[n] for n in binder_mentions(b) if n in owner and owner[n] != j}
        if j in hyps:
            need |= {i for i in range(j) if binders[i].is_instance}
        needs[j] = need
    order: list[int] = []
    placed: set[int] = set()
    while len(order) < len(binders):
        j = next(j for j in wanted if j not in placed and needs[j] <= placed)
        order.append(j)
        placed.add(j)
    if order == list(range(len(binders))):
        return []
    moved = [n for i in hyps for n in binders[i].names]
    return [(", ".join(moved), replace(decl, binders=tuple(binders[i] for i in order)))]


def hypothesis_split(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """A hypothesis ``h : A ∧ B`` split into ``h_l : A`` and ``h_r : B`` (every such hypothesis, one level).

    Equivalent: ``A ∧ B → C`` and ``A → B → C`` are equivalent (currying: ``And.intro`` one way, ``.1``/``.2``
    the other). Only hypotheses nothing else mentions by name are split.
    """
    fresh = Fresh(decl)
    split: list[str] = []
    binders: list[Binder] = []
    for i, b in enumerate(decl.binders):
        if (b.bracket == "(" and is_hypothesis(b) and len(b.names) == 1 and isinstance(b.type, BinOp)
                and b.type.op == AND and not used_elsewhere(decl, b.names[0], skip=i)):
            name = b.names[0]
            split.append(name)
            binders.append(Binder("(", (fresh(f"{name}_l"),), b.type.left))
            binders.append(Binder("(", (fresh(f"{name}_r"),), b.type.right))
        else:
            binders.append(b)
    return [(", ".join(split), replace(decl, binders=tuple(binders)))] if split else []


def hypotheses_merged(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The first run of adjacent explicit hypotheses bundled into one ``h : A ∧ B ∧ …``.

    Equivalent: the converse of ``hypothesis_split`` (uncurrying). Only single-name hypotheses that nothing else
    mentions by name are bundled.
    """
    binders = decl.binders

    def bundlable(i: int) -> bool:
        b = binders[i]
        return (b.bracket == "(" and is_hypothesis(b) and len(b.names) == 1 and b.default is None
                and not used_elsewhere(decl, b.names[0], skip=i))

    start = next((i for i in range(len(binders) - 1) if bundlable(i) and bundlable(i + 1)), None)
    if start is None:
        return []
    end = start
    while end + 1 < len(binders) and bundlable(end + 1):
        end += 1
    run = binders[start:end + 1]
    conj = run[-1].type
    for b in reversed(run[:-1]):
        conj = BinOp(AND, b.type, conj)
    merged = Binder("(", (Fresh(decl)("h_and"),), conj)
    detail = ", ".join(n for b in run for n in b.names)
    return [(detail, replace(decl, binders=binders[:start] + (merged,) + binders[end + 1:]))]


# ---------------------------------------------------------------------------------------------------------------
# Faithful rewrites: quantifiers in and out of the header


def forall_to_binders(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """A leading ``∀ x,`` of the conclusion moved into the header as ``(x)`` binders (``∀ x ∈ s,`` gives
    ``(x) (h_x : x ∈ s)``).

    Equivalent: a theorem's header binders *are* a leading ∀ of its type (``theorem t (x : α) : P x`` has type
    ``∀ x : α, P x``), and ``∀ x ∈ s, P`` is notation for ``∀ x, x ∈ s → P``. Skipped when a bound name is
    already a header name (moving it would shadow).
    """
    q = decl.type
    if not (isinstance(q, Quant) and q.kind == "∀"):
        return []
    taken = set(decl.variables())
    if any(n in taken for b in q.binders for n in b.names):
        return []
    fresh = Fresh(decl)
    added: list[Binder] = []
    for b in q.binders:
        if b.bracket:
            added.append(b)
            continue
        if b.bound is None:
            added.append(Binder("(", b.names, b.type))
            continue
        for n in b.names:
            added.append(Binder("(", (n,), b.type))
            added.append(Binder("(", (fresh(f"h_{n}"),), Rel(b.bound[0], Atom(n, (n,)), b.bound[1])))
    detail = ", ".join(n for b in q.binders for n in b.names)
    return [(detail, replace(decl, binders=decl.binders + tuple(added), type=q.body))]


def binders_to_forall(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The trailing explicit header binders moved into the conclusion: variables as ``∀ x : T,``, hypotheses as
    ``A →`` (or ``∀ (h : A),`` when a later type mentions ``h``).

    Equivalent: the converse of ``forall_to_binders`` — header binders are a leading ∀ of the type, and a
    non-dependent ∀ over a proposition is an implication.
    """
    binders = decl.binders
    k = len(binders)
    while k > 0 and binders[k - 1].bracket == "(" and binders[k - 1].default is None and binders[k - 1].names:
        k -= 1
    if k == len(binders) or decl.type is None:
        return []
    body = decl.type
    for j in range(len(binders) - 1, k - 1, -1):
        b = binders[j]
        later = mentions(body) | set().union(*(binder_mentions(c) for c in binders[j + 1:]))
        if is_hypothesis(b) and len(b.names) == 1 and b.names[0] not in later:
            body = BinOp(IMP, b.type, body)
        elif is_hypothesis(b):
            body = Quant("∀", (replace(b, bracket="("),), body)
        else:
            body = Quant("∀", (Binder("", b.names, b.type),), body)
    detail = ", ".join(n for b in binders[k:] for n in b.names)
    return [(detail, replace(decl, binders=binders[:k], type=body))]
