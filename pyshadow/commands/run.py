"""``pyshadow run [PROBLEMS_DIR]``: the main job on a problem set — generate, verify, score the samples
(docs/commands.md#run)."""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from ..errors import EXIT_NEGATIVE, EXIT_OK
from ..lean.backends import lean_backend
from ..lean.toolchain import toolchain_fingerprint
from ..paths import default_workspace_dir
from ..problems import load_sample_candidates
from ..score.candidates import Candidate
from ..score.pipeline import prepare_candidate, prepare_problem
from ..score.verification import INCOMPLETE, unloadable_report
from ..workspace import build_workspace, write_workspace
from ..progress import set_default
from .helptext import add_command
from .common import add_lean_arguments, choose_tier, lean_settings, load_problem_set
from .verify import completeness_summary


def register(subparsers) -> None:
    p = add_command(subparsers, "run", "the main job: generate, verify and score the bundled problems",
                    "run problems -o build/workspace")
    p.add_argument("problems", nargs="?", type=Path, metavar="PROBLEMS_DIR",
                   help="problems folder (default: ./problems, else bundled)")
    p.add_argument("-o", "--output", type=Path, metavar="WORKSPACE",
                   help="Lake workspace to write (default: ./build/workspace)")
    add_lean_arguments(p, tier=False, workspace=False)
    p.set_defaults(handler=run, mutate=True)


def run(args: argparse.Namespace) -> int:
    set_default(True)  # progress on Lean jobs: a bar on a terminal, plain lines in a log
    settings = lean_settings(args)
    _, problems, load_errors = load_problem_set(args.problems)
    output = args.output or default_workspace_dir()
    build = build_workspace(problems)
    written = write_workspace(output, build.files)
    n_checkers = sum(len(t.checkers.checkers) for plan in build.plans for t in plan.targets)
    print(f"generated {n_checkers} checkers for {len(build.plans)} problems into {_shown(output)} "
          f"({len(written.written)} files written, {len(written.unchanged)} unchanged)")
    for problem_id, reason in build.skipped:
        print(f"no checkers for {problem_id}: {reason}")

    chosen = choose_tier(settings)
    tier, lean = chosen.name, chosen.lean
    infos = {p.id: prepare_problem(p) for p in problems}
    if tier == "kernel":
        print("verifying with the kernel tier (no full Lean toolchain: prelude-mode Lean 4.35 checks the logic)")
    else:
        print(f"verifying with the full toolchain ({lean.path})")
    samples = [(p, sc) for p in problems for sc in load_sample_candidates(p)]
    fingerprint = toolchain_fingerprint(lean)
    prepared = [prepare_candidate(Candidate(p.id, "sample", sc.path.read_text(encoding="utf-8"), str(sc.path)),
                                  infos[p.id], tier, fingerprint) for p, sc in samples]
    with lean_backend(settings, announce=print):
        reports = chosen.verify(list(infos.values()))
        rows = {row.origin: row for row in chosen.score(prepared)}
    by_problem = {r["problem_id"]: r for r in reports}
    reports += [unloadable_report(str(e.path), tier, str(e)) for e in load_errors]

    print()
    print(f"{'problem':<28} {'lvl':<3} {'targets':>7} {'shadows':>8}  completeness")
    for problem in problems:
        info = infos[problem.id]
        report = by_problem[problem.id]
        shadows = "+".join(str(len(t.merged.shadows)) if t.ok else "-" for t in info.targets)
        print(f"{problem.id:<28} {problem.level:<3} {len(info.targets):>7} {shadows:>8}  {report['status']}")
    for err in load_errors:
        print(f"{err.path.parent.name:<28} {'-':<3} {'-':>7} {'-':>8}  {INCOMPLETE} (does not load)")
    for report in reports:
        for target in report["targets"]:
            for item in target.get("unchecked", ()):
                print(f"  unchecked: {report['problem_id']}: {target['target']}: expert shadow {item['shadow']} "
                      f"`{item['statement']}`: {item['reason']}")

    label = chosen.measure
    print()
    print(f"sample candidates ({label}; forward / backward / audit, as expected?)")
    per_kind: dict[str, list[bool]] = defaultdict(list)
    mismatches = []
    for (problem, sc), prep in zip(samples, prepared):
        row = rows[prep.candidate.origin]
        d = row.to_dict()  # statement-level verdicts, recorded even when the audit fails the candidate
        ok = sc.matches(d, tier)
        per_kind[sc.kind].append(ok)
        if not ok:
            audit = "flagged" if d["audit"] else "clean"
            want = "undecided" if sc.undecided_under(tier) else f"{sc.forward}/{sc.backward}"
            mismatches.append(f"  {problem.id}/{sc.name}: got forward={all(d['forward'])} backward={d['backward']} "
                              f"undecided={bool(d.get('undecided'))} audit={audit}, expected {want}/{sc.audit}")
    print(f"{'kind':<26} {'candidates':>10} {'as expected':>12}")
    for kind in sorted(per_kind):
        print(f"{kind:<26} {len(per_kind[kind]):>10} {sum(per_kind[kind]):>12}")
    for line in mismatches:
        print(line)
    as_expected = sum(sum(v) for v in per_kind.values())
    print()
    print(f"{len(reports)} problems: {completeness_summary(reports)} ({tier} tier); "
          f"{len(samples)} sample candidates: {as_expected}/{len(samples)} as expected ({label})")
    all_complete = all(r["complete"] for r in reports)
    return EXIT_OK if all_complete and as_expected == len(samples) else EXIT_NEGATIVE


def _shown(path: Path) -> str:
    """``path`` relative to the working directory when it is below it (shorter, and the same on every machine)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
