"""Merging expert and LLM shadows into generated decompositions (``pyshadow.shadows.merge``)."""

from __future__ import annotations

import pytest

from pyshadow.errors import BadInput
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.problems import load_problem
from pyshadow.shadows.expert import ExpertShadow
from pyshadow.shadows import decompose
from pyshadow.shadows.checkers import full_tier_checkers
from pyshadow.shadows.merge import (
    ExpertShadowError,
    answer_shadows,
    generated_only,
    merge_shadows,
    provenances,
)
from pyshadow.syntax import parse_declaration, render_term
from pyshadow.references import TargetNotFound, target_declaration as find_target
from pyshadow.workspace import plan_problem

STATEMENT = "theorem foo (n : Nat) (h : 0 < n) : n ≠ 0 ∧ (1 ≤ n ∧ n % 2 < 2)"
T = "Ns.foo"


def expert(statement: str, provenance: str = "expert") -> ExpertShadow:
    return ExpertShadow(T, statement, provenance)


@pytest.fixture
def decl():
    return parse_declaration(STATEMENT)


@pytest.fixture
def generated(decl):
    return decompose(decl, mathlib=False)


def test_generated_first_in_path_order_then_experts_in_file_order(generated):
    merged, report = merge_shadows(generated, [expert("n * 1 = n"), expert("0 < n * n", "llm:m1"), expert("n ≥ 1")])
    assert [s.path_text for s in merged.shadows[:3]] == [".1", ".2.1", ".2.2"]
    assert [render_term(s.statement) for s in merged.shadows[3:]] == ["n * 1 = n", "0 < n * n", "n ≥ 1"]
    assert [s.kind for s in merged.shadows] == ["conjunct"] * 3 + ["expert", "llm", "expert"]
    assert [s.path for s in merged.shadows[3:]] == [(), (), ()]
    assert report.outcomes == (("added", 3), ("added", 4), ("added", 5)) and report.added == 3
    # the input decomposition is not modified
    assert len(generated.shadows) == 3


def test_expert_equal_to_a_generated_shadow_keeps_the_generated_path_and_both_provenances(generated):
    # Tree equality: parentheses and spacing around the skeleton do not matter.
    merged, report = merge_shadows(generated, [expert("(1 ≤ n)"), expert("n  ≠  0", "llm:m1")])
    assert len(merged.shadows) == 3
    assert report.outcomes == (("duplicate", 1), ("duplicate", 0)) and report.added == 0
    assert merged.shadows[1].path_text == ".2.1" and merged.shadows[1].kind == "conjunct"
    assert provenances(merged.shadows[1]) == ("generated", "expert")
    assert provenances(merged.shadows[0]) == ("generated", "llm:m1")
    assert merged.shadows[2].provenance == "generated"


def test_duplicate_experts_collapse_into_the_first(generated):
    merged, report = merge_shadows(
        generated, [expert("n * 1 = n"), expert("n * 1 = n", "llm:m1"), expert("n * 1 = n"), expert("n ≥ 1")]
    )
    assert [render_term(s.statement) for s in merged.shadows[3:]] == ["n * 1 = n", "n ≥ 1"]
    assert provenances(merged.shadows[3]) == ("expert", "llm:m1")
    assert report.outcomes == (("added", 3), ("duplicate", 3), ("duplicate", 3), ("added", 4))


def test_certificate_stays_structural_over_generated_shadows(decl, generated):
    before = full_tier_checkers("p", T, decl, generated)
    merged, _ = merge_shadows(generated, [expert("n * 1 = n"), expert("0 < n * n", "llm:m1")])
    after = full_tier_checkers("p", T, decl, merged)
    assert merged.certificate is generated.certificate and merged.residual == generated.residual
    assert after.backward == before.backward  # no hS_4/hS_5: experts never enter the certificate
    assert "hS_4" not in after.backward.text
    assert after.forward[:3] == before.forward
    assert generated_only(merged).shadows == generated.shadows


