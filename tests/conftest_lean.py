"""Shared fixtures for the Lean runner tests: the kernel-tier lean, the plumbing stand-in, prelude file builders.

The test modules import what they use from here; ``tests/conftest.py`` may also ``from conftest_lean import *`` to
share the fixtures with other test modules.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pyshadow.lean.runner import DeclarationSpan
from pyshadow.lean.toolchain import KernelTierUnavailable, LeanExecutable, kernel_lean

STANDIN_DIR = Path(__file__).resolve().parent / "standin"

# Declarations every prelude checker file starts with: what `structure`/`inductive` need without Init, an
# equality, and a unary numeral type with recursor-defined arithmetic (no `match` without Init).
PRELUDE_HEADER = """\
prelude
unsafe axiom lcErased : Type
unsafe axiom lcProof {α : Prop} : α
unsafe axiom lcAny : Type
unsafe axiom lcUnreachable {α : Sort u} : α
inductive N : Type where
  | z : N
  | s : N → N
inductive MyEq {α : Sort u} (a : α) : α → Prop where
  | refl : MyEq a a
noncomputable def add (n : N) : N → N := fun m => N.rec n (fun _ ih => N.s ih) m
noncomputable def mul (n : N) : N → N := fun m => N.rec N.z (fun _ ih => add ih n) m
noncomputable def two : N := N.s (N.s N.z)
"""

# Real Lean that runs for minutes with RSS growing ~50 MB/s (measured with 4.35.0): the elaborator unfolding
# a product of unary numerals of size 2^16 on both sides of an equation.
SLOW_TAIL = """\
noncomputable def four := mul two two
noncomputable def sixteen := mul four four
noncomputable def big := mul sixteen sixteen
noncomputable def huge := mul big big
set_option maxRecDepth 100000000 in
theorem slow_check : MyEq (mul huge two) (mul two huge) := MyEq.refl
#print axioms slow_check
"""


@dataclass(frozen=True)
class Checker:
    """One declaration in a generated test file: its lines and whether a `#print axioms` follows it."""

    name: str
    lines: tuple[str, ...]
    print_axioms: bool = True


def checker_file(header: str, checkers: list[Checker]) -> tuple[str, tuple[DeclarationSpan, ...]]:
    """File text and spans, laid out as pyshadow generates checkers: declaration, then its `#print axioms`."""
    lines = header.rstrip("\n").splitlines()
    spans = []
    for checker in checkers:
        start = len(lines) + 1
        lines.extend(checker.lines)
        spans.append(DeclarationSpan(checker.name, start, len(lines)))
        if checker.print_axioms:
            lines.append(f"#print axioms {checker.name}")
    return "\n".join(lines) + "\n", tuple(spans)


def slow_file_text() -> str:
    return PRELUDE_HEADER + SLOW_TAIL


def write_standin(directory: Path) -> LeanExecutable:
    """An executable ``lean`` stand-in in ``directory`` (see tests/standin/fake_lean.py); logs to calls.log there."""
    directory.mkdir(parents=True, exist_ok=True)
    wrapper = directory / "lean"
    wrapper.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        f"sys.path.insert(0, {str(STANDIN_DIR)!r})\n"
        "import fake_lean\n"
        f"sys.exit(fake_lean.main(sys.argv[1:], log_dir={str(directory)!r}))\n",
        encoding="utf-8",
    )
    wrapper.chmod(0o755)
    (directory / "calls.log").touch()
    return LeanExecutable(path=wrapper, version="4.35.0", tier="kernel", lake=None, commit="standin")


def standin_calls(lean: LeanExecutable) -> int:
    """How many processes the stand-in has started (excluding ``--version`` probes)."""
    log = lean.path.parent / "calls.log"
    return sum(1 for line in log.read_text(encoding="utf-8").splitlines() if "--version" not in line)


@pytest.fixture(scope="session")
def kernel_lean_exe() -> LeanExecutable:
    try:
        return kernel_lean()
    except KernelTierUnavailable as err:
        pytest.skip(f"kernel-tier lean unavailable: {err}")


@pytest.fixture
def standin_lean(tmp_path: Path) -> LeanExecutable:
    return write_standin(tmp_path / "standin")
