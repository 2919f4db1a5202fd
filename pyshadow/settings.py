"""``Settings``: everything a run is configured by — Lean, where Lean runs (backend), the result cache, the LLM —
in one frozen object, built from code, from the environment (``Settings.from_env``) or from the command line
(``Settings.from_args``). The public API (``pyshadow.score``, ``pyshadow.verify`` …) takes one; library code below
it receives the parts it needs (``Settings.lean`` → ``LeanSettings``, ``LLMSettings.client()`` → ``LLMClient``).

| field | environment | command line |
| --- | --- | --- |
| ``tier`` | ``PYSHADOW_TIER`` | ``--tier`` |
| ``jobs`` | ``PYSHADOW_JOBS`` | ``-j/--jobs`` |
| ``timeout`` | ``PYSHADOW_TIMEOUT`` (seconds) | ``--timeout`` |
| ``memory_mb`` | ``PYSHADOW_MEMORY`` (``4096``, ``512M``, ``8G``) | ``--memory-mb`` |
| ``backend`` | ``PYSHADOW_BACKEND`` | ``--backend`` |
| ``scheduler`` | ``PYSHADOW_SCHEDULER`` | ``--scheduler`` |
| ``cache`` | ``PYSHADOW_RESULT_CACHE`` | ``--cache`` |
| ``workspace`` | ``PYSHADOW_WORKSPACE`` | ``--workspace`` |
| ``lean_checked_only`` | ``PYSHADOW_LEAN_CHECKED_ONLY`` (``1``, the default, or ``0``) | ``--allow-unchecked`` (off), ``--lean-checked-only`` (on) |
| ``llm.mode`` | ``PYSHADOW_LLM`` | ``--llm`` |
| ``llm.cache`` | ``PYSHADOW_LLM_CACHE`` | ``--llm-cache`` |
| ``llm.model`` | ``PYSHADOW_LLM_MODEL`` | ``--llm-model`` |
| ``llm.base_url`` | ``PYSHADOW_LLM_BASE_URL`` | (environment only) |
| ``llm.api_key`` | ``PYSHADOW_LLM_API_KEY`` | (environment only; never printed) |
| ``llm.budget_calls`` | ``PYSHADOW_LLM_BUDGET_CALLS`` | ``--llm-budget-calls`` |
| ``llm.budget_tokens`` | ``PYSHADOW_LLM_BUDGET_TOKENS`` | ``--llm-budget-tokens`` |

``PYSHADOW_CACHE`` is not a field: it is where the kernel-tier ``lean`` is built (``pyshadow.lean.toolchain``),
read there. A value that cannot be read raises ``BadInput`` with one line naming the variable or field.
Building a ``Settings`` reads nothing but its arguments (and ``environ`` in ``from_env``); it starts no Lean and
creates no folder.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .errors import BadInput
from .lean.settings import BACKENDS, LeanSettings

TIERS = ("kernel", "full")
LLM_MODES = ("none", "replay", "record", "live")  # pyshadow.llm.client.MODES (checked equal by tests/test_api.py)

ENVIRONMENT = {
    "tier": "PYSHADOW_TIER", "jobs": "PYSHADOW_JOBS", "timeout": "PYSHADOW_TIMEOUT",
    "memory_mb": "PYSHADOW_MEMORY", "backend": "PYSHADOW_BACKEND", "scheduler": "PYSHADOW_SCHEDULER",
    "cache": "PYSHADOW_RESULT_CACHE", "workspace": "PYSHADOW_WORKSPACE",
    "lean_checked_only": "PYSHADOW_LEAN_CHECKED_ONLY",
}
LLM_ENVIRONMENT = {
    "mode": "PYSHADOW_LLM", "cache": "PYSHADOW_LLM_CACHE", "model": "PYSHADOW_LLM_MODEL",
    "base_url": "PYSHADOW_LLM_BASE_URL", "api_key": "PYSHADOW_LLM_API_KEY",
    "budget_calls": "PYSHADOW_LLM_BUDGET_CALLS", "budget_tokens": "PYSHADOW_LLM_BUDGET_TOKENS",
}


@dataclass(frozen=True)
class LLMSettings:
    """The model asked about residual cases (docs/llm.md). ``mode="none"`` (the default) asks nothing."""

    mode: str = "none"
    """none: no model; replay: recorded answers only (no network); record: ask and store; live: ask, store nothing."""
    cache: Path | None = None
    """The record/replay folder (needed by replay and record)."""
    model: str | None = None
    """The model's name (needed by every mode but none)."""
    base_url: str | None = None
    """An OpenAI-compatible endpoint, e.g. ``https://api.openai.com/v1`` (record and live)."""
    api_key: str | None = field(default=None, repr=False)
    """The endpoint's key; never printed, stored, or put in a message."""
    budget_calls: int | None = None
    """At most this many model calls in a run (cache hits are free); None: no limit."""
    budget_tokens: int | None = None
    """Stop calling once this many prompt + completion tokens are spent; None: no limit."""

    def __post_init__(self) -> None:
        if self.mode not in LLM_MODES:
            raise BadInput(f"Settings: llm.mode {self.mode!r} is not one of {', '.join(LLM_MODES)}")
        if self.cache is not None and not isinstance(self.cache, Path):
            object.__setattr__(self, "cache", Path(self.cache))
        for name in ("budget_calls", "budget_tokens"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 0):
                raise BadInput(f"Settings: llm.{name} must be a whole number >= 0, got {value!r}")

    def client(self) -> Any:
        """The ``pyshadow.llm.LLMClient`` of these settings; ``LLMConfigError`` (one line) when one is missing."""
        from .llm import Budget, ProviderConfig, make_client  # on use: a run without a model needs no LLM layer

        config = ProviderConfig(base_url=self.base_url, model=self.model, api_key=self.api_key)
        budget = Budget(max_calls=self.budget_calls, max_tokens=self.budget_tokens)
        return make_client(self.mode, self.cache, config, budget=budget)


