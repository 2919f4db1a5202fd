"""Agreement of skeleton SA-Pass and BLEU with the labels of real statement pairs (Table-4 style).

    python benchmarks/skeleton_pairs.py PAIRS.jsonl -o SKELETON.jsonl     # one skeleton verdict per pair
    python benchmarks/agreement_pairs.py PAIRS.jsonl SKELETON.jsonl       # this table

Side ``a`` of each pair is the reference, side ``b`` the candidate; the label is ``same_meaning`` (pairs flagged
``unsure`` are left out); the per-system tables are per pair family. Metrics: BLEU of b's statement against a's
(Lean tokens) at the paper's 0.1 and at 0.5, skeleton SA-Pass (undecided pairs not decided) and skeleton SA-Pass
counting undecided as a fail. Prints ``pyshadow.score.agreement.render_markdown``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from pyshadow.score.agreement import Label, Metric, compare, render_markdown, statement_tokens  # noqa: E402
from pyshadow.score.stats import sentence_bleu  # noqa: E402


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    pairs = [json.loads(line) for line in Path(argv[0]).read_text(encoding="utf-8").splitlines() if line.strip()]
    verdicts = {r["id"]: r for r in map(json.loads, Path(argv[1]).read_text(encoding="utf-8").splitlines())}
    keyed = {(p["id"], verdicts[p["id"]]["origin"].split(":")[0]): p for p in pairs if p["id"] in verdicts}
    labels = [Label(pid, family, p["same_meaning"]) for (pid, family), p in keyed.items() if not p.get("unsure")]
    bleu = {k: sentence_bleu(statement_tokens(p["b"]), statement_tokens(p["a"])) for k, p in keyed.items()}
    verdict = {k: verdicts[k[0]]["verdict"] for k in keyed}
    metrics = [
        Metric("BLEU ≥ 0.1", {k: v >= 0.1 for k, v in bleu.items()}),
        Metric("BLEU ≥ 0.5", {k: v >= 0.5 for k, v in bleu.items()}),
        Metric("skeleton SA-Pass", {k: None if v == "undecided" else v == "pass" for k, v in verdict.items()}),
        Metric("skeleton SA-Pass (undecided = fail)", {k: v == "pass" for k, v in verdict.items()}),
    ]
    print(render_markdown(compare(labels, metrics)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
