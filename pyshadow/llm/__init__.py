"""The LLM layer: asked only about residual cases the deterministic rules leave, always cached and replayable.

Modules, in the order a request flows through them:

- ``tasks``      the three residual tasks (shadows, certificate, adapter) and ``run_task``;
- ``prompts``    renders ``templates/prompts/*.j2`` into chat messages;
- ``client``     ``make_client(mode, cache_dir, provider_config)``: modes none | replay | record | live;
- ``cache``      record/replay files keyed by sha256 of the canonical request;
- ``provider``   ``ChatRequest``/``ChatResponse``, the ``Provider`` protocol, the OpenAI-compatible HTTP client;
- ``budget``     per-run call/token limits; ``accounting`` what a run spent, per task;
- ``answers``    extracts Lean code from an answer; ``validate`` decides whether it may go to Lean;
- ``asking``     one-JSON-object answers read strictly, asked again when unreadable (the judge, ``same_term``);
- ``same_term``  "do these two terms elaborate to the same term?" — the skeleton + LLM column's question;
- ``fakeserver`` a scripted chat server on loopback for tests; ``errors`` the exceptions.

Commands wire it in with two calls::

    add_llm_arguments(parser)        # in register()
    client = client_from_args(args)  # in the handler; print client.accounting.summary_lines() at the end
"""

from __future__ import annotations

import argparse

from .accounting import Accounting, Pricing
from .budget import Budget
from .client import MODES, LLMClient, make_client
from .errors import (
    BudgetExhausted,
    CacheMiss,
    LLMConfigError,
    LLMDisabled,
    LLMError,
    LLMTimeout,
    MalformedResponse,
    ProviderError,
)
from .provider import ChatRequest, ChatResponse, NoneProvider, OpenAIChatProvider, Provider, ProviderConfig
from .tasks import (
    ResidualResult,
    ResidualTask,
    adapter_task,
    certificate_task,
    run_task,
    run_tasks,
    shadow_task,
)

__all__ = [
    "MODES",
    "Accounting",
    "Budget",
    "BudgetExhausted",
    "CacheMiss",
    "ChatRequest",
    "ChatResponse",
    "LLMClient",
    "LLMConfigError",
    "LLMDisabled",
    "LLMError",
    "LLMTimeout",
    "MalformedResponse",
    "NoneProvider",
    "OpenAIChatProvider",
    "Pricing",
    "Provider",
    "ProviderConfig",
    "ProviderError",
    "ResidualResult",
    "ResidualTask",
    "adapter_task",
    "add_llm_arguments",
    "certificate_task",
    "client_from_args",
    "make_client",
    "run_task",
    "run_tasks",
    "shadow_task",
]


def add_llm_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--llm``, ``--llm-cache``, ``--llm-model``, ``--llm-budget-calls``, ``--llm-budget-tokens``."""
    group = parser.add_argument_group(
        "LLM for residual cases",
        "endpoint and key come from PYSHADOW_LLM_BASE_URL and PYSHADOW_LLM_API_KEY (see docs/llm.md)",
    )
    group.add_argument(
        "--llm", choices=MODES, default="none",
        help="none: no model (default); replay: recorded answers only, no network; "
        "record: call the model for unrecorded requests and store them; live: call, store nothing",
    )
    group.add_argument("--llm-cache", metavar="DIR", help="record/replay directory (needed by replay and record)")
    group.add_argument("--llm-model", metavar="MODEL", help="model name (default: $PYSHADOW_LLM_MODEL)")
    group.add_argument(
        "--llm-budget-calls", metavar="N", type=_non_negative_int,
        help="at most N model calls this run (cache hits are free); later tasks are skipped",
    )
    group.add_argument(
        "--llm-budget-tokens", metavar="N", type=_non_negative_int,
        help="stop calling once N prompt+completion tokens are spent (may overshoot by one call)",
    )


def client_from_args(args: argparse.Namespace) -> LLMClient:
    """The client for the options ``add_llm_arguments`` added; ``LLMConfigError`` says what is missing."""
    config = ProviderConfig.from_env(model=getattr(args, "llm_model", None))
    budget = Budget(
        max_calls=getattr(args, "llm_budget_calls", None),
        max_tokens=getattr(args, "llm_budget_tokens", None),
    )
    return make_client(getattr(args, "llm", "none"), getattr(args, "llm_cache", None), config, budget=budget)


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value
