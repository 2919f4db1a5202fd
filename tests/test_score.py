"""``pyshadow score``: the candidate pipeline, both tiers' plumbing, bad input rows, resuming, summaries."""

import json
import shutil
from pathlib import Path

import pytest

from conftest_lean import PRELUDE_HEADER
from pyshadow.cli import main
from pyshadow.commands import common as common_command
from pyshadow.score import tiers as score_tiers
from pyshadow.lean.toolchain import LeanExecutable
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.problems import load_problem, load_problems, load_sample_candidates
from pyshadow.score import full_run
from pyshadow.score.audit import AuditPolicy
from pyshadow.score.candidates import Candidate
from pyshadow.score.checker_file import CheckerFile, Role
from pyshadow.score.full import candidate_check_file
from pyshadow.score.full_run import FullTask, run_full_task
from pyshadow.score.pipeline import finish_row, prepare_candidate, prepare_problem, rename_identifiers
from pyshadow.score.report import read_rows, summary_paths

FIXTURES = Path(__file__).parent / "fixtures" / "score"


def _score(capsys, *argv):
    code = main(["score", *argv])
    return code, capsys.readouterr().out


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _samples_jsonl(path: Path) -> dict[tuple[str, str], object]:
    """Every bundled sample candidate as one JSONL line (system = the sample's name); returns what is expected."""
    problems, _ = load_problems(PROBLEMS_DIR)
    expected = {}
    with path.open("w", encoding="utf-8") as fh:
        for p in problems:
            for sc in load_sample_candidates(p):
                code = sc.path.read_text(encoding="utf-8")
                fh.write(json.dumps({"problem_id": p.id, "system": sc.name, "code": code}) + "\n")
                expected[(p.id, sc.name)] = sc
    return expected


# ---------------------------------------------------------------------------------------------------------------
# The kernel tier (skeleton SA-Pass) end to end


@pytest.fixture(scope="module")
def kernel_run(tmp_path_factory, kernel_lean_exe):
    """One kernel-tier scoring run over every bundled sample candidate, shared by the tests below."""
    folder = tmp_path_factory.mktemp("score")
    candidates = folder / "samples.jsonl"
    expected = _samples_jsonl(candidates)
    results = folder / "results.jsonl"
    code = main(["score", str(PROBLEMS_DIR), str(candidates), "-o", str(results), "--tier", "kernel", "-j", "2"])
    return code, candidates, results, expected


@pytest.mark.kernel
def test_kernel_tier_sample_candidates_get_their_expected_verdicts(kernel_run):
    code, _, results, expected = kernel_run
    assert code == 0
    rows = _rows(results)
    assert len(rows) == len(expected) >= 20
    wrong = {}
    for row in rows:
        sc = expected[(row["problem_id"], row["system"])]
        if not sc.matches(row, "kernel"):
            wrong[(row["problem_id"], row["system"])] = [c["message"] for c in row["checks"]]
        assert row["tier"] == "kernel" and row["skeleton"] is True
        assert {"sa_pass_soft", "fwd", "bwd", "fwd_all", "bucket", "statement_elaborated", "content_hash",
                "elapsed_s"} <= row.keys() and "compiled" not in row and row["elapsed_s"] > 0
        assert (row["reason"] or "").startswith("audit:") == bool(row["audit"])
    assert not wrong


@pytest.mark.kernel
def test_kernel_tier_rows_keep_every_check_with_its_message(kernel_run):
    _, _, results, _ = kernel_run
    row = next(r for r in _rows(results) if (r["problem_id"], r["system"]) == ("nat_pos_facts", "weakened"))
    assert [c["passed"] for c in row["checks"] if c["kind"] == "forward"] == [True, True, False, False]
    assert all(c["message"] for c in row["checks"] if not c["passed"])
    assert row["bucket"] == "backward_only" and row["sa_pass_soft"] == 0.75


@pytest.mark.kernel
def test_summaries_are_written_beside_the_results(kernel_run):
    _, _, results, expected = kernel_run
    md, csvs = summary_paths(results)
    text = md.read_text(encoding="utf-8")
    assert "skeleton SA-Pass" in text.splitlines()[0]
    for title in ("by system", "by area", "by level", "by system × level"):
        assert f"### Skeleton SA-Pass (kernel tier) {title}" in text
    assert "Elaborated − SA-Pass (pts)" in text and "Compiled" not in text  # the kernel tier compiles nothing
    by_system = csvs[("system",)].read_text(encoding="utf-8").splitlines()
    assert by_system[0].startswith("tier,system,n,statement_elaborated,")
    assert "elaborated_minus_sa_pass_pts" in by_system[0]
    assert all(line.startswith("skeleton,") for line in by_system[1:])
    assert sum(int(line.split(",")[2]) for line in by_system[1:]) == len(expected)
    assert all(path.is_file() for path in csvs.values())


