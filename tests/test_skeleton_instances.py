"""A declaration's instance binder ``[C x]`` is, for meaning, a hypothesis ``C x`` like any other
(``Printer._binder_type`` with ``header``): ``theorem t … [IsDomain R] : P`` and ``theorem t … : IsDomain R → P``
are one Π-type up to binder annotations. Hand-written pairs; the changed ones (instance dropped, another class,
the class moved into the conclusion) must still fail, and every check the search builds is accepted by Lean.
"""

from __future__ import annotations

import pytest

from pyshadow.kernel.skeleton import SkeletonPair
from pyshadow.kernel.scoring import skeleton_score
from pyshadow.syntax import parse_declaration

RING = "theorem t {R : Type*} [CommRing R] [IsDomain R] (x : R) (h : x * x = x) : x = 0 ∨ x = 1"
PRIME = "theorem t (p : ℕ) [Fact (Nat.Prime p)] (a : ZMod p) (ha : a ≠ 0) : a ^ (p - 1) = 1"

# (reference, candidate, same meaning?)
CASES = [
    (RING, "theorem t {R : Type*} [CommRing R] (x : R) : IsDomain R → x * x = x → x = 0 ∨ x = 1", True),
    (RING, "theorem t {R : Type*} [CommRing R] (x : R) (hR : IsDomain R) (h : x * x = x) : x = 0 ∨ x = 1", True),
    (RING, "theorem t {R : Type*} [CommRing R] (x : R) (h : x * x = x) : x = 0 ∨ x = 1", False),
    (RING, "theorem t {R : Type*} [CommRing R] (x : R) : IsField R → x * x = x → x = 0 ∨ x = 1", False),
    (RING, "theorem t {R : Type*} [CommRing R] (x : R) (h : x * x = x) : IsDomain R ∧ (x = 0 ∨ x = 1)", False),
    (PRIME, "theorem t (p : ℕ) (a : ZMod p) : Fact (Nat.Prime p) → a ≠ 0 → a ^ (p - 1) = 1", True),
    (PRIME, "theorem t (p : ℕ) [Fact (Nat.Prime p)] (a : ZMod p) : a ≠ 0 → a ^ (p - 1) = 1", True),
    (PRIME, "theorem t (p : ℕ) (a : ZMod p) : Fact (p > 2) → a ≠ 0 → a ^ (p - 1) = 1", False),
    ("theorem t {G : Type*} [Group G] (a : G) : a * a⁻¹ = 1",
     "theorem t {G : Type*} [AddGroup G] (a : G) : a * a⁻¹ = 1", False),
]


@pytest.mark.kernel
def test_instance_binder_is_a_hypothesis(kernel_lean_exe):
    pairs = [SkeletonPair(f"i{i}", parse_declaration(a), parse_declaration(b)) for i, (a, b, _) in enumerate(CASES)]
    verdicts = skeleton_score(pairs, kernel_lean_exe, n_jobs=1, recheck=False)
    got = {i: verdicts[f"i{i}"].passed for i in range(len(CASES))}
    want = {i: same for i, (_, _, same) in enumerate(CASES)}
    assert got == want, {i: (CASES[i][1], verdicts[f"i{i}"].messages) for i in got if got[i] != want[i]}
    assert not any("error:" in m for v in verdicts.values() for m in v.messages.values())
