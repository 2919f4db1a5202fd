"""The skeleton search proposes only terms Lean accepts: its view of every statement is the printed one.

Three ways the search's reading of a name differed from the Lean text it printed (each once produced a term the
kernel tier rejected — a wasted check, and a verdict that depended on luck rather than on the statements):

- a name free in one statement (an auto-bound ``v``, a constant) read as a variable the *other* statement binds
  (``skeleton._closed`` cuts atoms' ``idents`` to the variables their own statement binds);
- a variable introduced under the name of one already in scope, so the facts about the outer one were read as
  facts about the inner one (``Prover._intro`` names it apart);
- an anonymous binder ``(_ : p)`` kept in scope as ``_`` and passed as an argument (``_`` is never a variable).

Inputs are hand-written; each has the verdict it must get, and no check may be rejected by Lean.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyshadow.kernel.pairs import evaluate, read_pairs
from pyshadow.kernel.skeleton import SkeletonPair
from pyshadow.kernel.scoring import skeleton_score
from pyshadow.syntax import parse_declaration

FIXTURES = Path(__file__).parent / "fixtures" / "pairs"

# (reference, candidate, must pass?)
CASES = [
    # auto-bound `v` in the candidate, bound `{v : V}` in the reference: not the same statement to the kernel tier
    ("theorem t {V : Type*} [AddCommGroup V] {v : V} : v + 0 = v", "theorem t : v + 0 = v", False),
    ("theorem t {V : Type*} [AddCommGroup V] (v : V) (h : v ≠ 0) : -v ≠ 0",
     "theorem t {V : Type*} [AddCommGroup V] (h : v ≠ 0) : -v ≠ 0", False),
    # an inner `∀ x` where `x` is already bound: the facts about the outer `x` stay about it
    ("theorem t (f : ℕ → ℕ) : ∀ x y : ℕ, f x = f y ↔ ∀ x y : ℕ, x = y",
     "theorem t (f : ℕ → ℕ) : (∀ x y : ℕ, f x = f y) ↔ ∀ x y : ℕ, x = y", False),
    ("theorem t (x : ℕ) (h : ∀ x : ℕ, Nat.Prime (x + 2)) : Nat.Prime (x + 2)",
     "theorem t (x : ℕ) (h : ∀ y : ℕ, Nat.Prime (y + 2)) : Nat.Prime (x + 2)", True),
    ("theorem t (x : ℕ) : (∀ x : ℕ, Nat.Prime (x + 2)) → Nat.Prime (x + 2)",
     "theorem t (x : ℕ) : (∀ y : ℕ, Nat.Prime (y + 2)) → Nat.Prime (x + 2)", True),
    ("theorem t (x : ℕ) : (∀ x : ℕ, Nat.Prime (x + 2)) → Nat.Prime (x + 2)",
     "theorem t (x : ℕ) : (∀ y : ℕ, Nat.Prime (y + 3)) → Nat.Prime (x + 2)", False),
    # an anonymous binder of an opaque predicate, then an extra hypothesis on the candidate's side
    ("theorem t : ∀ (N : ℕ) (A : Finset ℕ) (_ : IsSidon A N), A.card < N",
     "theorem t : ∀ (N : ℕ) (A : Finset ℕ) (_ : IsSidon A N), N ≠ 0 → A.card < N", False),
    ("theorem t : ∀ (N : ℕ) (A : Finset ℕ) (_ : IsSidon A N), A.card < N",
     "theorem t : ∀ (N : ℕ) (A : Finset ℕ) (_ : IsSidon A N), A.card ≤ N", False),
]


def _lean_rejected(messages: dict[str, str]) -> dict[str, str]:
    """The checks the search built that Lean rejected (an unbuilt check says so in other words)."""
    return {role: m for role, m in messages.items() if "error:" in m}


@pytest.mark.kernel
def test_search_terms_are_accepted_by_lean(kernel_lean_exe):
    pairs = [SkeletonPair(f"w{i}", parse_declaration(a), parse_declaration(b)) for i, (a, b, _) in enumerate(CASES)]
    verdicts = skeleton_score(pairs, kernel_lean_exe, n_jobs=1, recheck=False)
    for i, (_, b, must_pass) in enumerate(CASES):
        v = verdicts[f"w{i}"]
        assert not _lean_rejected(v.messages), (b, v.messages)
        assert v.passed == must_pass, (b, v.messages)
    # the anonymous-binder case builds its backward check (the candidate is weaker) and Lean accepts it
    assert verdicts["w6"].backward and not all(verdicts["w6"].forward)


@pytest.mark.kernel
def test_no_fixture_pair_gets_a_term_lean_rejects(kernel_lean_exe):
    """Over the model-prediction, extension and probe pairs: every check the search builds type-checks."""
    pairs = [p for name in ("model_pairs", "extra_pairs", "probe_pairs", "probe2_pairs")
             for p in read_pairs(FIXTURES / f"{name}.jsonl")]
    results = evaluate(pairs, kernel_lean_exe, n_jobs=2)
    rejected = {r.pair.id: r.reason for r in results if "error: line" in r.reason}
    assert not rejected, json.dumps(rejected, ensure_ascii=False, indent=1)