@pytest.mark.kernel
def test_a_rerun_scores_nothing_again_and_a_changed_candidate_once(kernel_run, tmp_path, capsys, monkeypatch):
    _, candidates, results, expected = kernel_run
    copy = tmp_path / "results.jsonl"
    shutil.copy(results, copy)
    calls = []
    real = score_tiers.kernel_rows  # what the kernel Tier scores with
    monkeypatch.setattr(score_tiers, "kernel_rows", lambda pending, *a, **k: calls.append(len(pending))
                        or real(pending, *a, **k))
    code, out = _score(capsys, str(PROBLEMS_DIR), str(candidates), "-o", str(copy), "--tier", "kernel")
    assert code == 0 and calls == [0]
    assert len(_rows(copy)) == len(expected)
    assert f"({len(expected)} reused" in out

    lines = candidates.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["code"] += "\n-- edited\n"
    changed = tmp_path / "samples.jsonl"
    changed.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    code, out = _score(capsys, str(PROBLEMS_DIR), str(changed), "-o", str(copy), "--tier", "kernel")
    assert code == 0 and calls == [0, 1]
    assert len(_rows(copy)) == len(expected) + 1  # the old row stays in the file; nothing scored is lost
    md, _ = summary_paths(copy)
    assert f"{len(expected)} candidates counted" in md.read_text(encoding="utf-8")


@pytest.mark.kernel
def test_bad_input_becomes_rows_with_reasons_and_the_rest_is_scored(kernel_lean_exe, tmp_path, capsys):
    results = tmp_path / "folder.jsonl"
    code, out = _score(capsys, str(PROBLEMS_DIR), str(FIXTURES / "candidates"), "-o", str(results),
                       "--tier", "kernel")
    assert code == 0, out
    rows = {(r["system"], r["problem_id"]): r for r in _rows(results)}
    assert rows[("sys_a", "nat_add_comm_assoc")]["reason"] == "empty file"
    assert rows[("sys_a", "no_such_problem")]["reason"] == "unknown problem 'no_such_problem'"
    assert rows[("sys_a", "no_such_problem")]["counted"] is False
    assert rows[("sys_b", "nat_double_add")]["reason"].startswith("not valid UTF-8")
    assert rows[("sys_b", "nat_double_add")]["counted"] is True  # a known problem: it counts as a failure
    assert len(rows[("sys_a", "nat_add_comm_assoc")]["forward"]) == 4  # as many forward checks as the problem has
    assert rows[("sys_a", "nat_pos_facts")]["sa_pass"] and rows[("sys_a", "nat_double_add")]["sa_pass"]
    assert rows[("sys_a", "nat_double_add")]["renames"] == {"Doubling.double": "Doubling.twice"}
    assert not rows[("sys_b", "nat_pos_facts")]["sa_pass"]

    results = tmp_path / "lines.jsonl"
    code, out = _score(capsys, str(PROBLEMS_DIR), str(FIXTURES / "bad_lines.jsonl"), "-o", str(results),
                       "--tier", "kernel")
    assert code == 0, out
    by_line = {r["origin"].rsplit(":", 1)[1]: r for r in _rows(results)}
    assert by_line["1"]["sa_pass"] is True
    assert by_line["2"]["reason"] == "line 2: no 'code' field"
    assert by_line["3"]["reason"].startswith("line 3: not valid JSON") and by_line["3"]["counted"] is False
    assert by_line["4"]["reason"] == "line 4: empty code"


def test_unreadable_candidates_path_is_bad_input(tmp_path, capsys):
    code, _ = _score(capsys, str(PROBLEMS_DIR), str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "r.jsonl"),
                     "--tier", "kernel")
    assert code == 2


