"""The full-tier dry run (``pyshadow.score.dryrun``): every identifier the generated full-tier text uses is in the
committed index of the pinned Lean and Mathlib (``templates/lean/full_tier_index.json``) or the unit's own, and
every universe pin has the declaration's number of universes — over the bundled problems' workspace and
completeness files, every sample candidate's checker file, and the dev corpus's ``shadows`` checkers. The
mutation partners show it fails on a misspelled lemma, tactic or option and on a wrong pin.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from pyshadow.corpus import read_corpus
from pyshadow.paths import LEAN_TOOLCHAIN_FILE, PROBLEMS_DIR
from pyshadow.problems import load_problems
from pyshadow.score.dryrun import INDEX_FILE, Unit, default_index, dry_run, load_index
from pyshadow.score.dryrun_units import candidate_units, corpus_units, workspace_units
from pyshadow.shadows import types
from pyshadow.workspace import mathlib_rev

from conftest import DEV_CORPUS


@pytest.fixture(scope="module")
def problems():
    found, errors = load_problems(PROBLEMS_DIR)
    assert not errors
    return found


@pytest.fixture(scope="module")
def workspace(problems):
    return list(workspace_units(problems))


def test_the_bundled_workspace_and_completeness_files_pass(problems, workspace):
    # clean, with no known finding: every bundled reference's Mathlib names were read at the pin (docs/full-tier.md)
    report = dry_run(workspace)
    assert report.ok, [str(f) for f in report.findings[:10]]
    assert report.units == len(problems)
    # the lemma tables and templates were looked up, and the reference's Mathlib pins were checked
    assert {"le_of_eq", "Nat.le_of_eq", "first", "apply", "#print", "autoImplicit"} <= set(report.identifiers)
    assert {"Set.Subset.antisymm", "subset_of_eq", "superset_of_eq"} <= set(report.identifiers)  # set_compl_inter
    assert report.pins >= 10  # Scheme.{u} × (finite_affine_embedding)
    assert {"AlgebraicGeometry.Scheme"} <= set(report.identifiers)


def test_every_sample_candidates_checker_file_passes(problems):
    report = dry_run(candidate_units(problems))
    assert report.ok, [str(f) for f in report.findings[:10]]
    assert report.units >= 20 and {"type_of%", "intros", "intro"} <= set(report.identifiers)


def test_the_dev_corpus_shadows_checkers_pass():
    if not DEV_CORPUS.exists():
        pytest.skip(f"dev corpus not found at {DEV_CORPUS}")
    report = dry_run(corpus_units(read_corpus(DEV_CORPUS)))
    assert report.ok, [str(f) for f in report.findings[:10]]
    assert report.units == 666 and {"le_antisymm", "Set.Subset.antisymm", "ge_of_eq"} <= set(report.identifiers)
    assert "subset_antisymm" not in report.identifiers  # the certificates name the carrier's lemma


def _one_corpus_unit(statement: str, imports=("Mathlib",)) -> Unit:
    from pyshadow.corpus import CorpusEntry

    (unit,) = corpus_units([CorpusEntry("t", statement, imports=imports)])
    return unit


@pytest.mark.parametrize("good,bad", [
    ("le_of_eq", "le_of_eqq"),  # a misspelled lemma
    ("assumption", "asumption"),  # a misspelled tactic
    ("first", "frist"),
])
def test_a_misspelled_name_in_the_generated_text_fails(good, bad):
    unit = _one_corpus_unit("theorem t (a b : ℝ) (h : 0 < a) : a + b = b + a ∧ 0 < a")
    assert dry_run([unit]).ok
    text = unit.generated["shadows"]
    assert good in text
    findings = dry_run([replace(unit, generated={"shadows": text.replace(good, bad)})]).findings
    assert findings and all(bad in f.message for f in findings)


def test_a_misspelled_lemma_in_the_lemma_table_fails(monkeypatch):
    # the generator itself emitting a name the pinned Mathlib does not have
    monkeypatch.setattr(types, "MATHLIB_ORDER", replace(types.MATHLIB_ORDER, antisymm="le_antisym"))
    findings = dry_run([_one_corpus_unit("theorem t (a b : ℝ) : a + b = b + a")]).findings
    assert [f.message for f in findings] == ["unknown identifier 'le_antisym': neither in the full-tier index nor in "
                                             "the unit's own texts"]


def test_a_misspelled_option_fails():
    unit = Unit("u", {"x": "set_option autoImplicitt false\n"})
    assert [f.message for f in dry_run([unit]).findings] == [
        "unknown identifier 'autoImplicitt': neither in the full-tier index nor in the unit's own texts"]
    assert dry_run([Unit("u", {"x": "set_option autoImplicit false\n"})]).ok


def test_a_universe_pin_is_checked_against_the_declaration(workspace):
    (unit,) = [u for u in workspace if u.label == "finite_affine_embedding"]
    before = dry_run([unit]).findings
    wrong = {k: v.replace("Scheme.{u}", "Scheme.{u, v}") for k, v in unit.generated.items()}
    findings = [f for f in dry_run([replace(unit, generated=wrong)]).findings if f not in before]
    assert findings and all("Scheme.{…} gives 2 universe(s)" in f.message for f in findings)
    assert "Mathlib/AlgebraicGeometry/Scheme.lean has 1" in findings[0].message
    # a pin on the unit's own declaration: the candidate `c` has one universe
    own = Unit("c", {"x": "axiom b : type_of% @c.{u, v}\n"}, ("theorem c {α : Type u} (a : α) : a = a",))
    assert [f.message for f in dry_run([own]).findings] == [
        "universe pin c.{…} gives 2 universe(s); its declaration in this unit has 1"]


def test_the_index_records_where_each_name_was_read():
    index = load_index(INDEX_FILE)
    assert index is not None and set(index.sources) == {"leanprover/lean4", "leanprover-community/mathlib4"}
    for entry in index.entries.values():
        assert entry.repo in index.sources and entry.file.endswith(".lean"), entry
    assert default_index().entries["Set.Subset.antisymm"].universes == ("u",)
    assert default_index().entries["Finset.Subset.antisymm"].universes == ("u_1",)
    assert not set(index.absent) & set(index.entries)


def test_the_index_is_for_the_pinned_toolchain_and_mathlib():
    # the index, the generated lakefile and lean-toolchain name one Lean and one Mathlib (format: sources.<repo>)
    data = json.loads(INDEX_FILE.read_text(encoding="utf-8"))
    toolchain = LEAN_TOOLCHAIN_FILE.read_text().strip()
    mathlib = data["sources"]["leanprover-community/mathlib4"]
    assert mathlib["pin"] == mathlib_rev(toolchain) and mathlib["toolchain"] == toolchain
    assert data["sources"]["leanprover/lean4"]["ref"].startswith(toolchain.split(":")[1] + " ")
    # every Mathlib entry was read at one commit, with its line
    for section in ("declarations", "absent"):
        for name, where in data[section].items():
            if where["repo"] == "leanprover-community/mathlib4":
                assert where["commit"] == mathlib["read_at"], name
                assert section == "absent" or where["line"] > 0, name


def test_a_name_absent_from_the_pinned_mathlib_is_a_finding_unless_the_unit_declares_it():
    uses = Unit("u", {"x": "open AlgebraicGeometry\ntheorem t : ProjectiveSpace.{u, u} = 0 := rfl\n"},
                ("open AlgebraicGeometry\ntheorem t : ProjectiveSpace.{u, u} = 0 := rfl\n",))
    findings = dry_run([uses]).findings
    assert [f.message.split(" is not")[0] for f in findings] == ["'ProjectiveSpace' (AlgebraicGeometry.ProjectiveSpace)"]
    # mutation partner: the unit's own `ProjectiveSpace`
    text = "open AlgebraicGeometry\ndef ProjectiveSpace.{v, w} : Nat := 0\ntheorem t : ProjectiveSpace.{u, u} = 0 := rfl\n"
    assert dry_run([Unit("u", {"x": text}, (text,))]).ok


def test_a_data_candidates_checker_file_passes(tmp_path):
    # the backward check of issue #26 (a): `refine ⟨?_⟩`, `Classical.choice`, `Nonempty` are looked up too
    from test_data_targets import PROBLEM, REFERENCE

    from pyshadow.problems import load_problem
    from pyshadow.score.candidates import Candidate
    from pyshadow.score.full import candidate_check_file
    from pyshadow.score.pipeline import prepare_candidate, prepare_problem

    folder = tmp_path / "p1"
    folder.mkdir()
    (folder / "problem.toml").write_text(PROBLEM, encoding="utf-8")
    (folder / "Reference.lean").write_text(REFERENCE, encoding="utf-8")
    code = REFERENCE  # the reference as the candidate: a data candidate
    prepared = prepare_candidate(Candidate("p1", "s", code, "x"), prepare_problem(load_problem(folder)), "full", "f")
    file = candidate_check_file(prepared, nonce="n1")
    assert file.statements is not None
    unit = Unit("data", {"Checks.lean": file.text, "S.lean": file.statements.text}, (REFERENCE, code),
                frozenset({"PyshadowCandidate", file.statements.name}))
    report = dry_run([unit])
    assert report.ok, [str(f) for f in report.findings]
    assert {"refine", "Classical.choice", "Nonempty"} <= set(report.identifiers)
