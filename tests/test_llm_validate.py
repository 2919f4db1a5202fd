"""Extracting Lean code from answers and deciding whether it may go to Lean."""

from __future__ import annotations

import json
import sys
import types

import pytest

from pyshadow.llm.answers import extract_answer, strip_fences
from pyshadow.llm.validate import (
    ValidationSpec,
    conclusion_of,
    forbidden_tokens,
    is_restatement,
    mentions,
    normalise_proposition,
    parse_check,
    validate_answer,
)

TARGET = "theorem foo (n : Nat) (h : 0 < n) : A n ∧ B n"
SHADOW_1 = """example (n : Nat) (h : 0 < n) : A n := by
  first
  | exact (foo n h).1
  | exact (let _hc := foo n h; _hc.1)
"""
SPEC = ValidationSpec(required_names=("foo",), every_declaration_uses="foo", target_statement=TARGET)


# --- extraction -------------------------------------------------------------------------------------------------


def test_bare_json_answer() -> None:
    text = json.dumps({"checker_code": SHADOW_1, "items": [{"checker_name": "a"}, "junk"], "rationale": "r"})
    answer = extract_answer("  " + text + "\n")
    assert (answer.source, answer.code, answer.items, answer.rationale) == ("json", SHADOW_1, [{"checker_name": "a"}], "r")


def test_json_inside_a_json_fence_and_code_fenced_inside_the_string() -> None:
    inner = json.dumps({"checker_code": "```lean\n" + SHADOW_1 + "```", "items": []})
    answer = extract_answer(f"Here you go:\n```json\n{inner}\n```\n")
    assert answer.source == "json"
    assert answer.code == SHADOW_1


def test_lean_fences_are_concatenated_in_order() -> None:
    text = "Thought: split it.\n```lean\nexample : A := foo.1\n```\nand\n```lean4\nexample : B := foo.2\n```\n"
    answer = extract_answer(text)
    assert answer.source == "lean"
    assert answer.code == "example : A := foo.1\n\nexample : B := foo.2\n"


def test_permissive_fallbacks() -> None:
    embedded = 'Sure! {"checker_code": "example : A := foo.1"} hope it helps'
    assert extract_answer(embedded).code == "example : A := foo.1\n"
    assert extract_answer(embedded).source == "permissive"
    assert extract_answer("```\nexample : A := foo.1\n```").code == "example : A := foo.1\n"
    assert extract_answer("theorem t : A := foo.1").code == "theorem t : A := foo.1\n"
    assert extract_answer("I cannot do this.").source == "none"
    assert extract_answer("I cannot do this.").code == ""


def test_strip_fences_leaves_plain_code_alone() -> None:
    assert strip_fences("example : A := foo.1") == "example : A := foo.1"
    assert strip_fences("```lean\nexample : A := foo.1\n```") == "example : A := foo.1\n"


# --- forbidden tokens -------------------------------------------------------------------------------------------


def test_forbidden_words_as_code_are_found_once_each_in_order() -> None:
    code = "example : A := by sorry\nexample : B := by admit\naxiom x : False\nnamespace N\nend N\nexample : C := sorry"
    assert forbidden_tokens(code) == ["sorry", "admit", "axiom", "namespace", "end"]


def test_forbidden_words_in_comments_strings_and_names_do_not_count() -> None:
    code = """/-- A docstring mentioning sorry. -/
example : A := by
  -- no sorry here
  /- nor here /- nested admit -/ still comment: axiom -/
  have s : String := "sorry, end of namespace"
  have c : Char := 'x'
  exact foo.1 -- sorry_free, end_of_proof
theorem sorry_free («sorry» : Nat) (h' : end_of x) : True := trivial
"""
    assert forbidden_tokens(code) == []


def test_interpolated_strings_unterminated_and_commands_are_caught() -> None:
    assert forbidden_tokens('example : True := by simp [s!"{sorry}"]') == ["sorry"]
    assert forbidden_tokens("example : True := trivial /- open") == ["unterminated comment"]
    assert forbidden_tokens('example : True := "open') == ["unterminated string"]
    assert forbidden_tokens("#exit\nexample : True := trivial") == ["command `#exit`"]
    assert forbidden_tokens("macro \"t\" : tactic => `(tactic| trivial)") == ["command `macro`"]
    assert forbidden_tokens("set_option debug.skipKernelTC true in\nexample : A := foo") == [
        "set_option debug.skipKernelTC"
    ]
    assert forbidden_tokens("set_option maxHeartbeats 400000 in\nexample : A := foo") == []
    assert forbidden_tokens("example : A := sorryAx _ false") == ["sorryAx"]


# --- names, conclusions, restatement ----------------------------------------------------------------------------


