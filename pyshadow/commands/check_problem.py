"""``pyshadow check-problem DIR``: is this problem ready, and if not, exactly what must its author fix?
(docs/commands.md#check-problem)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import EXIT_NEGATIVE, EXIT_OK
from ..lean.backends import lean_backend
from ..lean.settings import LeanSettings
from ..lean.toolchain import find_full_toolchain
from ..lint import ERROR, format_finding, lint_lean
from ..problems import Problem, load_problem
from ..references import ReferenceTarget
from ..score.pipeline import prepare_problem
from ..score.tiers import Tier
from ..score.verification import (COMPLETE, INCOMPLETE, UNCHECKED,
                                  expert_shadows, with_expert_shadows)
from ..syntax import render_term
from .common import add_lean_arguments, choose_tier, lean_settings
from .helptext import add_command

KERNEL_SCOPE = ("it checks each checker's logical skeleton (projections, iff directions, equality splits, the "
                "certificate), not tactics, notation or Mathlib names")


def register(subparsers) -> None:
    p = add_command(subparsers, "check-problem", "validate one problem and say exactly what its author must fix",
                    "check-problem problems/nat_pos_facts")
    p.add_argument("problem", type=Path, metavar="DIR", help="the problem folder (holding problem.toml)")
    add_lean_arguments(p)
    p.set_defaults(handler=run, mutate=False)


def run(args: argparse.Namespace) -> int:
    settings = lean_settings(args)
    problem = load_problem(args.problem)  # ProblemError: its one-line message as is, exit 2
    chosen, why = _tier(problem, settings)
    tier = chosen.name
    info = prepare_problem(problem)
    # The full tier checks the merged set (expert shadows by ``simpa`` forward checkers), the kernel tier the
    # generated one and each expert shadow by the skeleton search (``pyshadow.score.verification``).
    targets = [with_expert_shadows(t) if tier == "full" else t for t in info.targets]
    fixes = [fix for t in targets for fix in t.fixes]
    notes = []
    for t in targets:
        if t.identity_only:
            fixes.append(f"{problem.problem_file}: target {t.name} has only the identity shadow (its conclusion "
                         f"`{render_term(t.declaration.type)}` is atomic for the rules): add expert shadows — "
                         f"[[shadows]] tables with target = \"{t.name}\" and a statement each")
    for _, finding in lint_lean(info.reference, str(problem.reference), problem.informal_statement):  # pyshadow lint
        (fixes if finding.severity == ERROR else notes).append(format_finding(str(problem.reference), finding))
    n = len(problem.targets)
    print(f"check-problem {problem.id} ({problem.level}, {problem.area}): {n} target{'s' if n != 1 else ''}, "
          f"reference {problem.reference}")
    print(f"lean: {tier} tier — {why}")

    reports: dict[str, dict[str, Any]] = {}
    status = INCOMPLETE
    if any(t.ok for t in targets):
        with lean_backend(settings, announce=print):
            report = chosen.verify([info])[0]
        reports = {t["target"]: t for t in report["targets"]}
        status = report["status"]
    unchecked = []
    for t in targets:
        print(f"  {t.name}: {_target_line(t, reports.get(t.name), fixes)}")
        for item in (reports.get(t.name) or {}).get("unchecked", []):
            unchecked.append(f"{t.name}: expert shadow {item['shadow']} `{item['statement']}`: {item['reason']}")
    for note in notes:
        print(f"note: {note}")
    if unchecked:
        print(f"unchecked ({len(unchecked)}; not counted toward complete):")
        for line in unchecked:
            print(f"  {line}")
    if fixes:
        print(f"to fix ({len(fixes)}):")
        for fix in fixes:
            print(f"  {fix}")
        if status in (COMPLETE, UNCHECKED):  # an expert shadow that does not parse: the checked set passed, the
            status = INCOMPLETE              # file did not
        print(f"{status}: {problem.id} has {len(fixes)} thing{'s' if len(fixes) != 1 else ''} to fix")
        return EXIT_NEGATIVE
    if status == UNCHECKED:
        n = len(unchecked)
        print(f"{status}: {n} expert shadow{'s' if n != 1 else ''} of {problem.id} not checked by the {tier} tier "
              "(verify with the full tier: a Lean toolchain, with Mathlib if the problem needs it)")
        return EXIT_NEGATIVE
    print(f"{status}: every shadow set of {problem.id} is complete ({tier} tier)")
    return EXIT_OK


def _tier(problem: Problem, settings: LeanSettings) -> tuple[Tier, str]:
    """(tier, why this tier); ``Unavailable`` (exit 3) when the requested tier cannot run here."""
    requested = settings.tier
    if requested is None and problem.needs_mathlib and settings.workspace is None and find_full_toolchain():
        requested = "kernel"
        why = ("a full toolchain is on PATH, but this problem needs Mathlib: pass --workspace DIR (a Lake workspace "
               "with Mathlib built) to verify with it")
    elif requested == "kernel":
        why = "requested"
    else:
        why = "no full Lean toolchain on PATH"
    tier = choose_tier(settings, requested)
    lean = tier.lean
    if tier.name == "full":
        where = settings.workspace or "the checkout's core-only Lake project"
        return tier, f"{lean.path} (Lean {lean.version}) in {where}"
    return tier, f"Lean {lean.version} in prelude mode ({why}); {KERNEL_SCOPE}"


def _target_line(t: ReferenceTarget, report: dict[str, Any] | None, fixes: list[str]) -> str:
    """One status line for a target; each failed check becomes a fix naming the shadow it checks."""
    if t.decomposition is None:
        return f"not checked ({t.error})"
    shadows = t.decomposition.shadows
    experts = len(expert_shadows(t))
    if not t.residual:
        status = "decomposed"
    elif experts:
        status = f"residual: the identity shadow and {experts} expert shadow{'s' if experts != 1 else ''}"
    else:
        status = "residual: identity shadow only"
    n = len(t.merged.shadows) if t.merged is not None else len(shadows)
    head = f"{n} shadow{'s' if n != 1 else ''} ({status})"
    if report is None:
        return f"{head}; no verdict"
    if report.get("error"):
        fixes.append(f"{t.name}: {report['error']}")
    failed = [c for c in report["checks"] if not c["passed"]]
    for check in failed:
        fixes.append(f"Lean rejected {_describe(check, t)} of {t.name}: {check['message']}")
    checks = len(report["checks"])
    if failed:
        return f"{head}; Lean rejected {len(failed)} of {checks} checker{'s' if checks != 1 else ''}"
    accepted = "its checker" if checks == 1 else f"all {checks} checkers"
    left = len(report.get("unchecked", ()))
    if left:
        return f"{head}; Lean accepted {accepted}; {left} expert shadow{'s' if left != 1 else ''} unchecked"
    return f"{head}; Lean accepted {accepted}" + ("" if report["complete"] else " (incomplete)")


def _describe(check: dict[str, Any], t: ReferenceTarget) -> str:
    if check["kind"] in ("backward", "certificate"):
        return "the backward certificate (the shadows together imply the target)"
    index = check.get("shadow")
    shadows = t.merged.shadows if check["kind"] == "expert" and t.merged is not None else t.decomposition.shadows
    if index is None or not 1 <= index <= len(shadows):
        return f"checker {check['name']}"
    shadow = shadows[index - 1]
    return f"the forward checker of shadow {index} ({shadow.kind} `{shadow.path_text}`: {render_term(shadow.statement)})"
