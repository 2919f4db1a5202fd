"""Skeleton SA-Pass against people: real labelled pairs of independent formalizations (tests/fixtures/pairs/,
sources and commits in its README), and the pieces that make atoms comparable as terms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyshadow.cli import main
from pyshadow.kernel.keys import term_key
from pyshadow.kernel.opens import opened_namespaces
from pyshadow.kernel.definitions import normalize_declaration
from pyshadow.kernel.pairs import evaluate, read_pairs, summarize, summary_markdown
from pyshadow.kernel.skeleton import SkeletonPair
from pyshadow.kernel.scoring import skeleton_score
from pyshadow.kernel.undecided import cannot_judge
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.syntax import parse_declaration

PAIRS = Path(__file__).parent / "fixtures" / "pairs" / "dev_pairs.jsonl"

# Measured on the development pairs (benchmarks/skeleton_pairs.py, before the issue-21 fixes); issue 17's bar is
# 90% recall. Recall floors sit at most two points below the measured value (issue 21); precision has no slack.
RECALL_FLOOR = 0.90  # measured 144/159 = 90.6%: 0.6 points below (and the issue-17 bar)
UNDECIDED_CEILING = 0.10


@pytest.fixture(scope="module")
def pair_results(kernel_lean_exe):
    return evaluate(read_pairs(PAIRS), kernel_lean_exe, n_jobs=2)


@pytest.mark.kernel
def test_no_changed_pair_passes(pair_results):
    passed_changed = [r.pair.id for r in pair_results if r.verdict == "pass" and not r.pair.same_meaning]
    assert passed_changed == []


@pytest.mark.kernel
def test_recall_and_undecided_rate_on_the_development_pairs(pair_results):
    overall = summarize(pair_results)["overall"]
    assert overall["pairs"] == 305 and overall["same_meaning"] == 159
    assert overall["recall"] >= RECALL_FLOOR, summary_markdown(summarize(pair_results))
    assert overall["undecided_rate"] <= UNDECIDED_CEILING
    # Every whitespace-only and precedence pair labelled same meaning passes: the term reader's job.
    for r in pair_results:
        if r.pair.same_meaning and r.pair.diff in ("whitespace only", "precedence"):
            assert r.verdict == "pass", (r.pair.id, r.reason)
    # Undecided rows name the atom pairs they could not judge (a pass Lean rejected names Lean's error instead).
    assert all(r.atom_pairs for r in pair_results if r.verdict == "undecided" and r.lean != "rejected")


def test_every_pair_side_parses():
    for p in read_pairs(PAIRS) + read_pairs(EXTRA_PAIRS):
        parse_declaration(p.a)
        parse_declaration(p.b)


# ---------------------------------------------------------------------------------------------------------------
# The extension (tests/fixtures/pairs/extra_pairs.jsonl): PutnamBench and formal-conjectures statement revisions not
# in the development pairs, labelled before any run (tests/fixtures/pairs/EXTRA.md). Same bars, its own recall floor.

EXTRA_PAIRS = Path(__file__).parent / "fixtures" / "pairs" / "extra_pairs.jsonl"
EXTRA_RECALL_FLOOR = 0.92  # measured 26/28 = 92.9% (before the issue-21 fixes): 0.9 points below


@pytest.fixture(scope="module")
def extra_results(kernel_lean_exe):
    return evaluate(read_pairs(EXTRA_PAIRS), kernel_lean_exe, n_jobs=2)


@pytest.mark.kernel
def test_no_changed_pair_of_the_extension_passes(extra_results):
    assert [r.pair.id for r in extra_results if r.verdict == "pass" and not r.pair.same_meaning] == []
    overall = summarize(extra_results)["overall"]
    assert overall["recall"] >= EXTRA_RECALL_FLOOR, summary_markdown(summarize(extra_results))
    assert overall["undecided_rate"] <= UNDECIDED_CEILING


def test_extension_pairs_cite_their_sources_and_labels():
    rows = [json.loads(line) for line in EXTRA_PAIRS.read_text(encoding="utf-8").splitlines()]
    assert len({r["id"] for r in rows}) == len(rows) >= 30
    assert {r["same_meaning"] for r in rows} == {True, False}
    for r in rows:
        for side in ("source_a", "source_b"):
            src = r[side]
            assert src["repo"].count("/") == 1 and src["path"], r["id"]
            assert len(src["commit"]) == 40 and int(src["commit"], 16) >= 0, r["id"]
        assert r["a"].split()[0] in ("theorem", "lemma") and r["b"].split()[0] in ("theorem", "lemma"), r["id"]
        assert r["note"] and isinstance(r["unsure"], bool) and r["diff"], r["id"]
    # No pair repeats a development pair (the extension measures something new).
    dev_ids = {p.id for p in read_pairs(PAIRS)}
    dev_texts = {frozenset((p.a, p.b)) for p in read_pairs(PAIRS)}
    assert not [r["id"] for r in rows if r["id"].replace("putnambench-extra/", "putnambench/") in dev_ids
                or frozenset((r["a"], r["b"])) in dev_texts]


def test_pairs_fixture_is_the_shared_file_verbatim():
    shared = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "pairs" / "dev_pairs.jsonl"
    if not shared.is_file():
        pytest.skip("no shared corpus beside the repository")
    assert PAIRS.read_bytes() == shared.read_bytes()


# ---------------------------------------------------------------------------------------------------------------
# Names resolved like Lean (kernel/resolver.py), each alias from the Mathlib file its table entry names


@pytest.mark.parametrize("a,a_ctx,b,b_ctx,same", [
    ("π / 2", "open Real", "Real.pi / 2", "", True),
    ("Nat.factorial 8", "", "8!", "open Nat", True),
    ("|a - b|", "", "abs (a - b)", "", True),
    ("√x + 1", "", "Real.sqrt x + 1", "", True),
    ("sqrt x", "open Real", "Real.sqrt x", "", True),
    ("sqrt x", "open Real Nat", "Real.sqrt x", "", False),  # ambiguous under both opens: Lean picks by type
    ("End 𝕜 V", "open Module", "Module.End 𝕜 V", "", True),
    ("Finset.range n", "open Finset Set", "range n", "open Finset Set", False),  # range is Set.range too
    ("range n", "open Finset", "Finset.range n", "", True),
    ("range n", "open Finset Set", "Finset.range n", "", False),
    ("‖z‖", "", "Complex.abs z", "", False),  # provably equal, not the same constant
    ("x ∉ s", "", "¬x ∈ s", "", True),
    # a capital one-letter name: `Complex.I` under `open Complex`, an auto-bound variable without
    ("1 + I", "open Complex", "1 + I", "", False),
    ("1 + I", "open Complex", "1 + I", "open Complex", True),
])
def test_names_resolve_to_one_constant_only_where_lean_does(a, a_ctx, b, b_ctx, same):
    variables = {"V": "", "𝕜": ""}  # the statement's own variables (declared by its binders)
    ka = term_key(a, opened_namespaces(a_ctx), variables)
    kb = term_key(b, opened_namespaces(b_ctx), variables)
    assert (ka == kb) is same, (ka, kb)


def test_dot_notation_on_a_binder_of_known_type():
    d1 = normalize_declaration(parse_declaration("theorem t (m n : ℕ) (h : m.gcd n = 1) : n.Prime"))
    d2 = normalize_declaration(parse_declaration("theorem t (m n : ℕ) (h : Nat.gcd m n = 1) : Nat.Prime n"))
    assert d1 == d2
    # A variable of unknown type keeps its dot notation (it could be any namespace).
    d3 = normalize_declaration(parse_declaration("theorem t (s : X) : s.card = 1"))
    assert "s.card" in d3.type.left.text


@pytest.mark.parametrize("a,b,opens,same", [
    # Receiver an application of known result type (RESULT_NAMESPACES), placed where `addLValArg` puts it.
    ("(Finset.range 100).filter p", "Finset.filter p (Finset.range 100)", "", True),
    ("(Nat.divisors n).card", "Finset.card (Nat.divisors n)", "", True),
    ("((Finset.range 10).filter p).card", "Finset.card (Finset.filter p (Finset.range 10))", "", True),
    ("{x : ℕ | x > 0}.ncard", "Set.ncard {x : ℕ | x > 0}", "", True),
    ("(range 10).card", "Finset.card (Finset.range 10)", "open Finset", True),
    # Negatives: the receiver is not the first argument of `filter`; an unknown head; an ambiguous short name.
    ("(Finset.range 100).filter p", "Finset.filter (Finset.range 100) p", "", False),
    ("(f n).card", "Finset.card (f n)", "", False),
    ("(range 10).card", "Finset.card (Finset.range 10)", "open Finset Set", False),
    ("{x ∈ s | p x}.card", "Finset.card {x ∈ s | p x}", "", False),  # `{x ∈ s | …}` may be a Finset or a Set
])
def test_dot_notation_on_an_application_of_known_result_type(a, b, opens, same):
    ka, kb = term_key(a, opened_namespaces(opens)), term_key(b, opened_namespaces(opens))
    assert (ka == kb) is same, (ka, kb)


def test_dot_notation_puts_a_binder_receiver_at_its_explicit_position():
    d1 = normalize_declaration(parse_declaration("theorem t (s : Finset ℕ) : (s.filter p).card = 1"))
    d2 = normalize_declaration(parse_declaration("theorem t (s : Finset ℕ) : (Finset.filter p s).card = 1"))
    d3 = normalize_declaration(parse_declaration("theorem t (s : Finset ℕ) : (Finset.filter s p).card = 1"))
    assert d1 == d2 and d1 != d3


def test_untyped_binder_gets_the_type_a_use_fixes():
    a = normalize_declaration(parse_declaration("theorem t (q : ℝ → ℝ) (h : ∀ x, x ≠ 0 → q x = 6 / x) : q 2 = 3"))
    b = normalize_declaration(parse_declaration("theorem t (q : ℝ → ℝ) (h : ∀ x : ℝ, x ≠ 0 → q x = 6 / x) : q 2 = 3"))
    assert a == b


# ---------------------------------------------------------------------------------------------------------------
# What the kernel tier cannot judge (kernel/undecided.py)


@pytest.mark.parametrize("a,b,undecided", [
    ("Complex.abs z", "norm z", True),  # another constant: only Mathlib knows they agree
    ("(x ^ 2 : ℝ)", "x ^ 2", True),  # a cast placed elsewhere
    ("2 * x", "3 * x", False),  # other numbers: judged (different)
    ("x + y", "x * y", False),  # another operator on the same operands
    ("f x", "f y", False),  # another variable
    # ascriptions placed elsewhere, through ⁻¹ (miniF2F mathd_numbertheory_232: Harmonic's inlined values)
    ("((3⁻¹ + 5⁻¹)⁻¹ : ZMod 31)", "((3⁻¹ : ZMod 31) + (5⁻¹ : ZMod 31))⁻¹", True),
    ("((3⁻¹ + 5⁻¹)⁻¹ : ZMod 31)", "((3⁻¹ : ZMod 31) + (6⁻¹ : ZMod 31))⁻¹", False),  # another number
])
def test_cannot_judge(a, b, undecided):
    assert cannot_judge(a, b, {"x", "y", "z", "f"}) is undecided


@pytest.mark.kernel
def test_undecided_names_its_atom_pairs_and_is_not_a_pass(kernel_lean_exe):
    ref = parse_declaration("theorem t (z : ℂ) (h : 0 < x) : Complex.abs z = 1")
    cands = {
        "norm": ("theorem t (z : ℂ) (h : 0 < x) : ‖z‖ = 1", "undecided"),
        "other_number": ("theorem t (z : ℂ) (h : 0 < x) : Complex.abs z = 2", "fail"),
        "dropped_hypothesis": ("theorem t (z : ℂ) : ‖z‖ = 1", "fail"),
    }
    verdicts = skeleton_score([SkeletonPair(k, ref, parse_declaration(c)) for k, (c, _) in cands.items()],
                              kernel_lean_exe, n_jobs=2)
    for key, (_, expected) in cands.items():
        v = verdicts[key]
        got = "pass" if v.passed else ("undecided" if v.undecided else "fail")
        assert got == expected, (key, v.messages)
    assert verdicts["norm"].undecided == [("Complex.abs z", "norm z")]


# ---------------------------------------------------------------------------------------------------------------
# Intuitionistic equivalences the search learns (each proof term checked by kernel-tier Lean; none classical)

INTUITIONISTIC = {
    "not_exists_forall_not": ("theorem t : ¬ ∃ x : ℕ, P x", "theorem t : ∀ x : ℕ, ¬ P x", True),
    "ne_not_eq": ("theorem t (a b : ℕ) : a ≠ b", "theorem t (a b : ℕ) : ¬ a = b", True),
    "ne_symmetric": ("theorem t (a b : ℕ) : a ≠ b", "theorem t (a b : ℕ) : b ≠ a", True),
    "not_or": ("theorem t (A B : Prop) : ¬ (A ∨ B)", "theorem t (A B : Prop) : ¬ A ∧ ¬ B", True),
    "curry": ("theorem t (A B C : Prop) : A → B → C", "theorem t (A B C : Prop) : A ∧ B → C", True),
    "nested_exists": ("theorem t : ∃ x : ℕ, ∃ y : ℕ, P x y", "theorem t : ∃ x y : ℕ, P x y", True),
    "bounded_exists": ("theorem t : ∃ x, x > 0 ∧ Q x", "theorem t : ∃ x > 0, Q x", True),
    "exists_and_comm": ("theorem t : ∃ x : ℕ, P x ∧ Q x", "theorem t : ∃ x : ℕ, Q x ∧ P x", True),
    "or_comm_hypothesis": ("theorem t (A B C : Prop) (h : A ∨ B) : C", "theorem t (A B C : Prop) (h : B ∨ A) : C",
                           True),
    # a tautology proves itself without the candidate: that proves nothing about the candidate
    "tautology_without_candidate": ("theorem t (p q : Prop) : ¬(p ∨ q) ↔ ¬p ∧ ¬q",
                                    "theorem t (p q : Prop) : ¬(p ∨ q) → ¬p ∧ ¬q", False),
    "prop_eq_is_iff": ("theorem t (p : ℕ → Prop) (h : ∀ x, p x = (x > 0 ∧ x < 5)) : p 1",
                       "theorem t (p : ℕ → Prop) (h : ∀ x, p x ↔ x > 0 ∧ x < 5) : p 1", True),
    # not the same meaning, or only classically so: never passes
    "forall_is_not_exists": ("theorem t : ∀ x : ℕ, P x", "theorem t : ∃ x : ℕ, P x", False),
    "double_negation": ("theorem t (A : Prop) : ¬¬A", "theorem t (A : Prop) : A", False),
    "de_morgan_not_and": ("theorem t (A B : Prop) : ¬ (A ∧ B)", "theorem t (A B : Prop) : ¬ A ∨ ¬ B", False),
    "not_forall": ("theorem t : ¬ ∀ x : ℕ, P x", "theorem t : ∃ x : ℕ, ¬ P x", False),
    "or_for_and": ("theorem t (A B : Prop) : A ∧ B", "theorem t (A B : Prop) : A ∨ B", False),
}


@pytest.mark.kernel
def test_intuitionistic_equivalences_pass_and_classical_ones_do_not(kernel_lean_exe):
    pairs = [SkeletonPair(k, parse_declaration(a), parse_declaration(b)) for k, (a, b, _) in INTUITIONISTIC.items()]
    verdicts = skeleton_score(pairs, kernel_lean_exe, n_jobs=2)
    wrong = {k: verdicts[k].messages for k, (_, _, same) in INTUITIONISTIC.items() if verdicts[k].passed is not same}
    assert not wrong


# ---------------------------------------------------------------------------------------------------------------
# Findings per shadow (pyshadow score --findings)


@pytest.mark.kernel
def test_score_writes_faithalign_findings(kernel_lean_exe, tmp_path):
    code = (PROBLEMS_DIR / "nat_pos_facts" / "Reference.lean").read_text(encoding="utf-8")
    weakened = code.replace("n - 1 + 1 = n", "n - 1 + 1 ≤ n")
    faithful = code.replace("0 < n →", "n > 0 →")
    candidates = tmp_path / "c.jsonl"
    candidates.write_text("".join(json.dumps({"problem_id": "nat_pos_facts", "system": s, "code": c}) + "\n"
                                  for s, c in (("weakened", weakened), ("faithful", faithful))), encoding="utf-8")
    findings = tmp_path / "findings.jsonl"
    assert main(["score", str(PROBLEMS_DIR), str(candidates), "-o", str(tmp_path / "r.jsonl"), "--tier", "kernel",
                 "--findings", str(findings), "-j", "2"]) == 0
    rows = {r["system"]: r for r in map(json.loads, findings.read_text(encoding="utf-8").splitlines())}
    assert rows["faithful"]["verdict"] == "faithful"
    assert {f["finding"] for f in rows["faithful"]["findings"]} == {"faithful"}
    assert rows["weakened"]["verdict"] == "unfaithful"
    bad = [f for f in rows["weakened"]["findings"] if f["finding"] == "unfaithful"]
    assert bad and all(f["shadow"] for f in bad)
    assert len(rows["weakened"]["findings"]) == 5  # four shadows and the backward check
