"""Several samples per (system, problem): pass@k and mean@k.

A system may submit ``n`` samples for a problem (``sample`` ids; ``pyshadow.score.candidates``), of which ``c``
pass (SA-Pass, or skeleton SA-Pass in the kernel tier; an undecided sample does not pass). Per (system, problem):

- **pass@k** — the probability that at least one of ``k`` samples drawn without replacement from the ``n`` passes,
  the unbiased estimator of Chen et al. (2021, "Evaluating Large Language Models Trained on Code", eq. 1):
  ``1 − C(n−c, k) / C(n, k)``; defined for ``k ≤ n`` only (``None`` otherwise — nothing is extrapolated);
- **mean@k** — the expected fraction of passing samples among ``k`` drawn the same way. Its unbiased estimator is
  ``c / n`` for every ``k ≤ n`` (each drawn sample passes with probability ``c / n``), so one column holds it.

Per system the figures are means over **every problem of the set**: a problem the system did not submit (or that
did not load) counts 0, as in the leaderboard columns of the report. A system's pass@k is undefined ("—") when
one of its submitted problems has fewer than ``k`` samples. All values are exact fractions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

DEFAULT_KS: tuple[int, ...] = (1, 5, 10)
LARGER_KS: tuple[int, ...] = (20, 50, 100)


def pass_at_k(n: int, c: int, k: int) -> Fraction | None:
    """``1 − C(n−c, k) / C(n, k)`` for ``1 ≤ k ≤ n`` and ``0 ≤ c ≤ n``; None when ``k > n``."""
    if not 0 <= c <= n:
        raise ValueError(f"passes must be within 0..{n}, got {c}")
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    if k > n:
        return None
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def mean_at_k(n: int, c: int) -> Fraction | None:
    """``c / n``: the unbiased estimate of the fraction of k samples that pass, for every ``k ≤ n``."""
    return Fraction(c, n) if n else None


def ks_for(max_samples: int) -> tuple[int, ...]:
    """The k columns: always 1, 5, 10 (a fixed schema), then 20, 50, 100 where some problem has that many."""
    return DEFAULT_KS + tuple(k for k in LARGER_KS if k <= max_samples)


@dataclass(frozen=True)
class ProblemSamples:
    """One (system, problem): ``n`` samples, ``c`` of them passing."""

    system: str
    problem_id: str
    n: int
    c: int

    def pass_at(self, k: int) -> Fraction | None:
        return pass_at_k(self.n, self.c, k)

    @property
    def mean(self) -> Fraction | None:
        return mean_at_k(self.n, self.c)


@dataclass(frozen=True)
class SystemSamples:
    """One system over the problem set: pass@k per k (None: undefined) and mean@k, each a mean over ``problems``."""

    system: str
    problems: int  # the set's problems (the denominator)
    submitted: int  # problems with at least one sample
    samples: int
    min_samples: int  # fewest samples on a submitted problem
    max_samples: int
    pass_at: Mapping[int, Fraction | None]
    mean: Fraction


def per_problem(outcomes: Iterable[tuple[str, str, bool]]) -> list[ProblemSamples]:
    """``(system, problem_id, passed)`` per sample → one ``ProblemSamples`` per (system, problem), sorted."""
    counts: dict[tuple[str, str], list[int]] = {}
    for system, problem_id, passed in outcomes:
        nc = counts.setdefault((system, problem_id), [0, 0])
        nc[0] += 1
        nc[1] += bool(passed)
    return [ProblemSamples(s, p, n, c) for (s, p), (n, c) in sorted(counts.items())]


def per_system(groups: Sequence[ProblemSamples], problems: Iterable[str], ks: Sequence[int]) -> list[SystemSamples]:
    """Per system, pass@k and mean@k averaged over ``problems`` (every problem of the set; missing ones count 0).
    A (system, problem) outside ``problems`` still enters the system's figures (it is then added to the set)."""
    universe = set(problems) | {g.problem_id for g in groups}
    total = len(universe)
    out = []
    for system in sorted({g.system for g in groups}):
        mine = [g for g in groups if g.system == system]
        pass_at: dict[int, Fraction | None] = {}
        for k in ks:
            values = [g.pass_at(k) for g in mine]
            pass_at[k] = None if any(v is None for v in values) else sum(values, Fraction(0)) / total
        mean = sum((g.mean or Fraction(0) for g in mine), Fraction(0)) / total
        out.append(SystemSamples(system, total, len(mine), sum(g.n for g in mine), min(g.n for g in mine),
                                 max(g.n for g in mine), pass_at, mean))
    return out
