"""Residual tasks end to end over a real loopback server: validation outcomes, budget, record → replay, modes."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
import requests

from pyshadow.llm import (
    Budget,
    CacheMiss,
    LLMConfigError,
    Pricing,
    ProviderConfig,
    ResidualResult,
    adapter_task,
    certificate_task,
    make_client,
    run_task,
    run_tasks,
    shadow_task,
)
from pyshadow.llm.fakeserver import FakeChatServer, Reply
from pyshadow.llm.prompts import render_messages
from pyshadow.llm.tasks import build_request

TARGET = "theorem foo (n : Nat) (h : 0 < n) : A n ∧ B n"
GOOD = """example (n : Nat) (h : 0 < n) : A n := by
  first
  | exact (foo n h).1
  | exact (let _hc := foo n h; _hc.1)
  | exact (show A n ∧ B n by apply foo <;> assumption).1
"""
RESTATED = "example (n : Nat) (h : 0 < n) : A n ∧ B n := by\n  exact foo n h\n"
WITH_SORRY = "example (n : Nat) (h : 0 < n) : A n := by\n  have _h := foo n h\n  sorry\n"
SORRY_IN_COMMENT_AND_STRING = """/-- Shadow 1: the left conjunct (no `sorry` needed). -/
example (n : Nat) (h : 0 < n) : A n := by
  -- a sorry here would be rejected; in a comment it is only a word
  have _note : String := "sorry"
  exact (foo n h).1
"""
CERTIFICATE = """theorem shadow_p1_backward (h_1 : ∀ {n : Nat}, 0 < n → A n) (h_2 : ∀ {n : Nat}, 0 < n → B n) :
    ∀ (n : Nat), 0 < n → A n ∧ B n := by
  intro n h
  exact ⟨h_1 h, h_2 h⟩
