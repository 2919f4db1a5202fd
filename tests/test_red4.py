"""Red team 4 (tests/fixtures/precision/RED4.md): changed statements aimed at the kernel tier's newer mechanisms —
order and grouping, substitution readings, untyped lambda binders, aligned hypotheses, sub-atom lemmas, dot
identifiers, the candidate's own context commands, universes — each with its mutation partner. No changed pair may
pass; the partners pass near the measured figure; the readings the fixes changed are pinned here, each beside its
partner."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import pytest

from pyshadow.kernel.atoms import canonical_atoms
from pyshadow.kernel.definitions import normalize_declaration
from pyshadow.kernel.fixed_variables import _unified_alone
from pyshadow.kernel.opens import unread_context
from pyshadow.kernel.pairs import evaluate, read_pairs
from pyshadow.syntax import parse_declaration
from pyshadow.syntax import terms as tm
from pyshadow.syntax.render import render_declaration

FOLDER = Path(__file__).parent / "fixtures" / "precision"
PAIRS = FOLDER / "red4_pairs.jsonl"
# Measured after the fixes (RED4.md): 50 of 64 partners pass; the floor leaves one for a reading that moves.
PARTNERS_PASSED_FLOOR = 49


@pytest.mark.kernel
def test_no_changed_pair_passes_and_the_partners_pass_near_the_measured_figure(kernel_lean_exe):
    results = evaluate(read_pairs(PAIRS), kernel_lean_exe, n_jobs=2)
    verdicts = {r.pair.id: (r.pair.same_meaning, r.verdict) for r in results}
    assert not sorted(k for k, (same, v) in verdicts.items() if v == "pass" and not same)
    partners = [k for k, (same, _) in verdicts.items() if same]
    missed = sorted(k for k in partners if verdicts[k][1] != "pass")
    assert len(partners) == 64 and len(partners) - len(missed) >= PARTNERS_PASSED_FLOOR, missed
    # the readings the fixes narrowed still pass where they are right
    for pid in ("red4/lambda_domain/01-same", "red4/lambda_domain/02-same", "red4/lambda_domain/03-same",
                "red4/scope/03-same", "red4/scope/07-same", "red4/scope/09-same", "red4/universe/03-same",
                "red4/universe/01-same", "red4/universe/05-same", "red4/universe/06-same",
                "red4/lambda_domain/04-same", "red4/lambda_domain/05-same", "red4/scope/13-same",
                "red4/scope/16-same", "red4/scope/17-same", "red4/scope/18-same", "red4/scope/19-same",
                "red4/scope/20-same", "red4/scope/21-same"):
        assert pid not in missed, pid


def test_red4_file_is_the_output_of_its_builder():
    built = runpy.run_path(str(FOLDER / "build_red4.py"))["rows"]()
    assert built == [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_id = {r["id"]: r for r in built}
    for r in built:  # every changed row has its partner and back, of the same reading
        other = by_id[r["partner"]]
        assert other["partner"] == r["id"] and other["reading"] == r["reading"]
        assert other["same_meaning"] != r["same_meaning"]


def _lam(text: str, ty: str) -> bool:
    return _unified_alone(tm.read_term(text), tm.read_term(ty))


def test_an_untyped_lambda_takes_the_domain_only_where_unification_gives_it():
    assert _lam("fun x => 2 * x + 3", "ℝ → ℝ")  # x's type is left to unification: ℝ
    assert _lam("fun a b => a < b ∧ b < 2 * a", "ℕ → ℕ → Prop")
    assert not _lam("fun x => x - 1", "ℕ → ℝ")  # alone ℕ → ℕ: `HSub ℕ ℕ ℝ`, no coercion inserted
    assert not _lam("fun x => x", "ℕ → ℝ")
    assert not _lam("fun x => Real.sqrt x", "ℕ → ℝ")  # the body fixes x : ℝ
    assert not _lam("fun x => Int.toNat x", "ℕ → ℕ")  # x : ℤ from the body, not the domain
    assert not _lam("fun a b => a < b", "ℕ → ℤ → Prop")  # one type for both sides of `<`
    assert not _lam("fun x => x < Real.pi", "ℕ → Prop")  # π fixes x : ℝ


def test_a_lambda_lean_does_not_type_by_the_domain_stays_a_hypothesis():
    def read(text: str) -> str:
        return render_declaration(normalize_declaration(parse_declaration(text)))

    wrong = read("theorem t (f : ℕ → ℝ) (hf : f = fun x => x - 1) : Real.arctan (f 0) < 0")
    assert "hf" in wrong  # not substituted: Lean does not elaborate it as `fun (x : ℕ) => (x - 1 : ℝ)`
    right = read("theorem t (f : ℕ → ℝ) (hf : f = fun (x : ℕ) => (x : ℝ) - 1) : Real.arctan (f 0) < 0")
    assert "hf" not in right and right == read("theorem t (f : ℕ → ℝ) (hf : ∀ x, f x = x - 1) : Real.arctan (f 0) < 0")
    assert "hf" not in read("theorem t (f : ℝ → ℝ) (hf : f = fun x => 2 * x + 3) : f 2 = 7")


@pytest.mark.kernel
def test_lean_elaborates_the_lambda_of_an_equation_alone(kernel_lean_exe):
    """The fact `_unified_alone` rests on: `binrel%` elaborates `fun x => e` without `f`'s type."""
    from pyshadow.elab.elaborate import StatementInput, elaborate

    texts = {"sub": "theorem t (f : ℕ → ℝ) (hf : f = fun x => x - 1) : f 0 = 0",
             "id": "theorem t (f : ℕ → ℝ) (hf : f = fun x => x) : f 0 = 0",
             "typed": "theorem t (f : ℕ → ℝ) (hf : f = fun (x : ℕ) => (x : ℝ) - 1) : f 0 = 0",
             "same_type": "theorem t (f : ℝ → ℝ) (hf : f = fun x => 2 * x + 3) : f 0 = 0"}
    got = {e.key: e for e in elaborate([StatementInput(k, v) for k, v in texts.items()], kernel_lean_exe)}
    assert not got["sub"].elaborated and not got["id"].elaborated, (got["sub"].reason, got["id"].reason)
    assert got["typed"].elaborated and got["same_type"].elaborated, (got["typed"].reason, got["same_type"].reason)


