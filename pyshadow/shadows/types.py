"""Just enough type knowledge to decide when an equality may be split into two inequalities.

Splitting ``a = b`` into ``a ≤ b`` and ``b ≤ a`` is complete only on a partial order, and the lemmas that prove it
must exist for the type. Without an elaborator we split only when the carrier is *known*: a side is a variable
whose binder says its type, a type ascription ``(e : ℝ)``, an arithmetic expression led by such a term, or the
application of a function whose binder gives its codomain, or a well-known real function. Anything else stays
atomic (the identity shadow) — never a guess.

Lemma names (looked up in the sources, see ``docs/checker-idioms`` notes in the golden files):
- Mathlib: ``le_of_eq``, ``ge_of_eq``, ``le_antisymm`` (Mathlib/Order/Defs/PartialOrder.lean) for any partial
  order; for sets and finsets ``subset_of_eq``, ``superset_of_eq`` (Mathlib/Order/RelClasses.lean, for any
  ``[@Std.Refl α (· ⊆ ·)]``) and the class-free ``Set.Subset.antisymm`` (Mathlib/Data/Set/Basic.lean) /
  ``Finset.Subset.antisymm`` (Mathlib/Data/Finset/Defs.lean), chosen by the carrier — not ``subset_antisymm``,
  whose ``[@Std.Antisymm α (· ⊆ ·)]`` instance for each carrier could not be read at the pinned Mathlib commit
  (docs/full-tier.md).
- core Lean without Mathlib: ℕ, with ``Nat.le_of_eq``, ``Nat.le_antisymm`` (Init.Prelude / Init.Data.Nat.Basic)
  and ``Eq.symm`` for the reverse inequality; ℤ with ``Int.le_of_eq``, ``Int.ge_of_eq``, ``Int.le_antisymm``
  (src/Init/Data/Int/Order.lean).

The carrier is the join of every operand's *declared* type (binder types, ascriptions, the function-result table
``REAL_FUNCTIONS``/``NAT_VALUED``, codomains of bound functions), along the numeric tower ℕ → ℤ → ℚ → ℝ → ℂ that
Lean coerces up; one unknown operand makes it unknown. ℂ (no order without ``open scoped ComplexOrder``) and any
type outside ``ORDERED_TYPES`` keep the equality whole.

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
# ℕ-valued by their name alone: projections `(l ++ m).length`, `s.card`, and core/Mathlib functions.
NAT_VALUED = re.compile(
    r"^(?:(?:List\.length|List\.count|Finset\.card|Fintype\.card|Nat\.card|Nat\.factorial|Nat\.choose|"
    r"Nat\.gcd|Nat\.lcm|Nat\.succ|Nat\.pred|Int\.natAbs|Int\.toNat|String\.length|Array\.size|Multiset\.card|"
    r"card|orderOf|Nat\.ascFactorial|Nat\.descFactorial)\s.+"
    r"|.*[^\s]\.(?:length|card|natAbs|toNat|size|den|factorial|succ|pred|ascFactorial|descFactorial)(?:\s.+)?)$"
)
# Set operations (and list append) keep the type of their operands: `(s ∩ t)ᶜ`, `s ∪ t`, `s \\ t`, `l ++ m`.
_SET_SPLIT = re.compile(r"\s(?:∩|∪|\\|∆|\+\+)\s")
# `(l ++ m).sum` has the element type of the list (likewise `.prod`, over lists, finsets and multisets).
_AGGREGATE = re.compile(r"^(?P<base>.+)\.(?:sum|prod)$")
_CONTAINER = re.compile(r"^(?:List|Finset|Multiset)\s+(?P<elem>.+)$")
REAL_FUNCTIONS = re.compile(r"^(Real\.(sqrt|log|exp|sin|cos|tan|arctan|pi|logb|sinh|cosh|rpow)|√|π)\b|.*[^\s]\.toReal$")


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
# `Set.Subset.antisymm {a b : Set α} (h₁ : a ⊆ b) (h₂ : b ⊆ a) : a = b` (Mathlib/Data/Set/Basic.lean) and
# `Finset.Subset.antisymm {s₁ s₂ : Finset α} (H₁ : s₁ ⊆ s₂) (H₂ : s₂ ⊆ s₁) : s₁ = s₂` (Mathlib/Data/Finset/Defs.lean):
# no class argument, so they do not depend on an instance of Mathlib's `Std.Antisymm` (read at mathlib4 2e885ab0).
MATHLIB_SET = EqualitySplit("Set", "⊆", "subset_of_eq ({h})", "superset_of_eq ({h})", "Set.Subset.antisymm")
MATHLIB_FINSET = EqualitySplit("Finset", "⊆", "subset_of_eq ({h})", "superset_of_eq ({h})", "Finset.Subset.antisymm")
MATHLIB_SUBSET_SPLITS = {"Set": MATHLIB_SET, "Finset": MATHLIB_FINSET}
# Where the carrier is not known (the skeleton search's abstract terms, pyshadow.score.skeleton_terms): the generic
# `subset_antisymm [@Std.Antisymm α (· ⊆ ·)]` (Mathlib/Order/RelClasses.lean), instances for `Set` and `Finset` at
# 2e885ab0 — printed only as an extra `first` alternative, never as a checker's certificate.
MATHLIB_SETS = EqualitySplit("set", "⊆", "subset_of_eq ({h})", "superset_of_eq ({h})", "subset_antisymm")
CORE_NAT = EqualitySplit("ℕ", "≤", "Nat.le_of_eq ({h})", "Nat.le_of_eq (Eq.symm ({h}))", "Nat.le_antisymm")
# Core `Int` (leanprover/lean4 src/Init/Data/Int/Order.lean: `protected theorem Int.le_of_eq {a b : Int}
# (hab : a = b) : a ≤ b`, `Int.ge_of_eq (hab : a = b) : b ≤ a`, `Int.le_antisymm (h₁ : a ≤ b) (h₂ : b ≤ a) : a = b`).
CORE_INT = EqualitySplit("ℤ", "≤", "Int.le_of_eq ({h})", "Int.ge_of_eq ({h})", "Int.le_antisymm")
# Without Mathlib: the carriers core Lean has antisymmetry lemmas for, by every spelling.
CORE_SPLITS = {"ℕ": CORE_NAT, "Nat": CORE_NAT, "ℤ": CORE_INT, "Int": CORE_INT}


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
                # a variable bound without a type gets the type its uses force (`∀ n, f n = n`): context-typed
                types[n] = text if text is not None else NUMERAL
        return TypeEnv(types)

    def bind_let(self, name: str, declared: str | None, value: Term | None) -> "TypeEnv":
        """``let name : T := v`` (or ``let name := v``): the name has its declared type, else its value's type when
        the value's declared types say it; a let-bound name is never context-typed (its value fixes its type)."""
        types = dict(self.types)
        inferred = declared if declared is not None else (infer_type(value, self) if value is not None else None)
        if inferred is None or inferred == NUMERAL:
            types.pop(name, None)
        else:
            types[name] = inferred
        return TypeEnv(types)

    def get(self, name: str) -> str | None:
        return self.types.get(name)


