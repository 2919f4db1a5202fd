"""The Putnam 2025 / IMO 2025 family of independent formalizations (tests/fixtures/pairs/olympiad25_pairs.jsonl;
sources, selection rules and labels in OLYMPIAD25.md): the rows are well formed, cite full commits, carry the
builder's labels, and the counts stated in OLYMPIAD25.md are the file's."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from pair_families import DIFFS, FIELDS, builder, rows

PAIRS_DIR = Path(__file__).parent / "fixtures" / "pairs"
PAIRS = PAIRS_DIR / "olympiad25_pairs.jsonl"
DOC = PAIRS_DIR / "OLYMPIAD25.md"


def _rows() -> list[dict]:
    return rows(PAIRS)


def _builder():
    return builder("build_olympiad25_pairs")


def _bold(label: str) -> int:
    """The bold number before ``label`` in the opening paragraph of OLYMPIAD25.md."""
    return int(re.search(rf"\*\*(\d+)\*\* {label}", DOC.read_text(encoding="utf-8")).group(1))


def _table_rows(first_cell: str) -> dict[str, list[str]]:
    """Markdown table rows of OLYMPIAD25.md whose first cell starts with ``first_cell``: first cell -> the others."""
    out = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0].startswith(first_cell):
            out[cells[0]] = cells[1:]
    return out


def test_rows_have_the_fields_valid_values_and_unique_ids():
    rows = _rows()
    assert rows
    assert len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        assert set(r) == FIELDS, r["id"]
        assert r["id"].startswith("olympiad25/")
        assert r["diff"] in DIFFS and isinstance(r["same_meaning"], bool) and isinstance(r["unsure"], bool)
        assert r["note"].strip() and r["origin"].strip()
        for side in ("a", "b"):
            assert re.match(r"(theorem|lemma)\s", r[side]), (r["id"], side)
            assert not r[side].rstrip().endswith(":="), (r["id"], side)


def test_every_side_cites_a_full_commit_and_the_two_sides_differ_in_source():
    for r in _rows():
        for key in ("source_a", "source_b"):
            src = r[key]
            assert re.fullmatch(r"[0-9a-f]{40}", src["commit"]), (r["id"], key)
            assert src["repo"].count("/") == 1 and src["path"], (r["id"], key)
        assert r["source_a"]["repo"] != r["source_b"]["repo"], r["id"]


def test_rows_carry_the_builders_labels_and_orientation():
    builder = _builder()
    rows = _rows()
    assert {r["id"].split("/", 1)[1] for r in rows} == set(builder.LABELS)
    order = [builder.SOURCES[k][0] for k in builder.SOURCES]
    for r in rows:
        same, diff, note, unsure = builder.LABELS[r["id"].split("/", 1)[1]]
        assert (r["same_meaning"], r["diff"], r["note"], r["unsure"]) == (same, diff, note, unsure), r["id"]
        assert order.index(r["source_a"]["repo"]) < order.index(r["source_b"]["repo"]), r["id"]


def test_counts_in_the_doc_are_the_files():
    rows = _rows()
    assert _bold("labelled pairs") == len(rows)
    assert _bold("pairs are labelled `same_meaning: true`") == sum(r["same_meaning"] for r in rows)
    assert _bold("`false`") == sum(not r["same_meaning"] for r in rows)
    assert _bold("are flagged `unsure`") == sum(r["unsure"] for r in rows)
    by_diff = Counter((r["diff"], r["same_meaning"]) for r in rows)
    table = _table_rows("")
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
    """First run (OLYMPIAD25.md): 0/29 same-meaning and 0/9 changed passed; a changed pair passing is a false pass."""
    from pair_families import changed_passed, family_results

    assert changed_passed(family_results(PAIRS, kernel_lean_exe)) == []
