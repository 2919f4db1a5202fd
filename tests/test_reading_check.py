"""Lean proves a statement as written equivalent to the statement as the search reads it (substitutions replayed,
``pyshadow.kernel.reading_check``); each claim has a mutation partner Lean must not prove."""

from __future__ import annotations

import pytest

import pyshadow
from pyshadow.kernel.definitions import normalize_declaration
from pyshadow.kernel.reading_check import readings_proved, substitution_steps
from pyshadow.syntax.parser import parse_declaration

# Real statements (miniF2F, as yangky11's Lean 4 port writes them) whose variables a hypothesis fixes.
WRITTEN = {
    "mathd_algebra_110": "theorem mathd_algebra_110 (q e : ℂ) (h₀ : q = 2 - 2 * Complex.I) (h₁ : e = 5 + 5 * Complex.I) :"
                         " q * e = 20",
    "mathd_numbertheory_232": "theorem mathd_numbertheory_232 (x y z : ZMod 31) (h₀ : x = 3⁻¹) (h₁ : y = 5⁻¹) "
                              "(h₂ : z = (x + y)⁻¹) : z = 29",
    "mathd_numbertheory_427": "theorem mathd_numbertheory_427 (a : ℕ) (h₀ : a = (∑ k ∈ (Nat.divisors 500), k)) : "
                              "∑ k ∈ Finset.filter (λ x => Nat.Prime x) (Nat.divisors a), k = 25",
    # a function by its values (funext), a set by its members (Set.ext), an anonymous hypothesis, `t = x`
    "amc12a_2003_p1": "theorem amc12a_2003_p1 (u v : ℕ → ℕ) (h₀ : ∀ n, u n = 2 * n + 2) (h₁ : ∀ n, v n = 2 * n + 1) : "
                      "((∑ k ∈ Finset.range 2003, u k) - ∑ k ∈ Finset.range 2003, v k) = 2003",
    "mathd_numbertheory_42": "theorem mathd_numbertheory_42 (S : Set ℕ) (u v : ℕ) (h₀ : ∀ a : ℕ, a ∈ S ↔ 0 < a ∧ "
                             "27 * a % 40 = 17) (h₁ : IsLeast S u) (h₂ : IsLeast (S \\ {u}) v) : u + v = 62",
    "mathd_algebra_247": "theorem mathd_algebra_247 (t s : ℝ) (n : ℤ) (h₀ : t = 2 * s - s ^ 2) "
                         "(h₁ : s = n ^ 2 - 2 ^ n + 1) (_ : n = 3) : t = 0",
    "mathd_algebra_96": "theorem formal_3416 (x y z a : ℝ) (hx : 0 < x) (h₁ : Real.log x - Real.log y = a) : a = -8",
    # a proposition named by a variable and fixed by `↔` (PutnamBench 1963 B3 at 12c3379, dev pairs): `propext`
    "putnam_1963_b3": "theorem putnam_1963_b3 (f : ℝ → ℝ) (fdiff : Prop) (hfdiff : fdiff ↔ Continuous f ∧ "
                      "Continuous (deriv f)) : (fdiff ∧ ∀ x y : ℝ, f x = f y) ↔ f = f",
}
# Each reading with one piece changed: Lean must not prove it the written statement.
CHANGED = {
    "amc12a_2003_p1": "theorem m : (∑ k ∈ Finset.range 2003, (2 * k + 2 : ℕ)) - ∑ k ∈ Finset.range 2003, "
                      "(2 * k + 2 : ℕ) = 2003",
    "mathd_numbertheory_42": "theorem m (u v : ℕ) (h₁ : IsLeast {a : ℕ | 0 < a ∧ 27 * a % 40 = 18} u) "
                             "(h₂ : IsLeast ({a : ℕ | 0 < a ∧ 27 * a % 40 = 17} \\ {u}) v) : u + v = 62",
    "putnam_1963_b3": "theorem m (f : ℝ → ℝ) : ((Continuous f ∧ Continuous f) ∧ ∀ x y : ℝ, f x = f y) ↔ f = f",
}


def test_substitutions_are_replayed_one_variable_at_a_time():
    steps = substitution_steps(parse_declaration(WRITTEN["mathd_numbertheory_232"]))
    assert [len(s.after.binders) for s in steps] == [4, 2, 0]  # x, then y, then z (whose value mentions both)
    # not replayed: a binder that is not explicit
    assert substitution_steps(parse_declaration("theorem t {x : ℕ} (h : x = 2) : x + 1 = 3")) is None


@pytest.mark.kernel
def test_lean_proves_each_reading_and_not_a_changed_one(kernel_lean_exe):
    items = []
    for key, text in WRITTEN.items():
        d = parse_declaration(text)
        items.append((key, d, normalize_declaration(d, ""), ""))
    d = parse_declaration(WRITTEN["mathd_algebra_110"])
    items.append(("changed", d, parse_declaration("theorem m : (2 - 2 * Complex.I : ℂ) * (5 + 6 * Complex.I : ℂ) = 20"),
                  ""))
    # a "reading" that drops the hypothesis without substituting: not the written statement
    items.append(("dropped", d, parse_declaration("theorem m (q e : ℂ) : q * e = 20"), ""))
    for key, text in CHANGED.items():
        items.append((f"changed:{key}", parse_declaration(WRITTEN[key]), parse_declaration(text), ""))
    proved = readings_proved(items, kernel_lean_exe)
    assert all(proved[k] for k in WRITTEN), proved
    assert not proved["changed"] and not proved["dropped"]
    assert not any(proved[f"changed:{k}"] for k in CHANGED), proved


