"""Lean disposes (``pyshadow.kernel.lean_check``): the skeleton search's terms are checked by the kernel-tier Lean
against the statements as its elaborator reads them in the signature environment. Each claim has its mutation
partner: a term Lean accepts for two spellings it elaborates alike, and the same term rejected for the nearest
spelling it elaborates differently."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from pyshadow.elab.elaborate import run_blocks
from pyshadow.kernel.lean_check import ACCEPTED, REJECTED, UNCHECKED, lean_check, same_shape
from pyshadow.kernel.skeleton import SkeletonPair, skeleton_search
from pyshadow.kernel.scoring import skeleton_score
from pyshadow.syntax import parse_declaration

pytestmark = pytest.mark.kernel


@pytest.fixture
def kernel_lean(kernel_lean_exe):
    return kernel_lean_exe

DEV_PAIRS = Path(__file__).parent / "fixtures" / "pairs" / "dev_pairs.jsonl"


def _pair(key: str, a: str, b: str, a_ctx: str = "", b_ctx: str = "", aliases=()) -> SkeletonPair:
    return SkeletonPair(key, parse_declaration(a), parse_declaration(b), True, a_ctx, b_ctx, tuple(aliases))


def _check(pair: SkeletonPair, kernel_lean):
    return lean_check([(pair, skeleton_search(pair))], kernel_lean)[pair.key]


def test_an_undecided_pair_lean_elaborates_alike_passes_and_its_mutation_does_not(kernel_lean):
    """The kernel tier cannot judge an ascription placed elsewhere (undecided); Lean elaborates the two spellings
    to one term, so the re-check's terms are Lean's proof: a pass. Its partner, where the ascription changes
    which subtraction is meant, stays undecided (Lean rejects the same terms)."""
    ref = "theorem t (x : ℕ) (h : x = ((11 : ℕ) + 4) % 5) : x < 5"
    same = "theorem t (x : ℕ) (h : x = (11 + 4) % 5) : x < 5"
    ref_sub = "theorem t (x : ℤ) (h : x = ((11 : ℕ) - 12 : ℕ)) : x ≥ 0"
    changed = "theorem t (x : ℤ) (h : x = 11 - 12) : x ≥ 0"
    verdicts = skeleton_score([_pair("same", ref, same), _pair("changed", ref_sub, changed)], kernel_lean)
    assert verdicts["same"].passed and verdicts["same"].lean == ACCEPTED, verdicts["same"]
    assert not verdicts["changed"].passed, verdicts["changed"]


def test_an_exponent_lean_reads_as_a_natural_number_is_not_the_real_one(kernel_lean):
    """`x ^ (1 / 3)` over ℝ has a ℕ exponent (0) in Lean, `x ^ (1 / 3 : ℝ)` a real one: read as one atom, the
    search's terms type-check abstractly; Lean rejects them."""
    ref = "theorem t (a : ℝ) : a ^ (1 / 3 : ℝ) = 2"
    cand = "theorem t (a : ℝ) : a ^ (1 / 3) = 2"
    check = _check(_pair("pow", ref, cand, aliases=[("a ^ (1 / 3 : ℝ)", "a ^ (1 / 3)")]), kernel_lean)
    assert check.status == REJECTED, check.reason
    twin = _check(_pair("pow-same", ref, "theorem t (a : ℝ) : a ^ ((1 : ℝ) / 3) = 2",
                        aliases=[("a ^ (1 / 3 : ℝ)", "a ^ ((1 : ℝ) / 3)")]), kernel_lean)
    assert twin.status == ACCEPTED, twin.reason


def test_a_normalised_statement_is_checked_with_the_candidates_own_atoms(kernel_lean):
    """A variable fixed by a hypothesis is substituted before the search (the statements' shapes change): Lean
    then judges the read statements — the candidate's own atoms, never the reference's read into it."""
    pair = next(json.loads(line) for line in DEV_PAIRS.read_text(encoding="utf-8").splitlines()
                if json.loads(line)["id"] == "minif2f/mathd_algebra_114")
    assert not pair["same_meaning"]  # `(1 / 3 : ℝ)` exponents against `1 / 3` (ℕ, so 0)
    sk = _pair(pair["id"], pair["a"], pair["b"], pair.get("a_context", ""), pair.get("b_context", ""))
    verdict = skeleton_score([sk], kernel_lean)[sk.key]
    assert not verdict.passed
    assert verdict.lean == REJECTED, verdict.lean_reason
    search = skeleton_search(sk)
    assert not same_shape(search.reference, sk.reference)  # the substitution `a = 8` changed its shape


