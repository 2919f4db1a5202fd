"""pass@k and mean@k (``pyshadow.score.passk``) against hand-computed values and a brute-force count."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from pyshadow.score.passk import ks_for, mean_at_k, pass_at_k, per_problem, per_system


@pytest.mark.parametrize("n, c, k, expected", [
    (5, 2, 1, Fraction(2, 5)),      # 1 − C(3,1)/C(5,1) = 1 − 3/5
    (5, 2, 2, Fraction(7, 10)),     # 1 − C(3,2)/C(5,2) = 1 − 3/10
    (5, 2, 4, Fraction(1)),         # C(3,4) = 0: any 4 of 5 hold a pass
    (10, 1, 5, Fraction(1, 2)),     # 1 − C(9,5)/C(10,5) = 1 − 126/252
    (10, 3, 5, Fraction(11, 12)),   # 1 − C(7,5)/C(10,5) = 1 − 21/252
    (10, 0, 5, Fraction(0)),
    (3, 3, 1, Fraction(1)),
    (1, 1, 1, Fraction(1)),
    (1, 0, 1, Fraction(0)),
])
def test_pass_at_k_by_hand(n, c, k, expected):
    assert pass_at_k(n, c, k) == expected


def test_pass_at_k_is_the_fraction_of_k_subsets_holding_a_pass():
    """The estimator equals the brute-force count over every k-subset of the n samples."""
    for n in range(1, 8):
        for c in range(n + 1):
            samples = [True] * c + [False] * (n - c)
            for k in range(1, n + 1):
                subsets = list(itertools.combinations(range(n), k))
                hits = sum(any(samples[i] for i in s) for s in subsets)
                assert pass_at_k(n, c, k) == Fraction(hits, len(subsets)), (n, c, k)
                # mean@k: the expected passing fraction of k drawn samples is c/n for every k
                mean = Fraction(sum(sum(samples[i] for i in s) for s in subsets), k * len(subsets))
                assert mean == mean_at_k(n, c)


def test_pass_at_k_undefined_beyond_n_and_bad_counts_rejected():
    assert pass_at_k(3, 1, 5) is None
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 0)


def test_per_system_means_over_every_problem_of_the_set():
    outcomes = [("A", "p1", ok) for ok in (True, False, True, False, False)]  # n=5, c=2
    outcomes += [("A", "p2", False)] * 5                                     # n=5, c=0
    outcomes += [("B", "p1", True)]                                          # n=1, c=1
    groups = per_problem(outcomes)
    assert [(g.system, g.problem_id, g.n, g.c) for g in groups] == [("A", "p1", 5, 2), ("A", "p2", 5, 0),
                                                                    ("B", "p1", 1, 1)]
    a, b = per_system(groups, ["p1", "p2", "p3", "p4"], (1, 5, 10))
    assert (a.problems, a.submitted, a.samples, a.min_samples, a.max_samples) == (4, 2, 10, 5, 5)
    assert a.pass_at[1] == Fraction(2, 5) / 4          # (2/5 + 0 + 0 + 0) / 4: p3, p4 not submitted count 0
    assert a.pass_at[5] == Fraction(1, 4)              # (1 + 0) / 4
    assert a.pass_at[10] is None                       # 5 samples cannot estimate pass@10
    assert a.mean == Fraction(1, 10)
    assert (b.pass_at[1], b.pass_at[5], b.mean) == (Fraction(1, 4), None, Fraction(1, 4))


def test_k_columns_are_fixed_and_grow_only_past_ten():
    assert ks_for(1) == ks_for(10) == (1, 5, 10)
    assert ks_for(64) == (1, 5, 10, 20, 50)
