"""Talking to a model: the request/response vocabulary, the ``Provider`` protocol, and two providers.

- ``OpenAIChatProvider`` posts to any OpenAI-compatible ``/chat/completions`` endpoint (OpenAI, OpenRouter, vLLM,
  llama.cpp, …) over plain HTTP with ``requests``: connect/read timeouts, retries with exponential backoff on 429,
  5xx and connection errors, honouring ``Retry-After``.
- ``NoneProvider`` answers nothing: it raises ``LLMDisabled``. It stands in wherever the network must not be used.

Configuration comes from ``ProviderConfig`` — explicit values, or the environment (``PYSHADOW_LLM_BASE_URL``,
``PYSHADOW_LLM_MODEL``, ``PYSHADOW_LLM_API_KEY``). The API key is never printed, stored, or put in an error message.
"""

from __future__ import annotations

import email.utils
import json
import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Protocol, runtime_checkable

import requests

from .budget import Budget, SkippedTask
from .errors import BudgetExhausted, LLMConfigError, LLMDisabled, LLMTimeout, MalformedResponse, ProviderError

__all__ = [
    "Budget",
    "BudgetExhausted",
    "ChatRequest",
    "ChatResponse",
    "NoneProvider",
    "OpenAIChatProvider",
    "Provider",
    "ProviderConfig",
    "SkippedTask",
]

ENV_BASE_URL = "PYSHADOW_LLM_BASE_URL"
ENV_MODEL = "PYSHADOW_LLM_MODEL"
ENV_API_KEY = "PYSHADOW_LLM_API_KEY"

DEFAULT_MAX_TOKENS = 4096
_REQUEST_KEYS = frozenset({"model", "messages", "temperature", "max_tokens"})
_RETRY_STATUS_MIN = 500  # every 5xx is retried, and 429
_ERROR_SNIPPET = 200  # characters of an error body quoted in a message


@dataclass(frozen=True)
class ChatRequest:
    """One chat-completion request. ``extra`` holds further API parameters (``top_p``, ``seed``, …) verbatim."""

    model: str
    messages: list[dict[str, str]]
    temperature: float = 0.0
    max_tokens: int = DEFAULT_MAX_TOKENS
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        clash = _REQUEST_KEYS & set(self.extra)
        if clash:
            raise ValueError(f"ChatRequest.extra must not repeat {sorted(clash)}; set them as fields")

    def parameters(self) -> dict[str, Any]:
        """Everything that determines the answer: what the cache key is computed from."""
        return {
            "model": self.model,
            "messages": [dict(m) for m in self.messages],
            "temperature": float(self.temperature),
            "max_tokens": int(self.max_tokens),
            "extra": dict(self.extra),
        }

    def payload(self) -> dict[str, Any]:
        """The JSON body sent to ``/chat/completions``."""
        body = {k: v for k, v in self.parameters().items() if k != "extra"}
        body.update(self.extra)
        return body

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChatRequest:
        return cls(
            model=data["model"],
            messages=[dict(m) for m in data["messages"]],
            temperature=data.get("temperature", 0.0),
            max_tokens=data.get("max_tokens", DEFAULT_MAX_TOKENS),
            extra=dict(data.get("extra", {})),
        )


