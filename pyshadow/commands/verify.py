"""``pyshadow verify PROBLEMS_DIR [-o REPORT.jsonl] [--tier full|kernel]``: is every problem's shadow set complete?

Per problem: complete or incomplete, and every checker that failed with Lean's message (failing checkers are
listed, never dropped). Complete means, for every target T: T ⇒ Sᵢ for each shadow (the forward checkers compile
against the reference) and ⋀ Sᵢ ⇒ T (the certificate compiles).

* ``--tier kernel`` (the default when no full toolchain is on PATH): the kernel tier (``pyshadow.kernel.check``),
  each target abstracted into prelude-mode Lean; ``--mutate`` adds negative controls Lean must reject.
* ``--tier full``: one ``lean`` process per problem — in ``--workspace`` (a Lake workspace such as the one
  ``pyshadow generate`` writes: ``lake env lean``; needed for Mathlib problems), else the repository's own
  core-only Lake project — on the reference with its targets restated as axioms (their proofs may be ``sorry``),
  followed by the forward checkers and the certificate (``pyshadow.score.full``).

A Mathlib problem without ``--workspace`` is reported incomplete with that reason.

Exit codes: 0 every problem complete; 1 internal error; 2 bad input (no problems folder, no problem loads,
``--workspace`` not a Lake workspace); 3 the requested Lean tier is not available here (``--tier full`` without
a full toolchain, or no kernel-tier lean could be built); 4 some problem is incomplete or malformed (details in
the output and the report).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..corpus import JsonlWriter
from ..errors import BadInput
from ..kernel.check import blocks_for, check_blocks
from ..lean.batch import LeanJob, run_jobs
from ..lean.runner import is_lake_workspace
from ..lean.toolchain import KernelTierUnavailable, LeanExecutable, find_full_toolchain, kernel_lean
from ..paths import PROBLEMS_DIR, REPO_DIR
from ..problems import load_problems
from ..score.full import reference_check_file, reference_sorry
from ..score.pipeline import ProblemInfo, prepare_problem
from ..progress import set_default

EXIT_UNAVAILABLE = 3
EXIT_INCOMPLETE = 4


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "verify", help="check that each problem's shadow set is complete (T ⇒ Sᵢ and ⋀ Sᵢ ⇒ T)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("problems", nargs="?", type=Path, default=PROBLEMS_DIR, help="problems folder (default: bundled)")
    p.add_argument("-o", "--output", type=Path, help="JSONL report: one object per problem")
    add_tier_arguments(p)
    p.add_argument("--mutate", action="store_true", help="kernel tier: add mutants that Lean must reject")
    p.set_defaults(handler=run)


def add_tier_arguments(p: argparse.ArgumentParser) -> None:
    """The options ``verify`` and ``score`` share: tier, workspace, parallelism, cache and limits."""
    p.add_argument("--tier", choices=("full", "kernel"),
                   help="full: real Lean with Init/Mathlib; kernel: prelude-mode Lean on abstracted statements "
                        "(default: full when a full toolchain is on PATH, else kernel). "
                        "--tier full without a full toolchain exits with code 3")
    p.add_argument("--workspace", type=Path,
                   help="full tier: the Lake workspace to run in, e.g. the one `pyshadow generate` writes (needed "
                        "for Mathlib problems, with Mathlib built; default: the repository's core-only Lake project)")
    p.add_argument("-j", "--jobs", type=int, default=-1, help="parallel Lean processes (default: all cores)")
    p.add_argument("--cache", type=Path,
                   help="result cache directory: reruns of unchanged Lean files start no Lean (verify: both tiers; "
                        "score: kernel tier — full-tier scores resume from RESULTS.jsonl instead)")
    p.add_argument("--timeout", type=float, default=120, help="seconds per Lean process (default 120)")
    p.add_argument("--memory-mb", type=int, default=4096, help="resident memory cap per Lean process (MB)")


def choose_lean(requested: str | None) -> tuple[str, LeanExecutable] | None:
    """The tier and its ``lean``; None (after printing one line) when the requested tier is unavailable."""
    full = find_full_toolchain()
    tier = requested or ("full" if full else "kernel")
    if tier == "full":
        if full is None:
            print("no full Lean toolchain (lean and lake with Init) on PATH: the full tier cannot run here; "
                  "use --tier kernel")
            return None
        return tier, full
    try:
        return tier, kernel_lean()
    except KernelTierUnavailable as err:
        print(f"the kernel tier is unavailable: {err}")
        return None


def default_workspace(requested: Path | None) -> Path | None:
    """``--workspace`` (checked to be a Lake workspace), else the repository's own core-only Lake project."""
    if requested is not None:
        if not is_lake_workspace(requested):
            raise BadInput(f"{requested}: not a Lake workspace (no lakefile.toml or lakefile.lean)")
        return requested
    return REPO_DIR if is_lake_workspace(REPO_DIR) else None


