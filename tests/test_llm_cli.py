"""The two hooks commands use: ``add_llm_arguments(parser)`` and ``client_from_args(args)``."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from pyshadow.llm import LLMConfigError, NoneProvider, OpenAIChatProvider, add_llm_arguments, client_from_args


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="pyshadow shadows")
    add_llm_arguments(parser)
    return parser.parse_args(argv)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PYSHADOW_LLM_BASE_URL", "PYSHADOW_LLM_MODEL", "PYSHADOW_LLM_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_defaults_mean_no_model_and_no_network() -> None:
    args = parse([])
    assert (args.llm, args.llm_cache, args.llm_model, args.llm_budget_calls, args.llm_budget_tokens) == (
        "none", None, None, None, None
    )
    client = client_from_args(args)
    assert client.mode == "none" and isinstance(client.provider, NoneProvider) and client.cache is None


def test_replay_uses_cache_model_and_budget(tmp_path: Path) -> None:
    args = parse(["--llm", "replay", "--llm-cache", str(tmp_path), "--llm-model", "m1",
                  "--llm-budget-calls", "3", "--llm-budget-tokens", "5000"])
    client = client_from_args(args)
    assert client.mode == "replay" and client.model == "m1"
    assert client.cache is not None and client.cache.directory == tmp_path
    assert (client.budget.max_calls, client.budget.max_tokens) == (3, 5000)
    assert isinstance(client.provider, NoneProvider)


def test_record_reads_endpoint_and_key_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("PYSHADOW_LLM_MODEL", "env-model")
    monkeypatch.setenv("PYSHADOW_LLM_API_KEY", "sk-env")
    client = client_from_args(parse(["--llm", "record", "--llm-cache", str(tmp_path)]))
    assert isinstance(client.provider, OpenAIChatProvider)
    assert client.provider.url == "http://127.0.0.1:9/v1/chat/completions"
    assert client.model == "env-model"
    assert client_from_args(parse(["--llm", "live", "--llm-model", "cli-model"])).model == "cli-model"


def test_bad_values_are_rejected_by_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--llm", "maybe"], ["--llm-budget-calls", "-1"], ["--llm-budget-tokens", "lots"]):
        with pytest.raises(SystemExit) as info:
            parse(argv)
        assert info.value.code == 2
    assert "expected a whole number, got 'lots'" in capsys.readouterr().err


def test_missing_settings_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(LLMConfigError, match="--llm-cache DIR"):
        client_from_args(parse(["--llm", "record", "--llm-model", "m"]))
    with pytest.raises(LLMConfigError, match="PYSHADOW_LLM_BASE_URL"):
        client_from_args(parse(["--llm", "live", "--llm-model", "m"]))
    with pytest.raises(LLMConfigError, match="--llm-model"):
        client_from_args(parse(["--llm", "replay", "--llm-cache", str(tmp_path)]))
