"""Skeleton SA-Pass on a family nobody tuned on: miniF2F as ported by the Hoskinson Center (2023) against the yangky11
port (tests/fixtures/pairs/hoskinson_pairs.jsonl; sources, commits, labelling rules and the first run in HOSKINSON.md)."""

from __future__ import annotations

import pytest
from pair_families import (FIXTURES, assert_first_run_holds, builder, changed_passed, family_results, labels,
                           rows)

from pyshadow.kernel.pairs import read_pairs
from pyshadow.syntax import parse_declaration

HERE = FIXTURES
PAIRS = HERE / "hoskinson_pairs.jsonl"

# First run, right after the labels were committed (HOSKINSON.md): 62/65 = 95.4% recall, 0/8 changed passed,
# 2/73 = 2.7% undecided. Floors sit at most two points below; precision has no slack.
RECALL_FLOOR = 0.934
UNDECIDED_CEILING = 0.047


@pytest.fixture(scope="module")
def results(kernel_lean_exe):
    return family_results(PAIRS, kernel_lean_exe)


@pytest.mark.kernel
def test_no_changed_pair_passes(results):
    assert changed_passed(results) == []


@pytest.mark.kernel
def test_recall_and_undecided_rate_hold_the_first_run(results):
    assert_first_run_holds(results, pairs=73, same_meaning=65, recall_floor=RECALL_FLOOR,
                           undecided_ceiling=UNDECIDED_CEILING)
    assert all(r.atom_pairs for r in results if r.verdict == "undecided")


def test_every_side_parses():
    for p in read_pairs(PAIRS):
        parse_declaration(p.a)
        parse_declaration(p.b)


def test_pairs_cite_both_repositories_and_carry_their_labels():
    rows_ = rows(PAIRS)
    assert len({r["id"] for r in rows_}) == len(rows_) == 73
    assert sum(r["same_meaning"] for r in rows_) == 65 and sum(r["unsure"] for r in rows_) == 1
    for r in rows_:
        assert r["source_a"]["repo"] == "yangky11/miniF2F-lean4", r["id"]
        assert r["source_b"]["repo"] == "wellecks/miniF2F" and r["source_b"]["path"].startswith("lean4/MiniF2F/")
        for side in ("source_a", "source_b"):
            assert len(r[side]["commit"]) == 40 and int(r[side]["commit"], 16) >= 0 and r[side]["path"], r["id"]
        assert r["a"].startswith("theorem ") and r["b"].startswith("theorem "), r["id"]
        assert r["a_context"] and r["b_context"], r["id"]
        assert r["note"] and r["diff"] and isinstance(r["unsure"], bool), r["id"]


def test_file_and_builder_labels_agree():
    build = builder("build_hoskinson_pairs")
    assert labels(PAIRS) == build.LABELS
    assert {r["source_b"]["commit"] for r in rows(PAIRS)} == {build.HOSKINSON_COMMIT}
    assert {r["source_a"]["commit"] for r in rows(PAIRS)} == {build.YANGKY11_COMMIT}
