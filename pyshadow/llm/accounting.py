"""What the LLM layer spent in one run: calls, tokens, cache hits, and the cost and outcome of each residual task.

A *call* is a request that went to a provider (and may have been billed). A *cache hit* was answered from the
record/replay cache and cost nothing; its tokens are counted as ``replayed_tokens``, i.e. what replay saved.
Money is only estimated when a ``Pricing`` is given (prices differ per provider and change; tokens do not lie).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from .budget import Budget
from .provider import ChatResponse

OUTCOMES = ("accepted", "rejected", "skipped", "failed")
SUMMARY_TASK_LINES = 10  # most expensive tasks listed in summary_lines()


@dataclass(frozen=True)
class Pricing:
    """Price in currency units (e.g. USD) per million prompt / completion tokens."""

    prompt_per_million: float
    completion_per_million: float

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.prompt_per_million + completion_tokens * self.completion_per_million) / 1e6


@dataclass
class TaskUsage:
    """Spend and outcome of one residual task."""

    task: str
    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    replayed_tokens: int = 0
    outcome: str | None = None
    reason: str | None = None

    def to_dict(self, pricing: Pricing | None = None) -> dict[str, Any]:
        return {
            "task": self.task,
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "replayed_tokens": self.replayed_tokens,
            "estimated_cost": _round(pricing.cost(self.prompt_tokens, self.completion_tokens)) if pricing else None,
            "outcome": self.outcome,
            "reason": self.reason,
        }


@dataclass
class Accounting:
    """Counters for one run, per task. Safe to update from several threads."""

    mode: str = "none"
    model: str | None = None
    budget: Budget | None = None
    pricing: Pricing | None = None
    tasks: dict[str, TaskUsage] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def _task(self, task: str) -> TaskUsage:
        usage = self.tasks.get(task)
        if usage is None:
            usage = self.tasks[task] = TaskUsage(task)
        return usage

    def record_call(self, task: str, response: ChatResponse) -> None:
        """A provider answered ``task``."""
        with self._lock:
            usage = self._task(task)
            usage.calls += 1
            usage.prompt_tokens += response.prompt_tokens
            usage.completion_tokens += response.completion_tokens

    def record_failed_call(self, task: str) -> None:
        """A provider was asked for ``task`` but gave no answer (it may still have billed the attempt)."""
        with self._lock:
            self._task(task).calls += 1

    def record_hit(self, task: str, response: ChatResponse) -> None:
        """The cache answered ``task``."""
        with self._lock:
            usage = self._task(task)
            usage.cache_hits += 1
            usage.replayed_tokens += response.total_tokens

    def record_outcome(self, task: str, outcome: str, reason: str | None = None) -> None:
        """How ``task`` ended: one of ``OUTCOMES``; ``reason`` for anything but accepted."""
        if outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}; expected one of {', '.join(OUTCOMES)}")
        with self._lock:
            usage = self._task(task)
            usage.outcome = outcome
            usage.reason = reason

    # Totals ----------------------------------------------------------------------------------------------------

    @property
    def calls(self) -> int:
        return sum(u.calls for u in self.tasks.values())

    @property
    def cache_hits(self) -> int:
        return sum(u.cache_hits for u in self.tasks.values())

    @property
    def prompt_tokens(self) -> int:
        return sum(u.prompt_tokens for u in self.tasks.values())

    @property
    def completion_tokens(self) -> int:
        return sum(u.completion_tokens for u in self.tasks.values())

    @property
    def replayed_tokens(self) -> int:
        return sum(u.replayed_tokens for u in self.tasks.values())

    def outcome_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(OUTCOMES, 0)
        for usage in self.tasks.values():
            if usage.outcome is not None:
                counts[usage.outcome] += 1
        return counts

    def estimated_cost(self) -> float | None:
        return _round(self.pricing.cost(self.prompt_tokens, self.completion_tokens)) if self.pricing else None

    # Reports ---------------------------------------------------------------------------------------------------

    def summary_lines(self) -> list[str]:
        """A few lines for the run summary: totals, outcomes, what the budget skipped, the costliest tasks."""
        lines = [
            f"llm: mode {self.mode}, model {self.model or '-'}: {self.calls} calls, "
            f"{self.prompt_tokens} prompt + {self.completion_tokens} completion tokens, "
            f"{self.cache_hits} cache hits ({self.replayed_tokens} tokens replayed)"
            + (f", estimated cost {self.estimated_cost():.4f}" if self.pricing else "")
        ]
        counts = self.outcome_counts()
        if any(counts.values()):
            lines.append("llm: residual tasks " + ", ".join(f"{n} {name}" for name, n in counts.items()))
        if self.budget is not None and self.budget.skipped:
            names = ", ".join(s.task for s in self.budget.skipped)
            lines.append(
                f"llm: budget exhausted ({self.budget.skipped[0].reason}); "
                f"skipped {len(self.budget.skipped)} tasks: {names}"
            )
        spenders = sorted(
            (u for u in self.tasks.values() if u.calls),
            key=lambda u: (-(u.prompt_tokens + u.completion_tokens), u.task),
        )
        for usage in spenders[:SUMMARY_TASK_LINES]:
            lines.append(
                f"llm:   {usage.task}: {usage.calls} calls, {usage.prompt_tokens}+{usage.completion_tokens} tokens"
                + (f", {usage.outcome}" if usage.outcome else "")
            )
        if len(spenders) > SUMMARY_TASK_LINES:
            lines.append(f"llm:   … and {len(spenders) - SUMMARY_TASK_LINES} more tasks with calls")
        return lines

    def to_dict(self) -> dict[str, Any]:
        """Everything, JSON-ready, tasks sorted by name."""
        return {
            "mode": self.mode,
            "model": self.model,
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "replayed_tokens": self.replayed_tokens,
            "estimated_cost": self.estimated_cost(),
            "outcomes": self.outcome_counts(),
            "budget": self.budget.to_dict() if self.budget is not None else None,
            "tasks": [self.tasks[name].to_dict(self.pricing) for name in sorted(self.tasks)],
        }


def _round(value: float) -> float:
    return round(value, 6)
