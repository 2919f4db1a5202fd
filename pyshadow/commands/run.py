"""``pyshadow run [PROBLEMS_DIR]``: the main job on a problem set (default: the bundled ``problems/``).

1. generate every checker into a Lake workspace (``pyshadow generate``);
2. verify completeness with the best Lean available — a full toolchain where present, else the kernel tier
   (``pyshadow verify``), saying which;
3. score the bundled sample candidates (``problems/*/candidates``): full SA-Pass with a full toolchain, else
   skeleton SA-Pass (``pyshadow score``), saying which, and compare with each candidate's expected verdict;
4. print a short table: problems, shadows per target, completeness, and per candidate kind the verdicts.

Exit 0 when every problem is complete and every sample candidate gets its expected verdict; 1 otherwise;
2 when no problem loads.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from ..errors import BadInput
from ..lean.toolchain import toolchain_fingerprint
from ..paths import PROBLEMS_DIR, REPO_DIR
from ..problems import load_problems, load_sample_candidates
from ..score.candidates import Candidate
from ..score.pipeline import prepare_candidate, prepare_problem
from ..workspace import module_names, plan_problem, read_toolchain, render_workspace, write_workspace
from ..progress import set_default
from .score import score_pending
from .verify import EXIT_UNAVAILABLE, choose_lean, default_workspace, full_reports, kernel_reports


def register(subparsers) -> None:
    p = subparsers.add_parser("run", help="the main job: generate, verify and score the bundled problems")
    p.add_argument("problems", nargs="?", type=Path, default=PROBLEMS_DIR, help="problems folder")
    p.add_argument("--workspace", type=Path, default=REPO_DIR / "build" / "workspace",
                   help="where the generated Lake workspace is written (default: build/workspace)")
    p.add_argument("-j", "--jobs", type=int, default=-1, help="parallel Lean processes (default: all cores)")
    p.set_defaults(handler=run, tier=None, mutate=True, cache=None, timeout=120.0, memory_mb=4096)


def run(args: argparse.Namespace) -> int:
    set_default(True)  # progress on Lean jobs: a bar on a terminal, plain lines in a log
    problems, errors = load_problems(args.problems)
    for err in errors:
        print(f"skipped problem: {err}")
    if not problems:
        raise BadInput(f"no problem in {args.problems} loads")

    modules = module_names([p.id for p in problems])
    plans = [plan_problem(p, modules[p.id]) for p in problems]
    files, _ = render_workspace(plans, read_toolchain())
    written = write_workspace(args.workspace, files)
    n_checkers = sum(len(t.checkers.checkers) for plan in plans for t in plan.targets if t.checkers)
    print(f"generated {n_checkers} checkers for {len(problems)} problems into {_shown(args.workspace)} "
          f"({len(written.written)} files written, {len(written.unchanged)} unchanged)")

    chosen = choose_lean(None)
    if chosen is None:
        return EXIT_UNAVAILABLE
    tier, lean = chosen
    infos = {p.id: prepare_problem(p) for p in problems}
    if tier == "kernel":
        print("verifying with the kernel tier (no full Lean toolchain: prelude-mode Lean 4.35 checks the logic)")
        reports = kernel_reports(list(infos.values()), lean, args)
    else:
        print(f"verifying with the full toolchain ({lean.path})")
        reports = full_reports(list(infos.values()), lean, args, default_workspace(None))
    by_problem = {r["problem_id"]: r for r in reports}

    samples = [(p, sc) for p in problems for sc in load_sample_candidates(p)]
    fingerprint = toolchain_fingerprint(lean)
    prepared = [prepare_candidate(Candidate(p.id, "sample", sc.path.read_text(encoding="utf-8"), str(sc.path)),
                                  infos[p.id], tier, fingerprint) for p, sc in samples]
    rows = {row.origin: row for row in score_pending(prepared, tier, lean, args, None)}

    print()
    print(f"{'problem':<28} {'lvl':<3} {'targets':>7} {'shadows':>8}  completeness")
    for plan in plans:
        report = by_problem[plan.problem.id]
        shadows = "+".join(str(len(t.checkers.forward)) if t.checkers else "-" for t in plan.targets)
        status = "complete" if report["complete"] else "INCOMPLETE"
        print(f"{plan.problem.id:<28} {plan.problem.level:<3} {len(plan.targets):>7} {shadows:>8}  {status}")
    complete = sum(r["complete"] for r in reports)

    label = "skeleton SA-Pass" if tier == "kernel" else "SA-Pass"
    print()
    print(f"sample candidates ({label}; forward / backward / audit, as expected?)")
    per_kind: dict[str, list[bool]] = defaultdict(list)
    mismatches = []
    for (problem, sc), prep in zip(samples, prepared):
        row = rows[prep.candidate.origin]
        d = row.to_dict()  # statement-level verdicts, recorded even when the audit fails the candidate
        got = (all(d["forward"]), d["backward"], "flagged" if d["audit"] else "clean")
        ok = got == (sc.forward, sc.backward, sc.audit)
        per_kind[sc.kind].append(ok)
        if not ok:
            mismatches.append(f"  {problem.id}/{sc.name}: got forward={got[0]} backward={got[1]} audit={got[2]}, "
                              f"expected {sc.forward}/{sc.backward}/{sc.audit}")
    print(f"{'kind':<26} {'candidates':>10} {'as expected':>12}")
    for kind in sorted(per_kind):
        print(f"{kind:<26} {len(per_kind[kind]):>10} {sum(per_kind[kind]):>12}")
    for line in mismatches:
        print(line)
    as_expected = sum(sum(v) for v in per_kind.values())
    print()
    print(f"{len(problems)} problems: {complete}/{len(reports)} complete ({tier} tier); "
          f"{len(samples)} sample candidates: {as_expected}/{len(samples)} as expected ({label})")
    return 0 if complete == len(reports) and as_expected == len(samples) and not errors else 1


def _shown(path: Path) -> str:
    """``path`` relative to the working directory when it is below it (shorter, and the same on every machine)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
