"""An instance binder is a hypothesis the lemma table can restate: `[Fact (Nat.Prime p)]` against
`(hp : p.Prime)` by Mathlib's `fact_iff`, both ways, checked by the kernel-tier Lean (the congruence replaces
the instance by an explicit hypothesis); each claim has a mutation partner that must not pass."""

from __future__ import annotations

import pytest

import pyshadow

pytestmark = pytest.mark.kernel

# PutnamBench/fuzzy-dynamics style (tests/fixtures/pairs/olympiad25_pairs.jsonl, putnam_2025_b5)
EXPLICIT = "theorem t (p : ℕ) (hp : p.Prime) (h3 : 3 < p) : (p : ℚ) / 4 - 1 < (p : ℚ)"
INSTANCE = "theorem t (p : ℕ) [Fact (Nat.Prime p)] (h3 : 3 < p) : (p : ℚ) / 4 - 1 < (p : ℚ)"


@pytest.mark.parametrize("reference,candidate", [(EXPLICIT, INSTANCE), (INSTANCE, EXPLICIT)])
def test_a_fact_instance_is_its_proposition(reference, candidate, kernel_lean_exe):
    v = pyshadow.check_pair(reference, candidate)
    assert v.verdict == "pass" and v.lean == "accepted", v.reason


@pytest.mark.parametrize("reference,candidate", [
    (EXPLICIT, INSTANCE.replace("Nat.Prime p", "Nat.Prime (p + 1)")),
    (INSTANCE, EXPLICIT.replace("p.Prime", "(p + 1).Prime")),
])
def test_a_fact_of_another_proposition_is_not(reference, candidate, kernel_lean_exe):
    assert pyshadow.check_pair(reference, candidate).verdict != "pass"