def equality_split(rel: Rel, env: TypeEnv, *, mathlib: bool) -> EqualitySplit | None:
    """The split for ``rel`` (an ``=``) when its carrier is known to be ordered, else ``None``.

    Lean elaborates both sides of ``a = b`` to one type (``binrel%``, coercing up the numeric tower), so the
    carrier is the join of *every* operand's declared type — never the first operand's alone: ``n * z = z * n``
    with ``n : ℕ`` and ``z : ℂ`` is an equality on ℂ, which has no order, and stays whole.
    """
    carrier = join_types([infer_type(rel.left, env), infer_type(rel.right, env)])
    if carrier is None or carrier == NUMERAL:
        return None
    carrier = carrier.strip()
    if mathlib:
        if carrier in ORDERED_TYPES:
            return MATHLIB_ORDER
        head = carrier.split(" ", 1)[0]
        if head in MATHLIB_SUBSET_SPLITS:
            return MATHLIB_SUBSET_SPLITS[head]
        return None
    return CORE_SPLITS.get(carrier)


def infer_type(term: Term, env: TypeEnv) -> str | None:
    """The type of an operand, when its declared types say it; ``None`` when unsure (``NUMERAL`` for a literal,
    whose type is whatever the other operands make it)."""
    if not isinstance(term, Atom):
        return None
    return _infer_text(term.text.strip(), env)


