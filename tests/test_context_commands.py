"""Context commands read as Lean scopes them (``pyshadow.elab.context``): ``open X in``, an ``open`` of a namespace
whose name contains ``in``, ``abbrev`` kept reducible, and the ASCII quantifiers of the term reader."""

from __future__ import annotations

import pytest

from pyshadow.elab.context import read_context
from pyshadow.elab.elaborate import StatementInput, elaborate
from pyshadow.elab.translate import Untranslatable
from pyshadow.syntax import terms as tm


def test_open_in_before_a_definition_opens_for_it_alone():
    ctx = read_context("open Finset in\nabbrev S (n : ℕ) : ℕ := card (range n)\nopen Nat")
    assert ctx.commands == ["open Finset in\nabbrev S (n : Nat) : Nat := card (range n)", "open Nat"]
    assert ctx.opens == ["Nat"]


def test_open_in_that_ends_the_context_opens_for_the_statement():
    ctx = read_context("open Set Real in")
    assert ctx.commands == ["open Set Real"] and ctx.opens == ["Set", "Real"]


def test_an_open_namespace_may_contain_the_letters_in():
    assert read_context("open MeasureTheory intervalIntegral").opens == ["MeasureTheory", "intervalIntegral"]


@pytest.mark.parametrize("context", ["open scoped Real in\ndef f : ℕ := 1", "open Nat hiding add",
                                     "open Finset in\nvariable (n : ℕ)"])
def test_what_is_not_modelled_is_named(context):
    with pytest.raises(Untranslatable):
        read_context(context)


def test_abbrev_stays_reducible():
    assert read_context("abbrev ans : ℕ := 3").commands == ["abbrev ans  : Nat := 3"]
    assert read_context("def ans : ℕ := 3").commands == ["def ans  : Nat := 3"]


def test_the_ascii_quantifiers_take_no_binder_predicate():
    # src/Init/BinderPredicates.lean extends only `∀ ` and `∃ ` with `x > 0`
    assert tm.read_term("forall x > 0, x = x") is None
    assert tm.read_term("forall x, exists y, x = y") == tm.read_term("∀ x, ∃ y, x = y")


@pytest.mark.kernel
def test_an_open_in_before_a_definition_does_not_reach_the_statement(kernel_lean_exe):
    context = "open Finset in\nabbrev S (n : ℕ) : ℕ := card (range n)"
    inside, outside = elaborate([StatementInput("a", "theorem t (n : ℕ) : S n = 4", context),
                                 StatementInput("b", "theorem t (n : ℕ) : card (range n) = 4", context)],
                                kernel_lean_exe)
    assert inside.elaborated, inside.reason
    assert not outside.elaborated


def test_a_namespace_named_after_the_contexts_own_definition_is_not_printed():
    # red team 4 dot_ident/03: printed, `abbrev G` is the wrapper's `W.G` and `namespace G`'s `I` is `G.W.I`, so Lean
    # resolved `.I` at type `G` to `Complex.I` (through the abbreviation) instead of the file's `G.I`
    with pytest.raises(Untranslatable, match="namespace"):
        read_context("abbrev G := ℂ\nnamespace G\nnoncomputable def I : G := 1\nend G")


def test_options_are_neutral_passed_or_named():
    ctx = read_context("set_option pp.funBinderTypes true\nset_option tactic.hygienic false\n"
                       "set_option relaxedAutoImplicit false\nset_option checkBinderAnnotations false\n"
                       "section\nset_option backward.isDefEq.respectTransparency false\nend")
    assert ctx.commands == ["set_option checkBinderAnnotations false"]  # a section's option ends with it
    with pytest.raises(Untranslatable):
        read_context("set_option relaxedAutoImplicit true")


@pytest.mark.kernel
def test_check_binder_annotations_is_lean_s_to_apply(kernel_lean_exe):
    statement = "theorem t (n : ℕ) [h : n = 1] : n + 1 = 2"
    off = "set_option checkBinderAnnotations false\nnamespace Foo\nend Foo"
    relaxed, checked = elaborate([StatementInput("a", statement, off), StatementInput("b", statement, "")],
                                 kernel_lean_exe)
    assert relaxed.elaborated, relaxed.reason
    assert not checked.elaborated  # Lean: `[h : n = 1]` is not a class


@pytest.mark.kernel
def test_under_open_set_infinite_is_the_root_class(kernel_lean_exe):
    # Mathlib/Data/Set/Finite/Defs.lean: `protected def Set.Infinite` ("so that it does not conflict with global
    # `Infinite`"): `Infinite U` is `_root_.Infinite ↥U`, not `U.Infinite` (equivalent by `Set.infinite_coe_iff`,
    # another term)
    from lean_claims import assert_definitional_claims

    assert_definitional_claims([("theorem t (U : Set ℕ) : Infinite U", "theorem t (U : Set ℕ) : _root_.Infinite (Set.Elem U)",
                                 "theorem t (U : Set ℕ) : U.Infinite", "open Set")], kernel_lean_exe)
