"""The fresh26 family of independent formalizations (tests/fixtures/pairs/fresh26_pairs.jsonl; sources, selection
rules and labels in FRESH26.md): the rows are well formed, cite full commits of two different repositories, carry
the builder's labels, and the counts stated in FRESH26.md are the file's; the labels were committed before any run.
After the first run (FRESH26.md), the kernel-tier Lean checks that no changed pair passes."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from pair_families import DIFFS, FIELDS, builder, rows

PAIRS_DIR = Path(__file__).parent / "fixtures" / "pairs"
PAIRS = PAIRS_DIR / "fresh26_pairs.jsonl"
DOC = PAIRS_DIR / "FRESH26.md"


def _rows() -> list[dict]:
    return rows(PAIRS)


def _builder():
    return builder("build_fresh26_pairs")


def _bold(label: str) -> int:
    """The bold number before ``label`` in the opening paragraph of FRESH26.md."""
    return int(re.search(rf"\*\*(\d+)\*\* {label}", DOC.read_text(encoding="utf-8")).group(1))


def _table_rows() -> dict[str, list[str]]:
    """Markdown table rows of FRESH26.md: first cell -> the other cells."""
    out = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            out[cells[0]] = cells[1:]
    return out


def _norm(text: str) -> str:
    return " ".join(text.split())


def test_rows_have_the_fields_valid_values_and_unique_ids():
    rows = _rows()
    assert len(rows) >= 15
    assert len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        assert set(r) == FIELDS, r["id"]
        assert r["id"].startswith("fresh26/")
        assert r["diff"] in DIFFS and isinstance(r["same_meaning"], bool) and isinstance(r["unsure"], bool)
        assert r["note"].strip() and r["origin"].strip()
        for side in ("a", "b"):
            assert re.match(r"(theorem|lemma)\s", r[side]), (r["id"], side)
            assert not r[side].rstrip().endswith(":="), (r["id"], side)
            assert "sorry" not in r[side], (r["id"], side)  # the proof is stripped


def test_every_side_cites_a_full_commit_and_the_two_sides_are_different_repositories():
    for r in _rows():
        for key in ("source_a", "source_b"):
            src = r[key]
            assert re.fullmatch(r"[0-9a-f]{40}", src["commit"]), (r["id"], key)
            assert src["repo"].count("/") == 1 and src["path"], (r["id"], key)
        assert r["source_a"]["repo"] != r["source_b"]["repo"], r["id"]


def test_no_pair_is_a_copy_and_every_pair_has_a_side_new_to_the_fixtures():
    """Independence: the two statements of a pair differ after whitespace normalisation. Every pair has a side
    (jsm28's, or the non-formal-conjectures one) that no earlier family holds; the only statements that an earlier
    family does hold are the Harmonic and Seed-Prover sides of the IMO 2025 rows, which are OLYMPIAD25.md's
    (FRESH26.md, "Independence and reuse")."""
    rows = _rows()
    for r in rows:
        assert _norm(r["a"]) != _norm(r["b"]), r["id"]
    earlier = set()
    for f in PAIRS_DIR.glob("*_pairs.jsonl"):
        if f != PAIRS:
            for line in f.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                earlier.update(_norm(row[s]) for s in ("a", "b"))
    reused = {(r["id"], side) for r in rows for side in ("a", "b") if _norm(r[side]) in earlier}
    assert reused == {(r["id"], "b") for r in rows if r["origin"].startswith("IMO 2025")}
    assert len(reused) < len(rows)


def test_rows_carry_the_builders_labels_and_orientation():
    builder = _builder()
    rows = _rows()
    assert {r["id"].split("/", 1)[1] for r in rows} == set(builder.LABELS)
    order = [builder.SOURCES[k][0] for k in builder.SOURCES]
    for r in rows:
        same, diff, note, unsure = builder.LABELS[r["id"].split("/", 1)[1]]
        assert (r["same_meaning"], r["diff"], r["note"], r["unsure"]) == (same, diff, note, unsure), r["id"]
        assert order.index(r["source_a"]["repo"]) < order.index(r["source_b"]["repo"]), r["id"]
        assert r["source_a"]["commit"] == dict(builder.SOURCES.values())[r["source_a"]["repo"]], r["id"]
        assert r["source_b"]["commit"] == dict(builder.SOURCES.values())[r["source_b"]["repo"]], r["id"]


def test_counts_in_the_doc_are_the_files():
    rows = _rows()
    assert _bold("labelled pairs") == len(rows)
    assert _bold("pairs are labelled `same_meaning: true`") == sum(r["same_meaning"] for r in rows)
    assert _bold("`false`") == sum(not r["same_meaning"] for r in rows)
    assert _bold("are flagged `unsure`") == sum(r["unsure"] for r in rows)
    by_diff = Counter((r["diff"], r["same_meaning"]) for r in rows)
    table = _table_rows()
    for diff in {r["diff"] for r in rows}:
        same, changed, total = (int(c) for c in table[diff][:3])
        assert (same, changed) == (by_diff[(diff, True)], by_diff[(diff, False)]), diff
        assert total == same + changed
    for origin in {r["origin"] for r in rows}:
        of = [r for r in rows if r["origin"] == origin]
        assert [int(c) for c in table[origin][:4]] == [len(of), sum(r["same_meaning"] for r in of),
                                                      sum(not r["same_meaning"] for r in of),
                                                      sum(r["unsure"] for r in of)], origin


def test_every_unsure_pair_is_explained_in_the_doc():
    doc = DOC.read_text(encoding="utf-8")
    section = doc.split("### Doubtful labels", 1)[1].split("###", 1)[0]
    for r in _rows():
        pid = r["id"].split("/", 1)[1]
        assert (f"`{pid}`" in section) == r["unsure"], pid


@pytest.mark.kernel
def test_no_changed_pair_passes(kernel_lean_exe):
    """First run (FRESH26.md, session 8): 0/3 same-meaning and 0/14 changed passed, strict and lenient; a changed
    pair passing is a false pass."""
    from pair_families import changed_passed, family_results

    assert changed_passed(family_results(PAIRS, kernel_lean_exe)) == []
