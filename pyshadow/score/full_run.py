"""The full tier at work: one candidate compiled in a sandbox, its declarations replayed by the kernel, its checker
file run in a fresh scratch folder, and the verdicts read back into score rows (``full_rows``). The texts
themselves are ``pyshadow.score.full``'s."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..lean.batch import effective_backend
from ..lean.replay import replay_module
from ..lean.runner import DEFAULT_ALLOWED_AXIOMS, DeclarationSpan, LeanResult, compile_module, judge, run_lean
from ..lean.toolchain import LeanExecutable
from ..references import reference_as_axioms, reference_sorry  # noqa: F401 - re-exported: verify uses both
from .pipeline import (
    Check,
    PreparedCandidate,
    ScoreRow,
    finish_row,
    missing_target_checks,
)

from .checker_file import CANDIDATE_MODULE, CHECKS_FILE, Role
from .full import candidate_check_file



@dataclass(frozen=True)
class FullTask:
    """What a worker needs to check one candidate (plain data: it crosses process boundaries)."""

    key: str
    module_text: str  # the candidate's Lean file
    checker_text: str
    spans: tuple[DeclarationSpan, ...]
    roles: Mapping[str, Role]
    workspace: Path | None = None
    timeout_s: float = 120
    memory_mb: int = 4096
    module: str = CANDIDATE_MODULE
    allowed_axioms: frozenset[str] = DEFAULT_ALLOWED_AXIOMS
    statements_module: str | None = None  # its name, and its Lean file: compiled without the candidate
    statements_text: str = ""
    statement_axioms: frozenset[str] = frozenset()  # its constants: no checker may use one (only their types)
    library_path: tuple[Path, ...] = ()  # more directories of imported .olean files (tests: a prelude "library")


@dataclass
class FullOutcome:
    key: str
    compiled: bool
    reason: str | None
    checks: list[Check]
    elapsed_s: float


def full_task(prepared: PreparedCandidate, *, workspace: Path | None, timeout_s: float, memory_mb: int
              ) -> FullTask:
    file = candidate_check_file(prepared)
    stmts = file.statements
    return FullTask(prepared.content_hash, prepared.candidate.code, file.text, tuple(file.spans), file.roles,
                    workspace, timeout_s, memory_mb,
                    statements_module=stmts.name if stmts else None, statements_text=stmts.text if stmts else "",
                    statement_axioms=frozenset(stmts.constants) if stmts else frozenset())


def _fresh(folder: Path) -> Path:
    folder.mkdir()
    return folder


def run_full_task(task: FullTask, lean: LeanExecutable) -> FullOutcome:
    """Compile the candidate module and the statements module (each on its own: the statements never see the
    candidate), then run the checker file against both; never raises for what Lean does."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pyshadow-candidate-") as tmp:
        # The candidate's folder is its sandbox's scratch: nothing in it but its own .olean is read later, and that
        # only after its process tree is gone. The statements module and the checker file are written afterwards,
        # in a folder no candidate process could write (docs/trust.md, "Full tier").
        cand_dir, trusted_dir = Path(tmp) / "candidate", Path(tmp) / "trusted"
        src_dir, out_dir = cand_dir / "src", cand_dir / "build"
        src_dir.mkdir(parents=True)

        def compile_one(name: str, text: str, home: Path, lean_path: tuple[Path, ...]) -> LeanResult:
            (home / "src").mkdir(parents=True, exist_ok=True)
            source = home / "src" / f"{name}.lean"
            source.write_text(text, encoding="utf-8")
            return compile_module(lean, source, home / "build" / f"{name}.olean", timeout_s=task.timeout_s,
                                  memory_mb=task.memory_mb, cwd=task.workspace, root=home / "src", sandbox=home,
                                  lean_path=lean_path)

        module = compile_one(task.module, task.module_text, cand_dir,
                             (*task.library_path, out_dir) if task.library_path else ())
        if not module.succeeded:
            return FullOutcome(task.key, False, f"the candidate does not compile: {compile_failure(module)}", [],
                               time.monotonic() - start)
        if lean.tier == "full":  # the kernel re-checks what the candidate module added (pyshadow.lean.replay)
            replayed = replay_module(lean, task.module, build=out_dir, library_path=task.library_path,
                                     scratch=_fresh(Path(tmp) / "replay"), cwd=task.workspace)
            if not replayed.passed:
                return FullOutcome(task.key, False, f"the candidate fails the kernel replay: {replayed.detail}", [],
                                   time.monotonic() - start)
        trusted_build = trusted_dir / "build"
        if task.statements_module is not None:
            stated = compile_one(task.statements_module, task.statements_text, trusted_dir,
                                 (*task.library_path, trusted_build) if task.library_path else ())
            if not stated.succeeded:  # a fault of the generated statements, not of the candidate
                return FullOutcome(task.key, False, "the shadow statements do not elaborate (pyshadow's fault, not "
                                   f"the candidate's): {compile_failure(stated)}", [], time.monotonic() - start)
        trusted_dir.mkdir(exist_ok=True)
        checks_file = trusted_dir / CHECKS_FILE
        checks_file.write_text(task.checker_text, encoding="utf-8")
        result = run_lean(lean, checks_file, timeout_s=task.timeout_s, memory_mb=task.memory_mb, cwd=task.workspace,
                          lean_path=(*task.library_path, trusted_build, out_dir), sandbox=_fresh(Path(tmp) / "run"))
    verdicts = judge(result, task.spans, task.allowed_axioms, text=task.checker_text,
                     forbidden_axioms=task.statement_axioms)
    checks = []
    for span in task.spans:
        role, verdict = task.roles[span.name], verdicts[span.name]
        if role.kind == "certificate":
            continue  # a helper: its failure shows in the backward check that uses it
        checks.append(Check(span.name, role.kind, role.target, verdict.passed, verdict.reason, role.shadow))
    axioms = [c for c in checks if c.kind == "axioms"]
    bad_axioms = [c for c in axioms if not c.passed]
    compiled = result.status == "ok" and not bad_axioms
    reason = None
    if result.status != "ok":
        reason = f"the checker process ended with {result.status}: {result.detail}"
    elif bad_axioms:
        reason = f"the candidate's axioms: {bad_axioms[0].message}"
    return FullOutcome(task.key, compiled, reason, checks, time.monotonic() - start)


