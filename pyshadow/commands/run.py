"""``pyshadow run [PROBLEMS_DIR]``: the main job — generate every problem's checkers and verify what the
available Lean can verify (the kernel tier here; see README "Two tiers"), then print a short table."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..kernel.check import blocks_for, check_blocks
from ..lean.toolchain import find_full_toolchain, kernel_lean
from ..paths import PROBLEMS_DIR
from ..problems import load_problems, reference_text
from ..references import TargetNotFound, TargetParseError, target_declaration
from ..shadows import decompose


def register(subparsers) -> None:
    p = subparsers.add_parser("run", help="generate and verify the checkers of a problem set (default: bundled)")
    p.add_argument("problems", nargs="?", type=Path, default=PROBLEMS_DIR, help="problems folder")
    p.add_argument("-j", "--jobs", type=int, default=-1, help="parallel Lean processes (default: all cores)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    problems, errors = load_problems(args.problems)
    for err in errors:
        print(f"skipped: {err}")
    rows, items = [], []
    for problem in problems:
        src = reference_text(problem)
        for target in problem.targets:
            key = f"{problem.id}:{target}"
            try:
                decl = target_declaration(src, target)
            except TargetParseError as err:
                rows.append((problem, target, None, f"parse error: {err}"))
                continue
            except TargetNotFound:
                rows.append((problem, target, None, "target not found"))
                continue
            if decl.type is None:
                rows.append((problem, target, None, "target not found"))
                continue
            dec = decompose(decl, mathlib=problem.needs_mathlib)
            rows.append((problem, target, dec, None))
            items.append((key, decl, problem.needs_mathlib))
    full = find_full_toolchain()
    lean = kernel_lean()
    tier = "full toolchain found; this release verifies with the kernel tier" if full else \
        "no full Lean toolchain: verifying with the kernel tier (prelude-mode Lean 4.35)"
    reports = check_blocks(blocks_for(items, mutants=True), lean, n_jobs=args.jobs)
    print(tier)
    print(f"{'problem':<28} {'lvl':<3} {'target':<34} {'shadows':>7}  {'status':<10} kernel")
    complete = 0
    for problem, target, dec, error in rows:
        if dec is None:
            print(f"{problem.id:<28} {problem.level:<3} {target:<34} {'-':>7}  {'error':<10} {error}")
            continue
        rep = reports[f"{problem.id}:{target}"]
        mutants = rep.mutants_rejected
        verdict = "complete" if rep.all_accepted else "FAILED: " + "; ".join(rep.messages.values())
        if mutants:
            verdict += f" (mutants rejected {sum(mutants.values())}/{len(mutants)})"
        complete += rep.all_accepted
        print(f"{problem.id:<28} {problem.level:<3} {target:<34} {len(dec.shadows):>7}  {dec.status:<10} {verdict}")
    print(f"{len(problems)} problems, {len(rows)} targets, kernel-complete {complete}/{len(rows)}")
    print("sample candidates: skeleton scoring is not implemented yet (see the open scoring issue)")
    return 0 if complete == len(rows) and not errors else 1