def test_a_context_command_the_kernel_does_not_read_keys_every_atom():
    used = "theorem t (n : ℕ) (h : n = 𝔽) : n < 6"  # a statement that writes the notation's token
    for context in ("instance : Add ℕ := ⟨Nat.mul⟩", "export Nat (sqrt)",
                    "macro_rules | `($x + $y) => `(binop% HSub.hSub $x $y)", "attribute [instance] foo",
                    "open Real in instance : Add ℕ := ⟨Nat.mul⟩", "structure P where\n  x : ℕ"):
        assert unread_context(context) is not None, context
    assert unread_context("variable (x : ℕ) (hx : 0 < x)\ninclude hx\nomit hx") is not None  # `omit` is not read
    for context in ("open Real", "set_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat",
                    "namespace Foo\ndef g (m : ℕ) : ℕ := m - 1\nend Foo", "variable (x : ℕ)\ninclude x",
                    "open Real in\nlemma aux : (0 : ℝ) < 1 := by norm_num", "universe u", "noncomputable section",
                    "@[simp] abbrev sol : ℕ := 3", "attribute [simp] Nat.add_comm",
                    "instance e {A B : Type*} [Group A] [Group B] :\n  A × B ≃* B × A :=\nsorry"):  # unusable
        assert unread_context(context) is None, context
    def notation(context: str) -> str | None:
        return unread_context(context, used)

    assert notation("local notation \"𝔽\" => (5 : ℕ)") is not None
    # a notation whose token neither the statement nor a later command writes changes nothing it says
    rebound = "notation:50 a:51 \" ≤ \" b:51 => a = a ∧ b = b"  # problems/nat_add_comm_assoc's cheating candidate
    assert unread_context(rebound, "theorem t (a b : ℕ) : a + b = b + a") is None
    assert unread_context("local notation \"𝔽\" => (5 : ℕ)\ndef c : ℕ := 𝔽", "theorem t : c = 5") is not None
    # the same commands key alike; other commands (or the same after other scopes) do not
    assert notation("local notation \"𝔽\" => (5 : ℕ)") == notation("local  notation \"𝔽\" =>  (5 : ℕ)")
    assert notation("local notation \"𝔽\" => (5 : ℕ)") != notation("local notation \"𝔽\" => (6 : ℕ)")
    assert notation("open Nat\nlocal notation \"𝔽\" => sqrt 4") != notation("open Real\nlocal notation \"𝔽\" => sqrt 4")
    # a notation's names resolve where it is used: a later definition is part of what it means
    later = "local notation \"𝔽\" => c\ndef c : ℕ := "
    assert notation(later + "5") != notation(later + "6")
    # a helper's body names what the namespaces open at its definition make it name, `protected` hides its short name
    assert unread_context("open Nat in\ndef g (n : ℕ) : ℕ := sqrt n") is not None
    assert unread_context("def f (x : ℝ) : ℝ := x\nopen Real") is not None  # `open` after the helper
    assert unread_context("namespace Foo\nprotected def g (n : ℕ) : ℕ := n\nend Foo\nopen Foo") is not None
    assert unread_context("open Real\nnoncomputable def f (x : ℝ) : ℝ := sqrt x") is None
    assert unread_context("namespace Foo\ndef g (m : ℕ) : ℕ := m - 1\nend Foo") is None  # its own namespace
    # a root helper an open namespace also declares is ambiguous in Lean; the environment's printer would hide it
    ambiguous = "noncomputable def sqrt (x : ℝ) : ℝ := Real.sqrt x\nopen Real"
    assert unread_context(ambiguous) is not None and unread_context(ambiguous.split("\n")[0]) is None
    from pyshadow.elab.context import read_context
    from pyshadow.elab.translate import Untranslatable
    with pytest.raises(Untranslatable):
        read_context(ambiguous)
    assert read_context("open Real\nabbrev sol : ℕ := 3").opens == ["Real"]
    # … and one that redeclares a root constant (`abs`) is a file that does not compile
    assert unread_context("noncomputable def abs (x : ℝ) : ℝ := |x|") is not None
    with pytest.raises(Untranslatable):
        read_context("def Prime (p : ℕ) : Prop := Nat.Prime p")
    plain = normalize_declaration(parse_declaration("theorem t (a b : ℕ) (h : a + b = 5) : a ≤ 5"))
    mul = normalize_declaration(parse_declaration("theorem t (a b : ℕ) (h : a + b = 5) : a ≤ 5"),
                                "instance : Add ℕ := ⟨Nat.mul⟩")
    assert plain != mul and "«context " in render_declaration(mul)


