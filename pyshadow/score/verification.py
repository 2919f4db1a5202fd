"""Is a problem's shadow set complete? One report per problem, in either Lean tier, in one vocabulary.

For every target T: T ⇒ Sᵢ for each shadow (the forward checkers) and ⋀ Sᵢ ⇒ T (the certificate). A problem's
``status`` is one of

* ``complete`` — every target's checkers were accepted by Lean, and every target has a real shadow set;
* ``complete (identity shadow only)`` — every checker accepted, but some target is residual with nothing added:
  its only shadow is the target itself, so its completeness is trivial (an author should add expert shadows);
* ``incomplete`` — some checker was rejected, or a target could not be read or checked (its row says why).

``run``, ``verify`` and ``check-problem`` print exactly these words. The kernel tier abstracts each target into
prelude-mode Lean (``pyshadow.kernel.check``); the full tier runs one ``lean`` per problem on the reference with
its targets restated as axioms, followed by the checkers (``pyshadow.score.full``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..kernel.check import blocks_for, check_blocks
from ..lean.batch import LeanJob, run_jobs
from ..lean.settings import LeanSettings
from ..lean.toolchain import LeanExecutable
from .full import reference_check_file, reference_sorry
from .pipeline import ProblemInfo

COMPLETE = "complete"
COMPLETE_IDENTITY_ONLY = "complete (identity shadow only)"
INCOMPLETE = "incomplete"
NEEDS_WORKSPACE = "needs Mathlib: pass --workspace DIR (a Lake workspace with Mathlib built)"


def problem_status(complete: bool, targets: Any) -> str:
    """The status word of a problem whose checks did (``complete``) or did not all pass."""
    if not complete:
        return INCOMPLETE
    return COMPLETE_IDENTITY_ONLY if any(t.identity_only for t in targets) else COMPLETE


def unloadable_report(origin: str, tier: str, error: str) -> dict[str, Any]:
    """The report row of a problem that did not load (a malformed ``problem.toml``): data, not a crash."""
    return {"problem_id": None, "origin": origin, "tier": tier, "complete": False, "status": INCOMPLETE,
            "targets": [], "error": error}


def _problem_report(info: ProblemInfo, tier: str, targets: list[dict[str, Any]]) -> dict[str, Any]:
    complete = bool(targets) and all(t["complete"] for t in targets)
    return {"problem_id": info.id, "tier": tier, "complete": complete,
            "status": problem_status(complete, info.targets), "targets": targets, "error": None}


def _target_report(name: str, status: str, checks: list[dict[str, Any]], error: str | None = None,
                   **extra: Any) -> dict[str, Any]:
    complete = error is None and bool(checks) and all(c["passed"] for c in checks)
    return {"target": name, "status": status, "complete": complete, "checks": checks, "error": error, **extra}


def _check(name: str, kind: str, passed: bool, message: str, shadow: int | None = None) -> dict[str, Any]:
    return {"name": name, "kind": kind, "shadow": shadow, "passed": passed, "message": message}


# ---------------------------------------------------------------------------------------------------------------
# Kernel tier


def kernel_reports(infos: list[ProblemInfo], lean: LeanExecutable, settings: LeanSettings) -> list[dict]:
    items = [(f"{i.id}:{t.name}", t.declaration, i.problem.needs_mathlib)
             for i in infos for t in i.targets if t.decomposition is not None]
    statements = check_blocks(blocks_for(items, mutants=settings.mutate), lean, n_jobs=settings.jobs,
                              cache_dir=settings.cache)
    reports = []
    for info in infos:
        targets = []
        for t in info.targets:
            if t.decomposition is None:
                targets.append(_target_report(t.name, "error", [], t.error))
                continue
            rep = statements[f"{info.id}:{t.name}"]
            checks = []
            for role, ok in rep.accepted.items():
                kind, _, index = role.partition(":")
                checks.append(_check(f"{t.name}:{role}", kind, ok, "passed" if ok else rep.messages.get(role, ""),
                                     int(index) if index else None))
            extra = {"mutants_rejected": rep.mutants_rejected} if rep.mutants_rejected else {}
            error = rep.error or next((f"mutant {r} accepted" for r, ok in rep.mutants_rejected.items() if not ok),
                                      None)
            targets.append(_target_report(t.name, rep.status, checks, error, **extra))
        reports.append(_problem_report(info, "kernel", targets))
    return reports


# ---------------------------------------------------------------------------------------------------------------
# Full tier


def full_reports(infos: list[ProblemInfo], lean: LeanExecutable, settings: LeanSettings,
                 workspace: Path | None) -> list[dict]:
    jobs, files = [], {}
    for info in infos:
        if info.problem.needs_mathlib and settings.workspace is None:
            continue
        if any(t.decomposition is not None for t in info.targets):
            file, allowed = reference_check_file(info)
            files[info.id] = file
            jobs.append(LeanJob(info.id, file.text, tuple(file.spans), allowed, settings.timeout, workspace=workspace))
    results = {r.key: r for r in run_jobs(jobs, lean, n_jobs=settings.jobs, cache_dir=settings.cache,
                                          memory_mb=settings.memory_mb)}
    reports = []
    for info in infos:
        sorry = reference_sorry(info.reference, [t.name for t in info.targets])
        if info.id not in files:
            targets = [_target_report(t.name, "error", [], t.error or NEEDS_WORKSPACE) for t in info.targets]
            reports.append(_problem_report(info, "full", targets))
            continue
        targets = []
        for t in info.targets:
            if t.decomposition is None:
                targets.append(_target_report(t.name, "error", [], t.error))
                continue
            file, result = files[info.id], results[info.id]
            checks = [_check(name, role.kind, result.verdicts[name].passed, result.verdicts[name].reason,
                             role.shadow)
                      for name, role in file.roles.items() if role.target == t.name]
            status = "atomic" if t.decomposition.residual else "decomposed"
            error = None if result.status == "ok" else f"Lean {result.status}: {result.detail}"
            targets.append(_target_report(t.name, status, checks, error, reference_sorry=sorry[t.name]))
        reports.append(_problem_report(info, "full", targets))
    return reports
