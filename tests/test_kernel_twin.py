"""The kernel tier as the full tier's faithful twin (issue #16, classes 1–3), judged by real Lean 4.35.

The abstraction keeps binder kinds (``{}``, ``⦃⦄``, ``[]`` as an instance of an opaque class), universe parameters
and the implicit ∀ of a conclusion, so prelude-mode Lean elaborates the checkers' terms the way the full tier
does. Each class is shown both ways: the text the generator wrote before the fix (reconstructed from today's
block by undoing exactly the fix) is *rejected* by Lean, with the full tier's error; today's text is accepted.
"""

from __future__ import annotations

import re

import pytest

from pyshadow.kernel.abstract import PRELUDE, kernel_block
from pyshadow.lean.runner import run_lean
from pyshadow.score.full import candidate_backward_text, candidate_universe_pin
from pyshadow.shadows.checkers import full_tier_checkers, name_universes, universe_parameters
from pyshadow.shadows.rules import decompose
from pyshadow.syntax import parse_declaration


@pytest.fixture
def lean(kernel_lean_exe):
    return kernel_lean_exe


def _errors(lean, tmp_path, text: str) -> list[str]:
    path = tmp_path / "Twin.lean"
    path.write_text(text, encoding="utf-8")
    result = run_lean(lean, path, timeout_s=120)
    assert result.status == "ok", result.detail
    return [d.message for d in result.errors if "lcErased" not in d.message]


def _block(statement: str):
    decl = parse_declaration(statement)
    return kernel_block("case", "Twin", decl, decompose(decl))


# Class 1: implicit / strict implicit / instance ∀ in a conclusion (descFactorial_eq_zero_iff_lt-style).
def _unannotated_lambdas(text: str) -> str:
    """Before the fix: `fun k_1 =>` — Lean introduces `{k}` itself and `k_1` binds the next argument."""
    return re.sub(r"(?<=fun )([^=]*)(?==>)", lambda m: re.sub(r"[{⦃]([^}⦄]*)[}⦄]", r"\1", m.group(1)), text)


def _explicit_head(text: str) -> str:
    """Before the fix: the target applied to its explicit arguments only, `(ref) x_1` — a strict implicit binder
    of the conclusion is then filled by Lean and `x_1` lands on the next explicit argument."""
    return re.sub(r"\(@ref s ", "(ref ", text)


CLASS_1 = [
    ("theorem descFactorial_eq_zero_iff_lt {n : ℕ} : ∀ {k : ℕ}, n.descFactorial k = 0 ↔ n < k",
     _unannotated_lambdas),
    ("theorem strict_mem {s : Set ℕ} : ∀ ⦃x : ℕ⦄, x ∈ s → x ∈ s ∧ 0 ≤ x", _explicit_head),
    ("theorem inst_forall {α : Type} : ∀ [Inhabited α] (x : α), x = x ∧ True", _unannotated_lambdas),
]


@pytest.mark.kernel
@pytest.mark.parametrize("statement,before_fix", CLASS_1)
def test_class1_implicit_forall_in_conclusion(lean, tmp_path, statement, before_fix):
    block = _block(statement)
    assert re.search(r"fun (\{|⦃)", block.text), block.text  # lambdas bind with the binder's own annotation
    assert _errors(lean, tmp_path, PRELUDE + "\n" + block.text) == []
    old = before_fix(block.text)
    assert old != block.text
    errors = _errors(lean, tmp_path, PRELUDE + "\n" + old)
    assert errors and any("mismatch" in e for e in errors), errors


def test_class1_named_argument_after_a_projection():
    decl = parse_declaration("theorem t (P Q : ℕ → Prop) : True ∧ ∀ {k : ℕ}, P k → Q k ∧ Q k")
    texts = [c.term for c in full_tier_checkers("t", "t", decl, decompose(decl)).forward]
    # after `.2` the term is no longer the @-application: `{k}` is passed by name, never positionally
    assert "fun {k_1} h_2 => ((@t P Q).2 (k := k_1) h_2).1" in texts, texts


# Class 2: universe holes.
CLASS_2 = [
    "theorem inter_comm' {α : Type _} (s t : Set α) : s ∩ t = t ∩ s",
    "theorem sort_hole {α : Sort _} (a : α) : a = a ∧ True",
    "theorem two_universes {α β : Type*} (f : α → β) (x : α) : f x = f x ∧ True",
    "theorem family {ι : Type*} {X : ι → Type*} (h : ∀ i, Nonempty (X i)) : ∀ i, Nonempty (X i) ∧ True",
]


@pytest.mark.kernel
@pytest.mark.parametrize("statement", CLASS_2)
def test_class2_universe_holes_named_once(lean, tmp_path, statement):
    block = _block(statement)
    assert "Type _" not in block.text and "Sort _" not in block.text and "universe u_1" in block.text
    assert _errors(lean, tmp_path, PRELUDE + "\n" + block.text) == []
    # Before the fix: the holes left in the certificate's hypotheses get a universe each, `@hS_1 α …` fails.
    head, _, rest = block.text.partition("theorem complete")
    hyps, sep, tail = rest.partition(":\n")
    sort = "Sort" if "Sort u_1" in block.text else "Type"
    old = head + "theorem complete" + re.sub(rf"{sort} u_\d+", f"{sort} _", hyps) + sep + tail
    errors = _errors(lean, tmp_path, PRELUDE + "\n" + old)
    assert errors and any("mismatch" in e for e in errors), errors


def test_type_star_is_one_universe_per_variable():
    binders, universes = name_universes(parse_declaration("theorem t {α β : Type*} (x : α) : x = x").binders)
    assert [(b.names, b.type.text) for b in binders[:2]] == [(("α",), "Type u_1"), (("β",), "Type u_2")]
    assert universes == ("u_1", "u_2")
    assert universe_parameters(parse_declaration("theorem t {α : Type v} {β : Type*} : True")) == ("v", "u_1")


# Class 3: `type_of% @Cand` gives the candidate fresh universes; `@Cand.{u_1}` pins them to the hypotheses'.
@pytest.mark.kernel
def test_class3_candidate_universes_pinned(lean, tmp_path):
    reference = parse_declaration("theorem id_eq {α : Sort*} (a : α) : a = a ∧ True")
    pin = candidate_universe_pin(reference, "theorem id_eq' {β : Sort u} (b : β) : b = b ∧ True")
    assert pin == ("u_1",)
    assert candidate_universe_pin(reference, "theorem id_eq' (b : Nat) : b = b ∧ True") == ()
    line = candidate_backward_text("bwd", "cert", "(hS : ∀ {α : Sort u_1} (a : α), P a)", "Cand", pin)
    assert "type_of% @Cand.{u_1} := by" in line

    def file(statement: str) -> str:
        return "\n".join([PRELUDE, "universe u_1", "axiom P : ∀ {α : Sort u_1}, α → Prop",
                          "axiom Cand : ∀ {β : Sort u_1} (b : β), P b",
                          f"theorem bwd (hS : ∀ {{α : Sort u_1}} (a : α), P a) : {statement} := hS", ""])

    assert _errors(lean, tmp_path, file("type_of% @Cand.{u_1}")) == []
    errors = _errors(lean, tmp_path, file("type_of% @Cand"))
    assert errors and any("mismatch" in e for e in errors), errors
