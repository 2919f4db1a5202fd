"""Statement shapes the skeleton reads as the same proposition (``pyshadow.kernel.definitions``): a data declaration
as ``Nonempty`` of its type. Every reading has hand-written pairs that must pass and changed pairs of the same
shape that must not; the kernel-tier Lean decides each."""

from __future__ import annotations

import pytest

from pyshadow.kernel.definitions import data_as_proposition, is_data_declaration, normalize_declaration
from pyshadow.kernel.skeleton import SkeletonPair, skeleton_score
from pyshadow.score.skeleton_terms import DATA_CANDIDATE_BACKWARD, DATA_REFERENCE, skeleton_alternatives
from pyshadow.syntax import parse_declaration
from pyshadow.syntax.render import render_term


def _conclusion(text: str) -> tuple[str, str]:
    d = data_as_proposition(parse_declaration(text))
    return d.keyword, render_term(d.type)


def test_data_declarations_read_as_nonempty_of_their_type():
    assert _conclusion("instance t (G : Type*) [Group G] : G ≃* G") == ("theorem", "Nonempty (G ≃* G)")
    assert _conclusion("noncomputable def t (K : Type) [Field K] : Algebra ℚ K")[1] == "Nonempty (Algebra ℚ K)"
    assert _conclusion("abbrev t : Set ℕ")[1] == "Nonempty (Set ℕ)"
    assert _conclusion("def t : ℕ → ℕ")[1] == "Nonempty (ℕ → ℕ)"
    # a proposition stays itself (`nonempty_prop`), and so does a type already `Nonempty _`
    assert _conclusion("def t (n : ℕ) (h : 0 < n) : n ≠ 0") == ("theorem", "n ≠ 0")
    assert _conclusion("instance t : Nonempty (Fin 3)") == ("theorem", "Nonempty (Fin 3)")
    # the skeleton reads the two spellings as one statement
    assert (normalize_declaration(parse_declaration("instance t (G : Type*) [Group G] : G ≃* G")) ==
            normalize_declaration(parse_declaration("theorem t (G : Type*) [Group G] : Nonempty (G ≃* G)")))
    # theorems, lemmas and axioms mean their type
    for text in ("theorem t (G : Type) [Group G] : IsCyclic G", "lemma t : Foo", "axiom t : Bar"):
        decl = parse_declaration(text)
        assert data_as_proposition(decl) is decl and not is_data_declaration(decl)


DATA_PAIRS = {
    # (reference, candidate, same meaning?)
    "instance_vs_nonempty": (
        "instance t (G H : Type*) [Group G] [Group H] (hG : IsCyclic G) (hH : IsCyclic H) "
        "(h : Nat.card G = Nat.card H) : G ≃* H",
        "theorem t (G H : Type*) [Group G] [Group H] (hG : IsCyclic G) (hH : IsCyclic H) "
        "(h : Nat.card G = Nat.card H) : Nonempty (G ≃* H)", True),
    "nonempty_vs_def": (
        "theorem t (K : Type*) [Field K] [Fintype K] (hK : Fintype.card K = 4) : Nonempty (K ≃+* GaloisField 2 2)",
        "noncomputable def t (K : Type*) [Field K] [Fintype K] (hK : Fintype.card K = 4) : K ≃+* GaloisField 2 2",
        True),
    "abbrev_no_binders": ("abbrev t : Equiv.Perm (Fin 3)", "theorem t : Nonempty (Equiv.Perm (Fin 3))", True),
    "def_of_a_proposition": ("def t (n : ℕ) (h : 0 < n) : n ≠ 0", "theorem t (n : ℕ) (h : 0 < n) : n ≠ 0", True),
    "def_hypotheses_reordered": (
        "def t (R : Type*) [Ring R] (h₁ : ∀ x : R, x * x = x) (h₂ : (2 : R) = 0) : CommRing R",
        "theorem t (R : Type*) [Ring R] (h₂ : (2 : R) = 0) (h₁ : ∀ x : R, x * x = x) : Nonempty (CommRing R)", True),
    # changed statements of the same shapes
    "structure_is_not_commutativity": (
        "instance t (G : Type*) [Group G] (h : ∀ a : G, a * a = 1) : CommGroup G",
        "theorem t (G : Type*) [Group G] (h : ∀ a : G, a * a = 1) : ∀ a b : G, a * b = b * a", False),
    "other_hypothesis": (
        "instance t (G H : Type*) [Group G] [Group H] (h : Nat.card G = Nat.card H) : G ≃* H",
        "theorem t (G H : Type*) [Group G] [Group H] (h : Nat.card G = 2 * Nat.card H) : Nonempty (G ≃* H)", False),
    "dropped_hypothesis": (
        "instance t (G H : Type*) [Group G] [Group H] (hG : IsCyclic G) (h : Nat.card G = Nat.card H) : G ≃* H",
        "theorem t (G H : Type*) [Group G] [Group H] (h : Nat.card G = Nat.card H) : Nonempty (G ≃* H)", False),
    "other_type": ("instance t (G H : Type*) [Group G] [Group H] : G ≃* H",
                   "theorem t (G H : Type*) [Group G] [Group H] : Nonempty (G →* H)", False),
    "negated": ("def t (G H : Type*) [Group G] [Group H] : G ≃* H",
                "theorem t (G H : Type*) [Group G] [Group H] : ¬ Nonempty (G ≃* H)", False),
    "other_carrier": ("def t : ℕ", "theorem t : Nonempty ℤ", False),
}


@pytest.mark.kernel
def test_data_declarations_pass_against_nonempty_and_changed_ones_do_not(kernel_lean_exe):
    pairs = []
    for k, (a, b, _) in DATA_PAIRS.items():
        pairs.append(SkeletonPair(k, parse_declaration(a), parse_declaration(b), True))
        pairs.append(SkeletonPair(k + ":swapped", parse_declaration(b), parse_declaration(a), True))
    verdicts = skeleton_score(pairs, kernel_lean_exe, n_jobs=2)
    wrong = {p.key: verdicts[p.key].messages for p in pairs
             if verdicts[p.key].passed is not DATA_PAIRS[p.key.removesuffix(":swapped")][2]}
    assert not wrong


def test_full_tier_applies_a_data_candidate_through_nonempty_intro():
    ref, cand, _ = DATA_PAIRS["instance_vs_nonempty"]
    alt = skeleton_alternatives(SkeletonPair("k", parse_declaration(cand), parse_declaration(ref), True), head="Cand")
    assert alt.forward == {1: "Nonempty.intro (@Cand G H inst_1 inst_2 hG hH (h))"}
    assert alt.backward is None and alt.why["backward"] == DATA_CANDIDATE_BACKWARD
    # a data reference's full-tier checkers state its type: no alternative at all
    alt = skeleton_alternatives(SkeletonPair("k", parse_declaration(ref), parse_declaration(cand), True), head="Cand")
    assert not alt.forward and alt.backward is None and set(alt.why.values()) == {DATA_REFERENCE}