def test_a_pass_lean_accepts_is_marked_and_an_unprintable_one_is_unchecked(kernel_lean):
    ref = "theorem t (a b : ℕ) (h : a ≤ b) : a < b + 1"
    cand = "theorem t (a b : ℕ) (h : a ≤ b) : b + 1 > a"
    verdict = skeleton_score([_pair("p", ref, cand)], kernel_lean)["p"]
    assert verdict.passed and verdict.lean == ACCEPTED, verdict.lean_reason
    odd = "theorem t (a b : ℕ) (h : a ≤ b) : a ⊔ b = b"  # `⊔` is not printed for the environment
    verdict = skeleton_score([_pair("q", odd, odd)], kernel_lean)["q"]
    assert verdict.passed and verdict.lean == UNCHECKED and verdict.lean_reason


def test_a_pass_lean_rejects_is_undecided(kernel_lean):
    """Where Python's reading and Lean's disagree the verdict is *undecided*, never a pass: simulated by making
    the reading equate two atoms Lean elaborates differently."""
    ref = "theorem t (a : ℝ) : a ^ (1 / 3 : ℝ) = 2"
    cand = "theorem t (a : ℝ) : a ^ (1 / 3) = 2"
    pair = _pair("forced", ref, cand, aliases=[("a ^ (1 / 3 : ℝ)", "a ^ (1 / 3)")])
    verdict = skeleton_score([pair], kernel_lean)["forced"]
    assert not verdict.passed and verdict.is_undecided
    assert verdict.lean == REJECTED and "Lean rejects" in verdict.undecided_reason()


def test_the_order_lemmas_of_the_environment_state_mathlibs_directions(kernel_lean):
    ok = ["example (a b : Real) (h : Eq a b) : LE.le a b := le_of_eq h",
          "example (a b : Real) (h : Eq a b) : binrel% GE.ge a b := ge_of_eq h",
          "example (a b : Nat) (h1 : LE.le a b) (h2 : LE.le b a) : Eq a b := le_antisymm h1 h2",
          "example (s t : Set Nat) (h : Eq s t) : HasSubset.Subset t s := superset_of_eq h",
          "example (s t : Set Nat) (h1 : HasSubset.Subset s t) (h2 : HasSubset.Subset t s) : Eq s t := "
          "Set.Subset.antisymm h1 h2"]
    bad = ["example (a b : Real) (h : Eq a b) : LE.le b a := le_of_eq h",
           "example (a b : Real) (h : Eq a b) : binrel% GE.ge b a := ge_of_eq h",
           "example (a b : Nat) (h1 : LE.le a b) (h2 : LE.le a b) : Eq a b := le_antisymm h1 h2",
           "example (s t : Set Nat) (h : Eq s t) : HasSubset.Subset s t := superset_of_eq h",
           "example (s t : Set Nat) (h1 : HasSubset.Subset s t) (h2 : HasSubset.Subset s t) : Eq s t := "
           "Set.Subset.antisymm h1 h2"]
    result, errors = run_blocks(list(enumerate(ok + bad)), kernel_lean)
    assert result.status == "ok"
    assert not any(i in errors for i in range(len(ok))), errors
    assert all(i in errors for i in range(len(ok), len(ok) + len(bad)))


def test_a_shared_solution_is_one_constant_and_a_different_one_is_not(kernel_lean):
    """Both revisions declare `sol : ℕ := sorry`-style answers alike: one constant. Declared differently, the
    two are different constants and Lean rejects the term that equates them."""
    ctx = "abbrev sol : ℕ → ℕ := sorry\n"
    ref, cand = "theorem t : ∀ n ≥ 2, sol n = n", "theorem t : ∀ m ≥ 2, sol m = m"
    same = _check(_pair("s", ref, cand, ctx, ctx), kernel_lean)
    assert same.status == ACCEPTED, same.reason
    other = _check(_pair("o", ref, cand, ctx, "abbrev sol : ℕ → ℕ := fun n => n\n"), kernel_lean)
    assert other.status != ACCEPTED, other
