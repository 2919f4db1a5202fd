"""Running one Lean process under a timeout and a memory cap, and judging its checkers on positive evidence.

**Process.** ``run_lean`` starts ``lean --json FILE`` (``lake env lean --json FILE`` for the full tier inside a Lake
workspace) in a new session, so the process and anything it spawns form one process group; a timeout or a memory
overrun kills the whole group with SIGKILL. stdout and stderr go to temporary files (no pipe can fill up and stall
Lean), and a flood of output is treated as a crash.

**Memory cap.** Measured with Lean 4.35.0 (kernel tier, x86_64 Linux): ``RLIMIT_AS`` cannot be used — Lean
reserves about 6.8 GB of address space up front (7 threads, VmSize flat while RSS grows), aborts with "failed to
create thread" below roughly 7 GB, and above that the limit caps nothing; Lean's own ``-M``/``--memory`` option
had no effect (``-M 1`` and ``-M 100`` left a runaway elaboration growing past 600 MB). So the cap is a watchdog:
the runner polls the resident set size of the process tree (``/proc/<pid>/statm`` plus children) every ≤ 0.1 s
and kills the group when it exceeds ``memory_mb``; the result's status is then ``"memory"``. Where ``/proc`` is
missing (macOS) only the timeout applies.

**Sandbox.** ``run_lean``/``compile_module`` with ``sandbox=SCRATCH`` (and ``run_sandboxed`` for any command) run
the process through ``pyshadow.lean.sandbox``: its whole process tree in a PID namespace that dies with it, no
network, writes only to ``SCRATCH`` (with ``bwrap``), and rlimits (CPU seconds, file size, processes); what it
guarantees with and without ``bwrap`` is in that module and in docs/trust.md.

**Judging.** ``judge`` maps diagnostics to checker declarations by line. A checker passes only on positive
evidence (docs/DESIGN.md "Trust"): no error inside its range, *and* its ``#print axioms`` answer present, *and* those
axioms within the allowed set, never naming the checker itself (a kernel rejection) and never ``sorryAx``.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .diagnostics import Diagnostic, first_line, normalize_name, parse_axioms_message, parse_json_output
from .sandbox import Limits, resource_limits, sandbox_mechanism, sandbox_prefix  # noqa: F401 (re-exported)
from .toolchain import LeanExecutable

DEFAULT_ALLOWED_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
LEAN_EXIT_CODES = (0, 1)  # 0: no errors; 1: the file has errors. Anything else is a crash.
MAX_OUTPUT_BYTES = 64 * 1024 * 1024
STDERR_TAIL_CHARS = 2000
POLL_FIRST_S = 0.005
POLL_MAX_S = 0.1
_PRINT_AXIOMS_RE = re.compile(r"\s*#print\s+axioms\s+(?P<name>(?:«[^»]*»|[^\s«])+)")


@dataclass
class LeanResult:
    """What one Lean process did. ``status`` is about the process, not the mathematics:

    ``"ok"`` — it ran to completion and spoke Lean's JSON (errors in the file are still ``"ok"``);
    ``"timeout"`` / ``"memory"`` — killed by the runner; ``"crash"`` — killed by a signal, exited with a code Lean
    does not use, printed non-JSON output, flooded stdout, or exited 1 without saying why.
    """

    status: str
    returncode: int | None
    diagnostics: list[Diagnostic]
    noise: list[str]
    elapsed_s: float
    stderr_tail: str
    detail: str = ""  # one line on why the status is not "ok"
    pid: int | None = None  # also the process-group id
    peak_rss_mb: float = 0.0
    command: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def succeeded(self) -> bool:
        """The process completed and Lean reported no error."""
        return self.status == "ok" and self.returncode == 0 and not self.errors

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["diagnostics"] = [d.to_dict() for d in self.diagnostics]
        return data

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> LeanResult:
        values = dict(obj)
        values["diagnostics"] = [Diagnostic.from_dict(d) for d in obj.get("diagnostics", [])]
        return cls(**values)


# ---------------------------------------------------------------------------------------------- running


MAX_ERRORS_ARG = "-DmaxErrors=1000000"
# The kernel tier's Lean (4.35.0) elaborates each theorem's body in a task of its own (``Elab.async``, on by default
# on the command line) and then reports a follow-up ``internal exception`` after the body's own error. Off, the body
# is elaborated in its command: the same first error per declaration, a tenth less CPU on a batch of checks (the
# batch runs beside other Lean processes on the same cores, so the tasks bought no time).
KERNEL_ARGS = ("-DElab.async=false",)


def run_lean(
    lean: LeanExecutable,
    file: Path,
    *,
    timeout_s: float = 60,
    memory_mb: int = 4096,
    cwd: Path | None = None,
    lean_path: Sequence[Path] = (),
    extra_args: Sequence[str] = (),
    sandbox: Path | None = None,
) -> LeanResult:
    """Elaborate ``file`` with ``--json``; never raises for what Lean does (see ``LeanResult.status``).
    ``sandbox``: a scratch directory, the only place the process may write (see the module docstring).

    Lean stops elaborating a file after ``maxErrors`` (100) errors — measured with the kernel tier — which would
    leave every later checker without evidence; a checker file full of failing mutants needs more. The option is
    only settable on the command line (``set_option maxErrors`` in the file does not lift it).
    """
    tier_args = KERNEL_ARGS if lean.tier == "kernel" else ()
    command = lean_command(lean, [MAX_ERRORS_ARG, *tier_args, *extra_args, str(file)], cwd)
    return _sandboxed(command, sandbox, timeout_s=timeout_s, memory_mb=memory_mb, cwd=cwd, env=lean_env(lean_path))


def compile_module(
    lean: LeanExecutable,
    src: Path,
    olean_out: Path,
    *,
    timeout_s: float = 60,
    memory_mb: int = 4096,
    lean_path: Sequence[Path] = (),
    cwd: Path | None = None,
    root: Path | None = None,
    sandbox: Path | None = None,
) -> LeanResult:
    """``lean --json -o OLEAN SRC``: write a module other files can ``import`` with its root on ``LEAN_PATH``.

    Place ``olean_out`` as ``<dir>/A/B.olean`` for module ``A.B`` and pass ``<dir>`` in ``lean_path`` of the
    importing run. ``root`` (Lean's ``-R``) sets the directory the module name is computed from; by default Lean
    uses the working directory. Check ``result.succeeded`` before importing.
    """
    olean_out.parent.mkdir(parents=True, exist_ok=True)
    args = ["-o", str(olean_out)]
    if root is not None:
        args += ["-R", str(root)]
    command = lean_command(lean, [*args, str(src)], cwd)
    return _sandboxed(command, sandbox, timeout_s=timeout_s, memory_mb=memory_mb, cwd=cwd, env=lean_env(lean_path))


def run_sandboxed(command: Sequence[str], scratch: Path, *, timeout_s: float = 60, memory_mb: int = 4096,
                  cwd: Path | None = None, env: dict[str, str] | None = None) -> LeanResult:
    """Any command (a replay, a test's candidate-like program) under the sandbox, the timeout and the limits."""
    return _sandboxed(list(command), scratch, timeout_s=timeout_s, memory_mb=memory_mb, cwd=cwd,
                      env=dict(os.environ) if env is None else env)


def _sandboxed(command: list[str], sandbox: Path | None, *, timeout_s: float, memory_mb: int, cwd: Path | None,
               env: dict[str, str]) -> LeanResult:
    if sandbox is None:
        return _run(command, timeout_s=timeout_s, memory_mb=memory_mb, cwd=cwd, env=env)
    return _run(sandbox_prefix(sandbox) + command, timeout_s=timeout_s, memory_mb=memory_mb, cwd=cwd, env=env,
                limits=Limits.for_timeout(timeout_s))


def lean_command(lean: LeanExecutable, args: Sequence[str], cwd: Path | None) -> list[str]:
    """``lake env lean --json …`` for the full tier inside a Lake workspace, else ``lean --json …``."""
    if lean.tier == "full" and lean.lake is not None and cwd is not None and is_lake_workspace(cwd):
        return [str(lean.lake), "env", str(lean.path), "--json", *args]
    return [str(lean.path), "--json", *args]


def is_lake_workspace(directory: Path) -> bool:
    return any((Path(directory) / name).is_file() for name in ("lakefile.toml", "lakefile.lean"))


def lean_env(lean_path: Sequence[Path]) -> dict[str, str]:
    """The parent environment with ``LEAN_PATH`` set from ``lean_path`` (left as inherited when empty)."""
    env = dict(os.environ)
    if lean_path:
        env["LEAN_PATH"] = os.pathsep.join(str(Path(p)) for p in lean_path)
    return env


def _run(command: list[str], *, timeout_s: float, memory_mb: int, cwd: Path | None, env: dict[str, str],
         limits: Limits | None = None) -> LeanResult:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        try:
            proc = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=cwd, env=env, start_new_session=True,
                preexec_fn=resource_limits(limits) if limits is not None else None,
            )
        except OSError as exc:
            return LeanResult("crash", None, [], [], 0.0, "", f"cannot start {command[0]}: {exc.strerror}",
                              command=command)
        try:
            verdict, detail, peak = _supervise(proc, start, timeout_s, memory_mb * 1024 * 1024, out)
        except BaseException:
            _stop(proc)  # in its own session Lean gets no Ctrl-C: never leave it running behind an exception
            raise
        elapsed = time.monotonic() - start
        out.seek(0)
        stdout = out.read(MAX_OUTPUT_BYTES).decode("utf-8", errors="replace")
        err.seek(0, os.SEEK_END)
        err.seek(max(0, err.tell() - 4 * STDERR_TAIL_CHARS))
        stderr_tail = err.read().decode("utf-8", errors="replace")[-STDERR_TAIL_CHARS:]
    diagnostics, noise = parse_json_output(stdout)
    if verdict == "exited":
        verdict, detail = classify_exit(proc.returncode, diagnostics, noise, stderr_tail)
    return LeanResult(
        status=verdict,
        returncode=proc.returncode,
        diagnostics=diagnostics,
        noise=noise,
        elapsed_s=elapsed,
        stderr_tail=stderr_tail,
        detail=detail,
        pid=proc.pid,
        peak_rss_mb=peak / (1024 * 1024),
        command=command,
    )


def _supervise(proc: subprocess.Popen, start: float, timeout_s: float, cap_bytes: int, out) -> tuple[str, str, int]:
    """Wait for ``proc``; kill its group on timeout, memory overrun or output flood. → (verdict, detail, peak RSS)."""
    interval = POLL_FIRST_S
    peak = 0
    while True:
        try:
            proc.wait(timeout=interval)
            _kill_group(proc.pid)  # stragglers the leader left behind, if any
            return "exited", "", peak
        except subprocess.TimeoutExpired:
            pass
        interval = min(interval * 2, POLL_MAX_S)
        rss = tree_rss_bytes(proc.pid)
        peak = max(peak, rss)
        if time.monotonic() - start > timeout_s:
            _stop(proc)
            return "timeout", f"killed after the {timeout_s:g} s timeout", peak
        if rss > cap_bytes:
            _stop(proc)
            return "memory", f"killed at {rss / 2**20:.0f} MB resident (cap {cap_bytes / 2**20:.0f} MB)", peak
        if os.fstat(out.fileno()).st_size > MAX_OUTPUT_BYTES:
            _stop(proc)
            return "crash", f"killed after writing over {MAX_OUTPUT_BYTES // 2**20} MB to stdout", peak


def _stop(proc: subprocess.Popen) -> None:
    _kill_group(proc.pid)
    proc.wait()


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the group is already empty


def classify_exit(
    returncode: int, diagnostics: list[Diagnostic], noise: list[str], stderr_tail: str
) -> tuple[str, str]:
    """Status and detail of a process that exited by itself."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return "crash", f"killed by {name}" + _stderr_hint(stderr_tail)
    if returncode not in LEAN_EXIT_CODES:
        return "crash", f"exit code {returncode}" + _stderr_hint(stderr_tail)
    if noise:
        return "crash", f"non-JSON output: {first_line(noise[0], 120)!r}"
    if returncode == 1 and not any(d.is_error for d in diagnostics):
        return "crash", "exit code 1 without an error message" + _stderr_hint(stderr_tail)
    return "ok", ""


def _stderr_hint(stderr_tail: str) -> str:
    lines = stderr_tail.strip().splitlines()
    return f" ({first_line(lines[-1], 160)})" if lines else ""


def tree_rss_bytes(root: int) -> int:
    """Resident set size of ``root`` and its descendants, from /proc; 0 where /proc is unavailable."""
    total = 0
    stack = [root]
    seen: set[int] = set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += _rss_bytes(pid)
        stack.extend(_children(pid))
    return total


def _rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _page_size()
    except (OSError, ValueError, IndexError):
        return 0


@functools.cache
def _page_size() -> int:
    return os.sysconf("SC_PAGE_SIZE")


def _children(pid: int) -> list[int]:
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    children: list[int] = []
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                children.extend(int(c) for c in fh.read().split())
        except (OSError, ValueError):
            continue
    return children


# ---------------------------------------------------------------------------------------------- judging


@dataclass(frozen=True)
class DeclarationSpan:
    """A checker declaration: its name as ``#print axioms`` prints it, and its lines (1-based, inclusive)."""

    name: str
    start_line: int
    end_line: int


@dataclass
class Verdict:
    name: str
    passed: bool
    reason: str  # short, human-readable; quotes Lean's message when Lean said why
    axioms: tuple[str, ...]
    messages: list[str]  # Lean's messages attributed to this declaration, as ``L:C severity: text``

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "reason": self.reason, "axioms": list(self.axioms),
                "messages": list(self.messages)}

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> Verdict:
        return cls(obj["name"], bool(obj["passed"]), obj["reason"], tuple(obj.get("axioms", ())),
                   list(obj.get("messages", [])))