@dataclass(frozen=True)
class ChatResponse:
    """The answer text, its token usage (0 when the server did not report it), the serving model, the raw JSON."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    model: str
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def finish_reason(self) -> str | None:
        """``stop``, ``length`` (cut off by max_tokens), … as reported in the first choice, if at all."""
        choices = self.raw.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            reason = choices[0].get("finish_reason")
            return reason if isinstance(reason, str) else None
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "model": self.model,
            "raw": self.raw,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChatResponse:
        return cls(
            text=data["text"],
            prompt_tokens=int(data["prompt_tokens"]),
            completion_tokens=int(data["completion_tokens"]),
            model=data["model"],
            raw=dict(data.get("raw", {})),
        )


@runtime_checkable
class Provider(Protocol):
    """Anything that turns a ``ChatRequest`` into a ``ChatResponse``; ``name`` appears in run summaries."""

    name: str

    def complete(self, request: ChatRequest) -> ChatResponse: ...


# ---------------------------------------------------------------------------------------------------------------
# Configuration


@dataclass(frozen=True)
class ProviderConfig:
    """Where the model is and how patiently to talk to it. Times are seconds."""

    base_url: str | None = None
    model: str | None = None
    api_key: str | None = field(default=None, repr=False)
    connect_timeout: float = 10.0
    read_timeout: float = 300.0
    max_attempts: int = 5
    backoff_base: float = 1.0
    backoff_max: float = 60.0
    retry_read_timeouts: bool = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ProviderConfig:
        """Read the ``PYSHADOW_LLM_*`` variables; explicit ``overrides`` that are not None win."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {
            "base_url": env.get(ENV_BASE_URL) or None,
            "model": env.get(ENV_MODEL) or None,
            "api_key": env.get(ENV_API_KEY) or None,
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def endpoint(self) -> str:
        """The full ``…/chat/completions`` URL; raises ``LLMConfigError`` when no base URL is set."""
        if not self.base_url:
            raise LLMConfigError(f"no LLM endpoint: set {ENV_BASE_URL} (e.g. https://api.openai.com/v1)")
        if not self.base_url.startswith(("http://", "https://")):
            raise LLMConfigError(f"LLM base URL must start with http:// or https://, got {self.base_url!r}")
        return self.base_url.rstrip("/") + "/chat/completions"

    def require_model(self) -> str:
        if not self.model:
            raise LLMConfigError(f"no LLM model: pass --llm-model or set {ENV_MODEL}")
        return self.model


# ---------------------------------------------------------------------------------------------------------------
# Providers


class NoneProvider:
    """The provider of ``--llm none`` and of replay: every call raises ``LLMDisabled`` with ``reason``."""

    name = "none"

    def __init__(self, reason: str = "the LLM is disabled (--llm none)") -> None:
        self.reason = reason

    def complete(self, request: ChatRequest) -> ChatResponse:
        raise LLMDisabled(f"{self.reason}; rerun with --llm replay, record or live to let a model answer")


