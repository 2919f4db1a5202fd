"""Shared test setup: the Lean fixtures (kernel-tier lean, stand-in executable) and the dev corpus."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from conftest_lean import *  # noqa: E402,F401,F403 - Lean fixtures: kernel_lean_exe, standin_lean, checker_file …

DEV_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "dev.jsonl"


@pytest.fixture(scope="session")
def dev_rows():
    """The real statements of ../shared/corpora/dev.jsonl (skipped with a reason where shared/ is absent)."""
    if not DEV_CORPUS.exists():
        pytest.skip(f"dev corpus not found at {DEV_CORPUS}")
    return [json.loads(line) for line in DEV_CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def pytest_collection_modifyitems(config, items):
    """``@pytest.mark.lean`` tests need a full toolchain (lean + lake with Init/Mathlib): skip them, saying why."""
    if not any(item.get_closest_marker("lean") for item in items):
        return
    from pyshadow.lean.toolchain import find_full_toolchain

    if find_full_toolchain() is not None:
        return
    skip = pytest.mark.skip(reason="needs a full Lean 4 toolchain (lean and lake with Init) on PATH; none here")
    for item in items:
        if item.get_closest_marker("lean"):
            item.add_marker(skip)
