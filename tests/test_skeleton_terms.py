"""One search, two printings: the skeleton search's proof terms, abstract (kernel tier) and concrete (full tier).

Inputs: every robustness variant of every bundled problem (variants generated from the references), the
same-meaning development pairs (real statement pairs from two independent formalizations, see
tests/fixtures/pairs/README.md: yangky11/miniF2F-lean4 @5746b7d6, rahul3613/miniF2F-lean4 @d2e847c9,
rahul3613/ProofNet-lean4 @6deae98b, marcusm117/ProofNet-Verified @1ecc1243, trishullab/PutnamBench), in both
directions, and hand-written adversarial pairs (binder kinds, core ℕ lemmas, sets, lets, a ∀ with an implicit
binder in the conclusion) whose expected Lean text is written out below.

What no test here can show: that a full Lean toolchain accepts the concrete text (none can be installed here).
The ``@pytest.mark.lean`` test at the end checks it where one exists.
"""

import json
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

from pyshadow.kernel import proof_terms as pt
from pyshadow.kernel.skeleton import (
    SkeletonPair,
    SkeletonSearch,
    skeleton_block,
    skeleton_search,
)
from pyshadow.kernel.scoring import skeleton_score
from pyshadow.lean.runner import DEFAULT_ALLOWED_AXIOMS
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.robustness.agreement import variant_source
from pyshadow.robustness.matrix import load_targets
from pyshadow.robustness.variants import FAITHFUL, generate_variants
from pyshadow.score import full, full_run
from pyshadow.score.candidates import Candidate
from pyshadow.score.pipeline import prepare_candidate, prepare_problem
from pyshadow.kernel.definitions import is_data_declaration
from pyshadow.kernel.concrete import (DATA_CANDIDATE_BACKWARD, DATA_REFERENCE, SkeletonAlternatives, concrete_names,
                                      concrete_terms)
from pyshadow.score.skeleton_terms import ALTERNATIVE_COMMENT, reabstract, skeleton_alternatives
from pyshadow.syntax import ParseError, parse_declaration

PAIRS = Path(__file__).parent / "fixtures" / "pairs" / "dev_pairs.jsonl"  # a verbatim copy of the shared file
CANDIDATE = "Ns.cand_decl"


def _bundled_pairs() -> list[tuple[str, SkeletonPair, str]]:
    targets, errors = load_targets(PROBLEMS_DIR)
    assert not errors
    out = []
    for t in targets:
        assert t.declaration is not None
        variants, failures = generate_variants(t.declaration, mathlib=t.problem.needs_mathlib)
        assert not failures
        for v in variants:
            key = f"{t.problem.id}/{v.id}"
            out.append((key, SkeletonPair(key, t.declaration, v.declaration, t.problem.needs_mathlib), v.role))
    return out


def _dev_pairs() -> list[tuple[str, SkeletonPair, str]]:
    if not PAIRS.exists():
        pytest.skip(f"development pairs not found at {PAIRS}")
    out = []
    for line in PAIRS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if not row["same_meaning"]:
            continue
        try:
            a, b = parse_declaration(row["a"]), parse_declaration(row["b"])
        except ParseError:
            continue
        if a.type is None or b.type is None:
            continue
        out.append((f"{row['id']}:a→b", SkeletonPair(row["id"] + ":ab", a, b, True), FAITHFUL))
        out.append((f"{row['id']}:b→a", SkeletonPair(row["id"] + ":ba", b, a, True), FAITHFUL))
    return out


@pytest.fixture(scope="module")
def bundled():
    return [(k, p, role, skeleton_search(p)) for k, p, role in _bundled_pairs()]


@pytest.fixture(scope="module")
def dev():
    return [(k, p, role, skeleton_search(p)) for k, p, role in _dev_pairs()]


def _roles(search: SkeletonSearch):
    trees = search.terms()
    for i, (text, tree) in enumerate(zip(search.forward, trees[0]), start=1):
        yield f"forward:{i}", text, tree
    yield "backward", search.backward, trees[1]


# ---------------------------------------------------------------------------------------------------------------
# The structured term prints back to the search's text; the concrete one reads back to the abstract one


