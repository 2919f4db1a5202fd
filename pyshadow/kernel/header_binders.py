"""A declaration's keyed header binders read as Lean elaborates them: a universe level several binders share (or a
literal level other than 0) kept in the keys, which otherwise fold every level into ``Type``
(``shared_universes``); a binder of an inhabited type that nothing mentions dropped — ``∀ n : ℕ, P`` is ``P``
(``drop_unused_inhabited``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..syntax.ast import Atom, Binder, BinOp, Declaration, Not, Quant, Rel, Term, atoms
from .keys import key_idents


# `Type u` and `Sort u` with a universe variable, `Type 1` with a literal level: the keys fold the level away
# (``normalize.type_key``: `Type*`, `Type u`, `Type` are one key), which is right for a level used once — each such
# level is a fresh universe — but not for one that several binders share: `(α β : Type u)` states only the case of
# one universe for both, `(α : Type u) (β : Type v)` every pair. Those, and the levels other than 0, are kept.
# `Type _` and `Type*` are elaborated once per binder name — a fresh universe each — so they never share.
_LEVELLED = re.compile(r"^(Type|Sort)\s+((?!_\b)[^\W\d]\w*|\d+)$")


def shared_universes(decl: Declaration) -> Declaration:
    """``decl`` with every sort whose universe variable two binders share keyed as that shared universe (numbered by
    first use), and every sort of a literal level other than 0 keyed with it, so that neither folds into ``Type``."""
    uses: dict[str, int] = {}

    def count(t: Term | None, k: int) -> None:
        if isinstance(t, Atom) and (m := _LEVELLED.match(t.text)):
            uses[m.group(2)] = uses.get(m.group(2), 0) + k
        elif isinstance(t, Quant):
            for b in t.binders:
                count(b.type, len(b.names) or 1)
            count(t.body, 1)
        elif isinstance(t, (BinOp, Rel)):
            count(t.left, 1)
            count(t.right, 1)
        elif isinstance(t, Not):
            count(t.arg, 1)

    for b in decl.binders:
        count(b.type, len(b.names) or 1)
    count(decl.type, 1)
    shared = [u for u, n in uses.items() if n > 1 and not u.isdigit()]
    if not shared and not any(u.isdigit() and u != "0" for u in uses):
        return decl

    def key(t: Term | None) -> Term | None:
        if isinstance(t, Atom) and (m := _LEVELLED.match(t.text)):
            level = m.group(2)
            if level in shared:
                return replace(t, text=f"«{m.group(1)} shared universe {shared.index(level) + 1}»")
            return replace(t, text=f"«{t.text}»") if level.isdigit() and level != "0" else t
        if isinstance(t, Quant):
            return Quant(t.kind, tuple(replace(b, type=key(b.type)) for b in t.binders), key(t.body))
        if isinstance(t, (BinOp, Rel)):
            return replace(t, left=key(t.left), right=key(t.right))
        if isinstance(t, Not):
            return Not(key(t.arg))
        return t

    return replace(decl, binders=tuple(replace(b, type=key(b.type)) for b in decl.binders), type=key(decl.type))


# An unused binder of an inhabited type is dropped: `∀ x : T, P` is `P` when `P` does not mention `x` and `T` has an
# inhabitant — forward `h t`, backward `fun _ => h`, both constructive. Inhabited here: the number types (Mathlib's
# `Nat`, `Int`, `Rat`, `Real`, `Complex` are `Zero` instances: `0`) and every universe (`Type*`, `Sort u`: `PUnit`).
INHABITED_TYPES = frozenset({"ℕ", "ℤ", "ℚ", "ℝ", "ℂ"})
_SORT = re.compile(r"^(Type|Sort)(\*|\s+\S+|\s*\{[^}]*\})?$")


def _inhabited(t: Term | None) -> bool:
    return isinstance(t, Atom) and (t.text in INHABITED_TYPES or bool(_SORT.match(t.text.strip())))


def drop_unused_inhabited(binders: tuple[Binder, ...], type_: Term | None) -> tuple[Binder, ...]:
    """The (already keyed) binders without those of an inhabited type that nothing else mentions (``theorem t
    (n : ℕ) : Tendsto (fun n => …) …``: the outer ``n`` is unused — a bound ``n`` inside is another variable, and
    keys rename bound variables, so their idents never show it; ``{R : Type*}`` that no other binder mentions)."""
    out = list(binders)
    for i in range(len(out) - 1, -1, -1):
        b = out[i]
        if not (b.bracket in ("(", "{", "⦃") and b.names and b.default is None and b.bound is None
                and _inhabited(b.type)):
            continue
        others = out[:i] + out[i + 1:]  # earlier ones too: a binder used before its declaration is not unused
        later = [*(x.type for x in others), *(x.bound[1] for x in others if x.bound), type_]
        mentioned = {ident for t in later if t is not None for a in atoms(t)
                     for ident in (a.idents or key_idents(a.text))}  # an instance binder is one atom, unindexed
        if not mentioned.intersection(b.names):
            del out[i]
    return tuple(out)
