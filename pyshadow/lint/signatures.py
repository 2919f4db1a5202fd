"""The Mathlib (and core) functions whose argument and result types the lint's type inference knows.

Each entry is ``name: (argument types, result type)`` with types among ℕ ℤ ℚ ℝ ℂ, ``Prop``, ``α`` (the type of
the arguments marked ``α``: ``abs x`` has the type of ``x``), ``Set``/``Finset``/``List`` (collections, element
type unknown) and ``?`` (not known). Only what the type of an arithmetic expression depends on is recorded; an
application of a function missing here has an unknown type, and no rule fires on an unknown type.

Where each signature was read (leanprover-community/mathlib4 and leanprover/lean4, paths as the project's search index
holds them, each file looked up there):

==========================================  ========================================================================
names                                       file
==========================================  ========================================================================
Real.sqrt                                   Mathlib/Data/Real/Sqrt.lean (``noncomputable def sqrt (x : ℝ) : ℝ``)
Real.log, Real.exp                          Mathlib/Analysis/SpecialFunctions/Log/Basic.lean;
                                            Mathlib/Data/Complex/Exponential.lean (``Real.exp (x : ℝ) : ℝ``)
Real.logb                                   Mathlib/Analysis/SpecialFunctions/Log/Base.lean
Real.sin/cos/tan/sinh/cosh                  Mathlib/Data/Complex/Trigonometric.lean (earlier Exponential.lean)
Real.arctan/arcsin/arccos                   Mathlib/Analysis/SpecialFunctions/Trigonometric/Arctan.lean, Inverse.lean
Real.pi, π (``open Real``)                  Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean
Real.rpow                                   Mathlib/Analysis/SpecialFunctions/Pow/Real.lean
Real.nnabs, Complex.abs                     Mathlib/Data/Complex/Abs.lean (``Complex.abs : ℂ → ℝ``)
Complex.re/im, Complex.exp, Complex.I       Mathlib/Data/Complex/Basic.lean, Exponential.lean
Int.floor/ceil/fract, Nat.floor/ceil        Mathlib/Algebra/Order/Floor/Defs.lean (``Int.floor : α → ℤ``,
                                            ``Nat.floor : α → ℕ``)
Nat.factorial                               Mathlib/Data/Nat/Factorial/Basic.lean
Nat.choose                                  Mathlib/Data/Nat/Choose/Basic.lean
Nat.digits                                  Mathlib/Data/Nat/Digits/Defs.lean (``ℕ → ℕ → List ℕ``)
Nat.totient                                 Mathlib/Data/Nat/Totient.lean
Nat.divisors, Nat.properDivisors            Mathlib/NumberTheory/Divisors.lean (``ℕ → Finset ℕ``)
Nat.Prime                                   Mathlib/Data/Nat/Prime/Defs.lean (``ℕ → Prop``)
Finset.card                                 Mathlib/Data/Finset/Card.lean (``Finset α → ℕ``)
Finset.range                                Mathlib/Data/Finset/Range.lean (``ℕ → Finset ℕ``)
Finset.Icc/Ico/Ioc/Ioo                      Mathlib/Order/Interval/Finset/Defs.lean
Nat.gcd, Nat.lcm                            core src/Init/Data/Nat/Gcd.lean, src/Init/Data/Nat/Lcm.lean
Nat.log                                     Mathlib/Data/Nat/Log.lean
Nat.succ, Nat.pred                          core src/Init/Prelude.lean
Int.natAbs, Int.toNat, Int.emod, Int.fdiv   core src/Init/Data/Int/Basic.lean (``Int.natAbs : ℤ → ℕ``)
Int.gcd                                     core src/Init/Data/Int/Gcd.lean (``ℤ → ℤ → ℕ``)
abs                                         Mathlib/Algebra/Order/Group/Unbundled/Abs.lean (``|a|`` = ``abs a``)
==========================================  ========================================================================
"""

from __future__ import annotations

