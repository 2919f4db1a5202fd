"""Variants of a reference declaration: rewrites a solver might write, each labelled with its kind.

Every rule is a pure function over the typed tree (``pyshadow.syntax.ast``): it takes a ``Declaration`` and
returns the rewritten declarations with a one-line detail of what it changed. ``generate_variants`` renders each
with ``render_declaration`` and parses it back, so a variant is always a declaration pyshadow can read; a rewrite
whose text does not parse is reported as a ``VariantFailure`` (a bug in the rule, never dropped silently), and a
rewrite that changes nothing is no variant.

Two roles:

- **faithful** rewrites say the same thing in other words; each rule's docstring says why it is equivalent. A
  checker that fails one is a false negative.
- **controls** change the meaning on purpose (a dropped hypothesis or conjunct, ``<`` for ``≤``, one direction of
  an ``↔``): "non-equivalent by construction" means non-equivalent as a *skeleton*, with the atoms opaque — which is
  what the checkers judge. A checker set that accepts a control is too weak to notice that change.

Token-level rewrites inside atoms (``fun x =>`` / ``fun x ↦``, ``∑ x in s`` / ``∑ x ∈ s``) use the project lexer,
so text inside comments, strings and «quoted names» is never touched.

The rules live beside this module: ``faithful_binders``, ``faithful_hypotheses`` and ``faithful_notation``
(faithful), ``controls`` (negative controls), sharing the tree helpers of ``rewrite_trees``; here are the
variant types, the registry of rules and the generator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..syntax.ast import Declaration
from ..syntax.parser import ParseError, parse_declaration
from ..syntax.render import render_declaration
from .controls import drop_conjunct, drop_hypothesis, iff_one_direction, le_as_lt
from .faithful_binders import (
    explicit_binders,
    implicit_binders,
    instances_anonymous,
    instances_named,
    instances_reordered,
    type_star_as_universe,
    universe_as_type_star,
)
from .faithful_hypotheses import (
    binders_to_forall,
    forall_to_binders,
    hypotheses_merged,
    hypotheses_renamed,
    hypotheses_reordered,
    hypothesis_split,
)
from .faithful_notation import fun_arrow, fun_mapsto, gt_as_lt, iff_swapped, lt_as_gt, sum_in_as_mem, sum_mem_as_in
from .rewrite_trees import Rewrite

FAITHFUL = "faithful"
CONTROL = "control"


@dataclass(frozen=True)
class Variant:
    """One rewrite of a reference declaration, re-parsed from its rendered text.

    ``id`` is unique among the variants of one reference (``kind``, or ``kind@detail`` for rules that rewrite one
    site at a time); ``equivalent`` says whether the variant means the same as the reference.
    """

    id: str
    kind: str
    role: str  # FAITHFUL | CONTROL
    equivalent: bool
    detail: str
    text: str
    declaration: Declaration

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "role": self.role, "equivalent": self.equivalent,
                "detail": self.detail, "text": self.text}


@dataclass(frozen=True)
class VariantFailure:
    """A rewrite whose rendered text does not parse back: a bug in the rule, reported rather than dropped."""

    kind: str
    detail: str
    text: str
    error: str

    def to_dict(self) -> dict:
        return {"kind": self.kind, "detail": self.detail, "text": self.text, "error": self.error}


@dataclass(frozen=True)
class RewriteRule:
    kind: str
    role: str
    equivalent: bool
    apply: Callable[[Declaration, bool], list[Rewrite]]  # (declaration, mathlib) → rewrites
    per_site: bool = False  # one variant per rewritten site (ids carry the detail)

    @property
    def summary(self) -> str:
        doc = (self.apply.__doc__ or "").strip()
        return doc.split("\n\n", 1)[0].replace("\n", " ")


# ---------------------------------------------------------------------------------------------------------------
# The registry and the generator


FAITHFUL_RULES: tuple[RewriteRule, ...] = tuple(
    RewriteRule(fn.__name__, FAITHFUL, True, fn)
    for fn in (implicit_binders, explicit_binders, instances_reordered, instances_named, instances_anonymous,
               hypotheses_renamed, hypotheses_reordered, hypothesis_split, hypotheses_merged, forall_to_binders,
               binders_to_forall, gt_as_lt, lt_as_gt, type_star_as_universe, universe_as_type_star, fun_mapsto,
               fun_arrow, sum_in_as_mem, sum_mem_as_in, iff_swapped)
)
CONTROL_RULES: tuple[RewriteRule, ...] = (
    RewriteRule("drop_hypothesis", CONTROL, False, drop_hypothesis, per_site=True),
    RewriteRule("le_as_lt", CONTROL, False, le_as_lt),
    RewriteRule("drop_conjunct", CONTROL, False, drop_conjunct),
    RewriteRule("iff_one_direction", CONTROL, False, iff_one_direction),
)

_FAITHFUL_BY_KIND = {r.kind: r for r in FAITHFUL_RULES}
# The ``combined`` variant: these faithful rewrites one after another, each where it applies — a solver rarely
# differs from the reference in one way only.
COMBINED_CHAIN = ("hypotheses_renamed", "hypotheses_reordered", "hypothesis_split", "implicit_binders",
                  "instances_named", "gt_as_lt", "type_star_as_universe", "fun_mapsto", "sum_in_as_mem")


def combined(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Every rewrite of ``COMBINED_CHAIN`` that applies, in that order (at least two).

    Equivalent: a composition of equivalences. Each step works on the re-parsed output of the one before.
    """
    applied: list[str] = []
    current = decl
    for kind in COMBINED_CHAIN:
        rewrites = _FAITHFUL_BY_KIND[kind].apply(current, mathlib)
        if not rewrites:
            continue
        _, new = rewrites[0]
        try:
            reparsed = parse_declaration(render_declaration(new))
        except ParseError:
            return [("+".join(applied + [kind]), new)]  # reported as a failure by the generator
        if reparsed != current:
            applied.append(kind)
            current = reparsed
    return [("+".join(applied), current)] if len(applied) >= 2 else []


