"""The per-run budget: how many model calls and tokens one run may spend, and which tasks it refused.

The budget is checked before each call to a provider and charged after it. Cache hits cost nothing and are never
refused. Tokens are only known once a call returns, so a run can overshoot ``max_tokens`` by at most the one call
that crossed the line; after that every further call is refused. A call that fails (timeout, HTTP error) still
counts against ``max_calls``: the provider may have billed it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from .errors import BudgetExhausted


@dataclass(frozen=True)
class SkippedTask:
    """A task the budget refused, and the limit that refused it."""

    task: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"task": self.task, "reason": self.reason}


@dataclass
class Budget:
    """Limits for one run; ``None`` means unlimited. Safe to share between threads."""

    max_calls: int | None = None
    max_tokens: int | None = None
    calls: int = 0
    tokens: int = 0
    skipped: list[SkippedTask] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def __post_init__(self) -> None:
        for label, limit in (("max_calls", self.max_calls), ("max_tokens", self.max_tokens)):
            if limit is not None and limit < 0:
                raise ValueError(f"budget {label} must be >= 0, got {limit}")

    def exhausted_reason(self) -> str | None:
        """Which limit is reached, as a short phrase, or None while calls are still allowed."""
        if self.max_calls is not None and self.calls >= self.max_calls:
            return f"{self.calls}/{self.max_calls} calls used"
        if self.max_tokens is not None and self.tokens >= self.max_tokens:
            return f"{self.tokens}/{self.max_tokens} tokens used"
        return None

    def reserve(self, task: str) -> None:
        """Claim one call for ``task``, or record it as skipped and raise ``BudgetExhausted``."""
        with self._lock:
            reason = self.exhausted_reason()
            if reason is not None:
                self.skipped.append(SkippedTask(task, reason))
                raise BudgetExhausted(task, reason)
            self.calls += 1

    def charge(self, tokens: int) -> None:
        """Add the tokens a finished call used."""
        with self._lock:
            self.tokens += max(0, tokens)

    def to_dict(self) -> dict[str, object]:
        return {
            "max_calls": self.max_calls,
            "max_tokens": self.max_tokens,
            "calls": self.calls,
            "tokens": self.tokens,
            "skipped": [s.to_dict() for s in self.skipped],
        }
