"""Exact trees for real statements: the logical skeleton the parser must build, checked by hand against Lean 4.

Lean 4 precedences (Init/Core.lean, Init/Prelude.lean): ↔ 20 (non-associative), → 25 (right), ∨ 30 (right),
∧ 35 (right), ¬ 40 (prefix, argument at 40: `¬a = b` is `¬(a = b)`), relations = ≠ ≤ < ≥ > ∈ ∉ ⊆ ⊂ ∣ 50
(non-associative); ∀/∃/∃!/let/have/fun extend as far right as they can; big operators take their body at 60–67
(`∑ i ∈ s, f i = 0` is `(∑ i ∈ s, f i) = 0`); Mathlib relations outside the skeleton (`≡ [MOD n]`, `=ᶠ[l]`, `=O[l]`)
and filter quantifiers (`∀ᶠ`) stay inside atoms. Trees are written with ``declaration_sexpr``: atoms in «», bare
quantifier binders in < >.

The first table is taken from ../shared/corpora/dev.jsonl (ids cited; the texts are copied here so the test runs
without the corpus, and checked against it when it is present); the second from tests/fixtures/corpus/extra.jsonl,
for constructs the dev corpus lacks (let chains, letI, ∀ᶠ, =O[], defaults, ∀ᵉ, pattern-matching equations).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyshadow.syntax import Atom, BinOp, Let, Not, ParseError, Quant, Rel, parse_declaration, parse_term
from pyshadow.syntax.ast import Scope, atoms, mentioned
from pyshadow.syntax.serialize import declaration_sexpr, sexpr

EXTRA = Path(__file__).parent / "fixtures" / "corpus" / "extra.jsonl"

# (dev id, statement, expected tree)
DEV_TREES = [
    (
        'minif2f/amc12a_2021_p18',
        'theorem amc12a_2021_p18\n  (f : ℚ → ℝ)\n  (h₀ : ∀x>0, ∀y>0, f (x * y) = f x + f y)\n  (h₁ : ∀p, Nat.Prime p → f p = p) :\n  f (25 / 11) < 0',
        'amc12a_2021_p18 (f : (→ «ℚ» «ℝ»)) (h₀ : (∀ <x > «0»> (∀ <y > «0»> (= «f (x * y)» «f x + f y»)))) (h₁ : (∀ <p> (→ «Nat.Prime p» (= «f p» «p»)))) : (< «f (25 / 11)» «0»)',
    ),
    (
        'minif2f/amc12b_2021_p1',
        'theorem amc12b_2021_p1\n  (S : Finset ℤ)\n  (h₀ : ∀ (x : ℤ), x ∈ S ↔ ↑(abs x) < 3 * Real.pi):\n  S.card = 19',
        'amc12b_2021_p1 (S : «Finset ℤ») (h₀ : (∀ (x : «ℤ») (↔ (∈ «x» «S») (< «↑(abs x)» «3 * Real.pi»)))) : (= «S.card» «19»)',
    ),
    (
        'minif2f/imo_1968_p5_1',
        'theorem imo_1968_p5_1\n  (a : ℝ)\n  (f : ℝ → ℝ)\n  (h₀ : 0 < a)\n  (h₁ : ∀ x, f (x + a) = 1 / 2 + Real.sqrt (f x - (f x)^2)) :\n  ∃ b > 0, ∀ x, f (x + b) = f x',
        'imo_1968_p5_1 (a : «ℝ») (f : (→ «ℝ» «ℝ»)) (h₀ : (< «0» «a»)) (h₁ : (∀ <x> (= «f (x + a)» «1 / 2 + Real.sqrt (f x - (f x)^2)»))) : (∃ <b > «0»> (∀ <x> (= «f (x + b)» «f x»)))',
    ),
    (
        'minif2f/imo_1985_p6',
        'theorem imo_1985_p6\n  (f : ℕ → NNReal → ℝ)\n  (h₀ : ∀ x, f 1 x = x)\n  (h₁ : ∀ x n, f (n + 1) x = f n x * (f n x + 1 / n)) :\n  ∃! a, ∀ n, 0 < n → 0 < f n a ∧ f n a < f (n + 1) a ∧ f (n + 1) a < 1',
        'imo_1985_p6 (f : (→ «ℕ» (→ «NNReal» «ℝ»))) (h₀ : (∀ <x> (= «f 1 x» «x»))) (h₁ : (∀ <x n> (= «f (n + 1) x» «f n x * (f n x + 1 / n)»))) : (∃! <a> (∀ <n> (→ (< «0» «n») (∧ (< «0» «f n a») (∧ (< «f n a» «f (n + 1) a») (< «f (n + 1) a» «1»))))))',
    ),
    (
        'minif2f/mathd_algebra_113',
        'theorem mathd_algebra_113\n  (x : ℝ) :\n  x^2 - 14 * x + 3 ≥ 7^2 - 14 * 7 + 3',
        'mathd_algebra_113 (x : «ℝ») : (≥ «x^2 - 14 * x + 3» «7^2 - 14 * 7 + 3»)',
    ),
    (
        'minif2f/mathd_numbertheory_150',
        'theorem mathd_numbertheory_150\n  (n : ℕ)\n  (h₀ : ¬ Nat.Prime (7 + 30 * n)) :\n  6 ≤ n',
        'mathd_numbertheory_150 (n : «ℕ») (h₀ : (¬ «Nat.Prime (7 + 30 * n)»)) : (≤ «6» «n»)',
    ),
    (
        'minif2f/numbertheory_4x3m7y3neq2003',
        'theorem numbertheory_4x3m7y3neq2003\n  (x y : ℤ) :\n  4 * x^3 - 7 * y^3 ≠ 2003',
        'numbertheory_4x3m7y3neq2003 (x y : «ℤ») : (≠ «4 * x^3 - 7 * y^3» «2003»)',
    ),
    (
        'minif2f/numbertheory_exk2powkeqapb2mulbpa2_aeq1',
        'theorem numbertheory_exk2powkeqapb2mulbpa2_aeq1\n  (a b : ℕ)\n  (h₀ : 0 < a ∧ 0 < b)\n  (h₁ : ∃ k > 0, 2^k = (a + b^2) * (b + a^2)) :\n  a = 1',
        'numbertheory_exk2powkeqapb2mulbpa2_aeq1 (a b : «ℕ») (h₀ : (∧ (< «0» «a») (< «0» «b»))) (h₁ : (∃ <k > «0»> (= «2^k» «(a + b^2) * (b + a^2)»))) : (= «a» «1»)',
    ),
    (
        'minif2f/algebra_amgm_faxinrrp2msqrt2geq2mxm1div2x',
        'theorem algebra_amgm_faxinrrp2msqrt2geq2mxm1div2x :\n  ∀ x > 0, 2 - Real.sqrt 2 ≥ 2 - x - 1 / (2 * x)',
        'algebra_amgm_faxinrrp2msqrt2geq2mxm1div2x : (∀ <x > «0»> (≥ «2 - Real.sqrt 2» «2 - x - 1 / (2 * x)»))',
    ),
    (
        'minif2f/amc12_2001_p9',
        'theorem amc12_2001_p9 (f : ℝ → ℝ) (h₀ : ∀ x > 0, ∀ y > 0, f (x * y) = f x / y) (h₁ : f 500 = 3) :\n    f 600 = 5 / 2',
        'amc12_2001_p9 (f : (→ «ℝ» «ℝ»)) (h₀ : (∀ <x > «0»> (∀ <y > «0»> (= «f (x * y)» «f x / y»)))) (h₁ : (= «f 500» «3»)) : (= «f 600» «5 / 2»)',
    ),
    (
        'minif2f/imo_1964_p1_2',
        'theorem imo_1964_p1_2 (n : ℕ) : ¬7 ∣ 2 ^ n + 1',
        'imo_1964_p1_2 (n : «ℕ») : (¬ (∣ «7» «2 ^ n + 1»))',
    ),
    (
        'minif2f/imo_1987_p4',
        'theorem imo_1987_p4 (f : ℕ → ℕ) : ∃ n, f (f n) ≠ n + 1987',
        'imo_1987_p4 (f : (→ «ℕ» «ℕ»)) : (∃ <n> (≠ «f (f n)» «n + 1987»))',
    ),
    (
        'minif2f/mathd_numbertheory_32',
        'theorem mathd_numbertheory_32 (S : Finset ℕ) (h₀ : ∀ n : ℕ, n ∈ S ↔ n ∣ 36) : (∑ k ∈ S, k) = 91',
        'mathd_numbertheory_32 (S : «Finset ℕ») (h₀ : (∀ <n : «ℕ»> (↔ (∈ «n» «S») (∣ «n» «36»)))) : (= «(∑ k ∈ S, k)» «91»)',
    ),
    (
        'minif2f/numbertheory_prmdvsneqnsqmodpeq0',
        'theorem numbertheory_prmdvsneqnsqmodpeq0 (n : ℤ) (p : ℕ) (h₀ : Nat.Prime p) :\n  ↑p ∣ n ↔ n ^ 2 % p = 0',
        'numbertheory_prmdvsneqnsqmodpeq0 (n : «ℤ») (p : «ℕ») (h₀ : «Nat.Prime p») : (↔ (∣ «↑p» «n») (= «n ^ 2 % p» «0»))',
    ),
    (
        'minif2f/numbertheory_sqmod3in01d',
        'theorem numbertheory_sqmod3in01d (a : ℤ) : a ^ 2 % 3 = 0 ∨ a ^ 2 % 3 = 1',
        'numbertheory_sqmod3in01d (a : «ℤ») : (∨ (= «a ^ 2 % 3» «0») (= «a ^ 2 % 3» «1»))',
    ),
    (
        'proofnet/Artin_exercise_6_1_14',
        'theorem exercise_6_1_14 (G : Type*) [Group G]\n  (hG : IsCyclic $ G ⧸ (center G)) :\n  center G = ⊤',
        'exercise_6_1_14 (G : «Type*») [«Group G»] (hG : «IsCyclic $ G ⧸ (center G)») : (= «center G» «⊤»)',
    ),
    (
        'proofnet/Dummit_Foote_exercise_1_6_17',
        'theorem exercise_1_6_17 {G : Type*} [Group G] (f : G → G)\n  (hf : f = λ g => g⁻¹) :\n  ∀ x y : G, f x * f y = f (x*y) ↔ ∀ x y : G, x*y = y*x',
        'exercise_1_6_17 {G : «Type*»} [«Group G»] (f : (→ «G» «G»)) (hf : (= «f» «λ g => g⁻¹»)) : (∀ <x y : «G»> (↔ (= «f x * f y» «f (x*y)») (∀ <x y : «G»> (= «x*y» «y*x»))))',
    ),
    (
        'proofnet/Dummit_Foote_exercise_3_2_21a',
        'theorem exercise_3_2_21a (H : AddSubgroup ℚ) (hH : H ≠ ⊤) : H.index = 0',
        'exercise_3_2_21a (H : «AddSubgroup ℚ») (hH : (≠ «H» «⊤»)) : (= «H.index» «0»)',
    ),
    (
        'proofnet/Dummit_Foote_exercise_3_4_11',
        'theorem exercise_3_4_11 {G : Type*} [Group G] [IsSolvable G]\n  {H : Subgroup G} (hH : H ≠ ⊥) [H.Normal] :\n  ∃ A ≤ H, A.Normal ∧ ∀ a b : A, a*b = b*a',
        'exercise_3_4_11 {G : «Type*»} [«Group G»] [«IsSolvable G»] {H : «Subgroup G»} (hH : (≠ «H» «⊥»)) [«H.Normal»] : (∃ <A ≤ «H»> (∧ «A.Normal» (∀ <a b : «A»> (= «a*b» «b*a»))))',
    ),
    (
        'proofnet/Dummit_Foote_exercise_5_4_2',
        'theorem exercise_5_4_2 {G : Type*} [Group G] (H : Subgroup G) :\n  H.Normal ↔ ⁅(⊤ : Subgroup G), H⁆ ≤ H',
        'exercise_5_4_2 {G : «Type*»} [«Group G»] (H : «Subgroup G») : (↔ «H.Normal» (≤ «⁅(⊤ : Subgroup G), H⁆» «H»))',
    ),
    (
        'proofnet/Dummit_Foote_exercise_7_1_11',
        'theorem exercise_7_1_11 {R : Type*} [Ring R] [IsDomain R]\n  {x : R} (hx : x^2 = 1) : x = 1 ∨ x = -1',
        'exercise_7_1_11 {R : «Type*»} [«Ring R»] [«IsDomain R»] {x : «R»} (hx : (= «x^2» «1»)) : (∨ (= «x» «1») (= «x» «-1»))',
    ),
    (
        'proofnet/Herstein_exercise_4_3_25',
        'theorem exercise_4_3_25 (I : Ideal (Matrix (Fin 2) (Fin 2) ℝ)) :\n  I = ⊥ ∨ I = ⊤',
        'exercise_4_3_25 (I : «Ideal (Matrix (Fin 2) (Fin 2) ℝ)») : (∨ (= «I» «⊥») (= «I» «⊤»))',
    ),
    (
        'proofnet/Ireland_Rosen_exercise_1_31',
        'theorem exercise_1_31  : (⟨1, 1⟩ : GaussianInt) ^ 2 ∣ 2',
        'exercise_1_31 : (∣ «(⟨1, 1⟩ : GaussianInt) ^ 2» «2»)',
    ),
    (
        'proofnet/Ireland_Rosen_exercise_3_5',
        'theorem exercise_3_5 : ¬ ∃ x y : ℤ, 7*x^3 + 2 = y^3',
        'exercise_3_5 : (¬ (∃ <x y : «ℤ»> (= «7*x^3 + 2» «y^3»)))',
    ),
    (
        'proofnet/Munkres_exercise_13_1',
        'theorem exercise_13_1 (X : Type*) [TopologicalSpace X] (A : Set X)\n  (h1 : ∀ x ∈ A, ∃ U : Set X, x ∈ U ∧ IsOpen U ∧ U ⊆ A) :\n  IsOpen A',
        'exercise_13_1 (X : «Type*») [«TopologicalSpace X»] (A : «Set X») (h1 : (∀ <x ∈ «A»> (∃ <U : «Set X»> (∧ (∈ «x» «U») (∧ «IsOpen U» (⊆ «U» «A»)))))) : «IsOpen A»',
    ),
    (
        'proofnet/Munkres_exercise_13_4b1',
        "theorem exercise_13_4b1 (X I : Type*) (T : I → Set (Set X)) (h : ∀ i, is_topology X (T i)) :\n  ∃! T', is_topology X T' ∧ (∀ i, T i ⊆ T') ∧\n  ∀ T'', is_topology X T'' → (∀ i, T i ⊆ T'') → T'' ⊆ T'",
        "exercise_13_4b1 (X I : «Type*») (T : (→ «I» «Set (Set X)»)) (h : (∀ <i> «is_topology X (T i)»)) : (∃! <T'> (∧ «is_topology X T'» (∧ (∀ <i> (⊆ «T i» «T'»)) (∀ <T''> (→ «is_topology X T''» (→ (∀ <i> (⊆ «T i» «T''»)) (⊆ «T''» «T'»)))))))",
    ),
    (
        'proofnet/Munkres_exercise_29_1',
        'theorem exercise_29_1 : ¬ LocallyCompactSpace ℚ',
        'exercise_29_1 : (¬ «LocallyCompactSpace ℚ»)',
    ),
    (
        'proofnet/Pugh_exercise_3_63b',
        'theorem exercise_3_63b (p : ℝ) (f : ℕ → ℝ) (hp : p ≤ 1)\n  (h : f = λ (k : ℕ) => (1 : ℝ) / (k * (log k) ^ p)) :\n  ¬ ∃ l, Tendsto f atTop (𝓝 l)',
        'exercise_3_63b (p : «ℝ») (f : (→ «ℕ» «ℝ»)) (hp : (≤ «p» «1»)) (h : (= «f» «λ (k : ℕ) => (1 : ℝ) / (k * (log k) ^ p)»)) : (¬ (∃ <l> «Tendsto f atTop (𝓝 l)»))',
    ),
    (
        'proofnet/Putnam_exercise_2010_a4',
        'theorem exercise_2010_a4 (n : ℕ) :\n  ¬ Nat.Prime (10^10^10^n + 10^10^n + 10^n - 1)',
        'exercise_2010_a4 (n : «ℕ») : (¬ «Nat.Prime (10^10^10^n + 10^10^n + 10^n - 1)»)',
    ),
    (
        'proofnet/Putnam_exercise_1998_a3',
        'theorem exercise_1998_a3 (f : ℝ → ℝ) (hf : ContDiff ℝ 3 f) :\n  ∃ a : ℝ, (f a) * (deriv f a) * (iteratedDeriv 2 f a) * (iteratedDeriv 3 f a) ≥ 0',
        'exercise_1998_a3 (f : (→ «ℝ» «ℝ»)) (hf : «ContDiff ℝ 3 f») : (∃ <a : «ℝ»> (≥ «(f a) * (deriv f a) * (iteratedDeriv 2 f a) * (iteratedDeriv 3 f a)» «0»))',
    ),
    (
        'proofnet/Rudin_exercise_1_2',
        'theorem exercise_1_2 : ¬ ∃ (x : ℚ), ( x ^ 2 = 12 )',
        'exercise_1_2 : (¬ (∃ (x : «ℚ») (= «x ^ 2» «12»)))',
    ),
    (
        'proofnet/Rudin_exercise_4_2a',
        "theorem exercise_4_2a\n  {α : Type} [MetricSpace α]\n  {β : Type} [MetricSpace β]\n  (f : α → β)\n  (h₁ : Continuous f)\n  : ∀ (x : Set α), f '' (closure x) ⊆ closure (f '' x)",
        "exercise_4_2a {α : «Type»} [«MetricSpace α»] {β : «Type»} [«MetricSpace β»] (f : (→ «α» «β»)) (h₁ : «Continuous f») : (∀ (x : «Set α») (⊆ «f '' (closure x)» «closure (f '' x)»))",
    ),
    (
        'proofnet/Rudin_exercise_4_5a',
        'theorem exercise_4_5a\n  (f : ℝ → ℝ)\n  (E : Set ℝ)\n  (h₁ : IsClosed E)\n  (h₂ : ContinuousOn f E)\n  : ∃ (g : ℝ → ℝ), Continuous g ∧ ∀ x ∈ E, f x = g x',
        'exercise_4_5a (f : (→ «ℝ» «ℝ»)) (E : «Set ℝ») (h₁ : «IsClosed E») (h₂ : «ContinuousOn f E») : (∃ (g : (→ «ℝ» «ℝ»)) (∧ «Continuous g» (∀ <x ∈ «E»> (= «f x» «g x»))))',
    ),
    (
        'minif2f/imo_2019_p1',
        'theorem imo_2019_p1\n  (f : ℤ → ℤ) :\n  ((∀ a b, f (2 * a) + (2 * f b) = f (f (a + b))) ↔ (∀ z, f z = 0 \\/ ∃ c, ∀ z, f z = 2 * z + c))',
        'imo_2019_p1 (f : (→ «ℤ» «ℤ»)) : (↔ (∀ <a b> (= «f (2 * a) + (2 * f b)» «f (f (a + b))»)) (∀ <z> (∨ (= «f z» «0») (∃ <c> (∀ <z> (= «f z» «2 * z + c»))))))',
    ),
    (
        'proofnet/Dummit_Foote_exercise_1_1_18',
        'theorem exercise_1_1_18 {G : Type*} [Group G]\n  (x y : G) : (x * y = y * x ↔ y⁻¹ * x * y = x) ↔ (x⁻¹ * y⁻¹ * x * y = 1)',
        'exercise_1_1_18 {G : «Type*»} [«Group G»] (x y : «G») : (↔ (↔ (= «x * y» «y * x») (= «y⁻¹ * x * y» «x»)) (= «x⁻¹ * y⁻¹ * x * y» «1»))',
    ),
    (
        'proofnet/Axler_exercise_5_20',
        'theorem exercise_5_20 {F V : Type*} [AddCommGroup V] [Field F]\n  [Module F V] [FiniteDimensional F V] {S T : End F V}\n  (h1 : card (T.Eigenvalues) = finrank F V)\n  (h2 : ∀ v : V, ∃ c : F, v ∈ eigenspace S c ↔ ∃ c : F, v ∈ eigenspace T c) :\n  S * T = T * S',
        'exercise_5_20 {F V : «Type*»} [«AddCommGroup V»] [«Field F»] [«Module F V»] [«FiniteDimensional F V»] {S T : «End F V»} (h1 : (= «card (T.Eigenvalues)» «finrank F V»)) (h2 : (∀ <v : «V»> (∃ <c : «F»> (↔ (∈ «v» «eigenspace S c») (∃ <c : «F»> (∈ «v» «eigenspace T c»)))))) : (= «S * T» «T * S»)',
    ),
    (
        'proofnet/Axler_exercise_7_14',
        "theorem exercise_7_14 {𝕜 V : Type*} [RCLike 𝕜] [NormedAddCommGroup V]\n  [InnerProductSpace 𝕜 V] [FiniteDimensional 𝕜 V]\n  {T : End 𝕜 V} (hT : IsSelfAdjoint T)\n  {l : 𝕜} {ε : ℝ} (he : ε > 0) : ∃ v : V, ‖v‖= 1 ∧ (‖T v - l • v‖ < ε →\n  (∃ l' : T.Eigenvalues, ‖l - l'‖ < ε))",
        "exercise_7_14 {𝕜 V : «Type*»} [«RCLike 𝕜»] [«NormedAddCommGroup V»] [«InnerProductSpace 𝕜 V»] [«FiniteDimensional 𝕜 V»] {T : «End 𝕜 V»} (hT : «IsSelfAdjoint T») {l : «𝕜»} {ε : «ℝ»} (he : (> «ε» «0»)) : (∃ <v : «V»> (∧ (= «‖v‖» «1») (→ (< «‖T v - l • v‖» «ε») (∃ <l' : «T.Eigenvalues»> (< «‖l - l'‖» «ε»)))))",
    ),
    (
        'proofnet/Artin_exercise_10_7_10',
        'theorem exercise_10_7_10 {R : Type*} [Ring R]\n  (M : Ideal R) (hM : ∀ (x : R), x ∉ M → IsUnit x)\n  (hProper : ∃ x : R, x ∉ M) :\n  IsMaximal M ∧ ∀ (N : Ideal R), IsMaximal N → N = M',
        'exercise_10_7_10 {R : «Type*»} [«Ring R»] (M : «Ideal R») (hM : (∀ (x : «R») (→ (∉ «x» «M») «IsUnit x»))) (hProper : (∃ <x : «R»> (∉ «x» «M»))) : (∧ «IsMaximal M» (∀ (N : «Ideal R») (→ «IsMaximal N» (= «N» «M»))))',
    ),
    (
        'proofnet/Axler_exercise_6_2',
        'theorem exercise_6_2 {V : Type*} [NormedAddCommGroup V] [Module ℂ V]\n[InnerProductSpace ℂ V] (u v : V) :\n  ⟪u, v⟫_ℂ = 0 ↔ ∀ (a : ℂ), ‖u‖  ≤ ‖u + a • v‖',
        'exercise_6_2 {V : «Type*»} [«NormedAddCommGroup V»] [«Module ℂ V»] [«InnerProductSpace ℂ V»] (u v : «V») : (↔ (= «⟪u, v⟫_ℂ» «0») (∀ (a : «ℂ») (≤ «‖u‖» «‖u + a • v‖»)))',
    ),
    (
        'proofnet/Axler_exercise_3_1',
        'theorem exercise_3_1 {F V : Type*}\n  [AddCommGroup V] [Field F] [Module F V] [FiniteDimensional F V]\n  (T : V →ₗ[F] V) (hT : finrank F V = 1) :\n  ∃ c : F, ∀ v : V, T v = c • v',
        'exercise_3_1 {F V : «Type*»} [«AddCommGroup V»] [«Field F»] [«Module F V»] [«FiniteDimensional F V»] (T : «V →ₗ[F] V») (hT : (= «finrank F V» «1»)) : (∃ <c : «F»> (∀ <v : «V»> (= «T v» «c • v»)))',
    ),
    (
        'proofnet/Artin_exercise_2_2_9',
        'theorem exercise_2_2_9 {G : Type*} [Group G] {a b : G}\n  (h : a * b = b * a) :\n  ∀ x y : closure {x | x = a ∨ x = b}, x*y = y*x',
        'exercise_2_2_9 {G : «Type*»} [«Group G»] {a b : «G»} (h : (= «a * b» «b * a»)) : (∀ <x y : «closure {x | x = a ∨ x = b}»> (= «x*y» «y*x»))',
    ),
    (
        'proofnet/Munkres_exercise_28_5',
        'theorem exercise_28_5\n  (X : Type*) [TopologicalSpace X] :\n  countably_compact X ↔ ∀ (C : ℕ → Set X), (∀ n, IsClosed (C n)) ∧\n  (∀ n, C n ≠ ∅) ∧ (∀ n, C n ⊆ C (n + 1)) → ∃ x, ∀ n, x ∈ C n',
        'exercise_28_5 (X : «Type*») [«TopologicalSpace X»] : (↔ «countably_compact X» (∀ (C : (→ «ℕ» «Set X»)) (→ (∧ (∀ <n> «IsClosed (C n)») (∧ (∀ <n> (≠ «C n» «∅»)) (∀ <n> (⊆ «C n» «C (n + 1)»)))) (∃ <x> (∀ <n> (∈ «x» «C n»))))))',
    ),
    (
        'proofnet/Ireland_Rosen_exercise_4_5',
        'theorem exercise_4_5 {p t : ℕ} (hp0 : p.Prime) (hp1 : p = 4*t + 3)\n  (a : ZMod p) :\n  IsPrimitiveRoot a p ↔ ((-a) ^ ((p-1)/2) = 1 ∧ ∀ (k : ℕ), k < (p-1)/2 → (-a)^k ≠ 1)',
        'exercise_4_5 {p t : «ℕ»} (hp0 : «p.Prime») (hp1 : (= «p» «4*t + 3»)) (a : «ZMod p») : (↔ «IsPrimitiveRoot a p» (∧ (= «(-a) ^ ((p-1)/2)» «1») (∀ (k : «ℕ») (→ (< «k» «(p-1)/2») (≠ «(-a)^k» «1»)))))',
    ),
    (
        'proofnet/Ireland_Rosen_exercise_4_8',
        'theorem exercise_4_8 {p a : ℕ} (hp : Odd p) :\n  IsPrimitiveRoot a p ↔ (∀ q : ℕ, q ∣ (p-1) → q.Prime → ¬ a^(p-1) ≡ 1 [MOD p])',
        'exercise_4_8 {p a : «ℕ»} (hp : «Odd p») : (↔ «IsPrimitiveRoot a p» (∀ <q : «ℕ»> (→ (∣ «q» «(p-1)») (→ «q.Prime» (¬ «a^(p-1) ≡ 1 [MOD p]»)))))',
    ),
    (
        'minif2f/amc12a_2002_p6',
        'theorem amc12a_2002_p6\n  (n : ℕ)\n  (h₀ : 0 < n) :\n  ∃ m, (m > n ∧ ∃ p, m * p ≤ m + p)',
        'amc12a_2002_p6 (n : «ℕ») (h₀ : (< «0» «n»)) : (∃ <m> (∧ (> «m» «n») (∃ <p> (≤ «m * p» «m + p»))))',
    ),
    (
        'minif2f/amc12a_2020_p4',
        'theorem amc12a_2020_p4\n  (S : Finset ℕ)\n  (h₀ : ∀ (n : ℕ), n ∈ S ↔ 1000 ≤ n ∧ n ≤ 9999 ∧ (∀ (d : ℕ), d ∈ Nat.digits 10 n → Even d) ∧ 5 ∣ n) :\n  S.card = 100',
        'amc12a_2020_p4 (S : «Finset ℕ») (h₀ : (∀ (n : «ℕ») (↔ (∈ «n» «S») (∧ (≤ «1000» «n») (∧ (≤ «n» «9999») (∧ (∀ (d : «ℕ») (→ (∈ «d» «Nat.digits 10 n») «Even d»)) (∣ «5» «n»))))))) : (= «S.card» «100»)',
    ),
    (
        'minif2f/numbertheory_notEquiv2i2jasqbsqdiv8',
        'theorem numbertheory_notEquiv2i2jasqbsqdiv8 :\n  ¬ (∀ a b : ℤ, (∃ i j, a = 2*i ∧ b=2*j) ↔ (∃ k, a^2 + b^2 = 8*k))',
        'numbertheory_notEquiv2i2jasqbsqdiv8 : (¬ (∀ <a b : «ℤ»> (↔ (∃ <i j> (∧ (= «a» «2*i») (= «b» «2*j»))) (∃ <k> (= «a^2 + b^2» «8*k»)))))',
    ),
    (
        'minif2f/amc12b_2021_p21',
        'theorem amc12b_2021_p21 (S : Finset ℝ)\n  (h₀ : ∀ x : ℝ, x ∈ S ↔ 0 < x ∧ x ^ (2 : ℝ) ^ Real.sqrt 2 = Real.sqrt 2 ^ (2 : ℝ) ^ x) :\n  (↑2 ≤ ∑ k ∈ S, k) ∧ (∑ k ∈ S, k) < 6',
        'amc12b_2021_p21 (S : «Finset ℝ») (h₀ : (∀ <x : «ℝ»> (↔ (∈ «x» «S») (∧ (< «0» «x») (= «x ^ (2 : ℝ) ^ Real.sqrt 2» «Real.sqrt 2 ^ (2 : ℝ) ^ x»))))) : (∧ (≤ «↑2» «∑ k ∈ S, k») (< «(∑ k ∈ S, k)» «6»))',
    ),
    (
        'proofnet/Munkres_exercise_29_10',
        'theorem exercise_29_10 {X : Type*}\n  [TopologicalSpace X] [T2Space X] (x : X)\n  (hx : ∃ U : Set X, x ∈ U ∧ IsOpen U ∧ (∃ K : Set X, U ⊂ K ∧ IsCompact K))\n  (U : Set X) (hU : IsOpen U) (hxU : x ∈ U) :\n  ∃ (V : Set X), IsOpen V ∧ x ∈ V ∧ IsCompact (closure V) ∧ closure V ⊆ U',
        'exercise_29_10 {X : «Type*»} [«TopologicalSpace X»] [«T2Space X»] (x : «X») (hx : (∃ <U : «Set X»> (∧ (∈ «x» «U») (∧ «IsOpen U» (∃ <K : «Set X»> (∧ (⊂ «U» «K») «IsCompact K»)))))) (U : «Set X») (hU : «IsOpen U») (hxU : (∈ «x» «U»)) : (∃ (V : «Set X») (∧ «IsOpen V» (∧ (∈ «x» «V») (∧ «IsCompact (closure V)» (⊆ «closure V» «U»)))))',
    ),
    (
        'proofnet/Shakarchi_exercise_2_9',
        "theorem exercise_2_9\n  {f : ℂ → ℂ} (Ω : Set ℂ) (b : Bornology.IsBounded Ω) (h : IsOpen Ω)\n  (hf : DifferentiableOn ℂ f Ω) (z : Ω) (hz : f z = z) (h'z : deriv f z = 1) :\n  ∃ (f_lin : ℂ →L[ℂ] ℂ), ∀ x ∈ Ω, f x = f_lin x",
        "exercise_2_9 {f : (→ «ℂ» «ℂ»)} (Ω : «Set ℂ») (b : «Bornology.IsBounded Ω») (h : «IsOpen Ω») (hf : «DifferentiableOn ℂ f Ω») (z : «Ω») (hz : (= «f z» «z»)) (h'z : (= «deriv f z» «1»)) : (∃ (f_lin : «ℂ →L[ℂ] ℂ») (∀ <x ∈ «Ω»> (= «f x» «f_lin x»)))",
    ),
    (
        'proofnet/Axler_exercise_1_8',
        'theorem exercise_1_8 {F V : Type*} [AddCommGroup V] [Field F]\n  [Module F V] {ι : Type*} (u : ι → Submodule F V) :\n  ∃ U : Submodule F V, (⋂ (i : ι), (u i).carrier) = ↑U',
        'exercise_1_8 {F V : «Type*»} [«AddCommGroup V»] [«Field F»] [«Module F V»] {ι : «Type*»} (u : (→ «ι» «Submodule F V»)) : (∃ <U : «Submodule F V»> (= «(⋂ (i : ι), (u i).carrier)» «↑U»))',
    ),
]

# (extra.jsonl id, statement, expected tree)
EXTRA_TREES = [
    (
        'roozbeh-yz/miniF2F_v2/datasets/miniF2F_v2c.jsonl.lean#imo_1983_p6',
        'theorem imo_1983_p6\n  (T : Affine.Triangle ℝ (EuclideanSpace ℝ (Fin 2))) :\n  let a := dist (T.points 1) (T.points 2)\n  let b := dist (T.points 0) (T.points 2)\n  let c := dist (T.points 0) (T.points 1)\n  0 ≤ a^2 * b * (a - b) + b^2 * c * (b - c) + c^2 * a * (c - a) ∧\n  (0 = a^2 * b * (a - b) + b^2 * c * (b - c) + c^2 * a * (c - a) ↔ imo_1983_p6_solution a b c)',
        'imo_1983_p6 (T : «Affine.Triangle ℝ (EuclideanSpace ℝ (Fin 2))») : (let a := «dist (T.points 1) (T.points 2)» (let b := «dist (T.points 0) (T.points 2)» (let c := «dist (T.points 0) (T.points 1)» (∧ (≤ «0» «a^2 * b * (a - b) + b^2 * c * (b - c) + c^2 * a * (c - a)») (↔ (= «0» «a^2 * b * (a - b) + b^2 * c * (b - c) + c^2 * a * (c - a)») «imo_1983_p6_solution a b c»)))))',
    ),
    (
        'google-deepmind/formal-putnam-like/PutnamLike/Set5/A6.lean#putnam_like_set5_a6',
        "theorem putnam_like_set5_a6 :\n    -- The tangent line\n    letI T : ℝ² → AffineSubspace ℝ ℝ² :=\n      fun P ↦ AffineSubspace.mk' P (Submodule.span ℝ {!₂[1, - 1 / P 0 ^ 2]})\n    -- The positive branch of the hyperbola\n    letI 𝓗 : Set ℝ² := {P | 0 < P 0 ∧ P 1 = 1 / P 0}\n    -- The set of triangles `PQR` with `P, Q, R` as in the statement\n    letI 𝓟 : Set (Triangle ℝ ℝ²) :=\n      {Δ | Δ.points 0 ∈ 𝓗 ∧ Δ.points 1 ∈ 𝓗 ∧ (T (Δ.points 0) : Set ℝ²) ∩ (T (Δ.points 1) : Set ℝ²) = {Δ.points 2}}\n     ⨅ Δ ∈ 𝓟, Δ.circumradius = putnam_like_set5_a6_solution",
        "putnam_like_set5_a6 : (letI T : «ℝ² → AffineSubspace ℝ ℝ²» := «fun P ↦ AffineSubspace.mk' P (Submodule.span ℝ {!₂[1, - 1 / P 0 ^ 2]})» (letI 𝓗 : «Set ℝ²» := «{P | 0 < P 0 ∧ P 1 = 1 / P 0}» (letI 𝓟 : «Set (Triangle ℝ ℝ²)» := «{Δ | Δ.points 0 ∈ 𝓗 ∧ Δ.points 1 ∈ 𝓗 ∧ (T (Δ.points 0) : Set ℝ²) ∩ (T (Δ.points 1) : Set ℝ²) = {Δ.points 2}}» (= «⨅ Δ ∈ 𝓟, Δ.circumradius» «putnam_like_set5_a6_solution»))))",
    ),
    (
        'FormalMATH omni_theorem_1624 (index file 61024056653)#omni_theorem_1624',
        'theorem omni_theorem_1624 {n : ℕ} (hn : 0 < n) (P : Fin n → ℝ)\n    (hP : ∀ i, P i ∈ Set.Icc 0 1) :\n    let m := n\n    let E := ∑ i : Fin m, P i\n    let Pr := 1 - ∏ i : Fin m, (1 - P i)\n    E = ∑ i : Fin m, P i ∧ Pr = 1 - ∏ i : Fin m, (1 - P i)',
        'omni_theorem_1624 {n : «ℕ»} (hn : (< «0» «n»)) (P : (→ «Fin n» «ℝ»)) (hP : (∀ <i> (∈ «P i» «Set.Icc 0 1»))) : (let m := «n» (let E := «∑ i : Fin m, P i» (let Pr := «1 - ∏ i : Fin m, (1 - P i)» (∧ (= «E» «∑ i : Fin m, P i») (= «Pr» «1 - ∏ i : Fin m, (1 - P i)»)))))',
    ),
    (
        'leanprover-community/mathlib4/Mathlib/Order/Filter/Basic.lean#eventually_imp_distrib_left',
        'theorem eventually_imp_distrib_left {f : Filter α} {p : Prop} {q : α → Prop} :\n    (∀ᶠ x in f, p → q x) ↔ p → ∀ᶠ x in f, q x',
        'eventually_imp_distrib_left {f : «Filter α»} {p : «Prop»} {q : (→ «α» «Prop»)} : (↔ «(∀ᶠ x in f, p → q x)» (→ «p» «∀ᶠ x in f, q x»))',
    ),
    (
        'leanprover-community/mathlib4/Mathlib/Order/Filter/Basic.lean#not_eventually',
        'theorem not_eventually {p : α → Prop} {f : Filter α} : (¬∀ᶠ x in f, p x) ↔ ∃ᶠ x in f, ¬p x',
        'not_eventually {p : (→ «α» «Prop»)} {f : «Filter α»} : (↔ (¬ «∀ᶠ x in f, p x») «∃ᶠ x in f, ¬p x»)',
    ),
    (
        'formal-conjectures style Erdős 282 (index file 71519989084)#erdos_282.variants.general',
        'theorem erdos_282.variants.general (x : ℚ) (A : Set ℕ) :\n      greedyUnitFractionRem A x =ᶠ[atTop] 0 ↔ (x, A) ∈ (answer(sorry) : Set (ℚ × Set ℕ))',
        'erdos_282.variants.general (x : «ℚ») (A : «Set ℕ») : (↔ «greedyUnitFractionRem A x =ᶠ[atTop] 0» (∈ «(x, A)» «(answer(sorry) : Set (ℚ × Set ℕ))»))',
    ),
    (
        'a Lean 4 Erdős 539 project (index file 68677125019)#erdos_539_sq_isBigO',
        'theorem erdos_539_sq_isBigO :\n    (fun n : ℕ ↦ √n) =O[atTop] fun n ↦ (cofactorThreshold n : ℝ)',
        'erdos_539_sq_isBigO : «(fun n : ℕ ↦ √n) =O[atTop] fun n ↦ (cofactorThreshold n : ℝ)»',
    ),
    (
        'trishullab/PutnamBench/lean4/src/putnam_1967_b1.lean#putnam_1967_b1',
        'theorem putnam_1967_b1\n(r : ℝ)\n(L : ZMod 6 → EuclideanSpace ℝ (Fin 2))\n(P : EuclideanSpace ℝ (Fin 2) := midpoint ℝ (L 1) (L 2))\n(Q : EuclideanSpace ℝ (Fin 2) := midpoint ℝ (L 3) (L 4))\n(R : EuclideanSpace ℝ (Fin 2) := midpoint ℝ (L 5) (L 0))\n(hr : r > 0)\n(hcyclic : ∃ O : EuclideanSpace ℝ (Fin 2), ∀ i : ZMod 6, Euclidean.dist O (L i) = r)\n(horder : ∀ i j : ZMod 6, i + 1 = j ∨ i = j + 1 ∨ segment ℝ (L i) (L j) ∩ interior (convexHull ℝ {L j | j : ZMod 6}) ≠ ∅)\n(hlens : Euclidean.dist (L 0) (L 1) = r ∧ Euclidean.dist (L 2) (L 3) = r ∧ Euclidean.dist (L 4) (L 5) = r)\n: Euclidean.dist P Q = Euclidean.dist R P ∧ Euclidean.dist Q R = Euclidean.dist P Q',
        'putnam_1967_b1 (r : «ℝ») (L : (→ «ZMod 6» «EuclideanSpace ℝ (Fin 2)»)) (P : «EuclideanSpace ℝ (Fin 2)» := midpoint ℝ (L 1) (L 2)) (Q : «EuclideanSpace ℝ (Fin 2)» := midpoint ℝ (L 3) (L 4)) (R : «EuclideanSpace ℝ (Fin 2)» := midpoint ℝ (L 5) (L 0)) (hr : (> «r» «0»)) (hcyclic : (∃ <O : «EuclideanSpace ℝ (Fin 2)»> (∀ <i : «ZMod 6»> (= «Euclidean.dist O (L i)» «r»)))) (horder : (∀ <i j : «ZMod 6»> (∨ (= «i + 1» «j») (∨ (= «i» «j + 1») (≠ «segment ℝ (L i) (L j) ∩ interior (convexHull ℝ {L j | j : ZMod 6})» «∅»))))) (hlens : (∧ (= «Euclidean.dist (L 0) (L 1)» «r») (∧ (= «Euclidean.dist (L 2) (L 3)» «r») (= «Euclidean.dist (L 4) (L 5)» «r»)))) : (∧ (= «Euclidean.dist P Q» «Euclidean.dist R P») (= «Euclidean.dist Q R» «Euclidean.dist P Q»))',
    ),
    (
        'trishullab/PutnamBench/lean4/src/putnam_1964_b4.lean#putnam_1964_b4',
        'theorem putnam_1964_b4\n    {n : ℕ} (hn : 0 < n)\n    -- `C` is a collection of `n` great circles on the sphere, i.e a collection of sets\n    (C : Fin n → Set (EuclideanSpace ℝ (Fin 3)))\n    --together with a collection of `n` normal vectors `v`\n    (v : Fin n → EuclideanSpace ℝ (Fin 3))\n    -- A great circle `C` is the intersection of a plane `{x | x · v = 0}` with `S`\n    (hv : ∀ i, C i = Metric.sphere 0 1 ∩ {x : EuclideanSpace ℝ (Fin 3) | ⟪v i, x⟫_ℝ = 0 })\n    -- The circles in `C` are in general position\n    (hT₂ : ∀ᵉ (x ∈ Metric.sphere 0 1) (y ∈ Metric.sphere 0 1),\n      (Finset.univ.filter (fun i => {x, y} ⊆ (C i))).card ≤ 2)\n    -- The predicate that a set `R ⊆ ℝ³` is a region bounded by the collection of circles\n    (IsRegion : Set (EuclideanSpace ℝ (Fin 3)) → Prop)\n    -- We can determine the points `x` in such a region by looking at the sign of their dot product\n    -- with `n i` for `i : Fin n`\n    (IsRegion_def : ∀ R, IsRegion R ↔\n      R ⊆ Metric.sphere 0 1 ∧ R.Nonempty ∧ ∃ sign : Fin n → SignType,\n      (∀ i, sign i ≠ 0) ∧\n      R = {x : EuclideanSpace ℝ (Fin 3) | ∀ i, signHom ⟪v i, x⟫_ℝ = sign i}) :\n    {R | IsRegion R}.ncard = putnam_1964_b4_solution n',
        'putnam_1964_b4 {n : «ℕ»} (hn : (< «0» «n»)) (C : (→ «Fin n» «Set (EuclideanSpace ℝ (Fin 3))»)) (v : (→ «Fin n» «EuclideanSpace ℝ (Fin 3)»)) (hv : (∀ <i> (= «C i» «Metric.sphere 0 1 ∩ {x : EuclideanSpace ℝ (Fin 3) | ⟪v i, x⟫_ℝ = 0 }»))) (hT₂ : «∀ᵉ (x ∈ Metric.sphere 0 1) (y ∈ Metric.sphere 0 1),\n   (Finset.univ.filter (fun i => {x, y} ⊆ (C i))).card ≤ 2») (IsRegion : (→ «Set (EuclideanSpace ℝ (Fin 3))» «Prop»)) (IsRegion_def : (∀ <R> (↔ «IsRegion R» (∧ (⊆ «R» «Metric.sphere 0 1») (∧ «R.Nonempty» (∃ <sign : (→ «Fin n» «SignType»)> (∧ (∀ <i> (≠ «sign i» «0»)) (= «R» «{x : EuclideanSpace ℝ (Fin 3) | ∀ i, signHom ⟪v i, x⟫_ℝ = sign i}»)))))))) : (= «{R | IsRegion R}.ncard» «putnam_1964_b4_solution n»)',
    ),
    (
        'leanprover-community/mathlib4/Mathlib/Logic/ExistsUnique.lean#ExistsUnique.exists',
        'theorem ExistsUnique.exists {p : α → Prop} : (∃! x, p x) → ∃ x, p x',
        'ExistsUnique.exists {p : (→ «α» «Prop»)} : (→ (∃! <x> «p x») (∃ <x> «p x»))',
    ),
    (
        'leanprover-community/mathlib4/Mathlib/Logic/ExistsUnique.lean#ExistsUnique.elim₂',
        'theorem ExistsUnique.elim₂ {p : α → Sort*} [∀ x, Subsingleton (p x)]\n    {q : ∀ (x) (_ : p x), Prop} {b : Prop} (h₂ : ∃! x, ∃! h : p x, q x h)\n    (h₁ : ∀ (x) (h : p x), q x h → (∀ (y) (hy : p y), q y hy → y = x) → b) : b',
        'ExistsUnique.elim₂ {p : (→ «α» «Sort*»)} [(∀ <x> «Subsingleton (p x)»)] {q : (∀ (x) (_ : «p x») «Prop»)} {b : «Prop»} (h₂ : (∃! <x> (∃! <h : «p x»> «q x h»))) (h₁ : (∀ (x) (h : «p x») (→ «q x h» (→ (∀ (y) (hy : «p y») (→ «q y hy» (= «y» «x»))) «b»)))) : «b»',
    ),
    (
        'MoonshotAI/CombiBench/lean/CombiBench/with_solution/imo_2022_p6_sol.lean#IsValley',
        'def IsValley (sq : NordicSquare n) (x : Fin n × Fin n) : Prop',
        'IsValley (sq : «NordicSquare n») (x : «Fin n × Fin n») : «Prop»',
    ),
    (
        'a project solving formal-conjectures Green problem 25 (index file 69446634256)#green_25.upper',
        'theorem green_25.upper :\n    let ans := (answer(strongAnswer) : ℕ → ℕ)\n    (∀ᶠ N in atTop, 1 ≤ ans N ∧ ans N ≤ N) ∧ -- Ensure k is a valid partition size\n    (fun N => (ans N : ℝ)) =o[atTop] bestUpper ∧\n    ¬ ∀ᶠ N in atTop, Property25 (ans N) N',
        'green_25.upper : (let ans := «(answer(strongAnswer) : ℕ → ℕ)» (∧ «(∀ᶠ N in atTop, 1 ≤ ans N ∧ ans N ≤ N)» (∧ «(fun N => (ans N : ℝ)) =o[atTop] bestUpper» (¬ «∀ᶠ N in atTop, Property25 (ans N) N»))))',
    ),
    (
        'trishullab/PutnamBench/lean4/src/putnam_1963_a3.lean#putnam_1963_a3',
        'theorem putnam_1963_a3\n    (P : ℕ → (ℝ → ℝ) → (ℝ → ℝ))\n    (hP : P 0 = id ∧ ∀ i y, P (i + 1) y = P i (fun x ↦ x * deriv y x - i * y x))\n    (n : ℕ)\n    (hn : 0 < n)\n    (f y : ℝ → ℝ)\n    (hf : ContinuousOn f (Ici 1)) :\n    ContDiffOn ℝ n y (Ici 1) ∧ (∀ i < n, deriv^[i] y 1 = 0) ∧ (Ici 1).EqOn (P n y) f ↔\n    ∀ x ≥ 1, y x = ∫ t in (1 : ℝ)..x, putnam_1963_a3_solution f n x t',
        'putnam_1963_a3 (P : (→ «ℕ» (→ (→ «ℝ» «ℝ») (→ «ℝ» «ℝ»)))) (hP : (∧ (= «P 0» «id») (∀ <i y> (= «P (i + 1) y» «P i (fun x ↦ x * deriv y x - i * y x)»)))) (n : «ℕ») (hn : (< «0» «n»)) (f y : (→ «ℝ» «ℝ»)) (hf : «ContinuousOn f (Ici 1)») : (↔ (∧ «ContDiffOn ℝ n y (Ici 1)» (∧ (∀ <i < «n»> (= «deriv^[i] y 1» «0»)) «(Ici 1).EqOn (P n y) f»)) (∀ <x ≥ «1»> (= «y x» «∫ t in (1 : ℝ)..x, putnam_1963_a3_solution f n x t»)))',
    ),
    (
        'trishullab/PutnamBench/lean4/src/putnam_2022_a1.lean#putnam_2022_a1',
        'theorem putnam_2022_a1\n: {(a, b) | ∃! x : ℝ, a * x + b = Real.log (1 + x^2)} = putnam_2022_a1_solution',
        'putnam_2022_a1 : (= «{(a, b) | ∃! x : ℝ, a * x + b = Real.log (1 + x^2)}» «putnam_2022_a1_solution»)',
    ),
    (
        'internlm/Lean-Workbook via prove2.me mirror (index file 71251944511)#lean_workbook_plus_28097',
        'theorem lean_workbook_plus_28097 : 2013 ^ (294 : ℕ) ≡ 1 [ZMOD 343]',
        'lean_workbook_plus_28097 : «2013 ^ (294 : ℕ) ≡ 1 [ZMOD 343]»',
    ),
]


@pytest.mark.parametrize("entry_id, statement, expected", DEV_TREES, ids=[c[0] for c in DEV_TREES])
def test_dev_statement_tree(entry_id, statement, expected) -> None:
    assert declaration_sexpr(parse_declaration(statement)) == expected


@pytest.mark.parametrize("entry_id, statement, expected", EXTRA_TREES, ids=[c[0] for c in EXTRA_TREES])
def test_extra_statement_tree(entry_id, statement, expected) -> None:
    assert declaration_sexpr(parse_declaration(statement)) == expected


def test_at_least_forty_dev_trees() -> None:
    assert len(DEV_TREES) >= 40
    assert len({c[0] for c in DEV_TREES}) == len(DEV_TREES)


def test_dev_texts_match_the_corpus(dev_rows) -> None:
    by_id = {row["id"]: row["statement"] for row in dev_rows}
    for entry_id, statement, _ in DEV_TREES:
        assert by_id[entry_id] == statement, entry_id


def test_extra_texts_match_the_fixture() -> None:
    by_id = {json.loads(line)["id"]: json.loads(line)["statement"]
             for line in EXTRA.read_text(encoding="utf-8").splitlines() if line.strip()}
    for entry_id, statement, _ in EXTRA_TREES:
        assert by_id[entry_id] == statement, entry_id


# -- finer checks: binders, hypotheses, mentioned variables --------------------------------------------------------


def dev(entry_id: str) -> str:
    return next(c[1] for c in DEV_TREES if c[0] == entry_id)


def test_hypotheses_and_variables_of_imo_1985_p6() -> None:
    decl = parse_declaration(dev("minif2f/imo_1985_p6"))
    assert decl.variables() == ("f", "h₀", "h₁")
    assert [b.names for b in decl.hypotheses()] == [("h₀",), ("h₁",)]
    body = decl.type
    assert isinstance(body, Quant) and body.kind == "∃!" and body.binders[0].names == ("a",)


def test_instance_and_implicit_binders_of_axler_3_1() -> None:
    decl = parse_declaration(dev("proofnet/Axler_exercise_3_1"))
    assert [(b.bracket, b.names) for b in decl.binders] == [
        ("{", ("F", "V")), ("[", ()), ("[", ()), ("[", ()), ("[", ()), ("(", ("T",)), ("(", ("hT",))]
    assert [b.names for b in decl.hypotheses()] == [("hT",)]
    assert decl.binders[5].type == Atom("V →ₗ[F] V", ("V", "F"))  # one Mathlib token `→ₗ`, not an implication


def test_bounded_quantifier_binders() -> None:
    decl = parse_declaration(dev("minif2f/amc12a_2021_p18"))
    h0 = decl.binders[1].type
    assert isinstance(h0, Quant) and h0.binders[0].names == ("x",)
    assert h0.binders[0].bound == (">", Atom("0"))
    assert h0.binders[0].type is None


def test_mentioned_variables_of_atoms() -> None:
    decl = parse_declaration(dev("minif2f/imo_1985_p6"))
    scope = Scope(decl.variables() + ("a", "n"))
    texts = {a.text: mentioned(a, scope) for a in atoms(decl.type)}
    assert texts["f (n + 1) a"] == ("f", "n", "a")
    assert texts["0"] == ()
    # Field access and dotted names mention their root only.
    (b,) = [b for b in parse_declaration(dev("proofnet/Rudin_exercise_4_5a")).binders if b.names == ("h₂",)]
    assert b.type.idents == ("ContinuousOn", "f", "E")


def test_connective_precedence_chain() -> None:
    # ↔ < → < ∨ < ∧ < ¬ < relations, and → is right-associative.
    t = parse_term("a = b ∧ ¬c < d ∨ e → f → g ↔ h")
    assert sexpr(t) == "(↔ (→ (∨ (∧ (= «a» «b») (¬ (< «c» «d»))) «e») (→ «f» «g»)) «h»)"


def test_quantifiers_extend_right_over_every_connective() -> None:
    assert sexpr(parse_term("p ∧ ∀ x, q x ∨ r ↔ s")) == "(∧ «p» (∀ <x> (↔ (∨ «q x» «r») «s»)))"
    assert sexpr(parse_term("¬ ∃ x, p x → q")) == "(¬ (∃ <x> (→ «p x» «q»)))"


def test_ascii_connectives_are_normalised() -> None:
    assert parse_term("p /\\ q -> r \\/ s <-> t") == parse_term("p ∧ q → r ∨ s ↔ t")
    assert parse_term("a <= b /\\ c >= d /\\ e != f") == parse_term("a ≤ b ∧ c ≥ d ∧ e ≠ f")
    assert parse_term("forall x, exists y, x = y") == parse_term("∀ x, ∃ y, x = y")


def test_negation_right_of_a_relation() -> None:
    assert parse_term("p = ¬q ∧ r") == BinOp("∧", Rel("=", Atom("p", ("p",)), Not(Atom("q", ("q",)))),
                                             Atom("r", ("r",)))


def test_let_with_binders_and_anonymous_have() -> None:
    t = parse_term("let f (n : ℕ) : ℕ := n + 1\nhave : f 0 = 1 := rfl\nf 1 = 2")
    assert isinstance(t, Let) and t.name == "f" and [b.names for b in t.binders] == [("n",)]
    assert t.value == Atom("n + 1", ("n",))
    inner = t.body
    assert isinstance(inner, Let) and inner.keyword == "have" and inner.name == ""
    assert inner.body == Rel("=", Atom("f 1", ("f",)), Atom("2"))


def test_let_value_is_folded_onto_one_line() -> None:
    decl = parse_declaration("theorem t :\n    let x := f -- a comment\n      y /- another -/ z\n    x = 1")
    assert decl.type == Let("let", "x", None, Atom("f y z", ("f", "y", "z")), Rel("=", Atom("x", ("x",)), Atom("1")))


def test_let_value_ends_where_lean_ends_it() -> None:
    # A continuation indented past the `let` is more of the value; a line at the `let` column, or one that cannot
    # be an argument (`⨅ …`, `∀ …`), is the body.
    t = parse_term("let a := f\n      b\na = 1")
    assert t.value.text == "f b" and t.body == Rel("=", Atom("a", ("a",)), Atom("1"))
    t = parse_term("let s := {1, 2}\n  ∀ x ∈ s, x > 0")
    assert t.value.text == "{1, 2}" and isinstance(t.body, Quant)
    t = parse_term("let g := fun x =>\n    x + 1\ng 1 = 2")
    assert t.value.text == "fun x => x + 1"


def test_pattern_let_and_preamble() -> None:
    decl = parse_declaration("open Real in\n/-- doc -/\ntheorem t (p : ℕ × ℕ) : let (a, b) := p; a + b = b + a")
    assert decl.preamble == "open Real in" and decl.docstring == "/-- doc -/"
    assert isinstance(decl.type, Let) and decl.type.name == "(a, b)"


def test_declaration_without_type_and_compfiles_keywords() -> None:
    assert parse_declaration("def f (x : ℕ) := x + 1").type is None
    decl = parse_declaration("problem imo_1964_p1b (n : ℕ) : ¬ 7 ∣ (2^n + 1)")
    assert decl.keyword == "problem" and sexpr(decl.type) == "(¬ (∣ «7» «(2^n + 1)»))"
    assert parse_declaration("determine solution_set : Set ℕ").keyword == "determine"


def test_statement_with_a_second_command_is_rejected() -> None:
    with pytest.raises(ParseError) as err:
        parse_declaration("theorem a : True\n#check a")
    assert "'#check'" in str(err.value) and (err.value.line, err.value.column) == (2, 0)
    with pytest.raises(ParseError) as err:
        parse_declaration("open Real\ntheorem t : π > 3")
    assert "not a declaration" in str(err.value) and "'open'" in str(err.value)
