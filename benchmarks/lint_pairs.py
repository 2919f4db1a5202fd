"""How ``pyshadow lint`` does on the labelled development pairs (tests/fixtures/pairs/dev_pairs.jsonl).

For each changed pair (``same_meaning: false``) it reports which side lint flags; the defective side of each
flagged pair was read by hand and is recorded in tests/fixtures/lint/pairs_verdicts.json. For the same-meaning
pairs it reports how many it flags at all (with error severity, and with any). Usage:

    python benchmarks/lint_pairs.py [--details]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyshadow.lint import ERROR, lint_statement  # noqa: E402

PAIRS = ROOT / "tests" / "fixtures" / "pairs" / "dev_pairs.jsonl"
VERDICTS = ROOT / "tests" / "fixtures" / "lint" / "pairs_verdicts.json"


def measure(details: bool = False) -> dict:
    verdicts = json.loads(VERDICTS.read_text(encoding="utf-8")) if VERDICTS.exists() else {}
    changed = {"pairs": 0, "flagged": 0, "defective_side": 0, "other_side_only": 0, "both_sides": 0}
    same = {"pairs": 0, "flagged_any": 0, "flagged_error": 0}
    for line in PAIRS.read_text(encoding="utf-8").splitlines():
        pair = json.loads(line)
        found = {side: lint_statement(pair[side]) for side in ("a", "b")}
        flagged = {side for side, fs in found.items() if fs}
        if pair["same_meaning"]:
            same["pairs"] += 1
            same["flagged_any"] += bool(flagged)
            same["flagged_error"] += any(f.severity == ERROR for fs in found.values() for f in fs)
        else:
            changed["pairs"] += 1
            if flagged:
                changed["flagged"] += 1
                bad = verdicts.get("changed", {}).get(pair["id"], {}).get("defective")
                if flagged == {"a", "b"}:
                    changed["both_sides"] += 1
                if bad in flagged:
                    changed["defective_side"] += 1
                elif bad is not None:
                    changed["other_side_only"] += 1
        if details and flagged:
            print(f"{pair['id']} same={pair['same_meaning']} flagged={sorted(flagged)}")
            for side in sorted(flagged):
                for f in found[side]:
                    print(f"  {side}: {f.severity} {f.rule}: {f.excerpt!r}")
    return {"changed": changed, "same_meaning": same}


if __name__ == "__main__":
    print(json.dumps(measure("--details" in sys.argv), indent=2))
