"""Red team 5 (tests/fixtures/precision/RED5.md): changed statements aimed at the context reader's scopes (`end`
closing a scope, `open` inside a namespace or section), helpers two contexts print alike under different opens,
`answer(e)`, `((↑) : A → B)`, `𝓝[>] x`, numeral exponents, ASCII binders and the environment's `Nat.add`. No
changed pair may pass, strict or lenient. On the branch's base four do (RED5.md lists them): this test asserts the
truth and fails until they are fixed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyshadow.kernel.pairs import evaluate, read_pairs

FOLDER = Path(__file__).parent / "fixtures" / "precision"
PAIRS = FOLDER / "red5_pairs.jsonl"


@pytest.mark.kernel
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lenient"])
def test_no_changed_pair_of_red5_passes(kernel_lean_exe, strict):
    results = evaluate(read_pairs(PAIRS), kernel_lean_exe, n_jobs=2, strict=strict)
    assert not sorted(r.pair.id for r in results if r.verdict == "pass" and not r.pair.same_meaning)


def test_red5_rows_are_well_formed():
    rows = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        assert r["note"] and isinstance(r["same_meaning"], bool) and r["id"].startswith("red5/")
