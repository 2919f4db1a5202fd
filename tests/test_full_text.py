"""The generated full-tier text of issue #26's defects: data candidates, `.{u}` universes, data references as
axioms, «guillemet» names and `variable` contexts in `pyshadow shadows`. What a real Lean must say about the same
text is in ``tests/test_full_text_lean.py`` (``@pytest.mark.lean``).
"""

from __future__ import annotations

from pyshadow.paths import PROBLEMS_DIR
from pyshadow.problems import load_problem
from pyshadow.score.candidates import Candidate
from pyshadow.score.checker_texts import candidate_universe_pin
from pyshadow.score.full import candidate_check_file
from pyshadow.score.pipeline import prepare_candidate, prepare_problem
from pyshadow.shadows.checkers import universe_names, universe_parameters
from pyshadow.syntax import parse_declaration


# (b) -----------------------------------------------------------------------------------------------------------
def test_universes_written_only_as_explicit_instantiations_are_parameters():
    decl = parse_declaration("theorem t {X S : Scheme.{u}} (f : X ⟶ S) : P f")
    assert universe_parameters(decl) == ("u",)
    assert universe_names("(x : ULift.{max v w} α) : Prod.{u, u} ι S = T") == ["v", "w", "u"]
    assert universe_parameters(parse_declaration("theorem t (n : Nat) : ULift.{v} Nat = ULift.{v} Nat")) == ("v",)
    # mutation partner: no `.{…}` and no sort, no universe
    assert universe_parameters(parse_declaration("theorem t {X S : Scheme} (f : X ⟶ S) : P f")) == ()


def test_the_backward_goal_of_a_scheme_candidate_is_pinned():
    problem = load_problem(PROBLEMS_DIR / "finite_affine_embedding")
    info = prepare_problem(problem)
    code = (problem.folder / "Reference.lean").read_text(encoding="utf-8")
    prepared = prepare_candidate(Candidate(problem.id, "s", code, "x"), info, "full", "fp")
    file = candidate_check_file(prepared, nonce="n1")
    assert "    type_of% @AffineEmbeddings.finite_affine_embedding.{u} := by" in file.text
    target = info.targets[0]
    assert candidate_universe_pin(target.declaration, "theorem c {X S : Scheme.{v}} : P") == ("u",)
    assert candidate_universe_pin(target.declaration, "theorem c {X S : Scheme} : P") == ()


# (c) -----------------------------------------------------------------------------------------------------------
DATA_PROBLEM = """id = "d1"
area = "algebra"
level = "L1"
source = "written for this test"
imports = []
reference = "Reference.lean"
targets = ["D.ref", "D.keep"]

[informal]
statement = "Every inhabited type has an Inhabited instance."
"""
DATA_REFERENCE = """namespace D
/-- a data target, admitted -/
noncomputable instance ref {α : Type} (x : α) : Inhabited α := sorry
def keep (n : Nat) : Inhabited (Fin (n + 1)) := ⟨0⟩
end D
"""


def data_problem(tmp_path):
    folder = tmp_path / "d1"
    folder.mkdir()
    (folder / "problem.toml").write_text(DATA_PROBLEM, encoding="utf-8")
    (folder / "Reference.lean").write_text(DATA_REFERENCE, encoding="utf-8")
    return load_problem(folder)


def test_a_data_reference_proved_with_sorry_is_an_axiom(tmp_path):
    from pyshadow.score.full import reference_check_file

    file, allowed = reference_check_file(prepare_problem(data_problem(tmp_path)))
    head = file.text.split("/-! # pyshadow completeness checks")[0]
    assert "axiom ref {α : Type} (x : α) : Inhabited α\n\nattribute [instance] ref\n" in head
    assert "sorry" not in head and "noncomputable" not in head
    # mutation partner: a data target with a real body keeps its definition (later declarations may unfold it)
    assert "def keep (n : Nat) : Inhabited (Fin (n + 1)) := ⟨0⟩" in head
    assert "exact ⟨@D.ref α x⟩" in file.text and {"D.ref", "D.keep"} <= allowed


