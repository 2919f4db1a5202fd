"""The sandbox untrusted Lean runs in (``pyshadow.lean.runner.sandbox_prefix``): no network, Lean still works."""

from __future__ import annotations

import subprocess

import pytest

from conftest_lean import PRELUDE_HEADER
from pyshadow.lean.runner import run_lean, sandbox_mechanism, sandbox_prefix


def test_sandbox_mechanism_is_one_of_the_documented_ones():
    assert sandbox_mechanism() in {"bwrap", "unshare", "none"}


def test_sandboxed_process_sees_no_network_interface_but_loopback(tmp_path):
    if sandbox_mechanism() == "none":
        pytest.skip("no sandbox mechanism on this machine (the runner warns and runs unconfined)")
    out = subprocess.run([*sandbox_prefix(tmp_path), "cat", "/proc/net/dev"], capture_output=True, text=True)
    interfaces = {line.split(":")[0].strip() for line in out.stdout.splitlines()[2:]}
    assert out.returncode == 0 and interfaces == {"lo"}, out.stdout


def test_sandboxed_writes_outside_scratch_fail_with_bwrap(tmp_path):
    if sandbox_mechanism() != "bwrap":
        pytest.skip("write confinement needs bwrap (unshare -rn only removes the network)")
    outside = tmp_path.parent / "outside.txt"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    ok = subprocess.run([*sandbox_prefix(scratch), "sh", "-c", f"echo x > {scratch}/in.txt"])
    bad = subprocess.run([*sandbox_prefix(scratch), "sh", "-c", f"echo x > {outside}"], capture_output=True)
    assert ok.returncode == 0 and (scratch / "in.txt").exists()
    assert bad.returncode != 0 and not outside.exists()


def test_lean_runs_inside_the_sandbox(kernel_lean_exe, tmp_path):
    src = tmp_path / "Ok.lean"
    src.write_text(PRELUDE_HEADER + "theorem sandboxed_ok (p : Prop) (h : p) : p := h\n#print axioms sandboxed_ok\n",
                   encoding="utf-8")
    result = run_lean(kernel_lean_exe, src, timeout_s=60, sandbox=tmp_path)
    assert result.status == "ok" and result.succeeded, (result.detail, result.diagnostics)
