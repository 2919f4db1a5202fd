"""LLM-as-judge: the baseline people compare SA-Pass with, over the LLM layer (record/replay, budget, accounting).

Each judge (a model) sees the problem's informal statement, its formalization rules, the reference formalization
(theorem proofs replaced by ``sorry``; definitions kept) and the candidate's whole file, rendered from
``templates/prompts/judge_system.j2`` and ``judge.j2``, and must answer one JSON object
``{"verdict": "correct"|"incorrect"|"uncertain", "reason": "…"}``. Accepted spellings of that object: the bare
answer, a ```json fence, or the first such object inside prose (the paper's parser, App. I.1). Anything else is
*malformed*: the judge is asked again (``retries`` times) in the same conversation, with its answer and what was
wrong — a new request, so record/replay keys it apart — and a vote still malformed after that is recorded as an
error, never guessed.

``votes`` samples per judge (the paper: 3 per judge at temperature 0.5) differ by the request's ``seed`` (sent as
an API parameter when votes > 1, so each vote is its own cache entry). Aggregates per candidate:

- per judge: the majority of its decided votes (a tie, or no decided vote, is ``uncertain`` / ``None``);
- ``majority_all``: the majority over every decided vote of every judge (the ShadowBench paper's 9-vote majority);
- ``consensus``: strict consensus — ``correct`` only when every judge's majority is ``correct`` ("Beyond
  Compilation"); ``incorrect`` when every judge decided and one did not say correct; ``None`` when a judge has no
  decided vote.

Rows hold no timing or other run-dependent value, so a replayed run writes byte-identical rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..llm.asking import ask_again, ask_for_json, json_objects
from ..llm.prompts import render_template
from ..llm.provider import ChatRequest
from ..syntax.scanner import declarations
from .candidates import Candidate
from .pipeline import ProblemInfo

VERDICTS = ("correct", "incorrect", "uncertain")
SYSTEM_TEMPLATE = "judge_system.j2"
USER_TEMPLATE = "judge.j2"
_PROOF_KEYWORDS = ("theorem", "lemma", "example", "instance")


@dataclass(frozen=True)
class JudgeSettings:
    """Which models judge, how many votes each, how they are sampled, how often a malformed answer is retried."""

    judges: tuple[str, ...]
    votes: int = 1
    temperature: float = 0.0
    max_tokens: int = 1024
    retries: int = 2

    def __post_init__(self) -> None:
        if not self.judges:
            raise ValueError("at least one judge model is needed")
        if self.votes < 1 or self.retries < 0:
            raise ValueError("votes must be >= 1 and retries >= 0")


# ---------------------------------------------------------------------------------------------------------------
# Prompt


def reference_without_proofs(src: str) -> str:
    """The reference text with every theorem's proof replaced by ``sorry`` (definitions keep their bodies)."""
    out = src
    for d in sorted(declarations(src, include_anonymous=True), key=lambda d: d.start, reverse=True):
        if d.keyword in _PROOF_KEYWORDS and d.statement_end < d.end:
            out = out[: d.statement_end].rstrip() + " := by\n  sorry\n" + out[d.end :]
    return out.strip() + "\n"


def judge_context(info: ProblemInfo, candidate: Candidate) -> dict[str, Any]:
    problem = info.problem
    return {
        "problem_id": problem.id,
        "informal": problem.informal_statement.strip(),
        "rules": (problem.rules or "").strip(),
        "reference": reference_without_proofs(info.reference).strip(),
        "candidate": candidate.code.strip(),
    }


def judge_messages(context: Mapping[str, Any]) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": render_template(SYSTEM_TEMPLATE, context)},
        {"role": "user", "content": render_template(USER_TEMPLATE, context)},
    ]


# ---------------------------------------------------------------------------------------------------------------
# Answers