@pytest.mark.parametrize("source", ["bundled", "dev"])
def test_every_term_round_trips_through_both_printings(request, source):
    searches = request.getfixturevalue(source)
    checked = 0
    for key, _, _, search in searches:
        names = concrete_names(search, CANDIDATE)
        concrete = concrete_terms(search, CANDIDATE)
        abstract_constants = set(search.abstraction.axioms) | {search.candidate_axiom}
        for role, text, tree in _roles(search):
            if text is None:
                continue
            assert pt.print_abstract(tree) == text, key  # the tree is the search's term, nothing lost
            term = concrete.forward.get(int(role[8:])) if role != "backward" else concrete.backward
            if term is None and concrete.why.get(role) in (DATA_REFERENCE, DATA_CANDIDATE_BACKWARD):
                # the full tier cannot state these goals (skeleton_terms docstring); only for data declarations
                assert any(is_data_declaration(d) for d in search.written), key
                continue
            assert term is not None, (key, role, concrete.why)
            back = reabstract(term, search, names, backward=role == "backward")
            assert back == text, (key, role, term)
            # no abstract constant survives de-abstraction (they are named apart from every statement name)
            assert not set(re.findall(r"[^\s()⟨⟩,;@{}\[\]]+", term)) & abstract_constants, (key, term)
            checked += 1
    assert checked > (300 if source == "bundled" else 100)  # measured: 322 bundled, 200+ dev terms


def test_the_search_is_deterministic(bundled):
    for key, pair, _, search in bundled[:40]:
        again = skeleton_search(pair)
        assert (again.forward, again.backward) == (search.forward, search.backward), key


def test_the_concrete_names_are_the_full_tiers(bundled):
    """Candidate → its declaration, ``hS_i`` → the full tier's certificate hypotheses, lemma spellings per library."""
    for key, pair, _, search in bundled:
        concrete = concrete_terms(search, CANDIDATE)
        for term in [*concrete.forward.values(), concrete.backward or ""]:
            assert "cand" not in re.findall(r"@?(\w+)", term)
            if not pair.mathlib:
                assert not re.search(r"(?<![.\w])(le_of_eq|ge_of_eq|le_antisymm)\b", term), (key, term)