def test_full_tier_without_a_toolchain_exits_3(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(common_command, "find_full_toolchain", lambda: None)
    code = main(["score", str(PROBLEMS_DIR), str(FIXTURES / "bad_lines.jsonl"), "-o", str(tmp_path / "r.jsonl"),
                 "--tier", "full"])
    err = capsys.readouterr().err
    assert code == 3 and "full tier cannot run here" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r.jsonl").exists()


def test_full_tier_mathlib_problem_without_workspace_is_bad_input(tmp_path, capsys, monkeypatch):
    fake = LeanExecutable(Path("/nonexistent/lean"), "4.35.0", "full", Path("/nonexistent/lake"), "x")
    monkeypatch.setattr(common_command, "choose_lean", lambda tier: ("full", fake))
    candidates = tmp_path / "c.jsonl"
    code = (PROBLEMS_DIR / "set_compl_inter" / "Reference.lean").read_text(encoding="utf-8")
    candidates.write_text(json.dumps({"problem_id": "set_compl_inter", "system": "s", "code": code}) + "\n")
    exit_code, _ = _score(capsys, str(PROBLEMS_DIR), str(candidates), "-o", str(tmp_path / "r.jsonl"))
    assert exit_code == 2


def test_llm_fallback_is_refused_until_wired(tmp_path, capsys):
    code, _ = _score(capsys, str(PROBLEMS_DIR), str(FIXTURES / "bad_lines.jsonl"), "-o", str(tmp_path / "r.jsonl"),
                     "--llm", "replay")
    assert code == 2


# ---------------------------------------------------------------------------------------------------------------
# Front half: audit, extraction, renames


def test_rename_identifiers_qualified_and_as_written():
    mapping = {"Doubling.double": "Doubling.twice"}
    text = "double (m + n) = Doubling.double m -- double stays in comments"
    assert rename_identifiers(text, mapping, qualify=True) == \
        "Doubling.twice (m + n) = Doubling.twice m -- double stays in comments"
    assert rename_identifiers(text, {v: k for k, v in mapping.items()}, qualify=False) == text
    assert rename_identifiers("twice m", {"Doubling.twice": "Doubling.double"}, qualify=False) == "double m"
    assert rename_identifiers("h.double x", mapping, qualify=True) == "h.double x"  # a field, not the name


def test_problem_context_is_the_trusted_prefix():
    info = prepare_problem(load_problem(PROBLEMS_DIR / "nat_double_add"))
    assert info.context.rstrip().endswith("def double (n : Nat) : Nat := n + n")
    assert "theorem double_add" not in info.context and "Doubling distributes" not in info.context


def test_prepare_candidate_audits_extracts_and_renames():
    info = prepare_problem(load_problem(PROBLEMS_DIR / "nat_pos_facts"))
    code = "theorem pos_facts (n : Nat) : 0 < n → n ≠ 0 ∧ 1 ≤ n ∧ n - 1 + 1 = n := by\n  sorry\n"
    prepared = prepare_candidate(Candidate("nat_pos_facts", "s", code, "x"), info, "kernel", "fp")
    assert prepared.flagged and prepared.audit_reason().startswith("audit: sorry at line 2")
    found = prepared.extracted["NatPos.pos_facts"]
    assert found is not None and found.match == "namespaced" and found.has_sorry
    assert prepared.renames["NatPos.pos_facts"] == "pos_facts"
    row = finish_row(prepared, "kernel", [], compiled=True)
    assert row.score.compiled is False and row.reason.startswith("audit:")
    again = prepare_candidate(Candidate("nat_pos_facts", "s", code, "x"), info, "kernel", "fp")
    other_tier = prepare_candidate(Candidate("nat_pos_facts", "s", code, "x"), info, "full", "fp")
    assert again.content_hash == prepared.content_hash != other_tier.content_hash


# ---------------------------------------------------------------------------------------------------------------
# The full tier: the checker file (text) and the plumbing (real Lean, prelude mode)


def test_candidate_check_file_imports_the_candidate_and_holds_every_check():
    info = prepare_problem(load_problem(PROBLEMS_DIR / "nat_double_add"))
    code = (PROBLEMS_DIR / "nat_double_add" / "candidates" / "faithful_renamed_aux.lean").read_text()
    prepared = prepare_candidate(Candidate("nat_double_add", "s", code, "x"), info, "full", "fp")
    file = candidate_check_file(prepared)
    text = file.text
    assert text.startswith("import PyshadowCandidate\n")
    assert "theorem double_add" not in text  # the candidate is imported, never pasted in
    assert "Doubling.twice (m + n) = Doubling.twice m + Doubling.twice n" in text  # the reference's names renamed
    assert "type_of% @Doubling.double_add" in text
    assert "apply shadow_nat_double_add_complete <;> assumption" in text
    kinds = [file.roles[s.name].kind for s in file.spans]
    assert kinds == ["axioms", "forward", "certificate", "backward"]
    assert file.spans[0].name == "Doubling.double_add"
    assert text.split("\n")[file.spans[0].start_line - 1] == "#print axioms Doubling.double_add"


def test_candidate_check_file_opens_what_the_reference_opens():
    info = prepare_problem(load_problem(PROBLEMS_DIR / "saddle_point_derivatives"))
    code = (PROBLEMS_DIR / "saddle_point_derivatives" / "candidates" / "faithful_explicit.lean").read_text()
    prepared = prepare_candidate(Candidate(info.id, "s", code, "x"), info, "full", "fp")
    text = candidate_check_file(prepared).text
    assert text.startswith("import Mathlib\nimport PyshadowCandidate\n")
    assert "\nopen Filter\n" in text and "namespace Saddle.PyshadowChecks" in text


MODULE = PRELUDE_HEADER + """\
structure And (a b : Prop) : Prop where
  intro ::
  left : a
  right : b
namespace Cand
theorem main (P Q : Prop) (hp : P) (hq : Q) : And P Q := And.intro hp hq
end Cand
"""
# What a candidate can do locally that must not reach the checkers: an open namespace, a forced variable, #exit.
LEAKY_TAIL = "namespace Leaky\nvariable (h : False)\n#exit\n"


def _prelude_checks(target: str = "Cand.main", wrong_second: bool = False) -> CheckerFile:
    file = CheckerFile()
    file.add("prelude\nimport PyshadowCandidate\nnamespace PyshadowChecks")
    file.add_axioms_probe(target, Role("axioms", target))
    second = "Q → P" if wrong_second else "Q"
    file.add_checker("PyshadowChecks.fwd_1",
                     f"theorem fwd_1 (P Q : Prop) (hp : P) (hq : Q) : P :=\n  ({target} P Q hp hq).1",
                     Role("forward", target, 1))
    file.add_checker("PyshadowChecks.fwd_2",
                     f"theorem fwd_2 (P Q : Prop) (hp : P) (hq : Q) : {second} :=\n  ({target} P Q hp hq).2",
                     Role("forward", target, 2))
    file.add_checker("PyshadowChecks.bwd",
                     "theorem bwd (h1 : ∀ {P Q : Prop}, P → Q → P) (h2 : ∀ {P Q : Prop}, P → Q → Q) :\n"
                     f"    type_of% @{target} :=\n  fun P Q hp hq => And.intro (h1 hp hq) (h2 hp hq)",
                     Role("backward", target))
    file.add("end PyshadowChecks")
    return file


def _task(module: str, file: CheckerFile, key: str = "k") -> FullTask:
    return FullTask(key, module, file.text, tuple(file.spans), file.roles, timeout_s=60)


@pytest.mark.kernel
def test_full_plumbing_module_compile_import_one_process_judge(kernel_lean_exe):
    outcome = run_full_task(_task(MODULE + LEAKY_TAIL, _prelude_checks()), kernel_lean_exe)
    assert outcome.compiled and outcome.reason is None
    assert [(c.kind, c.passed) for c in outcome.checks] == [("axioms", True), ("forward", True),
                                                           ("forward", True), ("backward", True)]
    wrong = run_full_task(_task(MODULE, _prelude_checks(wrong_second=True)), kernel_lean_exe)
    assert wrong.compiled and [c.passed for c in wrong.checks] == [True, True, False, True]
    assert "error" in wrong.checks[2].message


@pytest.mark.kernel
def test_full_plumbing_isolation_matters(kernel_lean_exe, tmp_path):
    """The same candidate pasted into the checker file instead of imported: its #exit leaves no evidence."""
    from pyshadow.lean.runner import judge, run_lean

    pasted = CheckerFile()
    pasted.add((MODULE + LEAKY_TAIL).rstrip("\n"))
    pasted.add_checker("fwd_1", "theorem fwd_1 (P Q : Prop) (hp : P) (hq : Q) : P := (Cand.main P Q hp hq).1",
                       Role("forward", "Cand.main", 1))
    path = tmp_path / "Pasted.lean"
    path.write_text(pasted.text, encoding="utf-8")
    verdict = judge(run_lean(kernel_lean_exe, path), pasted.spans, text=pasted.text)["fwd_1"]
    assert not verdict.passed and "no evidence" in verdict.reason


@pytest.mark.kernel
def test_full_plumbing_compile_failure_and_candidate_axioms(kernel_lean_exe):
    broken = run_full_task(_task(MODULE + "theorem oops : Q := hq\n", _prelude_checks()), kernel_lean_exe)
    assert not broken.compiled and broken.reason.startswith("the candidate does not compile: line")
    assert broken.checks == []
    sorried = MODULE.replace("And.intro hp hq", "sorryAx (And P Q)").replace(
        "structure And", "axiom sorryAx (α : Sort u) : α\nstructure And")
    outcome = run_full_task(_task(sorried, _prelude_checks()), kernel_lean_exe)
    assert not outcome.compiled and "sorryAx" in outcome.reason
    assert not outcome.checks[0].passed and outcome.checks[0].kind == "axioms"


def _demo_problem(root: Path) -> Path:
    folder = root / "demo_and"
    folder.mkdir(parents=True)
    (folder / "problem.toml").write_text(
        'id = "demo_and"\narea = "logic"\nlevel = "L1"\nsource = "test"\nimports = []\n'
        'reference = "Reference.lean"\ntargets = ["Cand.main"]\n[informal]\nstatement = "P and Q"\n',
        encoding="utf-8")
    (folder / "Reference.lean").write_text(
        "namespace Cand\n\ntheorem main (P Q : Prop) (hp : P) (hq : Q) : P ∧ Q := ⟨hp, hq⟩\n\nend Cand\n",
        encoding="utf-8")
    return folder


@pytest.mark.kernel
def test_full_rows_to_metrics(kernel_lean_exe, tmp_path, monkeypatch):
    """Rows from the full-tier driver: joblib over candidates, two Lean processes each, judged, scored."""
    info = prepare_problem(load_problem(_demo_problem(tmp_path)))
    assert info.targets[0].n_forward == 2
    policy = AuditPolicy(disabled_rules=frozenset({"prelude", "axiom", "unsafe", "unsound_constant", "shadowed_name"}))
    good = prepare_candidate(Candidate("demo_and", "good", MODULE, "a"), info, "full", "fp", policy)
    weak = prepare_candidate(Candidate("demo_and", "weak", MODULE + "-- weak\n", "b"), info, "full", "fp", policy)
    flagged = prepare_candidate(Candidate("demo_and", "flagged", MODULE, "c"), info, "full", "fp")
    files = {good.content_hash: _prelude_checks(), weak.content_hash: _prelude_checks(wrong_second=True)}
    monkeypatch.setattr(full_run, "full_task", lambda p, **kw: _task(p.candidate.code, files[p.content_hash],
                                                                 p.content_hash))
    rows = {r.system: r for r in full_run.full_rows([good, weak, flagged], kernel_lean_exe, n_jobs=2)}
    assert rows["good"].to_dict()["sa_pass"] is True and rows["good"].score.skeleton is False
    weak_row = rows["weak"].to_dict()
    assert weak_row["compiled"] and not weak_row["sa_pass"] and weak_row["fwd"] == 0.5
    assert weak_row["bucket"] == "backward_only" and weak_row["tier"] == "full"
    flagged_row = rows["flagged"].to_dict()
    assert not flagged_row["compiled"] and flagged_row["reason"].startswith("audit:")
    assert flagged_row["forward"] == [False, False]


# ---------------------------------------------------------------------------------------------------------------
# With a full toolchain


@pytest.mark.lean
def test_full_tier_core_sample_candidates(tmp_path, capsys):
    problems, _ = load_problems(PROBLEMS_DIR)
    candidates = tmp_path / "core.jsonl"
    expected = {}
    with candidates.open("w", encoding="utf-8") as fh:
        for p in problems:
            if p.needs_mathlib:
                continue
            for sc in load_sample_candidates(p):
                fh.write(json.dumps({"problem_id": p.id, "system": sc.name,
                                     "code": sc.path.read_text(encoding="utf-8")}) + "\n")
                expected[(p.id, sc.name)] = sc
    results = tmp_path / "results.jsonl"
    code, out = _score(capsys, str(PROBLEMS_DIR), str(candidates), "-o", str(results), "--tier", "full")
    assert code == 0, out
    for row in read_rows(results).values():
        sc = expected[(row.problem_id, row.system)]
        assert row.to_dict()["sa_pass"] == sc.sa_pass, (row.problem_id, row.system, row.reason,
                                                       [c.message for c in row.checks])
