"""``--backend dask``: the whole dev-corpus selfcheck (666 real statements, ../shared/corpora/dev.jsonl, with
mutants) run through a ``dask.distributed.LocalCluster`` gives a report byte-identical to the local (loky) run.

Both runs start real kernel-tier Lean on every batch (no result cache), so this also shows the Lean batches really
ran on the cluster's workers: the scheduler's task log is checked for ``run_job`` tasks.
"""

from __future__ import annotations

import pytest

from pyshadow.cli import main
from pyshadow.lean.backends import lean_backend
from pyshadow.lean.settings import LeanSettings

from conftest import DEV_CORPUS


@pytest.mark.kernel
def test_dev_corpus_selfcheck_on_a_dask_local_cluster_is_byte_identical(tmp_path, capsys, kernel_lean_exe,
                                                                         dev_rows):
    local, dask = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    assert main(["selfcheck", str(DEV_CORPUS), "--mutate", "-j", "2", "-o", str(local)]) == 0
    local_out = capsys.readouterr().out
    assert main(["selfcheck", str(DEV_CORPUS), "--mutate", "-j", "2", "-o", str(dask), "--backend", "dask"]) == 0
    dask_out = capsys.readouterr().out
    assert local.read_bytes() == dask.read_bytes()
    assert len(local.read_text(encoding="utf-8").splitlines()) == len(dev_rows) == 666
    assert local_out.splitlines()[-1] == dask_out.splitlines()[-1]
    assert local_out.splitlines()[-1].startswith("kernel-checked 666/666 statements; mutants rejected")


@pytest.mark.kernel
def test_lean_jobs_run_on_the_dask_workers(kernel_lean_exe, tmp_path):
    """The dask backend really hands the Lean jobs to the cluster (not a silent local fallback)."""
    from dask.distributed import get_task_stream

    from pyshadow.kernel.check import blocks_for, check_blocks
    from pyshadow.syntax import parse_declaration

    items = [(f"s{i}", parse_declaration(f"theorem t{i} (a b : Nat) : a ≤ b ∧ b ≤ a + {i}"), False)
             for i in range(3)]
    with lean_backend(LeanSettings(backend="dask", jobs=2)):
        with get_task_stream() as stream:
            reports = check_blocks(blocks_for(items, mutants=False), kernel_lean_exe, batch_size=1, n_jobs=2)
    assert len(reports) == 3 and all(r.all_accepted for r in reports.values())
    workers = {task["worker"] for task in stream.data}
    assert len(stream.data) >= 3 and workers and all(w.startswith("tcp://127.0.0.1:") for w in workers)


def test_scheduler_without_a_distributed_backend_is_bad_input():
    from pyshadow.errors import BadInput

    with pytest.raises(BadInput, match="--scheduler needs --backend dask or ray"):
        with lean_backend(LeanSettings(scheduler="tcp://127.0.0.1:8786")):
            pass


@pytest.mark.kernel
def test_score_on_dask_says_the_backend_was_used(tmp_path, capsys, kernel_lean_exe):
    from pyshadow.paths import PROBLEMS_DIR

    candidates = PROBLEMS_DIR / "nat_pos_facts" / "candidates"
    args = ["score", str(PROBLEMS_DIR), str(candidates), "--tier", "kernel", "-j", "2"]
    assert main([*args, "-o", str(tmp_path / "dask.jsonl"), "--backend", "dask"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "backend: dask (LocalCluster on this machine, 2 workers)" in lines
    assert main([*args, "-o", str(tmp_path / "local.jsonl")]) == 0
    assert not any(line.startswith("backend:") for line in capsys.readouterr().out.splitlines())