def test_mentions_matches_identifiers_not_text() -> None:
    assert mentions("exact (foo n h).1", "foo")
    assert mentions("exact @foo _ h", "foo")
    assert mentions("exact foo.mp", "foo")
    assert mentions("exact Ns.foo n", "foo")
    assert mentions("exact (Ns.foo n).2", "Ns.foo")
    assert not mentions("exact foo n", "Ns.foo")
    assert not mentions("exact foo_bar n -- foo", "foo")
    assert not mentions('exact "foo"', "foo")


def test_conclusion_of_headers_with_let_and_attributes() -> None:
    assert conclusion_of(TARGET) == "A n ∧ B n"
    assert conclusion_of("@[simp] private theorem t {α : Type} [Inhabited α] (x : α) : x = x := rfl") == "x = x"
    assert conclusion_of("example : let s := 3; s = 3 := by rfl") == "let s := 3; s = 3"
    assert conclusion_of("A ∧ B") == "A ∧ B"
    assert normalise_proposition("((A n ∧\n   B n)) -- note") == "A n ∧ B n"
    assert normalise_proposition("(A n) ∧ (B n)") == "( A n ) ∧ ( B n )"


def test_is_restatement() -> None:
    assert is_restatement("example (n : Nat) (h : 0 < n) :\n    (A n  ∧ B n) := by exact foo n h", TARGET)
    assert is_restatement("A n ∧ B n", TARGET)
    assert not is_restatement("example (n : Nat) (h : 0 < n) : A n := by exact (foo n h).1", TARGET)
    assert not is_restatement("example : B n ∧ A n := foo", TARGET)


# --- the validator ----------------------------------------------------------------------------------------------


def test_a_good_shadow_is_accepted() -> None:
    assert validate_answer(SHADOW_1, SPEC) == []


def test_sorry_is_rejected_but_sorry_in_comment_or_string_is_accepted() -> None:
    assert validate_answer(SHADOW_1 + "  | sorry\n", SPEC) == ["forbidden: sorry"]
    commented = SHADOW_1.replace("first", 'first -- not `sorry`\n  /- sorry -/') + '  | exact absurd "sorry" h\n'
    assert validate_answer(commented, SPEC) == []


def test_restatement_and_unused_target_are_rejected_per_declaration() -> None:
    code = SHADOW_1 + "\nexample (n : Nat) (h : 0 < n) : A n ∧ B n := by exact foo n h\n"
    code += "\nexample (n : Nat) (h : 0 < n) : B n := by exact bar n\n"
    reasons = validate_answer(code, SPEC)
    assert reasons == [
        "declaration 2 (example) restates the target's conclusion instead of a part of it",
        "declaration 3 (example) does not use `foo`",
    ]


def test_structural_rejections() -> None:
    assert validate_answer("  \n", SPEC) == ["the answer contains no Lean code"]
    assert validate_answer("exact (foo n h).1", SPEC) == ["no declaration found"]
    assert "declaration 1 (example) has no `:=` body" in validate_answer("example (n : Nat) : A n", SPEC)
    assert validate_answer("def d (n : Nat) : Nat := foo n", SPEC) == [
        "declaration 1 (def d): `def` is not allowed here (only theorem, lemma, example)"
    ]
    banned = ValidationSpec(required_names=("shadow_p_backward",), banned_names=("foo",), allowed_keywords=("theorem",))
    assert validate_answer("theorem shadow_p_backward (h_1 : A) : A := foo", banned) == ["`foo` must not be used"]
    assert validate_answer("theorem other (h_1 : A) : A := h_1", banned) == ["`shadow_p_backward` is not used"]


def test_ill_formed_header_is_rejected_by_the_grammar() -> None:
    reasons = validate_answer("example (n : Nat) (h : 0 < n) : A n ∧ := (foo n h).1\n", SPEC)
    assert len(reasons) == 1 and reasons[0].startswith("declaration 1 does not parse: ")


def test_parse_check_is_skipped_when_the_syntax_module_is_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyshadow.syntax", None)  # import now raises ModuleNotFoundError
    assert parse_check("example (n : Nat : A n := rfl") is None


def test_parse_check_reports_the_first_parse_error(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("pyshadow.syntax")

    class ParseError(Exception):
        pass

    def parse_declaration(text: str) -> object:
        if "bad" in text:
            raise ParseError("unexpected token 'bad' (line 1, column 10)\ncontext …")
        return object()

    fake.ParseError = ParseError  # type: ignore[attr-defined]
    fake.parse_declaration = parse_declaration  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pyshadow.syntax", fake)
    code = "example : A := foo.1\ntheorem t : bad := foo.2\n"
    assert parse_check(code) == "declaration 2 does not parse: unexpected token 'bad' (line 1, column 10)"
    monkeypatch.delattr(fake, "parse_declaration")
    assert parse_check(code) is None  # a syntax module without the parser yet: skipped