@dataclass(frozen=True)
class Settings:
    """How a run is done: which Lean tier, how many Lean processes and where, the caches, the LLM.

    Build one from code (``Settings(jobs=2)``), the environment (``Settings.from_env()``) or parsed CLI options
    (``Settings.from_args(args)``); change a copy with ``dataclasses.replace(settings, jobs=4)``.
    """

    tier: str | None = None
    """``"kernel"`` (skeleton SA-Pass, prelude-mode Lean), ``"full"`` (Lean + Lake with Init/Mathlib), or None:
    the full tier when a full toolchain is on PATH, else the kernel tier."""
    jobs: int = -1
    """Parallel Lean processes (-1: all cores; with dask/ray: the cluster's workers)."""
    timeout: float = 120.0
    """Seconds per Lean process of the full tier (the kernel tier's batched prelude files keep their own limit)."""
    memory_mb: int = 4096
    """Resident-memory cap per Lean process of the full tier, in MB (the kernel tier's stay at 4096)."""
    backend: str = "loky"
    """Where Lean processes run: ``loky`` (local processes), ``dask`` or ``ray``."""
    scheduler: str | None = None
    """dask/ray: the scheduler or cluster address (None: a local one)."""
    cache: Path | None = None
    """Result cache folder: a rerun of an unchanged Lean file starts no Lean (None: no result cache)."""
    workspace: Path | None = None
    """Full tier: the Lake workspace Lean runs in (needed for Mathlib problems); an input, never written."""
    llm: LLMSettings = field(default_factory=LLMSettings)
    """The model for residual cases (``LLMSettings``; none by default)."""
    proofs: str | None = None
    """The submission kind: ``"required"`` (ShadowBench: ``sorry`` fails), ``"ignored"`` (statement benchmarks:
    ``sorry`` allowed and reported, the statement is judged), or None: each problem's ``proofs``, else its set's
    ``pyshadow.toml``, else ``"required"`` — as ``pyshadow score --proofs``."""
    lean_checked_only: bool = True
    """Kernel tier, strict scoring (the default): a pass of a Mathlib statement that Lean did not check against the
    statements as its elaborator reads them (it rests on the skeleton's readings alone) is *undecided* instead.
    ``False`` (``--allow-unchecked``) lets such a pass stand, marked unchecked."""

    def __post_init__(self) -> None:
        if self.tier is not None and self.tier not in TIERS:
            raise BadInput(f"Settings: tier {self.tier!r} is not one of {', '.join(TIERS)} (or None: best available)")
        if self.backend not in BACKENDS:
            raise BadInput(f"Settings: backend {self.backend!r} is not one of {', '.join(BACKENDS)}")
        if not isinstance(self.jobs, int) or self.jobs == 0 or self.jobs < -1:
            raise BadInput(f"Settings: jobs must be a whole number >= 1, or -1 for all cores; got {self.jobs!r}")
        if not isinstance(self.timeout, (int, float)) or self.timeout <= 0:
            raise BadInput(f"Settings: timeout must be a number of seconds > 0, got {self.timeout!r}")
        if not isinstance(self.memory_mb, int) or self.memory_mb <= 0:
            raise BadInput(f"Settings: memory_mb must be a whole number of MB > 0, got {self.memory_mb!r}")
        for name in ("cache", "workspace"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Path):
                object.__setattr__(self, name, Path(value))
        if not isinstance(self.llm, LLMSettings):
            raise BadInput(f"Settings: llm must be an LLMSettings, got {type(self.llm).__name__}")
        if not isinstance(self.lean_checked_only, bool):
            raise BadInput(f"Settings: lean_checked_only must be True or False, got {self.lean_checked_only!r}")

    @property
    def lean(self) -> LeanSettings:
        """The Lean part, as the internals take it (``pyshadow.lean.settings.LeanSettings``)."""
        return LeanSettings(tier=self.tier, jobs=self.jobs, cache=self.cache, timeout=float(self.timeout),
                            memory_mb=self.memory_mb, backend=self.backend, scheduler=self.scheduler,
                            workspace=self.workspace, lean_checked_only=self.lean_checked_only)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from the ``PYSHADOW_…`` variables (module docstring); unset or empty ones keep their defaults,
        and ``overrides`` that are not None win (``llm=`` an ``LLMSettings``, or the other fields by name)."""
        env = os.environ if environ is None else environ
        values = _read_env(env, ENVIRONMENT, _FIELD_PARSERS)
        llm_values = _read_env(env, LLM_ENVIRONMENT, _LLM_PARSERS)
        values.update({k: v for k, v in overrides.items() if v is not None and k != "llm"})
        llm = overrides.get("llm")
        return cls(**values, llm=llm if llm is not None else LLMSettings(**llm_values))

    @classmethod
    def from_args(cls, args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from the options ``add_lean_arguments`` and ``add_llm_arguments`` add (``pyshadow.commands.
        common``, ``pyshadow.llm``): an option that was given (or has a default) wins over the environment; the
        LLM endpoint and key come from the environment only."""
        def given(name: str) -> Any:
            return getattr(args, name, None)

        lean = {name: given(name) for name in ("tier", "jobs", "timeout", "memory_mb", "backend", "scheduler",
                                               "cache", "workspace", "proofs", "lean_checked_only")}
        base = cls.from_env(environ)
        llm = base.llm
        llm_given = {"mode": given("llm"), "cache": given("llm_cache"), "model": given("llm_model"),
                     "budget_calls": given("llm_budget_calls"), "budget_tokens": given("llm_budget_tokens")}
        llm = replace(llm, **{k: v for k, v in llm_given.items() if v is not None})
        return replace(base, llm=llm, **{k: v for k, v in lean.items() if v is not None})


