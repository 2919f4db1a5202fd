"""Skeleton SA-Pass on model-style spellings of short competition statements (tests/fixtures/pairs/probe_pairs.jsonl).

Written by the lead developer to probe how formalizers (people and models) commonly restate a statement — hypothesis
names and order, ``0 < a`` vs ``a > 0``, numerals ascribed to the type they already have, ``Finset.sum s f`` vs
``∑``, dot notation, ``¬ ∃`` vs ``∀ … ≠`` — and the changed statements a checker must reject. **Not independent**:
the author knew the rules, so these pairs guard against regressions and document intent; the independent figures
are the real pairs in dev_pairs.jsonl / extra_pairs.jsonl. Same-meaning pairs that stay unpassed are provably but not
definitionally equal (``1 / x`` vs ``x⁻¹``, ``2 ∣ m`` vs ``m % 2 = 0``, ``x + 4`` vs ``4 + x``) — the kernel tier
rightly leaves them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pyshadow.kernel.pairs import evaluate, read_pairs

PROBE = Path(__file__).parent / "fixtures" / "pairs" / "probe_pairs.jsonl"
NOT_THE_SAME_TERM = {"s22", "s25", "s34"}  # provably equal only: must not pass


@pytest.fixture(scope="module")
def probe_results(kernel_lean_exe):
    return evaluate(read_pairs(PROBE), kernel_lean_exe, n_jobs=2)


@pytest.mark.kernel
def test_no_changed_probe_pair_passes(probe_results):
    wrong = [r.pair.id for r in probe_results if r.verdict == "pass" and not r.pair.same_meaning]
    assert not wrong


@pytest.mark.kernel
def test_spellings_of_one_term_pass(probe_results):
    same = [r for r in probe_results if r.pair.same_meaning and r.pair.id not in NOT_THE_SAME_TERM]
    missed = [(r.pair.id, r.verdict, r.reason[:120]) for r in same if r.verdict != "pass"]
    assert len(missed) <= 2, missed  # measured: s14 (pointwise definition) and s39 (substituted numeral)
    assert all(r.verdict != "pass" for r in probe_results if r.pair.id in NOT_THE_SAME_TERM)
