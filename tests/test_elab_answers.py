"""formal-conjectures' ``answer(e)`` printed for Lean (``pyshadow.elab.translate``): ``e`` at the place's expected type
(FormalConjectures/Util/Answer.lean ``answerElab``); ``answer(sorry)`` — an answer not yet given — and an
``answer(e)`` that an operator tree would elaborate alone are not printed."""

from __future__ import annotations

import pytest

from lean_claims import assert_lean_decides
from pyshadow.elab.translate import Untranslatable, to_lean
from pyshadow.syntax import terms as tm


def test_answer_is_one_token_without_a_space():
    assert isinstance(tm.read_term("answer(True) ↔ P").left, tm.Enclosed)
    assert isinstance(tm.read_term("answer (True)"), tm.App)  # a function named `answer`, applied


@pytest.mark.parametrize("text", ["P ↔ answer(sorry)", "x = answer(n - 1)"])
def test_what_lean_would_read_otherwise_is_not_printed(text):
    with pytest.raises(Untranslatable, match="answer"):
        to_lean(tm.read_term(text))


@pytest.mark.kernel
def test_a_given_answer_is_its_value_and_another_value_is_another_statement(kernel_lean_exe):
    assert_lean_decides("theorem t (s : Set ℕ) : s.Infinite ↔ answer(True)", "theorem t (s : Set ℕ) : s.Infinite ↔ True",
                        ["theorem t (s : Set ℕ) : s.Infinite ↔ answer(False)",
                         "theorem t (s : Set ℕ) : s.Infinite ↔ answer(sorry)"])
