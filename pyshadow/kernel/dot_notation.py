"""Generalized field notation: which functions ``x.f args`` reads as ``N.f … x …`` for a receiver whose type's head
is namespace ``N`` (``DOT_FUNCTIONS``), where the receiver goes (``DOT_RECEIVER_INDEX``), and the type namespace of a
variable's type text (``type_namespace``) or of an application whose head fixes it (``result_namespace``).
"""

from __future__ import annotations

from ..syntax import terms as tm

# Generalized field notation `x.f args` ↦ `N.f x args` for a variable `x` whose type's head is namespace `N`, only
# for functions whose first explicit argument of type `N` is known (Lean's rule; the first explicit argument unless
# DOT_RECEIVER_INDEX below says otherwise), each from the Mathlib file named in SHORT_NAMES' comments or
# Mathlib/Data/Finset/Card.lean (`Finset.card`), Mathlib/Data/Set/Card.lean (`Set.ncard`), Mathlib/Algebra/GCDMonoid
# /Nat.lean / Init (`Nat.gcd`, `Nat.lcm`), Mathlib/Data/Int/GCD.lean (`Int.gcd`), Init/Data/Int/Basic.lean
# (`Int.natAbs`, `Int.toNat`).
DOT_FUNCTIONS: dict[str, frozenset[str]] = {
    "Nat": frozenset({"Prime", "gcd", "lcm", "factorial", "choose", "succ", "pred", "divisors", "properDivisors",
                      "totient", "sqrt", "digits", "primeFactors", "Coprime", "ModEq"}),
    "Int": frozenset({"natAbs", "toNat", "gcd", "lcm", "emod", "ediv", "sign", "ModEq"}),
    "Finset": frozenset({"card", "sum", "prod", "filter", "image", "Nonempty", "max'", "min'"}),
    "Set": frozenset({"ncard", "encard", "Finite", "Infinite", "Nonempty", "toFinset"}),
    "Real": frozenset({"sqrt", "log", "exp", "cos", "sin"}),
    # Lean core src/Init/Data/List/Basic.lean: `List.sum`, `List.prod` (Mathlib), `List.length` take the list first
    "List": frozenset({"sum", "prod", "length"}),
}
# Lean's generalized field notation puts the receiver at the first *explicit* argument whose type head is the
# namespace (leanprover/lean4 src/Lean/Elab/App.lean, `addLValArg`: "finds the parameter with a type of the form
# `(baseName ...)`"; if it is explicit and `args` is big enough, `e` is inserted there). For the functions above that
# take another explicit argument first, the receiver's index among the explicit arguments:
# Mathlib/Data/Finset/Filter.lean `variable (p : α → Prop) [DecidablePred p]` … `def filter (s : Finset α)`, and
# Mathlib/Data/Finset/Image.lean `def image (f : α → β) (s : Finset α) : Finset β`.
DOT_RECEIVER_INDEX: dict[str, int] = {"Finset.filter": 1, "Finset.image": 1}
# A receiver that is not a variable but an application whose head has a known result type, as
# (namespace of the result type's head, number of explicit arguments that make the application complete):
# Mathlib/Data/Finset/Range.lean `def range (n : ℕ) : Finset ℕ`; Mathlib/NumberTheory/Divisors.lean
# `variable (n : ℕ)` … `def divisors : Finset ℕ`; `Finset.filter p s : Finset α` (above). A plain set-builder
# `{x | p}` / `{x : T | p}` is `setOf fun x ↦ p : Set _` (Mathlib/Data/Set/Defs.lean `macro_rules`).
RESULT_NAMESPACES: dict[str, tuple[str, int]] = {"Finset.range": ("Finset", 1), "Nat.divisors": ("Finset", 1),
                                                 "Finset.filter": ("Finset", 2),
                                                 # Mathlib/Order/Interval/Finset/Defs.lean `def Icc (a b : α) :
                                                 # Finset α` (and Ico, Ioc, Ioo)
                                                 # Mathlib/Data/Nat/Digits.lean `def digits : ℕ → ℕ → List ℕ`
                                                 "Nat.digits": ("List", 2),
                                                 "Finset.Icc": ("Finset", 2), "Finset.Ico": ("Finset", 2),
                                                 "Finset.Ioc": ("Finset", 2), "Finset.Ioo": ("Finset", 2)}
# Binder types whose head names a namespace for dot notation.
TYPE_NAMESPACES = {"ℕ": "Nat", "Nat": "Nat", "ℤ": "Int", "Int": "Int", "ℝ": "Real", "Real": "Real",
                   "Finset": "Finset", "Set": "Set"}


def result_namespace(node: tm.Node) -> str:
    """The namespace of the head of ``node``'s type, when its head constant fixes it (``RESULT_NAMESPACES``)."""
    if isinstance(node, tm.SetBuilder) and node.binder.bound is None:
        return "Set"
    if isinstance(node, tm.Ascription):  # `(180 : ℕ).gcd 168`
        return type_namespace(tm.render(node.type))
    if isinstance(node, tm.App) and isinstance(node.fn, tm.Name):
        known = RESULT_NAMESPACES.get(node.fn.text)
        if known is not None and known[1] == len(node.args):
            return known[0]
    return ""


def type_namespace(type_text: str) -> str:
    head = type_text.strip().lstrip("(").split(" ", 1)[0]
    return TYPE_NAMESPACES.get(head, "")
