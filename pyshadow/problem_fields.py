"""Reading TOML fields into checked values, every defect a ``ProblemError``: one line naming the file, the field
and what was expected — ``Collect`` gathers the defects of independent checks so an author sees them all at once,
and an unknown key comes with the nearest allowed one ("did you mean", ``difflib``). Used by ``pyshadow.problems``
for ``problem.toml``, ``expected.toml`` and ``pyshadow.toml``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import ParseError as TomlParseError
from tomlkit.toml_document import TOMLDocument

from .errors import BadInput


class ProblemError(BadInput):
    """A problem (or its sample candidates) is malformed; the message names the file, the field, what was expected.

    ``path`` is the offending file (or folder); ``field`` the dotted field name, when one field is at fault.
    """

    def __init__(self, path: Path | str, message: str, field: str | None = None):
        self.path = Path(path)
        self.field = field
        self.reason = message
        self.errors: tuple[ProblemError, ...] = (self,)  # every defect found (several: see ``combined``)
        where = f"{path}: field '{field}'" if field else f"{path}"
        super().__init__(one_line(f"{where}: {message}"))

    @classmethod
    def combined(cls, path: Path | str, errors: Iterable[ProblemError]) -> ProblemError:
        """One error for every defect of a file, so an author fixes them all in one round: the error itself when
        there is one, else ``FILE: N errors: (1) field 'a': …; (2) …`` (``field`` is the first one's)."""
        found = [e for err in errors for e in err.errors]
        if len(found) == 1:
            return found[0]
        parts = [f"({n}) " + (f"field '{e.field}': " if e.field else "") + e.reason
                 for n, e in enumerate(found, start=1)]
        err = cls(path, f"{len(found)} errors: " + "; ".join(parts))
        err.field, err.errors = found[0].field, tuple(found)
        return err


class Collect:
    """Gathers the ``ProblemError`` of each independent check (``with errors.check(): …``) instead of stopping at
    the first; ``raise_any`` raises them together (``ProblemError.combined``)."""

    def __init__(self, path: Path):
        self.path = path
        self.found: list[ProblemError] = []

    @contextmanager
    def check(self) -> Iterator[None]:
        try:
            yield
        except ProblemError as err:
            self.found.append(err)

    def raise_any(self) -> None:
        if self.found:
            raise ProblemError.combined(self.path, self.found)


def parse_toml(path: Path) -> TOMLDocument:
    text = read_text(path, path, None)
    try:
        return tomlkit.parse(text)
    except TomlParseError as err:
        reason = re.sub(r" at line \d+ col \d+$", "", str(err))
        raise ProblemError(path, f"invalid TOML at line {err.line}, column {err.col + 1}: {reason}") from None


def read_text(path: Path, owner: Path, field_name: str | None) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if path == owner:
            raise ProblemError(path, "file not found") from None
        raise ProblemError(owner, f"expected an existing file, {path} not found", field_name) from None
    except UnicodeDecodeError as err:
        raise ProblemError(path, f"expected UTF-8 text, byte {err.start} is not") from None
    except OSError as err:
        raise ProblemError(path, f"cannot read: {err.strerror or err}") from None


def check_keys(path: Path, data: Mapping[str, Any], allowed: Iterable[str], prefix: str) -> None:
    """Every unknown key at once, each with the nearest allowed one (``difflib``) as a "did you mean"."""
    allowed = tuple(allowed)
    unknown = []
    for key in data:
        if key not in allowed:
            near = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            hint = f" (did you mean '{near[0]}'?)" if near else ""
            unknown.append(ProblemError(path, f"unknown field{hint}; expected one of {', '.join(allowed)}",
                                        prefix + key))
    if unknown:
        raise ProblemError.combined(path, unknown)


def require(path: Path, data: Mapping[str, Any], key: str, prefix: str) -> Any:
    if key not in data:
        raise ProblemError(path, "missing", prefix + key)
    return data[key]


def require_str(path: Path, data: Mapping[str, Any], key: str, prefix: str = "") -> str:
    value = require(path, data, key, prefix)
    if not isinstance(value, str):
        raise ProblemError(path, f"expected a string, got {type_name(value)}", prefix + key)
    if not value.strip():
        raise ProblemError(path, "expected a non-empty string", prefix + key)
    return value


def optional_str(path: Path, data: Mapping[str, Any], key: str, prefix: str = "") -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ProblemError(path, f"expected a string, got {type_name(value)}", prefix + key)
    return value if value.strip() else None


def require_bool(path: Path, data: Mapping[str, Any], key: str, prefix: str = "") -> bool:
    value = require(path, data, key, prefix)
    if not isinstance(value, bool):
        raise ProblemError(path, f"expected true or false, got {type_name(value)}", prefix + key)
    return value


def require_str_list(path: Path, data: Mapping[str, Any], key: str, allow_empty: bool) -> list[str]:
    value = require(path, data, key, "")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProblemError(path, f"expected a list of strings, got {type_name(value)}", key)
    if not value and not allow_empty:
        raise ProblemError(path, "expected at least one name", key)
    return value


def require_table(path: Path, data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = require(path, data, key, "")
    if not isinstance(value, dict):
        raise ProblemError(path, f"expected a table [{key}], got {type_name(value)}", key)
    return value


def type_name(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a table"}
    for typ, name in names.items():
        if isinstance(value, typ):
            return name
    return type(value).__name__


def preview(names: Iterable[str], limit: int = 6) -> str:
    names = sorted(names)
    if not names:
        return "none"
    shown = ", ".join(names[:limit])
    return shown + (f", … ({len(names)} in all)" if len(names) > limit else "")


def one_line(text: str) -> str:
    return " ".join(text.split())
