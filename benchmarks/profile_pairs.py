"""Where one shard's time goes: ``python benchmarks/profile_pairs.py PAIRS.jsonl [--shard K/N] [--jobs J]``.

Runs ``pairs._evaluate`` in this process (no shard pool) on the pairs of shard ``K`` of ``N`` (as ``evaluate``
deals them; ``0/1``: all) and prints, per phase (inclusive of the phases it calls), the wall seconds, this process's
CPU seconds and the CPU of the Lean processes it started, with how many it started. With ``--jobs 1`` (one shard's
setting on two cores) every Lean process is waited for in turn, so its CPU is attributed to the phase exactly.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from pyshadow.kernel import lean_check as lc, lemma_pairs, pairs, scoring  # noqa: E402
from pyshadow.lean import runner  # noqa: E402
from pyshadow.lean.toolchain import kernel_lean  # noqa: E402

STACK: list[str] = []
WALL: dict[str, float] = defaultdict(float)
CPU: dict[str, float] = defaultdict(float)
CHILD: dict[str, float] = defaultdict(float)
CALLS: dict[str, int] = defaultdict(int)
PROCS: dict[str, int] = defaultdict(int)


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(module, name: str, label: str | None = None, depth_label: bool = False) -> None:
    inner = getattr(module, name)

    def wrapper(*args, **kwargs):
        tag = label or name
        if depth_label:
            tag = f"{tag}[{'nested' if any(s.startswith(tag) for s in STACK) else 'top'}]"
        path = "/".join(STACK + [tag])
        STACK.append(tag)
        w, c, ch = time.perf_counter(), time.process_time(), _child_cpu()
        try:
            return inner(*args, **kwargs)
        finally:
            STACK.pop()
            WALL[path] += time.perf_counter() - w
            CPU[path] += time.process_time() - c
            CHILD[path] += _child_cpu() - ch
            CALLS[path] += 1

    setattr(module, name, wrapper)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs", type=Path)
    ap.add_argument("--shard", default="0/2")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="copy every Lean file here, named by phase, with its CPU seconds")
    args = ap.parse_args()
    k, n = (int(x) for x in args.shard.split("/"))
    items = pairs.read_pairs(args.pairs)
    if n > 1:
        items = [items[i] for i in pairs._shards(items, n)[k]]
    inner_run = runner._run

    def counted(command, **kw):
        PROCS["/".join(STACK)] += 1
        before = _child_cpu()
        out = inner_run(command, **kw)
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            n = sum(PROCS.values())
            tag = "-".join(STACK[1:] or STACK).replace("/", "_")
            shutil.copy(command[-1], args.keep / f"{n:03d}-{tag}-{_child_cpu() - before:.2f}s.lean") \
                if Path(command[-1]).exists() else None
        return out

    runner._run = counted
    timed(scoring, "skeleton_score", depth_label=True)
    pairs.skeleton_score = scoring.skeleton_score
    timed(scoring, "skeleton_block")
    timed(scoring, "run_jobs")
    timed(scoring, "_retry_reshaped")
    timed(scoring, "_recheck_undecided")
    timed(scoring, "_lean_disposes")
    timed(scoring, "lemma_upgrade")
    timed(scoring, "lemma_rewrites")
    timed(scoring, "settle_atom_pairs")
    timed(scoring, "lean_check")
    timed(lc, "_run", "lean_check._run")
    timed(lc, "_prove_readings")
    timed(scoring, "skeleton_search")
    timed(pairs, "lean_equal_keys")
    lean = kernel_lean()
    with tempfile.TemporaryDirectory() as tmp:
        w, c, ch = time.perf_counter(), time.process_time(), _child_cpu()
        pairs._evaluate(items, lean, args.jobs, Path(tmp), True, True)
        total = (time.perf_counter() - w, time.process_time() - c, _child_cpu() - ch)
    print(f"{len(items)} pairs: wall {total[0]:.2f} s, python CPU {total[1]:.2f} s, Lean CPU {total[2]:.2f} s, "
          f"{sum(PROCS.values())} Lean processes")
    print(f"{'phase':<90} {'calls':>5} {'wall':>7} {'py cpu':>7} {'lean cpu':>8} {'procs':>5}")
    for path in sorted(WALL):
        procs = sum(v for p, v in PROCS.items() if p == path or p.startswith(path + "/"))
        print(f"{path:<90} {CALLS[path]:>5} {WALL[path]:>7.2f} {CPU[path]:>7.2f} {CHILD[path]:>8.2f} {procs:>5}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
