"""Statistics for agreement with human labels, as pure functions: confusion counts, precision / recall / F1,
agreement, Cohen's κ, Wilson score intervals, the exact McNemar test, and sentence BLEU.

Conventions (what is returned when a quantity is undefined): a ratio with a zero denominator is ``None`` — no
predicted positives leave precision undefined, no labelled positives leave recall undefined, F1 is undefined only
when there is no positive anywhere (``2·tp + fp + fn = 0``), and κ is undefined when chance agreement is 1 (every
label and every prediction in one class). Reports print ``None`` as "—"; nothing is silently 0 or 1.

References for the formulas: Wilson (1927) score interval; Cohen (1960) κ; McNemar (1947), exact form = two-sided
binomial test on the discordant pairs with p = ½ (as "Beyond Compilation" §4.1 reports it); BLEU — Papineni et al.
(2002), sentence-level with the smoothing of Lin & Och (2004) (add one to numerator and denominator of every
n-gram precision with n ≥ 2), so one missing 4-gram does not zero the score.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

Z_95 = NormalDist().inv_cdf(0.975)  # 1.959963984540054


@dataclass(frozen=True, slots=True)
class Confusion:
    """Counts of a binary metric against binary labels (positive = aligned / metric says pass)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @classmethod
    def from_pairs(cls, pairs: Sequence[tuple[bool, bool]]) -> Confusion:
        """From ``(label, prediction)`` pairs."""
        c = Counter((bool(label), bool(pred)) for label, pred in pairs)
        return cls(tp=c[(True, True)], fp=c[(False, True)], fn=c[(True, False)], tn=c[(False, False)])

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn


def ratio(num: int, den: int) -> Fraction | None:
    return Fraction(num, den) if den else None


def precision(c: Confusion) -> Fraction | None:
    """tp / (tp + fp); None with no predicted positives."""
    return ratio(c.tp, c.tp + c.fp)


def recall(c: Confusion) -> Fraction | None:
    """tp / (tp + fn); None with no labelled positives."""
    return ratio(c.tp, c.tp + c.fn)


def f1(c: Confusion) -> Fraction | None:
    """2·tp / (2·tp + fp + fn): 0 when positives exist but none is shared, None when there are none at all."""
    return ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn)


def agreement(c: Confusion) -> Fraction | None:
    """(tp + tn) / n — the paper's "agreement" (accuracy against the labels)."""
    return ratio(c.tp + c.tn, c.n)


def cohen_kappa(c: Confusion) -> float | None:
    """(p_o − p_e) / (1 − p_e) with p_e from the label and prediction marginals; None when p_e = 1 or n = 0."""
    n = c.n
    if not n:
        return None
    observed = Fraction(c.tp + c.tn, n)
    chance = Fraction((c.tp + c.fp) * (c.tp + c.fn) + (c.fn + c.tn) * (c.fp + c.tn), n * n)
    if chance == 1:
        return None
    return float((observed - chance) / (1 - chance))


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval for ``successes / n`` (None when n = 0), clipped to [0, 1]."""
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within 0..{n}, got {successes}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    lo = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends: no floating-point residue at 0 and 1
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


@dataclass(frozen=True, slots=True)
class McNemar:
    """Paired comparison of two metrics on the items both decided: ``a_only`` items only the first gets right,
    ``b_only`` only the second; ``p`` the exact two-sided p-value (1 with no discordant pair)."""

    n: int
    a_only: int
    b_only: int
    p: float


def mcnemar_exact_p(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar: 2·P(X ≤ min(b, c)) for X ~ Binomial(b + c, ½), capped at 1."""
    m = a_only + b_only
    if m == 0:
        return 1.0
    k = min(a_only, b_only)
    tail = Fraction(sum(math.comb(m, i) for i in range(k + 1)), 2**m)
    return float(min(Fraction(1), 2 * tail))


def mcnemar(labels: Sequence[bool], a: Sequence[bool], b: Sequence[bool]) -> McNemar:
    """McNemar on three aligned sequences: whether metric a / metric b matches each label."""
    if not len(labels) == len(a) == len(b):
        raise ValueError("labels and both metrics must have one entry per item")
    a_only = sum((x == y) and (z != y) for y, x, z in zip(labels, a, b))
    b_only = sum((x != y) and (z == y) for y, x, z in zip(labels, a, b))
    return McNemar(len(labels), a_only, b_only, mcnemar_exact_p(a_only, b_only))


# ---------------------------------------------------------------------------------------------------------------
# BLEU


def ngrams(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def sentence_bleu(candidate: Sequence[str], reference: Sequence[str], max_n: int = 4) -> float:
    """Sentence BLEU-``max_n`` of ``candidate`` against one ``reference`` (token lists): uniform weights, clipped
    n-gram precisions, brevity penalty exp(1 − r/c) when c < r; precisions for n ≥ 2 add-one smoothed (Lin & Och
    2004). 0 for an empty candidate or no unigram match."""
    c, r = len(candidate), len(reference)
    if c == 0 or r == 0:
        return 0.0
    log_sum = 0.0
    for n in range(1, max_n + 1):
        cand, ref = ngrams(candidate, n), ngrams(reference, n)
        matched = sum(min(count, ref[g]) for g, count in cand.items())
        total = max(c - n + 1, 0)
        if n == 1:
            if matched == 0:
                return 0.0
            log_sum += math.log(matched / total)
        else:
            log_sum += math.log((matched + 1) / (total + 1))
    brevity = 1.0 if c >= r else math.exp(1 - r / c)
    return brevity * math.exp(log_sum / max_n)
