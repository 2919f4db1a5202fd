"""Two submission kinds (issue 24): ``proofs = "required"`` (ShadowBench: `sorry` fails) and ``proofs = "ignored"``
(statement benchmarks: `sorry` in a theorem's proof allowed and reported, the statement judged) — the bundled
statement-benchmark samples in both kinds, where the kind is chosen, the `sorry` rule, and the full tier's
statement-as-hypothesis checkers (text, and the mechanism in prelude-mode Lean)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest_lean import PRELUDE_HEADER
from pyshadow.cli import main
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.problems import ProblemError, load_problem, load_project_settings, load_sample_candidates
from pyshadow.score.audit import audit
from pyshadow.score.candidates import Candidate
from pyshadow.score.checker_file import CheckerFile, Role
from pyshadow.score.checker_texts import _HEAD, STATEMENT_HYPOTHESIS, statement_as_hypothesis
from pyshadow.score.full import candidate_check_file
from pyshadow.score.full_run import FullTask, run_full_task
from pyshadow.score.pipeline import prepare_candidate, prepare_problem, proof_sorries

PROBLEM = PROBLEMS_DIR / "nat_lt_iff_add_one_le"
STATEMENT_SET = ("faithful_sorry", "weakened_sorry", "changed_sorry", "cheating_sorry_def")


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _samples(path: Path) -> dict:
    samples = {s.name: s for s in load_sample_candidates(load_problem(PROBLEM))}
    assert set(STATEMENT_SET) <= set(samples)
    path.write_text("".join(json.dumps({"problem_id": PROBLEM.name, "system": name,
                                        "code": s.path.read_text(encoding="utf-8")}) + "\n"
                            for name, s in samples.items()), encoding="utf-8")
    return samples


@pytest.mark.kernel
@pytest.mark.parametrize("proofs", ["required", "ignored"])
def test_statement_benchmark_samples_in_both_submission_kinds(tmp_path, capsys, kernel_lean_exe, proofs):
    samples = _samples(tmp_path / "c.jsonl")
    results = tmp_path / "r.jsonl"
    assert main(["score", str(PROBLEMS_DIR), str(tmp_path / "c.jsonl"), "-o", str(results), "--tier", "kernel",
                 "--proofs", proofs]) == 0
    out = capsys.readouterr().out
    assert f'proofs = "{proofs}"' in out
    rows = {r["system"]: r for r in _rows(results)}
    for name, sc in samples.items():
        r = rows[name]
        got = (all(r["forward"]), r["backward"], "flagged" if r["audit"] else "clean", r["sa_pass"])
        assert got == (sc.forward, sc.backward, sc.audit_under(proofs), sc.sa_pass_under(proofs)), name
        assert r["proofs"] == proofs and r["proof"] == "not checked"
        # every file of the statement set has a `sorry` in its theorem's proof: reported when proofs are ignored
        assert bool(r.get("sorry")) == (proofs == "ignored" and name in STATEMENT_SET), name
    assert rows["faithful_sorry"]["sa_pass"] == (proofs == "ignored")
    assert rows["changed_sorry"]["bucket"] == ("neither" if proofs == "ignored" else "audit_failed")
    summary = (tmp_path / "r.summary.md").read_text(encoding="utf-8")
    assert f'Submission kind: proofs = "{proofs}"' in summary
    assert main(["report", str(results), "-o", str(tmp_path / "rep"), "--no-plots"]) == 0
    assert f'proofs = "{proofs}"' in (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")


@pytest.mark.kernel
def test_the_kind_comes_from_the_set_the_problem_and_the_option(tmp_path, capsys, kernel_lean_exe):
    problems = tmp_path / "problems"
    shutil.copytree(PROBLEM, problems / PROBLEM.name, ignore=shutil.ignore_patterns("candidates"))
    cand = tmp_path / "c.jsonl"
    cand.write_text(json.dumps({"problem_id": PROBLEM.name, "system": "s",
                                "code": (PROBLEM / "candidates" / "faithful_sorry.lean").read_text()}) + "\n")

    def passed(*extra: str) -> bool:
        out = tmp_path / f"r{len(list(tmp_path.glob('r*.jsonl')))}.jsonl"
        assert main(["score", str(problems), str(cand), "-o", str(out), "--tier", "kernel", *extra]) == 0
        capsys.readouterr()
        return _rows(out)[0]["sa_pass"]

    assert not passed()  # the default: proofs required
    (problems / "pyshadow.toml").write_text('proofs = "ignored"\n', encoding="utf-8")
    assert load_project_settings(problems).proofs == "ignored"
    assert passed()
    assert not passed("--proofs", "required")  # the option overrides the set
    toml = problems / PROBLEM.name / "problem.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("targets =", 'proofs = "required"\ntargets ='),
                    encoding="utf-8")
    assert load_problem(problems / PROBLEM.name).proofs == "required"
    assert not passed()  # the problem's own kind beats the set's
    (problems / "pyshadow.toml").write_text('proofs = "maybe"\n', encoding="utf-8")
    with pytest.raises(ProblemError, match="field 'proofs': expected one of required, ignored"):
        load_project_settings(problems)


def test_only_a_sorry_in_a_theorems_proof_is_allowed():
    code = ("def w : Int := sorry\n\ntheorem t (a : Int) : a = a := by\n  sorry\n\n"
            "example : True := by sorry\n\ntheorem u : (sorry : Prop) := trivial\n")
    findings = audit(code)
    assert [f.line for f in findings if f.kind == "sorry"] == [1, 4, 6, 8]
    kept, allowed = proof_sorries(code, findings, "ignored")
    assert [f.line for f in allowed] == [4, 6]
    assert [f.line for f in kept] == [1, 8]  # a definition's body, a statement: they say what is meant
    assert proof_sorries(code, findings, "required") == (findings, [])


def _prepared(proofs: str):
    info = prepare_problem(load_problem(PROBLEMS_DIR / "nat_pos_facts"))
    code = ("namespace NatPos\ntheorem pos_facts {n : Nat} (h : n > 0) : n ≠ 0 ∧ 1 ≤ n ∧ n - 1 + 1 = n := by\n"
            "  sorry\nend NatPos\n")
    return prepare_candidate(Candidate("nat_pos_facts", "s", code, "x"), info, "full", "fp", proofs=proofs)


def test_full_tier_checkers_take_the_statement_as_a_hypothesis_when_proofs_are_ignored():
    ignored, required = _prepared("ignored"), _prepared("required")
    assert not ignored.flagged and [f.line for f in ignored.sorry] == [3]
    assert required.flagged and required.content_hash != ignored.content_hash
    text = candidate_check_file(ignored, nonce="n").text
    forward = [block for block in text.split("#print axioms") if "theorem shadow_nat_pos_facts_" in block
               and "_complete" not in block and "_backward" not in block]
    assert len(forward) == 4
    for block in forward:
        assert f"({STATEMENT_HYPOTHESIS} : type_of% @NatPos.pos_facts)" in block
        assert "@NatPos.pos_facts n" not in block and f"@{STATEMENT_HYPOTHESIS} n" in block
    assert "#print axioms NatPos.pos_facts\n" not in text  # the candidate's own axioms (its proof) are not judged
    # the mutation partner: with proofs required the checkers apply the candidate, whose axioms are judged
    strict = candidate_check_file(required, nonce="n").text
    assert STATEMENT_HYPOTHESIS not in strict and "#print axioms NatPos.pos_facts\n" in strict
    assert "@NatPos.pos_facts n" in strict


MODULE = PRELUDE_HEADER + """\
axiom sorryAx (α : Sort u) : α
structure And (a b : Prop) : Prop where
  intro ::
  left : a
  right : b
