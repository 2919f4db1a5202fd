"""Coverage of the signature environment: ``python benchmarks/env_coverage.py [CORPUS.jsonl …]``.

Every statement of the corpora (default: ../shared/corpora/dev.jsonl and tests/fixtures/corpus/*.jsonl) is printed
for Lean and elaborated against ``PyshadowEnv`` (``pyshadow.elab.elaborate``). Prints, per corpus, how many
elaborate, how many Lean rejects and how many are not printed; then what is missing, most frequent first: the
constants Lean names as unknown, Lean's other first errors, and the notations or context commands not printed.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from pyshadow.elab.elaborate import StatementInput, elaborate  # noqa: E402
from pyshadow.lean.toolchain import kernel_lean  # noqa: E402

DEFAULT = [REPO.parent / "shared" / "corpora" / "dev.jsonl", *sorted((REPO / "tests/fixtures/corpus").glob("*.jsonl"))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpora", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    lean = kernel_lean()
    unknown, rejected, unprinted = collections.Counter(), collections.Counter(), collections.Counter()
    print("| corpus | statements | elaborated | rejected by Lean | not printed | s |")
    print("|---|---:|---:|---:|---:|---:|")
    for path in args.corpora:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        items = [StatementInput(r["id"], r["statement"], r.get("context") or "") for r in rows]
        start = time.perf_counter()
        results = elaborate(items, lean)
        elapsed = time.perf_counter() - start
        counts = collections.Counter(r.status for r in results)
        n = len(results)
        print(f"| {path.name} | {n} | {counts['elaborated']} ({100 * counts['elaborated'] / max(n, 1):.1f}%) "
              f"| {counts['rejected']} | {counts['untranslatable'] + counts['unparsed']} | {elapsed:.1f} |")
        for r in results:
            if r.unknown:
                unknown[r.unknown] += 1
            elif r.status == "rejected":
                rejected[r.reason[:70]] += 1
            elif r.status in ("untranslatable", "unparsed"):
                unprinted[r.reason.removeprefix("not printed for Lean: ")[:70]] += 1
    for title, counter in (("constants missing (Lean: unknown identifier/constant)", unknown),
                           ("other Lean errors", rejected), ("not printed for Lean", unprinted)):
        print(f"\n{title}:")
        for what, count in counter.most_common(args.top):
            print(f"  {count:4d}  {what}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
