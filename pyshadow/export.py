"""Exports of a problem set: the public view solvers may see, and the hidden checker set an evaluation runs.

**Public** (``pyshadow export PROBLEMS_DIR --public OUT``)::

    problems.jsonl    one object per problem: id, area, level, source, imports, targets (the names solvers must
                      declare), informal {statement, proof}, rules, lean_toolchain, mathlib, shadowbench
    lean-toolchain    the Lean pin solvers compile against
    manifest.json     kind "public", generator, lean_toolchain, mathlib, problem ids, sha256 of each file

Nothing else: no reference text, no shadow, no checker, no reference path.

**Hidden** (``--hidden OUT``): the Lake workspace ``pyshadow generate`` writes (``pyshadow.workspace``) — every
reference verbatim, every target's forward checkers and certificate, and ``manifest.json`` pinning the Lean
toolchain (``lean-toolchain``), the Mathlib commit (``null`` when no problem needs Mathlib), the pyshadow version
(``generator``), the shadows of every target, and the sha256 of every checker text and every file — so an
evaluation can prove which checker set it used.

Both are deterministic (the same problems give byte-identical exports) and all-or-nothing: a malformed problem
stops the export before anything is written. An output folder must be new or empty, so an export never mixes with
older files (a public folder that once held hidden files must not be reused by accident).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .version import __version__
from .errors import BadInput
from .errors import EmptyInput
from .problems import Problem, load_problems
from .workspace import MANIFEST, build_workspace, mathlib_rev, read_toolchain, write_workspace

PUBLIC_SCHEMA = 1
PROBLEMS_FILE = "problems.jsonl"
TOOLCHAIN_FILE = "lean-toolchain"


@dataclass(frozen=True)
class ExportSummary:
    kind: str  # "public" | "hidden"
    folder: Path
    problems: int
    checkers: int
    manifest: dict[str, Any]


def load_for_export(root: Path) -> list[Problem]:
    """Every problem under ``root``; ``BadInput`` naming each malformed one (nothing is exported then)."""
    problems, errors = load_problems(root)
    if errors:
        listed = "; ".join(str(e) for e in errors)
        raise BadInput(f"{len(errors)} malformed problem{'s' if len(errors) != 1 else ''}, nothing exported: {listed}")
    if not problems:
        raise EmptyInput(f"{root}: no problems found (a problem is a folder holding problem.toml)")
    return problems


def check_outputs(*folders: Path | None) -> None:
    """Each output folder new or empty; two outputs never the same folder or one inside the other."""
    chosen = [Path(f) for f in folders if f is not None]
    for folder in chosen:
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise BadInput(f"{folder}: expected a new or empty folder for the export")
    resolved = [f.resolve() for f in chosen]
    for i, a in enumerate(resolved):
        for b in resolved[i + 1 :]:
            if a == b or a in b.parents or b in a.parents:
                raise BadInput(f"{a} and {b}: the public and hidden exports must go to separate folders")


# ---------------------------------------------------------------------------------------------------------------
# Public


def public_record(problem: Problem, toolchain: str) -> dict[str, Any]:
    """What solvers may see of one problem."""
    return {
        "id": problem.id,
        "area": problem.area,
        "level": problem.level,
        "source": problem.source,
        "imports": list(problem.imports),
        "targets": list(problem.targets),
        "informal": {"statement": problem.informal_statement, "proof": problem.informal_proof},
        "rules": problem.rules,
        "lean_toolchain": toolchain.strip(),
        "mathlib": mathlib_rev(toolchain) if problem.needs_mathlib else None,
        "shadowbench": problem.shadowbench,
    }


def public_files(problems: Sequence[Problem], toolchain: str) -> tuple[dict[str, bytes], dict[str, Any]]:
    """The public export's files (relative path → bytes) and its manifest."""
    lines = [json.dumps(public_record(p, toolchain), ensure_ascii=False, sort_keys=True) for p in problems]
    files = {PROBLEMS_FILE: ("\n".join(lines) + "\n").encode(), TOOLCHAIN_FILE: toolchain.encode()}
    manifest = {
        "schema": PUBLIC_SCHEMA,
        "kind": "public",
        "generator": f"pyshadow {__version__}",
        "lean_toolchain": toolchain.strip(),
        "mathlib": mathlib_rev(toolchain) if any(p.needs_mathlib for p in problems) else None,
        "problems": [p.id for p in problems],
        "files": {path: hashlib.sha256(data).hexdigest() for path, data in sorted(files.items())},
    }
    files[MANIFEST] = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()
    return files, manifest


def export_public(root: Path, out: Path) -> ExportSummary:
    problems = load_for_export(root)
    files, manifest = public_files(problems, read_toolchain())
    write_workspace(out, files)
    return ExportSummary("public", out, len(problems), 0, manifest)


# ---------------------------------------------------------------------------------------------------------------
# Hidden


def hidden_files(problems: Sequence[Problem], toolchain: str) -> tuple[dict[str, bytes], dict[str, Any]]:
    """The hidden export: the generated workspace (files and manifest) of ``problems`` (``build_workspace``);
    ``BadInput`` when some problem cannot be given checkers — an export is all or nothing."""
    build = build_workspace(problems, toolchain=toolchain)
    if build.skipped:
        n = len(build.skipped)
        listed = "; ".join(f"{pid}: {why}" for pid, why in build.skipped)
        raise BadInput(f"{n} problem{'s' if n != 1 else ''} cannot be given checkers, nothing exported: {listed}")
    return build.files, build.manifest


def export_hidden(root: Path, out: Path) -> ExportSummary:
    problems = load_for_export(root)
    files, manifest = hidden_files(problems, read_toolchain())
    write_workspace(out, files)
    checkers = sum(len(t["checkers"]) for p in manifest["problems"].values() for t in p["targets"])
    return ExportSummary("hidden", out, len(problems), checkers, manifest)
