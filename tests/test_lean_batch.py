"""Tests for pyshadow.lean.batch: parallel runs, the content-hash cache, resuming from the JSONL log.

Most use the plumbing stand-in, which logs every process it starts (so "no Lean ran" is counted, across loky
worker processes) and does whatever its directives say (sleep, crash, print garbage). One test runs real
kernel-tier Lean end to end.
"""

from __future__ import annotations

import json
from pathlib import Path

import joblib
import pytest

from conftest_lean import (  # noqa: F401 - fixtures are used by name
    PRELUDE_HEADER,
    Checker,
    checker_file,
    kernel_lean_exe,
    standin_calls,
    standin_lean,
)
from pyshadow.lean import batch
from pyshadow.lean.batch import JobResult, LeanJob, effective_backend, read_results, reusable, run_jobs
from pyshadow.lean.runner import DEFAULT_ALLOWED_AXIOMS, DeclarationSpan


def standin_job(key: str, *directives: str, timeout_s: float = 20) -> LeanJob:
    """A job whose stand-in run says ``'c' does not depend on any axioms`` after its directives."""
    lines = ["prelude", "theorem c : X := y"] + [f"-- standin: {d}" for d in directives]
    lines.append(f"-- standin: emit information {len(lines) + 2} 'c' does not depend on any axioms")
    lines.append("#print axioms c")
    return LeanJob(key, "\n".join(lines) + "\n", (DeclarationSpan("c", 2, 2),), DEFAULT_ALLOWED_AXIOMS, timeout_s)


def log_keys(path: Path) -> list[str]:
    """Keys of the complete lines of a results log, in file order."""
    keys = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            keys.append(json.loads(line)["key"])
        except ValueError:
            continue
    return keys


def test_results_come_back_in_job_order_and_the_log_in_arrival_order(standin_lean, tmp_path: Path) -> None:
    jobs = [standin_job("slow", "sleep 1.5"), standin_job("fast1"), standin_job("fast2")]
    log = tmp_path / "results.jsonl"
    results = run_jobs(jobs, standin_lean, n_jobs=2, results_jsonl=log)
    assert [r.key for r in results] == ["slow", "fast1", "fast2"]
    assert all(r.status == "ok" and r.verdicts["c"].passed and not r.cached for r in results)
    assert log_keys(log)[-1] == "slow"  # it finished last, so it was written last
    assert sorted(log_keys(log)) == ["fast1", "fast2", "slow"]


def test_rerun_of_unchanged_inputs_starts_no_process(standin_lean, tmp_path: Path) -> None:
    jobs = [standin_job(f"p{i}") for i in range(4)]
    first = run_jobs(jobs, standin_lean, n_jobs=2, cache_dir=tmp_path / "cache")
    assert standin_calls(standin_lean) == 4 and not any(r.cached for r in first)
    second = run_jobs(jobs, standin_lean, n_jobs=2, cache_dir=tmp_path / "cache")
    assert standin_calls(standin_lean) == 4
    assert all(r.cached for r in second)
    assert [r.verdicts for r in second] == [r.verdicts for r in first]
    changed = [jobs[0], LeanJob(jobs[1].key, jobs[1].text + "-- edited\n", jobs[1].spans, jobs[1].allowed_axioms)]
    third = run_jobs(changed, standin_lean, n_jobs=1, cache_dir=tmp_path / "cache")
    assert standin_calls(standin_lean) == 5 and [r.cached for r in third] == [True, False]


def test_interrupted_run_resumes_from_the_log(standin_lean, tmp_path: Path) -> None:
    jobs = [standin_job(f"p{i}") for i in range(5)]
    log = tmp_path / "results.jsonl"
    run_jobs(jobs[:3], standin_lean, n_jobs=2, results_jsonl=log)
    finished = log.read_text(encoding="utf-8")
    with open(log, "a", encoding="utf-8") as fh:
        fh.write('{"key": "p3", "status": "o')  # the interruption cut this line short
    assert standin_calls(standin_lean) == 3
    results = run_jobs(jobs, standin_lean, n_jobs=2, results_jsonl=log)
    assert standin_calls(standin_lean) == 5  # only p3 and p4 ran
    assert [r.cached for r in results] == [True, True, True, False, False]
    assert sorted(read_results(log)) == [f"p{i}" for i in range(5)]
    assert log.read_text(encoding="utf-8").startswith(finished)  # appended to, never rewritten
    assert sorted(log_keys(log)[3:]) == ["p3", "p4"]


