"""The lemma table and Lean's decisions on atom pairs: every lemma proves a real pair and not its mutation partner.

Each row of ``PyshadowEnv/Lemmas.lean`` has a claim here — two atoms over the same variables that the lemma proves
equal (``pyshadow.elab.atom_lemmas``) — and the nearest changed atom, which Lean must not prove equal by any lemma
of the table nor definitionally. A lemma added to the table without a claim fails ``test_every_lemma_has_a_claim``.
"""

from __future__ import annotations

import pytest

from pyshadow.elab.atom_lemmas import AtomPairQuery, atom_binders, candidate_lemmas, decide_atom_pairs
from pyshadow.elab.environment import declarations
from pyshadow.elab.lemmas import MODULE, lemma_names, lemma_table
from pyshadow.syntax.parser import parse_declaration

N = ("(n : ℕ)",)
Z = ("(n : ℤ)",)
R = ("(x : ℝ)",)
XN = ("(x : ℕ)", "(n : ℕ)")
AB = ("(a : ℕ)", "(b : ℕ)")
AN = ("(a : ℕ)", "(n : ℕ)")
AZ = ("(a : ℤ)", "(b : ℤ)")
S = ("(s : Set ℝ)",)
# lemma: (reference atom, candidate atom, binders, mutated candidate atom). The reference atom is over the
# candidate's variables, as ``undecided.AtomPair.read_as`` gives it.
CLAIMS = {
    "Nat.even_iff": ("Even n", "n % 2 = 0", N, "n % 2 = 1"),
    "Nat.odd_iff": ("Odd n", "n % 2 = 1", N, "n % 3 = 1"),
    "Nat.not_even_iff": ("¬ Even n", "n % 2 = 1", N, "n % 2 = 0"),
    "Int.even_iff": ("Even n", "n % 2 = 0", Z, "n % 2 = 1"),
    "Int.odd_iff": ("Odd n", "n % 2 = 1", Z, "n % 2 = 0"),
    "Nat.coprime_iff_gcd_eq_one": ("Nat.Coprime a b", "Nat.gcd a b = 1", AB, "Nat.gcd a b = 2"),
    "Nat.modEq_zero_iff_dvd": ("a ≡ 0 [MOD n]", "n ∣ a", AN, "a ∣ n"),
    "Int.modEq_zero_iff_dvd": ("a ≡ 0 [ZMOD b]", "b ∣ a", AZ, "a ∣ b"),
    "Nat.dvd_iff_mod_eq_zero": ("a ∣ b", "b % a = 0", AB, "a % b = 0"),
    "Int.dvd_iff_emod_eq_zero": ("a ∣ b", "b % a = 0", AZ, "a % b = 0"),
    "Finset.mem_range": ("x ∈ Finset.range n", "x < n", XN, "x ≤ n"),
    "Finset.mem_Icc": ("x ∈ Finset.Icc 1 n", "1 ≤ x ∧ x ≤ n", XN, "1 ≤ x ∧ x < n"),
    "Finset.mem_Ico": ("x ∈ Finset.Ico 1 n", "1 ≤ x ∧ x < n", XN, "1 < x ∧ x < n"),
    "Finset.mem_Ioc": ("x ∈ Finset.Ioc 1 n", "1 < x ∧ x ≤ n", XN, "1 ≤ x ∧ x ≤ n"),
    "Finset.mem_Ioo": ("x ∈ Finset.Ioo 1 n", "1 < x ∧ x < n", XN, "1 < x ∧ x ≤ n"),
    "Finset.mem_filter": ("x ∈ Finset.filter (fun k => Even k) (Finset.range n)", "x ∈ Finset.range n ∧ Even x", XN,
                          "x ∈ Finset.range n ∧ Odd x"),
    "Set.finite_coe_iff": ("Set.Finite s", "Finite (Set.Elem s)", S, "Infinite (Set.Elem s)"),
    "Set.infinite_coe_iff": ("Set.Infinite s", "Infinite (Set.Elem s)", S, "Finite (Set.Elem s)"),
    "Set.ncard_coe_finset": ("(t : Set ℕ).ncard", "t.card", ("(t : Finset ℕ)",), "t.card + 1"),
    "Real.sqrt_eq_rpow": ("Real.sqrt x", "x ^ (1 / 2 : ℝ)", R, "x ^ (1 / 3 : ℝ)"),
    "Real.rpow_natCast": ("x ^ (n : ℝ)", "x ^ n", ("(x : ℝ)", "(n : ℕ)"), "x ^ (n + 1)"),
    "Real.rpow_two": ("x ^ (2 : ℝ)", "x ^ 2", R, "x ^ 3"),
    "Real.log_div_log": ("Real.log x / Real.log 2", "Real.logb 2 x", R, "Real.logb 3 x"),
    "one_div": ("1 / x", "x⁻¹", R, "(x + 1)⁻¹"),
    "fact_iff": ("Fact (Nat.Prime p)", "Nat.Prime p", ("(p : ℕ)",), "Nat.Prime (p + 1)"),
}
# `∅` is not printed for Lean yet (pyshadow.elab.translate): the emptiness lemmas are claimed on what it stands
# for, `EmptyCollection.emptyCollection`.
CLAIMS |= {
    "Set.nonempty_iff_ne_empty": ("Set.Nonempty s", "s ≠ EmptyCollection.emptyCollection", S, "s ≠ Set.univ"),
    "Set.not_nonempty_iff_eq_empty": ("¬ Set.Nonempty s", "s = EmptyCollection.emptyCollection", S, "s = Set.univ"),
}
# Definitionally equal in the environment (Mathlib's `Set` membership and `Nat.Coprime` unfold), each with a
# mutation partner.
DEFINITIONAL = [
    ("x ∈ ({2} : Set ℝ)", "x = 2", R, "x = 3"),
    ("x ∈ Set.Icc (0 : ℝ) 1", "0 ≤ x ∧ x ≤ 1", R, "0 ≤ x ∧ x < 1"),
    ("x ≠ 2", "¬ x = 2", R, "¬ x = 3"),
    ("x > 0", "0 < x", R, "x < 0"),
]


