"""Is a problem's shadow set complete? One report per problem, in either Lean tier, in one vocabulary.

For every target T: T ⇒ Sᵢ for each shadow (the forward checkers) and ⋀ Sᵢ ⇒ T (the certificate). A problem's
``status`` is one of

* ``complete`` — every target's checkers were accepted by Lean, and every target has a real shadow set;
* ``complete (identity shadow only)`` — every checker accepted, but some target is residual with nothing added:
  its only shadow is the target itself, so its completeness is trivial (an author should add expert shadows);
* ``unchecked`` — every checker the tier ran was accepted, but some expert (or LLM) shadow was not shown to follow
  from its target: the kernel tier cannot read an expert statement's mathematics, so it checks T ⇒ S with the
  skeleton search (atoms abstracted; a term Lean accepts is a proof), and a shadow the search cannot prove —
  ``n ^ 2 + n = 7 ∧ False`` — is *unchecked*, never counted toward ``complete`` (the full tier checks it);
* ``incomplete`` — some checker was rejected, or a target could not be read or checked (its row says why).

A target's report lists its unchecked shadows under ``unchecked`` (index in the merged set, statement, why).

``run``, ``verify`` and ``check-problem`` print exactly these words. The kernel tier abstracts each target into
prelude-mode Lean (``pyshadow.kernel.check``); the full tier runs one ``lean`` per problem on the reference with
its targets restated as axioms, followed by the checkers (``pyshadow.score.full``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from ..kernel.check import blocks_for, check_blocks
from ..kernel.skeleton import SkeletonPair
from ..kernel.scoring import skeleton_score
from ..lean.batch import LeanJob, run_jobs
from ..lean.settings import LeanSettings
from ..lean.toolchain import LeanExecutable
from ..shadows.expert import CONSEQUENCE_KINDS
from ..syntax import render_term
from .full import reference_check_file, reference_sorry
from .pipeline import ProblemInfo

COMPLETE = "complete"
COMPLETE_IDENTITY_ONLY = "complete (identity shadow only)"
INCOMPLETE = "incomplete"
UNCHECKED = "unchecked"
NEEDS_WORKSPACE = "needs Mathlib: pass --workspace DIR (a Lake workspace with Mathlib built)"


def problem_status(complete: bool, targets: Any, unchecked: bool = False) -> str:
    """The status word of a problem whose checks did (``complete``) or did not all pass; ``unchecked`` when some
    expert shadow was not checked (only said of a problem whose checks all passed)."""
    if not complete:
        return INCOMPLETE
    if unchecked:
        return UNCHECKED
    return COMPLETE_IDENTITY_ONLY if any(t.identity_only for t in targets) else COMPLETE


def unloadable_report(origin: str, tier: str, error: str) -> dict[str, Any]:
    """The report row of a problem that did not load (a malformed ``problem.toml``): data, not a crash."""
    return {"problem_id": None, "origin": origin, "tier": tier, "complete": False, "status": INCOMPLETE,
            "targets": [], "error": error}


def _problem_report(info: ProblemInfo, tier: str, targets: list[dict[str, Any]]) -> dict[str, Any]:
    passed = bool(targets) and all(t["error"] is None and t["checks"] and all(c["passed"] for c in t["checks"])
                                   for t in targets)
    unchecked = any(t["unchecked"] for t in targets)
    return {"problem_id": info.id, "tier": tier, "complete": passed and not unchecked,
            "status": problem_status(passed, info.targets, unchecked), "targets": targets, "error": None}


def _target_report(name: str, status: str, checks: list[dict[str, Any]], error: str | None = None,
                   unchecked: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    """``complete`` only when every check passed and no shadow is left ``unchecked``."""
    unchecked = unchecked or []
    complete = error is None and bool(checks) and all(c["passed"] for c in checks) and not unchecked
    return {"target": name, "status": status, "complete": complete, "checks": checks, "error": error,
            "unchecked": unchecked, **extra}


def _check(name: str, kind: str, passed: bool, message: str, shadow: int | None = None) -> dict[str, Any]:
    return {"name": name, "kind": kind, "shadow": shadow, "passed": passed, "message": message}


# ---------------------------------------------------------------------------------------------------------------
# Kernel tier


def kernel_reports(infos: list[ProblemInfo], lean: LeanExecutable, settings: LeanSettings) -> list[dict]:
    items = [(f"{i.id}:{t.name}", t.declaration, i.problem.needs_mathlib)
             for i in infos for t in i.targets if t.decomposition is not None]
    statements = check_blocks(blocks_for(items, mutants=settings.mutate), lean, n_jobs=settings.jobs,
                              cache_dir=settings.cache)
    consequences = expert_consequences(infos, lean, settings)
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
            unchecked = []
            for index, shadow in expert_shadows(t):
                verdict = consequences.get(f"{info.id}:{t.name}:{index}")
                if verdict is not None and verdict.error is None and verdict.forward == [True]:  # T ⇒ S only
                    checks.append(_check(f"{t.name}:expert:{index}", "expert", True,
                                         "passed (T ⇒ S by the skeleton search)", index))
                    continue
                why = (verdict.error or verdict.messages.get("forward:1")) if verdict is not None else None
                unchecked.append({"shadow": index, "statement": render_term(shadow.statement),
                                  "reason": "the kernel tier could not show that the target implies it"
                                            + (f" ({why})" if why else "") + "; the full tier checks it"})
            targets.append(_target_report(t.name, rep.status, checks, error, unchecked, **extra))
        reports.append(_problem_report(info, "kernel", targets))
    return reports


def with_expert_shadows(t: Any) -> Any:
    """``t`` checked with its merged shadow set (the full tier: expert shadows included)."""
    return t.checked_with(t.merged) if t.ok and t.merged is not None else t


def expert_shadows(t: Any) -> list[tuple[int, Any]]:
    """The expert and LLM shadows of a target, with their 1-based index in its merged shadow set."""
    merged = t.merged.shadows if t.merged is not None else ()
    return [(i, s) for i, s in enumerate(merged, start=1) if s.kind in CONSEQUENCE_KINDS]


def expert_consequences(infos: list[ProblemInfo], lean: LeanExecutable, settings: LeanSettings) -> dict[str, Any]:
    """T ⇒ S for every expert shadow S of every target T, by the skeleton search (one check each: the shadow as
    a whole statement over the target's binders, the target as the axiom); keyed ``problem:target:index``."""
    pairs = []
    for info in infos:
        for t in info.targets:
            if t.decomposition is None or t.declaration is None:
                continue
            for index, shadow in expert_shadows(t):
                claim = replace(t.declaration, type=shadow.statement)
                pairs.append(SkeletonPair(f"{info.id}:{t.name}:{index}", claim, t.declaration,
                                          info.problem.needs_mathlib, info.context, info.context, whole=True))
    if not pairs:
        return {}
    return skeleton_score(pairs, lean, n_jobs=settings.jobs, cache_dir=settings.cache, recheck=False)


# ---------------------------------------------------------------------------------------------------------------
# Full tier


def full_reports(infos: list[ProblemInfo], lean: LeanExecutable, settings: LeanSettings,
                 workspace: Path | None) -> list[dict]:
    # The full tier checks the merged shadow set: the expert shadows get forward checkers (``simpa``) too.
    infos = [replace(i, targets=tuple(with_expert_shadows(t) for t in i.targets)) for i in infos]
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
