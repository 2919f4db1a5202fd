"""Skeleton SA-Pass is invariant under renaming bound variables (α-equivalence), and only under that.

An atom is abstracted as a constant applied to the variables it mentions (``pyshadow.kernel.abstract``); its key is
the atom with those variables as positions (``alpha_pattern``), so ``Infinite A`` under ``∀ A`` and ``Infinite S``
under ``∀ S`` are one constant. The search renames variables capture-free (``skeleton.rename``) and, when a rule's
variables are not found by name, tries the in-scope variables of the right type against the goal. Inputs are
hand-written; each positive pair has negatives of the same shape whose variables are *not* a consistent renaming.
"""

from __future__ import annotations

import pytest

from pyshadow.kernel.abstract import alpha_pattern
from pyshadow.kernel.skeleton import SkeletonPair, rename, skeleton_score
from pyshadow.syntax import parse_declaration
from pyshadow.syntax.render import render_term

OPENS = "open Topology Filter Real Set"

# (reference, candidate, same meaning?)
ALPHA_CASES = [
    # a ∀ inside a hypothesis, renamed (atoms `Infinite A`, `closure A` mention the bound variable)
    ("theorem t {X : Type*} [MetricSpace X] (h : ∀ (A : Set X), Set.Infinite A → ∃ x : X, x ∈ interior A) : "
     "CompactSpace X",
     "theorem t {X : Type*} [MetricSpace X] (h : ∀ (U : Set X), Set.Infinite U → ∃ x : X, x ∈ interior U) : "
     "CompactSpace X", True),
    # … and a renaming that is not consistent (the set in the conclusion is another one): changed
    ("theorem t {X : Type*} [MetricSpace X] (h : ∀ (A B : Set X), A ⊆ B → ∃ x : X, x ∈ interior A) : "
     "CompactSpace X",
     "theorem t {X : Type*} [MetricSpace X] (h : ∀ (A B : Set X), A ⊆ B → ∃ x : X, x ∈ interior B) : "
     "CompactSpace X", False),
    # a bounded ∀ in the conclusion under an ∃, renamed
    ("theorem t (u : ℝ → ℝ) (K : Set ℝ) (hK : IsCompact K) : ∃ v : ℝ → ℝ, Monotone v ∧ ∀ z ∈ K, u z ≤ v z",
     "theorem t (u : ℝ → ℝ) (K : Set ℝ) (hK : IsCompact K) : ∃ w : ℝ → ℝ, Monotone w ∧ ∀ s ∈ K, u s ≤ w s", True),
    ("theorem t (u : ℝ → ℝ) (K : Set ℝ) (hK : IsCompact K) : ∃ v : ℝ → ℝ, Monotone v ∧ ∀ z ∈ K, u z ≤ v z",
     "theorem t (u : ℝ → ℝ) (K : Set ℝ) (hK : IsCompact K) : ∃ w : ℝ → ℝ, Monotone w ∧ ∀ s ∈ K, w s ≤ u s", False),
    # header and bound names exchanged: the candidate's bound `x` is the reference's header name
    ("theorem t (x : ℕ) (h : ∀ y : ℕ, Nat.Coprime x (y + 1)) : 0 < x",
     "theorem t (y : ℕ) (h : ∀ x : ℕ, Nat.Coprime y (x + 1)) : 0 < y", True),
    ("theorem t (x : ℕ) (h : ∀ y : ℕ, Nat.Coprime x (y + 1)) : 0 < x",
     "theorem t (y : ℕ) (h : ∀ x : ℕ, Nat.Coprime x (y + 1)) : 0 < y", False),
    ("theorem t (x : ℕ) (h : ∀ z : ℕ, Nat.Coprime z (z + 1)) : 0 < x",
     "theorem t (y : ℕ) (h : ∀ x : ℕ, Nat.Coprime y (x + 1)) : 0 < y", False),
    # nested binders renamed in a hypothesis and an ∃ in the conclusion
    ("theorem t (f : ℕ → ℕ) (h : ∀ m n : ℕ, m < n → f m < f n) : ∃ k : ℕ, ∀ j ≥ k, j ≤ f j",
     "theorem t (f : ℕ → ℕ) (h : ∀ a b : ℕ, a < b → f a < f b) : ∃ N : ℕ, ∀ i ≥ N, i ≤ f i", True),
    ("theorem t (f : ℕ → ℕ) (h : ∀ m n : ℕ, m < n → f m < f n) : ∃ k : ℕ, ∀ j ≥ k, j ≤ f j",
     "theorem t (f : ℕ → ℕ) (h : ∀ a b : ℕ, a < b → f b < f a) : ∃ N : ℕ, ∀ i ≥ N, i ≤ f i", False),
]


def test_alpha_pattern_is_the_atom_up_to_its_variables():
    left = alpha_pattern("Nat.Coprime x (y + 1)", [("x", "τ1"), ("y", "τ1")])
    right = alpha_pattern("Nat.Coprime b (a + 1)", [("a", "τ1"), ("b", "τ1")])
    assert left[0] == right[0] == "Nat.Coprime #1 (#2 + 1)"
    assert [n for n, _ in right[1]] == ["b", "a"]  # applied in the order the pattern numbers them
    # a dotted use of a variable (`S.Infinite`) keeps its field; a name that is no variable stays
    assert alpha_pattern("S.Infinite ∧ T", [("S", "τ2")])[0] == "#1.Infinite ∧ T"


def test_rename_does_not_capture():
    decl = parse_declaration("theorem t (h : ∀ x : ℕ, R y x ∧ ∃ y, S x y) : let x := y; Q x y := sorry")
    hyp = render_term(rename(decl.binders[0].type, {"y": "x"}))
    assert hyp == "∀ x' : ℕ, R x x' ∧ ∃ y, S x' y"
    assert render_term(rename(decl.type, {"y": "x"})) == "let x' := x; Q x' x"


@pytest.mark.kernel
def test_alpha_renamed_statements_pass_and_others_do_not(kernel_lean_exe):
    pairs = [SkeletonPair(f"a{i}", parse_declaration(a), parse_declaration(b), True, OPENS, OPENS)
             for i, (a, b, _) in enumerate(ALPHA_CASES)]
    verdicts = skeleton_score(pairs, kernel_lean_exe, n_jobs=1, recheck=False)
    got = {i: verdicts[f"a{i}"].passed for i in range(len(ALPHA_CASES))}
    want = {i: same for i, (_, _, same) in enumerate(ALPHA_CASES)}
    assert got == want, {i: (ALPHA_CASES[i][1], verdicts[f"a{i}"].messages) for i in got if got[i] != want[i]}