def test_every_lemma_has_a_claim():
    assert sorted(lemma_names()) == sorted(CLAIMS)


def test_the_table_is_read_from_the_lean_file_with_sources_and_mathlib_statements():
    rows = lemma_table()
    assert len(rows) >= 20 and len({r.name for r in rows}) == len(rows)
    for row in rows:
        assert row.source.startswith(("Mathlib/", "src/Init/")) and row.source.endswith(".lean"), row
        assert row.mathlib.startswith(("theorem ", "lemma ")), row
        assert row.kind == ("iff" if "↔" in row.mathlib else "eq"), row
        assert row.key_constants, row
    # the table is part of the environment's declaration table: one place for every name
    env = {d.name: d for d in declarations() if d.module == MODULE}
    assert set(lemma_names()) <= set(env)
    assert all(env[name].kind == "axiom" for name in lemma_names())


def test_full_tier_names():
    """The names the full tier's `exact` alternative would use (the full-tier index check is another file's:
    these are the Mathlib/core names it must resolve)."""
    assert set(lemma_names()) == {
        "Nat.even_iff", "Nat.odd_iff", "Nat.not_even_iff", "Int.even_iff", "Int.odd_iff", "Nat.coprime_iff_gcd_eq_one",
        "Nat.modEq_zero_iff_dvd", "Int.modEq_zero_iff_dvd", "Nat.dvd_iff_mod_eq_zero", "Int.dvd_iff_emod_eq_zero", "Finset.mem_range",
        "Finset.mem_Icc", "Finset.mem_Ico", "Finset.mem_Ioc", "Finset.mem_Ioo", "Finset.mem_filter",
        "Set.finite_coe_iff", "Set.infinite_coe_iff", "Set.nonempty_iff_ne_empty", "Set.not_nonempty_iff_eq_empty",
        "Set.ncard_coe_finset", "Real.sqrt_eq_rpow", "Real.rpow_natCast", "Real.rpow_two", "Real.log_div_log",
        "one_div", "fact_iff"}


def test_lemmas_are_filtered_by_the_constants_the_atoms_name():
    names = [r.name for r in candidate_lemmas("Even n", "binrel% Eq (binop% HMod.hMod n 2) 0")]
    assert names == ["Nat.even_iff", "Nat.not_even_iff", "Int.even_iff"]
    assert candidate_lemmas("binrel% LT.lt x 1", "binrel% LE.le x 0") == []