@dataclass
class _Evidence:
    errors: list[Diagnostic] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    axiom_lists: list[tuple[str, ...]] = field(default_factory=list)


def judge(
    result: LeanResult,
    spans: Sequence[DeclarationSpan],
    allowed_axioms: frozenset[str] = DEFAULT_ALLOWED_AXIOMS,
    *,
    text: str | None = None,
    forbidden_axioms: frozenset[str] = frozenset(),
) -> dict[str, Verdict]:
    """One verdict per span, passing only on positive evidence.

    ``forbidden_axioms``: constants a checker may mention only for their types (the full tier's shadow statements,
    ``pyshadow.score.full.StatementsModule``) — a checker whose axioms list one proved its goal by assuming it.

    Attribution: a diagnostic belongs to the span containing its line. A diagnostic between two spans (or after the
    last) belongs to the span before it — that is where a generated file puts the checker's ``#print axioms``, and
    where Lean reports "Unknown constant" when the checker's statement failed to elaborate. A diagnostic before the
    first span is a preamble error and fails every verdict. ``#print axioms`` answers are matched by name. When
    ``text`` (the file's source) is given, an axioms answer only counts if it sits on a ``#print axioms`` command
    for that name, so a message merely printed by other code cannot stand in for it.
    """
    if result.status != "ok":
        note = [result.detail] if result.detail else []
        return {s.name: Verdict(s.name, False, result.status, (), note) for s in spans}
    evidence = _collect_evidence(result.diagnostics, spans, text)
    preamble = [d for d in evidence[None].errors]
    return {
        span.name: _verdict(span, evidence[span.name], allowed_axioms, preamble, forbidden_axioms)
        for span in spans
    }


