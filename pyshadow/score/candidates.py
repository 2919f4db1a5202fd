"""Candidate formalizations: loading them, and finding the declaration that is checked.

Loading (``load_candidates``) reads one of three layouts and never stops at a bad entry — each bad entry becomes a
``CandidateError`` with a reason, in source order among the loaded ``Candidate`` s:

- a folder of ``<problem_id>.lean`` files (one system; its name is the folder's name unless given);
- a folder of per-system folders, ``<system>/<problem_id>.lean``;
- a JSONL file of ``{"problem_id", "system", "code"}`` objects (``system`` defaults to the file's stem).

Problem ids may contain ``/`` (``minif2f/aime_1983_p1``), so ``a/b.lean`` could be problem ``a/b`` of the
default system or problem ``b`` of system ``a``. With ``known_ids`` the reading whose id is known wins (the flat
one first); without them, a file directly in the folder is flat and a nested one is ``<system>/<rest>``. Pass
``layout="flat"`` or ``layout="per_system"`` to force one reading.

Extraction and name matching live in ``pyshadow.syntax.scanner``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..errors import BadInput

# ---------------------------------------------------------------------------------------------------------------
# Loading candidates


@dataclass(frozen=True, slots=True)
class Candidate:
    """One candidate formalization: a system's Lean output for a problem."""

    problem_id: str
    system: str
    code: str
    origin: str  # the file, or `file.jsonl:LINE`


@dataclass(frozen=True, slots=True)
class CandidateError:
    """An input entry that could not become a candidate, and why (it scores as a failure, never silently)."""

    problem_id: str | None
    system: str | None
    origin: str
    reason: str


LoadResult = Candidate | CandidateError
Layout = Literal["auto", "flat", "per_system"]


def split_results(results: Iterable[LoadResult]) -> tuple[list[Candidate], list[CandidateError]]:
    """The loaded candidates and the errors, each in source order."""
    results = list(results)
    return (
        [r for r in results if isinstance(r, Candidate)],
        [r for r in results if isinstance(r, CandidateError)],
    )


def load_candidates(
    path: str | Path,
    known_ids: Collection[str] | None = None,
    *,
    system: str | None = None,
    layout: Layout = "auto",
) -> list[LoadResult]:
    """Candidates from a folder or a ``.jsonl`` file; bad entries become ``CandidateError`` s in place.

    ``known_ids``: the problem ids of the benchmark; a candidate for any other id is an error ("unknown problem").
    ``system``: the system name for a flat folder (default: the folder's name) or for JSONL lines without one
    (default: the file's stem). Raises ``BadInput`` only when ``path`` itself cannot be read as a source.
    """
    path = Path(path)
    if path.is_dir():
        return _with_duplicates_flagged(load_folder(path, known_ids, system=system, layout=layout))
    if path.is_file() and path.suffix == ".jsonl":
        return _with_duplicates_flagged(load_jsonl(path, known_ids, system=system))
    if not path.exists():
        raise BadInput(f"{path}: no such file or folder")
    raise BadInput(f"{path}: expected a folder of .lean files or a .jsonl file")