def test_binders_come_from_the_header_then_the_quantifiers():
    decl = parse_declaration("theorem t (n : ℕ) {G : Type*} [Group G] (g : G) (h : ∀ k : ℕ, k ∣ n) "
                             "(h' : ∀ j, j ∣ n) : Even n")
    assert atom_binders(decl, ["Even n", "n % 2 = 0"]) == ("(n : ℕ)",)
    # a bound variable after the header ones: typed as its quantifier types it, else left to Lean
    assert atom_binders(decl, ["k ∣ n"]) == ("(n : ℕ)", "(k : ℕ)")
    assert atom_binders(decl, ["j ∣ n"]) == ("(n : ℕ)", "(j)")
    # a variable's type brings what it mentions, and the instances over it, every variable explicit
    assert atom_binders(decl, ["g = g"]) == ("(G : Type*)", "[Group G]", "(g : G)")
    assert "`variable`" in atom_binders(decl, ["Even m"], "variable (m : ℕ)")
    shadowing = parse_declaration("theorem t (n : ℕ) (h : ∀ n : ℕ, n ∣ 4) : Even n")
    assert "inside the statement and outside" in atom_binders(shadowing, ["n ∣ 4"])


@pytest.fixture(scope="module")
def decisions(kernel_lean_exe):
    queries = []
    for name, (ref, cand, binders, mutant) in CLAIMS.items():
        queries.append(AtomPairQuery(f"{name}|claim", ref, cand, binders))
        queries.append(AtomPairQuery(f"{name}|mutant", ref, mutant, binders))
        queries.append(AtomPairQuery(f"{name}|reversed", cand, ref, binders))
    for i, (ref, cand, binders, mutant) in enumerate(DEFINITIONAL):
        queries.append(AtomPairQuery(f"def{i}|claim", ref, cand, binders))
        queries.append(AtomPairQuery(f"def{i}|mutant", ref, mutant, binders))
    return {d.key: d for d in decide_atom_pairs(queries, kernel_lean_exe)}


@pytest.mark.kernel
@pytest.mark.parametrize("name", sorted(CLAIMS))
def test_each_lemma_proves_its_claim_and_not_its_mutation_partner(decisions, name):
    claim, mutant, reversed_ = (decisions[f"{name}|{k}"] for k in ("claim", "mutant", "reversed"))
    if name == "Nat.coprime_iff_gcd_eq_one":  # `Nat.Coprime` is a definition here, as in core: `.rfl`
        assert claim.status == "definitional", claim
    else:
        assert claim.status == "lemma" and claim.lemma in (name, f"{name}.symm"), claim
        assert reversed_.status == "lemma" and reversed_.lemma.removesuffix(".symm") == claim.lemma.removesuffix(
            ".symm") and reversed_.lemma != claim.lemma, reversed_
    assert mutant.status == "not_shown", mutant


@pytest.mark.kernel
@pytest.mark.parametrize("i", range(len(DEFINITIONAL)))
def test_definitional_pairs_and_their_mutation_partners(decisions, i):
    assert decisions[f"def{i}|claim"].status == "definitional", decisions[f"def{i}|claim"]
    assert decisions[f"def{i}|mutant"].status == "not_shown", decisions[f"def{i}|mutant"]


@pytest.mark.kernel
def test_each_atom_is_read_in_its_own_context(kernel_lean_exe):
    unknown, opened, ambiguous = decide_atom_pairs([
        AtomPairQuery("unknown", "Foo n", "n = 1", N),
        AtomPairQuery("open", "sqrt x", "Real.sqrt x", R, "open Real", ""),  # `open Real`: `sqrt` is `Real.sqrt`
        # `open Nat` with `Prime p`: `_root_.Prime` and `Nat.Prime` both fit, as in Mathlib — Lean's error, no guess
        AtomPairQuery("ambiguous", "Prime n", "Nat.Prime n", N, "open Nat", ""),
    ], kernel_lean_exe)
    assert unknown.status == "unsupported" and "Foo" in unknown.reason
    assert opened.status == "definitional", opened
    assert ambiguous.status == "unsupported" and "Ambiguous" in ambiguous.reason, ambiguous
