"""``pyshadow score --llm …``: LLM adapters for the name-mismatch case, with the loopback fake server.

The full tier needs a full Lean toolchain, which the development machines lack; these tests stand a fake in for
``pyshadow.score.full_run.full_rows`` (it passes every check of a target the candidate declares, so a verdict here
shows only whether the adapter reached the checker input) and check that the accepted adapter is in the module
text the full tier compiles. The kernel-tier test runs the real kernel-tier lean.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from types import SimpleNamespace

import pytest

from pyshadow.cli import main
from pyshadow.commands import common as common_command
from pyshadow.commands import score as score_command
from pyshadow.llm.fakeserver import FakeChatServer, Reply
from pyshadow.score import full_run
from pyshadow.score.pipeline import ADAPTER_NEEDS_FULL_TIER, Check, finish_row

REFERENCE = "namespace Cand\n\ntheorem main (P Q : Prop) (hp : P) (hq : Q) : P ∧ Q := ⟨hp, hq⟩\n\nend Cand\n"
# the candidate calls it something else, with the hypotheses swapped: no rule pairs the names
CANDIDATE = "theorem my_and (P Q : Prop) (hq : Q) (hp : P) : P ∧ Q := ⟨hp, hq⟩\n"
GOOD = "theorem Cand.main (P Q : Prop) (hp : P) (hq : Q) : P ∧ Q := my_and P Q hq hp"
SORRY = "theorem Cand.main (P Q : Prop) (hp : P) (hq : Q) : P ∧ Q := by\n  exact my_and P Q hq (by sorry)"
RESTATED = "theorem Cand.main (P Q : Prop) (hp : P) (hq : Q) : P ∧ Q := ⟨hp, hq⟩"


def fenced(code: str) -> str:
    return "```lean\n" + code + "\n```"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PYSHADOW_LLM_BASE_URL", "PYSHADOW_LLM_MODEL", "PYSHADOW_LLM_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def setup(tmp_path: Path) -> SimpleNamespace:
    problems = tmp_path / "problems"
    folder = problems / "demo_and"
    folder.mkdir(parents=True)
    (folder / "problem.toml").write_text(
        'id = "demo_and"\narea = "logic"\nlevel = "L1"\nsource = "test"\nimports = []\n'
        'reference = "Reference.lean"\ntargets = ["Cand.main"]\n[informal]\nstatement = "P and Q"\n',
        encoding="utf-8")
    (folder / "Reference.lean").write_text(REFERENCE, encoding="utf-8")
    candidates = tmp_path / "cands.jsonl"
    candidates.write_text(json.dumps({"problem_id": "demo_and", "system": "sys", "code": CANDIDATE}) + "\n",
                          encoding="utf-8")
    return SimpleNamespace(problems=problems, candidates=candidates, cache=tmp_path / "cache", tmp=tmp_path)


@pytest.fixture
def fake_full(monkeypatch: pytest.MonkeyPatch) -> list:
    """The full tier with a stand-in for Lean: every declared target passes; the prepared candidates are kept."""
    seen: list = []
    monkeypatch.setattr(common_command, "choose_lean", lambda tier: ("full", SimpleNamespace(
        path="lean", tier="full", version="stand-in")))
    monkeypatch.setattr(score_command, "toolchain_fingerprint", lambda lean: "fp")

    def fake_rows(prepared, lean, **kw):
        for p in prepared:
            seen.append(p)
            checks = full_run.missing_checks(p)
            for t in p.info.targets:
                if p.extracted.get(t.name) is not None:
                    checks += [Check(f"{t.name}:forward:{i}", "forward", t.name, True, "passed", i)
                               for i in range(1, t.n_forward + 1)]
                    checks.append(Check(f"{t.name}:backward", "backward", t.name, True, "passed"))
            yield finish_row(p, "full", checks, compiled=True)

    monkeypatch.setattr(full_run, "full_rows", fake_rows)
    return seen


def score(capsys, s: SimpleNamespace, out: str, *extra: str) -> tuple[int, str, list[dict]]:
    code = main(["score", str(s.problems), str(s.candidates), "-o", str(s.tmp / out), *extra])
    text = capsys.readouterr().out
    path = s.tmp / out
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []
    return code, text, rows


def test_llm_none_is_unchanged_and_lists_unresolved_names(setup, fake_full, capsys):
    code, out, rows = score(capsys, setup, "none.jsonl", "--tier", "full")
    assert code == 0
    (row,) = rows
    assert "adapters" not in row and row["declarations"] == {"Cand.main": None}
    assert not row["sa_pass"] and "no declaration named Cand.main" in row["checks"][0]["message"]
    assert "1 candidates with unresolved names" in out and "Cand.main" in out
    assert "LLM:" not in out and "calls" not in out.lower().split("summaries")[-1]


def test_record_then_replay_offline_is_byte_identical(setup, fake_full, capsys, monkeypatch):
    monkeypatch.setenv("PYSHADOW_LLM_MODEL", "fake-model")
    with FakeChatServer([Reply.text(fenced(GOOD), model="fake-model")], max_requests=5) as srv:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", srv.base_url)
        code, out, rows = score(capsys, setup, "rec.jsonl", "--tier", "full", "--llm", "record",
                                "--llm-cache", str(setup.cache))
        assert len(srv.requests) == 1
    assert code == 0
    (row,) = rows
    (adapter,) = row["adapters"]
    assert adapter["status"] == "used" and adapter["provenance"] == "llm:fake-model"
    assert adapter["code"].strip() == GOOD and adapter["candidate_name"] == "my_and"
    assert adapter["target"] == "Cand.main"
    assert row["sa_pass"] and row["declarations"]["Cand.main"]["name"] == "Cand.main"
    # the adapter went to Lean with the candidate: it is in the module the full tier compiles
    (prepared,) = fake_full
    task = full_run.full_task(prepared, workspace=None, timeout_s=1, memory_mb=1)
    assert task.module_text.startswith(CANDIDATE.rstrip("\n")) and task.module_text.endswith(GOOD + "\n")
    assert "#print axioms Cand.main" in task.checker_text
    assert "calls" in out.lower() and "1 LLM adapters appended" in out and "Cand.main ← my_and" in out

    cache_files = {p.name: p.read_bytes() for p in setup.cache.iterdir()}
    assert len(cache_files) == 1
    monkeypatch.delenv("PYSHADOW_LLM_BASE_URL")

    def no_network(*a, **kw):
        raise OSError("network unavailable in this test")

    monkeypatch.setattr(socket, "create_connection", no_network)
    code, out, _ = score(capsys, setup, "rep.jsonl", "--tier", "full", "--llm", "replay",
                         "--llm-cache", str(setup.cache))
    assert code == 0
    assert (setup.tmp / "rep.jsonl").read_bytes() == (setup.tmp / "rec.jsonl").read_bytes()
    assert {p.name: p.read_bytes() for p in setup.cache.iterdir()} == cache_files
    assert "hit" in out.lower()


@pytest.mark.parametrize("answer, why", [(SORRY, "sorry"), (RESTATED, "my_and")])
def test_rejected_adapter_leaves_the_row_failing_with_the_reason(setup, fake_full, capsys, monkeypatch, answer, why):
    monkeypatch.setenv("PYSHADOW_LLM_MODEL", "fake-model")
    with FakeChatServer([Reply.text(fenced(answer))], max_requests=5) as srv:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", srv.base_url)
        code, out, rows = score(capsys, setup, "r.jsonl", "--tier", "full", "--llm", "live")
    assert code == 0
    (row,) = rows
    (adapter,) = row["adapters"]
    assert adapter["status"] == "rejected" and any(why in r for r in adapter["reasons"])
    assert not row["sa_pass"] and row["declarations"] == {"Cand.main": None}
    assert all(not c["passed"] and "LLM adapter rejected" in c["message"] for c in row["checks"])
    (prepared,) = fake_full
    assert prepared.candidate.code == CANDIDATE  # nothing of a rejected answer reaches Lean
    assert "LLM adapter rejected" in out


def test_replay_miss_stops_with_exit_2(setup, fake_full, capsys, monkeypatch):
    setup.cache.mkdir()
    code = main(["score", str(setup.problems), str(setup.candidates), "-o", str(setup.tmp / "r.jsonl"),
                 "--tier", "full", "--llm", "replay", "--llm-cache", str(setup.cache), "--llm-model", "m"])
    assert code == 2
    assert "no recorded LLM answer" in capsys.readouterr().err


@pytest.mark.kernel
def test_kernel_tier_never_uses_adapters(setup, kernel_lean_exe, capsys, monkeypatch):
    monkeypatch.setenv("PYSHADOW_LLM_MODEL", "fake-model")
    with FakeChatServer([Reply.text(fenced(GOOD))], max_requests=5) as srv:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", srv.base_url)
        code, out, rows = score(capsys, setup, "k.jsonl", "--tier", "kernel", "--llm", "live")
        assert srv.requests == []  # not even asked: a kernel-tier verdict cannot rest on an unchecked proof
    assert code == 0
    (row,) = rows
    (adapter,) = row["adapters"]
    assert adapter["status"] == "not used" and adapter["reasons"] == [ADAPTER_NEEDS_FULL_TIER]
    assert not row["sa_pass"] and all(ADAPTER_NEEDS_FULL_TIER in c["message"] for c in row["checks"])
    assert ADAPTER_NEEDS_FULL_TIER in out


# ---------------------------------------------------------------------------------------------------------------
# An accepted adapter is still judged by Lean (kernel-tier lean, prelude mode, through the full tier's plumbing)

PRELUDE_MODULE = """\
structure And (a b : Prop) : Prop where
  intro ::
  left : a
  right : b
