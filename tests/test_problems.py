"""Problem files: the bundled set loads, round trips keep the bytes, malformed problems give one-line errors."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
import tomlkit

from pyshadow.errors import EXIT_BAD_INPUT, BadInput
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.problems import (
    CANDIDATE_KINDS,
    PROBLEM_FILE,
    ExpertShadow,
    Problem,
    ProblemError,
    declared_names,
    load_problem,
    load_problems,
    load_sample_candidates,
    new_problem_document,
    problem_document,
    reference_imports,
    reference_text,
    save_problem,
)

# ---------------------------------------------------------------------------------------------------------------
# The bundled problems


@pytest.fixture(scope="module")
def bundled() -> list[Problem]:
    problems, errors = load_problems(PROBLEMS_DIR)
    assert errors == [], [str(e) for e in errors]
    return problems


def test_every_bundled_problem_loads(bundled):
    folders = sorted(p.parent.name for p in PROBLEMS_DIR.glob(f"*/{PROBLEM_FILE}"))
    assert [p.id for p in bundled] == folders
    assert sum(not p.needs_mathlib for p in bundled) >= 20
    assert sum(p.needs_mathlib for p in bundled) >= 6


def test_core_problems_use_core_names_only(bundled):
    for problem in bundled:
        if problem.needs_mathlib:
            continue
        text = reference_text(problem)
        assert problem.imports == ()
        assert reference_imports(text) == ()
        # `ℕ`, `ℤ`, `ℝ` are Mathlib notation; core Lean spells `Nat`, `Int`.
        assert not re.search("[ℕℤℚℝℂ]", text), problem.id
        assert "Type*" not in text, problem.id


def test_bundled_problems_cover_the_decomposition_rules(bundled):
    conclusions = " ".join(reference_text(p) for p in bundled)
    assert any(len(p.targets) > 1 for p in bundled)
    assert any(not p.targets[0].count(".") for p in bundled)  # a target at the root
    assert any(p.targets[0].count(".") for p in bundled)  # a target in a namespace
    for needle in ("↔", "∧", "∀ x ∈ l,", "∃", "∨", "¬", "def ", "let "):
        assert needle in conclusions, needle


def test_bundled_round_trip_is_byte_identical(bundled, tmp_path):
    for problem in bundled:
        out = tmp_path / problem.id
        save_problem(problem, out)
        assert (out / PROBLEM_FILE).read_bytes() == problem.problem_file.read_bytes(), problem.id


def test_bundled_sample_candidates(bundled):
    seen_kinds = set()
    with_candidates = 0
    for problem in bundled:
        candidates = load_sample_candidates(problem)
        with_candidates += bool(candidates)
        for cand in candidates:
            seen_kinds.add(cand.kind)
            text = cand.path.read_text(encoding="utf-8")
            if not problem.needs_mathlib:
                assert "import" not in text, cand.path
            if cand.kind == "cheating":
                assert cand.audit == "flagged" and not cand.sa_pass
            if cand.kind == "faithful":  # a statement-benchmark sample passes when proofs are ignored
                assert cand.sa_pass or (cand.proof_sorry and cand.sa_pass_under("ignored")), cand.path
            if cand.kind == "weakened":
                assert not cand.forward, cand.path
            if cand.kind == "changed":
                assert not cand.forward and not cand.backward, cand.path
            if cand.kind == "strengthened":
                assert cand.forward and not cand.backward, cand.path
    assert with_candidates >= 12
    assert seen_kinds == set(CANDIDATE_KINDS)


# ---------------------------------------------------------------------------------------------------------------
# A hand-written problem in a temporary folder

REFERENCE = """/-! # A sample problem -/

namespace Sample

/-- Doubling. -/
def double (n : Nat) : Nat := n + n

theorem double_add (m n : Nat) : double (m + n) = double m + double n := by
  unfold double
  omega

end Sample