class OpenAIChatProvider:
    """An OpenAI-compatible chat-completions client over plain HTTP.

    ``sleep`` is how the provider waits between attempts (injectable so tests need not wait); ``session`` lets a
    caller share a ``requests.Session``. No connection is opened before the first ``complete``.
    """

    name = "openai-compatible"

    def __init__(
        self,
        config: ProviderConfig,
        *,
        session: requests.Session | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config
        self.url = config.endpoint()
        config.require_model()
        if config.max_attempts < 1:
            raise LLMConfigError(f"max_attempts must be >= 1, got {config.max_attempts}")
        self._session = session
        self._sleep = sleep

    def complete(self, request: ChatRequest) -> ChatResponse:
        """Send ``request``; retry what is worth retrying; return the parsed answer or raise ``ProviderError``.

        Retried: HTTP 429 and 5xx (waiting what ``Retry-After`` asks, else ``backoff_base · 2^i``), refused or
        dropped connections, and read timeouts only if ``retry_read_timeouts`` (a timed-out request may already
        have been billed, and a slow generation is likely to time out again). Anything else fails at once.
        """
        cfg = self.config
        problem = ""
        wait = 0.0
        for attempt in range(cfg.max_attempts):
            if attempt:
                self._sleep(wait)
            wait = backoff_delay(attempt, cfg.backoff_base, cfg.backoff_max)
            try:
                http = self._post(request)
            except requests.exceptions.ReadTimeout as err:
                problem = f"no answer from {self.url} within the {cfg.read_timeout:g}s read timeout"
                if not cfg.retry_read_timeouts:
                    raise LLMTimeout(problem) from err
                continue
            except (requests.exceptions.ConnectionError, requests.exceptions.ChunkedEncodingError) as err:
                problem = f"cannot reach {self.url} ({_short_reason(err)})"
                continue
            except (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
                    requests.exceptions.InvalidSchema) as err:
                raise LLMConfigError(f"invalid LLM base URL {self.config.base_url!r}: {err}") from err
            except requests.exceptions.RequestException as err:
                raise ProviderError(f"request to {self.url} failed: {type(err).__name__}: {err}") from err
            if 200 <= http.status_code < 300:
                return parse_chat_response(http.content, request.model)
            problem = _http_problem(http)
            if not _is_retryable(http.status_code):
                raise ProviderError(problem, status=http.status_code)
            asked = retry_after_seconds(http.headers.get("Retry-After"))
            if asked is not None:
                if asked > cfg.backoff_max:
                    raise ProviderError(
                        f"{problem}; the server asks to wait {asked:g}s (Retry-After), "
                        f"longer than backoff_max={cfg.backoff_max:g}s",
                        status=http.status_code,
                    )
                wait = asked
        raise ProviderError(f"gave up after {cfg.max_attempts} attempts: {problem}")

    def _post(self, request: ChatRequest) -> requests.Response:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        body = json.dumps(request.payload(), ensure_ascii=False).encode("utf-8")
        if self._session is None:
            self._session = requests.Session()
        return self._session.post(
            self.url,
            data=body,
            headers=headers,
            timeout=(self.config.connect_timeout, self.config.read_timeout),
        )


# ---------------------------------------------------------------------------------------------------------------
# Pure helpers


def backoff_delay(retry_index: int, base: float, maximum: float) -> float:
    """Seconds to wait before retry number ``retry_index`` (0-based): ``base · 2^i``, capped at ``maximum``."""
    return min(maximum, base * (2.0**retry_index))


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Parse a ``Retry-After`` header (delay in seconds or an HTTP date) into seconds ≥ 0; None if absent/unreadable."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        seconds = (when - (now or datetime.now(timezone.utc))).total_seconds()
    if math.isnan(seconds) or math.isinf(seconds):
        return None
    return max(0.0, seconds)


def parse_chat_response(body: bytes, requested_model: str) -> ChatResponse:
    """Turn a chat-completions JSON body into a ``ChatResponse``; raise ``MalformedResponse`` if it is not one."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise MalformedResponse(f"the LLM answer is not JSON: {_snippet(body)!r}") from None
    if not isinstance(data, dict):
        raise MalformedResponse(f"the LLM answer is JSON but not an object: {_snippet(body)!r}")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        raise MalformedResponse(f"the LLM answer has no choices: {_snippet(body)!r}")
    first = choices[0]
    message = first.get("message") if isinstance(first, dict) else None
    text = message.get("content") if isinstance(message, dict) else None
    if not isinstance(text, str):
        raise MalformedResponse(f"the LLM answer's first choice has no message text: {_snippet(body)!r}")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    model = data.get("model") if isinstance(data.get("model"), str) and data.get("model") else requested_model
    return ChatResponse(
        text=text,
        prompt_tokens=_as_count(usage.get("prompt_tokens")),
        completion_tokens=_as_count(usage.get("completion_tokens")),
        model=model,
        raw=data,
    )


def _as_count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _is_retryable(status: int) -> bool:
    return status == 429 or status >= _RETRY_STATUS_MIN


def _http_problem(http: requests.Response) -> str:
    """``HTTP 503 from URL: <server's message>`` — the server's own error message when it sent one."""
    detail = _snippet(http.content)
    try:
        data = json.loads(http.content.decode("utf-8"))
        err = data.get("error") if isinstance(data, dict) else None
        if isinstance(err, dict) and isinstance(err.get("message"), str):
            detail = err["message"][:_ERROR_SNIPPET]
        elif isinstance(err, str):
            detail = err[:_ERROR_SNIPPET]
    except (UnicodeDecodeError, json.JSONDecodeError):
        pass
    hint = " (check PYSHADOW_LLM_API_KEY)" if http.status_code in (401, 403) else ""
    return f"HTTP {http.status_code} from {http.url}{hint}: {detail}" if detail else f"HTTP {http.status_code}{hint}"


def _snippet(body: bytes) -> str:
    text = body.decode("utf-8", errors="replace").strip().replace("\n", " ")
    return text if len(text) <= _ERROR_SNIPPET else text[:_ERROR_SNIPPET] + "…"


def _short_reason(err: Exception) -> str:
    """The innermost, most specific part of a requests/urllib3 connection error, on one line."""
    text = str(err)
    for marker in ("Connection refused", "Name or service not known", "timed out", "Connection reset"):
        if marker in text:
            return marker.lower()
    return type(err).__name__
