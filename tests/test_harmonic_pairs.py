"""Skeleton SA-Pass on a family nobody tuned on: miniF2F as formalized by Harmonic against the yangky11 port
(tests/fixtures/pairs/harmonic_pairs.jsonl; sources, commits, labelling rules and the first run in HARMONIC.md)."""

from __future__ import annotations

import pytest
from pair_families import (FIXTURES, assert_first_run_holds, builder, changed_passed, family_results, labels,
                           rows)

from pyshadow.kernel.pairs import read_pairs
from pyshadow.syntax import parse_declaration

HERE = FIXTURES
PAIRS = HERE / "harmonic_pairs.jsonl"

# First run, right after the labels were committed (HARMONIC.md, docs/measurements.md): 20/50 = 40.0% recall,
# 0/39 changed passed, 10/89 = 11.2% undecided. Session 6 (in-sample): 23/50 = 46.0%, 7/89 undecided. Floors sit at
# most two points below the measured figure; precision has no slack.
RECALL_FLOOR = 0.44
UNDECIDED_CEILING = 0.13


@pytest.fixture(scope="module")
def results(kernel_lean_exe):
    return family_results(PAIRS, kernel_lean_exe)


@pytest.mark.kernel
def test_no_changed_pair_passes(results):
    assert changed_passed(results) == []


@pytest.mark.kernel
def test_recall_and_undecided_rate_hold_the_first_run(results):
    assert_first_run_holds(results, pairs=89, same_meaning=50, recall_floor=RECALL_FLOOR,
                           undecided_ceiling=UNDECIDED_CEILING)
    assert all(r.atom_pairs for r in results if r.verdict == "undecided")


def test_every_side_parses():
    for p in read_pairs(PAIRS):
        parse_declaration(p.a)
        parse_declaration(p.b)


def test_pairs_cite_both_repositories_and_carry_their_labels():
    rows_ = rows(PAIRS)
    assert len({r["id"] for r in rows_}) == len(rows_) == 89
    assert sum(r["same_meaning"] for r in rows_) == 50 and sum(r["unsure"] for r in rows_) == 6
    for r in rows_:
        assert r["source_a"]["repo"] == "yangky11/miniF2F-lean4", r["id"]
        assert r["source_b"]["repo"] == "harmonic-ai/datasets" and r["source_b"]["entry"].startswith("formal_")
        for side in ("source_a", "source_b"):
            assert len(r[side]["commit"]) == 40 and int(r[side]["commit"], 16) >= 0 and r[side]["path"], r["id"]
        assert r["a"].startswith("theorem ") and r["b"].startswith("theorem "), r["id"]
        assert r["note"] and r["diff"] and isinstance(r["unsure"], bool), r["id"]


def test_file_and_builder_labels_agree():
    build = builder("build_harmonic_pairs")
    assert labels(PAIRS) == build.LABELS
    assert {r["source_b"]["commit"] for r in rows(PAIRS)} == {build.HARMONIC_COMMIT}
    assert {r["source_a"]["commit"] for r in rows(PAIRS)} == {build.YANGKY11_COMMIT}
