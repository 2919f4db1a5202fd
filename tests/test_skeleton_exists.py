"""∃-congruence on facts: a goal ``∃ x, Q x`` from a fact ``∃ x, P x`` when ``P x ⊢ Q x``
(``Prover._exists_congruence``: ``Exists.elim fact (fun x hx => Exists.intro x …)``, intuitionistic).

The typical case is a hypothesis spelled two ways under an ∃ (``∀ ε > 0, ∃ N, ∀ n ≥ N, …`` against
``∀ ε, ε > 0 → ∃ N, ∀ n, n ≥ N → …``): the candidate's hypothesis is a premise of its axiom, proven from the
reference's with the ∃ taken apart and rebuilt. Hand-written pairs, with changed ones of the same shape (a quantifier
order swapped, an atom changed, a bound dropped) that must still fail. Both printers print the term: the kernel tier
checks the abstract one, and the concrete one reads back to it.
"""

from __future__ import annotations

import pytest

from pyshadow.kernel.skeleton import SkeletonPair, skeleton_search
from pyshadow.kernel.scoring import skeleton_score
from pyshadow.kernel.concrete import concrete_names, concrete_terms
from pyshadow.score.skeleton_terms import reabstract
from pyshadow.syntax import parse_declaration

OPENS = "open Filter Topology Set Real"
LIMIT = "theorem t (u : ℕ → ℝ) (c : ℝ) (h : ∀ ε > 0, ∃ N, ∀ n ≥ N, |u n - c| < ε) : Tendsto u atTop (𝓝 c)"

# (reference, candidate, same meaning?)
CASES = [
    (LIMIT, "theorem t (u : ℕ → ℝ) (c : ℝ) (h : ∀ ε : ℝ, 0 < ε → ∃ N : ℕ, ∀ n : ℕ, N ≤ n → |u n - c| < ε) : "
            "Filter.Tendsto u Filter.atTop (nhds c)", True),
    (LIMIT, "theorem t (u : ℕ → ℝ) (c : ℝ) (h : ∃ N : ℕ, ∀ ε : ℝ, 0 < ε → ∀ n : ℕ, N ≤ n → |u n - c| < ε) : "
            "Filter.Tendsto u Filter.atTop (nhds c)", False),
    (LIMIT, "theorem t (u : ℕ → ℝ) (c : ℝ) (h : ∀ ε : ℝ, 0 < ε → ∃ N : ℕ, ∀ n : ℕ, |u n - c| < ε) : "
            "Filter.Tendsto u Filter.atTop (nhds c)", False),
    (LIMIT, "theorem t (u : ℕ → ℝ) (c : ℝ) (h : ∀ ε : ℝ, 0 < ε → ∃ N : ℕ, ∀ n : ℕ, N ≤ n → |u n - c| ≤ ε) : "
            "Filter.Tendsto u Filter.atTop (nhds c)", False),
    # a conjunction under the ∃ in the other order, in a hypothesis
    ("theorem t (f : ℕ → ℕ) (h : ∃ k, 0 < k ∧ f k = k) : ∃ m, f m ≠ 0",
     "theorem t (f : ℕ → ℕ) (h : ∃ j, f j = j ∧ 0 < j) : ∃ m, f m ≠ 0", True),
    ("theorem t (f : ℕ → ℕ) (h : ∃ k, 0 < k ∧ f k = k) : ∃ m, f m ≠ 0",
     "theorem t (f : ℕ → ℕ) (h : ∃ j, f j = j) : ∃ m, f m ≠ 0", False),
    # two ∃ deep, with a bounded binder spelled as an implication
    ("theorem t (s : Set ℝ) (h : ∃ a ∈ s, ∃ b ∈ s, ∀ x ∈ s, a ≤ x ∧ x ≤ b) : IsCompact s",
     "theorem t (s : Set ℝ) (h : ∃ a, a ∈ s ∧ ∃ b, b ∈ s ∧ ∀ x, x ∈ s → a ≤ x ∧ x ≤ b) : IsCompact s", True),
    ("theorem t (s : Set ℝ) (h : ∃ a ∈ s, ∃ b ∈ s, ∀ x ∈ s, a ≤ x ∧ x ≤ b) : IsCompact s",
     "theorem t (s : Set ℝ) (h : ∃ a, a ∈ s ∧ ∃ b, ∀ x, x ∈ s → a ≤ x ∧ x ≤ b) : IsCompact s", False),
]


def _pair(i: int, a: str, b: str) -> SkeletonPair:
    return SkeletonPair(f"e{i}", parse_declaration(a), parse_declaration(b), True, OPENS, OPENS)


@pytest.mark.kernel
def test_exists_congruence_passes_only_the_same_statement(kernel_lean_exe):
    verdicts = skeleton_score([_pair(i, a, b) for i, (a, b, _) in enumerate(CASES)], kernel_lean_exe, n_jobs=1,
                              recheck=False)
    got = {i: verdicts[f"e{i}"].passed for i in range(len(CASES))}
    want = {i: same for i, (_, _, same) in enumerate(CASES)}
    assert got == want, {i: (CASES[i][1], verdicts[f"e{i}"].messages) for i in got if got[i] != want[i]}
    assert not any("error:" in m for v in verdicts.values() for m in v.messages.values())


def test_both_printers_print_the_exists_congruence():
    search = skeleton_search(_pair(0, *CASES[0][:2]))
    terms = [*search.forward, search.backward]
    assert all(t is not None and "Exists.elim" in t and "Exists.intro" in t for t in terms), terms
    names = concrete_names(search, "Ns.cand_decl")
    concrete = concrete_terms(search, "Ns.cand_decl")
    assert "Exists.elim" in concrete.forward[1] and "Exists.elim" in concrete.backward
    assert reabstract(concrete.forward[1], search, names) == search.forward[0]
    assert reabstract(concrete.backward, search, names, backward=True) == search.backward
