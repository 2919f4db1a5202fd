"""Tests of candidate loading, extraction of the checked declaration, scopes and rule-based name fixing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyshadow.errors import BadInput
from pyshadow.score.candidates import Candidate, CandidateError, load_candidates, split_results
from pyshadow.syntax.scanner import (
    declaration_headers,
    declarations,
    extract_target,
    match_names,
    name_match,
    normalize_name,
    rename_map,
    walk_scopes,
)
from pyshadow.syntax.declarations import find_declarations

FIXTURES = Path(__file__).parent / "fixtures" / "audit"

HERSTEIN = "theorem exercise_2_1_27 {G : Type*} [Group G]\n  [Fintype G] : ∃ (m : ℕ), ∀ (a : G), a ^ m = 1"


# ---------------------------------------------------------------------------------------------------------------
# Extraction


def test_trailing_primed_backup_is_the_one_checked_and_it_fails():
    """Paper J.6: a backup declaration ending in `sorry` after the real attempt is the one checked."""
    src = (FIXTURES / "cheating" / "backup_declaration_J6.lean").read_text(encoding="utf-8")
    ex = extract_target(src, "exercise_2_1_27")
    assert ex is not None
    assert (ex.qualified_name, ex.match, ex.has_sorry) == ("exercise_2_1_27'", "primed", True)
    assert src[ex.start : ex.end].lstrip().startswith("theorem exercise_2_1_27'")
    assert ex.line == src[: src.index("theorem exercise_2_1_27'")].count("\n") + 1


def test_trailing_same_name_backup_with_sorry():
    src = f"{HERSTEIN} := by\n  exact ⟨_, fun a => pow_card_eq_one⟩\n\n{HERSTEIN} := by\n  sorry\n"
    ex = extract_target(src, "exercise_2_1_27")
    assert ex is not None and ex.match == "exact" and ex.has_sorry
    assert ex.start == src.rindex("theorem")


def test_without_primed_matching_the_main_declaration_is_checked():
    src = (FIXTURES / "cheating" / "backup_declaration_J6.lean").read_text(encoding="utf-8")
    ex = extract_target(src, "exercise_2_1_27", match_primed=False)
    assert ex is not None and ex.qualified_name == "exercise_2_1_27" and not ex.has_sorry
    assert ex.header == HERSTEIN


def test_sorry_before_the_last_declaration_does_not_sink_it():
    src = "theorem t : 1 = 1 := sorry\ntheorem t₂ : True := trivial\ntheorem t : 1 = 1 := rfl\n"
    ex = extract_target(src, "t")
    assert ex is not None and not ex.has_sorry and ex.line == 3


def test_sorry_in_comments_and_strings_is_not_sorry():
    src = 'theorem t : "sorry".length = 5 := by\n  -- sorry\n  decide /- admit -/\n'
    ex = extract_target(src, "t")
    assert ex is not None and not ex.has_sorry


def test_namespaced_candidate_gets_its_qualified_name():
    src = "namespace Solution\nnamespace Inner\ntheorem mathd_algebra_160 : True := trivial\nend Inner\nend Solution\n"
    ex = extract_target(src, "mathd_algebra_160")
    assert ex is not None
    assert (ex.name, ex.match) == ("mathd_algebra_160", "namespaced")
    assert ex.qualified_name == "Solution.Inner.mathd_algebra_160"


def test_dotted_declaration_name_and_root():
    src = "namespace Work\ntheorem Sub.t : True := trivial\ntheorem _root_.t : True := trivial\nend Work\n"
    names = [d.qualified_name for d in declarations(src)]
    assert names == ["Work.Sub.t", "t"]
    ex = extract_target(src, "t")
    assert ex is not None and (ex.qualified_name, ex.match) == ("t", "exact")


def test_root_fixture_and_header():
    src = (FIXTURES / "benign" / "root_namespaced_theorem.lean").read_text(encoding="utf-8")
    ex = extract_target(src, "aime_1983_p2")
    assert ex is not None and ex.qualified_name == "aime_1983_p2" and ex.match == "exact"
    assert ex.header.startswith("theorem _root_.aime_1983_p2\n  (x p : ℝ)") and ex.header.endswith("15 ≤ f x")


def test_target_declared_as_def_still_extracted():
    ex = extract_target("def foo : ℕ := 3\n", "foo")
    assert ex is not None and ex.keyword == "def"


def test_no_matching_declaration():
    assert extract_target("theorem other : True := trivial\n", "target") is None
    assert extract_target("theorem target_helper : True := trivial\n", "target") is None


def test_qualified_target_name():
    src = "namespace Foo\ntheorem bar : True := trivial\nend Foo\n"
    ex = extract_target(src, "Foo.bar")
    assert ex is not None and ex.match == "exact"
    assert extract_target("theorem bar : True := trivial", "Foo.bar").match == "namespaced"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "qualified, target, rule",
    [
        ("foo", "foo", "exact"),
        ("«foo»", "foo", "exact"),
        ("_root_.foo", "foo", "exact"),
        ("A.B.foo", "foo", "namespaced"),
        ("foo'", "foo", "primed"),
        ("A.foo''", "foo", "primed"),
        ("foo", "foo'", "primed"),
        ("foobar", "foo", None),
        ("A.xfoo", "foo", None),
    ],
)
def test_name_match(qualified, target, rule):
    assert name_match(qualified, target) == rule


def test_normalize_name():
    assert normalize_name("_root_.«a b».c") == "a b.c"


# ---------------------------------------------------------------------------------------------------------------
# Scopes


def test_scopes_balanced():
    src = "namespace A.B\nsection\nend\nend A.B\nnamespace C\nnamespace D\nend D\nend C\nmutual\nend\n"
    assert walk_scopes(src).problems == ()


def test_scopes_close_dotted_namespace_one_component_at_a_time():
    walk = walk_scopes("namespace A.B\ntheorem x : True := trivial\nend B\nend A\n")
    assert walk.problems == ()
    assert walk.namespace_at(20) == ("A", "B")


@pytest.mark.parametrize(
    "src, message",
    [
        ("namespace Foo\n", "namespace Foo is never closed"),
        ("section\n", "anonymous section is never closed"),
        ("namespace Foo\nend Bar\n", "`end Bar` does not match the open namespace Foo"),
        ("namespace Foo\nend\n", "`end` does not match the open namespace Foo"),
        ("section S\nend\n", "`end` does not match the open section S"),
        ("end\n", "`end` closes more scopes than are open"),
        ("mutual\n", "mutual block is never closed"),
    ],
)
def test_scope_problems(src, message):
    assert [p.message for p in walk_scopes(src).problems] == [message]


def test_scope_keywords_in_comments_and_strings_are_ignored():
    assert walk_scopes('-- namespace Foo\n/- end -/\ndef s := "section"\n').problems == ()


# ---------------------------------------------------------------------------------------------------------------
# Rule-based name fixing


def test_rename_map_name_rules():
    cands = ["Solution.main_thm", "aux_def'", "_root_.helper"]
    targets = ["main_thm", "aux_def", "helper", "missing"]
    assert rename_map(cands, targets) == {"main_thm": "Solution.main_thm", "aux_def": "aux_def'", "helper": "helper"}
    assert [m.rule for m in match_names(cands, targets)] == ["namespaced", "primed", "exact"]


def test_rename_map_signature_rule():
    cands = {"main": "theorem main (n : ℕ) : f n = 0", "my_f": "def my_f (n:ℕ) :\n    ℕ", "g": "def g : ℕ"}
    targets = {"main": "theorem main (n : ℕ) : f n = 0", "f": "def f (n : ℕ) : ℕ"}
    matches = match_names(cands, targets)
    assert [(m.target, m.candidate, m.rule) for m in matches] == [("main", "main", "exact"), ("f", "my_f", "signature")]


def test_rename_map_signature_rule_sees_earlier_renames():
    targets = {"f": "def f (n : ℕ) : ℕ", "main": "theorem main (n : ℕ) : f n = 0"}
    cands = {"my_f": "def my_f (n : ℕ) : ℕ", "Sol.my_main": "theorem my_main (n : ℕ) : my_f n = 0", "g": "def g : ℕ"}
    assert rename_map(cands, targets) == {"f": "my_f", "main": "Sol.my_main"}


def test_rename_map_ambiguous_signature_is_left_unmatched():
    cands = {"a": "def a (n : ℕ) : ℕ", "b": "def b (n : ℕ) : ℕ"}
    assert rename_map(cands, {"f": "def f (n : ℕ) : ℕ"}) == {}
    two_targets = {"f": "def f (n : ℕ) : ℕ", "g": "def g (n : ℕ) : ℕ"}
    assert rename_map({"a": "def a (n : ℕ) : ℕ"}, two_targets) == {}


def test_each_candidate_is_used_once_and_last_declared_wins():
    assert rename_map(["A.foo", "B.foo"], ["foo"]) == {"foo": "B.foo"}
    assert rename_map(["foo"], ["foo", "Ns.foo"]) == {"foo": "foo"}


def test_declaration_headers_feed_rename_map():
    src = "namespace S\ndef myF (n : ℕ) : ℕ := n\ntheorem main (n : ℕ) : myF n = n := rfl\nend S\n"
    headers = declaration_headers(src)
    assert headers == {"S.myF": "def myF (n : ℕ) : ℕ", "S.main": "theorem main (n : ℕ) : myF n = n"}
    assert rename_map(headers, {"f": "def f (n : ℕ) : ℕ", "main": None}) == {"main": "S.main", "f": "S.myF"}


# ---------------------------------------------------------------------------------------------------------------
# Loading


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


GOOD = "theorem t : True := trivial\n"


def test_flat_folder(tmp_path: Path):
    folder = tmp_path / "gpt"
    write(folder / "p1.lean", GOOD)
    write(folder / "p2.lean", GOOD)
    write(folder / "notes.txt", "ignored")
    results = load_candidates(folder)
    assert [(r.problem_id, r.system) for r in results] == [("p1", "gpt"), ("p2", "gpt")]
    assert all(isinstance(r, Candidate) and r.code == GOOD for r in results)
    assert load_candidates(folder, system="other")[0].system == "other"


def test_per_system_folders(tmp_path: Path):
    write(tmp_path / "sysA" / "p1.lean", GOOD)
    write(tmp_path / "sysB" / "p1.lean", GOOD)
    results = load_candidates(tmp_path)
    assert [(r.system, r.problem_id) for r in results] == [("sysA", "p1"), ("sysB", "p1")]


def test_slashed_problem_ids_resolved_with_known_ids(tmp_path: Path):
    known = {"minif2f/aime_1983_p1", "proofnet/Rudin_exercise_3_1a"}
    flat = tmp_path / "flat"
    write(flat / "minif2f" / "aime_1983_p1.lean", GOOD)
    assert [(r.system, r.problem_id) for r in load_candidates(flat, known)] == [("flat", "minif2f/aime_1983_p1")]
    nested = tmp_path / "nested"
    write(nested / "claude" / "proofnet" / "Rudin_exercise_3_1a.lean", GOOD)
    assert [(r.system, r.problem_id) for r in load_candidates(nested, known)] == [
        ("claude", "proofnet/Rudin_exercise_3_1a")
    ]
    forced = load_candidates(flat, layout="flat")
    assert [(r.system, r.problem_id) for r in forced] == [("flat", "minif2f/aime_1983_p1")]


def test_bad_files_are_reported_and_the_rest_loads(tmp_path: Path):
    folder = tmp_path / "sys"
    write(folder / "good.lean", GOOD)
    write(folder / "empty.lean", "  \n\n")
    write(folder / "latin1.lean", "theorem t : True := trivial -- caf\xe9\n".encode("latin-1"))
    write(folder / "stranger.lean", GOOD)
    candidates, errors = split_results(load_candidates(folder, {"good", "empty", "latin1"}))
    assert [c.problem_id for c in candidates] == ["good"]
    reasons = {e.problem_id: e.reason for e in errors}
    assert reasons["empty"] == "empty file"
    assert reasons["latin1"].startswith("not valid UTF-8 (byte 0xe9")
    assert reasons["stranger"] == "unknown problem 'stranger'"
    assert all(e.system == "sys" and e.origin.endswith(".lean") for e in errors)


def test_jsonl_good_and_bad_lines(tmp_path: Path):
    lines = [
        json.dumps({"problem_id": "p1", "system": "s", "code": GOOD}),
        "",
        "{not json",
        json.dumps({"problem_id": "p2", "system": "s"}),
        json.dumps(["a", "list"]),
        json.dumps({"problem_id": "zzz", "system": "s", "code": GOOD}),
        json.dumps({"problem_id": "p3", "system": "s", "code": "   "}),
        json.dumps({"system": "s", "code": GOOD}),
        json.dumps({"problem_id": "p4", "code": GOOD}),
        json.dumps({"problem_id": "p7", "system": "s", "code": GOOD, "sample": True}),
        json.dumps({"problem_id": "p5", "system": "s", "code": 3}),
    ]
    data = ("\n".join(lines) + "\n").encode() + b'{"problem_id": "p6", "code": "\xff"}\n'
    path = write(tmp_path / "run7.jsonl", data)
    results = load_candidates(path, {"p1", "p2", "p3", "p4", "p5", "p6", "p7"})
    candidates, errors = split_results(results)
    assert [(c.problem_id, c.system, c.origin) for c in candidates] == [
        ("p1", "s", f"{path}:1"),
        ("p4", "run7", f"{path}:9"),
    ]
    assert [e.reason for e in errors] == [
        "line 3: not valid JSON (Expecting property name enclosed in double quotes at column 2)",
        "line 4: no 'code' field",
        "line 5: expected a JSON object, got list",
        "line 6: unknown problem 'zzz'",
        "line 7: empty code",
        "line 8: no 'problem_id' (a non-empty string)",
        "line 10: 'sample' must be a non-empty string or an integer",
        "line 11: 'code' must be a string",
        "line 12: not valid UTF-8 (byte 0xff at offset 30)",
    ]
    assert [e.origin.rsplit(":", 1)[1] for e in errors] == ["3", "4", "5", "6", "7", "8", "10", "11", "12"]
    assert errors[1].problem_id == "p2" and errors[0].problem_id is None


def test_unusable_source_is_bad_input(tmp_path: Path):
    with pytest.raises(BadInput, match="no such file"):
        load_candidates(tmp_path / "nothing")
    other = write(tmp_path / "cands.csv", "a,b\n")
    with pytest.raises(BadInput, match="expected a folder"):
        load_candidates(other)


def test_candidate_error_fields():
    e = CandidateError(None, None, "x.jsonl:3", "line 3: not valid JSON")
    assert (e.problem_id, e.system, e.origin) == (None, None, "x.jsonl:3")


# ---------------------------------------------------------------------------------------------------------------
# Lexer gaps that affect extraction (the lexer is not ours to edit; see the report)


def test_lexer_finds_declaration_after_open_in_on_one_line():
    assert [d.name for d in find_declarations("open Real in theorem foo : True := trivial")] == ["foo"]


def test_lexer_finds_declaration_after_inline_docstring():
    assert [d.name for d in find_declarations("/-- doc -/ theorem foo : True := trivial")] == ["foo"]


def test_lexer_hash_command_ends_declaration():
    src = "theorem a : True := trivial\n#print axioms a\n"
    (decl,) = find_declarations(src)
    assert decl.end == src.index("#print")


# ---------------------------------------------------------------------------------------------------------------
# Several samples per (system, problem)


def test_jsonl_samples_and_a_true_duplicate(tmp_path: Path):
    lines = [json.dumps({"problem_id": "p1", "system": "s", "code": GOOD, "sample": k}) for k in (1, 2, "3")]
    path = write(tmp_path / "k.jsonl", "\n".join(lines) + "\n")
    loaded = load_candidates(path, {"p1"})
    assert [(c.system, c.problem_id, c.sample) for c in loaded] == [("s", "p1", "1"), ("s", "p1", "2"),
                                                                     ("s", "p1", "3")]
    dup = write(tmp_path / "dup.jsonl", "\n".join([*lines, lines[1]]) + "\n")
    with pytest.raises(BadInput, match=r"dup.jsonl:4: a second candidate for system 's', problem 'p1' with "
                                       r"sample '2' \(first one: .*dup.jsonl:2\)"):
        load_candidates(dup, {"p1"})
    # two candidates for one (system, problem) without sample ids: which one counts is not said — bad input
    none = write(tmp_path / "none.jsonl", "\n".join(json.dumps({"problem_id": "p1", "system": "s", "code": GOOD})
                                                    for _ in range(2)) + "\n")
    with pytest.raises(BadInput, match="with no sample id"):
        load_candidates(none, {"p1"})


def test_folder_samples(tmp_path: Path):
    for k in (1, 2, 10):
        write(tmp_path / "gpt" / "p1" / f"{k}.lean", GOOD)
    write(tmp_path / "gpt" / "p2.lean", GOOD)
    for known in ({"p1", "p2"}, None):
        loaded = load_candidates(tmp_path, known)
        assert sorted((c.system, c.problem_id, c.sample) for c in loaded) == [
            ("gpt", "p1", "1"), ("gpt", "p1", "10"), ("gpt", "p1", "2"), ("gpt", "p2", None)]
    # a slashed problem id still wins over the sample reading when it is the known one
    write(tmp_path / "other" / "minif2f" / "aime.lean", GOOD)
    got = [(c.system, c.problem_id, c.sample) for c in load_candidates(tmp_path / "other", {"minif2f/aime"})]
    assert got == [("other", "minif2f/aime", None)]