NAT, INT, RAT, REAL, COMPLEX = "ℕ", "ℤ", "ℚ", "ℝ", "ℂ"
PROP, SAME, UNKNOWN = "Prop", "α", "?"
NUMERIC = (NAT, INT, RAT, REAL, COMPLEX)  # each coerces into the next (Nat.cast, Int.cast, Rat.cast, Complex.ofReal)
# Type names as written in statements (Mathlib's `ℕ` … and core's `Nat` …).
TYPE_NAMES = {"ℕ": NAT, "Nat": NAT, "ℤ": INT, "Int": INT, "ℚ": RAT, "Rat": RAT, "ℝ": REAL, "Real": REAL,
              "ℂ": COMPLEX, "Complex": COMPLEX, "Prop": PROP,
              # ℝ≥0 is no subtype of ℝ, but for the rules it is alike: a field-like type where `/` is meant exactly
              "NNReal": REAL, "ℝ≥0": REAL}

Signature = tuple[tuple[str, ...], str]

_REAL_UNARY = ("sqrt", "log", "exp", "sin", "cos", "tan", "sinh", "cosh", "tanh", "arctan", "arcsin", "arccos",
               "cot", "sec", "csc")

SIGNATURES: dict[str, Signature] = {
    **{f"Real.{f}": ((REAL,), REAL) for f in _REAL_UNARY},
    "Real.logb": ((REAL, REAL), REAL),
    "Real.rpow": ((REAL, REAL), REAL),
    "Real.pi": ((), REAL),
    "π": ((), REAL),  # `open Real`: scoped notation for Real.pi (Trigonometric/Basic.lean)
    "Complex.abs": ((COMPLEX,), REAL),
    "Complex.re": ((COMPLEX,), REAL),
    "Complex.im": ((COMPLEX,), REAL),
    "Complex.exp": ((COMPLEX,), COMPLEX),
    "Complex.I": ((), COMPLEX),
    "Int.floor": ((UNKNOWN,), INT),
    "Int.ceil": ((UNKNOWN,), INT),
    "Int.fract": ((SAME,), SAME),
    "Nat.floor": ((UNKNOWN,), NAT),
    "Nat.ceil": ((UNKNOWN,), NAT),
    "Nat.factorial": ((NAT,), NAT),
    "Nat.choose": ((NAT, NAT), NAT),
    "Nat.totient": ((NAT,), NAT),
    "Nat.gcd": ((NAT, NAT), NAT),
    "Nat.lcm": ((NAT, NAT), NAT),
    "Nat.log": ((NAT, NAT), NAT),
    "Nat.succ": ((NAT,), NAT),
    "Nat.pred": ((NAT,), NAT),
    "Nat.Prime": ((NAT,), PROP),
    "Nat.digits": ((NAT, NAT), "List"),
    "Nat.divisors": ((NAT,), "Finset"),
    "Nat.properDivisors": ((NAT,), "Finset"),
    "Finset.card": (("Finset",), NAT),
    "Finset.range": ((NAT,), "Finset"),
    "Int.natAbs": ((INT,), NAT),
    "Int.toNat": ((INT,), NAT),
    "Int.gcd": ((INT, INT), NAT),
    "Int.emod": ((INT, INT), INT),
    "Int.fdiv": ((INT, INT), INT),
    "abs": ((SAME,), SAME),
}

# `open Real` / `open Nat` let statements write `sqrt x`, `choose n k` …; a short name resolves to the first
# namespace in this order that has it (Real before Nat, as `sqrt` in a real statement means Real.sqrt).
OPEN_NAMESPACES = ("Real", "Nat", "Int", "Finset", "Complex")


def signature(name: str, opened: tuple[str, ...] = OPEN_NAMESPACES) -> Signature | None:
    """The signature of ``name`` (``Real.sqrt``, or ``sqrt`` under an ``open Real``), or ``None``."""
    if name in SIGNATURES:
        return SIGNATURES[name]
    for namespace in opened:
        found = SIGNATURES.get(f"{namespace}.{name}")
        if found is not None:
            return found
    return None

