"""The variant generator: each rewrite on hand-written statements (exact output), on the dev corpus and on the
bundled problems (every variant parses back and is labelled), and the negative controls."""

import pytest

from pyshadow.paths import PROBLEMS_DIR
from pyshadow.problems import load_problems, reference_text
from pyshadow.references import target_declaration
from pyshadow.robustness.variants import (
    ALL_RULES,
    CONTROL,
    FAITHFUL,
    KINDS,
    RULES_BY_KIND,
    generate_variants,
)
from pyshadow.robustness.controls import supplied
from pyshadow.robustness.rewrite_trees import in_dependency_order
from pyshadow.syntax import parse_declaration, parse_term, render_declaration


def rewrite(kind: str, statement: str, *, mathlib: bool = True) -> list[str]:
    """The texts of the variants of one kind (without the declaration prefix)."""
    variants, failures = generate_variants(parse_declaration(statement), mathlib=mathlib, kinds=[kind])
    assert not failures, failures
    assert all(v.kind == kind for v in variants)
    return [render_declaration(v.declaration, with_prefix=False) for v in variants]


def only(kind: str, statement: str, **kw) -> str:
    texts = rewrite(kind, statement, **kw)
    assert len(texts) == 1, texts
    return texts[0]


# ---------------------------------------------------------------------------------------------------------------
# Binders


def test_explicit_variables_become_implicit_only_where_a_later_hypothesis_mentions_them():
    assert only("implicit_binders", "theorem t (a b c : Nat) (h : b ≤ a) : a - b + b = a + c") == \
        "theorem t {a b : Nat} (c : Nat) (h : b ≤ a) : a - b + b = a + c"
    assert rewrite("implicit_binders", "theorem t (a : Nat) : a = a") == []


def test_implicit_and_strict_implicit_binders_become_explicit():
    assert only("explicit_binders", "theorem t {n : ℕ} ⦃x : Fin n⦄ (h : x.val = 0) : n > 0") == \
        "theorem t (n : ℕ) (x : Fin n) (h : x.val = 0) : n > 0"


def test_instance_binders_swap_only_when_independent():
    assert only("instances_reordered", "theorem t {G : Type*} [Group G] [Fintype G] (x : G) : x = x") == \
        "theorem t {G : Type*} [Fintype G] [Group G] (x : G) : x = x"
    assert only("instances_reordered", "theorem t {G R : Type*} [Group G] [Ring R] (x : G) : x = x") == \
        "theorem t {G R : Type*} [Ring R] [Group G] (x : G) : x = x"
    # InnerProductSpace ℝ V needs the NormedAddCommGroup V instance before it: never swapped
    assert rewrite("instances_reordered",
                   "theorem t {V : Type*} [NormedAddCommGroup V] [InnerProductSpace ℝ V] (x : V) : x = x") == []


def test_instance_binders_named_and_made_anonymous():
    assert only("instances_named", "theorem t {G : Type*} [Group G] (x : G) : x = x") == \
        "theorem t {G : Type*} [instGroup : Group G] (x : G) : x = x"
    assert only("instances_anonymous", "theorem t {G : Type*} [inst : Group G] (x : G) : x = x") == \
        "theorem t {G : Type*} [Group G] (x : G) : x = x"
    # a name something mentions keeps its name
    assert rewrite("instances_anonymous", "theorem t {p : ℕ} [hp : Fact p.Prime] : p.Prime ∧ hp = hp") == []


def test_type_star_gets_one_universe_per_name():
    assert only("type_star_as_universe", "theorem t {α β : Type*} (f : α → β) : f = f") == \
        "theorem t.{u_1, u_2} {α : Type u_1} {β : Type u_2} (f : α → β) : f = f"


def test_a_universe_used_once_becomes_type_star_on_mathlib_only():
    assert only("universe_as_type_star", "theorem t.{u} {α : Type u} (l : List α) : l = l") == \
        "theorem t {α : Type*} (l : List α) : l = l"
    # shared by two binders: `Type*` would give each its own universe — a more general statement
    assert rewrite("universe_as_type_star", "theorem t.{u} {α : Type u} {β : Type u} (f : α → β) : f = f") == []
    assert rewrite("universe_as_type_star", "theorem t.{u} {α : Type u} (l : List α) : l = l", mathlib=False) == []


# ---------------------------------------------------------------------------------------------------------------
# Hypotheses