theorem root_fact (n : Nat) : n + 0 = n := rfl
"""

TOML = '''# A hand-written problem; this comment must survive.
id    = "sample"        # aligned by hand
area = "arithmetic"
level = 'L1'
source = "made up for the tests"
imports = [ ]
reference = "Reference.lean"
targets = [
  "Sample.double_add",   # the main target
  "root_fact",
]

[informal]
statement = """
Doubling is additive."""
# no proof given on purpose

[rules]
text = "Use `Nat`."

[[shadows]]
target = "Sample.double_add"
statement = "double (m + n) ≤ double m + double n"

[[shadows]]
target = "root_fact"
statement = "n + 0 = n"
provenance = "llm:some-model"
'''


def make_problem(root: Path, toml: str = TOML, reference: str | None = REFERENCE, name: str = "sample") -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / PROBLEM_FILE).write_text(toml, encoding="utf-8")
    if reference is not None:
        (folder / "Reference.lean").write_text(reference, encoding="utf-8")
    return folder


def test_load_hand_written_problem(tmp_path):
    problem = load_problem(make_problem(tmp_path))
    assert problem.id == "sample" and problem.level == "L1" and problem.area == "arithmetic"
    assert problem.imports == () and not problem.needs_mathlib
    assert problem.targets == ("Sample.double_add", "root_fact")
    assert problem.informal_statement == "Doubling is additive."
    assert problem.informal_proof is None
    assert problem.rules == "Use `Nat`."
    assert problem.expert_shadows == (
        ExpertShadow("Sample.double_add", "double (m + n) ≤ double m + double n", "expert"),
        ExpertShadow("root_fact", "n + 0 = n", "llm:some-model"),
    )
    assert problem.reference == tmp_path / "sample" / "Reference.lean"
    assert "def double" in reference_text(problem)


def test_round_trip_keeps_comments_and_hand_formatting(tmp_path):
    folder = make_problem(tmp_path)
    save_problem(load_problem(folder), tmp_path / "out")
    assert (tmp_path / "out" / PROBLEM_FILE).read_text(encoding="utf-8") == TOML


def test_edit_changes_only_the_edited_field(tmp_path):
    folder = make_problem(tmp_path)
    problem = dataclasses.replace(load_problem(folder), level="L2", informal_proof="Unfold and rearrange.")
    save_problem(problem, folder)
    text = (folder / PROBLEM_FILE).read_text(encoding="utf-8")
    assert text.replace("level = 'L1'", 'level = "L2"').count("\n") == text.count("\n")
    assert "# A hand-written problem; this comment must survive." in text
    assert 'id    = "sample"        # aligned by hand' in text
    assert '"Sample.double_add",   # the main target' in text
    assert 'level = "L2"' in text
    reloaded = load_problem(folder)
    assert reloaded == problem
    assert reloaded.informal_proof == "Unfold and rearrange."


def test_saving_a_document_writes_it_verbatim(tmp_path):
    doc = tomlkit.parse(TOML)
    path = save_problem(doc, tmp_path / "x")
    assert path.read_text(encoding="utf-8") == TOML


def test_problem_without_document_saves_and_reloads(tmp_path):
    folder = make_problem(tmp_path)
    original = load_problem(folder)
    fresh = dataclasses.replace(original, document=None)
    doc = problem_document(fresh)
    assert "#" not in tomlkit.dumps(doc)
    save_problem(fresh, folder)
    assert load_problem(folder) == original


def test_new_problem_document_has_every_field_commented(tmp_path):
    doc = new_problem_document("fresh_problem", "number_theory", "L3")
    text = tomlkit.dumps(doc)
    for key in ("id", "area", "level", "source", "imports", "reference", "targets"):
        assert re.search(rf"^{key} = .*#", text, re.M), key
    for key in ("[informal]", "statement", "proof", "[rules]", "text", "[[shadows]]", "provenance"):
        assert key in text, key
    folder = tmp_path / "fresh_problem"
    save_problem(doc, folder)
    (folder / "Reference.lean").write_text("theorem fresh : True := trivial\n", encoding="utf-8")
    with pytest.raises(ProblemError, match="field 'source'"):
        load_problem(folder)
    doc["source"] = "a test"
    doc["targets"].append("fresh")
    doc["informal"]["statement"] = "True holds."
    save_problem(doc, folder)
    problem = load_problem(folder)
    assert problem.level == "L3" and problem.targets == ("fresh",) and problem.rules is None
    with pytest.raises(BadInput):
        new_problem_document("bad id", "x", "L1")
    with pytest.raises(BadInput):
        new_problem_document("ok", "x", "L9")


# ---------------------------------------------------------------------------------------------------------------
# Malformed problems: one line naming the file, the field and what was expected


def _sub(old: str, new: str) -> str:
    assert old in TOML
    return TOML.replace(old, new, 1)


MALFORMED = [
    ("toml_syntax", _sub('area = "arithmetic"', "area = arithmetic"), REFERENCE, None, "invalid TOML at line 3"),
    ("missing_field", _sub('area = "arithmetic"\n', ""), REFERENCE, "area", "missing"),
    ("wrong_type", _sub('source = "made up for the tests"', "source = 3"), REFERENCE, "source",
     "expected a string, got an integer"),
    ("bad_level", _sub("level = 'L1'", 'level = "L4"'), REFERENCE, "level", "expected one of L1, L2, L3, got 'L4'"),
    ("bad_area", _sub('area = "arithmetic"', 'area = "Number Theory"'), REFERENCE, "area", "lower_snake"),
    ("id_mismatch", _sub('id    = "sample"', 'id = "other"'), REFERENCE, "id", "expected the folder name 'sample'"),
    ("bad_id", _sub('id    = "sample"', 'id = "a b"'), REFERENCE, "id", "expected letters, digits"),
    ("reference_missing", TOML, None, "reference", "expected an existing file"),
    ("reference_outside", _sub('reference = "Reference.lean"', 'reference = "../Reference.lean"'), REFERENCE,
     "reference", "inside the problem folder"),
    ("target_undeclared", _sub('"root_fact",\n]', '"root_fact",\n  "Sample.root_fact",\n]'), REFERENCE, "targets",
     "'Sample.root_fact' is not declared in Reference.lean"),
    ("no_targets", re.sub(r"targets = \[.*?\n\]", "targets = []", TOML, flags=re.S), REFERENCE, "targets",
     "the target is missing"),
    ("targets_not_list", re.sub(r"targets = \[.*?\n\]", 'targets = "root_fact"', TOML, flags=re.S), REFERENCE,
     "targets", "expected a list of strings, got a string"),
    ("unknown_key", _sub("imports = [ ]", "imports = [ ]\ntarget = 1"), REFERENCE, "target", "unknown field"),
    ("imports_mismatch", _sub("imports = [ ]", 'imports = ["Mathlib"]'), REFERENCE, "imports",
     "expected the imports of Reference.lean, which are []"),
    ("empty_statement", _sub('statement = """\nDoubling is additive."""', 'statement = ""'), REFERENCE,
     "informal.statement", "expected a non-empty string"),
    ("informal_missing", _sub('[informal]\nstatement = """\nDoubling is additive."""\n', ""), REFERENCE,
     "informal", "missing"),
    ("bad_provenance", _sub('provenance = "llm:some-model"', 'provenance = "gpt"'), REFERENCE,
     "shadows[2].provenance", "expected 'expert' or 'llm:<model>'"),
    ("shadow_target", _sub('target = "root_fact"', 'target = "nope"'), REFERENCE, "shadows[2].target",
     "expected one of the targets"),
]


@pytest.mark.parametrize("toml, reference, field, expected", [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_malformed_problem_gives_one_line_message(tmp_path, toml, reference, field, expected):
    folder = make_problem(tmp_path, toml, reference)
    with pytest.raises(ProblemError) as info:
        load_problem(folder)
    err = info.value
    message = str(err)
    assert "\n" not in message
    assert isinstance(err, BadInput) and err.exit_code == EXIT_BAD_INPUT
    assert message.startswith(str(folder / PROBLEM_FILE))
    assert err.field == field
    if field is not None:
        assert f"field '{field}'" in message
    assert expected in message


def test_missing_problem_file(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ProblemError) as info:
        load_problem(tmp_path / "empty")
    assert str(info.value) == f"{tmp_path / 'empty' / PROBLEM_FILE}: file not found"


def test_syntax_error_names_line_and_column(tmp_path):
    folder = make_problem(tmp_path, _sub("level = 'L1'", "level = 'L1"), REFERENCE)
    with pytest.raises(ProblemError, match=r"invalid TOML at line 4, column \d+: ") as info:
        load_problem(folder)
    assert "\n" not in str(info.value)


def test_load_problems_reports_errors_without_stopping(tmp_path):
    make_problem(tmp_path, name="sample")
    make_problem(tmp_path, TOML.replace('"sample"', '"zeta"'), name="zeta")
    make_problem(tmp_path, _sub("level = 'L1'", "level = 'L7'").replace('"sample"', '"broken"'), name="broken")
    make_problem(tmp_path / "nested", TOML.replace('"sample"', '"deep"'), name="deep")
    (tmp_path / "not_a_problem").mkdir()
    problems, errors = load_problems(tmp_path)
    assert [p.id for p in problems] == ["deep", "sample", "zeta"]
    assert len(errors) == 1
    assert errors[0].path == tmp_path / "broken" / PROBLEM_FILE and errors[0].field == "level"


def test_load_problems_rejects_a_missing_root(tmp_path):
    with pytest.raises(ProblemError, match="expected a folder of problems"):
        load_problems(tmp_path / "nowhere")


# ---------------------------------------------------------------------------------------------------------------
# Declarations and imports of a reference file


def test_declared_names_resolve_namespaces():
    src = """import Mathlib