COMBINED_RULE = RewriteRule("combined", FAITHFUL, True, combined)
ALL_RULES: tuple[RewriteRule, ...] = FAITHFUL_RULES + (COMBINED_RULE,) + CONTROL_RULES
KINDS: tuple[str, ...] = tuple(r.kind for r in ALL_RULES)
RULES_BY_KIND = {r.kind: r for r in ALL_RULES}


def generate_variants(decl: Declaration, *, mathlib: bool = True, kinds: Iterable[str] | None = None
                      ) -> tuple[list[Variant], list[VariantFailure]]:
    """Every variant of ``decl`` (or of the rules named in ``kinds``), rendered and parsed back.

    Returns the variants, in rule order, and the rewrites whose text did not parse. A rewrite that parses back to
    the reference itself is not a variant and is left out.
    """
    wanted = set(kinds) if kinds is not None else None
    if wanted is not None and wanted - set(KINDS):
        raise ValueError(f"unknown rewrite kind(s): {', '.join(sorted(wanted - set(KINDS)))}")
    baseline = parse_declaration(render_declaration(decl))
    variants: list[Variant] = []
    failures: list[VariantFailure] = []
    seen: set[str] = set()
    for rule in ALL_RULES:
        if wanted is not None and rule.kind not in wanted:
            continue
        for detail, new in rule.apply(baseline, mathlib):
            text = render_declaration(new)
            try:
                parsed = parse_declaration(text)
            except ParseError as err:
                failures.append(VariantFailure(rule.kind, detail, text, str(err)))
                continue
            if parsed == baseline:
                continue
            vid = f"{rule.kind}@{detail}" if rule.per_site else rule.kind
            while vid in seen:
                vid += "'"
            seen.add(vid)
            variants.append(Variant(vid, rule.kind, rule.role, rule.equivalent, detail, text, parsed))
    return variants, failures


__all__ = [
    "ALL_RULES", "CONTROL", "FAITHFUL", "KINDS", "RULES_BY_KIND", "RewriteRule", "Variant", "VariantFailure",
    "generate_variants",
]
