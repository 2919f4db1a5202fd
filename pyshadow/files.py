"""Files in and out: reading a user's source file with one clear error, and writing so that a reader never sees
half of one (a temporary file beside it, then a rename)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import BadInput


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one step (``os.replace``); the temporary file never outlives a failure."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_utf8(path: Path) -> str:
    """The file's text; ``BadInput`` (exit 2) naming the file when it is missing, unreadable or not UTF-8."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise BadInput(f"{path}: cannot read: {err.strerror or err}") from err
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BadInput(f"{path}: not valid UTF-8 (byte offset {err.start})") from err
