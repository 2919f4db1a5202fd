"""The declarations added for the Lean check of skeleton passes, each elaborated on a real statement by Lean.

- Every declaration of ``PyshadowEnv.Topology`` and every one listed in ``ADDED`` occurs in the term Lean elaborates
  for one of the real statements of ``USES`` (the labelled pair fixtures' and the corpora's statements), or in the
  Lean text of a declaration that does.
- A declaration that is a definition (so that two spellings are one proposition) has a claimed equal spelling and a
  mutation partner, the nearest changed statement, which Lean must keep apart (``CLAIMS``); so does each printing
  change (the term reader's bound names `x✝1`, `false` and `max` unqualified, `⋃`/`⋂`, `∑'`, tuples, `π` as a name,
  `R[X]`, `↑e` as a variable's argument); a `variable` binder update is checked binder by binder.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lean_claims import assert_definitional_claims

from pyshadow.elab.elaborate import HEADER, StatementInput, elaborate, run_blocks
from pyshadow.elab.environment import declarations
from pyshadow.elab.statements import lean_statement, scoped_block
from pyshadow.elab.translate import Untranslatable
from pyshadow.syntax.parser import parse_declaration

from test_elab_coverage import _bodies, _mentions

pytestmark = pytest.mark.kernel
REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
DEV = REPO.parent / "shared" / "corpora" / "dev.jsonl"

# declared outside PyshadowEnv.Topology with the ones there (`WithBot.coeTC`, which the elaborated term unfolds to
# `WithBot.some`, is exercised by the `p.degree = n` claim below, and `Set.instLT`, found by instance synthesis for
# `Set.instPartialOrder` and `⊂`, by the `s ⊂ t` claim)
ADDED = ("Subgroup.Characteristic", "Subgroup.centralizer", "IsCyclic", "Group.IsNilpotent", "IsPGroup",
         "WithBot", "WithBot.some", "WithBot.instLT", "WithBot.zero",
         "Polynomial.C", "Polynomial.coeff", "Polynomial.eval", "Polynomial.degree", "Polynomial.natDegree",
         "IsNilpotent", "Nat.sqrt", "Nat.iterate", "IsSquare", "Real.arctan", "Set.sInter", "Set.iUnion", "Set.iInter",
         "WithTop", "WithTop.some", "WithTop.one", "ENat", "ENat.instCommSemiring", "ENat.instLE", "Set.encard",
         "Matrix", "Matrix.neg", "Matrix.one", "Matrix.instHMulOfFintypeOfMulOfAddCommMonoid", "Matrix.rank",
         "CommRing.toCommSemiring", "Fin.fintype", "instDecidableEqFin",
         "MonotoneOn", "StrictMonoOn", "StrictAntiOn", "Set.InjOn",
         "OrderBot", "Set.instHasSSubset", "Set.order_laws", "Set.instPartialOrder", "Set.empty_le",
         "Set.instOrderBot", "Disjoint", "Set.Elem", "Set.toFinset", "MulEquiv", "Equiv.Perm.permGroup")

# (pair file, pair id, side "a"/"b"), or ("corpus", id, "") for a row of dev.jsonl or tests/fixtures/corpus/: real statements using them
USES = [
    ("dev_pairs.jsonl", "minif2f/aime_1983_p3", "a"),  # Set.Elem (`Fintype ↑s`), Set.toFinset
    ("dev_pairs.jsonl", "proofnet/Herstein/exercise_2_5_37:lean4-vs-sharp", "a"),  # MulEquiv, Equiv.Perm.permGroup
    ("dev_pairs.jsonl", "proofnet/Munkres/exercise_29_10:lean4-vs-sharp", "b"),  # T2Space, IsCompact
    ("model_pairs.jsonl", "proofnetverif-valid/Munkres/exercise_32_2b#row26", "b"),  # RegularSpace, CompactSpace, Π
    ("model_pairs.jsonl", "proofnetverif-valid/Rudin/exercise_2_24#row71", "b"),  # SeparableSpace
    ("model_pairs.jsonl", "proofnetverif-valid/Munkres/exercise_13_5a#row40", "b"),  # IsTopologicalBasis, generateFrom
    ("corpus", "proofnet/Shakarchi_exercise_1_26", ""),  # IsConnected, DifferentiableOn
    ("corpus", "rahul3613/ProofNet-lean4/formal/Rudin.lean#exercise_4_4b", ""),  # Dense
    ("corpus", "rahul3613/ProofNet-lean4/formal/Rudin.lean#exercise_5_7", ""),  # DifferentiableAt
    ("corpus", "rahul3613/ProofNet-lean4/formal/Rudin.lean#exercise_5_5", ""),  # Differentiable
    ("corpus", "proofnet/Dummit_Foote_exercise_4_4_6a", ""),  # Subgroup.Characteristic
    ("corpus", "frenzymath/FATE-M/FATE-M.json.lean#Subgroup.centralizer_eq", ""),  # Subgroup.centralizer
    ("corpus", "proofnet/Dummit_Foote_exercise_3_4_1", ""),  # IsCyclic
    ("corpus", "rahul3613/ProofNet-lean4/formal/Dummit-Foote.lean#exercise_7_4_27", ""),  # IsNilpotent
    ("corpus", "rahul3613/ProofNet-lean4/formal/Artin.lean#exercise_10_1_13", ""),
    ("corpus", "proofnet/Dummit_Foote_exercise_4_5_1a", ""),  # IsPGroup
    ("dev_pairs.jsonl", "putnambench/putnam_2005_a3@fa18e6e..7b4dc95", "a"),  # Polynomial.degree, eval
    ("extra_pairs.jsonl", "putnambench-extra/putnam_2001_a3@12c3379..97f9746", "a"),  # Polynomial.C, coeff
    ("extra_pairs.jsonl", "putnambench-extra/putnam_2021_a6@d740731..bc4f5d7", "a"),  # degree > 0: WithBot.zero
    ("precision_pairs.jsonl", "prec/dot_notation/04-same", "a"),  # Polynomial.natDegree
    ("precision_pairs.jsonl", "prec/dot_notation/01-same", "a"),  # Nat.sqrt
    ("dev_pairs.jsonl", "putnambench/putnam_1994_b5@12c3379..97f9746", "a"),  # `f^[k]`: Nat.iterate
    ("harmonic_pairs.jsonl", "minif2f-harmonic/amc12b_2020_p6", "b"),  # IsSquare
    ("precision_pairs.jsonl", "prec/answer/09-same", "a"),  # Real.arctan
    ("precision_pairs.jsonl", "prec/notation_fold/15-same", "a"),  # `∑'`: tsum, SummationFilter.unconditional
    ("dev_pairs.jsonl", "proofnet/Pugh/exercise_3_63b:sharp-vs-verified", "b"),  # Summable
    ("precision_pairs.jsonl", "prec/definition/05-same", "a"),  # `⋃ i, U i`, `⋃ i ∈ t, U i`: Set.iUnion
    ("precision_pairs.jsonl", "prec/definition/03-same", "a"),  # `⋂ i : I, T i`: Set.iInter
    ("corpus", "proofnet/Munkres_exercise_13_5a", ""),  # Set.sInter
    ("dev_pairs.jsonl", "putnambench/putnam_1988_b5@12c3379..97f9746", "a"),  # Matrix.rank over ℝ: toCommSemiring
    ("dev_pairs.jsonl", "putnambench/putnam_1992_b6@12c3379..97f9746", "a"),  # Matrix * - 1, Set.encard, ENat
    ("dev_pairs.jsonl", "putnambench/putnam_2014_b3@12c3379..97f9746", "a"),  # Matrix (Fin m) (Fin n) ℚ
    ("dev_pairs.jsonl", "putnambench/putnam_1963_b3@12c3379..97f9746", "a"),  # ContDiff ℝ 1: WithTop.one
    ("dev_pairs.jsonl", "proofnet/Rudin/exercise_5_6:lean4-vs-sharp", "a"),  # MonotoneOn
    ("dev_pairs.jsonl", "proofnet/Rudin/exercise_5_2:sharp-vs-verified", "b"),  # StrictMonoOn
    ("corpus", "leanprover-community/mathlib4/Mathlib/Analysis/SpecialFunctions/Log/Basic.lean#strictAntiOn_log", ""),
    ("corpus", "leanprover-community/mathlib4/Mathlib/Data/Finset/Card.lean#card_image_of_injOn", ""),  # Set.InjOn
    ("corpus", "rahul3613/ProofNet-lean4/formal/Rudin.lean#exercise_4_21a", ""),  # Disjoint on sets
    ("precision_pairs.jsonl", "prec/relation/02", "b"),  # `A ⊂ B` on sets: Set.instHasSSubset
]

# (claimed equivalence, its mutation partner, context): the first must be Lean-equal to the reference, the second not
CLAIMS = [
    # Mathlib/Algebra/Group/Equiv/Defs.lean: `G ≃* H` is `MulEquiv G H`, applied through its coercion
    ("theorem t (G H : Type) [Group G] [Group H] : Nonempty (G ≃* H)",
     "theorem t (G H : Type) [Group G] [Group H] : Nonempty (MulEquiv G H)",
     "theorem t (G H : Type) [Group G] [Group H] : Nonempty (MulEquiv H G)", ""),
    # Mathlib/Data/Set/CoeSort.lean: a set used as a type is `Set.Elem s` (`CoeSort (Set α) (Type u)`)
    ("theorem t (s r : Set ℕ) (h : Fintype s) : Nonempty s",
     "theorem t (s r : Set ℕ) (h : Fintype s) : Nonempty (Set.Elem s)",
     "theorem t (s r : Set ℕ) (h : Fintype s) : Nonempty r", ""),
    # Mathlib/Topology/Connected/Basic.lean: `IsConnected s` is `s.Nonempty ∧ IsPreconnected s`
    ("theorem t {X : Type} [TopologicalSpace X] (s : Set X) : IsConnected s",
     "theorem t {X : Type} [TopologicalSpace X] (s : Set X) : s.Nonempty ∧ IsPreconnected s",
     "theorem t {X : Type} [TopologicalSpace X] (s : Set X) : IsPreconnected s", ""),
    # Mathlib/Topology/Defs/Basic.lean: `Dense s` is `∀ x, x ∈ closure s`
    ("theorem t {X : Type} [TopologicalSpace X] (s : Set X) : Dense s",
     "theorem t {X : Type} [TopologicalSpace X] (s : Set X) : ∀ x, x ∈ closure s",
     "theorem t {X : Type} [TopologicalSpace X] (s : Set X) : ∀ x, x ∈ interior s", ""),
    # Mathlib/Algebra/GroupWithZero/Basic.lean: `IsNilpotent x` is `∃ n : ℕ, x ^ n = 0`
    ("theorem t {R : Type} [CommRing R] (x : R) (hx : IsNilpotent x) : IsUnit (1 + x)",
     "theorem t {R : Type} [CommRing R] (x : R) (hx : ∃ n : ℕ, x ^ n = 0) : IsUnit (1 + x)",
     "theorem t {R : Type} [CommRing R] (x : R) (hx : ∃ n : ℕ, x ^ n = 1) : IsUnit (1 + x)", ""),
    # Mathlib/GroupTheory/PGroup.lean: `IsPGroup p G` is `∀ g : G, ∃ k : ℕ, g ^ p ^ k = 1`
    ("theorem t {G : Type} [Group G] (p : ℕ) (h : IsPGroup p G) : True",
     "theorem t {G : Type} [Group G] (p : ℕ) (h : ∀ g : G, ∃ k : ℕ, g ^ p ^ k = 1) : True",
     "theorem t {G : Type} [Group G] (p : ℕ) (h : ∀ g : G, ∃ k : ℕ, g ^ k = 1) : True", ""),
    # Mathlib/Algebra/Group/Even.lean: `IsSquare a` is `∃ r, a = r * r`
    ("theorem t (n : ℕ) : IsSquare n", "theorem t (n : ℕ) : ∃ r, n = r * r", "theorem t (n : ℕ) : ∃ r, n = r + r",
     ""),
    # src/Init/Prelude.lean `export Bool (false true)`, src/Init/Coe.lean `boolToProp`: `false` in Prop is
    # `false = true`, which is not `False`
    ("theorem t (p : Prop) : p → false", "theorem t (p : Prop) : p → Bool.false = Bool.true",
     "theorem t (p : Prop) : p → False", ""),
    # src/Init/Prelude.lean `export Max (max)`
    ("theorem t (a b : ℝ) : max a b ≥ a", "theorem t (a b : ℝ) : Max.max a b ≥ a", "theorem t (a b : ℝ) : min a b ≥ a",
     ""),
    # Mathlib/Order/TypeTags.lean: `↑n : WithBot ℕ` is `WithBot.some n`; Mathlib/Algebra/Order/Monoid/Unbundled/
    # WithTop.lean: `0 : WithBot ℕ` is `↑0`
    ("theorem t (p : Polynomial ℤ) (n : ℕ) (h : p.degree = n) : True",
     "theorem t (p : Polynomial ℤ) (n : ℕ) (h : Polynomial.degree p = WithBot.some n) : True",
     "theorem t (p : Polynomial ℤ) (n : ℕ) (h : Polynomial.degree p = WithBot.some (n + 1)) : True", ""),
    # Mathlib/Order/SetNotation.lean: `⋃ i, s i` is `iSup s = sSup (range s)`, Set's `sSup S = {a | ∃ t ∈ S, a ∈ t}`
    # (`∃ i, x ∈ s i` is `Set.mem_iUnion`, a theorem: not the same term); `⋃ i ∈ t, s i` is `⋃ i, ⋃ (_ : i ∈ t), s i`
    ("theorem t (U : ℕ → Set ℝ) (x : ℝ) : x ∈ ⋃ i, U i",
     "theorem t (U : ℕ → Set ℝ) (x : ℝ) : ∃ s, (∃ i, U i = s) ∧ x ∈ s",
     "theorem t (U : ℕ → Set ℝ) (x : ℝ) : ∃ i, x ∈ U i", ""),
    ("theorem t (U : ℕ → Set ℝ) (s : Finset ℕ) (x : ℝ) : x ∈ ⋃ i ∈ s, U i",
     "theorem t (U : ℕ → Set ℝ) (s : Finset ℕ) (x : ℝ) : x ∈ ⋃ i, ⋃ (_ : i ∈ s), U i",
     "theorem t (U : ℕ → Set ℝ) (s : Finset ℕ) (x : ℝ) : x ∈ ⋃ i, U i", ""),
    ("theorem t (U : ℕ → Set ℝ) (x : ℝ) : x ∈ ⋂ i, U i",
     "theorem t (U : ℕ → Set ℝ) (x : ℝ) : ∀ s, (∃ i, U i = s) → x ∈ s",
     "theorem t (U : ℕ → Set ℝ) (x : ℝ) : ∃ s, (∃ i, U i = s) ∧ x ∈ s", ""),
    # Mathlib/Topology/Algebra/InfiniteSum/Defs.lean: `∑' n, f n` is `tsum (fun n => f n) (unconditional _)`, and
    # `Summable f` takes the same filter by default
    ("theorem t (f : ℕ → ℝ) : ∑' n : ℕ, f n = 2", "theorem t (f : ℕ → ℝ) : tsum f = 2",
     "theorem t (f : ℕ → ℝ) : ∑' n : ℕ, f (n + 1) = 2", ""),
    ("theorem t (f : ℕ → ℝ) : Summable f", "theorem t (f : ℕ → ℝ) : Summable f (SummationFilter.unconditional ℕ)",
     "theorem t (f : ℕ → ℝ) : Summable (fun n => f (n + 1))", ""),
    # src/Init/Core.lean: `(a, b, c)` is `(a, (b, c))`
    ("theorem t (p q r : ℤ) : (p, q, r) = (2, 4, 8)", "theorem t (p q r : ℤ) : (p, (q, r)) = (2, (4, 8))",
     "theorem t (p q r : ℤ) : (p, q, r) = (2, 8, 4)", ""),
    # `↑e` as the argument of a variable with a written type: elaborated against the known parameter type
    # (src/Lean/Elab/BuiltinNotation.lean `elabCoe`), the cast of the compound `n - 1`, not `↑n - 1`
    ("theorem t (f : ℤ → ℤ) (h : ∀ n : ℕ, f ↑(n - 1) = 0) : f (-1) = 0",
     "theorem t (f : ℤ → ℤ) (h : ∀ n : ℕ, f ((n - 1 : ℕ) : ℤ) = 0) : f (-1) = 0",
     "theorem t (f : ℤ → ℤ) (h : ∀ n : ℕ, f (↑n - 1) = 0) : f (-1) = 0", ""),
    # `↑2` in an operator tree: the numeral at the tree's type (`elabCoe` unifies the literal's type with it)
    ("theorem t (S : Finset ℝ) : ↑2 ≤ ∑ k ∈ S, k", "theorem t (S : Finset ℝ) : (2 : ℝ) ≤ ∑ k ∈ S, k",
     "theorem t (S : Finset ℝ) : (3 : ℝ) ≤ ∑ k ∈ S, k", ""),
    # outside `open Real`, `π` is an identifier (here a variable)
    ("theorem t (π : ℝ) (h : π = Real.pi) : π > 3", "theorem t (x : ℝ) (h : x = Real.pi) : x > 3",
     "theorem t (x : ℝ) (h : x = Real.pi) : Real.pi > 3", ""),
    # Mathlib/Order/Monotone/Defs.lean, Mathlib/Data/Set/Operations.lean: the `…On` predicates unfold to their bodies
    ("theorem t (f : ℝ → ℝ) (s : Set ℝ) : MonotoneOn f s",
     "theorem t (f : ℝ → ℝ) (s : Set ℝ) : ∀ a ∈ s, ∀ b ∈ s, a ≤ b → f a ≤ f b",
     "theorem t (f : ℝ → ℝ) (s : Set ℝ) : ∀ a ∈ s, ∀ b ∈ s, a ≤ b → f b ≤ f a", ""),
    ("theorem t (f : ℝ → ℝ) (s : Set ℝ) : StrictMonoOn f s",
     "theorem t (f : ℝ → ℝ) (s : Set ℝ) : ∀ a ∈ s, ∀ b ∈ s, a < b → f a < f b",
     "theorem t (f : ℝ → ℝ) (s : Set ℝ) : ∀ a ∈ s, ∀ b ∈ s, a ≤ b → f a < f b", ""),
    ("theorem t (f : ℝ → ℝ) (s : Set ℝ) : StrictAntiOn f s",
     "theorem t (f : ℝ → ℝ) (s : Set ℝ) : ∀ a ∈ s, ∀ b ∈ s, a < b → f b < f a",
     "theorem t (f : ℝ → ℝ) (s : Set ℝ) : ∀ a ∈ s, ∀ b ∈ s, a < b → f a < f b", ""),
    ("theorem t (f : ℕ → ℕ) (s : Set ℕ) : Set.InjOn f s",
     "theorem t (f : ℕ → ℕ) (s : Set ℕ) : ∀ x ∈ s, ∀ y ∈ s, f x = f y → x = y",
     "theorem t (f : ℕ → ℕ) (s : Set ℕ) : ∀ x ∈ s, ∀ y, f x = f y → x = y", ""),
    # Mathlib/Data/Set/Basic.lean: `s ⊂ t` is `s < t`, Set's `lt` is `s ⊆ t ∧ ¬t ⊆ s` (`Set.ssubset_def`, rfl);
    # Mathlib/Order/Disjoint.lean: `Disjoint s t` is `∀ ⦃x⦄, x ≤ s → x ≤ t → x ≤ ⊥`, Set's `⊥` is `∅`
    ("theorem t (s u : Set ℕ) : s ⊂ u", "theorem t (s u : Set ℕ) : s ⊆ u ∧ ¬u ⊆ s",
     "theorem t (s u : Set ℕ) : s ⊆ u ∧ u ⊆ s", ""),
    ("theorem t (s u : Set ℕ) : Disjoint s u", "theorem t (s u : Set ℕ) : ∀ x : Set ℕ, x ⊆ s → x ⊆ u → x ⊆ ∅",
     "theorem t (s u : Set ℕ) : ∀ x : Set ℕ, x ⊆ s → x ⊆ u → x = ∅", ""),
    # Mathlib/LinearAlgebra/Matrix/Defs.lean: `Matrix m n α` is `m → n → α`
    ("theorem t (A : Matrix (Fin 2) (Fin 2) ℝ) : A 0 1 = 1", "theorem t (A : Fin 2 → Fin 2 → ℝ) : A 0 1 = 1",
     "theorem t (A : Matrix (Fin 2) (Fin 2) ℝ) : A 1 0 = 1", ""),
    # Mathlib/Data/ENat/Defs.lean: `ℕ∞` is `ENat`; a numeral there is the semiring's
    ("theorem t (s : Set ℕ) : s.encard ≤ 3", "theorem t (s : Set ℕ) : Set.encard s ≤ (3 : ENat)",
     "theorem t (s : Set ℕ) : Set.encard s < (3 : ℕ∞)", ""),
    # Mathlib/Algebra/Polynomial/Basic.lean: `R[X]` is `Polynomial R` under `open Polynomial`
    ("theorem t : Irreducible (X ^ 3 - 3 * X - 1 : ℚ[X])", "theorem t : Irreducible (X ^ 3 - 3 * X - 1 : Polynomial ℚ)",
     "theorem t : Irreducible (X ^ 3 - 3 * X + 1 : ℚ[X])", "open Polynomial"),
    ("theorem t (p : Polynomial ℤ) (h : p.degree > 0) : True",
     "theorem t (p : Polynomial ℤ) (h : p.degree > WithBot.some 0) : True",
     "theorem t (p : Polynomial ℤ) (h : p.degree > WithBot.some 1) : True", ""),
]


def _rows() -> dict[tuple[str, str, str], tuple[str, str]]:
    rows = {}
    for path in [DEV, *sorted((FIXTURES / "corpus").glob("*.jsonl")), *sorted((FIXTURES / "pairs").glob("*.jsonl")),
                 FIXTURES / "precision" / "precision_pairs.jsonl"]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            if "statement" in r:
                rows[("corpus", r["id"], "")] = (r["statement"], r.get("context") or "")
            else:
                for side in "ab":
                    rows[(path.name, r["id"], side)] = (r[side], r.get(f"{side}_context") or "")
    return rows


_IDENT = re.compile(r"[A-Za-z_][\w.'₀-₉]*")


@pytest.mark.skipif(not DEV.is_file(), reason="needs ../shared/corpora/dev.jsonl")
def test_every_added_declaration_is_used_by_a_real_statement(kernel_lean_exe):
    rows = _rows()
    blocks, spans, line = [], [], HEADER.count("\n") + 1
    used: set[str] = set()
    for i, key in enumerate(USES):
        statement, context = rows[key]
        stmt = lean_statement(parse_declaration(statement), context)
        used.update(_IDENT.findall("\n".join(stmt.context.commands)))  # the context's definitions, elaborated
        text, full = scoped_block(f"U{i}", stmt, stmt.axiom_command)
        text += f"\nset_option pp.rawOnError true in\nset_option pp.explicit true in\n#check @{full}"
        blocks.append((i, text))
        spans.append((first := line, first + text.count("\n")))
        line += text.count("\n") + 1
    result, errors = run_blocks(blocks, kernel_lean_exe)
    assert {USES[i]: e.splitlines()[0] for i, e in errors.items()} == {}
    for diag in result.diagnostics:
        if any(first <= diag.pos.line <= last for first, last in spans):
            used.update(_IDENT.findall(diag.message))
    wanted = [d.name for d in declarations() if d.module == "PyshadowEnv.Topology" or d.name in ADDED]
    assert set(ADDED) <= set(wanted), set(ADDED) - set(wanted)
    bodies, covered = _bodies(), {n for n in wanted if _mentions(used, n)}
    changed = True
    while changed:
        changed = False
        for name in wanted:
            if name not in covered and any(_mentions(bodies.get(c, set()), name) for c in covered):
                covered.add(name)
                changed = True
    assert ", ".join(sorted(set(wanted) - covered)) == ""


def test_each_definition_gives_its_other_spelling_and_not_its_mutation(kernel_lean_exe):
    assert_definitional_claims(CLAIMS, kernel_lean_exe)


def test_a_variable_update_changes_the_earlier_binder_in_place(kernel_lean_exe):
    # src/Lean/Elab/BuiltinCommand.lean (`replaceBinderAnnotation`): `variable (a)` makes the latest `a` explicit,
    # splitting its group; `b` keeps its bracket and place
    context = "variable {a b : ℕ} (c : ℤ)\nvariable (a)"
    stmt = lean_statement(parse_declaration("theorem t (h : a ≤ b) : a + 1 ≤ b + 1"), context)
    assert stmt.binders[:3] == ("(a : Nat)", "{b : Nat}", "(h : binrel% LE.le a b)")
    [result] = elaborate([StatementInput("t", "theorem t (h : a ≤ b) : a + 1 ≤ b + 1", context)], kernel_lean_exe)
    assert result.elaborated, result.reason
    # an update to the bracket the binder has is Lean's error; an update of no earlier binder is not guessed at
    for bad in ("variable {a b : ℕ}\nvariable {a}", "variable {a : ℕ}\nvariable (b)"):
        with pytest.raises(Untranslatable):
            lean_statement(parse_declaration("theorem t (h : a ≤ b) : a + 1 ≤ b + 1"), bad)
