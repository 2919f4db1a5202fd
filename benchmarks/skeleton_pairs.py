"""Skeleton SA-Pass on labelled statement pairs: ``python benchmarks/skeleton_pairs.py [PAIRS.jsonl] [-o OUT]``.

Side ``a`` of each pair is the reference, side ``b`` the candidate (``pyshadow.kernel.pairs``). Prints recall
(same-meaning pairs passed), precision (passed pairs that are same-meaning; the bar is that no changed pair passes),
the undecided rate, per pair family and per diff category, as markdown; then the throughput in candidates per
second (wall clock, ``--jobs`` Lean processes; the bar is ≥ 40/s on two cores). ``-o`` writes one JSON row per pair.

With ``--llm replay|record|live`` (and ``--llm-cache``, ``--llm-model``, budgets: the options of ``pyshadow score``,
docs/llm.md) each undecided pair's atom pairs are asked about and a *skeleton + LLM* recall / precision is reported
beside the skeleton's (``pyshadow.kernel.pairs.judge_undecided``) — a model's opinion, not a Lean check.

Bars (issue #17): no changed pair passes; ≥ 90% of same-meaning pairs pass; undecided ≤ 10%.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from pyshadow.kernel.pairs import evaluate, judge_undecided, read_pairs, summarize, summary_markdown  # noqa: E402
from pyshadow.lean.toolchain import kernel_lean  # noqa: E402
from pyshadow.llm import add_llm_arguments, client_from_args  # noqa: E402
from pyshadow.llm.same_term import AtomPairJudge  # noqa: E402

DEFAULT_PAIRS = REPO / "tests" / "fixtures" / "pairs" / "dev_pairs.jsonl"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pairs", nargs="?", type=Path, default=DEFAULT_PAIRS)
    ap.add_argument("-o", "--output", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-lean-check", action="store_true",
                    help="skip Lean's check of the terms against the elaborated statements (to measure its cost)")
    ap.add_argument("--lean-checked-only", dest="lean_checked_only", action="store_true", default=True,
                    help="strict scoring, the default (as pyshadow's): a pass Lean did not check is undecided")
    ap.add_argument("--allow-unchecked", dest="lean_checked_only", action="store_false",
                    help="lenient: a pass that rests on the skeleton's readings alone stands, marked unchecked")
    add_llm_arguments(ap)
    args = ap.parse_args(argv)
    client = client_from_args(args)  # a missing LLM setting stops the run before any work
    pairs = read_pairs(args.pairs)
    lean = kernel_lean()
    with tempfile.TemporaryDirectory() as tmp:  # no result cache: every pair is checked by Lean in this run
        start = time.perf_counter()
        results = evaluate(pairs, lean, n_jobs=args.jobs, cache_dir=Path(tmp), lean_checked=not args.no_lean_check,
                           strict=args.lean_checked_only)
        elapsed = time.perf_counter() - start
    if client.mode != "none":
        judge_undecided(results, AtomPairJudge(client))
    print(summary_markdown(summarize(results)))
    print(f"\n{len(pairs)} pairs in {elapsed:.1f}s: {len(pairs) / elapsed:.1f} candidates/s ({args.jobs} Lean jobs)")
    if client.mode != "none":
        print("skeleton+LLM columns: a model's answers on the undecided atom pairs (its opinion, not a Lean check)")
        for line in client.accounting.summary_lines():
            print(line)
    if args.output:
        args.output.write_text("".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in results),
                               encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
