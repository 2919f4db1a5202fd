"""Just enough type knowledge to decide when an equality may be split into two inequalities.

Splitting ``a = b`` into ``a ≤ b`` and ``b ≤ a`` is complete only on a partial order, and the lemmas that prove it
must exist for the type. Without an elaborator we split only when the carrier is *known*: a side is a variable
whose binder says its type, a type ascription ``(e : ℝ)``, an arithmetic expression led by such a term, or the
application of a function whose binder gives its codomain, or a well-known real function. Anything else stays
atomic (the identity shadow) — never a guess.

Lemma names (looked up in the sources, see ``docs/checker-idioms`` notes in the golden files):
- Mathlib: ``le_of_eq``, ``ge_of_eq``, ``le_antisymm`` (Mathlib.Order.Basic / Order.Defs) for any partial order;
  for sets and finsets ``subset_of_eq``, ``superset_of_eq``, ``subset_antisymm`` (Mathlib.Order.RelClasses).
- core Lean without Mathlib: only ℕ, with ``Nat.le_of_eq``, ``Nat.le_antisymm`` (Init.Prelude / Init.Data.Nat.Basic)
  and ``Eq.symm`` for the reverse inequality.

Types of the problem's own auxiliary definitions (``def twice (n : Nat) : Nat``) are not consulted yet: the
decomposition is a function of the statement alone, so every tier and command derives the same shadows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..syntax.ast import Atom, Binder, BinOp, Rel, Term
from ..syntax.brackets import balanced, split_top_level, strip_outer_parens
from ..syntax.render import render_term

ORDERED_TYPES = frozenset({"ℕ", "ℤ", "ℚ", "ℝ", "Nat", "Int", "Rat", "Real", "ℝ≥0", "NNReal", "ℝ≥0∞", "ENNReal"})
NAT_TYPES = frozenset({"ℕ", "Nat"})
SET_HEADS = ("Set", "Finset")
# ℕ-valued by their name alone: projections `(l ++ m).length`, `s.card`, and core/Mathlib functions.
NAT_VALUED = re.compile(
    r"^(?:(?:List\.length|List\.count|Finset\.card|Fintype\.card|Nat\.card|Nat\.factorial|Nat\.choose|"
    r"Nat\.gcd|Nat\.lcm|Nat\.succ|Nat\.pred|Int\.natAbs|Int\.toNat|String\.length|Array\.size)\s.+"
    r"|.*[^\s]\.(?:length|card|natAbs|toNat|size|den|factorial|succ|pred))$"
)
# Set operations (and list append) keep the type of their operands: `(s ∩ t)ᶜ`, `s ∪ t`, `s \\ t`, `l ++ m`.
_SET_SPLIT = re.compile(r"\s(?:∩|∪|\\|∆|\+\+)\s")
# `(l ++ m).sum` has the element type of the list (likewise `.prod`, over lists, finsets and multisets).
_AGGREGATE = re.compile(r"^(?P<base>.+)\.(?:sum|prod)$")
_CONTAINER = re.compile(r"^(?:List|Finset|Multiset)\s+(?P<elem>.+)$")
REAL_FUNCTIONS = re.compile(r"^(Real\.(sqrt|log|exp|sin|cos|tan|arctan|pi|logb|sinh|cosh|rpow)|√|π)\b")
_ARITH_SPLIT = re.compile(r"\s[-+*/%]\s|\s\^\s|\^")


@dataclass(frozen=True)
class EqualitySplit:
    """How to split an equality on one carrier: the relation, and the three lemmas' Lean spellings."""

    carrier: str
    relation: str  # "≤" or "⊆"
    le: str  # proof of `a ≤ b` from `h : a = b`, with `{h}` for the proof
    ge: str  # proof of `b ≤ a` from `h : a = b`
    antisymm: str  # combines `a ≤ b` and `b ≤ a` into `a = b`

    @property
    def relation_names(self) -> tuple[str, str]:
        return ("le", "ge") if self.relation == "≤" else ("subset", "superset")