def test_hypotheses_renamed_unless_something_mentions_them():
    assert only("hypotheses_renamed", "theorem t (a b : Nat) (h : b ≤ a) (h' : 0 < b) : a - b + b = a") == \
        "theorem t (a b : Nat) (hyp1 : b ≤ a) (hyp2 : 0 < b) : a - b + b = a"
    assert only("hypotheses_renamed", "theorem t (n : ℕ) (hn : 0 < n) (hx : Nat.sub_pos hn = hn) : n ≠ 0") == \
        "theorem t (n : ℕ) (hn : 0 < n) (hyp1 : Nat.sub_pos hn = hn) : n ≠ 0"


def test_hypotheses_reordered_after_what_their_types_mention():
    assert only("hypotheses_reordered", "theorem t (a : ℝ) (h₀ : 0 < a) (b : ℝ) (h₁ : a < b) : a < b + 1") == \
        "theorem t (a : ℝ) (b : ℝ) (h₁ : a < b) (h₀ : 0 < a) : a < b + 1"
    # a variable whose type mentions a hypothesis pins it: the order cannot change
    assert rewrite("hypotheses_reordered", "theorem t (n : ℕ) (h : 0 < n) (x : Fin.mk 0 h = x) : n > 0") == []
    # a hypothesis never moves before an instance binder that came before it
    text = only("hypotheses_reordered", "theorem t {G : Type*} (h : 1 = 1) [Group G] (hg : ∀ g : G, g = g) : True")
    assert text.index("[Group G]") < text.index("(hg :")


def test_conjunction_hypothesis_split_and_adjacent_hypotheses_merged():
    assert only("hypothesis_split", "theorem t (x : ℝ) (h : 0 < x ∧ x < 1) : x ^ 2 < 1") == \
        "theorem t (x : ℝ) (h_l : 0 < x) (h_r : x < 1) : x ^ 2 < 1"
    assert only("hypotheses_merged", "theorem t (x : ℝ) (h₀ : 0 < x) (h₁ : x < 1) (h₂ : x ≠ 2) : x ^ 2 < 1") == \
        "theorem t (x : ℝ) (h_and : 0 < x ∧ x < 1 ∧ x ≠ 2) : x ^ 2 < 1"
    # a conjunction on the left keeps its parentheses
    assert only("hypotheses_merged", "theorem t (p q r : Prop) (h₀ : p ∧ q) (h₁ : r) : p") == \
        "theorem t (p q r : Prop) (h_and : (p ∧ q) ∧ r) : p"


# ---------------------------------------------------------------------------------------------------------------
# Quantifiers in and out of the header


def test_leading_forall_moves_into_the_header():
    assert only("forall_to_binders", "theorem t : ∀ n : Nat, ∃ m, n < m") == "theorem t (n : Nat) : ∃ m, n < m"
    assert only("forall_to_binders", "theorem t (l : List Nat) : ∀ x ∈ l, 0 < x → x ≤ x * x") == \
        "theorem t (l : List Nat) (x) (h_x : x ∈ l) : 0 < x → x ≤ x * x"
    assert rewrite("forall_to_binders", "theorem t (n : Nat) : ∀ n : Nat, n = n") == []  # would shadow


def test_trailing_binders_move_into_the_conclusion():
    assert only("binders_to_forall", "theorem t (a b : Nat) (h : b ≤ a) : a - b + b = a") == \
        "theorem t : ∀ a b : Nat, b ≤ a → a - b + b = a"
    # a hypothesis a later type mentions stays named
    assert only("binders_to_forall", "theorem t {n : ℕ} (h : 0 < n) (x : Witness h) : True") == \
        "theorem t {n : ℕ} : ∀ (h : 0 < n), ∀ x : Witness h, True"


# ---------------------------------------------------------------------------------------------------------------
# Relations and notation


def test_strict_and_weak_inequalities_flip_both_ways():
    assert only("gt_as_lt", "theorem t (x : ℝ) (h : x > 0) : x ^ 2 ≥ 0 ∧ ∃ n > 0, n = 1") == \
        "theorem t (x : ℝ) (h : 0 < x) : 0 ≤ x ^ 2 ∧ ∃ n > 0, n = 1"  # binder predicates stay as written
    assert only("lt_as_gt", "theorem t (a b : Nat) (h : a < b) : a ≤ b") == "theorem t (a b : Nat) (h : b > a) : b ≥ a"


