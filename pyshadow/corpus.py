"""Reading and writing corpus JSONL files (docs/DESIGN.md "Corpus format").

One JSON object per line with at least ``id`` and ``statement``; optional ``context``, ``imports``, ``informal``.
A line that is not JSON, not an object, or misses a field is returned as an entry with ``error`` set (its id
``<line N>`` when it has none), so one bad line is a data row and the run goes on. An unreadable file, a file with
no entry, or one in which no line is a usable entry is ``BadInput`` (exit 2).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from .errors import BadInput, EmptyInput


@dataclass(frozen=True)
class CorpusEntry:
    id: str
    statement: str
    context: str = ""
    imports: tuple[str, ...] = ()
    informal: str | None = None
    line: int = 0
    error: str | None = None  # set when the line is JSON but not a usable entry
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


def read_corpus(path: Path) -> list[CorpusEntry]:
    """All entries of a corpus file; raises ``BadInput`` for an unreadable file or a non-JSON line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except UnicodeDecodeError as err:
        raise BadInput(f"{path}: not UTF-8 ({err.reason} at byte {err.start})") from None
    except OSError as err:
        raise BadInput(f"{path}: cannot read ({err.strerror})") from None
    entries = list(parse_corpus_lines(text.splitlines(), str(path)))
    if not entries:
        raise EmptyInput(f"{path}: no entries (one JSON object per line expected)")
    if all(e.error for e in entries):
        raise BadInput(f"{path}: no line is a usable entry; first: line {entries[0].line}: {entries[0].error}")
    return entries


def parse_corpus_lines(lines: Iterable[str], origin: str) -> Iterator[CorpusEntry]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            yield CorpusEntry(f"<line {number}>", "", line=number, error=f"not valid JSON ({err.msg})")
            continue
        if not isinstance(obj, dict):
            yield CorpusEntry(f"<line {number}>", "", line=number, error="not a JSON object")
            continue
        yield _entry(obj, number)


def _entry(obj: dict[str, Any], number: int) -> CorpusEntry:
    entry_id = obj.get("id")
    statement = obj.get("statement")
    problems = []
    if not isinstance(entry_id, str) or not entry_id:
        problems.append("'id' must be a non-empty string")
    if not isinstance(statement, str):
        problems.append("'statement' must be a string")
    imports = obj.get("imports") or ()
    context = obj.get("context") or ""
    known = {"id", "statement", "context", "imports", "informal"}
    return CorpusEntry(
        id=entry_id if isinstance(entry_id, str) and entry_id else f"<line {number}>",
        statement=statement if isinstance(statement, str) else "",
        context=context if isinstance(context, str) else "",
        imports=tuple(imports) if isinstance(imports, list) else (),
        informal=obj.get("informal") if isinstance(obj.get("informal"), str) else None,
        line=number,
        error="; ".join(problems) or None,
        extra={k: v for k, v in obj.items() if k not in known},
    )


class JsonlWriter:
    """Writes one JSON object per line, flushed as it goes, so an interrupted run keeps what it wrote."""

    def __init__(self, path: Path | None):
        self.path = path
        self._fh = None

    def __enter__(self) -> "JsonlWriter":
        if self.path is not None:
            try:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                self._fh = open(self.path, "w", encoding="utf-8")
            except OSError as err:
                raise BadInput(f"{self.path}: cannot write ({err.strerror})") from None
        return self

    def write(self, obj: dict[str, Any]) -> None:
        if self._fh is not None:
            self._fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
            self._fh.flush()

    def __exit__(self, *exc) -> None:
        if self._fh is not None:
            self._fh.close()
