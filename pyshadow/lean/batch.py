"""Many Lean files in parallel (joblib), cached by content hash, resumable from a JSONL log.

``run_jobs`` is docs/DESIGN.md "Scale" in one function:

* **parallel** — ``joblib.Parallel`` over the jobs, results taken as they finish (``generator_unordered``).
  The default backend is loky; pass ``backend=None``, or call inside ``joblib.parallel_config(backend="dask")``
  (or ``"ray"``), and the surrounding configuration takes over — pyshadow has no scheduler of its own.
* **cache** — each result is stored under ``cache_dir`` by a hash of everything that decides it: the file text,
  the checker spans, the allowed axioms, the toolchain fingerprint, the job's ``cache_salt``, and a stat digest of
  the ``.olean`` files on its ``lean_path`` (and the workspace's manifest). A rerun of unchanged inputs starts no
  Lean process. Crashes are never reused; a timeout (or memory kill) is reused only while the new limit is not
  larger than the one it hit.
* **resume** — each result is appended to ``results_jsonl`` the moment it arrives (one JSON object per line,
  flushed), so an interrupted run restarted with the same arguments skips what already finished. A line cut short
  by the interruption is ignored and that job runs again.

Jobs run in worker processes; everything crossing that boundary is a plain dataclass, and results are
JSON-serialisable (``JobResult.to_dict`` / ``from_dict``).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from ..jsonl import AppendLog, read_records
from .runner import DeclarationSpan, Verdict, judge, run_lean
from .toolchain import LeanExecutable, toolchain_fingerprint

CACHE_SCHEMA = 1
JOB_FILE_NAME = "Checks.lean"


@dataclass(frozen=True)
class LeanJob:
    """One Lean file to elaborate and the checker declarations in it to judge."""

    key: str  # the caller's id, e.g. "minif2f/aime_1983_p1"; unique within a run
    text: str  # the full Lean file
    spans: tuple[DeclarationSpan, ...]
    allowed_axioms: frozenset[str]
    timeout_s: float = 60
    lean_path: tuple[Path, ...] = ()  # module roots for LEAN_PATH (e.g. a compiled candidate)
    workspace: Path | None = None  # a Lake workspace to run in (full tier: ``lake env lean``)
    cache_salt: str = ""  # anything else that changes the outcome and is not in ``text``


@dataclass
class JobResult:
    key: str
    status: str  # the LeanResult status: "ok" | "timeout" | "crash" | "memory"
    verdicts: dict[str, Verdict]
    elapsed_s: float
    cached: bool  # True when no Lean ran for it in this call (cache hit or resumed from results_jsonl)
    cache_key: str = ""
    detail: str = ""  # why the status is not "ok"
    timeout_s: float = 0.0  # the limits it ran under, to decide whether a non-"ok" result may be reused
    memory_mb: int = 0

    @property
    def passed(self) -> dict[str, bool]:
        return {name: verdict.passed for name, verdict in self.verdicts.items()}

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "status": self.status,
            "verdicts": {name: verdict.to_dict() for name, verdict in self.verdicts.items()},
            "elapsed_s": round(self.elapsed_s, 4),
            "cached": self.cached,
            "cache_key": self.cache_key,
            "detail": self.detail,
            "timeout_s": self.timeout_s,
            "memory_mb": self.memory_mb,
        }

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> JobResult:
        return cls(
            key=obj["key"],
            status=obj["status"],
            verdicts={name: Verdict.from_dict(v) for name, v in obj.get("verdicts", {}).items()},
            elapsed_s=float(obj.get("elapsed_s", 0.0)),
            cached=bool(obj.get("cached", False)),
            cache_key=obj.get("cache_key", ""),
            detail=obj.get("detail", ""),
            timeout_s=float(obj.get("timeout_s", 0.0)),
            memory_mb=int(obj.get("memory_mb", 0)),
        )


# ---------------------------------------------------------------------------------------------- the run


def run_jobs(
    jobs: Sequence[LeanJob],
    lean: LeanExecutable,
    *,
    n_jobs: int = -1,
    backend: str | None = "loky",
    cache_dir: Path | None = None,
    results_jsonl: Path | None = None,
    progress: bool | None = None,  # None: as the command chose (pyshadow.progress.set_default)
    memory_mb: int = 4096,
) -> list[JobResult]:
    """Run every job (or reuse its result) and return the results in the order of ``jobs``."""
    check_unique_keys(jobs)
    fingerprint = toolchain_fingerprint(lean)
    cache_keys = {job.key: job_cache_key(job, fingerprint) for job in jobs}
    done = resumable_results(results_jsonl, jobs, cache_keys, memory_mb) if results_jsonl else {}
    pending: list[LeanJob] = []
    fresh_from_cache: list[JobResult] = []
    for job in jobs:
        if job.key in done:
            continue
        hit = load_cached(cache_dir, cache_keys[job.key], job, memory_mb) if cache_dir else None
        if hit is None:
            pending.append(job)
        else:
            done[job.key] = hit
            fresh_from_cache.append(hit)
    with _progress_bar(len(jobs), len(done), progress) as bar, AppendLog(results_jsonl) as log:
        for result in fresh_from_cache:
            log.append(result)
        for result in _parallel_results(pending, lean, memory_mb, cache_keys, n_jobs, backend):
            done[result.key] = result
            if cache_dir is not None:
                store_cached(cache_dir, result)
            log.append(result)
            bar.update(1)
    return [done[job.key] for job in jobs]


def run_job(job: LeanJob, lean: LeanExecutable, memory_mb: int, cache_key: str = "") -> JobResult:
    """Write the job's text to a fresh temporary directory, run Lean on it and judge its spans (worker side)."""
    with tempfile.TemporaryDirectory(prefix="pyshadow-job-") as tmp:
        file = Path(tmp) / JOB_FILE_NAME
        file.write_text(job.text, encoding="utf-8")
        result = run_lean(lean, file, timeout_s=job.timeout_s, memory_mb=memory_mb, cwd=job.workspace,
                          lean_path=job.lean_path)
    verdicts = judge(result, job.spans, job.allowed_axioms, text=job.text)
    return JobResult(job.key, result.status, verdicts, result.elapsed_s, False, cache_key, result.detail,
                     job.timeout_s, memory_mb)


