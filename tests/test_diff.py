"""``pyshadow diff`` on a temporary git repository built here: the generator (this pyshadow and its templates) and
three bundled problems, then one commit each for a shadow added, a checker-template change and a problem removed —
each reported exactly, read at each revision with gitpython and never checked out."""

import json
import shutil
from pathlib import Path

import git
import pytest

import pyshadow
from pyshadow.cli import main
from pyshadow.paths import LEAN_TOOLCHAIN_FILE, PROBLEMS_DIR, TEMPLATES_DIR
from pyshadow.robustness.diff import BOTH, GENERATOR, PROBLEM, compare_results, diff_revisions, load_results
from pyshadow.robustness.matrix import FORMAT
from pyshadow.robustness.revisions import RevisionReader

PROBLEMS = ("nat_add_comm_assoc", "nat_sub_add_cancel", "prop_not_or_iff")
EXPERT_SHADOW = '''
[[shadows]]
target = "Arith.sub_add_cancel_of_le"
statement = "a - b + b ≤ a + 1"
provenance = "expert"
'''


def _robustness(cells: dict[str, bool]) -> str:
    rows = [{"id": variant, "cells": {checker: {"pass": ok, "message": None}}}
            for (variant, checker), ok in ((tuple(k.split()), v) for k, v in cells.items())]
    return json.dumps({"format": FORMAT, "targets": [{"problem": "p", "target": "T", "rows": rows}]})


