"""The kernel tier on its own faithful rewrites of real PutnamBench/ProofNet statements (issue 21 regressions):
conclusions with ∀/→ instead of binders and merged hypotheses (``kernel.reshape``), a relation written the other
way round inside an atom, shadowed binder names in a rule, and universe-polymorphic binders inside a conclusion
(the kernel tier's own checkers pin the universes a projection leaves free). Each with its mutation partner."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pyshadow.corpus import read_corpus
from pyshadow.kernel.keys import term_key
from pyshadow.kernel.check import blocks_for, check_blocks
from pyshadow.kernel.reshape import reshaped
from pyshadow.kernel.skeleton import SkeletonPair, skeleton_block
from pyshadow.kernel.scoring import skeleton_score
from pyshadow.robustness.variants import FAITHFUL, generate_variants
from pyshadow.syntax import parse_declaration, render_declaration

CORPUS = Path(__file__).parent / "fixtures" / "corpus"
REAL = re.compile(r"PutnamBench|ProofNet|putnam")


def corpus_statements():
    for name in ("extra.jsonl", "mathlib_sample.jsonl"):
        for e in read_corpus(CORPUS / name):
            if not e.error and REAL.search(e.id):
                yield e


def test_reshaped_lifts_the_conclusion_and_splits_hypotheses():
    d = parse_declaration("theorem t (n : ℕ) (h : 0 < n ∧ n < 5) : ∀ m : ℕ, m < n → m + 1 ≤ n ∧ True")
    assert render_declaration(reshaped(d)) == ("theorem t (n : ℕ) (h_2 : 0 < n) (h_3 : n < 5) (m : ℕ) (h_1 : m < n) :"
                                               " m + 1 ≤ n ∧ True")
    # a bounded binder stops the lifting; a hypothesis named elsewhere is not split; parts get hypothesis names
    kept = parse_declaration("theorem t (fg : 0 < a ∧ 0 < b) (x : Fin ⟨a, fg.1⟩) : ∀ y ∈ s, y = x")
    assert render_declaration(reshaped(kept)) == render_declaration(kept)
    named = reshaped(parse_declaration("theorem t (fgcont : ContinuousOn f s ∧ ContinuousOn g s) : True"))
    assert [b.names[0] for b in named.binders] == ["hfgcont_1", "hfgcont_2"]


@pytest.mark.kernel
def test_binders_to_forall_and_hypotheses_merged_pass_on_the_real_statements(kernel_lean_exe):
    pairs = []
    for e in corpus_statements():
        d = parse_declaration(e.statement)
        if d.type is None:
            continue
        variants, _ = generate_variants(d, kinds=["binders_to_forall", "hypotheses_merged"])
        pairs += [SkeletonPair(f"{e.id}::{v.id}", d, v.declaration, True, e.context, e.context)
                  for v in variants if v.role == FAITHFUL]
    assert len(pairs) > 150
    verdicts = skeleton_score(pairs, kernel_lean_exe)
    failed = sorted(k for k, v in verdicts.items() if not v.passed)
    assert failed == []


PUTNAM_2010_A1 = """theorem putnam_2010_a1 (n : ℕ) (kboxes : ℕ → Prop) (npos : n > 0)
    (hkboxes : ∀ k : ℕ, kboxes k = (∃ boxes : Finset.Icc 1 n → Fin k, ∀ i j : Fin k,
      ∑ x ∈ Finset.univ.filter (boxes · = i), (x : ℕ) = ∑ x ∈ Finset.univ.filter (boxes · = j), (x : ℕ))) :
    IsGreatest kboxes (putnam_2010_a1_solution n)"""


@pytest.mark.kernel
def test_the_reshaped_reading_still_tells_a_changed_statement(kernel_lean_exe):
    """Mutation partners: the merged/∀ forms of a statement whose definition or hypothesis changed still fail."""
    ref = parse_declaration(PUTNAM_2010_A1)
    changed = {
        "definition": PUTNAM_2010_A1.replace("(∃ boxes", "(∀ boxes"),
        "hypothesis": PUTNAM_2010_A1.replace("(npos : n > 0)", "(npos : n > 1)"),
        "conclusion": PUTNAM_2010_A1.replace("IsGreatest", "IsLeast"),
    }
    pairs = []
    for what, text in changed.items():
        d = parse_declaration(text)
        for v, _ in [generate_variants(d, kinds=[k]) for k in ("binders_to_forall", "hypotheses_merged")]:
            pairs += [SkeletonPair(f"{what}:{x.id}", ref, x.declaration, True) for x in v]
    assert len(pairs) >= 5
    verdicts = skeleton_score(pairs, kernel_lean_exe)
    assert [k for k, v in verdicts.items() if v.passed] == []


def test_a_relation_inside_an_atom_reads_either_way_round():
    assert term_key("{x : ℝ | x > 0}") == term_key("{x : ℝ | 0 < x}")
    assert term_key("fun f => f ≥ 0") == term_key("fun f => 0 ≤ f")
    assert term_key("{x : ℝ | x > 0}") != term_key("{x : ℝ | x < 0}")  # the partner: the other relation
    assert term_key("{x : ℝ | x ≥ 0}") != term_key("{x : ℝ | x > 0}")


def test_a_rule_with_a_shadowed_binder_name_is_instantiated_apart():
    """`∀ x y : A × B, … ↔ (∀ x y : A, …) ∧ …` (ProofNet Dummit-Foote 1.1.29) against itself: the inner `x y` are
    other arguments than the outer ones."""
    d = parse_declaration("theorem t {A B : Type*} [Group A] [Group B] : ∀ x y : A × B, x*y = y*x ↔ "
                          "(∀ x y : A, x*y = y*x) ∧ (∀ x y : B, x*y = y*x)")
    assert skeleton_block(SkeletonPair("k", d, d, True), "C0").unbuilt == {}
    partner = parse_declaration("theorem t {A B : Type*} [Group A] [Group B] : ∀ x y : A × B, x*y = y*x ↔ "
                                "(∀ x y : A, x*y = y*x) ∧ (∀ x y : A, x*y = y*x)")
    assert skeleton_block(SkeletonPair("k", d, partner, True), "C0").unbuilt != {}


UNIVERSES = [
    "theorem u1 : (∀ (S : Type*) (_ : Mul S), ∀ a b : S, a * b = a * b) ∧ ∃ (S : Type*) (_ : Mul S), ∀ a : S, a * a = a * a",
    "theorem u2 (T : Type*) : (∀ (S : Type*), Nonempty S → Nonempty T) ∧ (∃ (S : Type*), Nonempty S) ∧ Nonempty T",
]


@pytest.mark.kernel
def test_universe_polymorphic_binders_inside_a_conclusion(kernel_lean_exe):
    items = [(f"u{i}", parse_declaration(s), True) for i, s in enumerate(UNIVERSES)]
    reports = check_blocks(blocks_for(items, mutants=True), kernel_lean_exe)
    for key, rep in reports.items():
        assert rep.all_accepted, (key, rep.messages)
        assert rep.mutants_rejected and all(rep.mutants_rejected.values()), (key, rep.mutants_rejected)
