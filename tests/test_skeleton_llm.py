"""The skeleton + LLM column (``pyshadow score --tier kernel --llm …``, ``pyshadow.score.skeleton_llm``): undecided
atom pairs asked about, answers in their own column, skeleton SA-Pass untouched.

Real kernel-tier Lean judges the statements; the model is the recorded fixture cache (``tests/fixtures/skeleton_llm``,
SYNTHETIC answers from a scripted stand-in — see its README) or the loopback fake server. No network.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyshadow.cli import main
from pyshadow.llm import ChatResponse, ProviderConfig, make_client
from pyshadow.llm.fakeserver import FakeChatServer, Reply
from pyshadow.llm.same_term import (
    AtomAnswer,
    AtomPairJudge,
    AtomQuestion,
    TermScope,
    combine,
    parse_same,
    question_messages,
    term_scope,
)
from pyshadow.score.metrics import CandidateScore
from pyshadow.score.pipeline import Check, ScoreRow
from pyshadow.score.skeleton_llm import skeleton_llm_column
from pyshadow.syntax import parse_declaration

FIXTURE = Path(__file__).parent / "fixtures" / "skeleton_llm"
PROBLEMS = FIXTURE / "problems"
CANDIDATES = FIXTURE / "candidates.jsonl"
MODEL = "fake-model"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PYSHADOW_LLM_BASE_URL", "PYSHADOW_LLM_MODEL", "PYSHADOW_LLM_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def score(out: Path, *llm: str) -> dict[tuple[str, str], dict]:
    code = main(["score", str(PROBLEMS), str(CANDIDATES), "-o", str(out), "--tier", "kernel",
                 "--findings", str(out.with_suffix(".findings.jsonl")), *llm])
    assert code == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return {(r["system"], r["problem_id"]): r for r in rows}


def replay(out: Path) -> dict[tuple[str, str], dict]:
    return score(out, "--llm", "replay", "--llm-cache", str(FIXTURE / "cache"), "--llm-model", MODEL)


@pytest.fixture(scope="module")
def replayed(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("replay") / "results.jsonl"
    return out, replay(out)


@pytest.mark.kernel
def test_same_true_makes_skeleton_llm_pass_while_skeleton_stays_undecided(replayed):
    _, rows = replayed
    row = rows[("next_revision", "imo_1988_p6")]
    assert row["undecided"] and not row["sa_pass"] and row["bucket"] == "undecided"  # skeleton: undecided, no pass
    assert row["undecided_atoms"][0]["pairs"] == [["(x ^ 2 : ℝ)", "x ^ 2"]]
    column = row["skeleton_llm"]
    assert column["verdict"] == "pass"
    [answer] = column["answers"]
    assert (answer["reference"], answer["candidate"], answer["same"], answer["status"]) == \
        ("(x ^ 2 : ℝ)", "x ^ 2", True, "ok")
    assert answer["provenance"] == "replayed" and answer["model"] == MODEL and answer["reason"]


@pytest.mark.kernel
def test_same_false_makes_skeleton_llm_fail(replayed):
    _, rows = replayed
    row = rows[("next_revision", "mathd_algebra_114")]
    assert row["undecided"] and not row["sa_pass"]
    column = row["skeleton_llm"]
    assert column["verdict"] == "fail"
    [answer] = column["answers"]
    assert answer["same"] is False and answer["attempts"] == 2  # prose first (malformed), then fenced JSON


@pytest.mark.kernel
def test_skeleton_fails_are_never_sent_to_the_model(replayed):
    _, rows = replayed
    for problem in ("imo_1988_p6", "mathd_algebra_114"):
        row = rows[("dropped_hypothesis", problem)]
        assert not row["undecided"] and not row["sa_pass"]
        assert row["skeleton_llm"] == {"verdict": "fail", "answers": []}


@pytest.mark.kernel
def test_replay_is_byte_identical_and_findings_keep_the_skeleton_verdict(replayed, tmp_path, capsys):
    first, _ = replayed
    second = tmp_path / "results.jsonl"
    replay(second)
    def timeless(path):  # elapsed_s is the real time each run took: everything else is identical
        return [{k: v for k, v in json.loads(line).items() if k != "elapsed_s"}
                for line in path.read_text(encoding="utf-8").splitlines()]

    assert timeless(first) == timeless(second)
    assert first.with_suffix(".findings.jsonl").read_bytes() == second.with_suffix(".findings.jsonl").read_bytes()
    assert first.with_name("results.summary.md").read_text(encoding="utf-8") == \
        second.with_name("results.summary.md").read_text(encoding="utf-8")
    findings = {(f["system"], f["problem_id"]): f for f in map(json.loads, second.with_suffix(
        ".findings.jsonl").read_text(encoding="utf-8").splitlines())}
    passed_by_llm = findings[("next_revision", "imo_1988_p6")]
    assert passed_by_llm["verdict"] == "undecidable"  # the skeleton's, not the model's
    assert passed_by_llm["skeleton_llm"]["verdict"] == "pass"
    summary = second.with_name("results.summary.md").read_text(encoding="utf-8")
    assert "## Skeleton SA-Pass and skeleton + LLM" in summary and "not a Lean check" in summary
    assert "| next_revision | 2 | 0 | 2 | 1 | 1 | 0 | 0.0 | 50.0 | 0 |" in summary
    out = capsys.readouterr().out
    assert "skeleton+LLM pass 1/2" in out and "0 calls" in out


@pytest.mark.kernel
def test_record_asks_only_undecided_pairs_and_replays_the_same_rows(tmp_path, monkeypatch):
    """Record through the loopback fake server: one request per distinct undecided pair (the two skeleton fails
    carry the same pairs but are not sent); the recorded rows equal the replayed ones except the provenance."""
    def answer(body):
        user = body["messages"][1]["content"]
        same = "1 / 3" not in user.split("## Term B", 1)[1]
        return Reply.text(json.dumps({"same": same, "reason": "scripted"}), model=MODEL)

    cache = tmp_path / "cache"
    with FakeChatServer(answer) as server:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", server.base_url)
        recorded = score(tmp_path / "rec.jsonl", "--llm", "record", "--llm-cache", str(cache), "--llm-model", MODEL)
    monkeypatch.delenv("PYSHADOW_LLM_BASE_URL")
    assert len(server.requests) == 2
    asked = sorted(r.body["messages"][1]["content"].split("## Term B", 1)[0] for r in server.requests)
    assert any("(x ^ 2 : ℝ)" in a for a in asked) and any("(1 / 3 : ℝ)" in a for a in asked)
    assert recorded[("next_revision", "imo_1988_p6")]["skeleton_llm"]["answers"][0]["provenance"] == "recorded"
    replayed_rows = score(tmp_path / "rep.jsonl", "--llm", "replay", "--llm-cache", str(cache), "--llm-model", MODEL)
    for key, row in recorded.items():
        for a in row["skeleton_llm"]["answers"]:
            a["provenance"] = "replayed"
        assert {k: v for k, v in row.items() if k != "elapsed_s"} == \
            {k: v for k, v in replayed_rows[key].items() if k != "elapsed_s"}


@pytest.mark.kernel
def test_malformed_answers_are_asked_again_then_recorded_as_errors_not_guessed(tmp_path, monkeypatch):
    with FakeChatServer(lambda body: Reply.text("They look the same to me.", model=MODEL)) as server:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", server.base_url)
        rows = score(tmp_path / "r.jsonl", "--llm", "live", "--llm-model", MODEL)
    assert len(server.requests) == 2 * 3  # two distinct pairs, each asked 1 + 2 retries
    for problem in ("imo_1988_p6", "mathd_algebra_114"):
        column = rows[("next_revision", problem)]["skeleton_llm"]
        assert column["verdict"] == "undecided"
        [answer] = column["answers"]
        assert answer["status"] == "malformed" and answer["same"] is None and answer["attempts"] == 3
        assert "no JSON object" in answer["error"] and answer["provenance"] == "model"
    # the retry shows the model its answer and what was wrong
    assert len(server.requests[1].body["messages"]) == 4


@pytest.mark.kernel
def test_no_request_and_no_column_without_llm_options(tmp_path, monkeypatch):
    with FakeChatServer(lambda body: Reply.text('{"same": true, "reason": "x"}')) as server:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("PYSHADOW_LLM_MODEL", MODEL)
        rows = score(tmp_path / "r.jsonl")
    assert server.requests == []
    assert all("skeleton_llm" not in r for r in rows.values())
    assert rows[("next_revision", "imo_1988_p6")]["undecided"]  # still named as undecided, with its pairs
    assert rows[("next_revision", "imo_1988_p6")]["undecided_atoms"]
    assert "Skeleton + LLM" not in (tmp_path / "r.summary.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------------------------
# The pieces


@pytest.mark.parametrize("text,expected", [
    ('{"same": true, "reason": "both are norm"}', (True, "both are norm")),
    ('{"same": false, "reason": "ℕ division"}', (False, "ℕ division")),
    ('{"same": null, "reason": "cannot tell"}', (None, "cannot tell")),
    ('Sure.\n```json\n{"same": true, "reason": "fenced"}\n```', (True, "fenced")),
    ('I think {"same": false, "reason": "in prose"} is right', (False, "in prose")),
    ('{"same": "true", "reason": "a string is not a boolean"}', "same is 'true', not true, false or null"),
    ('{"same": 1, "reason": "a number is not a boolean"}', "same is 1, not true, false or null"),
    ('{"same": true}', 'no "reason" string'),
    ('{"same": true, "reason": "  "}', 'no "reason" string'),
    ("They are the same.", 'no JSON object with a "same" field'),
])
def test_parse_same_is_strict(text, expected):
    assert parse_same(text) == expected


def _answer(same, status="ok"):
    return AtomAnswer("a", "b", status, same, "r" if status == "ok" else None)


@pytest.mark.parametrize("answers,verdict", [
    ([_answer(True)], "pass"),
    ([_answer(True), _answer(True)], "pass"),
    ([_answer(True), _answer(False)], "fail"),
    ([_answer(None), _answer(False)], "fail"),
    ([_answer(True), _answer(None)], "undecided"),
    ([_answer(True), _answer(None, "malformed")], "undecided"),
    ([_answer(None, "skipped")], "undecided"),
    ([], "undecided"),
])
def test_combine(answers, verdict):
    assert combine(answers) == verdict


class CountingModel:
    name = "counting"

    def __init__(self):
        self.calls = 0

    def complete(self, request):
        self.calls += 1
        return ChatResponse('{"same": true, "reason": "same constant"}', 10, 5, MODEL, {})


def _row(checks, atoms, undecided=True):
    score = CandidateScore(True, tuple(c.passed for c in checks if c.kind == "forward"),
                           all(c.passed for c in checks if c.kind == "backward"), skeleton=True, undecided=undecided)
    return ScoreRow("p", "s", "o", "kernel", "h", score, checks=checks, undecided_atoms=atoms)


def test_an_undecided_row_passes_only_when_its_failed_checks_are_exactly_the_roles():
    checks = [Check("t:forward:1", "forward", "t", False, "undecided", 1, True),
              Check("t:forward:2", "forward", "t", True, "passed", 2),
              Check("t:backward", "backward", "t", False, "undecided", None, True)]
    atoms = [{"target": "t", "pairs": [["Complex.abs z", "norm z"]], "roles": ["forward:1", "backward"]}]
    model = CountingModel()
    judge = AtomPairJudge(make_client("live", None, ProviderConfig(model=MODEL), provider=model))
    assert skeleton_llm_column(_row(checks, atoms), judge)["verdict"] == "pass"
    # a failed check the atom pairs do not account for: the model is not asked, the row stays undecided
    short = [{**atoms[0], "roles": ["forward:1"]}]
    column = skeleton_llm_column(_row(checks, short), judge)
    assert column["verdict"] == "undecided" and column["answers"] == []
    # the same question again is answered from this run's memo: one call in all
    skeleton_llm_column(_row(checks, atoms), judge)
    assert model.calls == 1 and judge.asked == 1


def test_question_shows_both_terms_their_opens_and_variable_types():
    decl = parse_declaration("theorem t (z : ℂ) (x : ℝ) [Field K] (h : 0 < x) : Complex.abs z = x")
    scope = term_scope("import Mathlib\nset_option maxHeartbeats 0\nopen Real\nnamespace Foo\n", decl)
    assert scope == TermScope(("open Real", "namespace Foo"), ("(z : ℂ)", "(x : ℝ)", "[Field K]"))
    [system, user] = question_messages(AtomQuestion("Complex.abs z", "norm z", scope, TermScope()))
    assert '{"same": true | false | null, "reason":' in system["content"]
    text = user["content"]
    assert "Complex.abs z" in text and "norm z" in text and "open Real" in text and "(z : ℂ)" in text
    assert "set_option" not in text and "(h : 0 < x)" not in text  # hypotheses are not variables


# ---------------------------------------------------------------------------------------------------------------
# The pairs benchmark: a skeleton + LLM recall / precision beside the skeleton's

DEV_PAIRS = Path(__file__).parent / "fixtures" / "pairs" / "dev_pairs.jsonl"
# real dev pairs: undecided same-meaning (`(x ^ 2 : ℝ)` vs ℕ `x ^ 2`), undecided changed (ℕ exponent), and a changed
# pair the skeleton fails outright (its first forward check differs structurally)
PAIR_IDS = ("minif2f/imo_1988_p6", "minif2f/mathd_algebra_114")


@pytest.mark.kernel
def test_pairs_benchmark_reports_a_skeleton_llm_column(tmp_path, monkeypatch, capsys):
    import importlib.util

    from pyshadow.kernel.pairs import read_pairs

    every = read_pairs(DEV_PAIRS)
    fails = [p for p in every if not p.same_meaning and p.diff == "hypothesis added/removed"][:2]
    chosen = [p for p in every if p.id in PAIR_IDS] + fails
    lines = [line for line in DEV_PAIRS.read_text(encoding="utf-8").splitlines()
             if json.loads(line)["id"] in {p.id for p in chosen}]
    subset = tmp_path / "pairs.jsonl"
    subset.write_text("\n".join(lines) + "\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("skeleton_pairs_bench", Path(__file__).parents[1] / "benchmarks"
                                                  / "skeleton_pairs.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)

    def answer(body):
        same = "1 / 3" not in body["messages"][1]["content"].split("## Term B", 1)[1]
        return Reply.text(json.dumps({"same": same, "reason": "scripted"}), model=MODEL)

    with FakeChatServer(answer) as server:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", server.base_url)
        assert bench.main([str(subset), "-o", str(tmp_path / "out.jsonl"), "--jobs", "1", "--llm", "live",
                           "--llm-model", MODEL]) == 0
    assert len(server.requests) == 2  # only the two undecided pairs' atom pairs
    out = capsys.readouterr().out
    header, _, overall = out.splitlines()[:3]
    assert "skeleton+LLM: same-meaning passed" in header
    # skeleton: 0 same-meaning passed (its pair is undecided); skeleton + LLM: 1/1, and no changed pair passes
    assert overall.startswith(f"| **all pairs** | {len(chosen)} | 0/1 | 0/{len(chosen) - 1} | 2 |")
    assert overall.endswith(f" 1/1 | 0/{len(chosen) - 1} | 0 | 100.0% | 100.0% |")
    rows = {r["id"]: r for r in map(json.loads, (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines())}
    assert rows[PAIR_IDS[0]]["verdict"] == "undecided" and rows[PAIR_IDS[0]]["skeleton_llm"]["verdict"] == "pass"
    assert rows[PAIR_IDS[1]]["skeleton_llm"]["verdict"] == "fail"
    assert all(rows[p.id]["skeleton_llm"] == {"verdict": "fail", "answers": []} for p in fails)


@pytest.mark.kernel
def test_report_shows_both_columns_and_a_spent_budget_leaves_rows_undecided(replayed, tmp_path, monkeypatch):
    first, _ = replayed
    assert main(["report", str(first), "-o", str(tmp_path / "report")]) == 0
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "Skeleton SA-Pass and skeleton + LLM" in report and "not a Lean check" in report
    assert (tmp_path / "report" / "skeleton_llm.csv").read_text(encoding="utf-8").splitlines()[2] == \
        "next_revision,2,0,2,1,1,0,0.0,50.0,0"
    with FakeChatServer(lambda body: Reply.text('{"same": true, "reason": "x"}')) as server:
        monkeypatch.setenv("PYSHADOW_LLM_BASE_URL", server.base_url)
        rows = score(tmp_path / "r.jsonl", "--llm", "live", "--llm-model", MODEL, "--llm-budget-calls", "0")
    assert server.requests == []
    column = rows[("next_revision", "imo_1988_p6")]["skeleton_llm"]
    assert column["verdict"] == "undecided" and column["answers"][0]["status"] == "skipped"