def test_results_before_a_real_interruption_are_kept(standin_lean, tmp_path: Path, monkeypatch, capsys) -> None:
    jobs = [standin_job(f"p{i}") for i in range(4)]
    log = tmp_path / "results.jsonl"
    real_parallel_results = batch._parallel_results

    def interrupted(*args):
        results = real_parallel_results(*args)
        yield next(results)
        yield next(results)
        raise KeyboardInterrupt

    monkeypatch.setattr(batch, "_parallel_results", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_jobs(jobs, standin_lean, backend="sequential", results_jsonl=log, progress=True)
    assert len(log_keys(log)) == 2 and standin_calls(standin_lean) == 2
    assert "2/4" in capsys.readouterr().err  # the tqdm bar on stderr
    monkeypatch.setattr(batch, "_parallel_results", real_parallel_results)
    results = run_jobs(jobs, standin_lean, backend="sequential", results_jsonl=log)
    assert sum(not r.cached for r in results) == 2
    assert standin_calls(standin_lean) == 4
    assert sorted(log_keys(log)) == [f"p{i}" for i in range(4)]


def test_a_crash_or_garbage_does_not_lose_other_results(standin_lean, tmp_path: Path) -> None:
    jobs = [
        standin_job("good"),
        standin_job("segv", "signal SIGSEGV"),
        standin_job("garbage", "garbage this is not json"),
        standin_job("exit3", "exit 3"),
        standin_job("slow", "sleep 30", timeout_s=1.0),
    ]
    cache = tmp_path / "cache"
    results = {r.key: r for r in run_jobs(jobs, standin_lean, n_jobs=2, cache_dir=cache)}
    assert results["good"].status == "ok" and results["good"].verdicts["c"].passed
    assert [results[k].status for k in ("segv", "garbage", "exit3", "slow")] == ["crash", "crash", "crash", "timeout"]
    assert results["segv"].detail == "killed by SIGSEGV"
    assert results["slow"].verdicts["c"].reason == "timeout"
    calls = standin_calls(standin_lean)
    again = {r.key: r for r in run_jobs(jobs, standin_lean, n_jobs=2, cache_dir=cache)}
    assert standin_calls(standin_lean) == calls + 3  # crashes run again; the ok and the timeout are reused
    assert again["good"].cached and again["slow"].cached and not again["segv"].cached


def test_reuse_rules_for_limits() -> None:
    job = standin_job("j", timeout_s=10)
    timed_out = JobResult("j", "timeout", {}, 5.0, False, "k", "", timeout_s=5.0, memory_mb=4096)
    assert not reusable(timed_out, job, 4096)  # a longer timeout now: try again
    assert reusable(timed_out, LeanJob(job.key, job.text, job.spans, job.allowed_axioms, 5.0), 4096)
    over = JobResult("j", "memory", {}, 1.0, False, "k", "", timeout_s=10, memory_mb=1024)
    assert reusable(over, job, 512) and not reusable(over, job, 4096)


def test_parallel_config_takes_over_the_backend(standin_lean, monkeypatch) -> None:
    assert effective_backend("loky") == "loky"
    with joblib.parallel_config(backend="threading"):
        assert effective_backend("loky") is None
        ran_here: list[str] = []
        real_run_job = batch.run_job
        monkeypatch.setattr(batch, "run_job", lambda job, *a: ran_here.append(job.key) or real_run_job(job, *a))
        run_jobs([standin_job("a"), standin_job("b")], standin_lean, n_jobs=2)
        assert sorted(ran_here) == ["a", "b"]  # threads share this process, so the patch saw both


def test_job_keys_must_be_unique(standin_lean) -> None:
    with pytest.raises(ValueError, match="share the key 'x'"):
        run_jobs([standin_job("x"), standin_job("x")], standin_lean)


def test_job_result_round_trips_through_json(standin_lean) -> None:
    result = run_jobs([standin_job("r")], standin_lean, n_jobs=1, backend="sequential")[0]
    assert JobResult.from_dict(json.loads(json.dumps(result.to_dict()))).to_dict() == result.to_dict()


@pytest.mark.kernel
def test_real_kernel_lean_batch(kernel_lean_exe, tmp_path: Path) -> None:
    jobs = []
    for i in range(4):
        proof = "MyEq.refl" if i % 2 == 0 else "nope"
        text, spans = checker_file(PRELUDE_HEADER, [
            Checker(f"shadow_b_{i}", (f"theorem shadow_b_{i} : MyEq (add two N.z) two := {proof}",)),
        ])
        jobs.append(LeanJob(f"b/{i}", text, spans, DEFAULT_ALLOWED_AXIOMS, timeout_s=30))
    results = run_jobs(jobs, kernel_lean_exe, n_jobs=2, cache_dir=tmp_path / "cache",
                       results_jsonl=tmp_path / "r.jsonl")
    assert [r.verdicts[f"shadow_b_{i}"].passed for i, r in enumerate(results)] == [True, False, True, False]
    assert "Unknown identifier `nope`" in results[1].verdicts["shadow_b_1"].reason
    again = run_jobs(jobs, kernel_lean_exe, n_jobs=2, cache_dir=tmp_path / "cache")
    assert all(r.cached for r in again)