namespace A.B
theorem one : True := trivial
section
theorem two : True := trivial
end
namespace C
/-- `end` in a docstring is not a command. -/
theorem three : True := trivial
end C
theorem _root_.four : True := trivial
def «five six» : Nat := 5
end A.B
noncomputable section
theorem seven : True := trivial
end
-- namespace Fake
theorem eight : True := trivial
example : True := trivial
"""
    assert declared_names(src) == {"A.B.one", "A.B.two", "A.B.C.three", "four", "A.B.five six", "seven", "eight"}
    assert reference_imports(src) == ("Mathlib",)
    assert reference_imports("import Mathlib.Analysis.Calculus\nimport Foo\n\ntheorem x : True := trivial") == (
        "Mathlib.Analysis.Calculus",
        "Foo",
    )


# ---------------------------------------------------------------------------------------------------------------
# Sample candidates


def _with_candidates(tmp_path: Path, expected: str, files: tuple[str, ...]) -> Problem:
    folder = make_problem(tmp_path)
    cdir = folder / "candidates"
    cdir.mkdir()
    for name in files:
        (cdir / f"{name}.lean").write_text("theorem root_fact (n : Nat) : n + 0 = n := rfl\n", encoding="utf-8")
    (cdir / "expected.toml").write_text(expected, encoding="utf-8")
    return load_problem(folder)


GOOD_EXPECTED = """
[faithful_plain]
kind = "faithful"
forward = true
backward = true
audit = "clean"