def _decode(data: bytes) -> tuple[str | None, str | None]:
    """(text, None) or (None, reason) for bytes that should be UTF-8 Lean source."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        return None, f"not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})"
    return text.removeprefix("\ufeff"), None


def _folder_readings(parts: tuple[str, ...], default_system: str, layout: Layout) -> list[tuple[str, str]]:
    """The (system, problem id) readings of a ``.lean`` file at relative path ``parts`` (suffix dropped)."""
    flat = (default_system, "/".join(parts))
    nested = (parts[0], "/".join(parts[1:])) if len(parts) > 1 else None
    if layout == "flat":
        return [flat]
    if layout == "per_system":
        return [nested] if nested else []
    return [flat, nested] if nested else [flat]


def load_folder(
    folder: Path, known_ids: Collection[str] | None = None, *, system: str | None = None, layout: Layout = "auto"
) -> list[LoadResult]:
    """Candidates from ``folder/<problem_id>.lean`` and/or ``folder/<system>/<problem_id>.lean`` (sorted by path)."""
    default_system = system or folder.resolve().name
    files = sorted(
        (p for p in folder.rglob("*.lean") if p.is_file() and not _hidden(p.relative_to(folder))),
        key=lambda p: p.relative_to(folder).as_posix(),
    )
    results: list[LoadResult] = []
    for file in files:
        rel = file.relative_to(folder)
        parts = (*rel.parts[:-1], rel.stem)
        readings = _folder_readings(parts, default_system, layout)
        origin = str(file)
        if not readings:
            reason = "not inside a system folder (<system>/<problem_id>.lean)"
            results.append(CandidateError(rel.stem, None, origin, reason))
            continue
        if known_ids is not None:
            known = [r for r in readings if r[1] in known_ids]
            if not known:
                sys_name, pid = readings[-1] if layout == "auto" and len(parts) > 1 else readings[0]
                results.append(CandidateError(pid, sys_name, origin, f"unknown problem {pid!r}"))
                continue
            readings = known
        sys_name, pid = readings[-1] if known_ids is None and layout == "auto" else readings[0]
        results.append(_candidate_from_bytes(file, pid, sys_name, origin))
    return results


def _hidden(rel: Path) -> bool:
    """A path under a dot-folder (``.lake``, ``.git``) or a dot-file."""
    return any(part.startswith(".") for part in rel.parts)


def _candidate_from_bytes(file: Path, problem_id: str, system: str, origin: str) -> LoadResult:
    try:
        data = file.read_bytes()
    except OSError as err:
        return CandidateError(problem_id, system, origin, f"unreadable: {err.strerror or err}")
    text, reason = _decode(data)
    if text is None:
        return CandidateError(problem_id, system, origin, reason or "unreadable")
    if not text.strip():
        return CandidateError(problem_id, system, origin, "empty file")
    return Candidate(problem_id, system, text, origin)


def load_jsonl(path: Path, known_ids: Collection[str] | None = None, *, system: str | None = None) -> list[LoadResult]:
    """Candidates from a JSONL file of ``{"problem_id", "system", "code"}`` objects; blank lines are skipped."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise BadInput(f"{path}: unreadable: {err.strerror or err}") from err
    default_system = system or path.stem
    results: list[LoadResult] = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        results.append(_jsonl_entry(raw, number, f"{path}:{number}", default_system, known_ids))
    return results


def _jsonl_entry(
    raw: bytes, number: int, origin: str, default_system: str, known_ids: Collection[str] | None
) -> LoadResult:
    """One JSONL line as a candidate or an error naming the line."""
    text, reason = _decode(raw)
    if text is None:
        return CandidateError(None, None, origin, f"line {number}: {reason}")
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        return CandidateError(None, None, origin, f"line {number}: not valid JSON ({err.msg} at column {err.colno})")
    if not isinstance(obj, dict):
        return CandidateError(None, None, origin, f"line {number}: expected a JSON object, got {type(obj).__name__}")
    pid = obj.get("problem_id")
    sys_name = obj.get("system", default_system)
    pid_ok = isinstance(pid, str) and pid != ""
    sys_ok = isinstance(sys_name, str) and sys_name != ""
    err_pid, err_sys = (pid if pid_ok else None), (sys_name if sys_ok else None)
    if not pid_ok:
        return CandidateError(None, err_sys, origin, f"line {number}: no 'problem_id' (a non-empty string)")
    if not sys_ok:
        return CandidateError(err_pid, None, origin, f"line {number}: 'system' must be a non-empty string")
    if "code" not in obj:
        return CandidateError(pid, sys_name, origin, f"line {number}: no 'code' field")
    code = obj["code"]
    if not isinstance(code, str):
        return CandidateError(pid, sys_name, origin, f"line {number}: 'code' must be a string")
    if known_ids is not None and pid not in known_ids:
        return CandidateError(pid, sys_name, origin, f"line {number}: unknown problem {pid!r}")
    if not code.strip():
        return CandidateError(pid, sys_name, origin, f"line {number}: empty code")
    return Candidate(pid, sys_name, code, origin)


def _with_duplicates_flagged(results: list[LoadResult]) -> list[LoadResult]:
    """A second candidate for the same (system, problem) becomes an error naming the first; the first is kept."""
    first: dict[tuple[str, str], str] = {}
    out: list[LoadResult] = []
    for r in results:
        if isinstance(r, Candidate):
            key = (r.system, r.problem_id)
            if key in first:
                out.append(
                    CandidateError(r.problem_id, r.system, r.origin, f"duplicate candidate (first one: {first[key]})")
                )
                continue
            first[key] = r.origin
        out.append(r)
    return out