def parse_verdict(text: str) -> tuple[str, str] | str:
    """``(verdict, reason)`` from an answer, or a one-line description of what is wrong with it."""
    candidates = json_objects(text)
    objects = [c for c in candidates if isinstance(c, dict) and "verdict" in c]
    if not objects:
        return "no JSON object with a \"verdict\" field"
    obj = objects[0]
    verdict = obj["verdict"]
    if not isinstance(verdict, str) or verdict.strip().lower() not in VERDICTS:
        return f"verdict {verdict!r} is not one of {', '.join(VERDICTS)}"
    reason = obj.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        return "no \"reason\" string"
    return verdict.strip().lower(), " ".join(reason.split())


VERDICT_FORMAT = '{"verdict": "correct" | "incorrect" | "uncertain", "reason": "…"}'


def retry_messages(messages: Sequence[Mapping[str, str]], answer: str, problem: str) -> list[dict[str, str]]:
    """The conversation asking again after a malformed ``answer``."""
    return ask_again([dict(m) for m in messages], answer, problem, VERDICT_FORMAT)


# ---------------------------------------------------------------------------------------------------------------
# Asking


def ask_vote(client: Any, settings: JudgeSettings, model: str, messages: list[dict[str, str]], vote: int,
             task: str) -> dict[str, Any]:
    """One vote: ask, validate, retry malformed answers (``pyshadow.llm.asking.ask_for_json``); a dict with status
    ok | malformed | skipped | failed.

    ``CacheMiss`` (replay without a recording) is not absorbed: a replay that does not match must stop.
    """
    extra = {"seed": vote} if settings.votes > 1 else {}

    def request(conversation: list[dict[str, str]]) -> ChatRequest:
        return ChatRequest(model=model, messages=conversation, temperature=settings.temperature,
                           max_tokens=settings.max_tokens, extra=extra)

    found = ask_for_json(client, messages, request, parse_verdict, VERDICT_FORMAT, task=task,
                         retries=settings.retries)
    verdict, reason = found["value"] if found["status"] == "ok" else (None, None)
    return {"vote": vote, "status": found["status"], "verdict": verdict, "reason": reason, "error": found["error"],
            "attempts": found["attempts"], "key": found["key"],
            "provenance": f"llm:{found['model']}" if found["model"] else None}


def majority(verdicts: Iterable[str | None]) -> str | None:
    """The most frequent decided verdict; a tie between the most frequent is ``uncertain``; None with no vote."""
    counts = Counter(v for v in verdicts if v in VERDICTS)
    if not counts:
        return None
    ranked = counts.most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return "uncertain"
    return ranked[0][0]


def consensus(per_judge: Mapping[str, str | None]) -> str | None:
    """Strict consensus: correct iff every judge's majority is correct; None when a judge has none."""
    values = list(per_judge.values())
    if not values or any(v is None for v in values):
        return None
    return "correct" if all(v == "correct" for v in values) else "incorrect"


def judge_candidate(client: Any, settings: JudgeSettings, info: ProblemInfo, candidate: Candidate) -> dict[str, Any]:
    """The judge row of one candidate: every vote of every judge and the three aggregates."""
    messages = judge_messages(judge_context(info, candidate))
    judges: dict[str, Any] = {}
    for model in settings.judges:
        votes = [ask_vote(client, settings, model, messages, v,
                          f"judge/{candidate.problem_id}/{candidate.system}/{model}/{v}")
                 for v in range(1, settings.votes + 1)]
        judges[model] = {"votes": votes, "majority": majority(v["verdict"] for v in votes)}
    every = [v["verdict"] for j in judges.values() for v in j["votes"]]
    errors = sum(v["status"] != "ok" for j in judges.values() for v in j["votes"])
    return {
        "problem_id": candidate.problem_id,
        "system": candidate.system,
        "origin": candidate.origin,
        "judges": judges,
        "majority_all": majority(every),
        "consensus": consensus({m: j["majority"] for m, j in judges.items()}),
        "votes": len(every),
        "errors": errors,
    }
