"""The sandbox untrusted Lean runs in: its process tree dies with it, no network, writes only to a scratch folder,
and resource limits.

A candidate runs code while it compiles (``initialize``, ``#eval``, elaborators, attributes that register
extensions): the gates in front of the full tier reject what they recognise, but a gate is not a wall. So every Lean
process that reads a candidate is started through ``sandbox_prefix(scratch)``:

* with ``bwrap`` (Debian ``bubblewrap``): ``--ro-bind / /`` (the whole file system read-only, ``/tmp`` included: the
  modules Lean imports may live there) with only ``scratch`` bound writable, fresh ``/dev`` and ``/proc``,
  ``--unshare-net`` (no interface but an unconfigured loopback), ``--unshare-pid`` + ``--die-with-parent`` (the
  command is a child of the namespace's init; when it exits, or the runner kills bwrap, the kernel kills every
  process left in the namespace — ``setsid`` children and daemons included), ``--unshare-ipc``/``--unshare-uts``,
  ``--new-session``;
* else, where unprivileged user namespaces work (util-linux ``unshare``): ``--user --map-root-user --net --pid
  --fork --kill-child --mount --mount-proc`` — the same PID-namespace containment and no network, but writes are
  **not** confined (the file system is the caller's);
* else nothing, with a one-line warning on stderr, once.

``resource_limits(limits)`` is the ``preexec_fn`` that sets the rlimits of the sandboxed tree: CPU seconds
(``RLIMIT_CPU``: SIGXCPU/SIGKILL, summed over threads), the largest file it may write (``RLIMIT_FSIZE``), processes
and threads of its user (``RLIMIT_NPROC``; not enforced for a real root), and no core dumps. Memory is capped by the
runner's resident-set watchdog instead (``pyshadow.lean.runner``: Lean reserves ~7 GB of address space, so
``RLIMIT_AS`` caps nothing useful).

Measured on the development machine (Debian 12, util-linux 2.38.1, bubblewrap 0.8.0 installed with ``apt-get``):
both mechanisms run; ``tests/test_sandbox.py`` runs a candidate-like program that forks, ``setsid``s, writes outside
its scratch folder and opens a socket, under each mechanism.
"""

from __future__ import annotations

import functools
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SANDBOX_PROBE_TIMEOUT_S = 10.0
MECHANISMS = ("bwrap", "unshare", "none")

_BWRAP = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--unshare-pid",
          "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session"]
_UNSHARE = ["unshare", "--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child", "--mount",
            "--mount-proc"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits of one sandboxed process tree."""

    cpu_s: int = 600  # CPU seconds, all threads together
    file_mb: int = 1024  # the largest file it may write
    processes: int = 4096  # processes and threads of the user (Lean runs several threads per process)

    @classmethod
    def for_timeout(cls, timeout_s: float) -> "Limits":
        """CPU time a run with this wall-clock timeout may use on a few cores, plus start-up slack."""
        return cls(cpu_s=int(4 * timeout_s) + 30)


def sandbox_prefix(scratch: Path, mechanism: str | None = None) -> list[str]:
    """The command prefix that confines a process (see the module docstring); ``mechanism`` forces one of
    ``MECHANISMS`` (tests), by default the strongest that runs here."""
    mechanism = mechanism or sandbox_mechanism()
    if mechanism not in MECHANISMS:
        raise ValueError(f"unknown sandbox mechanism {mechanism!r}; expected one of {', '.join(MECHANISMS)}")
    scratch = Path(scratch).resolve()
    if mechanism == "bwrap":
        return [*_BWRAP, "--bind", str(scratch), str(scratch), "--"]
    if mechanism == "unshare":
        return [*_UNSHARE, "--"]
    _warn_no_sandbox()
    return []


@functools.cache
def available_mechanisms() -> tuple[str, ...]:
    """The mechanisms that actually run here, strongest first (probed once; ``"none"`` always last)."""
    probes = {"bwrap": [*_BWRAP, "--", "true"], "unshare": [*_UNSHARE, "--", "true"]}
    found = []
    for name, probe in probes.items():
        if shutil.which(probe[0]) is None:
            continue
        try:
            if subprocess.run(probe, capture_output=True, timeout=SANDBOX_PROBE_TIMEOUT_S).returncode == 0:
                found.append(name)
        except (OSError, subprocess.TimeoutExpired):
            continue
    return (*found, "none")


def sandbox_mechanism() -> str:
    """``"bwrap"``, ``"unshare"`` or ``"none"``: the strongest confinement that actually runs here."""
    return available_mechanisms()[0]


def resource_limits(limits: Limits) -> Callable[[], None]:
    """A ``preexec_fn`` setting ``limits`` (and no core dumps) in the child before it executes the sandbox."""

    def apply() -> None:
        for which, value in ((resource.RLIMIT_CPU, limits.cpu_s), (resource.RLIMIT_FSIZE, limits.file_mb << 20),
                             (resource.RLIMIT_NPROC, limits.processes), (resource.RLIMIT_CORE, 0)):
            _, hard = resource.getrlimit(which)
            soft = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (soft, soft))

    return apply


@functools.cache
def _warn_no_sandbox() -> None:
    print("pyshadow: warning: no sandbox (neither bwrap nor unprivileged user namespaces): candidates run with "
          "network and write access", file=sys.stderr)


__all__ = ["Limits", "MECHANISMS", "available_mechanisms", "resource_limits", "sandbox_mechanism", "sandbox_prefix"]
