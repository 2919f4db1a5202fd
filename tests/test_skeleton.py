"""Skeleton SA-Pass: candidate statements against reference shadows, every verdict from kernel-tier Lean."""

import pytest

from pyshadow.lean.toolchain import KernelTierUnavailable, kernel_lean
from pyshadow.problems import load_problems, load_sample_candidates, reference_text
from pyshadow.references import target_declaration
from pyshadow.score.audit import audit
from pyshadow.kernel.skeleton import SkeletonPair, align_auxiliary_names, rename
from pyshadow.kernel.scoring import skeleton_score
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.syntax import parse_declaration, parse_term

pytestmark = pytest.mark.kernel

# Reference: a bundled conclusion with an equality split, an iff, and two hypotheses.
REF = "theorem foo (n : ℕ) (h : n > 0) (h2 : n < 5) : (n = 2 ∧ n ≤ 3) ∧ (n < 4 ↔ n ≠ 7)"
CASES = {
    # name: (candidate, expected forward (per shadow), expected backward)
    "identical": (REF, [True] * 5, True),
    "implicit_renamed_flipped": ("theorem foo {n : ℕ} (hpos : 0 < n) (hb : n < 5) : (n = 2 ∧ n ≤ 3) ∧ (n < 4 ↔ n ≠ 7)",
                                 [True] * 5, True),
    "hypotheses_bundled": ("theorem foo (n : ℕ) (h : n > 0 ∧ n < 5) : (n = 2 ∧ n ≤ 3) ∧ (n < 4 ↔ n ≠ 7)", [True] * 5,
                           True),
    "binders_moved_into_conclusion": ("theorem foo : ∀ n : ℕ, n > 0 → n < 5 → (n = 2 ∧ n ≤ 3) ∧ (n < 4 ↔ n ≠ 7)",
                                      [True] * 5, True),
    "iff_sides_swapped": ("theorem foo (n : ℕ) (h : n > 0) (h2 : n < 5) : (n = 2 ∧ n ≤ 3) ∧ (n ≠ 7 ↔ n < 4)",
                          [True] * 5, True),
    "dropped_conjunct": ("theorem foo (n : ℕ) (h : n > 0) (h2 : n < 5) : n = 2 ∧ (n < 4 ↔ n ≠ 7)",
                         [True, True, False, True, True], True),
    "added_hypothesis": ("theorem foo (n : ℕ) (h : n > 0) (h2 : n < 5) (h3 : n ≠ 1) : (n = 2 ∧ n ≤ 3) ∧ (n < 4 ↔ n ≠ 7)",
                         [False] * 5, True),
    "dropped_hypothesis": ("theorem foo (n : ℕ) (h : n > 0) : (n = 2 ∧ n ≤ 3) ∧ (n < 4 ↔ n ≠ 7)", [True] * 5, False),
    "lt_for_le": ("theorem foo (n : ℕ) (h : n > 0) (h2 : n < 5) : (n = 2 ∧ n < 3) ∧ (n < 4 ↔ n ≠ 7)",
                  [True, True, False, True, True], False),
    "conclusion_as_hypothesis": ("theorem foo (n : ℕ) (h : n > 0) (h2 : n < 5) "
                                 "(hc : (n = 2 ∧ n ≤ 3) ∧ (n < 4 ↔ n ≠ 7)) : n = n", [False] * 5, False),
}


@pytest.fixture(scope="module")
def lean():
    try:
        return kernel_lean()
    except KernelTierUnavailable as err:
        pytest.skip(f"kernel tier unavailable: {err}")


@pytest.fixture(scope="module")
def verdicts(lean):
    ref = parse_declaration(REF)
    pairs = [SkeletonPair(name, ref, parse_declaration(c)) for name, (c, _, _) in CASES.items()]
    return skeleton_score(pairs, lean, n_jobs=2)


@pytest.mark.parametrize("name", sorted(CASES))
def test_skeleton_verdicts(verdicts, name):
    _, forward, backward = CASES[name]
    v = verdicts[name]
    assert (v.forward, v.backward) == (forward, backward), v.messages
    assert v.error is None


def test_rename_respects_binders():
    t = parse_term("f x = 2 ∧ ∀ x, g x = x")
    assert str(rename(t, {"x": "y"})) == str(parse_term("f y = 2 ∧ ∀ x, g x = x"))


def test_bundled_sample_candidates_get_their_expected_skeleton_verdict(lean):
    problems, errors = load_problems(PROBLEMS_DIR)
    assert not errors
    pairs, expected = [], {}
    for p in problems:
        ref_src = reference_text(p)
        for sc in load_sample_candidates(p):
            src = sc.path.read_text(encoding="utf-8")
            target = p.targets[0]
            ref = target_declaration(ref_src, target)
            cand = align_auxiliary_names(target_declaration(src, target), src, ref_src)
            key = f"{p.id}/{sc.name}"
            pairs.append(SkeletonPair(key, ref, cand, p.needs_mathlib))
            expected[key] = sc
    assert len(pairs) >= 20
    verdicts = skeleton_score(pairs, lean, n_jobs=2, strict=True)  # the samples' expectations: strict, the default
    wrong = {}
    for key, sc in expected.items():
        v = verdicts[key]
        flagged = bool(audit(sc.path.read_text(encoding="utf-8")))
        got = (all(v.forward), v.backward, "flagged" if flagged else "clean")
        if sc.undecided_under("kernel"):  # strict scoring: a pass Lean cannot check here is undecided
            if not (v.is_undecided and not (all(v.forward) and v.backward)):
                wrong[key] = (got, v.messages)
        elif got != (sc.forward, sc.backward, sc.audit):
            wrong[key] = (got, v.messages)
    assert not wrong
    kinds = {sc.kind for sc in expected.values()}
    assert {"faithful", "weakened", "strengthened", "conclusion_as_hypothesis", "cheating"} <= kinds
