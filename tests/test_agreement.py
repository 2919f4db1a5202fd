"""``pyshadow agree``: a Table-4-shaped report from a fixture, recomputed here independently of
``pyshadow.score.stats``; BLEU on the bundled samples; bad input."""

import csv
import json
import math
from pathlib import Path

import pytest

from pyshadow.cli import main
from pyshadow.paths import PROBLEMS_DIR

FIXTURE = Path(__file__).parent / "fixtures" / "agreement"
Z = 1.959963984540054


def _jsonl(path):
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def _decisions():
    """Each metric's decision per (problem, system), read from the raw fixture rows by plain rules."""
    results = {(r["problem_id"], r["system"]): r for r in _jsonl(FIXTURE / "results.jsonl")}
    judges = {(r["problem_id"], r["system"]): r for r in _jsonl(FIXTURE / "judges.jsonl")}
    verdict = {"correct": True, "incorrect": False}
    out = {
        "compile": {k: r["compiled"] for k, r in results.items()},
        "SA-Pass_soft > 0": {k: r["sa_pass_soft"] > 0 for k, r in results.items() if not r.get("undecided")},
        "SA-Pass": {k: r["sa_pass"] for k, r in results.items() if not r.get("undecided")},
    }
    for model in ("judge-x", "judge-y"):
        out[f"judge {model}"] = {k: verdict[r["judges"][model]["majority"]] for k, r in judges.items()
                                 if r["judges"][model]["majority"] in verdict}
    out["judges: majority of votes"] = {k: verdict[r["majority_all"]] for k, r in judges.items()
                                        if r["majority_all"] in verdict}
    out["judges: strict consensus"] = {k: verdict[r["consensus"]] for k, r in judges.items()}
    return out


def _wilson(k, n):
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


@pytest.fixture(scope="module")
def agree_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("agree")
    code = main(["agree", "--labels", str(FIXTURE / "labels.jsonl"), str(FIXTURE / "results.jsonl"),
                 str(FIXTURE / "judges.jsonl"), "-o", str(out), "--no-plots"])
    return code, out


