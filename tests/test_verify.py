"""``pyshadow verify``: completeness of the bundled problems (kernel tier), failure reporting, the full-tier file."""

import json
import shutil
from pathlib import Path

import pytest

from conftest_lean import PRELUDE_HEADER
from pyshadow.cli import main
from pyshadow.commands import common as common_command
from pyshadow.errors import EXIT_NEGATIVE, EXIT_UNAVAILABLE
from pyshadow.score import verification
from pyshadow.lean.runner import judge, run_lean
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.problems import load_problem, load_problems
from pyshadow.score.checker_file import CheckerFile, Role
from pyshadow.score.full import reference_as_axioms, reference_check_file, reference_sorry
from pyshadow.score.pipeline import prepare_problem


def _run(capsys, *argv):
    code = main(["verify", *argv])
    return code, capsys.readouterr().out


@pytest.mark.kernel
def test_kernel_tier_every_bundled_problem_is_complete(kernel_lean_exe, capsys, tmp_path):
    report = tmp_path / "report.jsonl"
    code, out = _run(capsys, str(PROBLEMS_DIR), "--tier", "kernel", "-o", str(report), "-j", "2")
    problems, _ = load_problems(PROBLEMS_DIR)
    assert code == 0, out
    assert f"{len(problems)}/{len(problems)} complete" in out.splitlines()[-1]
    identity = sum(1 for line in out.splitlines() if line.endswith(" complete (identity shadow only)"))
    assert identity > 0 and f"{identity} of them identity shadow only" in out.splitlines()[-1]
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert [r["problem_id"] for r in rows] == [p.id for p in problems]
    for row in rows:
        assert row["complete"] and row["tier"] == "kernel"
        for target in row["targets"]:
            kinds = [c["kind"] for c in target["checks"]]
            assert kinds.count("forward") >= 1 and all(c["passed"] for c in target["checks"])
            if target["status"] == "decomposed":
                assert kinds.count("backward") == 1  # the certificate
    multi = next(r for r in rows if r["problem_id"] == "nat_dvd_facts")
    assert len(multi["targets"]) == 3


@pytest.mark.kernel
def test_failing_checkers_are_listed_with_lean_message_and_exit_4(kernel_lean_exe, capsys, tmp_path, monkeypatch):
    problems = tmp_path / "problems"
    shutil.copytree(PROBLEMS_DIR / "nat_pos_facts", problems / "nat_pos_facts")
    shutil.copytree(PROBLEMS_DIR / "prop_and_assoc", problems / "prop_and_assoc")
    (problems / "broken").mkdir()
    (problems / "broken" / "problem.toml").write_text('id = "broken"\nlevel = "L9"\n', encoding="utf-8")

    real = verification.check_blocks

    def one_failure(blocks, lean, **kwargs):
        reports = real(blocks, lean, **kwargs)
        rep = reports["nat_pos_facts:NatPos.pos_facts"]
        rep.accepted["forward:2"] = False
        rep.messages["forward:2"] = "error: line 40: type mismatch"
        return reports

    monkeypatch.setattr(verification, "check_blocks", one_failure)
    report = tmp_path / "report.jsonl"
    code, out = _run(capsys, str(problems), "--tier", "kernel", "-o", str(report))
    assert code == EXIT_NEGATIVE == 4
    assert "nat_pos_facts                    incomplete" in out
    assert "NatPos.pos_facts:forward:2: error: line 40: type mismatch" in out
    assert "prop_and_assoc                   complete" in out
    rows = {r["problem_id"] or "broken": r for r in map(json.loads, report.read_text().splitlines())}
    checks = rows["nat_pos_facts"]["targets"][0]["checks"]
    assert [c["passed"] for c in checks].count(False) == 1  # the failing shadow is marked, the others kept
    assert len(checks) == 5  # 4 forward + the certificate: nothing dropped
    assert rows["broken"]["complete"] is False and "problem.toml" in rows["broken"]["error"]
    assert rows["broken"]["status"] == "incomplete" and rows["nat_pos_facts"]["status"] == "incomplete"
    assert out.splitlines()[-1] == "verified 3 problems (kernel tier): 1/3 complete"