# (e) -----------------------------------------------------------------------------------------------------------
def _guillemet_candidate_file():
    problem = load_problem(PROBLEMS_DIR / "nat_add_comm_assoc")
    src = (problem.folder / "Reference.lean").read_text(encoding="utf-8")
    code = src.replace("theorem nat_add_comm_assoc", "namespace «Order Facts»\ntheorem nat_add_comm_assoc")
    code += "\nend «Order Facts»\n"
    prepared = prepare_candidate(Candidate(problem.id, "s", code, "x"), prepare_problem(problem), "full", "fp")
    return code, candidate_check_file(prepared, nonce="n1")


def test_guillemet_names_keep_their_guillemets():
    _, file = _guillemet_candidate_file()
    assert "#print axioms «Order Facts».nat_add_comm_assoc\n" in file.text
    assert "@«Order Facts».nat_add_comm_assoc a b c" in file.text
    assert "type_of% @«Order Facts».nat_add_comm_assoc := by" in file.text
    assert "Order Facts." not in file.text.replace("«Order Facts».", "")


def test_lean_name_escapes_only_what_must_be():
    from pyshadow.syntax.scanner import lean_name, normalize_name

    assert lean_name("Order Facts.main_thm") == "«Order Facts».main_thm"
    assert lean_name("«Order Facts».main_thm") == "«Order Facts».main_thm"
    assert lean_name("«a.b».c") == "«a.b».c" and lean_name("_root_.A.b") == "A.b"
    assert lean_name("x.end") == "x.«end»"  # a keyword component
    for plain in ("Nat.le_of_eq", "h₀", "α.β'", "exercise_2_1_18'"):  # mutation partners: nothing to escape
        assert lean_name(plain) == plain
    assert normalize_name(lean_name("Order Facts.main_thm")) == "Order Facts.main_thm"


def test_guillemet_names_parse_in_real_lean(kernel_lean_exe, tmp_path):
    # the kernel-tier lean (prelude mode) has Lean's own parser: the escaped names resolve, the bare ones do not
    from pyshadow.lean.runner import run_lean
    from pyshadow.syntax.scanner import lean_name

    name = lean_name("Order Facts.main_thm")
    good = (f"prelude\naxiom P : Prop\nnamespace «Order Facts»\naxiom main_thm : P\nend «Order Facts»\n"
            f"#print axioms {name}\ntheorem c : P := @{name}\n")
    path = tmp_path / "G.lean"
    path.write_text(good, encoding="utf-8")
    result = run_lean(kernel_lean_exe, path, timeout_s=60)
    assert result.status == "ok" and not result.errors, [e.message for e in result.errors]
    path.write_text(good.replace(name, "Order Facts.main_thm"), encoding="utf-8")  # the pre-fix text
    assert run_lean(kernel_lean_exe, path, timeout_s=60).errors


def test_namespace_opens_keep_guillemets():
    from pyshadow.workspace import namespace_opens

    assert namespace_opens(["«Order Facts».main_thm"]) == ("open «Order Facts»",)
    assert namespace_opens(["A.B.c"]) == ("open A A.B",)


# (d) -----------------------------------------------------------------------------------------------------------
VARS_CONTEXT = "variable {a b : Nat} {c : Nat}\n"
VARS_STATEMENT = "theorem vars (hab : a ≤ b) : a ≤ b ∧ b ≥ a"


def test_shadows_includes_the_context_variables():
    from pyshadow.commands.shadows import shadows_entry
    from pyshadow.corpus import CorpusEntry

    out = shadows_entry(CorpusEntry("vars", VARS_STATEMENT, context=VARS_CONTEXT))
    assert out["status"] == "decomposed"
    assert "theorem shadow_vars_1 {a : Nat} {b : Nat} (hab : a ≤ b) :" in out["forward"][0]
    assert "  | exact (@vars a b hab).1\n" in out["forward"][0]  # `hab` in its own slot, `c` not included
    assert "(hS_1 : ∀ {a : Nat} {b : Nat} (hab : a ≤ b), a ≤ b)" in out["backward"]
    # mutation partner: the same statement without the context — the pre-fix text
    bare = shadows_entry(CorpusEntry("vars", VARS_STATEMENT))
    assert "  | exact (@vars hab).1\n" in bare["forward"][0]


