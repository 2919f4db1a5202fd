"""Kernel replay of a candidate module (``pyshadow.lean.replay``): the plumbing with a stand-in toolchain here, and
with a real toolchain (``@pytest.mark.lean``) a declaration added under ``debug.skipKernelTC`` that ``#print axioms``
reports clean but the replay refuses."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from pyshadow.lean.replay import leanchecker_of, replay_module, toolchain_prefix
from pyshadow.lean.toolchain import LeanExecutable


def _script(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + textwrap.dedent(body), encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.fixture
def standin(tmp_path):
    """A toolchain folder whose `lean --print-prefix` names it and whose `leanchecker` refuses module `Bad` and
    records the LEAN_PATH it saw."""
    prefix = tmp_path / "toolchain"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "lib" / "lean").mkdir(parents=True)
    lean = _script(prefix / "bin" / "lean", f'[ "$1" = "--print-prefix" ] && echo {prefix} && exit 0\nexit 2\n')
    log = tmp_path / "seen.txt"
    _script(prefix / "bin" / "leanchecker", f'''\
        echo "$LEAN_PATH" > {log}
        if [ "$1" = "Bad" ]; then echo "uncaught exception: (kernel) declaration type mismatch" >&2; exit 1; fi
        exit 0
        ''')
    toolchain_prefix.cache_clear()
    return LeanExecutable(lean, "4.35.0", "full"), prefix, log


def test_replay_passes_when_the_kernel_accepts(standin, tmp_path):
    lean, prefix, log = standin
    build, lib = tmp_path / "build", tmp_path / "mathlib"
    build.mkdir(), lib.mkdir()
    replay = replay_module(lean, "Good", build=build, library_path=[lib], scratch=tmp_path)
    assert replay.passed, replay.detail
    # the toolchain's library first, the candidate's build folder (which it could write) last
    assert log.read_text().strip().split(os.pathsep) == [str(prefix / "lib" / "lean"), str(lib), str(build)]


def test_replay_fails_with_the_kernels_words(standin, tmp_path):
    lean, _, _ = standin
    replay = replay_module(lean, "Bad", build=tmp_path, scratch=tmp_path)
    assert not replay.passed and "declaration type mismatch" in replay.detail and "exit 1" in replay.detail


def test_replay_fails_closed_without_leanchecker(standin, tmp_path):
    lean, prefix, _ = standin
    (prefix / "bin" / "leanchecker").unlink()
    assert leanchecker_of(lean) is None
    replay = replay_module(lean, "Good", build=tmp_path, scratch=tmp_path)
    assert not replay.passed and "unavailable" in replay.detail


def test_replay_timeout_is_a_failure(standin, tmp_path):
    lean, prefix, _ = standin
    _script(prefix / "bin" / "leanchecker", "sleep 30\n")
    replay = replay_module(lean, "Good", build=tmp_path, scratch=tmp_path, timeout_s=0.5)
    assert not replay.passed and "timeout" in replay.detail


# ---------------------------------------------------------------------------------------------------------------
# With a real toolchain

SKIPPED_KERNEL = """\
import Lean
open Lean Elab Tactic in
set_option debug.skipKernelTC true in
theorem PyshadowReplayProbe.bad : False := by
  run_tac do (← getMainGoal).assign (mkConst ``True.intro)
#print axioms PyshadowReplayProbe.bad
"""
HONEST = "theorem PyshadowReplayProbe.good : True := trivial\n#print axioms PyshadowReplayProbe.good\n"


@pytest.mark.lean
@pytest.mark.parametrize("text, replays", [(SKIPPED_KERNEL, False), (HONEST, True)], ids=["skipKernelTC", "honest"])
def test_declaration_added_without_kernel_check_fails_the_replay(text, replays, tmp_path):
    from pyshadow.lean.diagnostics import parse_axioms_message
    from pyshadow.lean.runner import compile_module
    from pyshadow.lean.toolchain import find_full_toolchain

    lean = find_full_toolchain()
    src, build = tmp_path / "src", tmp_path / "build"
    src.mkdir()
    (src / "ReplayProbe.lean").write_text(text, encoding="utf-8")
    compiled = compile_module(lean, src / "ReplayProbe.lean", build / "ReplayProbe.olean", root=src,
                              timeout_s=600, sandbox=tmp_path)
    assert compiled.succeeded, compiled.diagnostics
    # what `#print axioms` says: no axiom at all, for the unchecked declaration too
    axioms = [parse_axioms_message(d.message) for d in compiled.diagnostics]
    assert any(a is not None and "sorryAx" not in a[1] for a in axioms)
    replay = replay_module(lean, "ReplayProbe", build=build, scratch=tmp_path / "replay_scratch")
    assert replay.passed is replays, replay.detail