[cheating_sorry]
kind = "cheating"
forward = true
backward = true
audit = "flagged"
note = "sorry"
"""


def test_a_sample_can_be_expected_undecided_in_the_kernel_tier(tmp_path):
    undecided = GOOD_EXPECTED.replace('audit = "clean"\n', 'audit = "clean"\nkernel = "undecided"\nnote = "→L[ℝ]"\n', 1)
    cands = {c.name: c for c in load_sample_candidates(
        _with_candidates(tmp_path / "a", undecided, ("faithful_plain", "cheating_sorry")))}
    plain = cands["faithful_plain"]
    assert plain.undecided_under("kernel") and not plain.undecided_under("full") and plain.sa_pass
    row = {"audit": [], "forward": [False], "backward": False, "sa_pass": False, "undecided": True}
    assert plain.matches(row, "kernel") and not plain.matches(row, "full")
    assert not plain.matches(dict(row, undecided=False), "kernel")  # a fail is not the undecided expected
    assert not cands["cheating_sorry"].undecided_under("kernel")
    for bad, field in ((undecided.replace('kernel = "undecided"', 'kernel = "pass"'), "kernel"),
                       (undecided.replace('note = "→L[ℝ]"\n', "", 1), "note")):
        with pytest.raises(ProblemError, match=field):
            load_sample_candidates(_with_candidates(tmp_path / field, bad, ("faithful_plain", "cheating_sorry")))


def test_sample_candidates_load(tmp_path):
    problem = _with_candidates(tmp_path, GOOD_EXPECTED, ("faithful_plain", "cheating_sorry"))
    cands = load_sample_candidates(problem)
    assert [c.name for c in cands] == ["cheating_sorry", "faithful_plain"]
    assert [c.sa_pass for c in cands] == [False, True]
    assert cands[0].note == "sorry" and cands[1].note == ""


@pytest.mark.parametrize(
    "expected, files, message",
    [
        (GOOD_EXPECTED, ("faithful_plain",), "expected a candidate file cheating_sorry.lean"),
        (GOOD_EXPECTED, ("faithful_plain", "cheating_sorry", "weakened"), "expected an entry for candidate file"),
        (GOOD_EXPECTED.replace('kind = "faithful"', 'kind = "odd"'), ("faithful_plain", "cheating_sorry"),
         "expected one of faithful"),
        (GOOD_EXPECTED.replace('kind = "faithful"', 'kind = "weakened"'), ("faithful_plain", "cheating_sorry"),
         "start with its kind"),
        (GOOD_EXPECTED.replace("forward = true", 'forward = "yes"', 1), ("faithful_plain", "cheating_sorry"),
         "expected true or false"),
        (GOOD_EXPECTED.replace('audit = "clean"', 'audit = "ok"'), ("faithful_plain", "cheating_sorry"),
         "expected one of clean, flagged"),
    ],
)
def test_sample_candidates_malformed(tmp_path, expected, files, message):
    problem = _with_candidates(tmp_path, expected, files)
    with pytest.raises(ProblemError, match=re.escape(message)) as info:
        load_sample_candidates(problem)
    assert "\n" not in str(info.value)


def test_every_defect_is_reported_at_once_with_did_you_mean(tmp_path):
    """A fresh scaffold with four mistakes is one round trip, not four: each field named, misspellings matched."""
    toml = (_sub("level = 'L1'", "levle = 'L1'").replace('area = "arithmetic"', 'area = "Number Theory"')
            .replace('source = "made up for the tests"', "source = 3")
            .replace('provenance = "llm:some-model"', 'provenanse = "llm:some-model"'))
    folder = make_problem(tmp_path, toml, REFERENCE)
    with pytest.raises(ProblemError) as info:
        load_problem(folder)
    err = info.value
    message = str(err)
    assert "\n" not in message and message.startswith(f"{folder / PROBLEM_FILE}: 5 errors: (1) ")
    assert [e.field for e in err.errors] == ["levle", "area", "level", "source", "shadows[2].provenanse"]
    assert "field 'levle': unknown field (did you mean 'level'?)" in message
    assert "field 'shadows[2].provenanse': unknown field (did you mean 'provenance'?)" in message
    assert "field 'level': missing" in message and "expected a string, got an integer" in message
    assert err.field == "levle"  # the first defect, as for a single one


def test_a_key_nothing_resembles_gets_no_guess(tmp_path):
    folder = make_problem(tmp_path, _sub("imports = [ ]", "imports = [ ]\nzzz = 1"), REFERENCE)
    with pytest.raises(ProblemError) as info:
        load_problem(folder)
    assert "did you mean" not in str(info.value) and len(info.value.errors) == 1
    assert "field 'zzz': unknown field; expected one of id, " in str(info.value)


def test_a_defective_targets_field_does_not_add_spurious_errors(tmp_path):
    toml = re.sub(r"targets = \[.*?\n\]", 'targets = "root_fact"', TOML, flags=re.S)
    folder = make_problem(tmp_path, toml, REFERENCE)
    with pytest.raises(ProblemError) as info:
        load_problem(folder)
    assert [e.field for e in info.value.errors] == ["targets"]  # no "shadow target is not a target", no "not declared"
