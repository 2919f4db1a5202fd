"""``LeanSettings``: how library code runs Lean — built from the command line in one place
(``pyshadow.commands.common.lean_settings``) and passed down instead of an ``argparse.Namespace``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BACKENDS = ("loky", "dask", "ray")


@dataclass(frozen=True)
class LeanSettings:
    tier: str | None = None  # "full" | "kernel" | None: the best available (full when a toolchain is on PATH)
    jobs: int = -1  # parallel Lean processes (-1: all cores; with dask/ray: the cluster's workers)
    cache: Path | None = None  # result cache folder: reruns of unchanged Lean files start no Lean
    timeout: float = 120.0  # seconds per Lean process
    memory_mb: int = 4096  # resident-memory cap per Lean process
    backend: str = "loky"  # where Lean processes run: loky (local processes) | dask | ray
    scheduler: str | None = None  # dask: the scheduler address (None: a LocalCluster on this machine)
    workspace: Path | None = None  # full tier: the Lake workspace Lean runs in (an input, never written)
    mutate: bool = False  # kernel tier: add negative controls Lean must reject
    lean_checked_only: bool = True  # kernel tier: a pass Lean did not check is undecided (strict scoring)
