"""Asking a model whether two Lean terms are the same term: the question behind the *skeleton + LLM* column.

Skeleton SA-Pass leaves a check *undecided* when the statements' structures match but some atom pairs differ where
only elaboration could decide (``pyshadow/kernel/undecided.py``: ``Complex.abs z`` vs ``norm z``, a cast placed
elsewhere). With ``--llm`` each distinct such pair is sent to the model, rendered from
``templates/prompts/atom_pair_system.j2`` and ``atom_pair.j2`` with where each term is written (the ``open`` /
``namespace`` / ``variable`` lines before its statement, and the statement's variables with their types), and the
model must answer one JSON object ``{"same": true | false | null, "reason": "…"}``. Parsing is strict, like the
LLM-as-judge's (``pyshadow.score.judge``): ``same`` must be a JSON boolean or null and ``reason`` a non-empty
string; anything else is asked again (``retries`` times, in the same conversation) and then recorded as an
error — never guessed.

The answers are **a model's opinion, not a Lean check**: they form their own column and never change skeleton
SA-Pass. ``combine`` is the column's rule over one undecided item's answers: ``fail`` when any pair is answered
``false``, ``pass`` when every pair is answered ``true``, else ``undecided``.

Requests go through ``LLMClient`` (record/replay cache keyed by the request, budget, accounting); answers hold
nothing run-dependent, so a replayed run writes byte-identical rows. ``AtomPairJudge`` asks each distinct request
once per run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..syntax.ast import Declaration, is_proposition
from ..syntax.render import render_binder
from .asking import ask_for_json, json_objects
from .cache import request_key
from .client import LLMClient
from .prompts import render_template
from .provider import ChatRequest

SYSTEM_TEMPLATE = "atom_pair_system.j2"
USER_TEMPLATE = "atom_pair.j2"
ANSWER_FORMAT = '{"same": true | false | null, "reason": "…"}'
STATUSES = ("ok", "malformed", "skipped", "failed")
COLUMN_VERDICTS = ("pass", "fail", "undecided")
# The lines of a file that change how a statement's names read: opens, namespaces, sections, variables, notation.
_SCOPE_LINE = re.compile(
    r"^\s*(?:open|namespace|section|end|variable|universe|(?:local |scoped )?(?:notation|infixl?|infixr|prefix|postfix))\b"
)
MAX_SCOPE_LINES = 30


@dataclass(frozen=True)
class AtomPairSettings:
    """How the model is asked: sampling, answer length, how often an unreadable answer is asked again."""

    temperature: float = 0.0
    max_tokens: int = 512
    retries: int = 2

    def __post_init__(self) -> None:
        if self.retries < 0 or self.max_tokens < 1:
            raise ValueError("retries must be >= 0 and max_tokens >= 1")


@dataclass(frozen=True)
class TermScope:
    """Where a term is written: the scope lines before its statement and the statement's variables (binders that
    are not hypotheses, rendered as written: ``(z : ℂ)``, ``[Field K]``)."""

    lines: tuple[str, ...] = ()
    variables: tuple[str, ...] = ()


def term_scope(context: str, declaration: Declaration | None) -> TermScope:
    """The ``TermScope`` of a statement written after ``context`` (the file's text before it)."""
    lines = tuple(line.strip() for line in (context or "").splitlines() if _SCOPE_LINE.match(line))
    variables: tuple[str, ...] = ()
    if declaration is not None:
        variables = tuple(render_binder(b) for b in declaration.binders
                          if b.type is None or b.is_instance or not is_proposition(b))
    return TermScope(lines[-MAX_SCOPE_LINES:], variables)


@dataclass(frozen=True)
class AtomQuestion:
    """One atom pair: the reference's term and the candidate's, each with its scope."""

    reference: str
    candidate: str
    reference_scope: TermScope = TermScope()
    candidate_scope: TermScope = TermScope()
    mathlib: bool = True

    def context(self) -> dict[str, Any]:
        return {"reference": self.reference, "candidate": self.candidate, "mathlib": self.mathlib,
                "reference_scope": asdict(self.reference_scope), "candidate_scope": asdict(self.candidate_scope)}


@dataclass(frozen=True)
class AtomAnswer:
    """How one atom pair was answered. ``status``: ok (``same`` and ``reason`` read from the answer) | malformed
    (still unreadable after the retries) | skipped (budget) | failed (endpoint); ``provenance``: replayed |
    recorded | model (``LLMClient.complete_traced``), of the last answer read."""

    reference: str
    candidate: str
    status: str
    same: bool | None = None
    reason: str | None = None
    error: str | None = None
    attempts: int = 0
    key: str | None = None
    provenance: str | None = None
    model: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AtomAnswer:
        return cls(**{k: data.get(k) for k in cls.__dataclass_fields__ if k in data})


def question_messages(question: AtomQuestion) -> list[dict[str, str]]:
    context = question.context()
    return [{"role": "system", "content": render_template(SYSTEM_TEMPLATE, context)},
            {"role": "user", "content": render_template(USER_TEMPLATE, context)}]


def parse_same(text: str) -> tuple[bool | None, str] | str:
    """``(same, reason)`` from an answer, or a one-line description of what is wrong with it. ``same`` must be a
    JSON ``true``, ``false`` or ``null`` — not the string ``"true"``, not a number."""
    objects = [o for o in json_objects(text) if isinstance(o, dict) and "same" in o]
    if not objects:
        return 'no JSON object with a "same" field'
    same = objects[0]["same"]
    if same is not None and not isinstance(same, bool):
        return f"same is {same!r}, not true, false or null"
    reason = objects[0].get("reason")
    if not isinstance(reason, str) or not reason.strip():
        return 'no "reason" string'
    return same, " ".join(reason.split())


def ask_atom_pair(client: LLMClient, settings: AtomPairSettings, question: AtomQuestion, task: str) -> AtomAnswer:
    """Ask, read strictly, ask again on an unreadable answer (``asking.ask_for_json``); the ``AtomAnswer``.
    ``CacheMiss`` (replay without a recording) is not absorbed: a replay that does not match must stop."""
    found = ask_for_json(client, question_messages(question), lambda m: _request(client, settings, m), parse_same,
                         ANSWER_FORMAT, task=task, retries=settings.retries)
    value = found.pop("value")
    same, reason = value if found["status"] == "ok" else (None, None)
    return AtomAnswer(question.reference, question.candidate, same=same, reason=reason, **found)


def _request(client: LLMClient, settings: AtomPairSettings, messages: list[dict[str, str]]) -> ChatRequest:
    return ChatRequest(model=client.model or "none", messages=messages, temperature=settings.temperature,
                       max_tokens=settings.max_tokens)


@dataclass
class AtomPairJudge:
    """Asks each distinct question once per run (a repeated request, e.g. the same pair in the same scope for
    another candidate, gets the first answer); ``asked`` counts the distinct questions."""

    client: LLMClient
    settings: AtomPairSettings = AtomPairSettings()
    answers: dict[str, AtomAnswer] = field(default_factory=dict)

    def answer(self, question: AtomQuestion, task: str) -> AtomAnswer:
        key = request_key(_request(self.client, self.settings, question_messages(question)))
        if key not in self.answers:
            self.answers[key] = ask_atom_pair(self.client, self.settings, question, task)
        return self.answers[key]

    def answer_all(self, questions: Sequence[AtomQuestion], task_prefix: str) -> list[AtomAnswer]:
        return [self.answer(q, f"{task_prefix}/{i}") for i, q in enumerate(questions, start=1)]

    @property
    def asked(self) -> int:
        return len(self.answers)


def combine(answers: Iterable[AtomAnswer]) -> str:
    """The skeleton + LLM verdict of one undecided item from its atom pairs' answers: ``fail`` when any pair is
    answered not the same, ``pass`` when there are answers and every one says the same, else ``undecided`` (a
    ``null`` answer, an error, a skipped question)."""
    answers = list(answers)
    if any(a.status == "ok" and a.same is False for a in answers):
        return "fail"
    if answers and all(a.status == "ok" and a.same is True for a in answers):
        return "pass"
    return "undecided"
