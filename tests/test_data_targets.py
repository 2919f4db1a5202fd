"""A data declaration as a target or a candidate (`instance X … : T := sorry`, the ProofNet Lean 4 port's style):
its meaning is that `T` is inhabited, so every full-tier check states `Nonempty T` — a `theorem` of a type that is
no proposition is rejected by Lean ("type of theorem is not a proposition"). The skeleton reads it the same way
(kernel/answers.py, 1.), so the tiers stay twins. Lean text: `Nonempty.intro` via `⟨…⟩` (src/Init/Prelude.lean
`class inductive Nonempty (α : Sort u) : Prop | intro (val : α)`); no full toolchain has elaborated it here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pyshadow.paths import PROBLEMS_DIR
from pyshadow.problems import load_problem
from pyshadow.references import reference_targets
from pyshadow.score.candidates import Candidate
from pyshadow.score.checker_texts import candidate_backward_text
from pyshadow.score.full import candidate_check_file
from pyshadow.score.pipeline import prepare_candidate, prepare_problem

REFERENCE = """import Mathlib
instance exercise_4_2_5 {R : Type*} [Ring R]
  (h : ∀ x : R, x ^ 3 = x) : CommRing R := sorry
"""
PROBLEM = """id = "p1"
area = "algebra"
level = "L1"
source = "written for this test (ProofNet Lean 4 port style)"
imports = ["Mathlib"]
reference = "Reference.lean"
targets = ["exercise_4_2_5"]

[informal]
statement = "A ring in which x^3 = x for every x is commutative."
"""


@pytest.fixture()
def data_problem(tmp_path: Path):
    folder = tmp_path / "p1"
    folder.mkdir()
    (folder / "problem.toml").write_text(PROBLEM, encoding="utf-8")
    (folder / "Reference.lean").write_text(REFERENCE, encoding="utf-8")
    return load_problem(folder)


def test_a_data_target_is_checked_as_nonempty(data_problem):
    (target,) = reference_targets(data_problem)
    assert target.ok and target.declaration.keyword == "theorem"
    assert target.declaration.type.text == "Nonempty (CommRing R)"
    (forward,) = target.checkers.forward
    assert "\n    Nonempty (CommRing R) := by\n" in forward.text
    assert "  | exact @exercise_4_2_5 R inst_1 h\n" in forward.text  # a `Nonempty` theorem candidate
    assert forward.text.endswith("  | exact ⟨@exercise_4_2_5 R inst_1 h⟩")  # the data itself
    assert "CommRing R := by" not in forward.text.replace("Nonempty (CommRing R) := by", "")


def test_a_theorem_target_gets_no_anonymous_constructor_alternative():
    for target in reference_targets(load_problem(PROBLEMS_DIR / "list_le_squares")):
        assert all("exact ⟨" not in c.text for c in target.checkers.forward)


def test_a_data_candidate_backward_check_enters_the_pi_type_before_intros():
    # `type_of% @Cand.x` is the whole Pi type `∀ b…, T`: `intros` under `Nonempty` would introduce nothing
    # (src/Lean/Meta/Tactic/Intro.lean `getIntrosSize`), so `refine ⟨?_⟩` comes first, `Classical.choice` last
    text = candidate_backward_text("b", "cert", "(hS_1 : P)", "Cand.x", ("u_1",), data=True)
    assert text.split("\n")[2:] == [
        "    Nonempty (type_of% @Cand.x.{u_1}) := by",
        "  refine ⟨?_⟩",
        "  intros",
        "  apply Classical.choice",
        "  apply cert <;> assumption",
    ]
    # mutation partner: a theorem candidate gets the plain chain, no `Nonempty`, no choice
    plain = candidate_backward_text("b", "cert", "(hS_1 : P)", "Cand.x")
    assert plain.split("\n")[2:] == ["    type_of% @Cand.x := by", "  intros", "  apply cert <;> assumption"]
    with_alternative = candidate_backward_text("b", "cert", "(hS_1 : P)", "Cand.x", alternative="t", data=True)
    assert "  | (refine ⟨?_⟩; intros; apply Classical.choice; apply cert <;> assumption)" in with_alternative


@pytest.mark.parametrize("candidate,nonempty_goal", [
    ("import Mathlib\ninstance exercise_4_2_5 {R : Type*} [Ring R] (h : ∀ x : R, x ^ 3 = x) : CommRing R :=\n"
     "  sorry\n", True),
    ("import Mathlib\ntheorem exercise_4_2_5 {R : Type*} [Ring R] (h : ∀ x : R, x ^ 3 = x) :\n"
     "    Nonempty (CommRing R) := sorry\n", False),
])
def test_scoring_states_every_goal_as_a_proposition(data_problem, candidate, nonempty_goal):
    info = prepare_problem(data_problem)
    prepared = prepare_candidate(Candidate("p1", "s", candidate, "x"), info, "full", "fp")
    file = candidate_check_file(prepared, nonce="n1")
    assert file.statements is not None and "Nonempty (CommRing R)" in file.statements.text
    assert ("Nonempty (type_of% @" in file.text) is nonempty_goal  # the backward check's goal
