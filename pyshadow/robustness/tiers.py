"""Which Lean scores a variant: the kernel tier (skeleton SA-Pass) here, the full tier where a toolchain exists.

A tier takes ``VariantJob`` s — a reference target and one rewrite of it — and returns, per job, one verdict per
checker of the reference: ``forward:i`` for shadow *i* of ``pyshadow.shadows.decompose`` (same order) and
``backward``. The robustness matrix is built from those verdicts and knows nothing else about the tier, so the full
tier plugs in by implementing ``Tier.score`` (checkers of ``full_tier_checkers`` against the variant compiled as a
candidate module) without touching the matrix or the reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, Sequence

from ..errors import EXIT_UNAVAILABLE, Unavailable
from ..syntax.ast import Declaration
from .variants import Variant

EXIT_TIER_UNAVAILABLE = EXIT_UNAVAILABLE
TIERS = ("kernel", "full")


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


@dataclass
class Verdicts:
    """A tier's answer for one job: pass/fail per checker id, and why each failed."""

    passed: dict[str, bool]
    messages: dict[str, str] = field(default_factory=dict)
    error: str | None = None


class Tier(Protocol):
    name: str
    description: str

    def score(self, jobs: Sequence[VariantJob]) -> dict[str, Verdicts]: ...


class KernelTier:
    """Skeleton SA-Pass (``pyshadow.kernel.skeleton``): each variant scored exactly like a candidate statement."""

    name = "kernel"
    description = "kernel tier: skeleton SA-Pass, checked by prelude-mode Lean 4.35"

    def __init__(self, *, n_jobs: int = -1, cache_dir: Path | None = None):
        from ..lean.toolchain import kernel_lean

        self.lean = kernel_lean()  # KernelTierUnavailable is a PyshadowError: one line, its own exit code
        self.n_jobs = n_jobs
        self.cache_dir = cache_dir

    def score(self, jobs: Sequence[VariantJob]) -> dict[str, Verdicts]:
        from ..kernel.skeleton import SkeletonPair, skeleton_score

        pairs = [SkeletonPair(j.key, j.reference, j.variant.declaration, j.mathlib) for j in jobs]
        verdicts = skeleton_score(pairs, self.lean, n_jobs=self.n_jobs, cache_dir=self.cache_dir)
        out: dict[str, Verdicts] = {}
        for job in jobs:
            v = verdicts[job.key]
            passed = {f"forward:{i}": ok for i, ok in enumerate(v.forward, start=1)}
            passed["backward"] = bool(v.backward)
            out[job.key] = Verdicts(passed, dict(v.messages), v.error)
        return out


class FullTier:
    """The full toolchain (``lean`` + ``lake`` with ``Init``, Mathlib where needed).

    Scoring a variant here means compiling it as a candidate module and running the problem's
    ``full_tier_checkers`` against it; that runner is not built yet, so this tier reports itself unavailable
    with the reason.
    """

    name = "full"
    description = "full tier: the problem's checkers compiled against the variant by lean + lake"

    def __init__(self, **_options):
        from ..lean.toolchain import find_full_toolchain

        if find_full_toolchain() is None:
            raise TierUnavailable("the full tier is not available here: no lean + lake with Init on PATH "
                                  "(use --tier kernel)")
        raise TierUnavailable("the full tier is not available here: a toolchain was found, but compiling "
                              "variants as candidates is not implemented yet (use --tier kernel)")

    def score(self, jobs: Sequence[VariantJob]) -> dict[str, Verdicts]:  # pragma: no cover - see __init__
        raise NotImplementedError


def make_tier(name: str, *, n_jobs: int = -1, cache_dir: Path | None = None) -> Tier:
    if name == "kernel":
        return KernelTier(n_jobs=n_jobs, cache_dir=cache_dir)
    if name == "full":
        return FullTier(n_jobs=n_jobs, cache_dir=cache_dir)
    raise ValueError(f"unknown tier {name!r}; expected one of {', '.join(TIERS)}")