def compile_failure(result: LeanResult) -> str:
    """One line on why a module did not compile: the first error, or the process status."""
    if result.status != "ok":
        return f"{result.status} ({result.detail})" if result.detail else result.status
    if result.errors:
        first = result.errors[0]
        return f"line {first.pos.line}: {first.message.splitlines()[0] if first.message else 'error'}"
    return f"exit code {result.returncode}"


# ---------------------------------------------------------------------------------------------------------------
# Many candidates


def full_rows(
    prepared: Sequence[PreparedCandidate],
    lean: LeanExecutable,
    *,
    workspace: Path | None = None,
    n_jobs: int = -1,
    backend: str | None = "loky",
    timeout_s: float = 120,
    memory_mb: int = 4096,
) -> Iterator[ScoreRow]:
    """Full-tier rows, yielded as candidates finish (joblib over candidates; three Lean processes each).

    A flagged candidate is never compiled: its row comes at once, failed with the audit's findings.
    """
    tasks: dict[str, tuple[PreparedCandidate, FullTask]] = {}
    for p in prepared:
        if p.flagged:
            yield finish_row(p, "full", missing_checks(p), compiled=False)
        else:
            tasks[p.content_hash] = (p, full_task(p, workspace=workspace, timeout_s=timeout_s, memory_mb=memory_mb))
    if not tasks:
        return
    import joblib  # imported on use, as in pyshadow.lean.batch

    parallel = joblib.Parallel(n_jobs=n_jobs, backend=effective_backend(backend), return_as="generator_unordered")
    for outcome in parallel(joblib.delayed(run_full_task)(task, lean) for _, task in tasks.values()):
        p, _ = tasks[outcome.key]
        yield finish_row(p, "full", outcome.checks + missing_checks(p), compiled=outcome.compiled,
                         reason=outcome.reason, elapsed_s=outcome.elapsed_s)


def missing_checks(prepared: PreparedCandidate) -> list[Check]:
    """Failed checks for the targets that get no checkers: not declared by the candidate, or not checkable."""
    out: list[Check] = []
    for t in prepared.info.targets:
        if prepared.extracted.get(t.name) is None or t.error or t.declaration is None:
            out += missing_target_checks(prepared, t)
    return out


