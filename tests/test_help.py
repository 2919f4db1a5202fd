"""`pyshadow COMMAND --help` is short and plain: ≤ 25 lines of at most 80 columns, no reST, one line per option,
one example, and a pointer to its section of docs/commands.md (which holds the long text)."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pyshadow.cli import build_parser
from pyshadow.commands.helptext import DETAILS, EXAMPLE

REPO = Path(__file__).resolve().parents[1]
COMMANDS = sorted(next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices)


def _help(command: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "pyshadow.cli", command, "--help"], capture_output=True,
                          text=True, env=env, timeout=60)


def test_every_command_is_covered():
    assert len(COMMANDS) >= 18 and {"score", "verify", "judge", "check-problem", "agree"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_is_short_plain_and_has_one_example(command):
    done = _help(command)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) <= 25, f"{command} --help is {len(lines)} lines"
    assert "``" not in done.stdout and ":mod:" not in done.stdout
    examples = [line for line in lines if line.startswith(EXAMPLE)]
    assert len(examples) == 1 and examples[0].startswith(f"{EXAMPLE} pyshadow {command} "), examples
    assert len(examples[0]) <= 100
    assert all(len(line) <= 80 for line in lines if not line.startswith(EXAMPLE)), \
        [line for line in lines if len(line) > 80]
    assert lines[0].startswith(f"usage: pyshadow {command}") and len(lines[2].split(". ")) == 1  # one sentence
    # one line per option: an option's help never wraps onto a continuation line
    assert not [line for line in lines if re.match(r" {10,}\S", line)], done.stdout
    assert lines[-1] == f"{DETAILS} docs/commands.md#{command}"


def test_every_command_has_its_section_in_docs_commands_md():
    text = (REPO / "docs" / "commands.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^## (\S+)$", text, flags=re.M))
    assert set(COMMANDS) <= sections, set(COMMANDS) - sections
    assert {"Lean", "LLM"} <= {s.split()[0] for s in re.findall(r"^## (.+)$", text, flags=re.M)}
    assert "``" not in text


def test_the_long_text_moved_rather_than_vanished():
    """Facts that were in `score --help` (exit codes, resume, the kernel tier's undecided verdict) are in the docs."""
    text = (REPO / "docs" / "commands.md").read_text(encoding="utf-8")
    score = text.split("## score\n", 1)[1].split("\n## ", 1)[0]
    for fact in ("A rerun skips candidates already in the file with the same content hash",
                 "Undecided candidates are counted in their own column and never as passes",
                 "a `sorry` in a definition's body still fails the candidate in both kinds",
                 "RESULTS.pass_at_k.csv", "3 the requested\nLean tier is not available here"):
        assert fact in score, fact


def test_shared_options_are_listed_by_spelling_and_still_parse():
    done = _help("score")
    assert "--backend loky|dask|ray" in done.stdout and "--llm none|replay|record|live" in done.stdout
    args = build_parser().parse_args(["score", "p", "c", "-o", "r.jsonl", "--backend", "dask", "-j", "2",
                                      "--llm", "replay", "--llm-cache", "x"])
    assert (args.backend, args.jobs, args.llm, args.llm_cache) == ("dask", 2, "replay", "x")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["score", "p", "c", "-o", "r.jsonl", "--backend", "spark"])
