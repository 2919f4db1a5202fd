"""Kernel replay of a compiled candidate module, in a fresh process: what ``#print axioms`` cannot see.

A candidate's metaprograms run while it compiles and can add a declaration without kernel checking
(``set_option debug.skipKernelTC true``, read by ``addDecl`` in leanprover/lean4 ``src/Lean/AddDecl.lean``, or an
environment modified directly); ``#print axioms`` then reads the environment those metaprograms wrote and reports
no axiom at all. ``replay_module`` runs the toolchain's ``leanchecker`` on the candidate's ``.olean``: it imports the
module's imports and sends every constant the module adds to the kernel (``Lean.Environment.replay``,
leanprover/lean4 ``src/Lean/Replay.lean`` and ``src/LeanChecker/Replay.lean``; the driver is ``src/LeanChecker.lean``,
``replayFromImports``), so a declaration whose value does not have its stored type is refused. ``leanchecker``
ships in the toolchain's ``bin/`` since Lean v4.28.0-rc1 (lean4 PR #11887, "re-integrate lean4checker as
`leanchecker`"; leanprover/lean-action PR #156 detects it there); the project pins
v4.31.0 (``lean-toolchain``).

Choices that carry weight:

* ``leanchecker`` comes from the installation prefix of the ``lean`` that compiled the module (``lean
  --print-prefix``): an ``.olean`` belongs to the toolchain that wrote it.
* ``LEAN_PATH`` lists the toolchain's ``lib/lean`` first, then the libraries, then the candidate's build folder
  last: that folder was writable by the candidate, and a planted ``Init/`` there must not shadow the real one.
* A module name is always given: without one, ``leanchecker`` checks every module on the search path.
* It runs sandboxed too (it reads files the candidate could write), and fails closed: no ``leanchecker``, a timeout
  or a crash is a failed replay, never a pass.
"""

from __future__ import annotations

import functools
import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .runner import is_lake_workspace, run_sandboxed
from .toolchain import LeanExecutable

REPLAY_TIMEOUT_S = 300.0


@dataclass(frozen=True, slots=True)
class Replay:
    """The kernel replay of one module: passed, and Lean's words when it did not."""

    passed: bool
    detail: str


@functools.cache
def toolchain_prefix(lean_path: Path) -> Path | None:
    """The installation prefix of a ``lean`` binary (``lean --print-prefix``), or None."""
    try:
        out = subprocess.run([str(lean_path), "--print-prefix"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = out.stdout.strip().splitlines()
    prefix = Path(lines[-1].strip()) if out.returncode == 0 and lines else None
    return prefix if prefix is not None and prefix.is_dir() else None


def leanchecker_of(lean: LeanExecutable) -> Path | None:
    """The ``leanchecker`` of ``lean``'s toolchain, or None when it ships none."""
    prefix = toolchain_prefix(lean.path)
    candidates = [prefix / "bin" / "leanchecker"] if prefix is not None else []
    candidates.append(Path(lean.path).parent / "leanchecker")
    return next((c for c in candidates if c.is_file() and os.access(c, os.X_OK)), None)


def replay_module(lean: LeanExecutable, module: str, *, build: Path, library_path: Sequence[Path] = (),
                  scratch: Path, cwd: Path | None = None, timeout_s: float = REPLAY_TIMEOUT_S,
                  memory_mb: int = 8192) -> Replay:
    """Replay the constants ``module`` (compiled to ``build/<module>.olean``) adds, through the kernel.

    ``library_path``: folders of the modules it imports, searched before ``build``. ``cwd``: the Lake workspace, if
    any (then ``lake env`` puts its packages' libraries, Mathlib's, in front of ``LEAN_PATH``).
    ``scratch``: a fresh folder, the only place the replay may write.
    """
    Path(scratch).mkdir(parents=True, exist_ok=True)
    checker = leanchecker_of(lean)
    if checker is None:
        return Replay(False, "kernel replay unavailable: this toolchain ships no leanchecker (Lean ≥ 4.28 does)")
    prefix = toolchain_prefix(lean.path)
    search = [*([prefix / "lib" / "lean"] if prefix is not None else []), *library_path, build]
    env = dict(os.environ, LEAN_PATH=os.pathsep.join(str(Path(p)) for p in search))
    command = [str(checker), module]
    if lean.lake is not None and cwd is not None and is_lake_workspace(cwd):
        command = [str(lean.lake), "env", *command]
    result = run_sandboxed(command, scratch, timeout_s=timeout_s, memory_mb=memory_mb, cwd=cwd, env=env)
    if result.status in {"timeout", "memory"}:
        return Replay(False, f"kernel replay {result.status}: {result.detail}")
    if result.returncode == 0:
        return Replay(True, "the kernel accepted every declaration the module adds")
    said = (result.stderr_tail.strip() or " ".join(result.noise).strip() or result.detail)[-600:]
    return Replay(False, f"the kernel replay rejects the module (leanchecker exit {result.returncode}): {said}")


__all__ = ["Replay", "leanchecker_of", "replay_module", "toolchain_prefix"]