def _commit(repo: git.Repo, message: str, tag: str) -> None:
    repo.git.add(A=True)
    repo.index.commit(message)
    repo.create_tag(tag)


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """Tags A → B1 (expert shadow added) → B2 (forward template changed) → B3 (prop_not_or_iff removed)."""
    root = tmp_path_factory.mktemp("history")
    shutil.copytree(Path(pyshadow.__file__).parent, root / "pyshadow",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copytree(TEMPLATES_DIR, root / "templates")
    shutil.copy(LEAN_TOOLCHAIN_FILE, root / "lean-toolchain")
    for pid in PROBLEMS:
        shutil.copytree(PROBLEMS_DIR / pid, root / "problems" / pid)
    (root / "reports").mkdir()
    (root / "reports" / "robustness.json").write_text(_robustness({"reference backward": True}), encoding="utf-8")
    repo = git.Repo.init(root)
    with repo.config_writer() as cw:
        cw.set_value("user", "name", "test").set_value("user", "email", "test@example.com")
    _commit(repo, "three problems", "A")

    with open(root / "problems" / "nat_sub_add_cancel" / "problem.toml", "a", encoding="utf-8") as f:
        f.write(EXPERT_SHADOW)
    (root / "reports" / "robustness.json").write_text(_robustness({"reference backward": False}), encoding="utf-8")
    _commit(repo, "an expert shadow", "B1")

    forward = root / "templates" / "lean" / "forward.lean.j2"
    text = forward.read_text(encoding="utf-8")
    direct, via_let = "  | exact {{ direct }}\n", "  | exact (let _hc := {{ head }}; {{ via_let }})\n"
    assert direct + via_let in text
    forward.write_text(text.replace(direct + via_let, via_let + direct), encoding="utf-8")
    _commit(repo, "forward checkers: try the let-bound form first", "B2")

    repo.git.rm("-r", "problems/prop_not_or_iff")
    _commit(repo, "drop prop_not_or_iff", "B3")
    return root, repo


@pytest.fixture(scope="module")
def reader(history):
    root, _ = history
    return RevisionReader(root / "problems")


def test_a_shadow_added_is_reported_exactly(reader):
    d = diff_revisions(reader, "A", "B1")
    assert d.generators == ("revision", "revision") and d.generator_files == []
    assert (d.problems_added, d.problems_removed) == ([], [])
    [t] = d.targets
    assert (t.problem, t.target, t.status, t.cause) == ("nat_sub_add_cancel", "Arith.sub_add_cancel_of_le", "changed",
                                                        PROBLEM)
    [s] = t.shadows
    assert s.change == "added" and (s.after["kind"], s.after["statement"]) == ("expert", "a - b + b ≤ a + 1")
    assert (t.checkers_added, t.checkers_removed, t.checkers_changed) == (["shadow_nat_sub_add_cancel_3"], [], [])
    assert t.declaration is None


def test_a_checker_template_change_is_put_down_to_the_generator(reader):
    d = diff_revisions(reader, "B1", "B2")
    assert d.generator_files == ["templates/lean/forward.lean.j2"]
    assert (d.problems_added, d.problems_removed) == ([], [])
    assert {(t.problem, t.cause) for t in d.targets} == {(p, GENERATOR) for p in PROBLEMS}
    for t in d.targets:
        assert t.shadows == [] and t.declaration is None and not (t.checkers_added or t.checkers_removed)
        # every forward checker (expert ones use the consequence form, untouched), never the certificate
        assert t.checkers_changed and not any(n.endswith("_complete") for n in t.checkers_changed)
    changed = {t.problem: t.checkers_changed for t in d.targets}
    assert changed["nat_sub_add_cancel"] == ["shadow_nat_sub_add_cancel_1", "shadow_nat_sub_add_cancel_2"]
    assert d.generator_changed_checkers == 2 + 4 + 3


def test_a_problem_removed_is_reported_exactly(reader):
    d = diff_revisions(reader, "B2", "B3")
    assert (d.problems_added, d.problems_removed) == ([], ["prop_not_or_iff"])
    [t] = d.targets
    assert (t.problem, t.status, t.cause) == ("prop_not_or_iff", "removed", None)
    assert [s.change for s in t.shadows] == ["removed"] * 3
    assert t.checkers_removed == ["shadow_prop_not_or_iff_1", "shadow_prop_not_or_iff_2", "shadow_prop_not_or_iff_3",
                                  "shadow_prop_not_or_iff_complete"]
    assert diff_revisions(reader, "B3", "B2").problems_added == ["prop_not_or_iff"]


def test_all_three_at_once_without_touching_the_working_tree(history, reader):
    root, repo = history
    head, status = repo.head.commit.hexsha, repo.git.status("--porcelain")
    d = diff_revisions(reader, "A", "B3")
    assert d.problems_removed == ["prop_not_or_iff"]
    by_problem = {t.problem: t for t in d.targets}
    # its problem changed (the expert shadow) and so did the template its other checkers use: both, not one
    assert by_problem["nat_sub_add_cancel"].cause == BOTH
    assert by_problem["nat_add_comm_assoc"].cause == GENERATOR
    assert d.generator_files == ["templates/lean/forward.lean.j2"]
    assert (repo.head.commit.hexsha, repo.git.status("--porcelain")) == (head, status)
    assert diff_revisions(reader, "B3", "B3").empty


def test_command_text_and_json(history, capsys):
    root, _ = history
    assert main(["diff", "A", "B3", str(root / "problems")]) == 0
    out = capsys.readouterr().out
    assert "problems removed (1): prop_not_or_iff" in out
    assert "+ shadow (expert): a - b + b ≤ a + 1" in out
    assert "checker texts changed by the generator: 4 checker(s) in 1 target(s)" in out  # nat_add_comm_assoc
    assert "nat_add_comm_assoc — nat_add_comm_assoc: changed (changed by the generator)" in out
    assert main(["diff", "B1", "B2", str(root / "problems"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["generator_files"] == ["templates/lean/forward.lean.j2"]
    assert data["generator_changed_checkers"] == 9 and data["problems_removed"] == []


def test_result_files_compared_cell_by_cell(history, tmp_path, capsys):
    root, _ = history
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(_robustness({"reference backward": True, "fun_mapsto forward:1": True}), encoding="utf-8")
    b.write_text(_robustness({"reference backward": True, "fun_mapsto forward:1": False}), encoding="utf-8")
    assert main(["diff", "A", "A", str(root / "problems"), "--results-a", str(a), "--results-b", str(b),
                 "--json"]) == 0
    [results] = json.loads(capsys.readouterr().out)["results"]
    assert results["kind"] == "robustness"
    assert results["changes"] == [{"key": "p T fun_mapsto forward:1", "before": True, "after": False}]
    # the same repository path read at both revisions
    assert main(["diff", "A", "B1", str(root / "problems"), "--results", "reports/robustness.json"]) == 0
    out = capsys.readouterr().out
    assert "robustness results A:reports/robustness.json → B1:reports/robustness.json: 1 matrix cells changed" in out
    assert "  p T reference backward: pass → fail" in out


def test_score_results_compared_by_candidate():
    row = {"problem_id": "nat_pos_facts", "system": "m1", "sa_pass": True, "compiled": True, "forward": [True],
           "backward": True, "reason": None}
    a = "\n".join(json.dumps(r) for r in (row, {**row, "problem_id": "gone"}))
    b = "\n".join(json.dumps(r) for r in ({**row, "sa_pass": False, "backward": False}, {**row, "system": "m2"}))
    d = compare_results(load_results(a, "a"), load_results(b, "b"), "a", "b")
    assert d.kind == "score"
    assert [(c.key, c.before["sa_pass"], c.after["sa_pass"]) for c in d.changes] == [("m1/nat_pos_facts", True, False)]
    assert (d.only_a, d.only_b) == (["m1/gone"], ["m2/nat_pos_facts"])


def test_a_problems_only_repository_uses_the_installed_generator(tmp_path):
    for pid in PROBLEMS[:1]:
        shutil.copytree(PROBLEMS_DIR / pid, tmp_path / pid)
    repo = git.Repo.init(tmp_path)
    with repo.config_writer() as cw:
        cw.set_value("user", "name", "test").set_value("user", "email", "test@example.com")
    _commit(repo, "one problem", "A")
    (tmp_path / "nat_add_comm_assoc" / "problem.toml").unlink()
    shutil.rmtree(tmp_path / "nat_add_comm_assoc")
    _commit(repo, "none", "B")
    d = diff_revisions(RevisionReader(tmp_path), "A", "B")
    assert d.generators == ("installed", "installed") and d.problems_removed == ["nat_add_comm_assoc"]


def test_bad_input(history, tmp_path, capsys):
    root, _ = history
    assert main(["diff", "A", "no-such-rev", str(root / "problems")]) == 2
    assert "unknown revision 'no-such-rev'" in capsys.readouterr().err
    assert main(["diff", "A", "B1", str(tmp_path)]) == 2
    assert "not inside a git repository" in capsys.readouterr().err
    assert main(["diff", "A", "B1", str(root / "problems"), "--results-a", "x.json"]) == 2
    assert "go together" in capsys.readouterr().err


def test_a_generator_change_in_types_is_not_blamed_on_the_problems(tmp_path):
    """One commit changes pyshadow/shadows/types.py (core ℕ loses its equality split, so an `=` on ℕ in a core
    problem stays whole) and also edits two problem files. The shadows of an untouched problem change: that is the
    generator's doing; an edited problem whose shadows only the edit changed is the problem's; one both touched is
    put down to both."""
    root = tmp_path / "repo"
    shutil.copytree(Path(pyshadow.__file__).parent, root / "pyshadow",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "_bundled"))
    shutil.copytree(TEMPLATES_DIR, root / "templates")
    shutil.copy(LEAN_TOOLCHAIN_FILE, root / "lean-toolchain")
    for pid in PROBLEMS:
        shutil.copytree(PROBLEMS_DIR / pid, root / "problems" / pid)
    repo = git.Repo.init(root)
    with repo.config_writer() as cw:
        cw.set_value("user", "name", "test").set_value("user", "email", "test@example.com")
    _commit(repo, "three problems", "A")

    types = root / "pyshadow" / "shadows" / "types.py"
    text = types.read_text(encoding="utf-8")
    entries = '"ℕ": CORE_NAT, "Nat": CORE_NAT, '
    assert text.count(entries) == 1
    types.write_text(text.replace(entries, ""), encoding="utf-8")
    with open(root / "problems" / "nat_sub_add_cancel" / "problem.toml", "a", encoding="utf-8") as f:
        f.write(EXPERT_SHADOW)
    with open(root / "problems" / "prop_not_or_iff" / "problem.toml", "a", encoding="utf-8") as f:
        f.write('\n[[shadows]]\ntarget = "Logic.not_or_iff_and_not"\nstatement = "¬(p ∨ q) → ¬q ∧ ¬p"\nprovenance = "expert"\n')
    _commit(repo, "types: core ℕ equalities stay whole; two expert shadows", "B")

    d = diff_revisions(RevisionReader(root / "problems"), "A", "B")
    assert d.generator_files == ["pyshadow/shadows/types.py"]
    causes = {t.problem: t.cause for t in d.targets}
    assert causes == {"nat_add_comm_assoc": GENERATOR, "nat_sub_add_cancel": BOTH, "prop_not_or_iff": PROBLEM}
    untouched = next(t for t in d.targets if t.problem == "nat_add_comm_assoc")
    assert untouched.shadows and any(s.change == "removed" and s.key.endswith(".le") for s in untouched.shadows)
