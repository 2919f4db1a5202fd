"""Record/replay cache: every request and its answer, one readable JSON file each, keyed by a content hash.

The key is the sha256 of the canonical JSON (sorted keys, no spaces, UTF-8) of everything that determines the
answer: model, messages, temperature, max_tokens and extra parameters — not the endpoint, not the API key. A file
is named ``<first 12 hex digits of the key>-<task slug>.json`` and holds::

    {"format": "pyshadow-llm-cache/1", "key": …, "task": …, "request": {…}, "response": {…}}

pretty-printed with sorted keys and a trailing newline, so that a recorded run can be committed next to a
benchmark, read in a review, and replayed byte for byte with no network. Files are written atomically
(temporary file, then rename), so parallel workers recording the same entry cannot leave a torn file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import write_atomically
from .errors import CacheCorrupt
from .provider import ChatRequest, ChatResponse

CACHE_FORMAT = "pyshadow-llm-cache/1"
KEY_PREFIX_LENGTH = 12
_SLUG_MAX = 80


def canonical_json(value: Any) -> str:
    """The one JSON spelling of ``value`` that keys are computed from: sorted keys, no whitespace, raw UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def request_key(request: ChatRequest) -> str:
    """sha256 (hex) of the canonical JSON of the request's parameters."""
    return hashlib.sha256(canonical_json(request.parameters()).encode("utf-8")).hexdigest()


def task_slug(task: str) -> str:
    """A file-name-safe form of a task name: ``shadows/minif2f/p1`` → ``shadows_minif2f_p1``."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", task).strip("._-")
    return slug[:_SLUG_MAX] or "task"


def render_entry(key: str, task: str, request: ChatRequest, response: ChatResponse) -> str:
    """The exact text of a cache file: pretty JSON, sorted keys, trailing newline."""
    entry = {
        "format": CACHE_FORMAT,
        "key": key,
        "task": task,
        "request": request.parameters(),
        "response": response.to_dict(),
    }
    return json.dumps(entry, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"


@dataclass(frozen=True)
class CacheEntry:
    """One recorded exchange as read back from ``path``."""

    key: str
    task: str
    request: ChatRequest
    response: ChatResponse
    path: Path


class ResponseCache:
    """A directory of recorded exchanges. Nothing is created on disk until the first ``store``."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    def path_for(self, key: str, task: str) -> Path:
        return self.directory / f"{key[:KEY_PREFIX_LENGTH]}-{task_slug(task)}.json"

    def lookup(self, request: ChatRequest) -> CacheEntry | None:
        """The recorded entry for ``request`` (under whatever task name it was recorded), or None."""
        key = request_key(request)
        if not self.directory.is_dir():
            return None
        for path in sorted(self.directory.glob(f"{key[:KEY_PREFIX_LENGTH]}-*.json")):
            entry = read_entry(path)
            if entry.key == key:
                return entry
        return None

    def store(self, task: str, request: ChatRequest, response: ChatResponse) -> CacheEntry:
        """Write the exchange (atomically) and return it exactly as a later ``lookup`` will read it."""
        key = request_key(request)
        path = self.path_for(key, task)
        text = render_entry(key, task, request, response)
        write_atomically(path, text.encode("utf-8"))
        return _entry_from_text(text, path)


def read_entry(path: Path) -> CacheEntry:
    """Read one cache file; ``CacheCorrupt`` names the file when it is not a well-formed entry."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise CacheCorrupt(f"cannot read LLM cache file {path}: {err.strerror or err}") from err
    return _entry_from_text(text, path)


def _entry_from_text(text: str, path: Path) -> CacheEntry:
    try:
        data = json.loads(text)
        if data.get("format") != CACHE_FORMAT:
            raise ValueError(f"format is {data.get('format')!r}, expected {CACHE_FORMAT!r}")
        return CacheEntry(
            key=data["key"],
            task=data["task"],
            request=ChatRequest.from_dict(data["request"]),
            response=ChatResponse.from_dict(data["response"]),
            path=path,
        )
    except (json.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError) as err:
        raise CacheCorrupt(f"LLM cache file {path} is not a valid entry: {err}") from err
