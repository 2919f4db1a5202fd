"""``pyshadow score PROBLEMS_DIR CANDIDATES -o RESULTS.jsonl [--tier full|kernel]``: SA-Pass of candidate files.

CANDIDATES is a folder of ``<problem_id>.lean`` files (one system, ``--system`` or the folder's name), a folder of
``<system>/<problem_id>.lean``, or a JSONL file of ``{"problem_id", "system", "code"}`` objects.

Per candidate: the trust gate (``pyshadow audit``; any finding fails it, and nothing of it is compiled), the
checked declaration (the last with the target's name), rule-based renaming, then the checks —

* ``--tier full``: the candidate compiled as its own module, one Lean process for every forward check and the
  backward check, its own ``#print axioms`` audited (``pyshadow.score.full``);
* ``--tier kernel`` (the default when no full toolchain is on PATH): **skeleton SA-Pass**, the candidate's
  statement checked against the shadows on abstracted atoms; its proof is not checked.

One JSON row per candidate is appended to RESULTS.jsonl as it finishes (problem_id, system, tier, audit findings,
compiled, every check with its verdict and message, SA-Pass, SA-Pass_soft, Fwd, Bwd, Fwd_all, bucket,
content_hash). A rerun skips candidates already in the file with the same content hash. Bad input — an unknown
problem, an empty or non-UTF-8 file, a JSONL line without ``code`` — becomes a row with the reason; the rest goes
on. Then RESULTS.summary.md and RESULTS.by_<grouping>.csv are written beside it: per system, area, level and
system × level, titled full or skeleton SA-Pass, with the compile − SA-Pass gap as its own column.

LLM options (``--llm …``): the adapter fallback for names rule-based renaming cannot resolve is not wired in yet;
any mode other than ``none`` is refused with exit code 2 (see docs/llm.md for the layer itself).

Exit codes: 0 scored (failing candidates are data); 2 bad input (unreadable CANDIDATES, no problems folder, a
Mathlib problem in the full tier without ``--workspace``); 3 the requested Lean tier is not available here
(``--tier full`` without a full toolchain, or no kernel-tier lean); 1 internal error.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import BadInput
from ..lean.toolchain import toolchain_fingerprint
from ..llm import add_llm_arguments
from ..problems import load_problems
from ..score.candidates import Candidate, load_candidates
from ..score.metrics import sa_pass
from ..score.pipeline import PreparedCandidate, ScoreRow, error_row, kernel_rows, prepare_candidate, prepare_problem
from ..score.report import ResultsLog, read_rows, summary_paths, write_summaries
from .verify import EXIT_UNAVAILABLE, add_tier_arguments, choose_lean, default_workspace


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "score", help="score candidate formalizations (SA-Pass, SA-Pass_soft, Fwd, Bwd, compile rate)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("problems", type=Path, help="problems folder")
    p.add_argument("candidates", type=Path, help="candidates: a folder of .lean files or a .jsonl file")
    p.add_argument("-o", "--output", type=Path, required=True, help="RESULTS.jsonl (appended to; resumable)")
    p.add_argument("--system", help="system name for a flat folder or JSONL lines without one")
    p.add_argument("--layout", choices=("auto", "flat", "per_system"), default="auto",
                   help="how to read a candidates folder (default: auto)")
    add_tier_arguments(p)
    add_llm_arguments(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "llm", "none") != "none":
        raise BadInput("--llm: the LLM adapter fallback is not wired into scoring yet; use --llm none")
    problems, problem_errors = load_problems(args.problems)
    for err in problem_errors:
        print(f"skipped problem: {err}")
    infos = {p.id: prepare_problem(p) for p in problems}
    loaded = load_candidates(args.candidates, infos.keys(), system=args.system, layout=args.layout)
    chosen = choose_lean(args.tier)
    if chosen is None:
        return EXIT_UNAVAILABLE
    tier, lean = chosen
    fingerprint = toolchain_fingerprint(lean)
    done = read_rows(args.output)

    rows: list[ScoreRow] = []  # this run's rows, in input order, for the summaries
    fresh: list[ScoreRow] = []
    pending: list[PreparedCandidate] = []
    order: dict[str, int] = {}
    for entry in loaded:
        if isinstance(entry, Candidate):
            prepared = prepare_candidate(entry, infos[entry.problem_id], tier, fingerprint)
            digest = prepared.content_hash
        else:
            row = error_row(entry, tier, fingerprint, infos)
            digest = row.content_hash
        order[digest] = len(order)
        if digest in done:
            rows.append(done[digest])
        elif isinstance(entry, Candidate):
            pending.append(prepared)
        else:
            fresh.append(row)
    workspace = None
    if tier == "full":
        if args.workspace is None and any(p.info.problem.needs_mathlib for p in pending):
            first = next(p.info.id for p in pending if p.info.problem.needs_mathlib)
            raise BadInput(f"{first} needs Mathlib: pass --workspace DIR (a Lake workspace with Mathlib built)")
        workspace = default_workspace(args.workspace)

    reused = len(rows)
    with ResultsLog(args.output) as log:
        for row in fresh:
            log.append(row)
            rows.append(row)
        for row in score_pending(pending, tier, lean, args, workspace):
            log.append(row)
            rows.append(row)
    rows.sort(key=lambda r: order.get(r.content_hash, len(order)))
    written = write_summaries(rows, args.output, tier)
    print_summary(rows, tier, reused, lean, args.output, written)
    return 0


def score_pending(pending: list[PreparedCandidate], tier: str, lean, args: argparse.Namespace,
                  workspace: Path | None):
    if tier == "full":
        from ..score.full import full_rows

        return full_rows(pending, lean, workspace=workspace, n_jobs=args.jobs, timeout_s=args.timeout,
                         memory_mb=args.memory_mb)
    return kernel_rows(pending, lean, n_jobs=args.jobs, cache_dir=args.cache)


def print_summary(rows: list[ScoreRow], tier: str, reused: int, lean, output: Path, written: list[Path]) -> None:
    measure = "skeleton SA-Pass (kernel tier)" if tier == "kernel" else "SA-Pass (full tier)"
    print(f"lean: {lean.path} ({lean.tier} toolchain, Lean {lean.version}); {measure}")
    by_system: dict[str, list[ScoreRow]] = {}
    for row in rows:
        if row.counted:
            by_system.setdefault(row.system or "", []).append(row)
    for system, group in sorted(by_system.items()):
        passed = sum(sa_pass(r.score) for r in group)
        compiled = sum(r.score.compiled for r in group)
        print(f"{system:<28} SA-Pass {passed}/{len(group)}  compiled {compiled}/{len(group)}")
    failed = [r for r in rows if r.reason]
    if failed:
        print(f"{len(failed)} candidates failed before or instead of their checks (bad input, audit, compile); "
              f"first: {failed[0].origin}: {failed[0].reason}")
    md, _ = summary_paths(output)
    print(f"{len(rows)} rows ({reused} reused from {output}); summaries: {md}"
          + (f" and {len(written) - 1} CSV files" if len(written) > 1 else ""))