def _collect_evidence(
    diagnostics: Sequence[Diagnostic], spans: Sequence[DeclarationSpan], text: str | None
) -> dict[str | None, _Evidence]:
    ordered = sorted(spans, key=lambda s: s.start_line)
    by_name = {normalize_name(s.name): s.name for s in spans}
    source_lines = text.splitlines() if text is not None else None
    evidence: dict[str | None, _Evidence] = {s.name: _Evidence() for s in spans}
    evidence[None] = _Evidence()
    for diagnostic in diagnostics:
        owner = owning_span(diagnostic.pos.line, ordered)
        if diagnostic.severity == "information" and (answer := parse_axioms_message(diagnostic.message)):
            printed, axioms = answer
            target = by_name.get(normalize_name(printed))
            if target is not None and _is_print_axioms_line(source_lines, diagnostic.pos.line, printed):
                evidence[target].axiom_lists.append(axioms)
                evidence[target].messages.append(diagnostic.short())
                continue
        bucket = evidence[owner.name if owner else None]
        bucket.messages.append(diagnostic.short())
        if diagnostic.is_error:
            bucket.errors.append(diagnostic)
    return evidence


def owning_span(line: int, ordered: Sequence[DeclarationSpan]) -> DeclarationSpan | None:
    """The span containing ``line``, else the last span starting before it; None before the first span."""
    owner = None
    for span in ordered:
        if span.start_line <= line:
            owner = span
        else:
            break
    return owner


