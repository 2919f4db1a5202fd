"""Errors of the LLM layer, each with a one-line message that says what failed and what to do.

All derive from ``pyshadow.errors.PyshadowError`` so the CLI prints them as one line with the right exit code:
configuration mistakes and replay misses are the user's input (exit 2), everything else is exit 1.
"""

from __future__ import annotations

from ..errors import BadInput, PyshadowError


class LLMError(PyshadowError):
    """Base of every error raised by ``pyshadow.llm``."""


class LLMConfigError(LLMError, BadInput):
    """The LLM settings are incomplete or inconsistent (no endpoint, no model, no cache directory …)."""


class LLMDisabled(LLMError):
    """A residual task needed a model but the run was started with ``--llm none``."""


class BudgetExhausted(LLMError):
    """The per-run call or token budget is spent; ``task`` is the task that was refused, ``reason`` says which limit."""

    def __init__(self, task: str, reason: str) -> None:
        super().__init__(f"LLM budget exhausted ({reason}): task {task!r} skipped")
        self.task = task
        self.reason = reason


class CacheMiss(LLMError, BadInput):
    """``--llm replay`` found no recorded answer for a request; replay never falls back to the network."""

    def __init__(self, task: str, key: str, directory: str) -> None:
        super().__init__(
            f"no recorded LLM answer for task {task!r} (key {key[:12]}) in {directory}; "
            "record it first with --llm record"
        )
        self.task = task
        self.key = key
        self.directory = directory


class CacheCorrupt(LLMError, BadInput):
    """A cache file exists but cannot be read back as a recorded entry."""


class ProviderError(LLMError):
    """The model endpoint failed: HTTP error, refused connection, or retries used up. ``status`` is the HTTP code."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class LLMTimeout(ProviderError):
    """The endpoint accepted the request but sent no answer within the read timeout."""


class MalformedResponse(ProviderError):
    """The endpoint answered 2xx with something that is not a chat completion (not JSON, no choices, no text)."""