def test_fun_arrows_rewritten_as_tokens_inside_atoms():
    assert only("fun_mapsto", "theorem t (f : ℕ → ℕ) (h : f = fun x => x + 1) : Continuous (λ (y : ℕ) => f y)") == \
        "theorem t (f : ℕ → ℕ) (h : f = fun x ↦ x + 1) : Continuous (λ (y : ℕ) ↦ f y)"
    assert only("fun_arrow", "theorem t (f : ℕ → ℕ) (h : f = fun ⟨a, b⟩ ↦ a) : True") == \
        "theorem t (f : ℕ → ℕ) (h : f = fun ⟨a, b⟩ => a) : True"
    # pattern-matching arms and strings are not lambdas' arrows; core problems have no `↦`
    assert rewrite("fun_mapsto", 'theorem t (f : ℕ → ℕ) (h : f = fun | 0 => 1 | _ => 2) : "fun x => x" = "y"') == []
    assert rewrite("fun_mapsto", "theorem t (f : Nat → Nat) (h : f = fun x => x) : True", mathlib=False) == []


def test_big_operator_binders_in_and_mem():
    assert only("sum_in_as_mem", "theorem t (n : ℕ) : ∑ i in Finset.range n, (i : ℝ) = ∏ j in s, f (j, 1)") == \
        "theorem t (n : ℕ) : ∑ i ∈ Finset.range n, (i : ℝ) = ∏ j ∈ s, f (j, 1)"
    assert only("sum_mem_as_in", "theorem t (n : ℕ) : ∑ i ∈ range n, (2 * (i : ℝ) + 1) = (n : ℝ) ^ 2") == \
        "theorem t (n : ℕ) : ∑ i in range n, (2 * (i : ℝ) + 1) = (n : ℝ) ^ 2"
    # membership in the summand is not the binder's
    assert rewrite("sum_mem_as_in", "theorem t (s : Finset ℕ) : ∑ i : Fin 3, (if i.val ∈ s then 1 else 0) = 0") == []


def test_iff_sides_swapped_is_faithful():
    [variant], _ = generate_variants(parse_declaration("theorem t (p q : Prop) : ¬(p ∨ q) ↔ ¬p ∧ ¬q"),
                                     kinds=["iff_swapped"])
    assert variant.role == FAITHFUL and variant.equivalent
    assert render_declaration(variant.declaration) == "theorem t (p q : Prop) : ¬p ∧ ¬q ↔ ¬(p ∨ q)"


def test_combined_chains_the_faithful_rewrites():
    text = only("combined", "theorem t (a b : ℝ) (h₀ : a > 0 ∧ b > 0) (h₁ : a < b) : a ^ 2 < b ^ 2")
    assert text == "theorem t {a b : ℝ} (hyp2 : a < b) (hyp1_l : 0 < a) (hyp1_r : 0 < b) : a ^ 2 < b ^ 2"


# ---------------------------------------------------------------------------------------------------------------
# Negative controls


def test_controls_are_labelled_and_not_equivalent():
    variants, _ = generate_variants(parse_declaration(
        "theorem t (a b : ℕ) (h₀ : 0 < a) (h₁ : a ≤ b) : a ≤ b ∧ 0 < b ∧ a * a ≤ b * b"))
    controls = {v.id: render_declaration(v.declaration) for v in variants if v.role == CONTROL}
    assert all(not v.equivalent for v in variants if v.role == CONTROL)
    assert controls == {
        "drop_hypothesis@h₀": "theorem t (a b : ℕ) (h₁ : a ≤ b) : a ≤ b ∧ 0 < b ∧ a * a ≤ b * b",
        "drop_hypothesis@h₁": "theorem t (a b : ℕ) (h₀ : 0 < a) : a ≤ b ∧ 0 < b ∧ a * a ≤ b * b",
        "le_as_lt": "theorem t (a b : ℕ) (h₀ : 0 < a) (h₁ : a ≤ b) : a < b ∧ 0 < b ∧ a * a ≤ b * b",
        "drop_conjunct": "theorem t (a b : ℕ) (h₀ : 0 < a) (h₁ : a ≤ b) : a ≤ b ∧ 0 < b",
    }


def test_iff_one_direction_only_when_the_converse_is_lost():
    assert only("iff_one_direction", "theorem t (a b : Int) : a < b ↔ 0 < b - a") == \
        "theorem t (a b : Int) : a < b → 0 < b - a"
    # the converse is a tautology of the skeleton: nothing would be lost, so no control
    assert rewrite("iff_one_direction", "theorem t (p q r : Prop) : (p ∧ q) ∧ r ↔ p ∧ q ∧ r") == []
    assert rewrite("iff_one_direction", "theorem t (m n : Nat) : m = n ↔ m ≤ n ∧ n ≤ m") == []  # le_antisymm