def _parallel_results(
    pending: Sequence[LeanJob], lean: LeanExecutable, memory_mb: int, cache_keys: dict[str, str],
    n_jobs: int, backend: str | None,
) -> Iterator[JobResult]:
    if not pending:
        return iter(())
    import joblib  # imported on use, like tqdm: importing pyshadow.lean stays cheap

    parallel = joblib.Parallel(n_jobs=n_jobs, backend=effective_backend(backend), return_as="generator_unordered")
    return parallel(joblib.delayed(run_job)(job, lean, memory_mb, cache_keys[job.key]) for job in pending)


def effective_backend(requested: str | None) -> str | None:
    """``requested``, unless a ``joblib.parallel_config`` context chose a backend (then None defers to it)."""
    if requested is None:
        return None
    import joblib.parallel

    config = getattr(joblib.parallel._backend, "config", None)  # the thread-local set by parallel_config
    if isinstance(config, dict):
        active = config.get("backend")
        if active is not None and active is not joblib.parallel.default_parallel_config["backend"]:
            return None
    return requested


def check_unique_keys(jobs: Iterable[LeanJob]) -> None:
    seen: set[str] = set()
    for job in jobs:
        if job.key in seen:
            raise ValueError(f"two jobs share the key {job.key!r}; keys identify results and must be unique")
        seen.add(job.key)


def _progress_bar(total: int, initial: int, enabled: bool | None):
    from ..progress import progress_bar  # a bar on a terminal, plain periodic lines in a log

    return progress_bar(total, "lean", initial=initial, unit="jobs", enabled=enabled)


# ---------------------------------------------------------------------------------------------- cache


def job_cache_key(job: LeanJob, fingerprint: str) -> str:
    """Hash of everything that decides a job's result (not its key, not its timeout)."""
    payload = {
        "schema": CACHE_SCHEMA,
        "toolchain": fingerprint,
        "text": job.text,
        "spans": [[s.name, s.start_line, s.end_line] for s in job.spans],
        "allowed_axioms": sorted(job.allowed_axioms),
        "salt": job.cache_salt,
        "environment": environment_digest(job),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def environment_digest(job: LeanJob) -> str:
    """Stat digest (path, size, mtime) of the ``.olean`` files the job can import, plus the workspace manifest."""
    digest = hashlib.sha256()
    for root in job.lean_path:
        root = Path(root)
        for olean in sorted(root.rglob("*.olean")) if root.is_dir() else ():
            stat = olean.stat()
            digest.update(f"{olean.relative_to(root)}|{stat.st_size}|{stat.st_mtime_ns}\n".encode())
    if job.workspace is not None:
        for name in ("lake-manifest.json", "lean-toolchain", "lakefile.toml", "lakefile.lean"):
            path = Path(job.workspace) / name
            if path.is_file():
                digest.update(name.encode() + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def reusable(result: JobResult, job: LeanJob, memory_mb: int) -> bool:
    """Whether a stored result stands for what running ``job`` now would give."""
    if result.status == "ok":
        return True
    if result.status == "timeout":
        return job.timeout_s <= result.timeout_s
    if result.status == "memory":
        return memory_mb <= result.memory_mb
    return False  # a crash may be transient: always run again


def _cache_path(cache_dir: Path, cache_key: str) -> Path:
    return Path(cache_dir) / cache_key[:2] / f"{cache_key}.json"


def load_cached(cache_dir: Path, cache_key: str, job: LeanJob, memory_mb: int) -> JobResult | None:
    path = _cache_path(cache_dir, cache_key)
    try:
        stored = JobResult.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None  # missing or unreadable entry: run the job
    if stored.cache_key != cache_key or not reusable(stored, job, memory_mb):
        return None
    return replace(stored, key=job.key, cached=True)


def store_cached(cache_dir: Path, result: JobResult) -> None:
    """Write the result atomically (temporary file, then rename); crashes are not stored."""
    if result.status == "crash" or not result.cache_key:
        return
    path = _cache_path(cache_dir, result.cache_key)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(replace(result, cached=False).to_dict(), fh)
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------- JSONL log


def read_results(path: Path) -> dict[str, JobResult]:
    """Results in a JSONL log by key (a later line wins); unreadable lines — a cut-off last line — are skipped."""
    return read_records(path, JobResult.from_dict, lambda r: r.key)


def resumable_results(
    path: Path, jobs: Sequence[LeanJob], cache_keys: dict[str, str], memory_mb: int
) -> dict[str, JobResult]:
    """Results already in the log for exactly these inputs (same cache key), marked ``cached``."""
    logged = read_results(path)
    found: dict[str, JobResult] = {}
    for job in jobs:
        previous = logged.get(job.key)
        if previous and previous.cache_key == cache_keys[job.key] and reusable(previous, job, memory_mb):
            found[job.key] = replace(previous, cached=True)
    return found