@pytest.mark.kernel
def test_a_pass_through_a_substitution_is_lean_checked_and_its_mutation_fails(kernel_lean_exe):
    # Harmonic's formalization inlines the values (tests/fixtures/pairs/harmonic_pairs.jsonl).
    cand = "theorem formal_877 : (2 - 2 * Complex.I) * (5 + 5 * Complex.I) = 20"
    ok = pyshadow.check_pair(WRITTEN["mathd_algebra_110"], cand)
    assert ok.verdict == "pass" and ok.lean == "accepted", ok.reason
    changed = pyshadow.check_pair(WRITTEN["mathd_algebra_110"], cand.replace("5 * Complex.I)", "6 * Complex.I)"))
    assert changed.verdict != "pass"


# PutnamBench-style answers (tests/fixtures/pairs/extra_pairs.jsonl): a definition of the context, unfolded by the
# reading; no substitution to replay, so the certificate is definitional.
ANSWER = "abbrev sol : Set ℕ := {1, 2, 3, 6}"
DIVISORS = "theorem t : {n : ℕ | 0 < n ∧ n ∣ 6} = sol"


@pytest.mark.kernel
def test_lean_proves_a_definition_unfolded_and_not_a_changed_body(kernel_lean_exe):
    written = parse_declaration(DIVISORS)
    read = parse_declaration("theorem t : {n : ℕ | 0 < n ∧ n ∣ 6} = ({1, 2, 3, 6} : Set ℕ)")
    changed = parse_declaration("theorem t : {n : ℕ | 0 < n ∧ n ∣ 6} = ({1, 2, 3, 7} : Set ℕ)")
    proved = readings_proved([("same", written, read, ANSWER), ("changed", written, changed, ANSWER)],
                             kernel_lean_exe)
    assert proved == {"same": True, "changed": False}


@pytest.mark.kernel
def test_a_pass_through_two_named_answers_is_lean_checked_and_its_mutation_fails(kernel_lean_exe):
    cand = DIVISORS.replace("sol", "mine")
    ok = pyshadow.check_pair(DIVISORS, cand, context=ANSWER, candidate_context=ANSWER.replace("sol", "mine"))
    assert ok.verdict == "pass" and ok.lean == "accepted", ok.reason
    changed = pyshadow.check_pair(DIVISORS, cand, context=ANSWER,
                                  candidate_context=ANSWER.replace("sol", "mine").replace("6}", "7}"))
    assert changed.verdict != "pass"


# PutnamBench putnam_2001_b6 (tests/fixtures/pairs/dev_pairs.jsonl): a predicate defined by a hypothesis whose
# value is a ∀, used on the left of `∧`. Substituted, the ∀ stays in parentheses: `(∀ n ≥ 1, …) ∧ q` is not
# `∀ n ≥ 1, … ∧ q`, and Lean proves the reading (the statement's own opens and its answer slot, declared once).
POSINC = ("theorem t (pos : (ℕ → ℝ) → Prop) (hpos : ∀ a : ℕ → ℝ, pos a = ∀ n ≥ 1, a n > 0) (q : Prop) :"
          " (∀ a : ℕ → ℝ, (pos a ∧ q) → a 1 > 0) ↔ sol")
SLOT = "noncomputable abbrev sol : Prop := sorry"


@pytest.mark.kernel
def test_a_substituted_binder_body_keeps_its_parentheses_and_lean_proves_the_reading(kernel_lean_exe):
    from pyshadow.syntax.render import render_declaration

    read = normalize_declaration(parse_declaration(POSINC), SLOT)
    assert "(∀ (x✝1 : ℕ), 1 ≤ x✝1 → 0 < a x✝1) ∧ q" in render_declaration(read)
    # the next revision states the definition with `↔` (as putnam_2001_b6's did): the same reading, Lean-checked
    iff = POSINC.replace("pos a = ∀ n ≥ 1", "pos a ↔ ∀ n ≥ 1")
    ok = pyshadow.check_pair(POSINC, iff, context=SLOT)
    assert ok.verdict == "pass" and ok.lean == "accepted", ok.reason
    # the misreading, a statement of its own: the ∀ over the conjunction
    misread = "theorem t (q : Prop) : (∀ a : ℕ → ℝ, ∀ n ≥ 1, a n > 0 ∧ q → a 1 > 0) ↔ sol"
    from pyshadow.settings import Settings
    for settings in (Settings(), Settings(lean_checked_only=False)):
        assert pyshadow.check_pair(POSINC, misread, context=SLOT, settings=settings).verdict != "pass"