def test_a_universe_two_binders_share_is_not_folded_into_type():
    def types(text: str) -> list[str]:
        return [b.type.text for b in canonical_atoms(parse_declaration(text)).binders if b.type is not None
                and hasattr(b.type, "text")]

    shared = types("theorem t (α β : Type u) (f : α → β) : Nonempty (α → β)")
    apart = types("theorem t (α : Type u) (β : Type v) (f : α → β) : Nonempty (α → β)")
    assert shared[0] != "Type u" and apart[:2] == ["Type u", "Type v"]  # `Type u` alone folds (a fresh universe)
    assert types("theorem t (α β : Type v) (f : α → β) : Nonempty (α → β)") == shared  # numbered, not named
    assert types("theorem t (α : Type 1) : Nonempty (α → α)") != types("theorem t (α : Type) : Nonempty (α → α)")
    # `Type _` and `Type*` are a fresh universe per binder name: never shared
    assert types("theorem t (α β : Type _) (f : α → β) : Nonempty (α → β)")[0] == "Type _"


def test_an_instance_variable_over_no_variable_is_included_as_lean_includes_it():
    from pyshadow.elab.context import read_context
    from pyshadow.elab.translate import Untranslatable
    from pyshadow.kernel.context_variables import with_context_variables
    from pyshadow.syntax.render import render_binders

    def binders(context: str) -> str:
        decl = parse_declaration("theorem t (a : ℕ) : a + 0 = a")
        return render_binders(with_context_variables(decl, context).binders)

    assert binders("variable [Add ℕ]") == "[Add ℕ] (a : ℕ)"  # Lean includes it (checked in the kernel-tier Lean)
    assert binders("variable {α : Type*} [Fintype α]") == "(a : ℕ)"  # over a variable the theorem does not use
    with pytest.raises(Untranslatable):  # the signature environment's reader does not print it as a binder
        read_context("variable [Add ℕ]")
    assert read_context("variable {α : Type*} [Fintype α]").variables == ["{α : Type _}", "[Fintype α]"]


