"""Append-only JSONL logs, the form every resumable run writes its results in.

One JSON object per line, flushed as it is written, so an interrupted run keeps everything it finished; reading
back skips a line cut short by the interruption (a later line for the same key wins).
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any, Callable, Protocol, TypeVar

from .errors import BadInput

T = TypeVar("T")


class Recordable(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


class AppendLog:
    """Appends one flushed line per record (``record.to_dict()``); starts a fresh line if the file ends mid-line.

    While open it holds an exclusive ``flock`` on the file, so a second run writing the same log is refused at once
    (``BadInput`` naming the file) instead of redoing the work and writing every row twice. An interruption
    (Ctrl-C) leaves a note on the exception saying how many rows were kept and that rerunning resumes.
    """

    def __init__(self, path: Path | None):
        self.path = Path(path) if path is not None else None
        self._fh = None
        self.written = 0

    def __enter__(self):
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            needs_newline = self.path.is_file() and _ends_mid_line(self.path)
            self._fh = open(self.path, "a", encoding="utf-8")
            try:
                fcntl.flock(self._fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self._fh.close()
                self._fh = None
                raise BadInput(f"{self.path}: another run is writing this file; wait for it to end "
                               "(it resumes from what is there) or write to another file") from None
            if needs_newline:
                self._fh.write("\n")
        return self

    def append(self, record: Recordable) -> None:
        if self._fh is not None:
            self._fh.write(json.dumps(record.to_dict(), ensure_ascii=False) + "\n")
            self._fh.flush()
            self.written += 1

    def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        if self._fh is not None:
            self._fh.close()  # closing releases the lock
            self._fh = None
        if isinstance(exc, KeyboardInterrupt) and self.path is not None:
            exc.add_note(f"{self.written} new rows kept in {self.path}; rerun the same command to resume")


def read_records(path: Path, parse: Callable[[dict[str, Any]], T], key: Callable[[T], str]) -> dict[str, T]:
    """The records of a log by ``key`` (a later line wins); lines that do not parse are skipped; {} when the file
    does not exist. Other ``OSError``s propagate for the caller to report."""
    records: dict[str, T] = {}
    try:
        lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return records
    for line in lines:
        try:
            record = parse(json.loads(line))
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        records[key(record)] = record
    return records


def _ends_mid_line(path: Path) -> bool:
    with open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell() == 0:
            return False
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) != b"\n"
