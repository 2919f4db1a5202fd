"""Skeleton SA-Pass on model-style spellings of short statements (tests/fixtures/pairs/probe_pairs.jsonl:
competition style; probe2_pairs.jsonl: ProofNet style, under ``open Filter Topology Set Real``).

Written by the lead developer to probe how formalizers (people and models) commonly restate a statement — hypothesis
names and order, ``0 < a`` vs ``a > 0``, numerals ascribed to the type they already have, ``Finset.sum s f`` vs
``∑``, dot notation, ``¬ ∃`` vs ``∀ … ≠`` — and the changed statements a checker must reject. **Not independent**:
the author knew the rules, so these pairs guard against regressions and document intent; the independent figures
are the real pairs in dev_pairs.jsonl / extra_pairs.jsonl. Same-meaning pairs that stay unpassed are provably but not
definitionally equal — the kernel tier rightly leaves them — unless a lemma of the table restates one, at any
closed subterm (``2 ∣ m`` vs ``m % 2 = 0``: ``Nat.dvd_iff_mod_eq_zero``; ``1 / x`` vs ``x⁻¹``: ``one_div``), or
the two are one sum or product up to order and grouping (``x + 4`` vs ``4 + x``: ``add_comm``,
``pyshadow.elab.ac``), when the pass is Lean's proof through it and names it (``pyshadow.kernel.lemma_pairs``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pyshadow.kernel.pairs import evaluate, read_pairs

FIXTURES = Path(__file__).parent / "fixtures" / "pairs"
# Same-meaning pairs equal by a lemma of the table (PyshadowEnv/Lemmas.lean) or by order and grouping: they pass
# through Lean's proof, naming the lemma; the others known not to pass, and why.
BY_A_LEMMA = {"s25": "Nat.dvd_iff_mod_eq_zero", "s34": "add_comm", "s22": "one_div"}
KNOWN_MISSES = {
    "s39": "a numeral substituted for a variable keeps its ascription (definitions fold after the keys)",
    "ps17": "coercions of subgroups to sets written in other places",
}


@pytest.fixture(scope="module")
def probe_results(kernel_lean_exe):
    pairs = read_pairs(FIXTURES / "probe_pairs.jsonl") + read_pairs(FIXTURES / "probe2_pairs.jsonl")
    return evaluate(pairs, kernel_lean_exe, n_jobs=2)


@pytest.mark.kernel
def test_no_changed_probe_pair_passes(probe_results):
    wrong = [r.pair.id for r in probe_results if r.verdict == "pass" and not r.pair.same_meaning]
    assert not wrong


@pytest.mark.kernel
def test_spellings_of_one_term_pass(probe_results):
    same = [r for r in probe_results if r.pair.same_meaning and r.pair.id not in BY_A_LEMMA]
    missed = {r.pair.id for r in same if r.verdict != "pass"}
    assert missed <= set(KNOWN_MISSES), sorted(missed - set(KNOWN_MISSES))
    by_lemma = {r.pair.id: r for r in probe_results if r.pair.id in BY_A_LEMMA}
    assert all(r.verdict == "pass" and r.lean == "accepted" and f"by {BY_A_LEMMA[k]}" in r.reason
               for k, r in by_lemma.items()), by_lemma
