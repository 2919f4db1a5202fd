"""A statement in its flattest shape: the conclusion's leading ∀/→ as declaration binders, conjunctive hypotheses
split. The skeleton's second try for a candidate the first did not match (``scoring.skeleton_score``).

``theorem t : ∀ n : ℕ, 0 < n → P n`` and ``theorem t (n : ℕ) (h : 0 < n) : P n`` are one term to Lean (a
declaration's binders are the Π-binders of its type), and ``(h : A ∧ B)`` gives what ``(h₁ : A) (h₂ : B)`` give
(``fun a b => cand ⟨a, b⟩`` one way, ``h.1``/``h.2`` the other). Readings that look at top-level binders only —
a variable fixed by a hypothesis, a pointwise definition (``fixed_variables``, ``pointwise``) — then see
the same statement whichever way it was written: ``(kboxes : ℕ → Prop) (h : n > 0 ∧ ∀ k, kboxes k = …)`` folds as
``(kboxes : ℕ → Prop) (npos : n > 0) (hkboxes : ∀ k, kboxes k = …)`` does.

The kernel tier states its checks with the reshaped candidate as its axiom. That is sound: the reshaped candidate
follows from the candidate (and back), so a check proved from it holds of the candidate, and a candidate
conclusion proved under the reshaped binders proves the candidate. Lifting stops at a binder it cannot keep (a
bounded ``∀ x ∈ s``, a name already bound, a ``let``); a hypothesis whose name is used elsewhere is not split.
"""

from __future__ import annotations

from dataclasses import replace

from ..syntax.ast import AND, IMP, Atom, Binder, BinOp, Declaration, Quant, Term, declaration_names, is_proposition
from ..syntax.ast import walk


def reshaped(decl: Declaration) -> Declaration:
    """``decl`` with its conclusion's leading ∀/→ lifted into binders and its conjunctive hypotheses split."""
    if decl.type is None:
        return decl
    taken = set(declaration_names(decl))
    binders, body = list(decl.binders), decl.type
    bound = {n for b in binders for n in b.names}
    while True:
        if isinstance(body, Quant) and body.kind == "∀":
            if any(b.bound is not None or any(n in bound for n in b.names) for b in body.binders):
                break
            for b in body.binders:
                binders.append(replace(b, bracket=b.bracket or "("))
                bound.update(b.names)
            body = body.body
        elif isinstance(body, BinOp) and body.op == IMP:
            name = _fresh("h", taken)
            binders.append(Binder("(", (name,), body.left))
            body = body.right
        else:
            break
    out = replace(decl, binders=tuple(binders), type=body)
    return _split_hypotheses(out, taken)


def _split_hypotheses(decl: Declaration, taken: set[str]) -> Declaration:
    mentioned = _mentioned(decl)
    binders: list[Binder] = []
    for b in decl.binders:
        parts = _conjuncts(b.type) if b.type is not None else []
        if (len(parts) < 2 or len(b.names) != 1 or b.is_instance or not is_proposition(b)
                or b.names[0] in mentioned):
            binders.append(b)
            continue
        for part in parts:
            # A hypothesis-style name: each part is a proposition, and ``ast.is_proposition`` reads it by name.
            binders.append(Binder("(", (_fresh("h" + b.names[0].lstrip("h"), taken),), part))
    return replace(decl, binders=tuple(binders))


def _conjuncts(t: Term) -> list[Term]:
    if isinstance(t, BinOp) and t.op == AND:
        return _conjuncts(t.left) + _conjuncts(t.right)
    return [t]


def _mentioned(decl: Declaration) -> set[str]:
    """Every identifier an atom of ``decl`` mentions (a hypothesis named there is used: it is not split)."""
    terms = [decl.type, *(b.type for b in decl.binders)]
    return {i for t in terms if t is not None for a in walk(t) if isinstance(a, Atom) for i in a.idents}


def _fresh(base: str, taken: set[str]) -> str:
    n = 1
    while f"{base}_{n}" in taken:
        n += 1
    taken.add(f"{base}_{n}")
    return f"{base}_{n}"
