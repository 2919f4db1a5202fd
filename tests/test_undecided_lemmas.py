"""Atom pairs equal by a table lemma: Lean settles them, and a verdict passes only through Lean's own proofs.

An undecided verdict names how Lean settles each atom pair (``kernel.lemma_pairs.settle_atom_pairs``); one whose
pairs Lean proves equal passes when Lean also proves the candidate ⇔ ``cand'`` (the candidate with the
reference's atoms) and accepts the skeleton's terms for the reference against ``cand'`` (``lemma_upgrade``). A
difference at a relation (``Even n`` against ``n % 2 = 0``) is asked of Lean too (``lemma_rewrites``). Every claim
has its mutation partner — the nearest changed candidate — which never passes.
"""

from __future__ import annotations

import pytest

from pyshadow.kernel.skeleton import SkeletonPair
from pyshadow.kernel.scoring import skeleton_score
from pyshadow.syntax.parser import parse_declaration

pytestmark = pytest.mark.kernel

CLAIMS = [  # (id, reference, candidate, the lemma Lean settles the pair by)
    ("sqrt", "theorem t (x : ℝ) (h : 0 ≤ x) : Real.sqrt x = 2",
     "theorem t (x : ℝ) (h : 0 ≤ x) : x ^ (1 / 2 : ℝ) = 2", "Real.sqrt_eq_rpow"),
    ("logb", "theorem t (x : ℝ) (h : 1 < x) : Real.log x / Real.log 2 > 0",
     "theorem t (y : ℝ) (h : 1 < y) : Real.logb 2 y > 0", "Real.log_div_log"),
    ("ncard", "theorem t (s : Finset ℕ) : (s : Set ℕ).ncard = 3", "theorem t (s : Finset ℕ) : s.card = 3",
     "Set.ncard_coe_finset"),
    # differences at a relation, not at an atom
    ("even", "theorem t (n : ℕ) (h : 0 < n) : Even n", "theorem t (n : ℕ) (h : 0 < n) : n % 2 = 0",
     "Nat.even_iff"),
    ("dvd", "theorem t (n : ℕ) (h₀ : 0 < n) : 2 ∣ n * (n + 1)",
     "theorem t (n : ℕ) (h₀ : 0 < n) : (n * (n + 1)) % 2 = 0", "Nat.dvd_iff_mod_eq_zero"),
    ("range", "theorem t (x n : ℕ) (h : x ∈ Finset.range n) : x + 1 ≤ n",
     "theorem t (x n : ℕ) (h : x < n) : x + 1 ≤ n", "Finset.mem_range"),
]
MUTANTS = [  # (id, reference, candidate, verdict)
    ("sqrt-mutant", "theorem t (x : ℝ) (h : 0 ≤ x) : Real.sqrt x = 2",
     "theorem t (x : ℝ) (h : 0 ≤ x) : x ^ (1 / 3 : ℝ) = 2", "undecided"),
    ("logb-mutant", "theorem t (x : ℝ) (h : 1 < x) : Real.log x / Real.log 2 > 0",
     "theorem t (y : ℝ) (h : 1 < y) : Real.logb 3 y > 0", "undecided"),
    ("ncard-mutant", "theorem t (s : Finset ℕ) : (s : Set ℕ).ncard = 3", "theorem t (s : Finset ℕ) : s.card + 1 = 3",
     "undecided"),
    # at a relation Lean proves nothing, so nothing makes these undecided: plain failures
    ("even-mutant", "theorem t (n : ℕ) (h : 0 < n) : Even n", "theorem t (n : ℕ) (h : 0 < n) : n % 2 = 1", "fail"),
    ("dvd-mutant", "theorem t (n : ℕ) (h₀ : 0 < n) : 2 ∣ n * (n + 1)",
     "theorem t (n : ℕ) (h₀ : 0 < n) : (n * (n + 1)) % 2 = 1", "fail"),
    ("range-mutant", "theorem t (x n : ℕ) (h : x ∈ Finset.range n) : x + 1 ≤ n",
     "theorem t (x n : ℕ) (h : x ≤ n) : x + 1 ≤ n", "fail"),
]


@pytest.fixture(scope="module")
def verdicts(kernel_lean_exe, tmp_path_factory):
    pairs = [SkeletonPair(key, parse_declaration(a), parse_declaration(b), True)
             for key, a, b, _ in [*CLAIMS, *MUTANTS]]
    return skeleton_score(pairs, kernel_lean_exe, n_jobs=1, cache_dir=tmp_path_factory.mktemp("cache"))


@pytest.mark.parametrize("claim", CLAIMS, ids=[c[0] for c in CLAIMS])
def test_a_lemma_pair_passes_through_lean_and_the_verdict_names_the_lemma(verdicts, claim):
    key, _, _, lemma = claim
    v = verdicts[key]
    assert v.passed and v.lean == "accepted", (v.messages, v.lean_reason)
    assert f"by {lemma}" in v.messages["atom lemmas"] and f"by {lemma}" in v.lean_reason
    assert "Lean proves the candidate ⇔ cand'" in v.messages["atom lemmas"]


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_mutation_partners_never_pass(verdicts, mutant):
    key, _, _, verdict = mutant
    v = verdicts[key]
    assert not v.passed
    if verdict == "undecided":
        assert v.undecided and "not shown" in v.messages["atom lemmas"], v.messages
    else:
        assert not v.undecided and "atom lemmas" not in v.messages, v.messages


def test_a_context_lean_is_not_given_is_no_decision_never_a_crash(kernel_lean_exe, tmp_path):
    ctx = "instance : Inhabited ℕ := ⟨0⟩"  # a command `pyshadow.elab.context` does not model
    a, b = CLAIMS[0][1:3]
    pair = SkeletonPair("ctx", parse_declaration(a), parse_declaration(b), True, ctx, ctx)
    v = skeleton_score([pair], kernel_lean_exe, n_jobs=1, cache_dir=tmp_path)["ctx"]
    assert not v.passed and v.undecided
    assert "not asked (the context is not printed for Lean" in v.messages["atom lemmas"], v.messages