# universe pins in Lean's order (issue #26, undecided point) -----------------------------------------------------
def test_universe_parameters_in_lean_order():
    from pyshadow.shadows.checkers import universe_occurrences

    many = parse_declaration("theorem r " + " ".join(f"{{a{i} : Type*}}" for i in range(11)) + " : True")
    assert universe_parameters(many)[8:] == ("u_9", "u_10", "u_11")  # creation order, not `sorted` (u_10 < u_2)
    # `universe v u` declares v first: Lean lists v first, whatever the statement's order of occurrence
    cand = parse_declaration("theorem c {α : Type u} {β : Type v} (f : α → β) : True")
    assert universe_parameters(cand, ("v", "u")) == ("v", "u")
    assert universe_parameters(cand, ("u", "v")) == ("u", "v") and universe_occurrences(cand) == ("u", "v")


def test_the_pin_pairs_universes_by_occurrence_and_lists_them_in_the_candidates_order():
    ref = parse_declaration("theorem r {α : Type*} {β : Type*} (f : α → β) : True")
    header = "theorem c {α : Type u} {β : Type v} (f : α → β) : True"
    assert candidate_universe_pin(ref, header, ("v", "u")) == ("u_2", "u_1")  # `c.{v, u}`: v ↦ u_2, u ↦ u_1
    assert candidate_universe_pin(ref, header, ("u", "v")) == ("u_1", "u_2")
    assert candidate_universe_pin(ref, "theorem c {α : Type u} (f : α → α) : True", ("u",)) == ()  # 1 ≠ 2


# generated references in their own namespace (issue #26, undecided point) ----------------------------------------
def test_a_reference_with_root_declarations_is_wrapped_in_the_checkers_namespace():
    from pyshadow.workspace import plan_problem, reference_module_text

    wrapped = reference_module_text(plan_problem(load_problem(PROBLEMS_DIR / "nat_exists_prime_ge"), "M"))
    assert wrapped.startswith("import Mathlib\n\nnamespace PyShadow.Checkers.M\n\n/-!")
    assert wrapped.endswith("\nend PyShadow.Checkers.M\n") and "theorem exists_prime_ge (n : ℕ)" in wrapped
    # mutation partner: a reference whose declarations all live in its own namespace is left as it is
    plain = reference_module_text(plan_problem(load_problem(PROBLEMS_DIR / "nat_pos_facts"), "M"))
    assert "PyShadow" not in plain


def test_the_wrapped_reference_cannot_clash_and_its_checkers_find_it(kernel_lean_exe, tmp_path):
    # prelude-mode Lean resolves names as the full tier does: a root `clash` (Mathlib's, say) and the reference's
    # wrapped one coexist, and a checker in the namespace gets the reference's (`P`, not `Q`)
    from pyshadow.lean.runner import run_lean
    from pyshadow.workspace import in_own_namespace

    library = "prelude\naxiom P : Prop\naxiom Q : Prop\naxiom p : P\naxiom q : Q\ntheorem clash : Q := q\n"
    reference = "/-- the reference's own -/\ntheorem clash : P := p\n"
    checker = "namespace PyShadow.Checkers.M\ntheorem shadow_1 : P := @clash\nend PyShadow.Checkers.M\n"
    path = tmp_path / "W.lean"
    path.write_text(library + in_own_namespace(reference, "PyShadow.Checkers.M") + checker, encoding="utf-8")
    result = run_lean(kernel_lean_exe, path, timeout_s=60)
    assert result.status == "ok" and not result.errors, [e.message for e in result.errors]
    path.write_text(library + reference + checker, encoding="utf-8")  # unwrapped: `clash` is declared twice
    assert any("already been declared" in e.message or "already declared" in e.message
               for e in run_lean(kernel_lean_exe, path, timeout_s=60).errors)


