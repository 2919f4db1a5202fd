"""Many statements elaborated by Lean against the signature environment, in one Lean process per batch.

Each statement becomes ``namespace S<n>`` … ``end S<n>`` around its own ``open`` lines and ``autoImplicit``
setting (so no context leaks into the next), and Lean's diagnostics are attributed back by line. A statement that
cannot be printed (``Untranslatable``) or that Lean rejects (an undeclared constant, a type error) is reported
with the reason; only one Lean accepts is ``elaborated``.
"""

from __future__ import annotations

import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..lean.runner import LeanResult, run_lean
from ..lean.toolchain import LeanExecutable
from ..syntax.parser import ParseError, parse_declaration
from .environment import ROOT_MODULE, build_environment
from .statements import lean_statement, scoped_block
from .translate import Untranslatable

BATCH_TIMEOUT_S = 300.0
# Every batch file's first lines. Linters only warn, and cost a third of the time on real statements: off
# (``linter.all``, src/Lean/Linter/Basic.lean).
HEADER = f"prelude\nimport {ROOT_MODULE}\nset_option linter.all false\n"
# Lean names the constant in backticks (`Xor'` keeps its prime) or, in older messages, in single quotes.
_UNKNOWN_RE = re.compile(r"[Uu]nknown (?:identifier|constant) (?:`([^`\s]+)`|'([^'\s]+)'|([^\s`']+))")


@dataclass(frozen=True)
class StatementInput:
    key: str
    statement: str  # a declaration up to its `:=`
    context: str = ""


@dataclass(frozen=True)
class Elaboration:
    """What Lean said about one statement."""

    key: str
    status: str  # elaborated | rejected | untranslatable | unparsed
    reason: str = ""  # Lean's first error, or why it was not printed
    command: str = ""  # the command Lean elaborated
    unknown: str = ""  # the undeclared constant Lean named, when that was the error

    @property
    def elaborated(self) -> bool:
        return self.status == "elaborated"


def elaborate(items: Sequence[StatementInput], lean: LeanExecutable, *, cache_root: Path | None = None,
              timeout_s: float = BATCH_TIMEOUT_S) -> list[Elaboration]:
    """One ``Elaboration`` per item, in order; all printable items share one Lean process."""
    results: dict[int, Elaboration] = {}
    blocks: list[tuple[int, str, str]] = []  # (index, block text, command)
    for i, item in enumerate(items):
        try:
            stmt = lean_statement(parse_declaration(item.statement), item.context)
        except ParseError as err:
            results[i] = Elaboration(item.key, "unparsed", str(err).splitlines()[0])
            continue
        except Untranslatable as err:
            results[i] = Elaboration(item.key, "untranslatable", f"not printed for Lean: {err}")
            continue
        blocks.append((i, scoped_block(f"S{i}", stmt, stmt.axiom_command)[0], stmt.axiom_command))
    if blocks:
        results.update(_run_batch(items, blocks, lean, cache_root, timeout_s))
    return [results[i] for i in range(len(items))]


def _run_batch(items, blocks, lean, cache_root, timeout_s) -> dict[int, Elaboration]:
    result, errors = run_blocks([(i, b) for i, b, _ in blocks], lean, cache_root=cache_root, timeout_s=timeout_s)
    out = {}
    for index, _block, command in blocks:
        key = items[index].key
        if result.status != "ok":
            out[index] = Elaboration(key, "rejected", f"Lean did not finish: {result.detail}", command)
        elif index in errors:
            unknown = _UNKNOWN_RE.search(errors[index])
            out[index] = Elaboration(key, "rejected", errors[index].splitlines()[0], command,
                                     next(g for g in unknown.groups() if g) if unknown else "")
        else:
            out[index] = Elaboration(key, "elaborated", "", command)
    return out


def run_block_chunks(chunks: Sequence[Sequence[tuple[int, str]]], lean: LeanExecutable, *,
                     cache_root: Path | None = None, timeout_s: float = BATCH_TIMEOUT_S,
                     sorry: set[int] | None = None) -> list[tuple[LeanResult, dict[int, str]]]:
    """``run_blocks`` for each chunk, every chunk in its own Lean process at the same time (threads wait on the
    processes); block indices must be distinct across chunks. The environment is built first, once."""
    build_environment(lean, cache_root)
    chunks = [c for c in chunks if c]
    if len(chunks) <= 1:
        return [run_blocks(c, lean, cache_root=cache_root, timeout_s=timeout_s, sorry=sorry) for c in chunks]
    with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
        return list(pool.map(lambda c: run_blocks(c, lean, cache_root=cache_root, timeout_s=timeout_s,
                                                  sorry=sorry), chunks))


# Each Lean process first loads the environment (≈ 0.45 s): a process gets at least this many pieces of work.
MIN_PER_PROCESS = 40


def processes(n_jobs: int, work: int) -> int:
    """How many Lean processes for ``work`` independent pieces: ``n_jobs`` (all cores when not positive), but
    no more than keeps ``MIN_PER_PROCESS`` pieces in each."""
    cores = n_jobs if n_jobs > 0 else (os.cpu_count() or 1)
    return max(1, min(cores, -(-work // MIN_PER_PROCESS)))


def run_blocks(blocks: Sequence[tuple[int, str]], lean: LeanExecutable, *, cache_root: Path | None = None,
               timeout_s: float = BATCH_TIMEOUT_S, sorry: set[int] | None = None) -> tuple[LeanResult, dict[int, str]]:
    """One file ``import PyshadowEnv`` + the blocks, run once; each block's first error message by its index.
    With ``sorry``, the indices of blocks Lean warns use ``sorry`` are added to it."""
    header = HEADER
    text, spans, line = header, [], header.count("\n") + 1
    for index, block in blocks:
        n = block.count("\n") + 1
        spans.append((index, line, line + n - 1))
        text += block + "\n"
        line += n
    env_root = build_environment(lean, cache_root)
    with tempfile.TemporaryDirectory(prefix="pyshadow-elab-") as tmp:
        path = Path(tmp) / "Statements.lean"
        path.write_text(text, encoding="utf-8")
        result = run_lean(lean, path, timeout_s=timeout_s, lean_path=[env_root], cwd=Path(tmp))
    errors: dict[int, str] = {}
    for diag in result.diagnostics:
        for index, first, last in spans:
            if not first <= diag.pos.line <= last:
                continue
            if diag.is_error and index not in errors:
                errors[index] = diag.message.strip()
            elif sorry is not None and not diag.is_error and "sorry" in diag.message:
                sorry.add(index)
    return result, errors
