"""Skeleton SA-Pass on model predictions judged by people: ProofNet# references against model-generated
formalizations with ProofNetVerif's human labels (tests/fixtures/pairs/model_pairs.jsonl, sources and how the
labels were made in tests/fixtures/pairs/MODEL.md). The development pairs are human-written on both sides; these
are the kind of candidates pyshadow scores in practice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyshadow.kernel.pairs import evaluate, read_pairs, summarize, summary_markdown
from pyshadow.syntax import ParseError, parse_declaration

MODEL_PAIRS = Path(__file__).parent / "fixtures" / "pairs" / "model_pairs.jsonl"

# Measured 13/30 = 43.3% (benchmarks/skeleton_pairs.py on model_pairs.jsonl, before the issue-21 fixes); the floor
# sits two points below the measured value (issue 21). Precision has no slack: no changed pair may pass.
MODEL_RECALL_FLOOR = 0.413

# Sides the statement parser cannot read (each would be an `error` row, not a verdict). None today; a side added to
# the fixture that does not parse must be listed here with the reason.
UNPARSED_SIDES: dict[str, str] = {}


@pytest.fixture(scope="module")
def model_results(kernel_lean_exe):
    return evaluate(read_pairs(MODEL_PAIRS), kernel_lean_exe, n_jobs=2)


@pytest.mark.kernel
def test_no_changed_model_prediction_passes(model_results):
    assert [r.pair.id for r in model_results if r.verdict == "pass" and not r.pair.same_meaning] == []


@pytest.mark.kernel
def test_recall_on_model_predictions_keeps_its_floor(model_results):
    overall = summarize(model_results)["overall"]
    assert overall["pairs"] == 100 and overall["same_meaning"] == 30
    assert overall["recall"] >= MODEL_RECALL_FLOOR, summary_markdown(summarize(model_results))
    # Undecided rows name the atom pairs they could not judge; nothing is an error row (every side parses).
    assert all(r.atom_pairs for r in model_results if r.verdict == "undecided")
    assert [r.pair.id for r in model_results if r.verdict == "error"] == sorted(UNPARSED_SIDES)


def test_every_model_pair_side_parses_or_is_listed():
    unparsed = {}
    for p in read_pairs(MODEL_PAIRS):
        for side, text in (("a", p.a), ("b", p.b)):
            try:
                parse_declaration(text)
            except ParseError as err:
                unparsed[p.id] = f"{side}: {err}"
    assert sorted(unparsed) == sorted(UNPARSED_SIDES), unparsed


def test_model_pairs_cite_their_source_and_keep_the_human_labels():
    rows = [json.loads(line) for line in MODEL_PAIRS.read_text(encoding="utf-8").splitlines()]
    assert len({r["id"] for r in rows}) == len(rows) == 100
    assert sum(r["same_meaning"] for r in rows) == 30
    for r in rows:
        for side in ("source_a", "source_b"):
            src = r[side]
            assert src["repo"].count("/") == 1 and src["path"] and src["entry"], r["id"]
            assert len(src["commit"]) == 40 and int(src["commit"], 16) >= 0, r["id"]
        assert r["a"].split()[0] in ("theorem", "lemma") and r["b"].split()[0] == "theorem", r["id"]
        # The note starts with the label as ProofNetVerif gives it; doubted labels are kept and say so.
        label = "same meaning" if r["same_meaning"] else "changed"
        assert r["note"].startswith(f"ProofNetVerif label: {label}."), r["id"]
        assert r["unsure"] == ("Doubted here (label kept)" in r["note"]), r["id"]
        assert r["diff"], r["id"]
