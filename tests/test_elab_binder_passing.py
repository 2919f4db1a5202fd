"""Lean proves two statements equal by passing each one's binders to the other (``pyshadow.elab.equivalence``):
hypotheses in another order or under another name of the same type, and a binder one side leaves out that no
part of it uses (a numeral or ``PyshadowEnv.someType`` as its witness). The proof is a proposal; the kernel-tier
Lean accepts it or the pair is not shown equal. Each equivalence has a mutation partner Lean must refuse."""

from __future__ import annotations

import pytest

from pyshadow.elab.elaborate import StatementInput
from pyshadow.elab.equivalence import definitional_equivalence

pytestmark = pytest.mark.kernel

PUGH = "open Filter Real Function\nopen scoped Topology"
# (key, reference, candidate, context, equal?)
CASES = [
    ("reordered", "theorem t (x y : ℝ) (h1 : x > 0) (h2 : y > 0) : x + y > 0",
     "theorem t (x y : ℝ) (h2 : y > 0) (h1 : x > 0) : x + y > 0", "", True),
    ("reordered, changed", "theorem t (x y : ℝ) (h1 : x > 0) (h2 : y > 0) : x + y > 0",
     "theorem t (x y : ℝ) (h2 : y > 0) (h1 : x ≥ 0) : x + y > 0", "", False),
    # PutnamBench 1994 B5 at 12c3379 against 97f9746 (dev pairs): `npos` is `hn`, the binders in another order
    ("renamed", "theorem t (f : ℝ → ℤ → ℤ) (n : ℕ) (npos : n > 0) : ∃ α : ℝ, f α n = n",
     "theorem t (n : ℕ) (hn : n > 0) (f : ℝ → ℤ → ℤ) : ∃ α : ℝ, f α n = n", "", True),
    ("renamed, changed", "theorem t (f : ℝ → ℤ → ℤ) (n : ℕ) (npos : n > 0) : ∃ α : ℝ, f α n = n",
     "theorem t (n : ℕ) (hn : n > 1) (f : ℝ → ℤ → ℤ) : ∃ α : ℝ, f α n = n", "", False),
    # ProofNet# Pugh 3.4 against ProofNet-Verified: the outer `(n : ℕ)` is shadowed by the λ's `n`
    ("unused number", "theorem t (n : ℕ) : Tendsto (λ n => (sqrt (n + 1) - sqrt n)) atTop (𝓝 0)",
     "theorem t : Tendsto (fun n : ℝ => sqrt (n + 1) - sqrt n) atTop (𝓝 0)", PUGH, True),
    ("used number", "theorem t (n : ℕ) : Tendsto (λ m : ℝ => (sqrt (m + n) - sqrt m)) atTop (𝓝 0)",
     "theorem t : Tendsto (fun n : ℝ => sqrt (n + 1) - sqrt n) atTop (𝓝 0)", PUGH, False),
    ("used value", "theorem t (n : ℕ) (x : ℝ) : x = n", "theorem t (x : ℝ) : x = 0", "", False),
    # ProofNet Dummit–Foote 8.3.4, Lean 4 port against ProofNet#: an unused `{R : Type*}` (a universe more)
    ("unused type", "theorem t {R : Type*} {n : ℤ} {r s : ℚ} (h : r^2 + s^2 = n) : ∃ a b : ℤ, a^2 + b^2 = n",
     "theorem t {n : ℤ} {r s : ℚ} (h : r^2 + s^2 = n) : ∃ a b : ℤ, a^2 + b^2 = n", "", True),
    ("unused type, changed", "theorem t {R : Type*} {n : ℤ} {r s : ℚ} (h : r^2 + s^2 = n) : ∃ a b : ℤ, a^2 + b^2 = n",
     "theorem t {n : ℤ} {r s : ℚ} (h : r^2 + s^2 = n) : ∃ a b : ℤ, a^2 + b^2 = n + 1", "", False),
    # precision corpus name_resolution/03: a binder named `π` is what `π` means after it, not `Real.pi`, so it is
    # used and cannot be dropped
    ("bound π", "theorem t (x : ℝ) (h : x = π / 2) : Real.sin x = 1",
     "theorem t (π x : ℝ) (h : x = π / 2) : Real.sin x = 1", "open Real", False),
    # a binder over a type with no witness here (`Set ℝ`) is never dropped
    ("no witness", "theorem t (s : Set ℝ) (x : ℝ) : x = x", "theorem t (x : ℝ) : x = x", "", False),
]


def test_lean_accepts_the_binders_passed_and_refuses_every_mutation(kernel_lean_exe):
    items = [(key, StatementInput(key, a, ctx), StatementInput(key, b, ctx)) for key, a, b, ctx, _ in CASES]
    got = {v.key: v.equal for v in definitional_equivalence(items, kernel_lean_exe)}
    assert got == {key: equal for key, *_, equal in CASES}