# An operand with no type of its own, typed by the others: a numeral (`2 * x`), a coercion `↑n`, a variable bound
# without a type (`∀ n, f n = n`), a set-builder without one. Lean elaborates it at the join of the rest.
NUMERAL = "<from context>"
_NUMERAL = re.compile(r"^\d+(?:\.\d+)?$")
# Constants whose type is whatever the other side needs (`s = ∅`, `s ∪ univ = univ`).
POLYMORPHIC_CONSTANTS = frozenset({"∅", "univ", "Set.univ", "Finset.univ", "⊤", "⊥"})
# The numeric tower Lean coerces up along (`↑n` inserted by `binop%`/`binrel%`): the join of two of its types is
# the later one. Spellings: Mathlib's notation and the core/Mathlib names.
NUMERIC_TOWER = (("ℕ", "Nat"), ("ℤ", "Int"), ("ℚ", "Rat"), ("ℝ", "Real"), ("ℂ", "Complex"))
_TOWER_RANK = {name: rank for rank, names in enumerate(NUMERIC_TOWER) for name in names}


def join_types(types) -> str | None:
    """The common type of operands: ``None`` if any is unknown or two are unrelated; numerals do not count."""
    types = list(types)
    if any(t is None for t in types):
        return None
    known = [t.strip() for t in types if t != NUMERAL]
    if not known:
        return NUMERAL
    if all(t == known[0] for t in known):
        return known[0]
    if all(t in _TOWER_RANK for t in known):
        return max(known, key=_TOWER_RANK.__getitem__)
    return None


# Result types of functions by name: the documented table the issue asks for (each is the codomain in core or
# Mathlib; `Real.sqrt : ℝ → ℝ` and `NNReal.sqrt` Mathlib/Data/Real/Sqrt.lean, `Nat.factorial`
# Mathlib/Data/Nat/Factorial/Basic.lean, `List.length` core Init/Prelude.lean, `Finset.card`
# Mathlib/Data/Finset/Card.lean, `Int.natAbs`/`Int.toNat` core Init/Data/Int/Basic.lean).
#   REAL_FUNCTIONS → ℝ;  NAT_VALUED (names and `.length`/`.card`/… projections) → ℕ;  INT_VALUED → ℤ
#   (`Rat.num : ℤ` Mathlib/Data/Rat/Defs.lean via core `Rat`, `Int.floor`/`Int.ceil`/`⌊x⌋`/`⌈x⌉`
#   Mathlib.Algebra.Order.Floor);  `NNReal.sqrt` → NNReal.
INT_VALUED = re.compile(r"^(?:(?:Int\.floor|Int\.ceil)\s.+|⌊.+⌋|⌈.+⌉|.*[^\s]\.num)$")


