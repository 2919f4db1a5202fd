"""``pyshadow parse CORPUS.jsonl -o OUT.jsonl``: the docs/DESIGN.md interface, exit codes and error reporting."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pyshadow.cli import main

REPO = Path(__file__).resolve().parents[1]
GOOD = "theorem two_pos : (0 : ℕ) < 2"
NOT_A_DECLARATION = "theorem ok : True\n  #check foo"  # a command where the type should go


def write_corpus(path: Path, rows: list[dict | str]) -> Path:
    lines = [row if isinstance(row, str) else json.dumps(row, ensure_ascii=False) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(["parse", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_output_fields_and_summary_line(tmp_path, capsys) -> None:
    corpus = write_corpus(tmp_path / "c.jsonl", [
        {"id": "a", "statement": GOOD, "context": "open Nat", "imports": ["Mathlib"]},
        {"id": "b", "statement": "theorem t (x : ℝ) (hx : 0 < x) : ∃ y, y * y = x ∧ 0 < y := by\n  sorry"},
    ])
    out_path = tmp_path / "out" / "parsed.jsonl"
    code, out, _ = run_cli([str(corpus), "-o", str(out_path)], capsys)
    assert code == 0
    assert out.strip().splitlines()[-1] == "parsed 2/2 statements (100.0%)"
    a, b = read_jsonl(out_path)
    assert set(a) == {"id", "ok", "error", "declaration"}
    assert (a["id"], a["ok"], a["error"]) == ("a", True, None)
    assert a["declaration"]["name"] == "two_pos"
    assert a["declaration"]["type"] == {"rel": "<", "left": {"atom": "(0 : ℕ)", "idents": ["ℕ"]},
                                        "right": {"atom": "2", "idents": []}}
    decl = b["declaration"]
    assert decl["keyword"] == "theorem" and decl["hypotheses"] == ["hx"]
    assert [bd["names"] for bd in decl["binders"]] == [["x"], ["hx"]]
    assert decl["type"]["quantifier"] == "∃" and decl["type"]["body"]["op"] == "∧"


def test_failed_entries_are_data_exit_zero(tmp_path, capsys) -> None:
    corpus = write_corpus(tmp_path / "c.jsonl", [
        {"id": "good", "statement": GOOD},
        {"id": "bad", "statement": NOT_A_DECLARATION},
        {"id": "junk", "statement": "open Real\ntheorem t : π > 3"},
        {"id": "no-statement"},
    ])
    out_path = tmp_path / "out.jsonl"
    code, out, _ = run_cli([str(corpus), "-o", str(out_path)], capsys)
    assert code == 0
    assert out.strip().splitlines()[-1] == "parsed 1/4 statements (25.0%)"
    results = {r["id"]: r for r in read_jsonl(out_path)}
    assert results["good"]["ok"] is True
    bad = results["bad"]
    assert bad["ok"] is False and bad["declaration"] is None
    assert "(line 2, column 2)" in bad["error"]  # where `#check` stands
    junk = results["junk"]["error"]
    assert junk.startswith("not a declaration") and "'open'" in junk and "(line 1, column 0)" in junk
    missing = results["no-statement"]
    assert missing["ok"] is False and missing["error"].startswith("line 4:") and "'statement'" in missing["error"]


def test_without_output_file_prints_only_the_summary(tmp_path, capsys) -> None:
    corpus = write_corpus(tmp_path / "c.jsonl", [{"id": "a", "statement": GOOD}, ""])
    code, out, _ = run_cli([str(corpus)], capsys)
    assert code == 0 and out == "parsed 1/1 statements (100.0%)\n"


def test_empty_corpus(tmp_path, capsys) -> None:
    corpus = tmp_path / "empty.jsonl"
    corpus.write_text("", encoding="utf-8")
    code, out, err = run_cli([str(corpus)], capsys)
    assert code == 2 and out == "" and "empty.jsonl: no entries" in err  # an empty input is exit 2 everywhere


def test_unreadable_file_exits_2(tmp_path, capsys) -> None:
    missing = tmp_path / "nope.jsonl"
    code, out, err = run_cli([str(missing)], capsys)
    assert code == 2 and out == ""
    assert "nope.jsonl" in err and "no such file" in err
    code, _, err = run_cli([str(tmp_path)], capsys)  # a directory
    assert code == 2 and str(tmp_path) in err
    binary = tmp_path / "latin1.jsonl"
    binary.write_bytes(b'{"id": "a", "statement": "\xe9"}\n')
    code, _, err = run_cli([str(binary)], capsys)
    assert code == 2 and "not UTF-8" in err


def test_non_json_line_is_a_data_row_naming_the_line(tmp_path, capsys) -> None:
    corpus = write_corpus(tmp_path / "c.jsonl", [{"id": "a", "statement": GOOD}, "", "{not json", "[1, 2]"])
    out_path = tmp_path / "out.jsonl"
    code, out, err = run_cli([str(corpus), "-o", str(out_path)], capsys)
    assert code == 0 and err == ""
    assert out.strip() == "parsed 1/3 statements (33.3%)"
    rows = read_jsonl(out_path)
    assert [r["id"] for r in rows] == ["a", "<line 3>", "<line 4>"]
    assert "line 3: not valid JSON" in rows[1]["error"] and "line 4: not a JSON object" in rows[2]["error"]
    array = write_corpus(tmp_path / "d.jsonl", ["[1, 2]"])  # no usable line at all: bad input
    code, _, err = run_cli([str(array)], capsys)
    assert code == 2 and "no line is a usable entry" in err and "line 1: not a JSON object" in err


def test_console_entry_point_end_to_end(tmp_path) -> None:
    """The real process: exit status, stdout's last line and the output file, as a user runs it."""
    corpus = write_corpus(tmp_path / "c.jsonl", [{"id": "a", "statement": GOOD},
                                                 {"id": "b", "statement": "lemma l : ¬ (1 = 2"}])
    out_path = tmp_path / "o.jsonl"
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "pyshadow.cli", "parse", str(corpus), "-o", str(out_path)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "parsed 1/2 statements (50.0%)"
    b = read_jsonl(out_path)[1]
    assert b["ok"] is False and "unclosed '('" in b["error"] and "(line 1, column 12)" in b["error"]
    bad = subprocess.run([sys.executable, "-m", "pyshadow.cli", "parse", str(tmp_path / "missing.jsonl")],
                         capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 2 and "missing.jsonl" in bad.stderr


@pytest.mark.parametrize("corpus_rows", [[{"id": "a", "statement": GOOD}] * 3])
def test_parsing_is_deterministic(tmp_path, capsys, corpus_rows) -> None:
    corpus = write_corpus(tmp_path / "c.jsonl", corpus_rows)
    outs = []
    for k in range(2):
        out_path = tmp_path / f"o{k}.jsonl"
        assert run_cli([str(corpus), "-o", str(out_path)], capsys)[0] == 0
        outs.append(out_path.read_text(encoding="utf-8"))
    assert outs[0] == outs[1]


def test_benchmark_script_runs_on_a_tiny_corpus(tmp_path) -> None:
    """benchmarks/parse_corpus.py prints one `stage: N statements/s …` line per stage (speed is not asserted)."""
    corpus = write_corpus(tmp_path / "c.jsonl", [{"id": "a", "statement": GOOD},
                                                 {"id": "b", "statement": "theorem t : ¬ (1 = 2"}])
    proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "parse_corpus.py"), str(corpus), "--repeat", "1"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert [line.split(":")[0] for line in lines] == ["parse", "parse+decompose+render"]
    assert all("statements/s (2 statements, 1 ok" in line for line in lines)


def test_benchmark_stage_functions(tmp_path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("parse_corpus", REPO / "benchmarks" / "parse_corpus.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    from pyshadow.corpus import parse_corpus_lines

    entries = list(parse_corpus_lines([json.dumps({"id": "a", "statement": GOOD})], "mem"))
    assert bench.bench_parse(entries) == 1
    assert [name for name, _ in bench.STAGES][0] == "parse"
    seconds, ok = bench.best_of(bench.bench_parse, entries, 2)
    assert ok == 1 and seconds >= 0
