"""The README says what the code does: its main-job table is the one `pyshadow run` prints, its two set-up
commands are the ones CI runs, and every command it documents exists."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pyshadow.cli import build_parser

README = Path(__file__).resolve().parents[1] / "README.md"


def _readme_block_after(marker: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    fence = text.index("```", text.index(marker))
    start = text.index("\n", fence) + 1
    return text[start : text.index("```", start)].splitlines()


@pytest.mark.kernel
def test_main_job_table_in_readme_is_the_printed_one(tmp_path):
    expected = _readme_block_after("What it prints here")
    proc = subprocess.run([sys.executable, "-m", "pyshadow.cli", "run", "-o", str(tmp_path / "ws")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    printed = proc.stdout.splitlines()
    # The first line names the workspace and counts files written; everything after it must match exactly.
    assert printed[0].startswith("generated ") and expected[0].startswith("generated ")
    assert printed[0].split(" into ")[0] == expected[0].split(" into ")[0]
    assert printed[1:] == expected[1:]


def test_setup_commands_and_ci_agree():
    text = README.read_text(encoding="utf-8")
    commands = _readme_block_after("## Set up")
    assert len(commands) == 2 and "pyshadow run" in commands[0] and "pytest" in commands[1]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[test]'" in ci and "python3 -m pytest -q" in ci
    assert "python3 -m pytest -q" in commands[1]
    assert text.count("```bash") >= 1


def test_every_documented_command_exists():
    rows = re.findall(r"^\| `pyshadow ([a-z-]+)", README.read_text(encoding="utf-8"), flags=re.M)
    parser = build_parser()
    known = set(next(a for a in parser._actions if a.dest == "command").choices)
    assert rows and set(rows) <= known
    assert known <= set(rows), f"commands missing from the README table: {sorted(known - set(rows))}"
