"""Denominators that hold (issue 24): several samples per (system, problem) with pass@k in every summary and
report, a problem set with a malformed problem (a row with its reason, a failure for every system, listed), inputs
that were not scored listed, a wrong name in its own bucket, and buckets that add up to n in every file."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from pyshadow.cli import main
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.score.metrics import BUCKETS

pytestmark = pytest.mark.kernel

SAMPLES = PROBLEMS_DIR / "nat_sub_add_cancel" / "candidates"
WRONG_NAME = """namespace NatPos

example (n : Nat) : 0 < n → n ≠ 0 ∧ 1 ≤ n ∧ n - 1 + 1 = n := by
  intro h
  omega

end NatPos
"""


def _csv(path: Path) -> list[dict]:
    return list(csv.DictReader(path.open(encoding="utf-8")))


@pytest.fixture(scope="module")
def scored(tmp_path_factory, kernel_lean_exe):
    """Three problems, one malformed; system A with three samples on one problem, B with a wrong name and an
    unreadable file; one candidate for the malformed problem."""
    root = tmp_path_factory.mktemp("denominators")
    problems = root / "problems"
    for pid in ("nat_sub_add_cancel", "nat_pos_facts", "nat_double_add"):
        shutil.copytree(PROBLEMS_DIR / pid, problems / pid, ignore=shutil.ignore_patterns("candidates"))
    broken = problems / "nat_double_add" / "problem.toml"
    broken.write_text(broken.read_text(encoding="utf-8").replace('level = "L1"', 'level = "L4"'), encoding="utf-8")
    cands = root / "cands"
    a = cands / "A"
    (a / "nat_sub_add_cancel").mkdir(parents=True)
    shutil.copy(SAMPLES / "faithful_reordered.lean", a / "nat_sub_add_cancel" / "1.lean")
    shutil.copy(SAMPLES / "weakened.lean", a / "nat_sub_add_cancel" / "2.lean")
    shutil.copy(PROBLEMS_DIR / "nat_pos_facts" / "candidates" / "faithful_implicit_gt.lean", a / "nat_pos_facts.lean")
    shutil.copy(PROBLEMS_DIR / "nat_double_add" / "Reference.lean", a / "nat_double_add.lean")
    (cands / "B").mkdir()
    (cands / "B" / "nat_pos_facts.lean").write_text(WRONG_NAME, encoding="utf-8")
    (cands / "B" / "nat_sub_add_cancel.lean").write_bytes(b"theorem caf\xe9 : True := trivial\n")
    results = root / "results.jsonl"
    assert main(["score", str(problems), str(cands), "-o", str(results), "--tier", "kernel", "-j", "2"]) == 0
    assert main(["report", str(results), "-o", str(root / "report"), "--no-plots"]) == 0
    return root, results


def _rows(results: Path) -> list[dict]:
    return [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]


def test_every_row_has_one_bucket_and_kernel_rows_say_statement_elaborated(scored):
    _, results = scored
    rows = _rows(results)
    problem_rows = [r for r in rows if r.get("problem_not_loaded")]
    assert [r["problem_id"] for r in problem_rows] == ["nat_double_add"]
    assert "level" in problem_rows[0]["reason"] and problem_rows[0]["counted"] is False
    for r in rows:
        assert r["bucket"] in BUCKETS and "compiled" not in r and "statement_elaborated" in r
    by_key = {(r["system"], r["problem_id"], r["sample"]): r for r in rows if r["counted"]}
    assert by_key[("B", "nat_pos_facts", None)]["bucket"] == "name_not_found"
    assert by_key[("B", "nat_sub_add_cancel", None)]["bucket"] == "not_compiled"
    assert by_key[("A", "nat_sub_add_cancel", "1")]["bucket"] == "both"
    assert by_key[("A", "nat_sub_add_cancel", "2")]["bucket"] == "backward_only"
    uncounted = [r for r in rows if not r["counted"] and not r.get("problem_not_loaded")]
    assert [(r["system"], r["problem_id"]) for r in uncounted] == [("A", "nat_double_add")]
    assert "does not load" in uncounted[0]["reason"]


def test_the_malformed_problem_is_in_every_denominator_and_listed(scored):
    root, results = scored
    for folder, prefix in ((root / "report", ""), (results.parent, "results.")):
        per_problem = {r["Problem"]: r for r in _csv(folder / f"{prefix}per_problem.csv")}
        assert sorted(per_problem) == ["nat_double_add", "nat_pos_facts", "nat_sub_add_cancel"]
        assert per_problem["nat_double_add"]["A"] == per_problem["nat_double_add"]["B"] == "problem did not load"
        assert per_problem["nat_sub_add_cancel"]["A"] == "1/2 SA-Pass"
        assert per_problem["nat_pos_facts"]["B"] == "name not found"
        (not_loaded,) = _csv(folder / f"{prefix}not_loaded.csv")
        assert not_loaded["Problem"] == "nat_double_add" and "'level'" in not_loaded["Reason"]
        skipped = _csv(folder / f"{prefix}skipped.csv")
        assert [s["Input"].endswith("nat_double_add.lean") for s in skipped] == [True]
        pass_at = {r["System"]: r for r in _csv(folder / f"{prefix}pass_at_k.csv")}
        # A: (1/2 [nat_sub_add_cancel, 1 of 2] + 1 [nat_pos_facts] + 0 [nat_double_add, did not load]) / 3
        assert (pass_at["A"]["Problems"], pass_at["A"]["pass@1 %"], pass_at["A"]["mean@k %"]) == ("3", "50.0", "50.0")
        assert pass_at["A"]["pass@5 %"] == "—" and pass_at["B"]["pass@1 %"] == "0.0"
        samples = {(r["System"], r["Problem"]): r for r in _csv(folder / f"{prefix}samples.csv")}
        assert (samples[("A", "nat_sub_add_cancel")]["Samples"], samples[("A", "nat_sub_add_cancel")]["Passed"]) \
            == ("2", "1")
    coverage = {r["System"]: r for r in _csv(root / "report" / "coverage.csv")}
    assert coverage["A"]["Problems"] == "3" and coverage["A"]["Submitted"] == "2"
    assert coverage["A"]["Skeleton SA-Pass % (leaderboard: missing = fail)"] == "50.0"
    text = (root / "report" / "report.md").read_text(encoding="utf-8")
    assert "on 3 problems (1 did not load)" in text
    assert "## Problems that did not load" in text and "## Inputs not scored" in text
    summary = (results.parent / "results.summary.md").read_text(encoding="utf-8")
    assert "on 3 problems (1 did not load)" in summary and "| nat_double_add |" in summary


def test_buckets_add_up_to_n_in_every_file(scored):
    root, results = scored
    counted = [r for r in _rows(results) if r["counted"]]
    for path in (root / "report" / "buckets.csv", results.parent / "results.buckets.csv"):
        table = _csv(path)
        assert sum(int(b["n"]) for b in table) == len(counted)
        assert list(table[0])[2:] == ["Audit failed", "Not elaborated", "Name not found", "Undecided", "Both",
                                      "Bwd only", "Fwd only", "Neither"]
        for b in table:
            assert sum(int(v) for k, v in b.items() if k not in ("System", "n")) == int(b["n"])
    bucket_columns = ["audit_failed", "not_elaborated", "name_not_found", "undecided", "both", "backward_only",
                      "forward_only", "neither"]
    for grouping in ("system", "area", "level", "system_level"):
        table = _csv(results.parent / f"results.by_{grouping}.csv")
        assert set(bucket_columns) <= set(table[0]), grouping
        assert sum(int(r["n"]) for r in table) == len(counted)
        for r in table:
            assert sum(int(r[c]) for c in bucket_columns) == int(r["n"]), (grouping, r)


def test_a_true_duplicate_sample_is_bad_input(tmp_path, capsys):
    path = tmp_path / "c.jsonl"
    code = (SAMPLES / "weakened.lean").read_text(encoding="utf-8")
    path.write_text("".join(json.dumps({"problem_id": "nat_sub_add_cancel", "system": "s", "code": code,
                                        "sample": 1}) + "\n" for _ in range(2)), encoding="utf-8")
    assert main(["score", str(PROBLEMS_DIR), str(path), "-o", str(tmp_path / "r.jsonl"), "--tier", "kernel"]) == 2
    err = capsys.readouterr().err
    assert "a second candidate for system 's', problem 'nat_sub_add_cancel' with sample '1'" in err
    assert len(err.strip().splitlines()) == 1


def test_an_unreadable_results_line_is_listed_in_the_report(scored, tmp_path):
    _, results = scored
    broken = tmp_path / "broken.jsonl"
    broken.write_text(results.read_text(encoding="utf-8") + "{cut short\n", encoding="utf-8")
    assert main(["report", str(broken), "-o", str(tmp_path / "rep"), "--no-plots"]) == 0
    skipped = _csv(tmp_path / "rep" / "skipped.csv")
    n = len(broken.read_text(encoding="utf-8").splitlines())
    assert any(s["Input"] == f"{broken}:{n}" and "not JSON" in s["Reason"] for s in skipped)
    assert any(s["Input"].endswith("nat_double_add.lean") for s in skipped)