theorem my_and (P Q : Prop) (hq : Q) (hp : P) : And P Q := And.intro hp hq
"""


@pytest.mark.kernel
@pytest.mark.parametrize("adapter, compiles", [
    ("theorem Cand.main (P Q : Prop) (hp : P) (hq : Q) : And P Q := my_and P Q hq hp", True),
    ("theorem Cand.main (P Q : Prop) (hp : P) (hq : Q) : And P Q := my_and P Q hp hq", False),  # ill-typed
])
def test_an_accepted_adapter_is_compiled_with_the_candidate(setup, kernel_lean_exe, monkeypatch, adapter, compiles):
    from conftest_lean import PRELUDE_HEADER
    from pyshadow.llm import ProviderConfig, make_client
    from pyshadow.problems import load_problem
    from pyshadow.score.audit import AuditPolicy
    from pyshadow.score.candidates import Candidate
    from pyshadow.score.checker_file import CheckerFile, Role
    from pyshadow.score.full_run import FullTask, run_full_task
    from pyshadow.score.pipeline import apply_llm_adapters, prepare_candidate, prepare_problem

    info = prepare_problem(load_problem(setup.problems / "demo_and"))
    policy = AuditPolicy(disabled_rules=frozenset({"prelude", "axiom", "unsafe", "unsound_constant", "shadowed_name"}))
    prepared = prepare_candidate(Candidate("demo_and", "sys", PRELUDE_HEADER + PRELUDE_MODULE, "x"), info, "full",
                                 "fp", policy)
    assert prepared.extracted["Cand.main"] is None
    with FakeChatServer([Reply.text(fenced(adapter))]) as srv:
        client = make_client("live", None, ProviderConfig(base_url=srv.base_url, model="fake-model"))
        adapted = apply_llm_adapters(prepared, client, "full")
    assert adapted.adapters[0]["status"] == "used"  # the validators cannot see types: Lean must
    checks = CheckerFile()
    checks.add("prelude\nimport PyshadowCandidate\nnamespace PyshadowChecks")
    checks.add_axioms_probe("Cand.main", Role("axioms", "Cand.main"))
    checks.add_checker("PyshadowChecks.fwd_1",
                       "theorem fwd_1 (P Q : Prop) (hp : P) (hq : Q) : P :=\n  (Cand.main P Q hp hq).1",
                       Role("forward", "Cand.main", 1))
    checks.add("end PyshadowChecks")
    task = FullTask("k", adapted.candidate.code, checks.text, tuple(checks.spans), checks.roles, timeout_s=60)
    outcome = run_full_task(task, kernel_lean_exe)
    assert outcome.compiled is compiles
    if compiles:
        assert [c.passed for c in outcome.checks] == [True, True]
    else:
        assert outcome.reason.startswith("the candidate does not compile")
