"""``pyshadow generate --llm … --llm-certificates``: a backward certificate for an LLM-refined residual target
(task b), with the loopback fake server; record → offline replay is byte-identical."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pyshadow.cli
from pyshadow.llm.fakeserver import FakeChatServer, Reply

REFERENCE = """\
namespace Tiny

/-- An atomic one. -/
theorem exists_gt (n : Nat) : ∃ m, n < m := ⟨n + 1, Nat.lt_succ_self n⟩

end Tiny
"""

TOML = """\
id = "tiny"
area = "arithmetic"
level = "L1"
source = "test"
imports = []
reference = "Reference.lean"
targets = ["Tiny.exists_gt"]

[informal]
statement = "A test problem."
"""

SHADOWS = json.dumps({"checker_code": (
    "theorem shadow_tiny_2 (n : Nat) : ∃ m, n + 1 ≤ m := by\n"
    "  simpa using Tiny.exists_gt n\n"
)})
NAME = "shadow_tiny_llm_complete"
CERTIFICATE = (
    f"/-- from the shadow -/\ntheorem {NAME}\n    (h_1 : ∀ (n : Nat), ∃ m, n + 1 ≤ m) :\n"
    "    ∀ (n : Nat), ∃ m, n < m := by\n  intro n\n\n  exact h_1 n\n"
)
LEAKY = CERTIFICATE.replace("exact h_1 n", "exact Tiny.exists_gt n")


def run_generate(*argv) -> int:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pyshadow.cli, "COMMAND_MODULES", ["generate"])
        return pyshadow.cli.main(["generate", *map(str, argv)])


@pytest.fixture
def problems(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("PYSHADOW_LLM_BASE_URL", "PYSHADOW_LLM_MODEL", "PYSHADOW_LLM_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    folder = tmp_path / "problems" / "tiny"
    folder.mkdir(parents=True)
    (folder / "Reference.lean").write_text(REFERENCE, encoding="utf-8")
    (folder / "problem.toml").write_text(TOML, encoding="utf-8")
    return tmp_path / "problems"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_certificate_record_then_replay(problems, tmp_path, capsys, monkeypatch):
    cache = tmp_path / "cache"
    script = [Reply.text(SHADOWS, model="fake-model"), Reply.text("```lean\n" + CERTIFICATE + "```",
                                                                  model="fake-model")]
    with FakeChatServer(script) as server:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", server.base_url)
        assert run_generate(problems, "-o", tmp_path / "ws1", "--llm", "record", "--llm-cache", cache,
                            "--llm-model", "fake-model", "--llm-certificates") == 0
        assert len(server.requests) == 2  # shadows, then the certificate
        prompt = server.requests[1].body["messages"][1]["content"]
        assert f"theorem {NAME}" in prompt and "(h_1 : ∀ (n : Nat), ∃ m, n + 1 ≤ m)" in prompt
        assert ": ∀ (n : Nat), ∃ m, n < m := by" in prompt
    out = capsys.readouterr().out
    assert "certificate written to Backward.lean" in out and "2 shadows, 3 checkers" in out
    backward = (tmp_path / "ws1" / "Checkers/Tiny/Backward.lean").read_text(encoding="utf-8")
    assert "-- provenance: llm:fake-model (LLM task certificate/tiny/Tiny.exists_gt)" in backward
    assert f"theorem {NAME}\n    (h_1 : ∀ (n : Nat), ∃ m, n + 1 ≤ m) :\n" in backward
    assert "  intro n\n  exact h_1 n\n\n#print axioms " + NAME in backward  # blank lines folded, docstring dropped
    manifest = json.loads((tmp_path / "ws1" / "manifest.json").read_text(encoding="utf-8"))
    target = manifest["problems"]["tiny"]["targets"][0]
    assert target["llm"]["certificate"]["status"] == "accepted"
    assert target["llm"]["certificate"]["provenance"] == "llm:fake-model"
    (checker,) = [c for c in target["checkers"] if c["kind"] == "backward"]
    assert checker["name"] == NAME and checker["provenance"] == "llm:fake-model"
    first, last = checker["lines"]
    lines = backward.split("\n")
    assert lines[first - 1].startswith(f"theorem {NAME}") and lines[last - 1] == "  exact h_1 n"

    monkeypatch.delenv("PYSHADOW_LLM_BASE_URL")
    assert run_generate(problems, "-o", tmp_path / "ws2", "--llm", "replay", "--llm-cache", cache,
                        "--llm-model", "fake-model", "--llm-certificates") == 0
    assert tree(tmp_path / "ws2") == tree(tmp_path / "ws1")


def test_without_the_flag_no_certificate_is_asked(problems, tmp_path, capsys, monkeypatch):
    with FakeChatServer([Reply.text(SHADOWS, model="fake-model")]) as server:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", server.base_url)
        assert run_generate(problems, "-o", tmp_path / "ws", "--llm", "live", "--llm-model", "fake-model") == 0
        assert len(server.requests) == 1
    manifest = json.loads((tmp_path / "ws" / "manifest.json").read_text(encoding="utf-8"))
    target = manifest["problems"]["tiny"]["targets"][0]
    assert "certificate" not in target["llm"] and not [c for c in target["checkers"] if c["kind"] == "backward"]


def test_a_certificate_using_the_target_is_rejected(problems, tmp_path, capsys, monkeypatch):
    script = [Reply.text(SHADOWS, model="fake-model"), Reply.text("```lean\n" + LEAKY + "```", model="fake-model")]
    with FakeChatServer(script) as server:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", server.base_url)
        assert run_generate(problems, "-o", tmp_path / "ws", "--llm", "live", "--llm-model", "fake-model",
                            "--llm-certificates") == 0
    out = capsys.readouterr().out
    assert "certificate rejected" in out and "Tiny.exists_gt" in out
    backward = (tmp_path / "ws" / "Checkers/Tiny/Backward.lean").read_text(encoding="utf-8")
    assert NAME not in backward
    manifest = json.loads((tmp_path / "ws" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["problems"]["tiny"]["targets"][0]["llm"]["certificate"]["status"] == "rejected"
