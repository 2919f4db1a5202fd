"""Lean's ``--json`` output as typed diagnostics, and the ``#print axioms`` answer as data.

``lean --json FILE`` prints one JSON object per message and line (measured with Lean 4.35.0)::

    {"caption": "", "data": "Unknown identifier `nope`", "endPos": {"column": 23, "line": 6},
     "fileName": "a.lean", "isSilent": false, "keepFullRange": false,
     "kind": "lean.unknownIdentifier._namedError", "pos": {"column": 19, "line": 6}, "severity": "error"}

Lines are 1-based, columns 0-based; ``endPos`` may be null. Anything on stdout that is not such an object is kept
verbatim as *noise* — the runner decides what noise means. ``#print axioms foo`` answers with an information
message ``'foo' depends on axioms: [P, T0]`` (the list wraps onto several lines when long; names that need it are
printed in «guillemets») or ``'foo' does not depend on any axioms``.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any

SEVERITIES = ("error", "warning", "information")
_AXIOMS_RE = re.compile(r"'(?P<name>.+)' depends on axioms: \[(?P<axioms>.*)\]", re.DOTALL)
_NO_AXIOMS_RE = re.compile(r"'(?P<name>.+)' does not depend on any axioms", re.DOTALL)
_INTERNAL_EXCEPTION_RE = re.compile(r"internal exception #\d+")


@dataclass(frozen=True)
class Position:
    line: int  # 1-based; 0 when Lean gave no position
    column: int  # 0-based


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" | "warning" | "information"
    pos: Position
    end_pos: Position | None
    message: str
    kind: str

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    @property
    def is_follow_up(self) -> bool:
        """Lean's ``internal exception #N`` error, which only repeats that an earlier error aborted a command."""
        return _INTERNAL_EXCEPTION_RE.fullmatch(self.message.strip()) is not None

    def short(self, limit: int = 200) -> str:
        """``L:C severity: first line of the message`` — for reasons and logs."""
        return f"{self.pos.line}:{self.pos.column} {self.severity}: {first_line(self.message, limit)}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> Diagnostic:
        end = obj.get("end_pos")
        return cls(
            severity=obj["severity"],
            pos=Position(**obj["pos"]),
            end_pos=Position(**end) if end else None,
            message=obj["message"],
            kind=obj.get("kind", ""),
        )


def first_line(message: str, limit: int = 200) -> str:
    """The first line of a message, cut to ``limit`` characters with an ellipsis."""
    line = message.strip().splitlines()[0] if message.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def parse_json_output(stdout: str) -> tuple[list[Diagnostic], list[str]]:
    """Split ``lean --json`` stdout into diagnostics and other lines (kept verbatim; blank lines dropped)."""
    diagnostics: list[Diagnostic] = []
    noise: list[str] = []
    for line in stdout.splitlines():
        if not line.strip():
            continue
        diagnostic = parse_diagnostic_line(line)
        if diagnostic is None:
            noise.append(line)
        else:
            diagnostics.append(diagnostic)
    return diagnostics, noise


def parse_diagnostic_line(line: str) -> Diagnostic | None:
    """One JSON message line → Diagnostic; None if the line is not a Lean message object."""
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    severity = obj.get("severity")
    message = obj.get("data")
    if severity not in SEVERITIES or not isinstance(message, str):
        return None
    return Diagnostic(
        severity=severity,
        pos=_position(obj.get("pos")) or Position(0, 0),
        end_pos=_position(obj.get("endPos")),
        message=message,
        kind=str(obj.get("kind", "")),
    )


def _position(obj: Any) -> Position | None:
    if not isinstance(obj, dict):
        return None
    line, column = obj.get("line"), obj.get("column")
    if not isinstance(line, int) or not isinstance(column, int):
        return None
    return Position(line, column)


def parse_axioms_message(message: str) -> tuple[str, tuple[str, ...]] | None:
    """``'foo' depends on axioms: [P, T0]`` → ("foo", ("P", "T0")); "does not depend" → ("foo", ()); else None."""
    text = message.strip()
    if match := _NO_AXIOMS_RE.fullmatch(text):
        return match["name"], ()
    if match := _AXIOMS_RE.fullmatch(text):
        axioms = tuple(part.strip() for part in match["axioms"].split(",") if part.strip())
        return match["name"], axioms
    return None


def normalize_name(name: str) -> str:
    """Compare Lean names as printed or as written: ``Foo.«bar»`` and ``Foo.bar`` are the same name."""
    return name.replace("«", "").replace("»", "").strip()
