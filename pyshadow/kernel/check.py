"""Running the kernel tier over many statements: batch blocks into files, run real Lean, read the verdicts.

Many statements share one file (one Lean process) — each in its own namespace, so its abstract constants cannot
collide — and attribution stays exact because every checker is a named theorem with its own line span and its own
``#print axioms`` line (``pyshadow.lean.runner.judge``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from ..lean.batch import LeanJob, run_jobs
from ..lean.runner import DeclarationSpan
from ..lean.toolchain import LeanExecutable
from ..shadows.rules import decompose
from ..syntax.ast import Declaration
from .abstract import KernelBlock, kernel_block
from .prelude import PRELUDE

DEFAULT_BATCH = 40


@dataclass
class StatementReport:
    """What real Lean said about one statement's abstracted checkers."""

    key: str
    status: str  # decomposed | atomic | error
    accepted: dict[str, bool] = field(default_factory=dict)  # role → accepted (genuine checkers)
    mutants_rejected: dict[str, bool] = field(default_factory=dict)  # role → rejected
    messages: dict[str, str] = field(default_factory=dict)  # role → why it failed
    error: str | None = None

    @property
    def all_accepted(self) -> bool:
        return self.error is None and bool(self.accepted) and all(self.accepted.values())

    def to_dict(self) -> dict:
        return {"id": self.key, "status": self.status, "accepted": self.accepted,
                "mutants_rejected": self.mutants_rejected, "messages": self.messages, "error": self.error,
                "kernel_checked": self.all_accepted}


def blocks_for(items: Iterable[tuple[str, Declaration, bool]], *, mutants: bool) -> list[KernelBlock]:
    """One block per (key, declaration, uses-Mathlib) item, with stable namespaces ``K0``, ``K1`` …"""
    blocks = []
    for n, (key, decl, mathlib) in enumerate(items):
        blocks.append(kernel_block(key, f"K{n}", decl, decompose(decl, mathlib=mathlib), mutants=mutants))
    return blocks


def batch_file(blocks: Sequence[KernelBlock]) -> tuple[str, tuple[DeclarationSpan, ...], frozenset[str]]:
    """The prelude plus the blocks; the line span of every checker; the axioms the checkers may use."""
    text = PRELUDE + "\n" + "\n".join(b.text for b in blocks)
    spans = block_spans(text)
    allowed: set[str] = set()
    for b in blocks:
        allowed |= b.axioms
        allowed |= {a.split(".", 1)[1] for a in b.axioms if a.startswith(f"{b.namespace}.")}
    return text, spans, frozenset(allowed)


DECLARATIONS = "__declarations__"


def block_spans(text: str) -> tuple[DeclarationSpan, ...]:
    """The line span of every checker of every ``namespace`` block — and of each block's own declarations
    (``<ns>.__declarations__``), so that an error among one block's abstract constants is charged to that block
    (whose checkers then fail for want of them) and never to its neighbours or the whole file."""
    spans: list[DeclarationSpan] = []
    namespace, block_start, first_theorem, start = "", 0, 0, 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("namespace "):
            namespace, block_start, first_theorem = line.split()[1], number, 0
        elif line.startswith("end ") and namespace:
            if not first_theorem:
                spans.append(DeclarationSpan(f"{namespace}.{DECLARATIONS}", block_start, number))
            namespace = ""
        elif line.startswith("theorem ") and namespace:  # the prelude's own theorems are not checkers
            if not first_theorem:
                first_theorem = number
                spans.append(DeclarationSpan(f"{namespace}.{DECLARATIONS}", block_start, number - 1))
            start = number
            name = line.split()[1]
        elif line.startswith("#print axioms ") and namespace:
            spans.append(DeclarationSpan(f"{namespace}.{name}", start, number - 1))
    return tuple(spans)


def kernel_jobs(blocks: Sequence[KernelBlock], batch_size: int = DEFAULT_BATCH, timeout_s: float = 120
                ) -> list[LeanJob]:
    jobs = []
    for start in range(0, len(blocks), batch_size):
        chunk = blocks[start : start + batch_size]
        text, spans, allowed = batch_file(chunk)
        jobs.append(LeanJob(key=f"kernel-batch-{start // batch_size}", text=text, spans=spans,
                            allowed_axioms=allowed, timeout_s=timeout_s))
    return jobs


def check_blocks(blocks: Sequence[KernelBlock], lean: LeanExecutable, *, batch_size: int = DEFAULT_BATCH,
                 n_jobs: int = -1, cache_dir: Path | None = None, progress: bool = False
                 ) -> dict[str, StatementReport]:
    """Run real Lean on the blocks and report per statement (keyed by the block's key)."""
    jobs = kernel_jobs(blocks, batch_size)
    results = run_jobs(jobs, lean, n_jobs=n_jobs, cache_dir=cache_dir, progress=progress)
    verdicts = {name: v for r in results for name, v in r.verdicts.items()}
    reports: dict[str, StatementReport] = {}
    for b in blocks:
        rep = StatementReport(b.key, "decomposed" if any(r == "backward" for r in b.checkers.values()) else "atomic")
        for name, role in b.checkers.items():
            v = verdicts.get(name)
            ok = bool(v and v.passed)
            if role.startswith("mutant"):
                rep.mutants_rejected[role] = not ok
                if ok:
                    rep.messages[role] = "mutant accepted by Lean"
            else:
                rep.accepted[role] = ok
                if not ok:
                    rep.messages[role] = v.reason if v else "no verdict"
        reports[b.key] = rep
    return reports


def summary_line(reports: Iterable[StatementReport]) -> str:
    reports = list(reports)
    checked = sum(r.all_accepted for r in reports)
    mutants = [ok for r in reports for ok in r.mutants_rejected.values()]
    return (f"kernel-checked {checked}/{len(reports)} statements; "
            f"mutants rejected {sum(mutants)}/{len(mutants)}")
