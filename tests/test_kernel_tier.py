"""The kernel tier end to end: real Lean 4.35 (prelude mode) accepts every generated checker and rejects mutants."""

import json
import subprocess
import sys

import pytest

from pyshadow.kernel.check import blocks_for, check_blocks
from pyshadow.lean.toolchain import KernelTierUnavailable, kernel_lean
from pyshadow.syntax import parse_declaration


@pytest.fixture(scope="module")
def lean():
    try:
        return kernel_lean()
    except KernelTierUnavailable as err:
        pytest.skip(f"kernel tier unavailable: {err}")


@pytest.mark.kernel
def test_dev_corpus_all_checkers_accepted_and_all_mutants_rejected(lean, dev_rows):
    items = [(r["id"], parse_declaration(r["statement"]), True) for r in dev_rows]
    reports = check_blocks(blocks_for(items, mutants=True), lean, n_jobs=2)
    failed = {k: r.messages for k, r in reports.items() if not r.all_accepted}
    assert not failed, list(failed.items())[:5]
    mutants = [ok for r in reports.values() for ok in r.mutants_rejected.values()]
    assert len(mutants) >= 700 and all(mutants)  # measured: 760 mutants
    decomposed = [r for r in reports.values() if r.status == "decomposed"]
    assert decomposed and all("backward" in r.accepted for r in decomposed)


@pytest.mark.kernel
def test_a_wrong_certificate_is_rejected_by_lean(lean):
    decl = parse_declaration("theorem t (x : ℝ) (h : 0 < x) : x = 2 ∧ (1 < x ↔ 0 < x)")
    block = blocks_for([("t", decl, True)], mutants=True)[0]
    reports = check_blocks([block], lean, n_jobs=1)
    rep = reports["t"]
    assert rep.all_accepted
    assert rep.mutants_rejected and all(rep.mutants_rejected.values())


@pytest.mark.kernel
def test_selfcheck_cli(tmp_path, lean, dev_rows):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in dev_rows[:25]) + "\n",
                      encoding="utf-8")
    out = tmp_path / "report.jsonl"
    proc = subprocess.run([sys.executable, "-m", "pyshadow.cli", "selfcheck", str(corpus), "--mutate", "-o",
                           str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert last.startswith("kernel-checked 25/25 statements; mutants rejected ")
    m, t = last.rsplit(" ", 1)[1].split("/")
    assert m == t and int(t) > 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 25


@pytest.mark.kernel
def test_main_job_on_bundled_problems(lean, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pyshadow.cli", "run", "-o", str(tmp_path / "ws")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert "(kernel tier)" in last and "(skeleton SA-Pass)" in last
    problems, samples = last.split("; ")
    done, total = problems.split(": ")[1].split()[0].split("/")
    assert done == total and int(total) >= 26
    ok, n = samples.split(": ")[1].split()[0].split("/")
    assert ok == n and int(n) >= 20
    assert (tmp_path / "ws" / "lakefile.toml").exists()
