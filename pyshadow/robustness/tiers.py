"""Which Lean scores a variant: the run's one ``Tier`` (``pyshadow.score.tiers``), seen through variant jobs.

A variant tier takes ``VariantJob`` s — a reference target and one rewrite of it — and returns, per job, one
verdict per checker of the reference: ``forward:i`` for shadow *i* of ``pyshadow.shadows.decompose`` (same order)
and ``backward``. ``VariantTier`` adapts the run's ``Tier`` (its ``judge_statements``): the kernel tier scores each
variant by skeleton SA-Pass exactly like a candidate statement; the full tier says it cannot judge variants yet
(exit 3) before any work. The robustness matrix knows nothing else about the tier.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, Sequence

from ..errors import EXIT_UNAVAILABLE, Unavailable
from ..lean.settings import LeanSettings
from ..score.tiers import StatementPair, StatementVerdict
from ..score.tiers import KernelTier as _KernelLeanTier
from ..score.tiers import Tier as LeanTier
from ..syntax.ast import Declaration
from .variants import Variant

EXIT_TIER_UNAVAILABLE = EXIT_UNAVAILABLE
TIERS = ("kernel", "full")
Verdicts = StatementVerdict  # pass/fail per checker id, and why each failed


class TierUnavailable(Unavailable):
    """The requested tier cannot run on this machine (exit code 3): the message says what is missing."""


@dataclass(frozen=True)
class VariantJob:
    """One cell row to score: ``variant`` of the reference declaration of ``target`` in ``problem_id``."""

    key: str
    problem_id: str
    target: str
    reference: Declaration
    variant: Variant
    mathlib: bool


class Tier(Protocol):
    name: str
    description: str

    def score(self, jobs: Sequence[VariantJob]) -> dict[str, Verdicts]: ...


class VariantTier:
    """The run's Lean tier, scoring variant jobs (``judge_statements``)."""

    def __init__(self, tier: LeanTier):
        if not tier.judges_statements:
            raise TierUnavailable(f"the {tier.name} tier is not available here: {tier.statements_unavailable}")
        if isinstance(tier, _KernelLeanTier) and tier.settings.lean_checked_only:
            # the matrix measures the checkers against rewrites, not how far the environment reaches: a variant
            # Lean cannot elaborate is scored by the skeleton's checks, as the reference itself is
            tier = _KernelLeanTier(tier.lean, replace(tier.settings, lean_checked_only=False))
        self.tier = tier
        self.name = tier.name
        self.description = tier.description

    def score(self, jobs: Sequence[VariantJob]) -> dict[str, Verdicts]:
        pairs = [StatementPair(j.key, j.reference, j.variant.declaration, j.mathlib) for j in jobs]
        return self.tier.judge_statements(pairs)


def KernelTier(*, n_jobs: int = -1, cache_dir: Path | None = None) -> VariantTier:  # noqa: N802 - a constructor
    """Skeleton SA-Pass by the kernel-tier lean (``KernelTierUnavailable``, exit 3, when it cannot be built)."""
    from ..lean.toolchain import kernel_lean

    return VariantTier(_KernelLeanTier(kernel_lean(), LeanSettings(tier="kernel", jobs=n_jobs, cache=cache_dir)))
