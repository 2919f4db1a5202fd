"""Order and grouping of sums and products: Python proposes a rewrite chain, Lean checks it (``pyshadow.elab.ac``).

Each claim has its mutation partner: the nearest changed term, which Python must not call equal or Lean must not
prove equal.
"""

from __future__ import annotations

import pytest

import pyshadow
from pyshadow.elab import ac
from pyshadow.elab.atom_lemmas import AtomPairQuery, decide_atom_pairs
from pyshadow.syntax import terms as tm

NN = ("(x : ℕ)", "(y : ℕ)")
RR = ("(x : ℝ)", "(y : ℝ)")
ZZZ = ("(x : ℤ)", "(y : ℤ)", "(z : ℤ)")
# (reference atom, candidate atom, binders, mutated candidate atom)
CLAIMS = [
    ("x * y + (x + y) = 71", "x * y + x + y = 71", NN, "x * y + x + y = 72"),
    ("4 * (x * y)", "4 * x * y", RR, "4 * x + y"),
    ("z + y + x = 3", "x + (y + z) = 3", ZZZ, "x + (y - z) = 3"),
    ("x + n * m", "m * n + x", ("(x : ℝ)", "(n : ℕ)", "(m : ℕ)"), "m * n - x"),  # casts on the leaves
    ("(n * m : ℝ)", "(m * n : ℝ)", ("(n : ℕ)", "(m : ℕ)"), "(m * m : ℝ)"),
    ("(x - y) + 2", "2 + (x - y)", NN, "2 + (y - x)"),  # a truncated difference moved whole
    # an explicit cast against the one the elaborator inserts
    ("(n : ℝ) + x = 5", "x + n = 5", ("(n : ℕ)", "(x : ℝ)"), "x + n = 6"),
]
# Order and grouping with casts aside is only Python's proposal: Lean rejects what the casts make different.
CAST_MUTATIONS = [
    ("(↑(x + y) : ℤ) = 3", "(↑x + ↑y : ℤ) = 3", NN),  # a cast of a sum against a sum of casts: equal, not by order
    ("(↑(x - y) : ℤ) + 1 = 3", "1 + (↑x - ↑y : ℤ) = 3", NN),  # truncated ℕ subtraction against ℤ subtraction
]


def test_normal_form_orders_operands_and_nests_chains_right():
    node, steps = ac.normal_form(tm.read_term("c + b + a"))
    assert tm.render(node) == "a + (b + c)"
    assert {s.lemma for s in steps} <= {"add_assoc", "add_comm", "add_left_comm"} and steps
    assert tm.render(ac.normal_form(tm.read_term("y * (x * 2)"))[0]) == "2 * (x * y)"


@pytest.mark.parametrize("a, b", [
    ("x - y", "y - x"),  # not commutative
    ("x - y - z", "x - (y - z)"),  # not associative
    ("x / y * z", "x / (y * z)"),
    ("2 ^ 3 ^ x", "(2 ^ 3) ^ x"),
    ("x * (y + z)", "x * y + z"),
    ("x * (y + z)", "x * y + x * z"),  # distributivity is not order and grouping
    ("∑ i ∈ s, (i + x)", "∑ i ∈ s, (x + i)"),  # under a binder: no motive can abstract it
    ("x + y", "x + y"),  # equal already: nothing to prove
])
def test_no_claim_beyond_order_and_grouping(a, b):
    assert not ac.ac_equal(a, b)


@pytest.mark.kernel
def test_lean_proves_each_claim_and_not_its_mutation(kernel_lean_exe):
    queries = []
    for k, (ref, cand, binders, mutated) in enumerate(CLAIMS):
        queries.append(AtomPairQuery(f"c{k}", ref, cand, binders))
        queries.append(AtomPairQuery(f"m{k}", ref, mutated, binders))
    for k, (ref, cand, binders) in enumerate(CAST_MUTATIONS):
        queries.append(AtomPairQuery(f"x{k}", ref, cand, binders))
    decisions = {d.key: d for d in decide_atom_pairs(queries, kernel_lean_exe)}
    assert not any(decisions[f"x{k}"].equal for k in range(len(CAST_MUTATIONS))), decisions
    for k, claim in enumerate(CLAIMS):
        got = decisions[f"c{k}"]
        assert got.status == "lemma" and got.lemma.endswith("(order and grouping)"), (claim, got)
        assert not decisions[f"m{k}"].equal, (claim, decisions[f"m{k}"])


@pytest.mark.kernel
def test_lean_rejects_a_chain_with_a_step_missing(kernel_lean_exe, monkeypatch):
    real = ac._chain_term
    monkeypatch.setattr(ac, "_chain_term", lambda steps, show: real(steps[:-1], show) if len(steps) > 1
                        else real(steps, show))
    (got,) = decide_atom_pairs([AtomPairQuery("q", "z + y + x = 3", "x + (y + z) = 3", ZZZ)], kernel_lean_exe)
    assert not got.equal  # Python's chain is only a proposal: Lean checks every step


@pytest.mark.kernel
def test_a_real_pair_regrouped_passes_and_its_changed_partner_fails(kernel_lean_exe):
    # miniF2F aime_1991_p1 as yangky11's port and Harmonic's formalization write it (hypotheses bundled vs split,
    # the sum regrouped).
    ref = ("theorem aime_1991_p1 (x y : ℕ) (h₀ : 0 < x ∧ 0 < y) (h₁ : x * y + (x + y) = 71) "
           "(h₂ : x ^ 2 * y + x * y ^ 2 = 880) : x ^ 2 + y ^ 2 = 146")
    cand = ("theorem formal_3377 (x y : ℕ) (h₀ : 0 < x) (h₁ : 0 < y) (h₂ : x * y + x + y = 71) "
            "(h₃ : x^2 * y + x * y^2 = 880) : x^2 + y^2 = 146")
    ok = pyshadow.check_pair(ref, cand)
    assert ok.verdict == "pass" and ok.lean == "accepted", ok.reason
    changed = pyshadow.check_pair(ref, cand.replace("x * y + x + y = 71", "x * y + x + y = 70"))
    assert changed.verdict != "pass"
    regrouped_wrong = pyshadow.check_pair(ref, cand.replace("x * y + x + y = 71", "x * (y + x) + y = 71"))
    assert regrouped_wrong.verdict != "pass"
