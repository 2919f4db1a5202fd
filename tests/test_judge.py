"""``pyshadow judge``: replay from the recorded fixture cache (identical rows twice), aggregates, malformed answers
retried then recorded as errors, ``--llm none`` refused plainly."""

import json
from pathlib import Path

import pytest

from pyshadow.cli import main
from pyshadow.llm import ChatResponse, ProviderConfig, make_client
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.problems import load_problem
from pyshadow.score.candidates import Candidate
from pyshadow.score.judge import (
    JudgeSettings,
    consensus,
    judge_candidate,
    majority,
    parse_verdict,
)
from pyshadow.score.pipeline import prepare_problem

FIXTURE = Path(__file__).parent / "fixtures" / "judge"
CANDIDATES = PROBLEMS_DIR / "nat_pos_facts" / "candidates"


def _judge(tmp_path, name, *extra):
    out = tmp_path / name
    code = main(["judge", str(PROBLEMS_DIR), str(CANDIDATES), "-o", str(out), "--judges",
                 "fake-judge-a,fake-judge-b", "--votes", "2", "--llm", "replay", "--llm-cache",
                 str(FIXTURE / "cache"), *extra])
    return code, out


def _without_origin(text):
    rows = [json.loads(line) for line in text.splitlines()]
    for r in rows:
        r.pop("origin")
    return rows


def test_replay_gives_identical_rows_twice(tmp_path, capsys):
    code1, first = _judge(tmp_path, "a.jsonl")
    code2, second = _judge(tmp_path, "b.jsonl")
    assert code1 == code2 == 0
    assert first.read_bytes() == second.read_bytes()
    expected = _without_origin((FIXTURE / "expected.jsonl").read_text(encoding="utf-8"))
    assert _without_origin(first.read_text(encoding="utf-8")) == expected
    assert "0 calls" in capsys.readouterr().out  # replay never calls a model


def test_fixture_rows_aggregate_votes():
    rows = {r["system"]: r for r in _without_origin((FIXTURE / "expected.jsonl").read_text(encoding="utf-8"))}
    assert rows["faithful"]["consensus"] == "correct" and rows["faithful"]["majority_all"] == "correct"
    assert rows["weakened"]["consensus"] == "incorrect"
    # judge b answered the weakened candidate in prose first: asked again, then a verdict
    assert [v["attempts"] for v in rows["weakened"]["judges"]["fake-judge-b"]["votes"]] == [2, 2]
    # judge b's two votes on the sorry candidate disagree: its majority is uncertain, so no strict consensus
    cheating = rows["cheating"]
    assert cheating["judges"]["fake-judge-b"]["majority"] == "uncertain"
    assert cheating["consensus"] == "incorrect" and cheating["majority_all"] == "correct"  # 3 of 4 votes


def test_llm_none_says_judging_needs_a_model(tmp_path, capsys):
    code = main(["judge", str(PROBLEMS_DIR), str(CANDIDATES), "-o", str(tmp_path / "j.jsonl")])
    assert code == 2
    err = capsys.readouterr().err
    assert "judging needs a model" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "j.jsonl").exists()


def test_replay_miss_stops_the_run(tmp_path, capsys):
    code = main(["judge", str(PROBLEMS_DIR), str(CANDIDATES), "-o", str(tmp_path / "j.jsonl"), "--judges",
                 "another-model", "--llm", "replay", "--llm-cache", str(FIXTURE / "cache")])
    assert code == 2 and "no recorded LLM answer" in capsys.readouterr().err


class _Always:
    name = "always"

    def __init__(self, text):
        self.text = text
        self.requests = []

    def complete(self, request):
        self.requests.append(request)
        return ChatResponse(self.text, 10, 5, request.model, {})


def _one_candidate():
    info = prepare_problem(load_problem(PROBLEMS_DIR / "nat_pos_facts"))
    code = (CANDIDATES / "faithful_implicit_gt.lean").read_text(encoding="utf-8")
    return info, Candidate("nat_pos_facts", "s", code, "faithful_implicit_gt.lean")