def _is_print_axioms_line(source_lines: list[str] | None, line: int, printed: str) -> bool:
    if source_lines is None:
        return True
    if not 1 <= line <= len(source_lines):
        return False
    match = _PRINT_AXIOMS_RE.match(source_lines[line - 1])
    if match is None:
        return False
    written, full = normalize_name(match["name"]), normalize_name(printed)
    return full == written or full.endswith("." + written)


def _verdict(
    span: DeclarationSpan, found: _Evidence, allowed: frozenset[str], preamble: list[Diagnostic],
    forbidden: frozenset[str] = frozenset(),
) -> Verdict:
    axioms = tuple(sorted({a for listing in found.axiom_lists for a in listing}))

    def fail(reason: str) -> Verdict:
        return Verdict(span.name, False, reason, axioms, found.messages)

    if preamble:
        return fail(f"preamble error: {_quote(preamble)}")
    if found.errors:
        return fail(f"error: {_quote(found.errors)}")
    if not found.axiom_lists:
        return fail(f"no evidence: no `#print axioms {span.name}` answer")
    if normalize_name(span.name) in {normalize_name(a) for a in axioms}:
        return fail("depends on itself (the kernel rejected it)")
    if "sorryAx" in axioms:
        return fail("uses sorryAx")
    if used := [a for a in axioms if normalize_name(a) in {normalize_name(f) for f in forbidden}]:
        return fail(f"assumes its own goal: uses the statement axiom {used[0]} (only its type may be used)")
    if extra := [a for a in axioms if a not in allowed]:
        return fail(f"axioms not allowed: {', '.join(extra)}")
    return Verdict(span.name, True, "passed", axioms, found.messages)


def _quote(errors: Sequence[Diagnostic]) -> str:
    """The most informative error: the first that is not Lean's ``internal exception #N`` follow-up."""
    chosen = next((d for d in errors if not d.is_follow_up), errors[0])
    more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"line {chosen.pos.line}: {first_line(chosen.message, 160)}{more}"
