"""Statements whose generated checkers are kept as reviewed golden files in ``tests/golden/``.

Each case names the checker-idioms.md form it follows. Regenerate with ``PYSHADOW_REGEN_GOLDEN=1 pytest
tests/test_golden.py`` and review the diff line by line before committing.
"""

PAPER_CASES = {
    # K.1 bundled conclusions: A → B1 ∧ B2 ∧ B3 — three shadows by projection.  [paper, K.1]
    "k1_bundled": "theorem main (A B1 B2 B3 : Prop) (hA : A) : B1 ∧ B2 ∧ B3",
    # K.2 equality as two inequalities on an ordered type.  [paper, K.2]
    "k2_equality": "theorem main (f : ℝ → ℝ) (B C : ℝ) (hA : 0 < B) : f B = f C",
    # K.3 saddle-point derivatives: two shadows under six implicit binders and three hypotheses.  [paper, K.3]
    "k3_saddle": (
        "theorem saddle {n m : ℕ} {f : (Fin n → ℝ) × (Fin m → ℝ) → ℝ} {x0 : Fin n → ℝ} {z0 : Fin m → ℝ}\n"
        "    {Dx : (Fin n → ℝ) →L[ℝ] ℝ} {Dz : (Fin m → ℝ) →L[ℝ] ℝ}\n"
        "    (hs : ∀ x z, f (x0, z) ≤ f (x0, z0) ∧ f (x0, z0) ≤ f (x, z0))\n"
        "    (hx : HasFDerivAt (fun x => f (x, z0)) Dx x0) (hz : HasFDerivAt (fun z => f (x0, z)) Dz z0) :\n"
        "    Dx = 0 ∧ Dz = 0"
    ),
    # An iff: .mp / .mpr.  [paper, forward checker for iff]
    "iff_simple": "theorem bar {α : Type*} (P Q : α → Prop) (x : α) (h : P x) : P x ↔ Q x",
    # An iff whose sides are conjunctions: each direction split further (H → A ∧ B).  [paper]
    "iff_conjunctions": "theorem baz (a b c d : Prop) : a ∧ b ↔ c ∧ d",
    # A conjunction under a bounded ∀: shadows re-wrapped in ∀ x ∈ s,.  [reasoned: fun-intro before projection]
    "forall_mem_conj": "theorem qux (s : Set ℕ) (P Q : ℕ → Prop) : ∀ x ∈ s, P x ∧ Q x",
}

DEV_CASES = [
    "minif2f/aime_1983_p1",
    "minif2f/mathd_algebra_144",
    "minif2f/amc12a_2021_p8",
    "minif2f/imo_2019_p1",
    "minif2f/algebra_apbmpcneq0_aeq0anbeq0anceq0",
    "minif2f/mathd_numbertheory_12",
    "proofnet/Dummit_Foote_exercise_1_1_18",
    "proofnet/Rudin_exercise_4_8b",
    "minif2f/induction_12dvd4expnp1p20",
    "minif2f/algebra_sqineq_at2malt1",
    "proofnet/Munkres_exercise_23_9",
    "minif2f/imo_1987_p6",
    "minif2f/aime_1994_p4",
    "minif2f/mathd_algebra_247",
]
