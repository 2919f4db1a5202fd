"""The sandbox untrusted Lean runs in (``pyshadow.lean.runner.sandbox_prefix``): no network, Lean still works."""

from __future__ import annotations

import subprocess
from pathlib import Path

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
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    ok = subprocess.run([*sandbox_prefix(scratch), "sh", "-c", f"echo x > {scratch}/in.txt"])
    assert ok.returncode == 0 and (scratch / "in.txt").exists()
    # Outside the scratch folder the file system is read-only, /tmp included.
    read_only = Path(__file__).parent / ".sandbox_probe"
    bad = subprocess.run([*sandbox_prefix(scratch), "sh", "-c", f"echo x > {read_only}"], capture_output=True)
    assert bad.returncode != 0 and not read_only.exists()
    elsewhere_in_tmp = tmp_path.parent / "outside.txt"
    subprocess.run([*sandbox_prefix(scratch), "sh", "-c", f"echo x > {elsewhere_in_tmp}"], capture_output=True)
    assert not elsewhere_in_tmp.exists()


def test_lean_runs_inside_the_sandbox(kernel_lean_exe, tmp_path):
    src = tmp_path / "Ok.lean"
    src.write_text(PRELUDE_HEADER + "theorem sandboxed_ok (p : Prop) (h : p) : p := h\n#print axioms sandboxed_ok\n",
                   encoding="utf-8")
    result = run_lean(kernel_lean_exe, src, timeout_s=60, sandbox=tmp_path)
    assert result.status == "ok" and result.succeeded, (result.detail, result.diagnostics)


@pytest.mark.parametrize("axiom", ["Lean.ofReduceBool", "Lean.trustCompiler", "Lean.ofReduceNat", "sorryAx"])
def test_compiler_trusting_axioms_fail_the_check(axiom):
    # `native_decide` and its disguises leave `Lean.ofReduceBool` (and, since Lean 4.x, `Lean.trustCompiler`) in the
    # checker's axioms: whatever the gate missed, the judge only passes the three standard axioms.
    from pyshadow.lean.diagnostics import Diagnostic, Position
    from pyshadow.lean.runner import DeclarationSpan, LeanResult, judge

    text = "theorem chk : True := trivial\n#print axioms chk\n"
    message = f"'chk' depends on axioms: [propext, {axiom}]"
    result = LeanResult("ok", 0, [Diagnostic("information", Position(2, 0), None, message, "")], [], 0.1, "")
    verdict = judge(result, [DeclarationSpan("chk", 1, 1)], text=text)["chk"]
    assert not verdict.passed and axiom in verdict.reason


def test_standard_axioms_pass_the_check():
    from pyshadow.lean.diagnostics import Diagnostic, Position
    from pyshadow.lean.runner import DeclarationSpan, LeanResult, judge

    text = "theorem chk : True := trivial\n#print axioms chk\n"
    message = "'chk' depends on axioms: [propext, Classical.choice, Quot.sound]"
    result = LeanResult("ok", 0, [Diagnostic("information", Position(2, 0), None, message, "")], [], 0.1, "")
    assert judge(result, [DeclarationSpan("chk", 1, 1)], text=text)["chk"].passed
