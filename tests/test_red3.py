"""Red team 3 (tests/fixtures/precision/RED3.md): changed statements aimed at the kernel tier's Python readings —
a variable fixed by a hypothesis or a helper definition replaced by a compound value, the file's ``variable`` s,
the scope of ``open`` — and the same-meaning partners of each reading found wrong. No changed pair may pass but
the known ones RED3.md lists (a reading outside the kernel's files); every partner passes."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from pyshadow.kernel.keys import term_key
from pyshadow.kernel.opens import PARTIAL, SCOPED, opened_namespaces
from pyshadow.kernel.casts import stands_alone
from pyshadow.kernel.binder_types import BinderTypes
from pyshadow.kernel.context_variables import with_context_variables
from pyshadow.kernel.pairs import evaluate, read_pairs
from pyshadow.syntax import parse_declaration
from pyshadow.syntax import terms as tm
from pyshadow.syntax.render import render_binders

FOLDER = Path(__file__).parent / "fixtures" / "precision"
PAIRS = FOLDER / "red3_pairs.jsonl"



def _rows() -> list[dict]:
    return [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def red3_results(kernel_lean_exe):
    return evaluate(read_pairs(PAIRS), kernel_lean_exe, n_jobs=2)


@pytest.mark.kernel
def test_no_changed_pair_of_red3_passes(red3_results):
    passed = {r.pair.id for r in red3_results if r.verdict == "pass" and not r.pair.same_meaning}
    assert not passed, sorted(passed)


@pytest.mark.kernel
def test_every_same_meaning_partner_passes(red3_results):
    missed = [(r.pair.id, r.verdict, r.reason[:200]) for r in red3_results
              if r.pair.same_meaning and r.verdict != "pass"]
    assert missed == []


def test_red3_file_is_the_output_of_its_builder():
    sys.path.insert(0, str(FOLDER))
    try:
        built = importlib.import_module("build_red3").rows()
    finally:
        sys.path.remove(str(FOLDER))
    assert built == _rows()
    by_id = {r["id"]: r for r in built}
    for r in built:  # partners point both ways, and a partner guards its changed row's reading
        if r["same_meaning"] and "partner" in r:
            assert by_id[r["partner"]]["reading"] == r["reading"] and not by_id[r["partner"]]["same_meaning"]


def test_opens_are_scoped_as_lean_scopes_them():
    assert opened_namespaces("open Real") == {"Real"}
    assert opened_namespaces("open Real in\nlemma aux : (0 : ℝ) < 1 := by norm_num") == set()
    assert opened_namespaces("open Real in") == {"Real"}  # the context's last command covers the statement
    assert opened_namespaces("open Real in noncomputable def q : ℝ := π / 2") == set()
    assert opened_namespaces("section\nopen Real\nend") == set()
    assert opened_namespaces("namespace Nat\nend Nat") == set()
    assert opened_namespaces("namespace Foo\nopen Real\ndef x := 1") == {"Foo", "Real"}
    assert opened_namespaces("open scoped Real") == {"Real" + SCOPED}
    assert opened_namespaces("open Nat hiding sqrt") == {"Nat" + PARTIAL}
    assert opened_namespaces("", "open Real in") == {"Real"}
    assert opened_namespaces("namespace Foo\n  open Real\n  def x := 1\nend Foo") == set()  # indented commands
    assert opened_namespaces("namespace A.B\n  open Real") == {"A", "A.B", "Real"}


def test_short_names_resolve_only_through_a_full_open():
    assert term_key("sqrt x", frozenset({"Real"})) == "Real.sqrt x"
    assert term_key("sqrt x", frozenset({"Real" + SCOPED})) == "sqrt x"  # not Real.sqrt: the mutation partner
    assert term_key("π", frozenset({"Real" + SCOPED})) == "Real.pi"  # the scoped notation is open
    ambiguous = term_key("sqrt x", frozenset({"Nat", "Real"}))
    assert ambiguous == term_key("sqrt x", frozenset({"Real", "Nat"})) != term_key("sqrt x", frozenset())
    assert ambiguous != term_key("sqrt x", frozenset({"NNReal", "Nat"}))
    assert term_key("sqrt n", frozenset({"Nat" + PARTIAL})) != term_key("sqrt n", frozenset({"Nat"}))


def test_a_compound_value_does_not_stand_alone():
    typing = BinderTypes({"m": "ℕ", "f": "ℕ → ℕ"})
    assert stands_alone(tm.read_term("m"), typing) and stands_alone(tm.read_term("f m"), typing)
    assert not stands_alone(tm.read_term("m - 1"), typing)
    assert not stands_alone(tm.read_term("m / 2"), typing)


def test_context_variables_are_the_first_binders():
    def binders(context: str, statement: str) -> str:
        return render_binders(with_context_variables(parse_declaration(statement), context).binders)

    assert binders("variable (x : ℕ)", "theorem t (h : 0 < x) : 0 < x") == "(x : ℕ) (h : 0 < x)"
    # a hypothesis variable the statement does not mention is not included
    assert binders("variable (m : ℕ) (hm : 10 < m)", "theorem t (h : 3 ≤ m) : m < 9") == "(m : ℕ) (h : 3 ≤ m)"
    assert binders("variable {α : Type*} [Fintype α] (s : Finset α)", "theorem t : s.card ≤ 3") == \
        "{α : Type*} [Fintype α] (s : Finset α)"
    assert binders("section\nvariable (x : ℕ)\nend", "theorem t (h : 0 < x) : 0 < x") == "(h : 0 < x)"
    assert binders("variable (x : ℕ)", "theorem t (x : ℝ) : 0 ≤ x ^ 2") == "(x : ℝ)"  # shadowed
    assert binders("variable (x : ℕ) (hx : 0 < x)\ninclude hx", "theorem t : 0 ≤ x") == "(x : ℕ) (hx : 0 < x)"


def test_a_leaf_the_expected_type_reaches_is_not_ascribed_with_another_type():
    from pyshadow.kernel.casts import expected_type_reaches

    typing = BinderTypes({"a": "ℕ", "b": "ℕ", "n": "ℕ"})
    for text in ("∑ i ∈ Finset.range n, (i - 1)", "min (a - b) 1", "if n = 0 then 0 else n - 2"):
        node = tm.read_term(text)
        assert typing.type_of(node) == "ℕ"  # ∑ over `range n`'s elements, `min`, `if`: one ℕ tree
        assert expected_type_reaches(node, "ℝ", typing), text  # `(… : ℝ)` would work inside at ℝ
        assert not expected_type_reaches(node, "ℕ", typing), text  # at its own type the ascription is neutral
    for text in ("a - b", "Nat.sqrt a", "3⁻¹", "↑(a - b)"):  # a tree, a fixed signature, numerals, a cast
        assert not expected_type_reaches(tm.read_term(text), "ℝ", typing), text


def test_a_fixed_variable_keeps_its_value_s_type():
    from pyshadow.kernel.definitions import normalize_declaration
    from pyshadow.syntax.render import render_term

    def read(text: str) -> tuple[str, str]:
        d = normalize_declaration(parse_declaration(text))
        return render_binders(d.binders), render_term(d.type)

    # ℕ subtraction stays ℕ's under the cast (the mutation partner: `(m : ℝ) - 1` reads otherwise)
    assert read("theorem t (m n : ℕ) (hn : n = m - 1) : Real.arctan (n : ℝ) ≥ 0")[1] == \
        read("theorem t (m : ℕ) : Real.arctan ((m - 1 : ℕ) : ℝ) ≥ 0")[1] != \
        read("theorem t (m : ℕ) : Real.arctan ((m : ℝ) - 1) ≥ 0")[1]
    # a sum elaborated alone (ℕ) is not substituted where the variable is real …
    assert "hS" in read("theorem t (n : ℕ) (S : ℝ) (hS : S = ∑ i in Finset.range n, (i - 1)) : S ≥ 0")[0]
    # … and is where it is of the variable's own type
    assert read("theorem t (n S : ℕ) (hS : S = ∑ i in Finset.range n, (i - 1)) : S ≥ 0")[0] == "(n : ℕ)"
