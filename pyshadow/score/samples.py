"""The bundled sample layout as score input: ``problems/<id>/candidates/<kind>_….lean`` beside ``expected.toml``.

``pyshadow score problems problems/nat_pos_facts/candidates`` (one problem's samples) and ``pyshadow score
problems problems`` (every problem's samples) read this layout directly: each sample's problem is the folder it
sits in, and its *system* is its kind from ``expected.toml`` (``faithful``, ``weakened``, ``cheating`` …), so
the per-system tables of a report are per-kind tables. Two samples of one kind for one problem keep their file
names as systems, so no two candidates share a (problem, system) key.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..problems import CANDIDATES_DIR, EXPECTED_FILE, Problem, load_sample_candidates
from .candidates import Candidate


def is_sample_layout(path: Path, problems: Sequence[Problem]) -> bool:
    """Whether ``path`` is a problem's ``candidates`` folder (with ``expected.toml``) or the problems folder."""
    path = Path(path)
    if not path.is_dir():
        return False
    if (path / EXPECTED_FILE).is_file() and path.name == CANDIDATES_DIR:
        return True
    return bool(_chosen(path, problems))


def load_sample_layout(path: Path, problems: Sequence[Problem]) -> list[Candidate]:
    """The samples under ``path`` (see the module docstring), in problem then file order."""
    chosen = _chosen(path, problems)
    out: list[Candidate] = []
    for problem in sorted(chosen, key=lambda p: p.id):
        seen: set[str] = set()
        for sample in load_sample_candidates(problem):
            system = sample.kind if sample.kind not in seen else sample.name
            seen.add(system)
            out.append(Candidate(problem.id, system, sample.path.read_text(encoding="utf-8"), str(sample.path)))
    return out


def _chosen(path: Path, problems: Sequence[Problem]) -> list[Problem]:
    """Problems with samples whose candidates folder is ``path`` or that sit (at any depth) below ``path``."""
    resolved = Path(path).resolve()
    return [p for p in problems if (p.folder / CANDIDATES_DIR / EXPECTED_FILE).is_file()
            and ((p.folder / CANDIDATES_DIR).resolve() == resolved or p.folder.resolve().is_relative_to(resolved))]
