"""Agreement statistics (``pyshadow.score.stats``): the issue's test vectors, hand-computed tails, edge cases."""

import math
from fractions import Fraction

import pytest

from pyshadow.score.stats import (
    Confusion,
    agreement,
    cohen_kappa,
    f1,
    mcnemar,
    mcnemar_exact_p,
    precision,
    recall,
    sentence_bleu,
    wilson_interval,
)


def test_wilson_87_of_97_is_the_beyond_compilation_interval():
    # "Beyond Compilation" §4.1: 87/97 = 89.7%, Wilson 95% CI 82.1–94.3%
    lo, hi = wilson_interval(87, 97)
    assert round(87 / 97 * 100, 1) == 89.7
    assert (round(lo * 100, 1), round(hi * 100, 1)) == (82.1, 94.3)


def test_wilson_edges():
    assert wilson_interval(0, 0) is None
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0.27 < hi < 0.28  # 0/10: upper bound z²/(n+z²) = 0.2775
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0 and 0.72 < lo < 0.73
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_kappa_vector_from_the_issue():
    c = Confusion(tp=57, fp=1, fn=65, tn=82)
    assert round(float(agreement(c)), 3) == 0.678
    assert round(cohen_kappa(c), 3) == 0.405
    # by hand: p_o = 139/205, p_e = (58·122 + 147·83)/205² = 19277/42025
    p_o, p_e = 139 / 205, 19277 / 42025
    assert cohen_kappa(c) == pytest.approx((p_o - p_e) / (1 - p_e), abs=1e-12)


def test_precision_recall_f1_on_counts():
    c = Confusion(tp=40, fp=0, fn=3, tn=40)  # the shape of SA-Pass in the paper's Table 4: precision 1, recall < 1
    assert precision(c) == 1
    assert recall(c) == Fraction(40, 43)
    assert f1(c) == Fraction(80, 83)


def test_no_predicted_positives():
    c = Confusion(tp=0, fp=0, fn=5, tn=5)
    assert precision(c) is None  # undefined, not 0 or 1
    assert recall(c) == 0 and f1(c) == 0
    assert cohen_kappa(c) == 0.0  # p_o = p_e = 1/2


def test_no_labelled_positives():
    c = Confusion(tp=0, fp=3, fn=0, tn=7)
    assert recall(c) is None
    assert precision(c) == 0 and f1(c) == 0


def test_everything_in_one_class_leaves_f1_and_kappa_undefined():
    c = Confusion(tp=0, fp=0, fn=0, tn=10)
    assert precision(c) is None and recall(c) is None and f1(c) is None
    assert agreement(c) == 1
    assert cohen_kappa(c) is None  # chance agreement 1
    assert cohen_kappa(Confusion()) is None and agreement(Confusion()) is None


def test_perfect_and_inverted_kappa():
    assert cohen_kappa(Confusion(tp=5, tn=5)) == 1.0
    assert cohen_kappa(Confusion(fp=5, fn=5)) == -1.0


@pytest.mark.parametrize(
    ("a_only", "b_only", "expected"),
    [
        # 2·P(X ≤ 4), X ~ Bin(20, ½) = 2·(1 + 20 + 190 + 1140 + 4845)/2^20 — the p = 0.0118 of "Beyond Compilation"
        (16, 4, 2 * 6196 / 2**20),
        (4, 16, 2 * 6196 / 2**20),
        (3, 0, 2 / 8),  # 2·P(X = 0), X ~ Bin(3, ½)
        (10, 0, 2 / 1024),
        (7, 2, 2 * (1 + 9 + 36) / 512),  # 2·P(X ≤ 2), X ~ Bin(9, ½)
        (1, 1, 1.0),  # 2·¾ capped at 1
        (0, 0, 1.0),  # no discordant pair
    ],
)
def test_exact_mcnemar_against_binomial_tails(a_only, b_only, expected):
    assert mcnemar_exact_p(a_only, b_only) == pytest.approx(expected, rel=1e-12)


def test_mcnemar_counts_only_discordant_correctness():
    labels = [True, True, False, False, True]
    a = [True, True, False, True, False]  # right, right, right, wrong, wrong
    b = [True, False, True, True, True]  # right, wrong, wrong, wrong, right
    t = mcnemar(labels, a, b)
    assert (t.n, t.a_only, t.b_only) == (5, 2, 1)
    assert t.p == 1.0
    assert round(mcnemar_exact_p(16, 4), 4) == 0.0118


def test_bleu_identity_and_no_overlap():
    tokens = "theorem foo ( n : Nat ) : n = n".split()
    assert sentence_bleu(tokens, tokens) == pytest.approx(1.0)
    assert sentence_bleu(["x", "y"], ["a", "b", "c"]) == 0.0
    assert sentence_bleu([], ["a"]) == 0.0


def test_bleu_hand_computed():
    # p1 = 3/4; p2 = (1+1)/(3+1); p3 = (0+1)/(2+1); p4 = (0+1)/(1+1); equal lengths, no brevity penalty
    assert sentence_bleu("a b x d".split(), "a b c d".split()) == pytest.approx((0.75 * 0.5 * (1 / 3) * 0.5) ** 0.25)
    # clipped unigrams: 'a' counts once; p = 1/4, 1/4, 1/3, 1/2
    assert sentence_bleu("a a a a".split(), "a b c d".split()) == pytest.approx((1 / 96) ** 0.25)
    # a prefix: every smoothed precision 1, brevity penalty exp(1 − 6/4)
    assert sentence_bleu("a b c d".split(), "a b c d e f".split()) == pytest.approx(math.exp(-0.5))
