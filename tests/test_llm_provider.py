"""The OpenAI-compatible provider against a real HTTP server on loopback (``pyshadow.llm.fakeserver``)."""

from __future__ import annotations

import socket
import time
from datetime import datetime, timezone

import pytest

from pyshadow.errors import BadInput, PyshadowError
from pyshadow.llm import (
    ChatRequest,
    LLMConfigError,
    LLMDisabled,
    LLMTimeout,
    MalformedResponse,
    NoneProvider,
    OpenAIChatProvider,
    Provider,
    ProviderConfig,
    ProviderError,
)
from pyshadow.llm.fakeserver import FakeChatServer, Reply
from pyshadow.llm.provider import backoff_delay, retry_after_seconds


def fast_config(base_url: str, **overrides: object) -> ProviderConfig:
    """Tiny timeouts and backoff so that every test finishes in well under a second."""
    values: dict[str, object] = {
        "base_url": base_url,
        "model": "test-model",
        "api_key": "sk-test-secret",
        "connect_timeout": 1.0,
        "read_timeout": 2.0,
        "max_attempts": 3,
        "backoff_base": 0.001,
        "backoff_max": 5.0,
    }
    values.update(overrides)
    return ProviderConfig(**values)  # type: ignore[arg-type]


def closed_port_url() -> str:
    """A loopback URL nobody listens on: connections are refused at once."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}/v1"


def request(text: str = "hello") -> ChatRequest:
    return ChatRequest(model="test-model", messages=[{"role": "user", "content": text}], max_tokens=64)


class Sleeps:
    """Records the waits the provider asks for instead of sleeping."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def test_success_sends_chat_completion_and_parses_answer() -> None:
    with FakeChatServer([Reply.text("the answer", model="served-model", prompt_tokens=7, completion_tokens=3)]) as srv:
        provider = OpenAIChatProvider(fast_config(srv.base_url))
        response = provider.complete(
            ChatRequest(model="test-model", messages=[{"role": "user", "content": "hi ∀"}], extra={"seed": 1})
        )
    assert response.text == "the answer"
    assert (response.prompt_tokens, response.completion_tokens, response.total_tokens) == (7, 3, 10)
    assert response.model == "served-model"
    assert response.finish_reason == "stop"
    [seen] = srv.requests
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == "Bearer sk-test-secret"
    assert seen.body == {
        "model": "test-model",
        "messages": [{"role": "user", "content": "hi ∀"}],
        "temperature": 0.0,
        "max_tokens": 4096,
        "seed": 1,
    }


def test_no_authorization_header_without_key() -> None:
    with FakeChatServer([Reply.text("ok")]) as srv:
        OpenAIChatProvider(fast_config(srv.base_url, api_key=None)).complete(request())
    assert "authorization" not in srv.requests[0].headers


def test_429_then_success_honours_retry_after() -> None:
    sleeps = Sleeps()
    script = [Reply.error(429, "rate limited", {"Retry-After": "2"}), Reply.text("after the wait")]
    with FakeChatServer(script) as srv:
        response = OpenAIChatProvider(fast_config(srv.base_url), sleep=sleeps).complete(request())
    assert response.text == "after the wait"
    assert len(srv.requests) == 2
    assert sleeps.calls == [2.0]


def test_5xx_is_retried_with_exponential_backoff() -> None:
    sleeps = Sleeps()
    script = [Reply.error(503, "busy"), Reply.error(500, "oops"), Reply.text("finally")]
    with FakeChatServer(script) as srv:
        config = fast_config(srv.base_url, backoff_base=0.5, max_attempts=3)
        response = OpenAIChatProvider(config, sleep=sleeps).complete(request())
    assert response.text == "finally"
    assert sleeps.calls == [0.5, 1.0]


def test_retries_are_bounded_and_the_error_says_why() -> None:
    with FakeChatServer([Reply.error(503, "overloaded")] * 5) as srv:
        with pytest.raises(ProviderError, match=r"gave up after 3 attempts: HTTP 503 .*overloaded"):
            OpenAIChatProvider(fast_config(srv.base_url)).complete(request())
    assert len(srv.requests) == 3


def test_retry_after_longer_than_backoff_max_fails_at_once() -> None:
    with FakeChatServer([Reply.error(429, "later", {"Retry-After": "3600"})]) as srv:
        with pytest.raises(ProviderError, match=r"asks to wait 3600s") as info:
            OpenAIChatProvider(fast_config(srv.base_url)).complete(request())
    assert info.value.status == 429
    assert len(srv.requests) == 1


