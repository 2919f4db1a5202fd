"""Skeleton SA-Pass on the precision corpus, per reading: ``python benchmarks/precision_corpus.py [-o OUT]``.

Runs tests/fixtures/precision/precision_pairs.jsonl (changed statements tagged with the reading they guard, and
same-meaning controls) through the kernel tier and prints, as markdown, per reading: changed pairs passed (the bar
is zero), undecided, and controls passed; then every changed pair that passes, with its reading and note — each one
is a soundness bug of that reading. ``-o`` writes one JSON row per pair (``pyshadow.kernel.pairs`` rows plus
``reading``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from pyshadow.kernel.pairs import evaluate, read_pairs  # noqa: E402
from pyshadow.lean.toolchain import kernel_lean  # noqa: E402

CORPUS = REPO / "tests" / "fixtures" / "precision" / "precision_pairs.jsonl"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    ap.add_argument("-o", "--output", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    rows = {r["id"]: r for r in map(json.loads, args.corpus.read_text(encoding="utf-8").splitlines()) if r}
    with tempfile.TemporaryDirectory() as tmp:  # no result cache: every pair is checked by Lean in this run
        results = evaluate(read_pairs(args.corpus), kernel_lean(), n_jobs=args.jobs, cache_dir=Path(tmp))
    table: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in results:
        t = table[rows[r.pair.id]["reading"]]
        kind = "same" if r.pair.same_meaning else "changed"
        t[kind] += 1
        t[f"{kind}_{r.verdict}"] += 1
    total = defaultdict(int)
    print("| reading | changed | changed passed | changed undecided | controls | controls passed |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for reading, t in sorted(table.items()):
        for k, v in t.items():
            total[k] += v
        print(f"| {reading} | {t['changed']} | {t['changed_pass']} | {t['changed_undecided']} | {t['same']} | "
              f"{t['same_pass']} |")
    print(f"| **all** | {total['changed']} | {total['changed_pass']} | {total['changed_undecided']} | "
          f"{total['same']} | {total['same_pass']} |")
    passed = [r for r in results if r.verdict == "pass" and not r.pair.same_meaning]
    print(f"\nchanged pairs that pass ({len(passed)}):")
    for r in passed:
        print(f"- {r.pair.id} [{rows[r.pair.id]['reading']}]: {rows[r.pair.id]['note']}")
    if args.output:
        args.output.write_text("".join(json.dumps(dict(r.to_dict(), reading=rows[r.pair.id]["reading"]),
                                                  ensure_ascii=False) + "\n" for r in results), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
