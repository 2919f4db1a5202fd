"""An undecided verdict names how Lean settles each atom pair — by a table lemma, definitionally, or not — and stays
undecided: Lean's answer on atoms read alone is a report, never a pass (``kernel.undecided.settle_atom_pairs``).

Each claim has its mutation partner: the nearest changed candidate, undecided for the same reason, whose atom
pair Lean does not prove equal.
"""

from __future__ import annotations

import pytest

from pyshadow.kernel.pairs import LabelledPair, evaluate

pytestmark = pytest.mark.kernel

CLAIMS = [  # (id, reference, candidate, how the atom pair is settled)
    ("sqrt", "theorem t (x : ℝ) (h : 0 ≤ x) : Real.sqrt x = 2",
     "theorem t (x : ℝ) (h : 0 ≤ x) : x ^ (1 / 2 : ℝ) = 2", "equal by Real.sqrt_eq_rpow"),
    ("sqrt-mutant", "theorem t (x : ℝ) (h : 0 ≤ x) : Real.sqrt x = 2",
     "theorem t (x : ℝ) (h : 0 ≤ x) : x ^ (1 / 3 : ℝ) = 2", "not shown"),
    ("logb", "theorem t (x : ℝ) (h : 1 < x) : Real.log x / Real.log 2 > 0",
     "theorem t (y : ℝ) (h : 1 < y) : Real.logb 2 y > 0", "equal by Real.log_div_log"),
    ("logb-mutant", "theorem t (x : ℝ) (h : 1 < x) : Real.log x / Real.log 2 > 0",
     "theorem t (y : ℝ) (h : 1 < y) : Real.logb 3 y > 0", "not shown"),
    ("ncard", "theorem t (s : Finset ℕ) : (s : Set ℕ).ncard = 3", "theorem t (s : Finset ℕ) : s.card = 3",
     "equal by Set.ncard_coe_finset"),
    ("ncard-mutant", "theorem t (s : Finset ℕ) : (s : Set ℕ).ncard = 3", "theorem t (s : Finset ℕ) : (s.card + 0) = 3",
     "not shown"),
    # differences at a relation, not at an atom: undecided only because Lean proves them by a lemma
    ("even", "theorem t (n : ℕ) (h : 0 < n) : Even n", "theorem t (n : ℕ) (h : 0 < n) : n % 2 = 0",
     "equal by Nat.even_iff"),
    ("dvd", "theorem t (n : ℕ) (h₀ : 0 < n) : 2 ∣ n * (n + 1)",
     "theorem t (n : ℕ) (h₀ : 0 < n) : (n * (n + 1)) % 2 = 0", "equal by Nat.dvd_iff_mod_eq_zero"),
    ("range", "theorem t (x n : ℕ) (h : x ∈ Finset.range n) : x + 1 ≤ n",
     "theorem t (x n : ℕ) (h : x < n) : x + 1 ≤ n", "equal by Finset.mem_range"),
]
# their mutation partners are plain failures: Lean proves no lemma, so nothing makes them undecided
FAILS = [
    ("even-mutant", "theorem t (n : ℕ) (h : 0 < n) : Even n", "theorem t (n : ℕ) (h : 0 < n) : n % 2 = 1"),
    ("dvd-mutant", "theorem t (n : ℕ) (h₀ : 0 < n) : 2 ∣ n * (n + 1)",
     "theorem t (n : ℕ) (h₀ : 0 < n) : (n * (n + 1)) % 2 = 1"),
    ("range-mutant", "theorem t (x n : ℕ) (h : x ∈ Finset.range n) : x + 1 ≤ n",
     "theorem t (x n : ℕ) (h : x ≤ n) : x + 1 ≤ n"),
]


@pytest.fixture(scope="module")
def results(kernel_lean_exe, tmp_path_factory):
    pairs = [LabelledPair(i, a, b, "", "", not i.endswith("mutant"), "", "test")
             for i, a, b, *_ in [*CLAIMS, *FAILS]]
    return {r.pair.id: r for r in evaluate(pairs, kernel_lean_exe, n_jobs=1, cache_dir=tmp_path_factory.mktemp("c"))}


@pytest.mark.parametrize("claim", CLAIMS, ids=[c[0] for c in CLAIMS])
def test_undecided_verdicts_name_the_lemma_and_stay_undecided(results, claim):
    key, _, _, settled = claim
    r = results[key]
    assert r.verdict == "undecided", (r.verdict, r.reason)
    message = next(m for m in r.reason.split("; ") if m.startswith("atom lemmas: "))
    assert settled in message and "no pass by itself" in message, message


@pytest.mark.parametrize("claim", FAILS, ids=[c[0] for c in FAILS])
def test_relation_level_mutants_stay_failures(results, claim):
    r = results[claim[0]]
    assert r.verdict == "fail" and "atom lemmas" not in r.reason, (r.verdict, r.reason)