def test_client_errors_are_not_retried_and_401_hints_at_the_key() -> None:
    with FakeChatServer([Reply.error(401, "invalid api key")]) as srv:
        with pytest.raises(ProviderError, match=r"HTTP 401 .*PYSHADOW_LLM_API_KEY.*invalid api key") as info:
            OpenAIChatProvider(fast_config(srv.base_url)).complete(request())
    assert len(srv.requests) == 1
    assert "sk-test-secret" not in str(info.value)


def test_read_timeout_fails_fast_without_retry() -> None:
    with FakeChatServer([Reply.slow(3.0), Reply.text("never asked")]) as srv:
        provider = OpenAIChatProvider(fast_config(srv.base_url, read_timeout=0.2))
        started = time.monotonic()
        with pytest.raises(LLMTimeout, match=r"within the 0.2s read timeout"):
            provider.complete(request())
        assert time.monotonic() - started < 2.0
    assert len(srv.requests) == 1


def test_read_timeout_can_be_retried_when_asked() -> None:
    with FakeChatServer([Reply.slow(3.0), Reply.text("second try")]) as srv:
        config = fast_config(srv.base_url, read_timeout=0.2, retry_read_timeouts=True)
        assert OpenAIChatProvider(config).complete(request()).text == "second try"
    assert len(srv.requests) == 2


def test_connection_refused_is_retried_then_reported() -> None:
    sleeps = Sleeps()
    url = closed_port_url()
    with pytest.raises(ProviderError, match=r"gave up after 3 attempts: cannot reach .*connection refused"):
        OpenAIChatProvider(fast_config(url), sleep=sleeps).complete(request())
    assert len(sleeps.calls) == 2


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("this is not json", "not JSON"),
        ('["a list"]', "not an object"),
        ('{"id": "x", "object": "chat.completion"}', "no choices"),
        ('{"choices": []}', "no choices"),
        ('{"choices": [{"message": {"role": "assistant", "content": null}}]}', "no message text"),
    ],
)
def test_malformed_answers_are_reported_not_retried(body: str, message: str) -> None:
    with FakeChatServer([Reply.raw(body), Reply.text("unused")]) as srv:
        with pytest.raises(MalformedResponse, match=message):
            OpenAIChatProvider(fast_config(srv.base_url)).complete(request())
    assert len(srv.requests) == 1


def test_missing_usage_counts_zero_tokens_and_model_falls_back_to_the_request() -> None:
    body = '{"choices": [{"message": {"role": "assistant", "content": "x"}}]}'
    with FakeChatServer([Reply.raw(body)]) as srv:
        response = OpenAIChatProvider(fast_config(srv.base_url)).complete(request())
    assert (response.prompt_tokens, response.completion_tokens, response.model) == (0, 0, "test-model")


def test_none_provider_answers_nothing() -> None:
    provider = NoneProvider()
    assert isinstance(provider, Provider)
    with pytest.raises(LLMDisabled, match=r"--llm none.*--llm replay, record or live"):
        provider.complete(request())


def test_config_from_env_and_overrides() -> None:
    env = {
        "PYSHADOW_LLM_BASE_URL": "https://llm.example/v1/",
        "PYSHADOW_LLM_MODEL": "env-model",
        "PYSHADOW_LLM_API_KEY": "sk-env",
    }
    config = ProviderConfig.from_env(env, model="cli-model", read_timeout=None)
    assert config.endpoint() == "https://llm.example/v1/chat/completions"
    assert config.model == "cli-model"
    assert config.read_timeout == 300.0
    assert "sk-env" not in repr(config)


def test_config_errors_are_one_line_bad_input() -> None:
    with pytest.raises(LLMConfigError, match="PYSHADOW_LLM_BASE_URL") as info:
        OpenAIChatProvider(ProviderConfig(model="m"))
    assert isinstance(info.value, BadInput) and isinstance(info.value, PyshadowError)
    with pytest.raises(LLMConfigError, match="http:// or https://"):
        OpenAIChatProvider(ProviderConfig(base_url="localhost:8000/v1", model="m"))
    with pytest.raises(LLMConfigError, match="--llm-model"):
        OpenAIChatProvider(ProviderConfig(base_url="http://127.0.0.1:1/v1"))


def test_chat_request_rejects_extra_that_shadows_a_field() -> None:
    with pytest.raises(ValueError, match="temperature"):
        ChatRequest(model="m", messages=[], extra={"temperature": 1.0})


def test_backoff_and_retry_after_parsing() -> None:
    assert [backoff_delay(i, 1.0, 10.0) for i in range(5)] == [1.0, 2.0, 4.0, 8.0, 10.0]
    assert retry_after_seconds(None) is None
    assert retry_after_seconds("  ") is None
    assert retry_after_seconds("7") == 7.0
    assert retry_after_seconds("-3") == 0.0
    assert retry_after_seconds("soon") is None
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)
    assert retry_after_seconds("Thu, 01 Jan 2026 12:00:30 GMT", now=now) == 30.0