def test_controls_never_drop_what_the_rest_supplies():
    # h₁ is h₀'s first conjunct: dropping it changes nothing
    assert rewrite("drop_hypothesis", "theorem t (x : ℝ) (h₀ : 0 < x ∧ x < 1) (h₁ : 0 < x) : x < 2") == \
        ["theorem t (x : ℝ) (h₁ : 0 < x) : x < 2"]
    assert rewrite("drop_conjunct", "theorem t (p : Prop) (hp : p) : p ∧ p") == []
    assert supplied(parse_term("a = b"), [parse_term("a ≤ b ∧ b ≤ a")])
    assert supplied(parse_term("b ≥ a"), [parse_term("b = a")])
    assert not supplied(parse_term("a < b"), [parse_term("a ≤ b")])


# ---------------------------------------------------------------------------------------------------------------
# Real statements


def _check_variants(decl, mathlib: bool, where: str, counts: dict) -> None:
    variants, failures = generate_variants(decl, mathlib=mathlib)
    assert not failures, f"{where}: rewrites that do not parse back: {failures}"
    baseline = parse_declaration(render_declaration(decl))
    ids = [v.id for v in variants]
    assert len(set(ids)) == len(ids), where
    for v in variants:
        assert v.kind in KINDS and v.role in (FAITHFUL, CONTROL), (where, v.id)
        assert v.role == RULES_BY_KIND[v.kind].role and v.equivalent == (v.role == FAITHFUL), (where, v.id)
        assert v.declaration != baseline, (where, v.id)  # a variant changes something
        assert v.declaration.name == decl.name, (where, v.id)
        if v.kind in ("hypotheses_reordered", "instances_reordered", "hypothesis_split", "hypotheses_merged"):
            assert in_dependency_order(v.declaration.binders) or not in_dependency_order(decl.binders), \
                (where, v.id, v.text)
        counts[v.kind] = counts.get(v.kind, 0) + 1


def test_every_variant_of_the_dev_corpus_parses_back_and_is_labelled(dev_rows):
    counts: dict = {}
    for row in dev_rows:
        mathlib = any(i.startswith("Mathlib") for i in row.get("imports", []))
        _check_variants(parse_declaration(row["statement"]), mathlib, row["id"], counts)
    # the dev corpus has no `Type u`, `↦` or `∑ x in` (those rules are covered by the hand-written tests above)
    absent = {"universe_as_type_star", "fun_arrow", "sum_in_as_mem", "instances_anonymous"}
    assert set(counts) == set(KINDS) - absent, counts
    assert sum(counts.values()) > 4000  # measured: 4641 variants of 666 statements


def test_every_variant_of_the_bundled_problems_parses_back_and_is_labelled():
    problems, errors = load_problems(PROBLEMS_DIR)
    assert problems and not errors
    counts: dict = {}
    for p in problems:
        src = reference_text(p)
        for target in p.targets:
            _check_variants(target_declaration(src, target), p.needs_mathlib, f"{p.id}:{target}", counts)
    for kind in ("implicit_binders", "explicit_binders", "hypotheses_renamed", "hypotheses_reordered",
                 "forall_to_binders", "binders_to_forall", "lt_as_gt", "type_star_as_universe", "fun_mapsto",
                 "sum_mem_as_in", "iff_swapped", "drop_hypothesis", "le_as_lt", "drop_conjunct"):
        assert counts.get(kind), kind


def test_the_saddle_point_statement_has_the_candidates_rewrites():
    problem = next(p for p in load_problems(PROBLEMS_DIR)[0] if p.id == "saddle_point_derivatives")
    decl = target_declaration(reference_text(problem), problem.targets[0])
    variants, _ = generate_variants(decl, mathlib=True)
    by_id = {v.id: v for v in variants}
    explicit = by_id["explicit_binders"].declaration
    assert [b.bracket for b in explicit.binders] == ["("] * 9  # the bundled faithful_explicit candidate's shape
    # made implicit again where a hypothesis mentions them: n m stay explicit (only binder types mention them)
    [(_, again)] = RULES_BY_KIND["implicit_binders"].apply(explicit, True)
    assert [(b.names, b.bracket) for b in again.binders[:3]] == [(("n", "m"), "("), (("f",), "{"), (("x0",), "{")]
    assert {"drop_hypothesis@hs", "drop_hypothesis@hx", "drop_hypothesis@hz", "drop_conjunct"} <= set(by_id)


def test_unknown_kinds_are_refused_and_every_rule_documents_why():
    with pytest.raises(ValueError, match="unknown rewrite kind"):
        generate_variants(parse_declaration("theorem t : True"), kinds=["nope"])
    for rule in ALL_RULES:
        doc = rule.apply.__doc__ or ""
        assert ("Equivalent" in doc or "converse of" in doc) if rule.role == FAITHFUL else "Not equivalent" in doc, \
            rule.kind