# Hand-written pairs: (reference, candidate, mathlib, expected forward terms, expected backward term).
ADVERSARIAL = {
    "iff_swapped_core": (
        "theorem foo (n : Nat) (h : 0 < n) : n ≠ 0 ↔ 1 ≤ n", "theorem foo (n : Nat) (h : 0 < n) : 1 ≤ n ↔ n ≠ 0",
        False, {1: f"(@{CANDIDATE} n (h)).mpr", 2: f"(@{CANDIDATE} n (h)).mp"},
        "fun n h => ⟨@hS_2 n (h), @hS_1 n (h)⟩"),
    "core_equality_both_ways": (
        "theorem foo (a b : Nat) (h : a ≤ b) : a + (b - a) = b",
        "theorem foo {a b : Nat} (h : b ≥ a) : a + (b - a) = b", False,
        {1: f"Nat.le_of_eq (@{CANDIDATE} a b (h))", 2: f"Nat.le_of_eq (Eq.symm (@{CANDIDATE} a b (h)))"},
        "fun {a} {b} h => Nat.le_antisymm (@hS_1 a b (h)) (@hS_2 a b (h))"),
    "instance_binder_named_by_position": (
        "theorem foo {α : Type u} [inst : LinearOrder α] (a b : α) (h : a ≤ b) : min a b = a",
        "theorem foo {α : Type u} [LinearOrder α] {a b : α} (h : a ≤ b) : min a b = a", True,
        {1: f"@{CANDIDATE} α inst a b (h)"},
        "fun {α} [inst_1 : LinearOrder α] {a} {b} h => @hS_1 α inst_1 a b (h)"),
    "hypotheses_bundled_real": (
        "theorem foo (x : ℝ) (h₀ : 0 < x) (h₁ : x < 1) : x ^ 2 < x",
        "theorem foo (x : ℝ) (h : 0 < x ∧ x < 1) : x ^ 2 < x", True,
        {1: f"@{CANDIDATE} x (⟨h₀, h₁⟩)"}, "fun x h => @hS_1 x ((h).1) ((h).2)"),
    "set_equality_sides_swapped": (
        "theorem foo (s t : Set ℕ) : s ∩ t = t ∩ s", "theorem foo (s t : Set ℕ) : t ∩ s = s ∩ t", True,
        {1: f"superset_of_eq (@{CANDIDATE} s t)", 2: f"subset_of_eq (@{CANDIDATE} s t)"},
        "fun s t => subset_antisymm (@hS_2 s t) (@hS_1 s t)"),
    "let_in_the_conclusion": (
        "theorem foo (n : ℕ) : let m : ℕ := n + 1; m = n + 1", "theorem foo (n : ℕ) : let m : ℕ := n + 1; m = n + 1",
        True, {1: f"let m : ℕ := n + 1; le_of_eq (@{CANDIDATE} n)", 2: f"let m : ℕ := n + 1; ge_of_eq (@{CANDIDATE} n)"},
        "fun n => let m : ℕ := n + 1; le_antisymm (@hS_1 n) (@hS_2 n)"),
    # the real text of a let, as each statement writes it (the search reads canonical keys)
    "let_written_as_written": (
        "theorem foo (n : ℕ) : let m : ℕ := n+1; m = (n+1)", "theorem foo (n : ℕ) : let m : ℕ := n +  1; m = n + 1",
        True, {1: f"let m : ℕ := n+1; le_of_eq (@{CANDIDATE} n)", 2: f"let m : ℕ := n+1; ge_of_eq (@{CANDIDATE} n)"},
        "fun n => let m : ℕ := n+1; le_antisymm (@hS_1 n) (@hS_2 n)"),
    # atoms the kernel tier cannot judge (`Complex.abs z` vs `‖z‖`): the re-check's term, `exact` decides by unfolding
    "undecided_atoms_left_to_exact": (
        "theorem foo (z : ℂ) (h : 0 < Complex.abs z) : Complex.abs z ≠ 0",
        "theorem foo (z : ℂ) (h : 0 < ‖z‖) : ‖z‖ ≠ 0", True, {1: f"@{CANDIDATE} z (h)"}, "fun z h => @hS_1 z (h)"),
    # `(@hS_1) x h` would let real Lean insert `?x` for the implicit `{x}`: one explicit application instead.
    "implicit_forall_in_the_conclusion": (
        "theorem foo : ∀ {x : ℕ}, 0 < x → x ≠ 0", "theorem foo {x : ℕ} (h : 0 < x) : x ≠ 0", True,
        {1: f"fun {{x}} h_sk1 => @{CANDIDATE} x (h_sk1)"}, "fun {x} h => @hS_1 x (h)"),
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_pairs_print_as_written_out(name):
    ref, cand, mathlib, forward, backward = ADVERSARIAL[name]
    pair = SkeletonPair(name, parse_declaration(ref), parse_declaration(cand), mathlib)
    alt = skeleton_alternatives(pair, head=CANDIDATE)
    assert alt.forward == forward, alt.why
    assert alt.backward == backward, alt.why


def test_a_term_with_no_real_spelling_gives_no_alternative():
    ref = parse_declaration("theorem foo (a b : Nat) (h : a ≤ b) : a + (b - a) = b")
    search = skeleton_search(SkeletonPair("k", ref, ref, False))
    # subset lemmas do not exist in core Lean: such a term is refused, never printed with a wrong name
    odd = replace(search, forward=("subset_of_eq (h)", None))
    concrete = concrete_terms(odd, CANDIDATE)
    assert 1 not in concrete.forward and "subset_of_eq" in concrete.why["forward:1"]
    assert concrete.why["forward:2"] == "the search found no term"


# ---------------------------------------------------------------------------------------------------------------
# The kernel tier accepts exactly the abstract printing


@pytest.mark.kernel
@pytest.mark.parametrize("source, least", [("bundled", 300), ("dev", 290)])
def test_the_kernel_tier_checks_the_abstract_printing(request, kernel_lean_exe, source, least):
    """What Lean checks in the kernel tier is the abstract printing of the tree; every bundled faithful variant's
    term is accepted. (On the dev pairs a few found terms are rejected — the search proposes, Lean decides — and
    the full tier then has one alternative that fails inside ``first``, costing nothing.)"""
    searches = request.getfixturevalue(source)
    if source == "dev":
        searches = [s for s in searches if s[0].endswith(":a→b")]  # one direction keeps the run short
    verdicts = skeleton_score([p for _, p, _, _ in searches], kernel_lean_exe, n_jobs=2)
    accepted = 0
    for key, pair, role, search in searches:
        block = skeleton_block(pair, "C0")
        v = verdicts[pair.key]
        for i, (check, text, tree) in enumerate(_roles(search)):
            if text is None:
                continue
            name = f"fwd_{i + 1}" if check != "backward" else "bwd"
            assert f":=\n  {pt.print_abstract(tree)}\n#print axioms {name}\n" in block.text, (key, check)
            passed = v.forward[i] if check != "backward" else v.backward
            if source == "bundled" and role == FAITHFUL:
                assert passed, (key, check, v.messages)
            accepted += passed
    assert accepted > least  # measured: 322 of 322 bundled terms; 319 of 321 dev terms (a→b)


# ---------------------------------------------------------------------------------------------------------------
# The full tier's checker text: one more alternative, nothing else changed


def _variant_candidate(problem_id: str, kind: str):
    targets, _ = load_targets(PROBLEMS_DIR)
    t = next(t for t in targets if t.problem.id == problem_id)
    [variant], _ = generate_variants(t.declaration, mathlib=t.problem.needs_mathlib, kinds=[kind])
    info = prepare_problem(t.problem)
    code = variant_source(info.reference, t.target, variant.declaration)
    return prepare_candidate(Candidate(problem_id, "s", code, kind), info, "full", "fp")


def _span_texts(file) -> dict[str, str]:
    lines = file.text.split("\n")
    out = {}
    for span in file.spans:
        role = file.roles[span.name]
        out[f"{role.kind}:{role.shadow}"] = "\n".join(lines[span.start_line - 1:span.end_line])
    return out


@pytest.mark.parametrize("problem_id, kind", [("prop_not_or_iff", "iff_swapped"),
                                              ("saddle_point_derivatives", "hypotheses_merged"),
                                              ("nat_pos_facts", "binders_to_forall")])
def test_full_tier_checkers_gain_one_commented_alternative(problem_id, kind, monkeypatch):
    prepared = _variant_candidate(problem_id, kind)
    with_terms = _span_texts(full.candidate_check_file(prepared, nonce="fixed"))
    monkeypatch.setattr(full, "skeleton_alternatives", lambda *a, **k: SkeletonAlternatives())
    without = _span_texts(full.candidate_check_file(prepared, nonce="fixed"))
    assert with_terms.keys() == without.keys()
    for role, text in with_terms.items():
        extra = [line for line in text.split("\n") if ALTERNATIVE_COMMENT in line]
        if role.startswith("forward"):
            assert len(extra) == 1 and extra[0].startswith("  | exact "), (role, text)
            # the three alternatives of before, unchanged, then the new one
            assert text.replace("\n" + extra[0], "") == without[role]
        elif role.startswith("backward"):
            assert len(extra) == 1 and "| (intros; apply shadow_" in text
        else:
            assert text == without[role]


def test_full_tier_text_is_unchanged_where_the_search_finds_nothing(monkeypatch):
    prepared = _variant_candidate("nat_sub_add_cancel", "le_as_lt")  # a control: the search finds few terms
    alternatives = full.candidate_alternatives(prepared, prepared.info.targets[0],
                                               prepared.extracted[prepared.info.targets[0].name])
    assert alternatives is not None and alternatives.backward is None and alternatives.why
    with_terms = _span_texts(full.candidate_check_file(prepared, nonce="fixed"))
    monkeypatch.setattr(full, "skeleton_alternatives", lambda *a, **k: SkeletonAlternatives())
    without = _span_texts(full.candidate_check_file(prepared, nonce="fixed"))
    for role, text in with_terms.items():
        shadow = role.split(":")[1]
        found = alternatives.backward if role.startswith("backward") else \
            alternatives.forward.get(int(shadow)) if shadow != "None" else None
        if found is None:
            assert text == without[role], role


# ---------------------------------------------------------------------------------------------------------------
# With a full toolchain: the iff-swapped and hypothesis-bundled variants pass the full tier


def _full_tier_cases():
    targets, _ = load_targets(PROBLEMS_DIR)
    cases = []
    for t in targets:
        variants, _ = generate_variants(t.declaration, mathlib=t.problem.needs_mathlib,
                                        kinds=["iff_swapped", "hypotheses_merged"])
        cases += [pytest.param(t.problem.id, v.kind, id=f"{t.problem.id}-{v.id}") for v in variants]
    return cases


@pytest.mark.lean
@pytest.mark.parametrize("problem_id, kind", _full_tier_cases())
def test_reshaped_variants_pass_the_full_tier(problem_id, kind):
    from pyshadow.lean.toolchain import find_full_toolchain

    lean = find_full_toolchain()
    targets, _ = load_targets(PROBLEMS_DIR)
    t = next(t for t in targets if t.problem.id == problem_id)
    workspace = None
    if t.problem.needs_mathlib:
        if not os.environ.get("PYSHADOW_MATHLIB_WORKSPACE"):
            pytest.skip("a Mathlib problem: set PYSHADOW_MATHLIB_WORKSPACE to a built Lake workspace with Mathlib")
        workspace = Path(os.environ["PYSHADOW_MATHLIB_WORKSPACE"])
    prepared = _variant_candidate(problem_id, kind)
    found = prepared.extracted[t.target]
    [variant], _ = generate_variants(t.declaration, mathlib=t.problem.needs_mathlib, kinds=[kind])
    module = variant_source(prepared.info.reference, t.target, variant.declaration, as_axiom=True)
    file = full.candidate_check_file(prepared)
    task = full_run.FullTask("k", module, file.text, tuple(file.spans), file.roles, workspace, timeout_s=600,
                         allowed_axioms=DEFAULT_ALLOWED_AXIOMS | {found.qualified_name})
    outcome = full_run.run_full_task(task, lean)
    assert outcome.compiled, outcome.reason
    failed = [(c.name, c.message) for c in outcome.checks if not c.passed]
    assert not failed, failed