# Issue #26: `le_of_eq`/`ge_of_eq`/`le_antisymm` as Mathlib declares them (Mathlib/Order/Defs/PartialOrder.lean at
# mathlib4 fabf563a, the pin: `variable {α : Type*}`, `[Preorder α] {a b c : α}`, `le_of_eq (hab : a = b) : a ≤ b`,
# `@[to_dual ge_of_eq]`; `[PartialOrder α] {a b : α}`, `le_antisymm : a ≤ b → b ≤ a → a = b`) against goals headed by
# `let`s as Brahmagupta's are: the generator's own terms, elaborated by real Lean (prelude mode, so `≤` is an
# opaque relation behind an instance argument and the classes are Prop-valued stand-ins; `exact e` elaborates `e`
# against the goal as a term body does). Mutation partners: the swapped lemma and the swapped certificate.
_ORDER_PRELUDE = """prelude
universe u
inductive Eq {α : Sort u} (a : α) : α → Prop where
  | refl : Eq a a
class Preorder (α : Type u) : Prop
class PartialOrder (α : Type u) : Prop
@[instance] axiom PartialOrder.toPreorder {α : Type u} [PartialOrder α] : Preorder α
axiom LE.le {α : Type u} [Preorder α] : α → α → Prop
axiom le_of_eq {α : Type u} [Preorder α] {a b : α} (hab : Eq a b) : LE.le a b
axiom ge_of_eq {α : Type u} [Preorder α] {a b : α} (hab : Eq a b) : LE.le b a
axiom le_antisymm {α : Type u} [PartialOrder α] {a b : α} : LE.le a b → LE.le b a → Eq a b
axiom R : Type
axiom add : R → R → R
axiom mul : R → R → R
@[instance] axiom instPO : PartialOrder R
"""


def test_order_lemmas_elaborate_against_let_headed_goals(kernel_lean_exe, tmp_path):
    from pyshadow.lean.runner import run_lean
    from pyshadow.shadows.checkers import full_tier_checkers
    from pyshadow.shadows.rules import decompose

    decl = parse_declaration("theorem ref (x y : ℝ) : let s := x + y; let K := s * s; K = s + s")
    checkers = full_tier_checkers("p", "ref", decl, decompose(decl))
    (le, ge), cert = [c.term for c in checkers.forward], checkers.backward.term
    assert (le, ge, cert) == ("le_of_eq (@ref x y)", "ge_of_eq (@ref x y)", "le_antisymm (@hS_1 x y) (@hS_2 x y)")
    lets = "let s := add x y; let K := mul s s;"
    hyps = (f"(hS_1 : ∀ {{x y : R}}, {lets} LE.le K (add s s)) "
            f"(hS_2 : ∀ {{x y : R}}, {lets} LE.le (add s s) K)")
    text = _ORDER_PRELUDE + "\n".join([
        f"axiom ref (x y : R) : {lets} Eq K (add s s)",
        f"theorem fwd_1 (x y : R) : {lets} LE.le K (add s s) := {le}",
        f"theorem fwd_2 (x y : R) : {lets} LE.le (add s s) K := {ge}",
        f"theorem complete (x y : R) {hyps} : {lets} Eq K (add s s) := {cert}",
        f"theorem mutant_1 (x y : R) : {lets} LE.le K (add s s) := {ge}",
        f"theorem mutant_2 (x y : R) {hyps} : {lets} Eq K (add s s) := le_antisymm (@hS_2 x y) (@hS_1 x y)", ""])
    path = tmp_path / "Let.lean"
    path.write_text(text, encoding="utf-8")
    result = run_lean(kernel_lean_exe, path, timeout_s=60)
    lines = text.splitlines()
    failed = {lines[e.pos.line - 1].split()[1] for e in result.errors}
    assert failed == {"mutant_1", "mutant_2"}, [e.message for e in result.errors]
