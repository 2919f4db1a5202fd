"""``pyshadow report`` and the score summary: a report from the bundled samples renders (markdown, CSV, PNG/SVG)
and its tables add up; the sample layout is read directly; nothing scored is exit 2; ``undecided`` rows fit."""

import csv
import json
import re
from pathlib import Path

import pytest

from pyshadow.cli import main
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.problems import load_problems, load_sample_candidates
from pyshadow.score.report import BUCKET_HEADERS, build_tables, report_rows

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def samples_report(tmp_path_factory, kernel_lean_exe):
    """Every bundled sample scored in the kernel tier straight from problems/, then reported twice."""
    folder = tmp_path_factory.mktemp("report")
    results = folder / "samples.jsonl"
    assert main(["score", str(PROBLEMS_DIR), str(PROBLEMS_DIR), "-o", str(results), "--tier", "kernel",
                 "-j", "2"]) == 0
    for name in ("out", "again"):
        assert main(["report", str(results), "-o", str(folder / name), "--problems", str(PROBLEMS_DIR)]) == 0
    return folder, results


def _csv(path: Path) -> list[dict]:
    return list(csv.DictReader(path.open(encoding="utf-8")))


def test_sample_layout_is_read_with_kinds_as_systems(samples_report):
    _, results = samples_report
    rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    problems, _ = load_problems(PROBLEMS_DIR)
    expected = {(p.id, s.kind): s for p in problems for s in load_sample_candidates(p)}
    assert {(r["problem_id"], r["system"]) for r in rows} == set(expected)
    for r in rows:
        sc = expected[(r["problem_id"], r["system"])]
        assert r["sa_pass"] == (sc.sa_pass and not sc.undecided_under(r["tier"])), r["origin"]


def test_report_tables_add_up(samples_report):
    folder, results = samples_report
    out = folder / "out"
    n_rows = len(results.read_text(encoding="utf-8").splitlines())
    buckets = _csv(out / "buckets.csv")
    assert sum(int(b["n"]) for b in buckets) == n_rows
    for b in buckets:  # every candidate is in exactly one bucket, audit failures and non-compiling included
        assert sum(int(v) for k, v in b.items() if k not in ("System", "n")) == int(b["n"])
    table3_rows = _csv(out / "table3.csv")
    table3 = {r["System"]: r for r in table3_rows if r["Level"] == "All"}
    coverage = {r["System"]: r for r in _csv(out / "coverage.csv")}
    per_problem = _csv(out / "per_problem.csv")
    failures = _csv(out / "failures.csv")
    n_problems = len(load_problems(PROBLEMS_DIR)[0])
    assert len(per_problem) == n_problems
    for b in buckets:
        system, n = b["System"], int(b["n"])
        assert int(table3[system]["n"]) == n == int(coverage[system]["Submitted"])
        assert sum(int(r["n"]) for r in table3_rows if r["System"] == system and r["Level"] != "All") == n
        assert int(coverage[system]["Problems"]) == n_problems
        assert sum(r[system] != "—" for r in per_problem) == n
        assert sum(r[system] == "SA-Pass" for r in per_problem) == int(b["Both"])
        passed = int(b["Both"])
        assert float(table3[system]["Skeleton SA-Pass %"]) == pytest.approx(100 * passed / n, abs=0.05)
        gap = float(table3[system]["Statement elaborated − Skeleton SA-Pass (pts)"])
        assert gap == pytest.approx(float(table3[system]["Statement elaborated %"]) - 100 * passed / n, abs=0.1)
        assert float(coverage[system]["Skeleton SA-Pass % (leaderboard: missing = fail)"]) == \
            pytest.approx(100 * passed / n_problems, abs=0.05)
        assert sum(f["System"] == system for f in failures) == n - passed
    assert all(f["First reason"] for f in failures)
    cheating = [s for p in load_problems(PROBLEMS_DIR)[0] for s in load_sample_candidates(p) if s.kind == "cheating"]
    assert int(next(b for b in buckets if b["System"] == "cheating")[BUCKET_HEADERS["audit_failed"]]) \
        == len(cheating) >= 5


def test_kernel_report_never_says_compiled(samples_report):
    folder, results = samples_report
    text = (folder / "out" / "report.md").read_text(encoding="utf-8")
    assert "Statement elaborated" in text and "ompile" not in text.split("## Failures")[0]
    assert "Buckets add up to n" in text
    summary = (results.parent / "samples.summary.md").read_text(encoding="utf-8")
    assert "Compiled" not in summary and "## Coverage" in summary and "## Failures and their first reason" in summary


