"""Notations read as the constants they denote, where Lean elaborates both spellings to the same constant: the
tables (scoped notations, floor and ceiling, ``[MOD n]``, ``''``/``⁻¹'``, big operators, ``binrel%`` relations)
and the term-tree rewrites that need more than a table (``∑ x ∈ s, f`` for ``Finset.sum``, ``R[X]``, ``(· + 1)``,
a bare ``Finset.filter`` predicate). ``resolver.Resolver`` applies them.
"""

from __future__ import annotations

from ..syntax import terms as tm
from .binder_types import is_numeral

# Scoped notations for a constant, as (namespace, constant): the symbol denotes the constant under `open N` /
# `open scoped N` (elsewhere it is not Mathlib's notation and stays a symbol). Mathlib/Analysis/SpecialFunctions/
# Trigonometric/Basic.lean `scoped notation "π" => Real.pi` (namespace Real); Mathlib/Topology/Defs/Filter.lean
# `scoped[Topology] notation "𝓝" => nhds`; Mathlib/Geometry/Euclidean/Angle/Unoriented/Affine.lean
# `scoped notation "∠" => EuclideanGeometry.angle` (namespace EuclideanGeometry).
SCOPED_NOTATIONS: dict[str, tuple[str, str]] = {"π": ("Real", "Real.pi"), "𝓝": ("Topology", "nhds"),
                                                "∠": ("EuclideanGeometry", "EuclideanGeometry.angle")}

# Mathlib/Algebra/Order/Floor.lean: `notation "⌊" a "⌋" => Int.floor a`, `"⌈" a "⌉" => Int.ceil a`,
# `"⌊" a "⌋₊" => Nat.floor a`, `"⌈" a "⌉₊" => Nat.ceil a`.
FLOOR_CEIL = {("⌊", "⌋"): "Int.floor", ("⌈", "⌉"): "Int.ceil", ("⌊", "⌋₊"): "Nat.floor", ("⌈", "⌉₊"): "Nat.ceil"}
# `a ≡ b [MOD n]` is `Nat.ModEq n a b` (Mathlib/Data/Nat/Defs.lean `notation:50 a " ≡ " b " [MOD " n "]"`), `[ZMOD n]`
# `Int.ModEq n a b` (Mathlib/Data/Int/ModEq.lean), `[PMOD p]` `AddCommGroup.ModEq p a b` (Mathlib/Algebra/ModEq.lean),
# `[SMOD U]` `SModEq U a b` (Mathlib/LinearAlgebra/SModEq.lean).
MOD_EQ = {"MOD": "Nat.ModEq", "ZMOD": "Int.ModEq", "PMOD": "AddCommGroup.ModEq", "SMOD": "SModEq"}
# Mathlib/Data/Set/Defs.lean, in `namespace Set`: `infixl:80 " '' " => image`, `infixl:80 " ⁻¹' " => preimage`.
SET_FUNCTIONS = {"''": "Set.image", "⁻¹'": "Set.preimage"}
FLIPPED = {">": "<", "≥": "≤"}  # inside an atom, as the printer reads a relation of the tree (``abstraction``)
BINREL = ("=", "≠", "<", "≤", ">", "≥")  # `binrel%` (src/Init/Notation.lean, src/Init/Core.lean)
# `∑ x ∈ s, f x` is notation for `Finset.sum s (fun x ↦ f x)` (Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean)
BIG_OPERATORS = {"Finset.sum": "∑", "Finset.prod": "∏"}


def as_big_operator(node: tm.Node) -> tm.Node:
    """``Finset.sum s (fun x => b)`` as ``∑ x ∈ s, b`` — one term, two spellings; ``Finset.sum s f`` as
    ``∑ x ∈ s, f x`` (its η-expansion, definitionally equal: Lean's kernel has η)."""
    if not (isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text in BIG_OPERATORS
            and len(node.args) == 2):
        return node
    s, f = node.args
    op = BIG_OPERATORS[node.fn.text]
    if isinstance(f, tm.Lambda):
        if f.binder.type is not None or f.binder.bound is not None:
            return node
        return tm.BigOperator(op, tm.Binder(f.binder.name, None, ("∈", s)), f.body)
    if isinstance(f, tm.Name) and not is_numeral(f):
        x = "x✝η"  # no source text spells it; the canonical print renames bound variables anyway
        return tm.BigOperator(op, tm.Binder(x, None, ("∈", s)), tm.App(f, (tm.Name(x),)))
    return node


# Mathlib/Algebra/Polynomial/Basic.lean: `scoped[Polynomial] notation:9000 R "[X]" => Polynomial R` — under
# `open Polynomial`, `[X]` is one token (so `ℚ[X]` and `ℚ [X]` alike), applied to the term before it.
POLYNOMIAL_X = tm.Collection("[", (tm.Name("X"),))


def polynomial_rings(app: tm.App) -> tm.Node:
    """``R[X]`` inside an application (read as ``R`` applied to the list ``[X]``) as ``Polynomial R``."""
    fn, args = app.fn, list(app.args)
    out: list[tm.Node] = []
    for a in args:
        if a == POLYNOMIAL_X:
            if out:
                out[-1] = tm.App(tm.Name("Polynomial"), (out[-1],))
            else:
                fn = tm.App(tm.Name("Polynomial"), (fn,))
        else:
            out.append(a)
    return tm.App(fn, tuple(out)) if out else fn


def cdot_function(node: tm.Collection) -> tm.Node:
    """``(· + 1)`` as ``fun x => x + 1``, one binder per ``·`` from left to right — what Lean's cdot notation expands
    to (src/Lean/Elab/BuiltinNotation.lean ``expandCDot?``); a nested ``(· …)`` keeps its own ``·``."""
    names: list[str] = []

    def fill(n: tm.Node) -> tm.Node:
        if isinstance(n, tm.Name) and n.text == "·":
            names.append(f"x✝·{len(names) + 1}")  # no source text spells it; keys rename bound variables
            return tm.Name(names[-1])
        return tm.map_children(n, fill)

    body = fill(node.items[0])
    for name in reversed(names):
        body = tm.Lambda(tm.Binder(name), body)
    return body


def filter_predicate(node: tm.Node) -> tm.Node:
    """``Finset.filter p s`` with a bare ``p`` as ``Finset.filter (fun x => p x) s`` (η; Lean's kernel has
    definitional η), the form ``{x ∈ s | p x}`` and ``s.filter (fun x => p x)`` elaborate to."""
    if not (isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text == "Finset.filter"
            and len(node.args) == 2 and isinstance(node.args[0], tm.Name) and not is_numeral(node.args[0])):
        return node
    x = "x✝η"
    return tm.App(node.fn, (tm.Lambda(tm.Binder(x), tm.App(node.args[0], (tm.Name(x),))), node.args[1]))