"""


def fast_config(base_url: str, **overrides: Any) -> ProviderConfig:
    values: dict[str, Any] = {
        "base_url": base_url, "model": "test-model", "connect_timeout": 1.0, "read_timeout": 2.0,
        "max_attempts": 2, "backoff_base": 0.001, "backoff_max": 0.01,
    }
    values.update(overrides)
    return ProviderConfig(**values)


def closed_port_url() -> str:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}/v1"


def json_answer(code: str, **fields: Any) -> str:
    return json.dumps({"checker_code": code, "items": [{"checker_name": "shadow_p1_1"}], **fields})


def task(n: int = 1) -> Any:
    return shadow_task("p1", "foo", TARGET, informal=f"variant {n}", name=f"shadows/p1/foo#{n}")


def run_one(answer_text: str) -> ResidualResult:
    with FakeChatServer([Reply.text(answer_text)]) as srv:
        client = make_client("live", None, fast_config(srv.base_url))
        return run_task(client, task())


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any HTTP request through requests fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the network was used")

    monkeypatch.setattr(requests.Session, "request", refuse)


# --- outcomes ---------------------------------------------------------------------------------------------------


def test_accepted_answer_carries_provenance() -> None:
    result = run_one(json_answer(GOOD, rationale="both conjuncts"))
    assert result.status == "accepted", result.reasons
    assert result.code == GOOD
    assert result.provenance == "llm:fake-model"
    assert result.rationale == "both conjuncts"
    assert result.items == [{"checker_name": "shadow_p1_1"}]


def test_answer_restating_the_target_is_rejected() -> None:
    result = run_one(json_answer(RESTATED))
    assert result.status == "rejected"
    assert result.reasons == ["declaration 1 (example) restates the target's conclusion instead of a part of it"]


def test_answer_with_sorry_is_rejected() -> None:
    result = run_one("```lean\n" + WITH_SORRY + "```")
    assert result.status == "rejected"
    assert result.reasons == ["forbidden: sorry"]


def test_sorry_only_in_comment_or_string_is_accepted() -> None:
    result = run_one("```lean\n" + SORRY_IN_COMMENT_AND_STRING + "```")
    assert result.status == "accepted", result.reasons


def test_answer_without_code_and_cut_off_answer_are_rejected_with_reasons() -> None:
    with FakeChatServer([Reply.text("I would rather not.", finish_reason="length")]) as srv:
        result = run_task(make_client("live", None, fast_config(srv.base_url)), task(), max_tokens=64)
    assert result.status == "rejected"
    assert result.reasons == ["the answer contains no Lean code", "the answer was cut off at max_tokens=64"]


def test_malformed_and_timed_out_answers_fail_the_task_not_the_run() -> None:
    with FakeChatServer([Reply.raw("<html>bad gateway</html>"), Reply.slow(3.0)]) as srv:
        client = make_client("live", None, fast_config(srv.base_url, read_timeout=0.2))
        malformed, timed_out = run_tasks(client, [task(1), task(2)])
    assert malformed.status == "failed" and "not JSON" in malformed.reasons[0]
    assert timed_out.status == "failed" and "read timeout" in timed_out.reasons[0]
    assert client.accounting.calls == 2
    assert client.accounting.outcome_counts()["failed"] == 2


def test_certificate_and_adapter_tasks() -> None:
    cert = certificate_task("p1", "foo", TARGET, "∀ (n : Nat), 0 < n → A n ∧ B n",
                            ["∀ {n : Nat}, 0 < n → A n", "∀ {n : Nat}, 0 < n → B n"])
    leaky = CERTIFICATE.replace("exact ⟨h_1 h, h_2 h⟩", "exact foo n h")
    adapter = adapter_task("p1", "Ref.aux", "theorem Ref.aux (x : Nat) : P x", "my_aux",
                           "theorem my_aux {x : Nat} : P x", candidate_id="cand-7")
    adapter_code = "theorem Ref.aux (x : Nat) : P x := by\n  first\n  | exact my_aux\n  | exact (my_aux (x := x))\n"
    script = [Reply.text("```lean\n" + CERTIFICATE + "```"), Reply.text("```lean\n" + leaky + "```"),
              Reply.text("```lean\n" + adapter_code + "```")]
    with FakeChatServer(script) as srv:
        client = make_client("live", None, fast_config(srv.base_url))
        ok, bad = run_tasks(client, [cert, cert])
        adapted = run_task(client, adapter)
    assert ok.status == "accepted", ok.reasons
    assert bad.status == "rejected" and bad.reasons == ["`foo` must not be used"]
    assert adapted.status == "accepted", adapted.reasons
    assert adapted.task == "adapter/p1/cand-7/Ref.aux"
    user = srv.requests[0].body["messages"][1]["content"]  # type: ignore[index]
    assert "(h_2 : ∀ {n : Nat}, 0 < n → B n)" in user and "theorem shadow_p1_backward" in user


# --- budget -----------------------------------------------------------------------------------------------------


def test_call_budget_stops_cleanly_and_reports_what_was_skipped() -> None:
    with FakeChatServer([Reply.text(json_answer(GOOD))] * 3) as srv:
        client = make_client("live", None, fast_config(srv.base_url), budget=Budget(max_calls=1))
        results = run_tasks(client, [task(1), task(2), task(3)])
    assert [r.status for r in results] == ["accepted", "skipped", "skipped"]
    assert len(srv.requests) == 1
    assert "budget exhausted (1/1 calls used)" in results[1].reasons[0]
    assert [s.task for s in client.budget.skipped] == ["shadows/p1/foo#2", "shadows/p1/foo#3"]
    summary = "\n".join(client.accounting.summary_lines())
    assert "skipped 2 tasks: shadows/p1/foo#2, shadows/p1/foo#3" in summary
    assert client.accounting.to_dict()["budget"]["skipped"] == [
        {"task": "shadows/p1/foo#2", "reason": "1/1 calls used"},
        {"task": "shadows/p1/foo#3", "reason": "1/1 calls used"},
    ]


def test_token_budget_refuses_calls_once_spent() -> None:
    with FakeChatServer([Reply.text(json_answer(GOOD), prompt_tokens=80, completion_tokens=40)] * 3) as srv:
        client = make_client("live", None, fast_config(srv.base_url), budget=Budget(max_tokens=100))
        results = run_tasks(client, [task(1), task(2)])
    assert [r.status for r in results] == ["accepted", "skipped"]
    assert client.budget.tokens == 120
    assert "120/100 tokens used" in results[1].reasons[0]


def test_cache_hits_are_free_under_a_spent_budget(tmp_path: Path) -> None:
    with FakeChatServer([Reply.text(json_answer(GOOD))] * 2) as srv:
        run_tasks(make_client("record", tmp_path, fast_config(srv.base_url)), [task(1), task(2)])
    client = make_client("record", tmp_path, fast_config(closed_port_url()), budget=Budget(max_calls=0))
    results = run_tasks(client, [task(1), task(2), task(3)])
    assert [r.status for r in results] == ["accepted", "accepted", "skipped"]
    assert (client.accounting.calls, client.accounting.cache_hits) == (0, 2)


# --- record / replay --------------------------------------------------------------------------------------------


def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def results_bytes(results: list[ResidualResult]) -> bytes:
    return json.dumps([r.to_dict() for r in results], sort_keys=True, ensure_ascii=False, indent=1).encode()


def test_record_then_replay_offline_is_byte_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache_dir = tmp_path / "llm-cache"
    tasks = [task(1), task(2), task(3)]
    script = [Reply.text(json_answer(GOOD)), Reply.text("```lean\n" + WITH_SORRY + "```"),
              Reply.text(json_answer(RESTATED), model="other-model")]
    with FakeChatServer(script) as srv:
        recorder = make_client("record", cache_dir, fast_config(srv.base_url))
        recorded = run_tasks(recorder, tasks)
    assert [r.status for r in recorded] == ["accepted", "rejected", "rejected"]
    assert recorder.accounting.calls == 3 and recorder.accounting.cache_hits == 0
    files = snapshot(cache_dir)
    assert len(files) == 3 and all(name.endswith(".json") and "shadows_p1_foo" in name for name in files)

    # The network is gone: the endpoint is a closed port, and any HTTP request fails the test.
    monkeypatch.setattr(requests.Session, "request", lambda *a, **k: pytest.fail("replay used the network"))
    for mode in ("replay", "record"):
        client = make_client(mode, cache_dir, fast_config(closed_port_url()))
        replayed = run_tasks(client, tasks)
        assert results_bytes(replayed) == results_bytes(recorded)
        assert snapshot(cache_dir) == files
        assert (client.accounting.calls, client.accounting.cache_hits) == (0, 3)
        assert replayed[2].provenance == "llm:other-model"


def test_replay_miss_is_a_clear_error_naming_the_task(tmp_path: Path, no_network: None) -> None:
    client = make_client("replay", tmp_path / "empty", fast_config(closed_port_url()))
    with pytest.raises(CacheMiss, match=r"no recorded LLM answer for task 'shadows/p1/foo#1' \(key [0-9a-f]{12}\) "
                       r"in .*empty; record it first with --llm record") as info:
        run_task(client, task(1))
    assert info.value.exit_code == 2


def test_none_mode_skips_without_network_or_files(tmp_path: Path, no_network: None) -> None:
    none = make_client("none", tmp_path, ProviderConfig())
    result = run_task(none, task())
    assert result.status == "skipped" and "--llm none" in result.reasons[0]
    assert list(tmp_path.iterdir()) == []


def test_live_mode_writes_no_cache(tmp_path: Path) -> None:
    with FakeChatServer([Reply.text(json_answer(GOOD))]) as srv:
        client = make_client("live", tmp_path, fast_config(srv.base_url))
        assert client.cache is None
        assert run_task(client, task()).status == "accepted"
    assert list(tmp_path.iterdir()) == []


def test_make_client_configuration_errors(tmp_path: Path) -> None:
    with pytest.raises(LLMConfigError, match="unknown LLM mode 'sometimes'"):
        make_client("sometimes", tmp_path, ProviderConfig(model="m"))
    with pytest.raises(LLMConfigError, match="--llm replay needs a cache directory"):
        make_client("replay", None, ProviderConfig(model="m"))
    with pytest.raises(LLMConfigError, match="--llm-model"):
        make_client("replay", tmp_path, ProviderConfig())
    with pytest.raises(LLMConfigError, match="PYSHADOW_LLM_BASE_URL"):
        make_client("live", None, ProviderConfig(model="m"))


# --- accounting and prompts -------------------------------------------------------------------------------------


def test_accounting_per_task_cost_and_summary(tmp_path: Path) -> None:
    script = [Reply.text(json_answer(GOOD), prompt_tokens=1000, completion_tokens=200),
              Reply.text(json_answer(RESTATED), prompt_tokens=500, completion_tokens=100)]
    with FakeChatServer(script) as srv:
        client = make_client("record", tmp_path, fast_config(srv.base_url),
                             pricing=Pricing(prompt_per_million=2.0, completion_per_million=10.0))
        run_tasks(client, [task(1), task(2)])
        run_task(client, task(1))  # a cache hit
    report = client.accounting.to_dict()
    assert (report["calls"], report["cache_hits"]) == (2, 1)
    assert (report["prompt_tokens"], report["completion_tokens"], report["replayed_tokens"]) == (1500, 300, 1200)
    assert report["estimated_cost"] == pytest.approx(0.006)
    assert report["outcomes"] == {"accepted": 1, "rejected": 1, "skipped": 0, "failed": 0}
    first = report["tasks"][0]
    assert first["task"] == "shadows/p1/foo#1"
    assert (first["calls"], first["cache_hits"], first["estimated_cost"]) == (1, 1, pytest.approx(0.004))
    assert json.loads(json.dumps(report)) == report
    lines = client.accounting.summary_lines()
    assert lines[0] == ("llm: mode record, model test-model: 2 calls, 1500 prompt + 300 completion tokens, "
                        "1 cache hits (1200 tokens replayed), estimated cost 0.0060")
    assert lines[1] == "llm: residual tasks 1 accepted, 1 rejected, 0 skipped, 0 failed"
    assert lines[2].startswith("llm:   shadows/p1/foo#1: 1 calls, 1000+200 tokens")


def test_every_template_renders_deterministically_with_its_context() -> None:
    tasks = [
        shadow_task("minif2f/aime_1983_p1", "foo", TARGET, existing_shadows=["A n"], context="open Nat",
                    rules="Use ℕ.", reason="the conclusion is an existential"),
        certificate_task("p1", "foo", TARGET, "∀ (n : Nat), 0 < n → A n ∧ B n", ["S1", "S2"], reason="∃"),
        adapter_task("p1", "Ref.aux", "def Ref.aux (x : Nat) : Nat", "my_aux", "def my_aux (x : Nat) : Nat",
                     reference_kind="def", error="unknown identifier 'Ref.aux'"),
    ]
    for t in tasks:
        first = build_request(t, "m")
        assert first == build_request(t, "m")
        system, user = first.messages
        assert system["role"] == "system" and user["role"] == "user"
        assert "{{" not in user["content"] and "{%" not in user["content"]
    shadow_user = render_messages("shadows", tasks[0].context)[1]["content"]
    assert "shadow_minif2f_aime_1983_p1_2" in shadow_user  # numbering continues after the rule-made shadow
    assert "1. `A n`" in shadow_user and "open Nat" in shadow_user and "existential" in shadow_user
    assert '"checker_code"' in shadow_user
    adapter_user = render_messages("adapter", tasks[2].context)[1]["content"]
    assert "unknown identifier 'Ref.aux'" in adapter_user and "unfolding nothing" in adapter_user
