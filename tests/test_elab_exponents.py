"""A numeral exponent is printed ``(2 : Nat)`` (``pyshadow.elab.translate._Printer._exponent``): the claim is that
Lean's default instances (Mathlib's ``@[default_instance high] instance Monoid.Pow``, Mathlib/Algebra/Group/Defs.lean)
make a bare ``x ^ 2`` exactly that term, whatever the base. The kernel-tier Lean checks the claim for each number
type, and its mutation partner — an integer exponent (``DivInvMonoid.Pow``) — is another term."""

from __future__ import annotations

import pytest

from pyshadow.elab import translate as tr
from pyshadow.elab.elaborate import run_blocks
from pyshadow.syntax import terms as tm


def _print(text: str) -> str:
    return tr.to_lean(tm.read_term(text))


def test_only_a_bare_numeral_exponent_is_ascribed():
    assert _print("x ^ 2") == "rightact% HPow.hPow x (2 : Nat)"
    assert _print("x ^ n") == "rightact% HPow.hPow x n"
    assert _print("x ^ (2 : ℝ)") == "rightact% HPow.hPow x (2 : Real)"
    assert _print("x ^ (n + 1)") == "rightact% HPow.hPow x (binop% HAdd.hAdd n 1)"
    assert _print("2 ^ 3 ^ 4") == "rightact% HPow.hPow 2 (rightact% HPow.hPow 3 (4 : Nat))"


def _same_term(base: str, exponent: str) -> str:
    """Lean is asked whether the bare ``x ^ 2 + 2 ^ 3`` and the printed one with ``exponent`` are one term."""
    bare = "binrel% Eq (binop% HAdd.hAdd (rightact% HPow.hPow x 2) (rightact% HPow.hPow 2 3)) 1"
    printed = (f"binrel% Eq (binop% HAdd.hAdd (rightact% HPow.hPow x (2 : {exponent})) "
               f"(rightact% HPow.hPow 2 (3 : {exponent}))) 1")
    return f"example (x : {base}) : @Eq Prop ({bare}) ({printed}) := Eq.refl"


@pytest.mark.kernel
@pytest.mark.parametrize("base", ["Nat", "Int", "Rat", "Real", "Complex"])
def test_lean_elaborates_a_bare_numeral_exponent_as_a_natural_number(kernel_lean_exe, base):
    _, errors = run_blocks([(0, _same_term(base, "Nat"))], kernel_lean_exe)
    assert errors == {}


@pytest.mark.kernel
@pytest.mark.parametrize("base", ["Rat", "Real", "Complex"])
def test_an_integer_exponent_is_another_term(kernel_lean_exe, base):
    _, errors = run_blocks([(0, _same_term(base, "Int"))], kernel_lean_exe)
    assert 0 in errors, f"Lean took `x ^ (2 : Int)` on {base} for `x ^ 2`"