def test_plots_render_and_are_byte_identical(samples_report):
    import matplotlib  # noqa: F401 - in the [test] extra: CI checks the plots

    folder, _ = samples_report
    for suffix in (".png", ".svg"):
        first = (folder / "out" / f"pass_rates{suffix}").read_bytes()
        assert first == (folder / "again" / f"pass_rates{suffix}").read_bytes()
        assert len(first) > 1000
    assert (folder / "out" / "pass_rates.png").read_bytes().startswith(b"\x89PNG")


def test_one_problems_candidates_folder_scores_its_samples(tmp_path, capsys, kernel_lean_exe):
    results = tmp_path / "r.jsonl"
    code = main(["score", str(PROBLEMS_DIR), str(PROBLEMS_DIR / "nat_pos_facts" / "candidates"), "-o", str(results),
                 "--tier", "kernel"])
    assert code == 0
    rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert sorted(r["system"] for r in rows) == ["cheating", "faithful", "weakened"]
    assert {r["problem_id"] for r in rows} == {"nat_pos_facts"}


def test_nothing_scored_is_exit_2(tmp_path, capsys, kernel_lean_exe):
    folder = tmp_path / "sys"
    folder.mkdir()
    (folder / "no_such_problem.lean").write_text("theorem x : True := trivial\n", encoding="utf-8")
    code = main(["score", str(PROBLEMS_DIR), str(folder), "-o", str(tmp_path / "r.jsonl"), "--tier", "kernel"])
    assert code == 2
    assert "nothing scored" in capsys.readouterr().err


@pytest.mark.parametrize("marker", [{"undecided": True}, {"bucket": "undecided"}])
def test_undecided_rows_get_their_own_bucket(marker):
    base = {"problem_id": "p1", "system": "s", "tier": "kernel", "level": "L1", "compiled": True, "sa_pass": False,
            "sa_pass_soft": 0.5, "fwd_all": False, "backward": True, "audit": [], "checks": []}
    rows = [dict(base, **marker), dict(base, problem_id="p2", sa_pass=True, sa_pass_soft=1.0, fwd_all=True)]
    tables = build_tables(report_rows(rows), {"p1": "L1", "p2": "L1", "p3": "L1"})
    headers, body = tables.buckets
    assert "Undecided" in headers
    cells = dict(zip(headers, body[0]))
    assert cells["Undecided"] == "1" and cells["Both"] == "1" and cells["n"] == "2"
    assert [r[2] for r in tables.per_problem[1]] == ["undecided", "SA-Pass", "—"]


def test_readme_excerpts_are_real_output(samples_report, tmp_path):
    """The README's rendered report and agreement excerpts are lines of the real output on the bundled samples."""
    folder, results = samples_report
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Reports: Table 3 and Table 4", 1)[1].split("\n## ", 1)[0]
    blocks = [body for lang, body in re.findall(r"```(\w*)\n(.*?)```", section, re.S) if not lang]
    assert len(blocks) == 2
    report = (folder / "out" / "report.md").read_text(encoding="utf-8").splitlines()
    for line in filter(None, blocks[0].splitlines()):
        assert line in report, line
    rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps({"problem_id": r["problem_id"], "system": r["system"],
                                          "aligned": r["system"] == "faithful"}) + "\n" for r in rows))
    assert main(["agree", "--labels", str(labels), str(results), "--problems", str(PROBLEMS_DIR), "--candidates",
                 str(PROBLEMS_DIR), "-o", str(tmp_path / "agreement"), "--no-plots"]) == 0
    agreement = (tmp_path / "agreement" / "agreement.md").read_text(encoding="utf-8").splitlines()
    for line in filter(None, blocks[1].splitlines()):
        assert line in agreement, line


def test_rows_of_both_tiers_get_a_section_each(tmp_path):
    from pyshadow.score.report import write_report

    base = {"problem_id": "p1", "system": "s", "level": "L1", "compiled": True, "sa_pass": True, "sa_pass_soft": 1.0,
            "fwd_all": True, "backward": True, "audit": [], "checks": []}
    rows = [dict(base, tier="full"), dict(base, tier="kernel", compiled=False, sa_pass=False, sa_pass_soft=0.0,
                                          reason="the statement does not parse")]
    written = write_report(rows, tmp_path, {"p1": "L1"}, plots=False)
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Full tier" in text and "## Kernel tier (skeleton)" in text
    full, kernel = text.split("## Kernel tier (skeleton)")
    assert "| s | All | 1 | 100.0 | 100.0 | 100.0 | 0.0 |" in full
    assert "Not elaborated" in kernel and "the statement does not parse" in kernel
    assert {p.name for p in written} >= {"full_table3.csv", "kernel_table3.csv", "report.md"}