def _check_figures(row, pairs):
    """``row``'s counts and figures against ``(label, prediction)`` pairs, computed here by plain formulas."""
    tp = sum(y and x for y, x in pairs)
    fp = sum((not y) and x for y, x in pairs)
    fn = sum(y and not x for y, x in pairs)
    tn = sum((not y) and not x for y, x in pairs)
    n = len(pairs)
    assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (tp, fp, fn, tn)
    assert row["precision"] == pytest.approx(tp / (tp + fp)) if tp + fp else row["precision"] is None
    assert row["recall"] == pytest.approx(tp / (tp + fn))
    assert row["f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn))
    assert row["agreement"] == pytest.approx((tp + tn) / n)
    p_e = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / n**2
    assert row["kappa"] == pytest.approx(((tp + tn) / n - p_e) / (1 - p_e))
    lo, hi = _wilson(tp + tn, n)
    assert row["agreement_ci"][0] == pytest.approx(max(lo, 0), abs=1e-6)
    assert row["agreement_ci"][1] == pytest.approx(min(hi, 1), abs=1e-6)


def test_table4_recomputed_independently(agree_run):
    code, out = agree_run
    assert code == 0
    report = json.loads((out / "agreement.json").read_text(encoding="utf-8"))
    labels = {(r["problem_id"], r["system"]): r["aligned"] for r in _jsonl(FIXTURE / "labels.jsonl")}
    decisions = _decisions()
    assert report["metrics"] == list(decisions)
    for row in report["overall"]:
        decided = decisions[row["metric"]]
        # headline: every labelled candidate, a missing or undecided decision counted as not passed
        _check_figures(row, [(labels[k], decided.get(k, False)) for k in labels])
        assert row["labelled"] == 80
        # beside it: the decided candidates only, and their coverage
        pairs = [(labels[k], decided[k]) for k in labels if k in decided]
        _check_figures(row["decided_only"], pairs)
        assert row["decided"] == len(pairs) and row["coverage"] == pytest.approx(len(pairs) / 80)
    # the shape of Table 4: compile has full recall and poor precision, SA-Pass full precision
    by_metric = {r["metric"]: r for r in report["overall"]}
    assert by_metric["compile"]["decided_only"]["recall"] == 1.0 and by_metric["compile"]["precision"] < 0.5
    assert by_metric["compile"]["recall"] < 1.0  # the aligned candidate with no score row is not passed
    assert by_metric["SA-Pass"]["precision"] == 1.0 and by_metric["SA-Pass"]["fn"] > 0
    # the undecided row and the missing submission are not decided by SA-Pass: the decided-only figures flatter
    assert by_metric["SA-Pass"]["decided"] == 78 and by_metric["compile"]["decided"] == 79
    assert by_metric["SA-Pass"]["agreement"] <= by_metric["SA-Pass"]["decided_only"]["agreement"]
    # the label without a score row is listed
    scored = {(r["problem_id"], r["system"]) for r in _jsonl(FIXTURE / "results.jsonl")}
    assert report["labels_without_a_scored_candidate"] == [list(k) for k in labels if k not in scored]
    assert len(report["labels_without_a_scored_candidate"]) == 1


def test_the_printed_table_is_the_all_labelled_one(tmp_path, capsys):
    assert main(["agree", "--labels", str(FIXTURE / "labels.jsonl"), str(FIXTURE / "results.jsonl"),
                 "-o", str(tmp_path), "--no-plots"]) == 0
    out = capsys.readouterr().out
    labels = {(r["problem_id"], r["system"]): r["aligned"] for r in _jsonl(FIXTURE / "labels.jsonl")}
    passed = _decisions()["SA-Pass"]
    correct = sum(labels[k] == passed.get(k, False) for k in labels)
    line = next(x for x in out.splitlines() if x.startswith("| SA-Pass |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[1] == "80" and cells[9].strip("*").startswith(f"{correct / 80:.3f} [")
    assert "labels have no scored candidate" in out


def test_mcnemar_pairs_recomputed(agree_run):
    _, out = agree_run
    report = json.loads((out / "agreement.json").read_text(encoding="utf-8"))
    labels = {(r["problem_id"], r["system"]): r["aligned"] for r in _jsonl(FIXTURE / "labels.jsonl")}
    decisions = _decisions()
    names = list(decisions)
    assert len(report["mcnemar"]) == len(names) * (len(names) - 1) // 2
    for pair in report["mcnemar"]:
        a, b = decisions[pair["a"]], decisions[pair["b"]]
        a = {k: a.get(k, False) for k in labels}  # all labelled candidates, undecided = not passed
        b = {k: b.get(k, False) for k in labels}
        both = list(labels)
        a_only = sum((a[k] == labels[k]) and (b[k] != labels[k]) for k in both)
        b_only = sum((a[k] != labels[k]) and (b[k] == labels[k]) for k in both)
        m, low = a_only + b_only, min(a_only, b_only)
        p = min(1.0, 2 * sum(math.comb(m, i) for i in range(low + 1)) / 2**m) if m else 1.0
        assert (pair["n"], pair["a_only"], pair["b_only"]) == (len(both), a_only, b_only)
        assert pair["p"] == pytest.approx(p, rel=1e-9)


def test_markdown_and_csv_carry_the_same_numbers(agree_run):
    _, out = agree_run
    md = (out / "agreement.md").read_text(encoding="utf-8")
    assert "## All systems (Table 4)" in md and "## System `agent-a`" in md and "exact McNemar" in md
    rows = list(csv.DictReader((out / "agreement.csv").open(encoding="utf-8")))
    report = json.loads((out / "agreement.json").read_text(encoding="utf-8"))
    overall = [r for r in rows if r["system"] == "all"]
    assert [r["metric"] for r in overall] == report["metrics"]
    for r, j in zip(overall, report["overall"]):
        assert int(r["tp"]) == j["tp"] and float(r["agreement"]) == pytest.approx(j["agreement"], abs=1e-4)
    # per system rows partition the overall counts
    for metric in report["metrics"]:
        per = [r for r in rows if r["metric"] == metric and r["system"] != "all"]
        total = next(r for r in overall if r["metric"] == metric)
        for field in ("tp", "fp", "fn", "tn", "labelled"):
            assert sum(int(r[field]) for r in per) == int(total[field])


def test_bleu_metric_on_the_bundled_samples(tmp_path, capsys):
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        json.dumps({"problem_id": "nat_pos_facts", "system": "faithful", "aligned": True}) + "\n"
        + json.dumps({"problem_id": "nat_pos_facts", "system": "weakened", "aligned": False}) + "\n"
        + "not json\n", encoding="utf-8")
    code = main(["agree", "--labels", str(labels), "--problems", str(PROBLEMS_DIR), "--candidates",
                 str(PROBLEMS_DIR / "nat_pos_facts" / "candidates"), "-o", str(tmp_path / "out"), "--no-plots"])
    out = capsys.readouterr().out
    assert code == 0
    assert "not JSON" in out  # a bad label line is reported, the run goes on
    report = json.loads((tmp_path / "out" / "agreement.json").read_text(encoding="utf-8"))
    bleu = report["overall"][0]
    assert bleu["metric"] == "BLEU ≥ 0.1"
    # both statements share most tokens with the reference: BLEU passes both, so it cannot tell them apart
    assert (bleu["tp"], bleu["fp"], bleu["fn"], bleu["tn"]) == (1, 1, 0, 0)


def test_no_valid_label_is_bad_input(tmp_path):
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"problem_id": "p", "system": "s", "aligned": "yes"}\n', encoding="utf-8")
    assert main(["agree", "--labels", str(labels), str(FIXTURE / "results.jsonl"), "-o", str(tmp_path)]) == 2


def test_agreement_plot_is_written_and_byte_identical(tmp_path):
    import matplotlib  # noqa: F401 - in the [test] extra: CI checks the plots

    outs = []
    for name in ("one", "two"):
        out = tmp_path / name
        assert main(["agree", "--labels", str(FIXTURE / "labels.jsonl"), str(FIXTURE / "results.jsonl"),
                     str(FIXTURE / "judges.jsonl"), "-o", str(out)]) == 0
        outs.append(out)
    for suffix in (".png", ".svg"):
        data = (outs[0] / f"agreement{suffix}").read_bytes()
        assert len(data) > 1000 and data == (outs[1] / f"agreement{suffix}").read_bytes()
    assert b"judges: strict consensus" in (outs[0] / "agreement.svg").read_bytes() or \
        (outs[0] / "agreement.svg").read_bytes().count(b"<path") > 50  # glyphs are paths: labels drawn as shapes
