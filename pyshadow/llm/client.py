"""The client residual tasks talk to: one provider, the record/replay cache, the budget, and the accounting.

Modes (``--llm``):

========  ==================================  ====================================================
mode      cache                               network
========  ==================================  ====================================================
none      —                                   never; every request raises ``LLMDisabled``
replay    read only; a miss is ``CacheMiss``  never (the provider is a ``NoneProvider``)
record    read, then write what was missing   only for requests not yet recorded
live      —                                   every request
========  ==================================  ====================================================

``record`` answers from an existing entry when there is one, so an interrupted recording resumes without paying
twice; delete a file to record that exchange again.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from .accounting import Accounting, Pricing
from .budget import Budget
from .cache import ResponseCache, request_key
from .errors import CacheMiss, LLMConfigError, ProviderError
from .provider import ChatRequest, ChatResponse, NoneProvider, OpenAIChatProvider, Provider, ProviderConfig

MODES = ("none", "replay", "record", "live")
# Where an answer came from (``LLMClient.complete_traced``).
PROVENANCES = ("replayed", "recorded", "model")


@dataclass
class LLMClient:
    """Answers ``ChatRequest``s according to ``mode``; see the module docstring."""

    mode: str
    model: str | None
    provider: Provider
    cache: ResponseCache | None
    budget: Budget
    accounting: Accounting

    def complete(self, request: ChatRequest, *, task: str) -> ChatResponse:
        """The answer to ``request`` for residual task ``task`` (a stable name used in messages and file names).

        Raises ``CacheMiss`` (replay), ``LLMDisabled`` (none), ``BudgetExhausted`` (before a call the budget
        cannot pay for; the task is recorded as skipped) and ``ProviderError`` (the endpoint failed).
        """
        return self.complete_traced(request, task=task)[0]

    def complete_traced(self, request: ChatRequest, *, task: str) -> tuple[ChatResponse, str]:
        """``complete``, and where the answer came from (``PROVENANCES``): ``replayed`` (read from the cache, in
        replay or record mode), ``recorded`` (a model call stored in the cache) or ``model`` (a live call, not
        stored). Raises what ``complete`` raises."""
        if self.mode in ("replay", "record"):
            assert self.cache is not None
            entry = self.cache.lookup(request)
            if entry is not None:
                self.accounting.record_hit(task, entry.response)
                return entry.response, "replayed"
            if self.mode == "replay":
                raise CacheMiss(task, request_key(request), str(self.cache.directory))
        if self.mode == "none":
            return self.provider.complete(request), "model"  # raises LLMDisabled
        self.budget.reserve(task)
        try:
            response = self.provider.complete(request)
        except ProviderError:
            self.accounting.record_failed_call(task)
            raise
        self.budget.charge(response.total_tokens)
        self.accounting.record_call(task, response)
        if self.mode == "record":
            assert self.cache is not None
            return self.cache.store(task, request, response).response, "recorded"
        return _round_trip(response), "model"


def make_client(
    mode: str,
    cache_dir: str | os.PathLike[str] | None = None,
    provider_config: ProviderConfig | None = None,
    *,
    budget: Budget | None = None,
    provider: Provider | None = None,
    pricing: Pricing | None = None,
) -> LLMClient:
    """Build the client for ``mode``; raises ``LLMConfigError`` (one line) when a needed setting is missing.

    ``provider_config`` defaults to the environment (``ProviderConfig.from_env()``). ``provider`` replaces the HTTP
    provider in ``record``/``live`` (another backend, or a test double); ``replay`` and ``none`` never use one.
    """
    if mode not in MODES:
        raise LLMConfigError(f"unknown LLM mode {mode!r}; expected one of {', '.join(MODES)}")
    config = provider_config if provider_config is not None else ProviderConfig.from_env()
    if mode in ("replay", "record") and cache_dir is None:
        raise LLMConfigError(f"--llm {mode} needs a cache directory: pass --llm-cache DIR")
    if mode in ("replay", "record", "live"):
        config.require_model()
    if mode in ("record", "live"):
        chosen: Provider = provider if provider is not None else OpenAIChatProvider(config)
    elif mode == "replay":
        chosen = NoneProvider("replay never calls a model")
    else:
        chosen = NoneProvider()
    budget = budget if budget is not None else Budget()
    return LLMClient(
        mode=mode,
        model=config.model,
        provider=chosen,
        cache=ResponseCache(cache_dir) if cache_dir is not None and mode in ("replay", "record") else None,
        budget=budget,
        accounting=Accounting(mode=mode, model=config.model, budget=budget, pricing=pricing),
    )


def _round_trip(response: ChatResponse) -> ChatResponse:
    """The response as it would read back from the cache, so live and replayed runs see identical values."""
    return ChatResponse.from_dict(json.loads(json.dumps(response.to_dict(), ensure_ascii=False)))
