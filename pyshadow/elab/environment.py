"""The signature environment: its declaration table, read from the Lean files, and its compiled ``.olean`` files.

The environment is the Lean source under ``pyshadow/elab/lean/`` (module ``PyshadowEnv`` and its parts), one
declaration per fact with the Lean or Mathlib file it restates in the comment above it. ``declarations()`` reads
that table back (name, kind, module, source) — the one place pyshadow states a Lean/Mathlib signature for the
elaborator. ``build_environment`` compiles the modules once per (sources, toolchain) into the cache, the same way
the kernel-tier shim is cached: a temporary folder renamed into place, so racing processes both end complete.
Nothing runs at import time.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import PyshadowError
from ..lean.runner import compile_module
from ..lean.toolchain import LeanExecutable, default_cache_root, toolchain_fingerprint

LEAN_ROOT = Path(__file__).resolve().parent / "lean"
ROOT_MODULE = "PyshadowEnv"
# in import order
MODULES = ("PyshadowEnv.Core", "PyshadowEnv.Numbers", "PyshadowEnv.Logic", "PyshadowEnv.Algebra",
           "PyshadowEnv.Sets", "PyshadowEnv.Proofs", "PyshadowEnv.Order", "PyshadowEnv.Functions",
           "PyshadowEnv.Topology", "PyshadowEnv.GroupTheory", "PyshadowEnv.Rings", "PyshadowEnv.NumberTheory",
           "PyshadowEnv.Namespaces", "PyshadowEnv.Lemmas", ROOT_MODULE)
COMPILE_TIMEOUT_S = 120.0

_DECL_RE = re.compile(
    r"^(?:@\[[^\]]*\]\s*)?(?:protected\s+|noncomputable\s+|unsafe\s+)*"
    r"(?P<kind>axiom|def|class|structure|inductive|instance|abbrev|theorem)\s+(?P<name>[^\s:({\[⦃]+)")
_SOURCE_RE = re.compile(r"(?:src/|Mathlib/)\S+\.lean")


class EnvironmentBuildError(PyshadowError):
    """The environment's Lean files did not compile with this toolchain; the message quotes Lean's first error."""


@dataclass(frozen=True)
class EnvDeclaration:
    """One row of the declaration table."""

    name: str  # as declared (inside `namespace Set`, `Mem` is `Set.Mem`)
    kind: str  # axiom | def | class | structure | inductive | instance | abbrev | theorem
    module: str  # PyshadowEnv.Sets
    source: str  # the Lean/Mathlib file the nearest comment above it cites ("" when none does)


def module_path(module: str) -> Path:
    return LEAN_ROOT.joinpath(*module.split(".")).with_suffix(".lean")


def declarations() -> list[EnvDeclaration]:
    """Every named declaration of the environment, in file order, with its cited source."""
    rows: list[EnvDeclaration] = []
    for module in MODULES:
        source = ""
        namespaces: list[str] = []
        for line in module_path(module).read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith("--"):
                cited = _SOURCE_RE.findall(stripped)
                if cited:
                    source = cited[0]
                continue
            if stripped.startswith("namespace "):
                namespaces.append(stripped.split()[1])
                continue
            if stripped.startswith("end ") and namespaces and stripped.split()[1] == namespaces[-1]:
                namespaces.pop()
                continue
            match = _DECL_RE.match(line)
            if match is None or line[:1].isspace():
                continue
            name = match.group("name")
            if match.group("kind") == "instance" and name.startswith(("[", "{", "(", ":")):
                continue  # an anonymous instance: no name to look up
            rows.append(EnvDeclaration(".".join([*namespaces, name]), match.group("kind"), module, source))
    return rows


def sources_digest() -> str:
    """A hash of the environment's Lean text: part of the cache key."""
    digest = hashlib.sha256()
    for module in MODULES:
        digest.update(module.encode() + b"\0" + module_path(module).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def build_environment(lean: LeanExecutable, cache_root: Path | None = None) -> Path:
    """The folder to put on ``LEAN_PATH`` so that ``import PyshadowEnv`` works; compiled on first use."""
    root = (cache_root or default_cache_root()) / f"elab-env-{toolchain_fingerprint(lean)}-{sources_digest()}"
    if (root / f"{ROOT_MODULE}.olean").is_file():
        return root
    root.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".elab-env-", dir=root.parent))
    try:
        for module in MODULES:
            olean = staging.joinpath(*module.split(".")).with_suffix(".olean")
            result = compile_module(lean, module_path(module), olean, timeout_s=COMPILE_TIMEOUT_S,
                                    lean_path=[staging], cwd=LEAN_ROOT, root=LEAN_ROOT)
            if not result.succeeded:
                first = result.errors[0].message.splitlines()[0] if result.errors else result.detail
                raise EnvironmentBuildError(f"{module_path(module).name} does not compile with Lean "
                                            f"{lean.version}: {first}")
        try:
            os.replace(staging, root)
        except OSError:  # another process put a complete one in place first
            if not (root / f"{ROOT_MODULE}.olean").is_file():
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return root
