"""The robustness matrix on corpus statements: ``python benchmarks/robustness_corpus.py [CORPUS.jsonl …] [--match RE]``.

Every statement of the corpora (default: the PutnamBench/ProofNet statements of ``tests/fixtures/corpus``, ids
matching ``--match``) is the reference; each faithful variant (``pyshadow.robustness.variants``) is scored against
it by skeleton SA-Pass in the kernel tier, as ``pyshadow robustness`` scores a problem's reference. Printed: per
rewrite kind, the faithful cells (a checker of the reference on a variant) accepted / scored, the first rejected
cells with their messages, and the negative controls every checker accepts (blind controls: none may be). Statements the kernel tier cannot read (no type) are skipped and counted.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pyshadow.corpus import read_corpus  # noqa: E402
from pyshadow.kernel.skeleton import SkeletonPair
from pyshadow.kernel.scoring import skeleton_score  # noqa: E402
from pyshadow.lean.toolchain import kernel_lean  # noqa: E402
from pyshadow.robustness.matrix import checker_columns, reference_variant  # noqa: E402
from pyshadow.robustness.variants import FAITHFUL, generate_variants  # noqa: E402
from pyshadow.syntax import ParseError, parse_declaration  # noqa: E402

CORPORA = [REPO / "tests" / "fixtures" / "corpus" / "extra.jsonl",
           REPO / "tests" / "fixtures" / "corpus" / "mathlib_sample.jsonl"]
MATCH = r"PutnamBench|ProofNet|putnam"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="*", type=Path, default=CORPORA)
    ap.add_argument("--match", default=MATCH, help="regular expression the statement ids must match")
    ap.add_argument("--show", type=int, default=12, help="rejected cells to print")
    args = ap.parse_args(argv)
    pattern = re.compile(args.match)
    pairs, kinds, controls, skipped = [], {}, {}, Counter()
    columns: dict[str, list[str]] = {}
    for path in args.corpora:
        for entry in read_corpus(path):
            if entry.error or not pattern.search(entry.id):
                continue
            try:
                decl = parse_declaration(entry.statement)
            except ParseError:
                skipped["does not parse"] += 1
                continue
            if decl.type is None:
                skipped["no type"] += 1
                continue
            try:
                columns[entry.id] = [c.id for c in checker_columns(decl, True)]
                variants, _ = generate_variants(decl, mathlib=True)
            except (ValueError, TypeError) as err:
                skipped[f"no variants: {type(err).__name__}"] += 1
                continue
            for v in [reference_variant(decl), *variants]:
                key = f"{entry.id}::{v.id}"
                if v.role != FAITHFUL:
                    controls[key] = v.kind
                else:
                    kinds[key] = (entry.id, v.kind)
                pairs.append(SkeletonPair(key, decl, v.declaration, True, entry.context, entry.context))
    start = time.time()
    verdicts = skeleton_score(pairs, kernel_lean())
    elapsed = time.time() - start
    scored, accepted = Counter(), Counter()
    rejected = defaultdict(list)
    for key, (sid, kind) in kinds.items():
        v = verdicts[key]
        cells = {f"forward:{i}": ok for i, ok in enumerate(v.forward, start=1)} | {"backward": v.backward}
        for col in columns[sid]:
            ok = v.error is None and bool(cells.get(col, False))
            scored[kind] += 1
            accepted[kind] += ok
            if not ok:
                rejected[kind].append((key, col, v.error or v.messages.get(col, "no verdict")))
    statements = len({sid for sid, _ in kinds.values()})
    blind = sorted(key for key in controls if verdicts[key].passed)
    print(f"{statements} statements, {len(kinds)} faithful rows, {len(controls)} controls, skipped: "
          f"{dict(skipped) or 'none'}; {elapsed:.1f}s in Lean")
    print(f"blind controls (a changed statement every checker accepts): {len(blind)}/{len(controls)}"
          + "".join(f"\n  {key}" for key in blind))
    print("| rewrite | cells accepted | scored | rate |")
    print("| --- | ---: | ---: | ---: |")
    for kind in sorted(scored):
        print(f"| {kind} | {accepted[kind]} | {scored[kind]} | {100 * accepted[kind] / scored[kind]:.1f}% |")
    total, ok = sum(scored.values()), sum(accepted.values())
    print(f"| **all faithful** | {ok} | {total} | {100 * ok / total:.2f}% |")
    shown = 0
    for kind, cells in sorted(rejected.items()):
        for key, col, msg in cells:
            if shown >= args.show:
                break
            print(f"  {key} {col}: {msg[:300]}")
            shown += 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
