"""Skeleton SA-Pass on labelled statement pairs: ``python benchmarks/skeleton_pairs.py [PAIRS.jsonl] [-o OUT]``.

Side ``a`` of each pair is the reference, side ``b`` the candidate (``pyshadow.kernel.pairs``). Prints recall
(same-meaning pairs passed), precision (passed pairs that are same-meaning; the bar is that no changed pair passes),
the undecided rate, per pair family and per diff category, as markdown; then the throughput in candidates per
second (wall clock, ``--jobs`` Lean processes; the bar is ≥ 40/s on two cores). ``-o`` writes one JSON row per pair.

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

from pyshadow.kernel.pairs import evaluate, read_pairs, summarize, summary_markdown  # noqa: E402
from pyshadow.lean.toolchain import kernel_lean  # noqa: E402

DEFAULT_PAIRS = REPO / "tests" / "fixtures" / "pairs" / "dev_pairs.jsonl"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pairs", nargs="?", type=Path, default=DEFAULT_PAIRS)
    ap.add_argument("-o", "--output", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    pairs = read_pairs(args.pairs)
    lean = kernel_lean()
    with tempfile.TemporaryDirectory() as tmp:  # no result cache: every pair is checked by Lean in this run
        start = time.perf_counter()
        results = evaluate(pairs, lean, n_jobs=args.jobs, cache_dir=Path(tmp))
        elapsed = time.perf_counter() - start
    print(summary_markdown(summarize(results)))
    print(f"\n{len(pairs)} pairs in {elapsed:.1f}s: {len(pairs) / elapsed:.1f} candidates/s ({args.jobs} Lean jobs)")
    if args.output:
        args.output.write_text("".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in results),
                               encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