def test_malformed_answers_are_retried_then_recorded_as_errors(tmp_path):
    provider = _Always('{"verdict": "probably fine", "reason": "x"}')
    client = make_client("live", None, ProviderConfig(model="m"), provider=provider)
    info, cand = _one_candidate()
    row = judge_candidate(client, JudgeSettings(("m",), votes=1, retries=2), info, cand)
    vote = row["judges"]["m"]["votes"][0]
    assert vote["status"] == "malformed" and vote["attempts"] == 3 and vote["verdict"] is None
    assert "not one of correct, incorrect, uncertain" in vote["error"]
    assert len(provider.requests) == 3
    # each retry carries the bad answer and what was wrong, so it is a new request (its own cache key)
    assert [len(r.messages) for r in provider.requests] == [2, 4, 6]
    assert row["judges"]["m"]["majority"] is None and row["consensus"] is None and row["errors"] == 1
    assert client.accounting.outcome_counts()["rejected"] == 1


def test_prompt_has_informal_rules_reference_without_proof_and_candidate():
    provider = _Always('{"verdict": "correct", "reason": "same statement"}')
    client = make_client("live", None, ProviderConfig(model="m"), provider=provider)
    info, cand = _one_candidate()
    judge_candidate(client, JudgeSettings(("m",)), info, cand)
    user = provider.requests[0].messages[1]["content"]
    assert info.problem.informal_statement.strip() in user
    assert info.problem.rules.strip() in user
    assert "sorry" in user and "omega" not in user.split("## Candidate")[0]  # the reference's proof is hidden
    assert cand.code.strip() in user
    assert provider.requests[0].extra == {}  # one vote: no seed parameter


def test_parse_verdict_spellings():
    assert parse_verdict('{"verdict": "Correct", "reason": " fine  "}') == ("correct", "fine")
    assert parse_verdict('x\n```json\n{"verdict": "incorrect", "reason": "weaker"}\n```\n') == ("incorrect", "weaker")
    assert parse_verdict('prose {"verdict": "uncertain", "reason": "cut off"} more') == ("uncertain", "cut off")
    assert isinstance(parse_verdict("correct"), str)
    assert isinstance(parse_verdict('{"verdict": "correct"}'), str)


@pytest.mark.parametrize(("votes", "expected"), [
    (["correct", "correct", "incorrect"], "correct"),
    (["correct", "incorrect"], "uncertain"),
    (["uncertain", "uncertain", "correct"], "uncertain"),
    ([None, "incorrect"], "incorrect"),
    ([None, None], None),
])
def test_majority(votes, expected):
    assert majority(votes) == expected


def test_strict_consensus():
    assert consensus({"a": "correct", "b": "correct"}) == "correct"
    assert consensus({"a": "correct", "b": "uncertain"}) == "incorrect"
    assert consensus({"a": "correct", "b": None}) is None


def test_judge_rows_feed_agree(tmp_path, capsys):
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps({"problem_id": "nat_pos_facts", "system": s, "aligned": s == "faithful"})
                              + "\n" for s in ("faithful", "weakened", "cheating")), encoding="utf-8")
    assert main(["agree", "--labels", str(labels), str(FIXTURE / "expected.jsonl"), "-o", str(tmp_path / "a"),
                 "--no-plots"]) == 0
    report = json.loads((tmp_path / "a" / "agreement.json").read_text(encoding="utf-8"))
    by_metric = {r["metric"]: r for r in report["overall"]}
    assert set(by_metric) == {"judge fake-judge-a", "judge fake-judge-b", "judges: majority of votes",
                              "judges: strict consensus"}
    assert by_metric["judges: strict consensus"]["agreement"] == 1.0  # the sorry candidate: no consensus
    assert by_metric["judge fake-judge-a"]["fp"] == 1  # judge a passes the sorry candidate
    assert by_metric["judge fake-judge-b"]["decided"] == 2  # its tie on the sorry candidate decides nothing