def test_expert_forward_checker_is_the_consequence_form(decl, generated):
    merged, _ = merge_shadows(generated, [expert("n * 1 = n", "llm:m1")])
    checker = full_tier_checkers("p", T, decl, merged).forward[3]
    assert checker.name == "shadow_p_4" and checker.term == "" and checker.shadow_index == 3
    assert checker.text == (
        "/-- Shadow 4: llm consequence (llm:m1) -/\n"
        "theorem shadow_p_4 (n : Nat) (h : 0 < n) :\n"
        "    n * 1 = n := by\n"
        "  first\n"
        "  | simpa using @Ns.foo n h\n"
        "  | (have _hc := @Ns.foo n h; simpa using _hc)\n"
        "  | simpa using (show n ≠ 0 ∧ 1 ≤ n ∧ n % 2 < 2 by apply Ns.foo <;> assumption)"
    )


def test_residual_target_gains_forward_checks_but_no_certificate():
    decl = parse_declaration("theorem bar (n : Nat) : ¬(n % 2 = 0 ∧ n % 2 = 1)")
    generated = decompose(decl, mathlib=False)
    assert generated.residual
    merged, _ = merge_shadows(generated, [expert("n % 2 = 0 → n % 2 ≠ 1", "llm:m")])
    checkers = full_tier_checkers("q", "bar", decl, merged)
    assert merged.residual and checkers.backward is None and len(checkers.forward) == 2
    # the identity shadow is the conclusion itself: an expert restating it is a duplicate
    again, report = merge_shadows(generated, [expert("¬(n % 2 = 0 ∧ n % 2 = 1)")])
    assert len(again.shadows) == 1 and report.outcomes == (("duplicate", 0),)


def test_unparsable_statement_is_bad_input(generated):
    with pytest.raises(ExpertShadowError) as info:
        merge_shadows(generated, [expert("n * 1 = n"), expert("(n ≤")])
    assert isinstance(info.value, BadInput) and info.value.index == 1
    assert "cannot parse statement '(n ≤'" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    "problem_id, expected",
    [
        # expert shadows equal to the generated conjuncts: deduped, provenance recorded
        ("saddle_point_derivatives", [(".1", ["generated", "expert"]), (".2", ["generated", "expert"])]),
        ("finite_affine_embedding", [(".1", ["generated", "expert"]), (".2", ["generated", "expert"])]),
        # an atomic target with an LLM-provenance shadow in problem.toml: added after the identity shadow
        ("nat_not_even_and_odd", [("id", ["generated"]), (None, ["llm:gpt-oss-120b"])]),
    ],
)
def test_bundled_expert_shadows(problem_id, expected):
    problem = load_problem(PROBLEMS_DIR / problem_id)
    plan = plan_problem(problem, "M")
    (target,) = plan.targets
    got = [(None if s.kind in ("expert", "llm") else s.path_text, list(provenances(s))) for s in target.merged.shadows]
    assert got == expected


def test_answer_shadows_takes_conclusions_under_the_target_binders(decl):
    code = (
        "theorem shadow_p_4 (n : Nat) (h : 0 < n) : n * 1 = n := by\n  simpa using Ns.foo n h\n\n"
        "theorem shadow_p_5 (m : Nat) (h : 0 < m) : m ≥ 1 := by\n  exact (Ns.foo m h).2.1\n\n"
        "theorem shadow_p_6 (n : Nat) (h : 0 < n) : 0 < n * n := by\n  exact Nat.mul_pos h h\n"
    )
    shadows, reasons = answer_shadows(code, T, decl, "llm:m1")
    assert shadows == [ExpertShadow(T, "n * 1 = n", "llm:m1"), ExpertShadow(T, "0 < n * n", "llm:m1")]
    assert reasons == ["declaration 2: its binders are not the target's"]


def test_find_target_resolves_namespaces():
    src = "namespace A\ntheorem foo (n : Nat) : n = n := rfl\nend A\ntheorem foo (n : Nat) : n ≤ n := Nat.le_refl n\n"
    assert render_term(find_target(src, "A.foo").type) == "n = n"
    assert render_term(find_target(src, "foo").type) == "n ≤ n"
    with pytest.raises(BadInput, match="not declared"):
        find_target(src, "B.foo")
