"""Candidate formalizations: loading them, and finding the declaration that is checked.

Loading (``load_candidates``) reads one of these layouts and never stops at a bad entry — each bad entry becomes a
``CandidateError`` with a reason, in source order among the loaded ``Candidate`` s:

- a folder of ``<problem_id>.lean`` files (one system; its name is the folder's name unless given);
- a folder of per-system folders, ``<system>/<problem_id>.lean``;
- several samples per (system, problem): ``<system>/<problem_id>/<k>.lean`` (the sample id is ``k``);
- a JSONL file of ``{"problem_id", "system", "code"}`` objects (``system`` defaults to the file's stem), with an
  optional ``sample`` (a string or an integer) when a system gave several samples for one problem.

Two candidates with the same (system, problem, sample) — a sample id used twice, or two candidates for one
(system, problem) without sample ids — are ambiguous input: ``load_candidates`` raises ``DuplicateCandidate`` (a
``BadInput``, exit 2) naming both places, since either choice would change the scores silently.

Problem ids may contain ``/`` (``minif2f/aime_1983_p1``), so ``a/b.lean`` could be problem ``a/b`` of the
default system or problem ``b`` of system ``a``, and ``a/b/3.lean`` sample ``3`` of problem ``b``. With
``known_ids`` the reading whose id is known wins (flat, then ``<system>/<rest>``, then the sample reading);
without them, a file directly in the folder is flat, ``<system>/<problem_id>/<digits>.lean`` is a sample and any
other nested file is ``<system>/<rest>``. Pass ``layout="flat"`` or ``layout="per_system"`` (the per-system and
sample readings) to force a reading.

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
    sample: str | None = None  # which of the system's samples for this problem (None: the only one)


@dataclass(frozen=True, slots=True)
class CandidateError:
    """An input entry that could not become a candidate, and why (it scores as a failure, never silently)."""

    problem_id: str | None
    system: str | None
    origin: str
    reason: str
    sample: str | None = None


class DuplicateCandidate(BadInput):
    """Two candidates share (system, problem, sample): the input does not say which one is scored."""


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


Reading = tuple[str, str, str | None]  # (system, problem id, sample id)


def _folder_readings(parts: tuple[str, ...], default_system: str, layout: Layout) -> tuple[list[Reading], Reading]:
    """The (system, problem id, sample) readings of a ``.lean`` file at relative path ``parts`` (suffix dropped),
    in the order they are tried against known ids, and the reading chosen when no id is known."""
    flat: Reading = (default_system, "/".join(parts), None)
    nested: Reading | None = (parts[0], "/".join(parts[1:]), None) if len(parts) > 1 else None
    sampled: Reading | None = (parts[0], "/".join(parts[1:-1]), parts[-1]) if len(parts) > 2 else None
    grouped = [r for r in (nested, sampled) if r is not None]
    readings = [flat] if layout == "flat" else grouped if layout == "per_system" else [flat, *grouped]
    if not readings:
        return [], flat
    guess = sampled if sampled is not None and parts[-1].isdigit() and layout != "flat" else \
        nested if nested is not None and layout != "flat" else readings[0]
    return readings, guess


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
        readings, guess = _folder_readings(parts, default_system, layout)
        origin = str(file)
        if not readings:
            reason = "not inside a system folder (<system>/<problem_id>.lean)"
            results.append(CandidateError(rel.stem, None, origin, reason))
            continue
        if known_ids is not None:
            known = [r for r in readings if r[1] in known_ids]
            if not known:
                sys_name, pid, sample = guess
                results.append(CandidateError(pid, sys_name, origin, f"unknown problem {pid!r}", sample))
                continue
            readings = known
        sys_name, pid, sample = guess if known_ids is None else readings[0]
        results.append(_candidate_from_bytes(file, pid, sys_name, origin, sample))
    return results


def _hidden(rel: Path) -> bool:
    """A path under a dot-folder (``.lake``, ``.git``) or a dot-file."""
    return any(part.startswith(".") for part in rel.parts)


def _candidate_from_bytes(file: Path, problem_id: str, system: str, origin: str, sample: str | None
                          ) -> LoadResult:
    try:
        data = file.read_bytes()
    except OSError as err:
        return CandidateError(problem_id, system, origin, f"unreadable: {err.strerror or err}", sample)
    text, reason = _decode(data)
    if text is None:
        return CandidateError(problem_id, system, origin, reason or "unreadable", sample)
    if not text.strip():
        return CandidateError(problem_id, system, origin, "empty file", sample)
    return Candidate(problem_id, system, text, origin, sample)


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
    raw_sample = obj.get("sample")
    if raw_sample is not None and (isinstance(raw_sample, bool) or not isinstance(raw_sample, (str, int))
                                   or raw_sample == ""):
        return CandidateError(pid, sys_name, origin,
                              f"line {number}: 'sample' must be a non-empty string or an integer")
    sample = None if raw_sample is None else str(raw_sample)
    if "code" not in obj:
        return CandidateError(pid, sys_name, origin, f"line {number}: no 'code' field", sample)
    code = obj["code"]
    if not isinstance(code, str):
        return CandidateError(pid, sys_name, origin, f"line {number}: 'code' must be a string", sample)
    if known_ids is not None and pid not in known_ids:
        return CandidateError(pid, sys_name, origin, f"line {number}: unknown problem {pid!r}", sample)
    if not code.strip():
        return CandidateError(pid, sys_name, origin, f"line {number}: empty code", sample)
    return Candidate(pid, sys_name, code, origin, sample)


def _with_duplicates_flagged(results: list[LoadResult]) -> list[LoadResult]:
    """``results`` unchanged, or ``DuplicateCandidate`` when two entries (candidates or bad entries) name the same
    (system, problem, sample)."""
    first: dict[tuple[str, str, str | None], str] = {}
    for r in results:
        if r.system is None or r.problem_id is None:
            continue
        key = (r.system, r.problem_id, r.sample)
        if key in first:
            what = f"sample {r.sample!r}" if r.sample is not None else "no sample id"
            raise DuplicateCandidate(
                f"{r.origin}: a second candidate for system {r.system!r}, problem {r.problem_id!r} with {what} "
                f"(first one: {first[key]}); give each sample its own id ('sample' in JSONL, "
                "<system>/<problem_id>/<k>.lean in folders)")
        first[key] = r.origin
    return results
