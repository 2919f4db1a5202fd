"""Spellings Lean's elaborator settles that the printer must hand it faithfully: ``↑e ∣ b`` (the coercion waits
for ``b`` to fix the type, ``pyshadow.elab.translate._dvd``), ``ℕ+`` as Mathlib's one token for ``PNat``, and
auto-bound implicits (a statement's binders elaborated as a signature, ``LeanStatement.proposition``), and
``Complex.abs z`` as Mathlib's abbreviation of ``‖z‖`` and the order of a subtype as its values' (the
environment's definitions). Each
equivalence is decided by the kernel-tier Lean under strict scoring, and each has a mutation partner that must
not pass, strict or lenient."""

from __future__ import annotations

import pytest

import pyshadow
from pyshadow.elab import translate as tr
from pyshadow.settings import Settings
from pyshadow.syntax import lexer
from pyshadow.syntax import terms as tm

STRICT, LENIENT = Settings(lean_checked_only=True), Settings(lean_checked_only=False)
TYPED = tr.Scope(typed=frozenset({"p", "n"}))


def _print(text: str) -> str:
    return tr.to_lean(tm.read_term(text), TYPED)


def test_a_coercion_left_of_dvd_takes_the_right_sides_type():
    # src/Init/Prelude.lean `infix:50 " ∣ " => Dvd.dvd`: `↑p` postpones until `n` fixes `?α`
    assert _print("↑p ∣ n") == "Dvd.dvd ((p :) : type_of% n) n"
    assert _print("↑(p - 1) ∣ n") == "Dvd.dvd ((binop% HSub.hSub p 1 :) : type_of% n) n"
    assert _print("n ∣ ↑p") == "Dvd.dvd n (p :)"  # `?α` is known when `↑p` is elaborated


@pytest.mark.parametrize("text", ["↑p ∣ ↑n", "↑p ∣ 3"])
def test_a_coercion_left_of_dvd_is_not_printed_when_nothing_fixes_the_type(text):
    with pytest.raises(tr.Untranslatable):
        _print(text)


def test_pnat_is_one_token():
    kinds = [(t.kind, t.text) for t in lexer.code_tokens("(f : ℕ+ → ℕ)")]
    assert ("special", "ℕ+") in kinds or any(text == "ℕ+" for _, text in kinds)
    assert _print("ℕ+ → ℕ") == "PNat → Nat"


DVD = "theorem t (n : ℤ) (p : ℕ) (h₀ : Nat.Prime p) : ↑p ∣ n ↔ n ^ 2 % p = 0"
PNAT = "theorem t (f : ℕ+ → ℕ) (h₀ : ∀ x, f x = 12 * x + 7) : ∀ y, f y ≥ 19"
AUTO = "theorem t (x : ℤ) (f : ℤ → ℤ) (h0 : f x + f (x - 1) = x ^ 2) (h1 : f 19 = 94) : f 94 % 1000 = 561"
# (reference, context, the same statement spelled otherwise, the nearest changed statement)
CASES = [
    (DVD, "", "theorem t (n : ℤ) (p : ℕ) (h₀ : Nat.Prime p) : (p : ℤ) ∣ n ↔ (n^2) % p = 0",
     "theorem t (n : ℤ) (p : ℕ) (h₀ : Nat.Prime p) : ↑(p - 1) ∣ n ↔ (n^2) % p = 0"),
    ("theorem t (n : ℤ) (p : ℕ) : ↑(p - 1) ∣ n", "", "theorem t (n : ℤ) (p : ℕ) : ((p - 1 : ℕ) : ℤ) ∣ n",
     "theorem t (n : ℤ) (p : ℕ) : (p : ℤ) - 1 ∣ n"),
    # true over ℕ+, false over ℕ (`y = 0`)
    (PNAT, "", "theorem t (f : ℕ+ → ℕ) (h₀ : ∀ x : ℕ+, f x = 12 * (x : ℕ) + 7) : ∀ y : ℕ+, f y ≥ 19",
     "theorem t (f : ℕ → ℕ) (h₀ : ∀ x, f x = 12 * x + 7) : ∀ y, f y ≥ 19"),
    # the dropped `(x : ℤ)` comes back as Lean's auto-bound `{x : ℤ}`, first, as in the file
    (AUTO, "", "theorem t (f : ℤ → ℤ) (h0 : f x + f (x-1) = x^2) (h1 : f 19 = 94) : f (94) % 1000 = 561",
     "theorem t (f : ℤ → ℤ) (h0 : f x + f (x-1) = x^2) (h1 : f 19 = 95) : f (94) % 1000 = 561"),
    # ProofNet# Rudin 1.11a against ProofNet-Verified (dev pairs): `abs w` is `Complex.abs w` under `open Complex`
    ("theorem t (z : ℂ) : ∃ (r : ℝ) (w : ℂ), r ≥ 0 ∧ abs w = 1 ∧ z = r * w", "open Real Complex",
     "theorem t (z : ℂ) : ∃ (r : ℝ) (w : ℂ), r ≥ 0 ∧ ‖w‖ = 1 ∧ z = r * w",
     "theorem t (z : ℂ) : ∃ (r : ℝ) (w : ℂ), r ≥ 0 ∧ ‖w‖ = 2 ∧ z = r * w"),
    ("theorem t (z : ℂ) (h : Complex.abs z = 1) : Complex.abs (z ^ 2) = 1", "",
     "theorem t (z : ℂ) (h : ‖z‖ = 1) : ‖z ^ 2‖ = 1", "theorem t (z : ℂ) (h : ‖z‖ = 1) : ‖z ^ 3‖ = 1"),
    # Mathlib/Order/Basic.lean `Subtype.le`: `x ≤ k` on `Set.Icc 1 n` is `↑x ≤ ↑k` (PutnamBench 2013 B5's shape)
    ("theorem t (n : ℕ) (k x : Set.Icc 1 n) : x ≤ k", "", "theorem t (n : ℕ) (k x : Set.Icc 1 n) : (x : ℕ) ≤ k",
     "theorem t (n : ℕ) (k x : Set.Icc 1 n) : (x : ℕ) < k"),
]


@pytest.mark.kernel
@pytest.mark.parametrize("reference,context,same,changed", CASES)
def test_lean_decides_the_spelling_and_the_mutation_fails(reference, context, same, changed, kernel_lean_exe):
    ok = pyshadow.check_pair(reference, same, context=context, candidate_context=context, settings=STRICT)
    assert ok.verdict == "pass" and ok.lean in ("accepted", "equal"), ok.reason
    for settings in (STRICT, LENIENT):
        bad = pyshadow.check_pair(reference, changed, context=context, candidate_context=context, settings=settings)
        assert bad.verdict != "pass", (settings, bad)


@pytest.mark.kernel
def test_an_auto_bound_name_is_unknown_when_the_file_turns_auto_implicit_off(kernel_lean_exe):
    same = CASES[3][2]
    off = "set_option autoImplicit false"
    for settings in (STRICT, LENIENT):
        got = pyshadow.check_pair(AUTO, same, context=off, candidate_context=off, settings=settings)
        assert got.verdict != "pass", (settings, got)
