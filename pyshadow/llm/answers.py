"""Getting Lean code out of a model's answer text.

Tried in order, first hit wins:

1. ``json``   — the whole answer is a JSON object ``{"checker_code": …, "items": […], "rationale": …}``
               (also accepted inside a ```json fence);
2. ``lean``   — fenced ```lean / ```lean4 blocks, concatenated in order when there are several;
3. ``permissive`` — a JSON object with ``checker_code`` somewhere in the prose, else an unlabelled ``` fence,
               else the bare text when it begins like Lean (a declaration keyword, ``open``, a docstring).

Nothing here judges the code; ``pyshadow.llm.validate`` does.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_FENCE = re.compile(r"^[ \t]*```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)^[ \t]*```[ \t]*$", re.DOTALL | re.MULTILINE)
_LEAN_LABELS = frozenset({"lean", "lean4"})
_LEAN_START = re.compile(
    r"^\s*(?:/--|/-!|@\[|(?:private |protected |noncomputable )*(?:theorem|lemma|example|def|abbrev|open)\b)"
)


@dataclass(frozen=True)
class Answer:
    """Code extracted from an answer, with the JSON metadata when the answer had some."""

    code: str
    items: list[dict[str, Any]] = field(default_factory=list)
    rationale: str | None = None
    source: str = "none"  # json | lean | permissive | none


def extract_answer(text: str) -> Answer:
    """The code (possibly empty, ``source="none"``) and metadata in a model's answer."""
    whole = _json_object(text.strip())
    if whole is not None:
        return _from_json(whole, "json")
    fences = _FENCE.findall(text)
    for label, body in fences:
        if label.lower() == "json":
            fenced = _json_object(body.strip())
            if fenced is not None:
                return _from_json(fenced, "json")
    lean = [body for label, body in fences if label.lower() in _LEAN_LABELS]
    if lean:
        return Answer(code=_join(lean), source="lean")
    embedded = _embedded_json_object(text)
    if embedded is not None:
        return _from_json(embedded, "permissive")
    unlabelled = [body for label, body in fences if not label]
    if unlabelled:
        return Answer(code=_join(unlabelled), source="permissive")
    if _LEAN_START.match(text):
        return Answer(code=text.strip() + "\n", source="permissive")
    return Answer(code="", source="none")


def strip_fences(code: str) -> str:
    """``code`` without a surrounding ``` fence (models sometimes fence the code inside a JSON string)."""
    match = _FENCE.fullmatch(code.strip())
    return match.group(2) if match else code


def _json_object(text: str) -> dict[str, Any] | None:
    """``text`` parsed as a JSON object carrying ``checker_code``, or None."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    return value if _is_answer_object(value) else None


def _embedded_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object with ``checker_code`` that starts at some ``{`` inside ``text``."""
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if _is_answer_object(value):
            return value
    return None


def _is_answer_object(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("checker_code"), str)


def _from_json(data: dict[str, Any], source: str) -> Answer:
    items = data.get("items")
    rationale = data.get("rationale")
    code = strip_fences(data["checker_code"]).strip("\n").rstrip()
    return Answer(
        code=code + "\n" if code.strip() else "",
        items=[item for item in items if isinstance(item, dict)] if isinstance(items, list) else [],
        rationale=rationale if isinstance(rationale, str) else None,
        source=source,
    )


def _join(blocks: list[str]) -> str:
    return "\n\n".join(block.strip("\n").rstrip() for block in blocks).rstrip() + "\n"