def _infer_text(text: str, env: TypeEnv) -> str | None:
    text = strip_outer_parens(text)
    ascription = _top_level_ascription(text)
    if ascription is not None:
        return ascription
    if _NUMERAL.match(text) or text in POLYMORPHIC_CONSTANTS or (
            text.startswith("↑") and balanced(text[1:]) and " " not in text):
        return NUMERAL
    if text in env.types:
        return env.types[text]
    builder = _SET_BUILDER.match(text)
    if builder and balanced(text[1:-1]):
        return f"Set {builder['type'].strip()}"
    if text.startswith("{") and text.endswith("}") and "|" in text and balanced(text[1:-1]):
        return NUMERAL
    big = _BIG_OPERATOR.match(text)
    if big and balanced(big["body"]):
        names = big["binder"].split("∈")[0].split(":")[0].split()
        return _infer_text(big["body"], env.extend((Binder("", tuple(names), None),)))
    if text.endswith("ᶜ"):
        return _infer_text(text[:-1], env)
    if text.startswith("-") and len(text) > 1:
        return _infer_text(text[1:], env)
    operands = _set_operands(text)
    if len(operands) > 1:
        return join_types([_infer_text(o, env) for o in operands])
    operands = _arith_operands(text)
    if operands is not None:
        return join_types([_infer_text(o, env) for o in operands])
    if REAL_FUNCTIONS.match(text):
        return "ℝ"
    if NAT_VALUED.match(text) and balanced(text):
        return "ℕ"
    if INT_VALUED.match(text) and balanced(text):
        return "ℤ"
    if text.startswith("NNReal.sqrt "):
        return "NNReal"
    aggregate = _AGGREGATE.match(text)
    if aggregate and balanced(aggregate["base"]):
        container = _CONTAINER.match(_infer_text(aggregate["base"], env) or "")
        if container:
            return strip_outer_parens(container["elem"])
    head, _, rest = text.partition(" ")
    if rest and head in env.types:
        return _codomain(env.types[head], len(_arguments(rest)))
    if rest and head in SAME_TYPE_FUNCTIONS:
        return join_types([_infer_text(a, env) for a in _arguments(rest)])
    return None


def _set_operands(text: str) -> list[str]:
    parts = [p.strip() for p in split_top_level(text, " ") if p.strip()]
    if not any(_SET_SPLIT.match(f" {p} ") for p in parts):
        return [text]
    operands, current = [], []
    for p in parts:
        if _SET_SPLIT.match(f" {p} "):
            operands.append(" ".join(current))
            current = []
        else:
            current.append(p)
    operands.append(" ".join(current))
    return [o for o in operands if o]


_BINARY_ARITH = frozenset("+-*/%•")
_BIG_OPERATOR = re.compile(r"^(?:∑|∏)\s*(?P<binder>[^,]+),\s*(?P<body>.+)$", re.S)
_SET_BUILDER = re.compile(r"^\{\s*[^\s:|]+\s*:\s*(?P<type>[^|]+?)\s*\|.*\}$", re.S)
# Functions whose result has their argument's type (Mathlib `abs`, core/Mathlib `min`/`max`).
SAME_TYPE_FUNCTIONS = frozenset({"abs", "min", "max"})


def _arith_operands(text: str) -> list[str] | None:
    """The operands whose types decide an arithmetic expression's type: every operand of ``+ - * / % •`` at
    bracket depth 0 (spaces or not), the base of ``^`` (an exponent ``x ^ n`` may be ℕ whatever ``x`` is), the
    argument of a unary minus; ``None`` when ``text`` has no such operator."""
    operands: list[str] = []
    current: list[str] = []
    depth, exponent, found, previous = 0, False, False, ""
    for ch in text:
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        if depth == 0 and ch in _BINARY_ARITH and previous not in _BINARY_ARITH | {"^", "←", "<", ">", "|"}:
            if "".join(current).strip():
                operands.append("".join(current))
                found = True
            current, exponent = [], False
        elif depth == 0 and ch == "^":
            exponent, found = True, True
        elif not exponent:
            current.append(ch)
        if not ch.isspace():
            previous = ch
    if "".join(current).strip():
        operands.append("".join(current))
    if not found:
        return None
    return [o.strip() for o in operands] or None


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
