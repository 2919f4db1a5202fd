"""Lean's elaborator on labelled pairs: ``python benchmarks/elaboration_pairs.py PAIRS.jsonl …``.

For each pair file: how many pairs Lean elaborates on both sides in the signature environment, how many it proves
definitionally equal (``pyshadow.elab.equivalence``), per label — the bar is that no changed pair is equal — and,
beside it, the pairs' verdict (``pyshadow.kernel.pairs.evaluate``: skeleton SA-Pass, or Lean-equal where the
skeleton search does not pass). Prints one markdown table.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from pyshadow.elab.elaborate import StatementInput  # noqa: E402
from pyshadow.elab.equivalence import definitional_equivalence  # noqa: E402
from pyshadow.kernel.pairs import evaluate, read_pairs  # noqa: E402
from pyshadow.lean.toolchain import kernel_lean  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pairs", nargs="+", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    lean = kernel_lean()
    print("| pairs | same: elaborated both | same: Lean-equal | same: pass | changed: Lean-equal | changed: pass "
          "| s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for path in args.pairs:
        pairs = read_pairs(path)
        start = time.perf_counter()
        eq = definitional_equivalence([(p.id, StatementInput(p.id, p.a, p.a_context),
                                        StatementInput(p.id, p.b, p.b_context)) for p in pairs], lean)
        elapsed = time.perf_counter() - start
        with tempfile.TemporaryDirectory() as tmp:
            skeleton = evaluate(pairs, lean, n_jobs=args.jobs, cache_dir=Path(tmp))
        same = [i for i, p in enumerate(pairs) if p.same_meaning]
        changed = [i for i, p in enumerate(pairs) if not p.same_meaning]
        both = sum(eq[i].status != "unelaborated" for i in same)
        lean_eq = sum(eq[i].equal for i in same)
        passed = sum(skeleton[i].verdict == "pass" for i in same)
        changed_eq = sum(eq[i].equal for i in changed)
        changed_passed = sum(skeleton[i].verdict == "pass" for i in changed)
        n = len(same)
        print(f"| {path.name} | {both}/{n} | {lean_eq}/{n} | {passed}/{n} ({100 * passed / max(n, 1):.1f}%) "
              f"| {changed_eq}/{len(changed)} | {changed_passed}/{len(changed)} | {elapsed:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
