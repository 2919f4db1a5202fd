"""Asking for one JSON object, strictly: the LLM-as-judge's verdicts (``pyshadow.score.judge``) and the skeleton +
LLM column's same-term answers (``pyshadow.llm.same_term``).

``ask_for_json`` sends a conversation through ``LLMClient`` (cache, budget, accounting), reads the answer with the
caller's parser, and when the answer cannot be read asks again — in the same conversation, showing the model its
answer and what was wrong (a new request, so record/replay keys it apart) — at most ``retries`` times. An answer
still unreadable after that is recorded as ``malformed`` with the reason: never guessed. Accepted spellings of the
object (``json_objects``): the bare answer, a ```json fence, or the first such object inside prose (the
ShadowBench paper's parser, App. I.1).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from .cache import request_key
from .client import LLMClient
from .errors import BudgetExhausted, LLMDisabled, ProviderError
from .provider import ChatRequest

_ANY_FENCE = re.compile(r"```[ \t]*(?:json)?[ \t]*\n(.*?)```", re.DOTALL)


def json_objects(text: str) -> list[Any]:
    """Every JSON value an answer spells, in the order it is tried: the bare answer, each ```json (or unlabelled)
    fence, then each object starting at some ``{`` in the prose (the ShadowBench paper's parser, App. I.1)."""
    found: list[Any] = []
    for chunk in (text.strip(), *(m.group(1).strip() for m in _ANY_FENCE.finditer(text))):
        try:
            found.append(json.loads(chunk))
        except json.JSONDecodeError:
            continue
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            found.append(decoder.raw_decode(text, match.start())[0])
        except json.JSONDecodeError:
            continue
    return found


def ask_again(messages: list[dict[str, str]], answer: str, problem: str, expected: str) -> list[dict[str, str]]:
    """The conversation asking again after an unreadable ``answer``: the model sees its answer and what was wrong
    (a new request, so record/replay keys it apart from the first)."""
    return [dict(m) for m in messages] + [
        {"role": "assistant", "content": answer},
        {"role": "user", "content": f"That answer cannot be read ({problem}). Answer again with exactly one JSON "
                                    f"object {expected} and nothing else."},
    ]


def ask_for_json(
    client: LLMClient,
    messages: list[dict[str, str]],
    request: Callable[[list[dict[str, str]]], ChatRequest],
    parse: Callable[[str], Any],
    expected: str,
    *,
    task: str,
    retries: int,
) -> dict[str, Any]:
    """Ask until ``parse`` reads the answer (it returns a ``str`` saying what is wrong otherwise), at most
    ``retries`` times again. Returns ``status`` (ok | malformed | skipped | failed), ``value`` (what ``parse`` read),
    ``error``, ``attempts``, ``key`` (of the last request, 12 hex digits), ``provenance`` (replayed | recorded |
    model) and ``model`` (the serving model). ``CacheMiss`` is not absorbed: a replay that does not match its
    recording must stop."""
    found: dict[str, Any] = {"status": "failed", "value": None, "error": None, "attempts": 0, "key": None,
                             "provenance": None, "model": None}
    for attempt in range(retries + 1):
        chat = request(messages)
        found.update(attempts=attempt + 1, key=request_key(chat)[:12])
        try:
            response, provenance = client.complete_traced(chat, task=task)
        except (BudgetExhausted, LLMDisabled) as err:
            found.update(status="skipped", error=str(err))
            break
        except ProviderError as err:
            found.update(status="failed", error=str(err))
            break
        found.update(provenance=provenance, model=response.model)
        parsed = parse(response.text)
        if not isinstance(parsed, str):
            found.update(status="ok", value=parsed, error=None)
            break
        found.update(status="malformed", error=parsed)
        messages = ask_again(messages, response.text, parsed, expected)
    outcome = {"ok": "accepted", "malformed": "rejected"}.get(found["status"], found["status"])
    client.accounting.record_outcome(task, outcome, found["error"])
    return found