MATHLIB_ORDER = EqualitySplit("order", "≤", "le_of_eq ({h})", "ge_of_eq ({h})", "le_antisymm")
MATHLIB_SETS = EqualitySplit("set", "⊆", "subset_of_eq ({h})", "superset_of_eq ({h})", "subset_antisymm")
CORE_NAT = EqualitySplit("ℕ", "≤", "Nat.le_of_eq ({h})", "Nat.le_of_eq (Eq.symm ({h}))", "Nat.le_antisymm")


class TypeEnv:
    """Variable name → the text of its declared type (innermost binding wins)."""

    def __init__(self, types: dict[str, str] | None = None):
        self.types = dict(types or {})

    @classmethod
    def from_binders(cls, binders: tuple[Binder, ...]) -> "TypeEnv":
        return cls().extend(binders)

    def extend(self, binders: tuple[Binder, ...]) -> "TypeEnv":
        types = dict(self.types)
        for b in binders:
            text = render_term(b.type) if b.type is not None else None
            for n in b.names:
                if text is not None:
                    types[n] = text
                else:
                    types.pop(n, None)
        return TypeEnv(types)

    def get(self, name: str) -> str | None:
        return self.types.get(name)


def equality_split(rel: Rel, env: TypeEnv, *, mathlib: bool) -> EqualitySplit | None:
    """The split for ``rel`` (an ``=``) when its carrier is known to be ordered, else ``None``."""
    carrier = infer_type(rel.left, env) or infer_type(rel.right, env)
    if carrier is None:
        return None
    carrier = carrier.strip()
    if mathlib:
        if carrier in ORDERED_TYPES:
            return MATHLIB_ORDER
        if carrier.split(" ", 1)[0] in SET_HEADS:
            return MATHLIB_SETS
        return None
    return CORE_NAT if carrier in NAT_TYPES else None


def infer_type(term: Term, env: TypeEnv) -> str | None:
    """The type of an operand, when syntax alone says it; ``None`` when unsure."""
    if not isinstance(term, Atom):
        return None
    return _infer_text(term.text.strip(), env)


def _infer_text(text: str, env: TypeEnv) -> str | None:
    text = strip_outer_parens(text)
    ascription = _top_level_ascription(text)
    if ascription is not None:
        return ascription
    if text in env.types:
        return env.types[text]
    if REAL_FUNCTIONS.match(text):
        return "ℝ"
    if NAT_VALUED.match(text) and balanced(text):
        return "ℕ"
    aggregate = _AGGREGATE.match(text)
    if aggregate and balanced(aggregate["base"]):
        container = _CONTAINER.match(_infer_text(aggregate["base"], env) or "")
        if container:
            return strip_outer_parens(container["elem"])
    if text.endswith("ᶜ"):
        return _infer_text(text[:-1], env)
    set_first = _SET_SPLIT.split(text, maxsplit=1)[0].strip()
    if set_first != text and set_first:
        return _infer_text(set_first, env)
    first = _ARITH_SPLIT.split(text, maxsplit=1)[0].strip()
    if first != text and first:
        return _infer_text(first, env)
    head, _, rest = text.partition(" ")
    if rest and head in env.types:
        return _codomain(env.types[head], len(_arguments(rest)))
    return None


def _codomain(fn_type: str, n_args: int) -> str | None:
    """``ℕ → ℝ`` applied to one argument has type ``ℝ`` (only for plain arrow types)."""
    parts = [p.strip() for p in split_top_level(fn_type, "→")]
    if len(parts) < 2 or n_args != len(parts) - 1:
        return None
    return parts[-1]


def _arguments(text: str) -> list[str]:
    return [a for a in split_top_level(text, " ") if a]


def _top_level_ascription(text: str) -> str | None:
    """``e : T`` at depth 0 (the parentheses already stripped) gives ``T``."""
    parts = split_top_level(text, ":")
    if len(parts) == 2 and parts[0].strip() and not parts[1].startswith("="):
        return parts[1].strip()
    return None


__all__ = ["EqualitySplit", "TypeEnv", "equality_split", "infer_type", "ORDERED_TYPES", "BinOp"]