NEEDS_WORKSPACE = "needs Mathlib: pass --workspace DIR (a Lake workspace with Mathlib built)"


def run(args: argparse.Namespace) -> int:
    set_default(True)  # progress on Lean jobs: a bar on a terminal, plain lines in a log
    problems, errors = load_problems(args.problems)
    if not problems and errors:
        raise BadInput(f"no problem in {args.problems} loads; first error: {errors[0]}")
    chosen = choose_lean(args.tier)
    if chosen is None:
        return EXIT_UNAVAILABLE
    tier, lean = chosen
    infos = [prepare_problem(p) for p in problems]
    if tier == "kernel":
        reports = kernel_reports(infos, lean, args)
    else:
        reports = full_reports(infos, lean, args, default_workspace(args.workspace))
    reports += [{"problem_id": None, "origin": str(e.path), "tier": tier, "complete": False, "targets": [],
                 "error": str(e)} for e in errors]
    with JsonlWriter(args.output) as out:
        for report in reports:
            out.write(report)
    print(f"lean: {lean.path} ({lean.tier} toolchain, Lean {lean.version}); verifying with the {tier} tier")
    for report in reports:
        print_report(report)
    complete = sum(r["complete"] for r in reports)
    print(f"verified {len(reports)} problems ({tier} tier): complete {complete}/{len(reports)}")
    return 0 if complete == len(reports) else EXIT_INCOMPLETE


def print_report(report: dict[str, Any]) -> None:
    name = report["problem_id"] or report.get("origin", "?")
    if report["complete"]:
        print(f"{name:<32} complete")
        return
    print(f"{name:<32} INCOMPLETE" + (f": {report['error']}" if report.get("error") else ""))
    for target in report["targets"]:
        if target.get("error"):
            print(f"  {target['target']}: {target['error']}")
        for check in target["checks"]:
            if not check["passed"]:
                print(f"  {target['target']}: {check['name']}: {check['message']}")


def _problem_report(info: ProblemInfo, tier: str, targets: list[dict[str, Any]]) -> dict[str, Any]:
    return {"problem_id": info.id, "tier": tier, "complete": bool(targets) and all(t["complete"] for t in targets),
            "targets": targets, "error": None}


def _target_report(name: str, status: str, checks: list[dict[str, Any]], error: str | None = None,
                   **extra: Any) -> dict[str, Any]:
    complete = error is None and bool(checks) and all(c["passed"] for c in checks)
    return {"target": name, "status": status, "complete": complete, "checks": checks, "error": error, **extra}


def _check(name: str, kind: str, passed: bool, message: str, shadow: int | None = None) -> dict[str, Any]:
    return {"name": name, "kind": kind, "shadow": shadow, "passed": passed, "message": message}


# ---------------------------------------------------------------------------------------------------------------
# Kernel tier


def kernel_reports(infos: list[ProblemInfo], lean: LeanExecutable, args: argparse.Namespace) -> list[dict]:
    items = [(f"{i.id}:{t.name}", t.declaration, i.problem.needs_mathlib)
             for i in infos for t in i.targets if t.decomposition is not None]
    statements = check_blocks(blocks_for(items, mutants=args.mutate), lean, n_jobs=args.jobs,
                              cache_dir=args.cache)
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


def full_reports(infos: list[ProblemInfo], lean: LeanExecutable, args: argparse.Namespace,
                 workspace: Path | None) -> list[dict]:
    jobs, files = [], {}
    for info in infos:
        if info.problem.needs_mathlib and args.workspace is None:
            continue
        if any(t.decomposition is not None for t in info.targets):
            file, allowed = reference_check_file(info)
            files[info.id] = file
            jobs.append(LeanJob(info.id, file.text, tuple(file.spans), allowed, args.timeout, workspace=workspace))
    results = {r.key: r for r in run_jobs(jobs, lean, n_jobs=args.jobs, cache_dir=args.cache,
                                          memory_mb=args.memory_mb)}
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
