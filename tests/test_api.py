"""The public API (``pyshadow.api``, docs/api.md): the documented examples run, each function on the bundled problems
and on real labelled pairs, bad input as one-line errors, ``Settings`` from code / environment / CLI, and an import
of ``pyshadow`` that does nothing."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pyshadow
from pyshadow.kernel.pairs import evaluate, read_pairs

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "api.md"
PAIRS = ROOT / "tests" / "fixtures" / "pairs" / "dev_pairs.jsonl"
SAMPLES = ROOT / "problems" / "nat_double_add" / "candidates"


def doc_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


@pytest.fixture(scope="module")
def problems():
    return pyshadow.load_problems(ROOT / "problems")


# ---------------------------------------------------------------------------------------------------------------
# docs/api.md


@pytest.mark.kernel
def test_every_python_block_of_the_api_doc_runs(monkeypatch, kernel_lean_exe, capsys):
    """The blocks run in order in one namespace from the repository root, as a notebook would run them."""
    blocks = doc_blocks()
    assert len(blocks) >= 9
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"{DOC}: python block {number}", "exec"), namespace)
    assert "SA-Pass True" in capsys.readouterr().out  # the sample table printed a passing faithful sample


def test_the_first_example_scores_a_candidate_in_at_most_five_lines():
    first = [line for line in doc_blocks()[0].splitlines() if line.strip()]
    assert len(first) <= 5 and any("pyshadow.score(" in line for line in first)


# ---------------------------------------------------------------------------------------------------------------
# Importing pyshadow does nothing


def test_import_loads_no_module_starts_no_lean_and_creates_no_folder(tmp_path):
    env = {**os.environ, "PYSHADOW_CACHE": str(tmp_path / "cache"), "XDG_CACHE_HOME": str(tmp_path / "xdg"),
           "HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    code = ("import sys, pyshadow\n"
            "names = sorted(m for m in sys.modules if m.startswith('pyshadow'))\n"
            "s = pyshadow.Settings.from_env()\n"
            "print(names, pyshadow.__version__, type(s).__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True,
                         cwd=tmp_path).stdout
    assert out.split() == ["['pyshadow']", pyshadow.__version__, "Settings"]
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_every_exported_name_resolves_and_the_subpackages_stay_modules():
    for name in pyshadow.__all__:
        assert getattr(pyshadow, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'scor'"):
        pyshadow.scor  # noqa: B018
    import pyshadow.score.metrics as metrics
    import pyshadow.shadows.checkers as checkers

    assert callable(pyshadow.score) and callable(pyshadow.shadows)
    assert pyshadow.score.metrics is metrics and pyshadow.shadows.checkers is checkers
    assert pyshadow.check_pair is pyshadow.api.check_pair


def test_result_types_are_frozen_and_document_every_field():
    api_types = [pyshadow.ScoreRow, pyshadow.Check, pyshadow.ProblemReport, pyshadow.TargetReport,
                 pyshadow.PairVerdict, pyshadow.ShadowSet, pyshadow.Shadow, pyshadow.ProblemSet, pyshadow.Settings,
                 pyshadow.LLMSettings, pyshadow.Pair]
    for cls in api_types:
        assert cls.__dataclass_params__.frozen, cls
        source = Path(sys.modules[cls.__module__].__file__).read_text(encoding="utf-8")
        body = source[source.index(f"class {cls.__name__}"):]
        for f in dataclasses.fields(cls):  # each field is followed by its docstring
            assert re.search(rf"\n    {f.name}: [^\n]+\n    \"\"\"", body), f"{cls.__name__}.{f.name} has no docstring"
    assert "sa_pass" in {f.name for f in dataclasses.fields(pyshadow.ScoreRow)}


# ---------------------------------------------------------------------------------------------------------------
# load_problems, score, verify on the bundled problems


def test_load_problems_reads_the_bundled_set(problems):
    assert len(problems) == len(list((ROOT / "problems").glob("*/problem.toml"))) and problems.errors == ()
    assert problems["nat_double_add"].targets == ("Doubling.double_add",)
    with pytest.raises(pyshadow.BadInput, match="no problem 'nope' in"):
        problems["nope"]


def test_load_problems_keeps_a_malformed_problem_as_an_error(tmp_path, problems):
    import shutil

    shutil.copytree(problems["nat_double_add"].folder, tmp_path / "nat_double_add")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "problem.toml").write_text('id = "broken"\n', encoding="utf-8")
    loaded = pyshadow.load_problems(tmp_path)
    assert loaded.ids == ("nat_double_add",) and len(loaded.errors) == 1 and "broken" in str(loaded.errors[0])


@pytest.mark.kernel
def test_score_reads_the_sample_layout_and_matches_expected_toml(problems, kernel_lean_exe):
    """Every bundled sample candidate gets the skeleton verdicts its expected.toml states (and a flagged audit
    never passes)."""
    import tomllib

    rows = pyshadow.score(problems, ROOT / "problems", settings=pyshadow.Settings(jobs=2))
    expected = {}
    for path in sorted((ROOT / "problems").glob("*/candidates/expected.toml")):
        for name, e in tomllib.loads(path.read_text(encoding="utf-8")).items():
            expected[str(path.parent / f"{name}.lean")] = e
    assert len(rows) == len(expected)
    for row in rows:
        e = expected[row.origin]
        assert row.tier == "kernel" and row.problem_id in row.origin
        assert bool(row.audit) == (e["audit"] == "flagged"), row.origin
        if e.get("kernel") == "undecided":  # strict scoring: Lean cannot check it here (the entry's note)
            assert row.undecided and not row.sa_pass, row.origin
            continue
        assert row.sa_pass == (e["forward"] and e["backward"] and e["audit"] == "clean"), row.origin
        if e["audit"] == "clean":
            assert all(row.forward) == e["forward"] and row.backward == e["backward"], row.origin
        assert row.to_dict()["sa_pass"] == row.sa_pass and row.to_dict()["content_hash"] == row.content_hash


@pytest.mark.kernel
def test_score_code_mapping_and_candidates_agree(problems, kernel_lean_exe):
    problem = problems["nat_double_add"]
    code = (SAMPLES / "faithful_renamed_aux.lean").read_text(encoding="utf-8")
    changed = code.replace("(m + n) = twice m + twice n", "(m + n) = twice m * twice n")
    rows = pyshadow.score(problems, [pyshadow.Candidate(problem.id, "a", code, "x.lean"),
                                     pyshadow.Candidate(problem.id, "b", changed, "y.lean")])
    assert [r.sa_pass for r in rows] == [True, False]
    assert rows[1].failed_checks and all(not c.passed and c.message for c in rows[1].failed_checks)
    assert rows[0].declarations == {"Doubling.double_add": "Doubling.double_add"}
    (same,) = pyshadow.score(problem, code)
    assert same.sa_pass and same.system == "api" and same.origin == "<api:nat_double_add>"
    assert [c.passed for c in same.checks] == [c.passed for c in rows[0].checks]


@pytest.mark.kernel
def test_score_of_a_candidate_whose_statement_does_not_parse_is_a_failed_row(problems, kernel_lean_exe):
    (row,) = pyshadow.score(problems["nat_double_add"],
                            "namespace Doubling\ntheorem double_add (m n : Nat) : (m + := rfl\nend Doubling\n")
    assert not row.sa_pass and not row.compiled and "does not parse" in row.reason


def test_score_refuses_a_path_given_as_text_and_an_unknown_problem(problems):
    with pytest.raises(pyshadow.BadInput, match=r"looks like a path; pass pathlib.Path"):
        pyshadow.score(problems["nat_double_add"], "candidates.jsonl")
    with pytest.raises(pyshadow.BadInput, match="code as a str is the candidate of one problem"):
        pyshadow.score(problems, "theorem t : True := trivial\n")
    with pytest.raises(pyshadow.BadInput, match="nothing scored.*unknown problem 'nope'"):
        pyshadow.score(problems, {"nope": "theorem t : True := trivial"})
    with pytest.raises(pyshadow.BadInput, match="no/such/path: no such file or folder"):
        pyshadow.score(problems, Path("no/such/path"))


@pytest.mark.kernel
def test_verify_reports_every_bundled_problem_complete(problems, kernel_lean_exe):
    reports = pyshadow.verify(problems, settings=pyshadow.Settings(jobs=2))
    assert [r.problem_id for r in reports] == list(problems.ids)
    assert all(r.complete and r.tier == "kernel" for r in reports)
    assert all(c.passed and c.message.startswith("passed") for r in reports for t in r.targets for c in t.checks)
    assert {r.status for r in reports} <= {"complete", "complete (identity shadow only)"}



@pytest.mark.kernel
def test_verify_reports_equal_the_cli_report(tmp_path, problems, kernel_lean_exe):
    from pyshadow.cli import main

    out = tmp_path / "report.jsonl"
    assert main(["verify", str(ROOT / "problems"), "-o", str(out), "--tier", "kernel", "-j", "2"]) == 0
    cli = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    api = [json.loads(json.dumps(r.to_dict())) for r in pyshadow.verify(problems, settings=pyshadow.Settings(jobs=2))]
    assert api == cli and len(api) == len(problems)


@pytest.mark.kernel
def test_verify_with_mutants_and_an_unloadable_problem(tmp_path, problems, kernel_lean_exe):
    import shutil

    shutil.copytree(problems["prop_and_assoc"].folder, tmp_path / "prop_and_assoc")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "problem.toml").write_text('id = "broken"\n', encoding="utf-8")
    reports = pyshadow.verify(tmp_path, mutate=True)
    assert [r.problem_id for r in reports] == ["prop_and_assoc", None]
    good, broken = reports
    assert good.complete and good.targets[0].extra["mutants_rejected"]
    assert all(good.targets[0].extra["mutants_rejected"].values())
    assert not broken.complete and broken.status == "incomplete" and "broken" in broken.origin and broken.error


# ---------------------------------------------------------------------------------------------------------------
# check_pair / check_pairs on real labelled pairs, shadows


@pytest.fixture(scope="module")
def sampled_pairs():
    """Every sixth development pair (51 of 305, both labels, several families): a deterministic sample."""
    return read_pairs(PAIRS)[::6]


@pytest.mark.kernel
def test_check_pairs_agrees_with_the_pairs_benchmark(sampled_pairs, kernel_lean_exe):
    verdicts = pyshadow.check_pairs([pyshadow.Pair(p.a, p.b, p.a_context, p.b_context, p.id)
                                     for p in sampled_pairs], settings=pyshadow.Settings(jobs=2))
    benchmark = evaluate(sampled_pairs, kernel_lean_exe, n_jobs=2, strict=True)  # the API's default
    assert [v.verdict for v in verdicts] == [r.verdict for r in benchmark]
    assert [v.key for v in verdicts] == [p.id for p in sampled_pairs]
    labels = {(p.same_meaning, v.verdict) for p, v in zip(sampled_pairs, verdicts)}
    assert (True, "pass") in labels and (False, "fail") in labels and (False, "pass") not in labels
    for v in verdicts:
        assert v.sa_pass == (v.verdict == "pass") and (v.reason is None) == v.sa_pass
        # undecided: atom pairs the kernel tier cannot judge, Lean's rejection of the skeleton's terms, or (strict
        # scoring, the default) a pass Lean could not check
        assert v.verdict != "undecided" or v.undecided_pairs or v.lean in ("rejected", "unchecked")


@pytest.mark.kernel
def test_check_pair_passes_a_real_same_meaning_pair_and_fails_its_changed_partner(kernel_lean_exe):
    pairs = {p.id: p for p in read_pairs(PAIRS)}
    same = pairs["minif2f/mathd_numbertheory_466"]  # `∑ k ∈ s` vs `∑ k in (s)`: notation only
    slip = pairs["minif2f/induction_sum_odd"]  # `∑ k in range n, 2 * k + 1` is `(∑ 2 * k) + 1`: changed
    assert same.same_meaning and not slip.same_meaning
    ok = pyshadow.check_pair(same.a, same.b, context=same.a_context, candidate_context=same.b_context)
    assert ok.verdict == "pass" and ok.sa_pass and all(ok.forward) and ok.backward and ok.shadows
    assert ok.lean in ("accepted", "equal")  # Lean checked the pass against the elaborated statements
    changed = pyshadow.check_pair(slip.a, slip.b, context=slip.a_context, candidate_context=slip.b_context)
    assert changed.verdict == "fail" and not changed.sa_pass and changed.messages and changed.reason
    # The nearest mutation of the passing pair: its constant changed.
    mutated = pyshadow.check_pair(same.a, same.b.replace("% 9 = 1", "% 9 = 2"), context=same.a_context,
                                  candidate_context=same.b_context)
    assert not mutated.sa_pass


def test_check_pair_bad_input_is_one_line():
    with pytest.raises(pyshadow.StatementError, match=r"^the candidate statement does not parse \(pyshadow's "
                                                      r"parser\): unclosed '\(' \(line 1, column 12\)$"):
        pyshadow.check_pair("theorem t : True", "theorem t : (")
    with pytest.raises(pyshadow.StatementError, match="^the reference statement does not parse"):
        pyshadow.check_pair("x = x", "theorem t : True")
    with pytest.raises(pyshadow.Unavailable, match="full tier does not judge bare statements"):
        pyshadow.check_pair("theorem t : True", "theorem t : True", tier="full")
    with pytest.raises(pyshadow.BadInput, match="tier 'fast'"):
        pyshadow.check_pair("theorem t : True", "theorem t : True", tier="fast")


def test_shadows_of_a_statement_and_bad_statements():
    found = pyshadow.shadows("theorem t (a b : Nat) : a < b ↔ a + 1 ≤ b", mathlib=False)
    assert found.name == "t" and found.status == "decomposed" and len(found.forward_checkers) == len(found) == 2
    assert [(s.kind, s.statement) for s in found] == [("iff_mp", "a < b → a + 1 ≤ b"),
                                                      ("iff_mpr", "a + 1 ≤ b → a < b")]
    assert found.backward_checker.count("theorem") == 1 and "theorem shadow_t_1" in found.forward_checkers[0]
    atomic = pyshadow.shadows("theorem u (n : Nat) : n ∣ n * 2", mathlib=False)
    assert atomic.status == "atomic" and [s.kind for s in atomic] == ["identity"]
    with pytest.raises(pyshadow.StatementError, match="^the statement does not parse"):
        pyshadow.shadows("theorem t : (")
    with pytest.raises(pyshadow.StatementError, match="^the statement cannot be checked: an anonymous `example`"):
        pyshadow.shadows("example : True")
    data = pyshadow.shadows("def f : Nat := 3")  # a data declaration states that its type is inhabited
    assert [s.statement for s in data] == ["Nonempty (Nat)"]


# ---------------------------------------------------------------------------------------------------------------
# Settings


def test_settings_from_the_environment_and_its_errors():
    env = {"PYSHADOW_TIER": "kernel", "PYSHADOW_JOBS": "3", "PYSHADOW_TIMEOUT": "9.5", "PYSHADOW_MEMORY": "512M",
           "PYSHADOW_BACKEND": "dask", "PYSHADOW_RESULT_CACHE": "/tmp/r", "PYSHADOW_LLM": "replay",
           "PYSHADOW_LLM_CACHE": "/tmp/l", "PYSHADOW_LLM_MODEL": "m", "PYSHADOW_LLM_API_KEY": "sk-secret",
           "PYSHADOW_LLM_BUDGET_CALLS": "7", "PYSHADOW_CACHE": "/tmp/toolchain-root-is-not-a-field"}
    s = pyshadow.Settings.from_env(env)
    assert (s.tier, s.jobs, s.timeout, s.memory_mb, s.backend, s.cache) == ("kernel", 3, 9.5, 512, "dask",
                                                                             Path("/tmp/r"))
    assert (s.llm.mode, s.llm.cache, s.llm.model, s.llm.budget_calls) == ("replay", Path("/tmp/l"), "m", 7)
    assert "sk-secret" not in repr(s) and s.llm.api_key == "sk-secret"
    assert s.lean.jobs == 3 and s.lean.cache == Path("/tmp/r") and s.lean.memory_mb == 512
    assert pyshadow.Settings.from_env({}) == pyshadow.Settings()
    assert pyshadow.Settings.from_env(env, jobs=1).jobs == 1
    for variable, value, message in [("PYSHADOW_JOBS", "many", "expected a whole number"),
                                     ("PYSHADOW_MEMORY", "lots", "expected a size"),
                                     ("PYSHADOW_TIER", "fast", "expected one of kernel, full"),
                                     ("PYSHADOW_LLM", "always", "expected one of none, replay")]:
        with pytest.raises(pyshadow.BadInput, match=f"^{variable}: {message}"):
            pyshadow.Settings.from_env({variable: value})


def test_settings_validate_their_fields():
    for bad in ({"jobs": 0}, {"timeout": -1}, {"memory_mb": 0}, {"backend": "slurm"}, {"tier": "fast"}):
        with pytest.raises(pyshadow.BadInput, match=f"Settings: {next(iter(bad))}"):
            pyshadow.Settings(**bad)
    with pytest.raises(pyshadow.BadInput, match="llm.mode 'always'"):
        pyshadow.LLMSettings(mode="always")
    assert pyshadow.Settings(cache="/tmp/x").cache == Path("/tmp/x")


def test_settings_from_cli_args_match_the_commands_lean_settings():
    from pyshadow.commands.common import add_lean_arguments, lean_settings
    from pyshadow.llm import MODES, add_llm_arguments
    from pyshadow.settings import LLM_MODES

    assert tuple(MODES) == LLM_MODES
    parser = argparse.ArgumentParser()
    add_lean_arguments(parser)
    add_llm_arguments(parser)
    args = parser.parse_args(["--tier", "kernel", "-j", "2", "--timeout", "30", "--cache", "c", "--llm", "replay",
                              "--llm-cache", "l", "--llm-budget-tokens", "100"])
    s = pyshadow.Settings.from_args(args, environ={"PYSHADOW_LLM_MODEL": "env-model", "PYSHADOW_JOBS": "8"})
    assert s.lean == lean_settings(args)  # the CLI's one place, and the API's, give the same LeanSettings
    assert (s.llm.mode, s.llm.cache, s.llm.model, s.llm.budget_tokens) == ("replay", Path("l"), "env-model", 100)
    assert s.jobs == 2  # the option wins over the environment


def test_llm_settings_build_the_client_or_say_what_is_missing(tmp_path):
    from pyshadow.llm import LLMConfigError

    assert pyshadow.LLMSettings().client().mode == "none"
    client = pyshadow.LLMSettings(mode="replay", cache=tmp_path, model="m").client()
    assert client.mode == "replay" and client.model == "m"
    with pytest.raises(LLMConfigError, match="needs a cache directory"):
        pyshadow.LLMSettings(mode="replay", model="m").client()


def test_results_round_trip_through_json(problems):
    """A ScoreRow built from a stored RESULTS.jsonl row keeps what the row says (the view is not a second truth)."""
    from pyshadow.score.pipeline import ScoreRow as ResultRow

    stored = {"problem_id": "p", "system": "s", "origin": "o", "tier": "kernel", "content_hash": "h",
              "compiled": True, "forward": [True, False], "backward": True, "skeleton": True,
              "checks": [{"name": "T:forward:2", "kind": "forward", "target": "T", "passed": False,
                          "message": "no", "shadow": 2}]}
    row = pyshadow.ScoreRow.from_row(ResultRow.from_dict(json.loads(json.dumps(stored))))
    assert (row.sa_pass, row.fwd, row.bwd, row.sa_pass_soft, row.bucket) == (False, 0.5, 1.0, 0.75, "backward_only")
    assert row.failed_checks[0].message == "no" and row.measure == "skeleton SA-Pass"


# ---------------------------------------------------------------------------------------------------------------
# The API and the CLI give the same rows


@pytest.mark.kernel
def test_score_rows_equal_the_cli_rows_with_the_skeleton_llm_column(tmp_path, monkeypatch, kernel_lean_exe):
    """``pyshadow score … --llm replay`` on the skeleton + LLM fixture and ``pyshadow.score`` with the same
    ``Settings`` write the same rows (the recorded model answers in the same column); only timings differ."""
    from pyshadow.cli import main

    for name in ("PYSHADOW_LLM_BASE_URL", "PYSHADOW_LLM_MODEL", "PYSHADOW_LLM_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    fixture = ROOT / "tests" / "fixtures" / "skeleton_llm"
    options = ["--tier", "kernel", "--llm", "replay", "--llm-cache", str(fixture / "cache"), "--llm-model",
               "fake-model"]
    out = tmp_path / "results.jsonl"
    assert main(["score", str(fixture / "problems"), str(fixture / "candidates.jsonl"), "-o", str(out), *options]) == 0
    cli = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    settings = pyshadow.Settings(tier="kernel", llm=pyshadow.LLMSettings(mode="replay", cache=fixture / "cache",
                                                                         model="fake-model"))
    rows = pyshadow.score(fixture / "problems", fixture / "candidates.jsonl", settings=settings)
    assert any(r.row.skeleton_llm and r.row.skeleton_llm["answers"] for r in rows)  # the model was in play

    def timeless(row: dict) -> dict:
        return {k: v for k, v in row.items() if k != "elapsed_s"}

    by_hash = {r["content_hash"]: timeless(r) for r in cli}
    assert sorted(by_hash) == sorted(r.content_hash for r in rows)
    for row in rows:
        assert timeless(json.loads(json.dumps(row.to_dict()))) == by_hash[row.content_hash]


def test_the_full_tier_where_there_is_no_full_toolchain_is_unavailable(problems, monkeypatch):
    import pyshadow.api.scoring as scoring

    monkeypatch.setattr(scoring, "find_full_toolchain", lambda: None)
    full = pyshadow.Settings(tier="full")
    with pytest.raises(pyshadow.Unavailable, match="^no full Lean toolchain .* use tier='kernel'$"):
        pyshadow.score(problems["nat_double_add"], "theorem t : True := trivial\n", settings=full)
    with pytest.raises(pyshadow.Unavailable, match="^no full Lean toolchain"):
        pyshadow.verify(problems, settings=full)


def test_a_pair_lean_elaborates_to_one_proposition_passes_and_its_mutation_does_not():
    """The skeleton search cannot read `x ∈ (Set.Ioi 0 : Set ℝ)` against `0 < x`; Lean's elaborator unfolds it."""
    import pyshadow

    same, changed = pyshadow.check_pairs([("theorem t (x : ℝ) (h : x ∈ Set.Ioi (0 : ℝ)) : x ^ 2 > 0",
                                           "theorem t (x : ℝ) (h : 0 < x) : x ^ 2 > 0"),
                                          ("theorem t (x : ℝ) (h : x ∈ Set.Ioi (0 : ℝ)) : x ^ 2 > 0",
                                           "theorem t (x : ℝ) (h : 0 ≤ x) : x ^ 2 > 0")])
    assert same.verdict == "pass" and same.backward and all(same.forward)
    assert same.lean == "equal" and same.reason is None  # passed by Lean's elaborator, not by a reading
    assert changed.verdict != "pass"


def test_the_api_scores_statement_benchmarks_as_the_cli_does(problems):
    """`Settings(proofs="ignored")` is `pyshadow score --proofs ignored`: a `sorry` proof is allowed and reported."""
    code = ("namespace Doubling\ndef double (n : Nat) : Nat := n + n\n"
            "theorem double_add (m n : Nat) : double (m + n) = double m + double n := by\n  sorry\nend Doubling\n")
    problem = problems["nat_double_add"]
    required, = pyshadow.score(problem, {"nat_double_add": code})
    ignored, = pyshadow.score(problem, {"nat_double_add": code}, settings=pyshadow.Settings(proofs="ignored"))
    assert not required.sa_pass and required.bucket == "audit_failed"
    assert ignored.sa_pass and ignored.row.proofs == "ignored" and ignored.row.sorry
