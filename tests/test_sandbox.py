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


# ---------------------------------------------------------------------------------------------------------------
# A candidate-like program under each mechanism that runs here: it forks, `setsid`s, writes outside its scratch
# folder and opens a socket. All of it must be contained.

import socket  # noqa: E402
import sys  # noqa: E402
import textwrap  # noqa: E402
import time  # noqa: E402

from pyshadow.lean.runner import run_sandboxed  # noqa: E402
from pyshadow.lean.sandbox import Limits, available_mechanisms, resource_limits  # noqa: E402

CONFINING = [m for m in available_mechanisms() if m != "none"]

CANDIDATE_LIKE = textwrap.dedent('''
    import os, socket, sys, time
    scratch, outside, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    report = open(os.path.join(scratch, "report.txt"), "w")
    try:
        open(outside, "w").write("escaped")
        report.write("write-outside:ok\\n")
    except OSError as e:
        report.write(f"write-outside:{e.errno}\\n")
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        report.write("connect:ok\\n")
    except OSError as e:
        report.write(f"connect:{e.errno}\\n")
    report.close()
    if os.fork() == 0:           # a child that leaves the process group and outlives its parent
        os.setsid()
        if os.fork() == 0:
            time.sleep(1.5)
            open(os.path.join(scratch, "survivor.txt"), "w").write("alive")
            open(outside + ".late", "w").write("alive")
        os._exit(0)
    time.sleep(0.2)
''')


@pytest.fixture
def listener():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    yield server.getsockname()[1]
    server.close()


@pytest.mark.parametrize("mechanism", CONFINING or ["none"])
def test_candidate_like_program_is_contained(mechanism, tmp_path, listener, monkeypatch):
    if mechanism == "none":
        pytest.skip("neither bwrap nor unshare runs here")
    import pyshadow.lean.runner as runner

    monkeypatch.setattr(runner, "sandbox_prefix", lambda scratch: sandbox_prefix(scratch, mechanism))
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    program = tmp_path / "candidate.py"
    program.write_text(CANDIDATE_LIKE, encoding="utf-8")
    outside = tmp_path / "outside.txt"
    result = run_sandboxed([sys.executable, str(program), str(scratch), str(outside), str(listener)], scratch,
                           timeout_s=30)
    assert result.returncode == 0, result.stderr_tail
    report = (scratch / "report.txt").read_text(encoding="utf-8")
    assert "connect:ok" not in report  # no network: the host's loopback listener is unreachable
    time.sleep(2.5)  # the setsid grandchild would have written by now
    assert not (scratch / "survivor.txt").exists(), "a setsid child outlived the sandboxed process"
    assert not outside.with_name("outside.txt.late").exists()
    if mechanism == "bwrap":
        assert "write-outside:ok" not in report and not outside.exists()
    else:  # unshare: documented — the PID namespace and the network are confined, writes are not
        assert "write-outside:ok" in report


@pytest.mark.parametrize("mechanism", CONFINING or ["none"])
def test_timeout_kills_the_whole_tree(mechanism, tmp_path, monkeypatch):
    if mechanism == "none":
        pytest.skip("neither bwrap nor unshare runs here")
    import pyshadow.lean.runner as runner

    monkeypatch.setattr(runner, "sandbox_prefix", lambda scratch: sandbox_prefix(scratch, mechanism))
    marker = tmp_path / "late.txt"
    script = f"(setsid sh -c 'sleep 2; echo x > {marker}' &) ; sleep 60"
    result = run_sandboxed(["sh", "-c", script], tmp_path, timeout_s=1)
    assert result.status == "timeout"
    time.sleep(2.5)
    assert not marker.exists(), "a setsid child outlived the killed sandbox"


def test_rlimits_are_set_in_the_sandboxed_tree(tmp_path):
    out = subprocess.run(["cat", "/proc/self/limits"], capture_output=True, text=True,
                         preexec_fn=resource_limits(Limits(cpu_s=7, file_mb=3, processes=123)))
    soft = {line[:26].strip(): line[26:].split()[0] for line in out.stdout.splitlines()[1:]}
    assert soft["Max cpu time"] == "7" and soft["Max file size"] == str(3 << 20)
    assert soft["Max processes"] == "123" and soft["Max core file size"] == "0"


@pytest.mark.parametrize("mechanism", CONFINING or ["none"])
def test_the_runner_sets_the_rlimits_inside_the_sandbox(mechanism, tmp_path, monkeypatch):
    if mechanism == "none":
        pytest.skip("neither bwrap nor unshare runs here")
    import pyshadow.lean.runner as runner

    monkeypatch.setattr(runner, "sandbox_prefix", lambda scratch: sandbox_prefix(scratch, mechanism))
    run_sandboxed(["sh", "-c", f"cat /proc/self/limits > {tmp_path}/limits.txt"], tmp_path, timeout_s=10)
    lines = (tmp_path / "limits.txt").read_text().splitlines()[1:]
    soft = {line[:26].strip(): line[26:].split()[0] for line in lines}
    assert soft["Max cpu time"] == str(Limits.for_timeout(10).cpu_s) and soft["Max core file size"] == "0"
    assert soft["Max file size"] == str(Limits().file_mb << 20)


def test_cpu_limit_kills_a_busy_loop(tmp_path):
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-c", "while True: pass"], capture_output=True,
                         preexec_fn=resource_limits(Limits(cpu_s=1)), timeout=30)
    assert out.returncode < 0 and time.monotonic() - start < 20  # SIGXCPU / SIGKILL


def test_file_size_limit_stops_a_large_write(tmp_path):
    big = tmp_path / "big.bin"
    out = subprocess.run([sys.executable, "-c", f"open({str(big)!r}, 'wb').write(b'x' * (3 << 20))"],
                         capture_output=True, preexec_fn=resource_limits(Limits(file_mb=1)))
    assert out.returncode != 0 and big.stat().st_size <= 1 << 20


def test_unknown_mechanism_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="unknown sandbox mechanism"):
        sandbox_prefix(tmp_path, "docker")