def parse_memory_mb(text: str) -> int:
    """``"4096"`` → 4096 (MB), ``"512M"`` → 512, ``"8G"`` → 8192; BadInput otherwise."""
    found = re.fullmatch(r"\s*(\d+)\s*([MmGg]?)[Bb]?\s*", text)
    if found is None:
        raise BadInput(f"expected a size such as 4096, 512M or 8G, got {text!r}")
    return int(found.group(1)) * (1024 if found.group(2).lower() == "g" else 1)


def _flag(text: str) -> bool:
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise BadInput(f"expected 1 or 0, got {text!r}")


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise BadInput(f"expected a whole number, got {text!r}") from None


def _seconds(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise BadInput(f"expected a number of seconds, got {text!r}") from None


def _choice(allowed: tuple[str, ...]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in allowed:
            raise BadInput(f"expected one of {', '.join(allowed)}, got {text!r}")
        return text
    return parse


_FIELD_PARSERS: dict[str, Callable[[str], Any]] = {
    "tier": _choice(TIERS), "backend": _choice(BACKENDS), "jobs": _whole, "timeout": _seconds,
    "memory_mb": parse_memory_mb, "cache": Path, "workspace": Path, "lean_checked_only": _flag,
}
_LLM_PARSERS: dict[str, Callable[[str], Any]] = {
    "mode": _choice(LLM_MODES), "cache": Path, "budget_calls": _whole, "budget_tokens": _whole,
}


def _read_env(env: Mapping[str, str], names: Mapping[str, str], parsers: Mapping[str, Callable[[str], Any]]
              ) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, variable in names.items():
        text = env.get(variable)
        if not text:
            continue
        try:
            out[name] = parsers.get(name, str)(text)
        except BadInput as err:
            raise BadInput(f"{variable}: {err}") from None
    return out