noncomputable def Q' : Prop := sorryAx Prop
namespace Cand
theorem main {P Q : Prop} (hp : P) (hq : Q) : And P Q := sorryAx _
theorem bad (P : Prop) (hp : P) (hq : Q') : And P Q' := sorryAx _
end Cand
"""


def _hypothesis_checks(head: str, statement: str) -> CheckerFile:
    """A forward checker written against the placeholder head, as the generator writes it, made to take the
    statement as a hypothesis by ``statement_as_hypothesis``."""
    file = CheckerFile()
    file.add("prelude\nimport PyshadowCandidate\nnamespace PyshadowChecks")
    args = "P Q" if "Q " in statement else "P"
    text = statement_as_hypothesis(f"theorem fwd_1 {statement} : P :=\n  (@{_HEAD} {args} hp hq).1")
    text = text.replace(_HEAD, head)
    file.add_checker("PyshadowChecks.fwd_1", text, Role("forward", head, 1))
    file.add("end PyshadowChecks")
    return file


@pytest.mark.kernel
def test_statement_as_hypothesis_in_lean_ignores_the_proof_not_the_definitions(kernel_lean_exe):
    good = _hypothesis_checks("Cand.main", "(P Q : Prop) (hp : P) (hq : Q)")
    outcome = run_full_task(FullTask("k", MODULE, good.text, tuple(good.spans), good.roles, timeout_s=60),
                            kernel_lean_exe)
    assert outcome.compiled and [(c.kind, c.passed) for c in outcome.checks] == [("forward", True)]
    # the mutation partner: the statement itself rests on a `sorry` (a definition), which the checker's axioms show
    bad = _hypothesis_checks("Cand.bad", "(P : Prop) (hp : P) (hq : Q')")
    outcome = run_full_task(FullTask("k", MODULE, bad.text, tuple(bad.spans), bad.roles, timeout_s=60),
                            kernel_lean_exe)
    assert [c.passed for c in outcome.checks] == [False] and "sorryAx" in outcome.checks[0].message


@pytest.mark.kernel
def test_every_bundled_sample_as_expected_when_proofs_are_ignored(tmp_path, capsys, kernel_lean_exe):
    """The whole bundled sample set scored as a statement benchmark: each sample's ``audit_under("ignored")``."""
    from pyshadow.problems import load_problems

    expected = {}
    with (tmp_path / "all.jsonl").open("w", encoding="utf-8") as fh:
        for p in load_problems(PROBLEMS_DIR)[0]:
            for sc in load_sample_candidates(p):
                fh.write(json.dumps({"problem_id": p.id, "system": sc.name,
                                     "code": sc.path.read_text(encoding="utf-8")}) + "\n")
                expected[(p.id, sc.name)] = sc
    results = tmp_path / "r.jsonl"
    assert main(["score", str(PROBLEMS_DIR), str(tmp_path / "all.jsonl"), "-o", str(results), "--tier", "kernel",
                 "--proofs", "ignored", "-j", "2"]) == 0
    capsys.readouterr()
    wrong = {}
    for r in _rows(results):
        sc = expected[(r["problem_id"], r["system"])]
        if not sc.matches(r, "kernel", "ignored"):
            wrong[sc.name] = (all(r["forward"]), r["backward"], r["audit"], r["sa_pass"], r.get("undecided"))
    assert not wrong
    assert sum(sc.proof_sorry for sc in expected.values()) >= 6  # the statement set and the abridged J.4/J.5 files