def test_names_resolve_in_the_theorem_s_own_namespace_and_are_unknown_without_auto_implicit():
    def read(text: str, context: str = "") -> str:
        return render_declaration(normalize_declaration(parse_declaration(text), context))

    assert "Real.sqrt" in read("theorem Real.t (x : ℝ) (h : 0 ≤ x) : sqrt (x ^ 2) = x")
    assert "Real.sqrt" not in read("theorem t (x : ℝ) (h : 0 ≤ x) : sqrt (x ^ 2) = x")
    # inside `namespace Foo`, `theorem Real.t` is Foo.Real.t: Real is not opened by its name
    assert "Real.sqrt" not in read("theorem Real.t (x : ℝ) (h : 0 ≤ x) : sqrt (x ^ 2) = x", "namespace Foo")
    off = read("theorem t (h : 0 < x) : 0 < x + 1", "set_option autoImplicit false")
    assert "«unknown x»" in off and "unknown" not in read("theorem t (h : 0 < x) : 0 < x + 1")


# The Lean facts the scope fixes rest on, each line an `#check` whose output (or error) says it (kernel-tier Lean,
# signature environment): an instance variable over no variable is included; `omit` undoes an `include`; a prefixed
# theorem name opens its namespace; a protected helper is not named by `open`; a root helper an open namespace also
# declares is ambiguous.
LEAN_FACTS = """prelude
import PyshadowEnv
set_option autoImplicit false
section
variable [inst : Add Nat]
theorem instT (a b : Nat) (h : binrel% Eq (binop% HAdd.hAdd a b) 5) : binrel% Eq (binop% HAdd.hAdd a b) 5 := h
end
#check @instT
section
variable (x : Nat) (hx : binrel% LT.lt 0 x)
include hx
omit hx
axiom omitT : binrel% LT.lt 0 (binop% HMul.hMul x x)
end
#check @omitT
theorem Real.prefT (x : Real) : binrel% Eq (sqrt x) (Real.sqrt x) := rfl
namespace Foo
protected noncomputable def sqrt (x : Real) : Real := x
end Foo
section
open Real Foo
theorem protT (x : Real) : binrel% Eq (sqrt x) (Real.sqrt x) := rfl
end
noncomputable def sqrt (x : Real) : Real := Real.sqrt x
open Real
#check fun (x : Real) => sqrt x
"""


@pytest.mark.kernel
def test_the_lean_facts_of_the_scope_fixes(kernel_lean_exe, tmp_path):
    from pyshadow.elab.environment import build_environment
    from pyshadow.lean.runner import run_lean

    file = tmp_path / "Facts.lean"
    file.write_text(LEAN_FACTS, encoding="utf-8")
    result = run_lean(kernel_lean_exe, file, lean_path=[build_environment(kernel_lean_exe)], cwd=tmp_path)
    messages = [(d.severity, " ".join(d.message.split())) for d in result.diagnostics]
    infos = [m for s, m in messages if s == "information"]
    errors = [m for s, m in messages if s == "error"]
    assert any(m.startswith("@instT : ∀ [inst : Add Nat]") for m in infos), infos  # included
    assert any(m.startswith("omitT : ∀ (x : Nat), LT.lt 0") for m in infos), infos  # hx omitted
    assert len(errors) == 1 and errors[0].startswith("Ambiguous term"), errors  # prefT and protT elaborate
