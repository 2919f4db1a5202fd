"""``pyshadow check-problem DIR``: is this problem ready, and if not, exactly what must its author fix?

The problem is loaded (a malformed ``problem.toml`` is reported as ``load_problem`` words it, exit 2). Each target
is found in the reference under its fully qualified name and parsed (``pyshadow.references``), decomposed, its
expert shadows parsed and merged, and its checkers verified by real Lean — the full toolchain when one is on PATH
(``--workspace`` for Mathlib problems), else the kernel tier; the output says which. What the author must fix is
listed one line each:

* a target that is not declared or does not parse — ``Reference.lean:LINE:COLUMN`` in the reference file;
* a residual target (only the identity shadow): add expert shadows (``[[shadows]]`` in ``problem.toml``);
* an expert shadow whose statement does not parse;
* a checker Lean rejected, with the shadow it checks and Lean's message;
* an error of ``pyshadow lint`` on the reference (its warnings are printed as notes).

Exit codes: 0 complete (every target's shadow set verified complete, none residual without expert shadows); 1
something to fix (listed); 2 malformed input (``problem.toml`` or the folder); 3 the requested Lean tier is not
available here (``--tier full`` without a full toolchain, or no kernel-tier lean).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..lean.toolchain import find_full_toolchain
from ..lint import ERROR, format_finding, lint_lean
from ..problems import Problem, load_problem, reference_text
from ..references import TargetNotFound, TargetParseError, target_declaration
from ..syntax.scanner import declaration_headers
from ..score.pipeline import ProblemInfo, TargetInfo, problem_context
from ..shadows.merge import ExpertShadowError, merge_shadows, parse_expert_statement
from ..shadows.rules import Decomposition, decompose, uncheckable_reason
from ..syntax import render_term
from .verify import EXIT_UNAVAILABLE, add_tier_arguments, choose_lean, default_workspace, full_reports, kernel_reports

EXIT_COMPLETE = 0
EXIT_FIX = 1
KERNEL_SCOPE = ("it checks each checker's logical skeleton (projections, iff directions, equality splits, the "
                "certificate), not tactics, notation or Mathlib names")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "check-problem", help="validate one problem and say exactly what its author must fix",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("problem", type=Path, metavar="DIR", help="the problem folder (holding problem.toml)")
    add_tier_arguments(p)
    p.set_defaults(handler=run, mutate=False)


def run(args: argparse.Namespace) -> int:
    problem = load_problem(args.problem)  # ProblemError: its one-line message as is, exit 2
    tier, lean, why = _tier(problem, args)
    if lean is None:  # choose_lean has said why
        return EXIT_UNAVAILABLE
    src = reference_text(problem)
    fixes: list[str] = []
    notes: list[str] = []
    targets = [_target(problem, src, name, tier, fixes, notes) for name in problem.targets]
    for _, finding in lint_lean(src, str(problem.reference), problem.informal_statement):  # pyshadow lint
        (fixes if finding.severity == ERROR else notes).append(format_finding(str(problem.reference), finding))
    n = len(problem.targets)
    print(f"check-problem {problem.id} ({problem.level}, {problem.area}): {n} target{'s' if n != 1 else ''}, "
          f"reference {problem.reference}")
    print(f"lean: {tier} tier — {why}")

    info = ProblemInfo(problem, src, problem_context(src, problem.targets), declaration_headers(src), tuple(targets))
    checkable = [t for t in targets if t.decomposition is not None]
    reports: dict[str, dict[str, Any]] = {}
    if checkable:
        if tier == "kernel":
            report = kernel_reports([info], lean, args)[0]
        else:
            report = full_reports([info], lean, args, default_workspace(args.workspace))[0]
        reports = {t["target"]: t for t in report["targets"]}
    for t in targets:
        print(f"  {t.name}: {_target_line(t, reports.get(t.name), fixes)}")
    for note in notes:
        print(f"note: {note}")
    if fixes:
        print(f"to fix ({len(fixes)}):")
        for fix in fixes:
            print(f"  {fix}")
        print(f"incomplete: {problem.id} has {len(fixes)} thing{'s' if len(fixes) != 1 else ''} to fix")
        return EXIT_FIX
    print(f"complete: every shadow set of {problem.id} is complete ({tier} tier)")
    return EXIT_COMPLETE


def _tier(problem: Problem, args: argparse.Namespace) -> tuple[str, Any, str]:
    """(tier, lean or None, why this tier)."""
    requested = args.tier
    if requested is None and problem.needs_mathlib and args.workspace is None and find_full_toolchain():
        requested = "kernel"
        why = ("a full toolchain is on PATH, but this problem needs Mathlib: pass --workspace DIR (a Lake workspace "
               "with Mathlib built) to verify with it")
    elif requested == "kernel":
        why = "requested"
    else:
        why = "no full Lean toolchain on PATH"
    chosen = choose_lean(requested)  # prints one line when the tier is unavailable
    if chosen is None:
        return requested or "kernel", None, ""
    tier, lean = chosen
    if tier == "full":
        where = args.workspace or "the repository's core-only Lake project"
        return tier, lean, f"{lean.path} (Lean {lean.version}) in {where}"
    return tier, lean, f"Lean {lean.version} in prelude mode ({why}); {KERNEL_SCOPE}"


def _target(problem: Problem, src: str, name: str, tier: str, fixes: list[str], notes: list[str]) -> TargetInfo:
    """The target found, parsed, decomposed and merged with its expert shadows; what is wrong goes to ``fixes``."""
    try:
        decl = target_declaration(src, name)
    except TargetNotFound as err:
        fixes.append(f"{problem.problem_file}: target {name}: {err}")
        return TargetInfo(name, error=str(err))
    except TargetParseError as err:
        fixes.append(f"{problem.reference}:{err.line}:{err.column}: target {name} does not parse: {err.reason}")
        return TargetInfo(name, error=f"does not parse: {err.reason}")
    if reason := uncheckable_reason(decl):
        fixes.append(f"{problem.reference}: target {name}: {reason}")
        return TargetInfo(name, decl, error=reason)
    generated = decompose(decl, mathlib=problem.needs_mathlib)
    experts = []
    for index, shadow in enumerate(problem.expert_shadows):
        if shadow.target != name:
            continue
        try:
            parse_expert_statement(index, shadow)
            experts.append(shadow)
        except ExpertShadowError as err:
            fixes.append(f"{problem.problem_file}: shadows[{index + 1}]: {err}")
    if generated.residual and not experts:
        fixes.append(f"{problem.problem_file}: target {name} has only the identity shadow (its conclusion "
                     f"`{render_term(decl.type)}` is atomic for the rules): add expert shadows — [[shadows]] tables "
                     f"with target = \"{name}\" and a statement each")
    merged: Decomposition = merge_shadows(generated, experts)[0] if experts else generated
    if experts and tier == "kernel":
        notes.append(f"{len(experts)} expert shadow(s) of {name} parse; the kernel tier checks the generated shadows "
                     "only — the full tier checks the expert ones (`simpa` forward checkers)")
    return TargetInfo(name, decl, merged if tier == "full" else generated)


def _target_line(t: TargetInfo, report: dict[str, Any] | None, fixes: list[str]) -> str:
    """One status line for a target; each failed check becomes a fix naming the shadow it checks."""
    if t.decomposition is None:
        return f"not checked ({t.error})"
    shadows = t.decomposition.shadows
    status = "residual: identity shadow only" if t.decomposition.residual else "decomposed"
    head = f"{len(shadows)} shadow{'s' if len(shadows) != 1 else ''} ({status})"
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
    return f"{head}; Lean accepted {accepted}" + ("" if report["complete"] else " (incomplete)")


def _describe(check: dict[str, Any], t: TargetInfo) -> str:
    if check["kind"] in ("backward", "certificate"):
        return "the backward certificate (the shadows together imply the target)"
    index = check.get("shadow")
    if index is None or not 1 <= index <= len(t.decomposition.shadows):
        return f"checker {check['name']}"
    shadow = t.decomposition.shadows[index - 1]
    return f"the forward checker of shadow {index} ({shadow.kind} `{shadow.path_text}`: {render_term(shadow.statement)})"
