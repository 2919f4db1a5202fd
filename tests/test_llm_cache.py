"""Record/replay cache files: keys, names, the exact bytes on disk, corrupt files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyshadow.errors import BadInput
from pyshadow.llm import ChatRequest, ChatResponse
from pyshadow.llm.cache import CACHE_FORMAT, ResponseCache, canonical_json, read_entry, request_key, task_slug
from pyshadow.llm.errors import CacheCorrupt


def make_request(**overrides: object) -> ChatRequest:
    values: dict[str, object] = {
        "model": "m",
        "messages": [{"role": "system", "content": "be exact"}, {"role": "user", "content": "∀ n, n = n"}],
        "temperature": 0.0,
        "max_tokens": 128,
        "extra": {"top_p": 0.95, "seed": 3},
    }
    values.update(overrides)
    return ChatRequest(**values)  # type: ignore[arg-type]


RESPONSE = ChatResponse(text="```lean\nexample : True := trivial\n```", prompt_tokens=12, completion_tokens=8,
                        model="m-2026", raw={"id": "r1", "choices": [{"finish_reason": "stop"}]})


def test_key_ignores_dict_order_but_not_content() -> None:
    a = make_request(extra={"top_p": 0.95, "seed": 3})
    b = make_request(extra={"seed": 3, "top_p": 0.95}, messages=[{"content": "be exact", "role": "system"},
                                                                 {"content": "∀ n, n = n", "role": "user"}])
    assert request_key(a) == request_key(b)
    assert request_key(a) != request_key(make_request(temperature=0.5))
    assert request_key(a) != request_key(make_request(model="other"))
    assert request_key(make_request(temperature=0)) == request_key(make_request(temperature=0.0))
    assert len(request_key(a)) == 64


def test_canonical_json_is_compact_sorted_utf8() -> None:
    assert canonical_json({"b": 1, "a": ["∀", 2.5]}) == '{"a":["∀",2.5],"b":1}'


def test_task_slug_is_file_name_safe() -> None:
    assert task_slug("shadows/minif2f/aime_1983_p1/aime_1983_p1") == "shadows_minif2f_aime_1983_p1_aime_1983_p1"
    assert task_slug("adapter/p 1/∀x") == "adapter_p_1_x"
    assert task_slug("///") == "task"
    assert len(task_slug("x" * 500)) == 80


def test_store_writes_one_pretty_sorted_file_named_by_key_and_task(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "llm")
    assert not (tmp_path / "llm").exists()  # nothing on disk before the first store
    request = make_request()
    entry = cache.store("shadows/p1/foo", request, RESPONSE)
    key = request_key(request)
    [path] = sorted((tmp_path / "llm").iterdir())
    assert path.name == f"{key[:12]}-shadows_p1_foo.json"
    assert entry.path == path
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert "∀ n, n = n" in text  # readable, not \u-escaped
    data = json.loads(text)
    assert text == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert data["format"] == CACHE_FORMAT
    assert data["key"] == key
    assert data["task"] == "shadows/p1/foo"
    assert data["request"] == request.parameters()
    assert data["response"] == RESPONSE.to_dict()
    assert entry.response == RESPONSE


def test_lookup_finds_entry_under_any_task_name_and_misses_otherwise(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    cache.store("recorded-as-this", make_request(), RESPONSE)
    hit = cache.lookup(make_request())
    assert hit is not None and hit.response == RESPONSE and hit.task == "recorded-as-this"
    assert cache.lookup(make_request(max_tokens=129)) is None
    assert ResponseCache(tmp_path / "missing").lookup(make_request()) is None


def test_storing_twice_gives_identical_bytes(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    first = cache.store("t", make_request(), RESPONSE).path.read_bytes()
    second = cache.store("t", make_request(), RESPONSE).path.read_bytes()
    assert first == second
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".tmp")] == []


def test_corrupt_file_is_named_in_a_bad_input_error(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    path = cache.store("t", make_request(), RESPONSE).path
    path.write_text("{ not json", encoding="utf-8")
    with pytest.raises(CacheCorrupt, match=path.name) as info:
        cache.lookup(make_request())
    assert isinstance(info.value, BadInput)
    path.write_text(json.dumps({"format": "something-else/9"}), encoding="utf-8")
    with pytest.raises(CacheCorrupt, match="format"):
        read_entry(path)
