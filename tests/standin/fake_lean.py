"""PLUMBING STAND-IN for ``lean`` in tests — it never decides mathematics.

It speaks Lean's command-line and ``--json`` interface so the runner and the batch layer can be tested for what a
real Lean rarely does on demand: crash, print garbage, exit with an odd code, hang, spawn children, eat memory.
It does not parse or check Lean. Every message it prints is scripted by ``-- standin:`` directive lines in the
input file, executed in order:

    -- standin: emit SEVERITY LINE TEXT…     print one JSON message (severity error|warning|information)
    -- standin: sleep SECONDS                sleep
    -- standin: garbage TEXT…                print TEXT raw on stdout (not JSON)
    -- standin: stderr TEXT…                 print TEXT on stderr
    -- standin: exit CODE                    exit now with CODE
    -- standin: signal NAME                  kill itself with signal NAME (e.g. SIGSEGV)
    -- standin: child-sleep SECONDS PIDFILE  start a child process that sleeps; write its pid to PIDFILE
    -- standin: allocate MB                  allocate and touch MB megabytes (kept until exit)
    -- standin: flood                        write to stdout without end

A file with no directive that does not start with ``prelude`` gets the error a kernel-tier lean gives (no ``Init``
available). Exit code: 1 if an error message was emitted, else 0. ``--version`` answers like Lean 4.35.0.
``-o FILE`` writes a placeholder (not an .olean). Each invocation appends its arguments to ``calls.log`` in the
log directory the wrapper script passes, so tests can count how many processes were started.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

VERSION_LINE = "Lean (version 4.35.0, x86_64-unknown-linux-gnu, commit 0000000standin, Release)"
DIRECTIVE = "-- standin:"


def main(argv: list[str], log_dir: str) -> int:
    with open(Path(log_dir) / "calls.log", "a", encoding="utf-8") as log:
        log.write(json.dumps(argv) + "\n")
    if "--version" in argv or "-v" in argv:
        print(VERSION_LINE)
        return 0
    output = _option(argv, "-o")
    source = Path(argv[-1])
    text = source.read_text(encoding="utf-8")
    directives = [line.strip()[len(DIRECTIVE):].split() for line in text.splitlines()
                  if line.strip().startswith(DIRECTIVE)]
    if not directives and not text.lstrip().startswith("prelude"):
        _emit("error", 1, "unknown module prefix 'Init' (stand-in: no Init available)", str(source))
        return 1
    errors = 0
    held: list[bytearray] = []
    for words in directives:
        errors += _run_directive(words, str(source), held)
    if output:
        Path(output).write_bytes(b"standin placeholder, not an olean\n")
    return 1 if errors else 0


def _run_directive(words: list[str], file_name: str, held: list[bytearray]) -> int:
    verb, args = words[0], words[1:]
    if verb == "emit":
        _emit(args[0], int(args[1]), " ".join(args[2:]), file_name)
        return 1 if args[0] == "error" else 0
    if verb == "sleep":
        time.sleep(float(args[0]))
    elif verb == "garbage":
        print(" ".join(args), flush=True)
    elif verb == "stderr":
        print(" ".join(args), file=sys.stderr, flush=True)
    elif verb == "exit":
        sys.stdout.flush()
        os._exit(int(args[0]))
    elif verb == "signal":
        sys.stdout.flush()
        os.kill(os.getpid(), getattr(signal, args[0]))
        time.sleep(5)
    elif verb == "child-sleep":
        child = subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({float(args[0])})"])
        Path(args[1]).write_text(str(child.pid), encoding="ascii")
    elif verb == "allocate":
        block = bytearray(int(args[0]) * 1024 * 1024)
        for i in range(0, len(block), 4096):
            block[i] = 1
        held.append(block)
    elif verb == "flood":
        chunk = "x" * 65536 + "\n"
        while True:
            sys.stdout.write(chunk)
    return 0


def _emit(severity: str, line: int, message: str, file_name: str) -> None:
    record = {"caption": "", "data": message, "endPos": None, "fileName": file_name, "isSilent": False,
              "keepFullRange": False, "kind": "[anonymous]", "pos": {"column": 0, "line": line},
              "severity": severity}
    print(json.dumps(record), flush=True)


def _option(argv: list[str], flag: str) -> str | None:
    if flag in argv:
        index = argv.index(flag)
        return argv[index + 1] if index + 1 < len(argv) else None
    return None
