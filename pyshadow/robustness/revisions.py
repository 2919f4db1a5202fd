"""A problem set at a git revision, read with gitpython — no checkout, the working tree and index untouched.

``RevisionReader`` opens the repository holding a problems folder, resolves revisions, and for each one writes
the blobs that matter into a temporary folder: the problems subtree, and the generator (``pyshadow/``,
``templates/``, ``lean-toolchain``) when the repository carries it. ``snapshot`` then runs
``pyshadow/robustness/snapshot.py`` in a child Python process on that tree, so each revision's checkers are
rendered by that revision's own generator and templates.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import git

from ..errors import BadInput, PyshadowError

SNAPSHOT_SCRIPT = Path(__file__).with_name("snapshot.py")
GENERATOR_PATHS = ("pyshadow", "templates", "lean-toolchain")
# What renders checker texts: a change under one of these is a generator change.
GENERATOR_SOURCES = ("pyshadow/shadows", "pyshadow/syntax", "pyshadow/grammar", "pyshadow/workspace.py",
                     "pyshadow/problems.py", "templates/lean")
SNAPSHOT_TIMEOUT_S = 600


class SnapshotError(PyshadowError):
    """The snapshot of a revision could not be taken at all (the message carries the child's last lines)."""


@dataclass
class RevisionSnapshot:
    rev: str
    commit: str  # full hexsha
    data: dict  # what snapshot.py printed: {"generator", "errors", "problems": {id: {…, "targets": {…}}}}
    generator: str  # "revision" (the tree's own pyshadow) | "installed"
    notes: list[str] = field(default_factory=list)

    @property
    def short(self) -> str:
        return self.commit[:10]


class RevisionReader:
    """Reads a problems folder at any revision of the git repository that holds it."""

    def __init__(self, problems_dir: Path):
        try:
            self.repo = git.Repo(problems_dir, search_parent_directories=True)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError) as err:
            raise BadInput(f"{problems_dir}: not inside a git repository") from err
        self.root = Path(self.repo.working_tree_dir or problems_dir).resolve()
        try:
            rel = Path(problems_dir).resolve().relative_to(self.root)
        except ValueError as err:
            raise BadInput(f"{problems_dir}: not inside the repository at {self.root}") from err
        self.problems_rel = PurePosixPath(rel.as_posix()) if rel.parts else PurePosixPath(".")
        self._snapshots: dict[str, RevisionSnapshot] = {}

    def commit(self, rev: str) -> git.Commit:
        try:
            return self.repo.commit(rev)
        except (git.BadName, git.BadObject, ValueError) as err:
            raise BadInput(f"unknown revision {rev!r} in {self.root}") from err

    def read(self, rev: str, path: str) -> bytes | None:
        """The bytes of ``path`` (relative to the repository root) at ``rev``; None when it is not there."""
        try:
            obj = self.commit(rev).tree / path
        except KeyError:
            return None
        return obj.data_stream.read() if obj.type == "blob" else None

    def changed_generator_files(self, rev_a: str, rev_b: str) -> list[str]:
        """Files of the generator (``GENERATOR_SOURCES``) that differ between the two revisions."""
        diffs = self.commit(rev_a).diff(self.commit(rev_b), paths=list(GENERATOR_SOURCES))
        return sorted({d.b_path or d.a_path for d in diffs})

    def write_tree(self, rev: str, dest: Path, generator_rev: str | None = None) -> tuple[Path, bool]:
        """Write the problems subtree at ``rev`` (and the generator, if the revision has one — at
        ``generator_rev`` when given: the problems of one revision rendered by another's generator) under ``dest``.

        Returns the problems folder inside ``dest`` and whether a ``pyshadow`` package was written.
        """
        problems_tree = self.commit(rev).tree
        generator_tree = self.commit(generator_rev).tree if generator_rev is not None else problems_tree
        wanted = [(problems_tree, str(self.problems_rel) if str(self.problems_rel) != "." else "")]
        wanted += [(generator_tree, top) for top in GENERATOR_PATHS]
        for tree, top in wanted:
            try:
                node = tree / top if top else tree
            except KeyError:
                continue
            items = [node] if node.type == "blob" else node.traverse()
            for item in items:
                if item.type != "blob" or item.mode == 0o120000:  # symlinks are not followed
                    continue
                target = dest / item.path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(item.data_stream.read())
        return dest / str(self.problems_rel), (dest / "pyshadow" / "__init__.py").is_file()

    def snapshot(self, rev: str, generator_rev: str | None = None) -> RevisionSnapshot:
        """The problem set at ``rev`` with its shadows and checker texts (see ``snapshot.py``), rendered by the
        generator at ``generator_rev`` (default: ``rev``'s own); one child process per pair of commits, remembered
        for the reader's lifetime."""
        commit = self.commit(rev)
        generator = self.commit(generator_rev).hexsha if generator_rev is not None else commit.hexsha
        key = f"{commit.hexsha}|{generator}"
        if key not in self._snapshots:
            self._snapshots[key] = self._take_snapshot(rev, commit, generator_rev)
        return self._snapshots[key]

    def _take_snapshot(self, rev: str, commit: git.Commit, generator_rev: str | None = None) -> RevisionSnapshot:
        with tempfile.TemporaryDirectory(prefix="pyshadow-diff-") as tmp:
            problems, has_generator = self.write_tree(rev, Path(tmp), generator_rev)
            notes: list[str] = []
            if has_generator:
                ok, out = _run_snapshot(Path(tmp), problems, installed=False)
                if ok:
                    return RevisionSnapshot(rev, commit.hexsha, out, "revision")
                notes.append(f"the generator at {rev} could not run ({_last_line(out)}); "
                             "its checkers were rendered with the installed pyshadow")
            ok, out = _run_snapshot(Path(tmp), problems, installed=True)
            if not ok:
                raise SnapshotError(f"cannot read the problems at {rev}: {_last_line(out)}")
            return RevisionSnapshot(rev, commit.hexsha, out, "installed", notes)


def _run_snapshot(root: Path, problems: Path, *, installed: bool) -> tuple[bool, dict | str]:
    cmd = [sys.executable, "-P", str(SNAPSHOT_SCRIPT), "--root", str(root), "--problems", str(problems)]
    if installed:
        cmd.append("--installed")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=SNAPSHOT_TIMEOUT_S, env=env, cwd=root)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {SNAPSHOT_TIMEOUT_S} s"
    if proc.returncode != 0:
        return False, proc.stderr.strip() or f"exit code {proc.returncode}"
    try:
        return True, json.loads(proc.stdout)
    except json.JSONDecodeError as err:
        return False, f"unreadable snapshot output: {err}"


def _last_line(text: object) -> str:
    lines = [line for line in str(text).splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no output"
