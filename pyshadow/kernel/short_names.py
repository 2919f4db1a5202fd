"""Mathlib's short names and the namespaces that declare them: the facts name resolution under ``open`` needs.

One table, one row per short name, each with the Mathlib or Lean file that declares it. ``kernel.atoms`` resolves a
short name by it, and ``kernel.opens`` asks it whether an open namespace or the root also declares a helper's name.
"""

from __future__ import annotations

# Short names and the namespaces that define them (Mathlib/Lean declarations; a root declaration is "").
# A short name is resolved only when exactly one opened namespace defines it and no root declaration does — as
# Lean's name resolution would otherwise report an ambiguity or pick by type.
SHORT_NAMES: dict[str, frozenset[str]] = {
    # Mathlib/Analysis/SpecialFunctions/{Pow/Real,Trigonometric/Basic,Log/Basic,Exp}.lean, Data/Real/Sqrt.lean
    "sqrt": frozenset({"Real", "Nat", "NNReal", "Int"}),
    "pi": frozenset({"Real"}),
    "cos": frozenset({"Real", "Complex"}), "sin": frozenset({"Real", "Complex"}),
    "tan": frozenset({"Real", "Complex"}), "exp": frozenset({"Real", "Complex"}),
    "log": frozenset({"Real", "Complex", "Nat"}), "logb": frozenset({"Real"}),
    "arctan": frozenset({"Real"}), "arcsin": frozenset({"Real"}), "arccos": frozenset({"Real"}),
    "cosh": frozenset({"Real", "Complex"}), "sinh": frozenset({"Real", "Complex"}),
    # Mathlib/Data/Nat/{Factorial/Basic,Choose/Basic,Digits,Totient}.lean, Mathlib/Data/Nat/Prime/Defs.lean
    "factorial": frozenset({"Nat"}), "choose": frozenset({"Nat"}), "digits": frozenset({"Nat"}),
    "totient": frozenset({"Nat"}), "Prime": frozenset({"Nat", ""}), "divisors": frozenset({"Nat"}),
    "properDivisors": frozenset({"Nat"}), "primeFactors": frozenset({"Nat"}),
    # Mathlib/Order/Interval/Finset/Defs.lean and Mathlib/Order/Interval/Set/Defs.lean
    "range": frozenset({"Finset", "List", "Set", "Multiset"}),
    "Icc": frozenset({"Finset", "Set", "Multiset"}), "Ico": frozenset({"Finset", "Set", "Multiset"}),
    "Ioc": frozenset({"Finset", "Set", "Multiset"}), "Ioo": frozenset({"Finset", "Set", "Multiset"}),
    "Ici": frozenset({"Finset", "Set", "Multiset"}), "Ioi": frozenset({"Finset", "Set", "Multiset"}),
    "Iic": frozenset({"Finset", "Set", "Multiset"}), "Iio": frozenset({"Finset", "Set", "Multiset"}),
    # Mathlib/Topology/Defs/Filter.lean, Mathlib/Order/Filter/Defs.lean
    "Tendsto": frozenset({"Filter"}), "atTop": frozenset({"Filter"}), "atBot": frozenset({"Filter"}),
    # Mathlib/Logic/Function/Defs.lean
    "Injective": frozenset({"Function"}), "Surjective": frozenset({"Function"}),
    "Bijective": frozenset({"Function"}),
    # Mathlib/Algebra/Module/LinearMap/End.lean: `Module.End`
    "End": frozenset({"Module"}),
    # Mathlib/Algebra/Polynomial/Basic.lean `def X : R[X]`, `def C : R →+* R[X]`; Mathlib/RingTheory/MvPolynomial
    # /Basic.lean (`MvPolynomial.X`, `MvPolynomial.C`): ambiguous when both namespaces are open
    "X": frozenset({"Polynomial", "MvPolynomial"}), "C": frozenset({"Polynomial", "MvPolynomial"}),
    # Mathlib/MeasureTheory/Measure/MeasureSpaceDef.lean: `export MeasureSpace (volume)` inside `namespace
    # MeasureTheory` — `MeasureTheory.volume` and `volume` under `open MeasureTheory` name one constant
    "volume": frozenset({"MeasureTheory"}),
}
