"""The three residual tasks an LLM is asked about, and running one end to end.

Deterministic rules produce most shadows; these tasks cover what they leave:

- ``shadow_task``      (a) propose finer shadows for a target the rules left whole (``∃``, ``∨``, atoms …);
- ``certificate_task`` (b) prove ⋀ Sᵢ ⇒ T when the structural backward certificate cannot be built;
- ``adapter_task``     (c) bridge a candidate's declaration to the reference's name when rule-based renaming failed.

Each is a ``ResidualTask``: a template under ``templates/prompts/``, the context it is rendered with, and the
``ValidationSpec`` its answer must pass. ``run_task`` renders, asks the client (cache/budget/accounting apply),
extracts the code (``answers``), validates it (``validate``) and returns a ``ResidualResult`` whose
``provenance`` is ``llm:<model>``. An accepted result is only a proposal: Lean checks it next.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .answers import extract_answer
from .cache import request_key
from .client import LLMClient
from .errors import BudgetExhausted, LLMDisabled, ProviderError
from .prompts import render_messages
from .provider import DEFAULT_MAX_TOKENS, ChatRequest
from .validate import PROOF_KEYWORDS, ValidationSpec, validate_answer

TASK_KINDS = ("shadows", "certificate", "adapter")
ADAPTER_KEYWORDS = ("theorem", "lemma", "def", "abbrev")


@dataclass(frozen=True)
class ResidualTask:
    """One question for the model. ``name`` is stable across runs: it names cache files and appears in messages."""

    kind: str
    name: str
    context: Mapping[str, Any]
    validation: ValidationSpec

    def __post_init__(self) -> None:
        if self.kind not in TASK_KINDS:
            raise ValueError(f"unknown residual task kind {self.kind!r}; expected one of {', '.join(TASK_KINDS)}")


@dataclass(frozen=True)
class ResidualResult:
    """How a task ended. ``status``: accepted | rejected | skipped | failed; ``reasons`` say why if not accepted."""

    task: str
    kind: str
    status: str
    key: str
    code: str | None = None
    items: list[dict[str, Any]] = field(default_factory=list)
    rationale: str | None = None
    provenance: str | None = None
    reasons: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "kind": self.kind,
            "status": self.status,
            "key": self.key,
            "code": self.code,
            "items": self.items,
            "rationale": self.rationale,
            "provenance": self.provenance,
            "reasons": self.reasons,
        }


# ---------------------------------------------------------------------------------------------------------------
# Building tasks


def lean_slug(text: str) -> str:
    """A Lean-identifier-safe form of a problem id: ``minif2f/aime_1983_p1`` → ``minif2f_aime_1983_p1``."""
    slug = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_")
    return slug if slug and not slug[0].isdigit() else f"p_{slug}"


def shadow_task(
    problem_id: str,
    target_name: str,
    target_statement: str,
    *,
    existing_shadows: Sequence[str] = (),
    context: str = "",
    informal: str = "",
    rules: str = "",
    reason: str = "",
    name: str | None = None,
) -> ResidualTask:
    """(a) Ask for shadows of ``target_statement`` (a header ``theorem name binders : T``, no proof).

    Accepted answers use ``target_name`` in every declaration and never conclude the target's conclusion again.
    """
    prefix = f"shadow_{lean_slug(problem_id)}"
    return ResidualTask(
        kind="shadows",
        name=name or f"shadows/{problem_id}/{target_name}",
        context={
            "problem_id": problem_id,
            "target_name": target_name,
            "target_statement": target_statement.strip(),
            "existing_shadows": list(existing_shadows),
            "context": context.strip(),
            "informal": informal.strip(),
            "rules": rules.strip(),
            "reason": reason,
            "checker_prefix": prefix,
            "first_index": len(existing_shadows) + 1,
        },
        validation=ValidationSpec(
            required_names=(target_name,),
            every_declaration_uses=target_name,
            target_statement=target_statement,
            allowed_keywords=PROOF_KEYWORDS,
        ),
    )


def certificate_task(
    problem_id: str,
    target_name: str,
    target_statement: str,
    goal: str,
    shadows: Sequence[str],
    *,
    context: str = "",
    reason: str = "",
    name: str | None = None,
    certificate_name: str | None = None,
) -> ResidualTask:
    """(b) Ask for a proof of ``goal`` (the target's closed statement) from ``shadows`` (closed statements).

    The hypotheses are named ``h_1 … h_n``; the certificate is ``theorem shadow_<problem>_backward`` unless
    ``certificate_name`` says otherwise (a problem with several targets needs one per target). Accepted answers
    declare that name and never mention ``target_name``.
    """
    certificate_name = certificate_name or f"shadow_{lean_slug(problem_id)}_backward"
    return ResidualTask(
        kind="certificate",
        name=name or f"certificate/{problem_id}/{target_name}",
        context={
            "problem_id": problem_id,
            "target_name": target_name,
            "target_statement": target_statement.strip(),
            "goal": goal.strip(),
            "shadows": [{"name": f"h_{i}", "statement": s.strip()} for i, s in enumerate(shadows, start=1)],
            "certificate_name": certificate_name,
            "context": context.strip(),
            "reason": reason,
        },
        validation=ValidationSpec(
            required_names=(certificate_name,),
            banned_names=(target_name,),
            allowed_keywords=("theorem",),
        ),
    )


def adapter_task(
    problem_id: str,
    reference_name: str,
    reference_statement: str,
    candidate_name: str,
    candidate_statement: str,
    *,
    reference_kind: str = "theorem",
    candidate_excerpt: str = "",
    error: str = "",
    context: str = "",
    candidate_id: str | None = None,
    name: str | None = None,
) -> ResidualTask:
    """(c) Ask for a declaration named ``reference_name`` built from the candidate's ``candidate_name``."""
    if reference_kind not in ADAPTER_KEYWORDS:
        raise ValueError(f"adapter reference_kind must be one of {', '.join(ADAPTER_KEYWORDS)}, got {reference_kind!r}")
    where = f"{problem_id}/{candidate_id}" if candidate_id else problem_id
    return ResidualTask(
        kind="adapter",
        name=name or f"adapter/{where}/{reference_name}",
        context={
            "problem_id": problem_id,
            "reference_name": reference_name,
            "reference_kind": reference_kind,
            "reference_statement": reference_statement.strip(),
            "candidate_name": candidate_name,
            "candidate_statement": candidate_statement.strip(),
            "candidate_excerpt": candidate_excerpt.strip(),
            "error": error.strip(),
            "context": context.strip(),
        },
        validation=ValidationSpec(
            required_names=(reference_name, candidate_name),
            every_declaration_uses=candidate_name,
            allowed_keywords=ADAPTER_KEYWORDS,
        ),
    )


# ---------------------------------------------------------------------------------------------------------------
# Running tasks


def build_request(
    task: ResidualTask,
    model: str,
    *,
    temperature: float = 0.0,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    extra: Mapping[str, Any] | None = None,
    templates_dir: Path | None = None,
) -> ChatRequest:
    """The chat request for ``task``: its rendered system and user messages plus sampling parameters."""
    return ChatRequest(
        model=model,
        messages=render_messages(task.kind, task.context, templates_dir),
        temperature=temperature,
        max_tokens=max_tokens,
        extra=dict(extra or {}),
    )


def run_task(
    client: LLMClient,
    task: ResidualTask,
    *,
    temperature: float = 0.0,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    extra: Mapping[str, Any] | None = None,
    templates_dir: Path | None = None,
) -> ResidualResult:
    """Ask, extract, validate. Budget refusals and ``--llm none`` give ``skipped``; endpoint failures ``failed``.

    A replay miss (``CacheMiss``) is not absorbed: a replayed run that does not match its recording must stop.
    """
    request = build_request(
        task, client.model or "none", temperature=temperature, max_tokens=max_tokens, extra=extra,
        templates_dir=templates_dir,
    )
    key = request_key(request)
    try:
        response = client.complete(request, task=task.name)
    except (BudgetExhausted, LLMDisabled) as err:
        return _finish(client, ResidualResult(task.name, task.kind, "skipped", key, reasons=[str(err)]))
    except ProviderError as err:
        return _finish(client, ResidualResult(task.name, task.kind, "failed", key, reasons=[str(err)]))
    answer = extract_answer(response.text)
    reasons = validate_answer(answer.code, task.validation)
    if reasons and response.finish_reason == "length":
        reasons.append(f"the answer was cut off at max_tokens={max_tokens}")
    return _finish(
        client,
        ResidualResult(
            task=task.name,
            kind=task.kind,
            status="rejected" if reasons else "accepted",
            key=key,
            code=answer.code or None,
            items=answer.items,
            rationale=answer.rationale,
            provenance=f"llm:{response.model}",
            reasons=reasons,
        ),
    )


def run_tasks(client: LLMClient, tasks: Iterable[ResidualTask], **options: Any) -> list[ResidualResult]:
    """``run_task`` over ``tasks`` in order; once the budget is spent, later tasks are skipped (cache hits still
    answer)."""
    return [run_task(client, task, **options) for task in tasks]


def _finish(client: LLMClient, result: ResidualResult) -> ResidualResult:
    client.accounting.record_outcome(result.task, result.status, "; ".join(result.reasons) or None)
    return result