def test_full_tier_without_a_toolchain_says_so_in_one_line_and_exits_3(capsys, monkeypatch):
    monkeypatch.setattr(common_command, "find_full_toolchain", lambda: None)
    code = main(["verify", str(PROBLEMS_DIR), "--tier", "full"])
    out, err = capsys.readouterr()
    assert code == EXIT_UNAVAILABLE == 3 and out == ""
    assert len(err.strip().splitlines()) == 1 and "full tier cannot run here" in err


# ---------------------------------------------------------------------------------------------------------------
# The full-tier completeness file


def test_reference_check_file_states_targets_as_axioms_and_appends_checkers():
    info = prepare_problem(load_problem(PROBLEMS_DIR / "nat_double_add"))
    file, allowed = reference_check_file(info)
    text = file.text
    assert "axiom double_add (m n : Nat) : double (m + n) = double m + double n" in text
    assert "unfold double" not in text  # the target's proof is dropped
    assert "def double (n : Nat) : Nat := n + n" in text  # the context stays
    assert "namespace Doubling.PyshadowChecks" in text and text.rstrip().endswith("end Doubling.PyshadowChecks")
    assert allowed == {"propext", "Classical.choice", "Quot.sound", "Doubling.double_add"}
    lines = text.split("\n")
    for span in file.spans:
        assert lines[span.start_line - 1].startswith(("/--", "theorem"))
        assert lines[span.end_line].startswith(f"#print axioms {span.name.rsplit('.', 1)[-1]}")
    assert {r.kind for r in file.roles.values()} <= {"forward", "backward"}


def test_reference_check_file_names_checkers_per_target_when_there_are_several():
    info = prepare_problem(load_problem(PROBLEMS_DIR / "nat_dvd_facts"))
    file, _ = reference_check_file(info)
    names = [s.name for s in file.spans]
    assert len(names) == len(set(names))
    assert "Divisibility.PyshadowChecks.shadow_nat_dvd_facts_dvd_trans_of_dvd_1" in names
    assert file.text.count("axiom ") == 3


def test_reference_sorry_is_reported_separately():
    src = "theorem a : True := by\n  sorry\n\ntheorem b : True := trivial\n"
    assert reference_sorry(src, ["a", "b"]) == {"a": True, "b": False}
    assert "sorry" not in reference_as_axioms(src, ["a"])


@pytest.mark.kernel
def test_a_reference_proved_with_sorry_does_not_leak_sorryax_into_checkers(kernel_lean_exe, tmp_path):
    """Measured with real Lean (prelude mode): the same checker fails against the sorry-proved theorem and passes
    once the target is restated as an axiom — the reference's sorryAx never reaches the judge."""
    reference = PRELUDE_HEADER + (
        "axiom sorryAx (α : Sort u) : α\n"
        "theorem ref_t (P : Prop) (h : P) : P := sorryAx P\n"
    )
    results = {}
    for label, src in (("proof", reference), ("axiom", reference_as_axioms(reference, ["ref_t"]))):
        file = CheckerFile()
        file.add(src.rstrip("\n"))
        file.add_checker("chk", "theorem chk (P : Prop) (h : P) : P := ref_t P h", Role("forward", "ref_t", 1))
        path = tmp_path / f"{label}.lean"
        path.write_text(file.text, encoding="utf-8")
        verdict = judge(run_lean(kernel_lean_exe, path), file.spans, frozenset({"ref_t"}), text=file.text)["chk"]
        results[label] = verdict
    assert "axiom ref_t (P : Prop) (h : P) : P" in reference_as_axioms(reference, ["ref_t"])
    assert not results["proof"].passed and "sorryAx" in results["proof"].reason
    assert results["axiom"].passed, results["axiom"].reason


@pytest.mark.lean
def test_full_tier_core_problems_are_complete(tmp_path, capsys):
    report = tmp_path / "report.jsonl"
    code, out = _run(capsys, str(PROBLEMS_DIR), "--tier", "full", "-o", str(report))
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    core = [r for r in rows if not load_problem(Path(PROBLEMS_DIR) / r["problem_id"]).needs_mathlib]
    assert core and all(r["complete"] for r in core), out
