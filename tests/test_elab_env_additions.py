"""The declarations added so that Lean checks more labelled pairs, each elaborated on a real statement by Lean.

- Every declaration in ``USES`` is found in the term Lean elaborates (``#check`` with ``pp.explicit``) for the real
  statement given beside it: a row of the labelled pair fixtures (``tests/fixtures/pairs``,
  ``tests/fixtures/precision``) or, where the row as a whole is not printed for Lean (a `#{…}` cardinality, a
  postfix `ˣ`), the row's own hypothesis or definition, quoted verbatim as a statement of its own.
- A declaration that is a definition or a coercion (so that two spellings are one proposition) has a claimed equal
  spelling and a mutation partner, the nearest changed statement, which Lean must keep apart (``CLAIMS``).
"""

from __future__ import annotations

import pytest

from lean_claims import assert_definitional_claims

from pyshadow.elab.elaborate import HEADER, run_blocks
from pyshadow.elab.environment import declarations
from pyshadow.elab.statements import lean_statement, scoped_block
from pyshadow.syntax.parser import parse_declaration
from test_elab_declarations import _IDENT, _rows

pytestmark = pytest.mark.kernel

# Hypotheses and definitions of rows that are not printed whole, quoted verbatim (statement, context).
# olympiad25_pairs.jsonl `olympiad25/putnam_2025_a5:putnambench-vs-fuzzy` side a: the condition its context's `f`
# counts permutations by, with `s : Fin n → ℤ` for the row's `Fin n → ℤˣ` (the postfix `ˣ` is not printed).
A5_F = ("theorem t (n : ℕ) (s : Fin n → ℤ) (σ : Equiv.Perm (Fin (n + 1))) :\n"
        "    ∀ i : Fin n, 0 < (s i : ℤ) * ((σ i.succ : ℤ) - (σ i.castSucc : ℤ))", "open Finset")
# olympiad25_pairs.jsonl `olympiad25/putnam_2025_b4:putnambench-vs-fuzzy` side a: its hypothesis `hb`, verbatim.
# `A (Fin.succ i) j` with `i : Fin (m + 1)` and `A : Matrix (Fin (m + 2)) …` type-checks only because `m + 1 + 1`
# is `m + 2` by `Nat.add`'s defining equations (the kernel rejected it while `Nat.add` was an axiom)
B4_HB = ("theorem t (m : ℕ) (A : Matrix (Fin (m + 2)) (Fin (m + 2)) ℕ) :\n"
         "    ∀ (i : Fin (m + 1)) (j : Fin (m + 2)),\n"
         "      A (Fin.succ i) j = A (Fin.castSucc i) j ∨\n"
         "      A (Fin.succ i) j = A (Fin.castSucc i) j + 1", "open BigOperators Finset Matrix")
# olympiad25_pairs.jsonl `olympiad25/putnam_2025_b5:putnambench-vs-fuzzy` side a: its context's `modInv`, and the
# comparison its `descentCount` counts (the count itself is a `#{…}`)
B5_MODINV = ("theorem t (p k : ℕ) : modInv p (k + 1) < modInv p k",
             "open Finset BigOperators\ndef modInv (p : ℕ) (k : ℕ) : ℕ := ZMod.val ((k : ZMod p)⁻¹)")

# declaration -> (where the real statement is: (pair file, pair id, side), or a quoted (statement, context)), the
# identifier the elaborated term shows for it)
USES = {
    # src/Init/Prelude.lean: `≤` on `Fin 2025` (the pair's `LE (Fin 2025)` failed to synthesize before)
    "instLEFin": (("olympiad25_pairs.jsonl", "olympiad25/putnam_2025_a4:putnambench-vs-mikeljl", "a"), "instLEFin"),
    # src/Init/Prelude.lean: `StrictMono a` and `i < j` on `Fin 2011` (tests/fixtures/corpus/extra.jsonl; no pair
    # fixture row that Lean elaborates compares elements of a `Fin n` by `<`)
    "instLTFin": (("corpus", "FormalMATH blue_prove algebra_539177 (FormalMATH_lite.json in jiayiw005/FormalMATH-Bench)"
                   "#algebra_539177", ""), "instLTFin"),
    # src/Init/Prelude.lean: `Nat.add` a definition (its structural recursion written with `Nat.rec`)
    "Nat.add": (B4_HB, "instAddNat"),
    # src/Init/Data/Fin/Basic.lean
    "Fin.succ": (A5_F, "Fin.succ"),
    "Fin.castSucc": (A5_F, "Fin.castSucc"),
    # Mathlib/Data/ZMod/Basic.lean
    "ZMod.val": (B5_MODINV, "ZMod.val"),
    # Mathlib/NumberTheory/Padics/PadicVal/Defs.lean
    "padicValInt": (("olympiad25_pairs.jsonl", "olympiad25/putnam_2025_a6:putnambench-vs-mikeljl", "b"), "padicValInt"),
    # Mathlib/NumberTheory/LSeries/RiemannZeta.lean
    "riemannZeta": (("fresh26_pairs.jsonl", "fresh26/zeta_5_irrational:formalconj-vs-zeta5", "a"), "riemannZeta"),
    # Mathlib/Data/Finset/Defs.lean: `Nonempty S` for `S : Finset (ℤ × ℤ)`; the coercion unfolds to the subtype
    "Finset.instCoeSortType": (("extra_pairs.jsonl", "putnambench-extra/putnam_2013_a6@12c3379..97f9746", "a"),
                               "Subtype"),
    # Mathlib/Order/Interval/Finset/Defs.lean: `∑ i : Set.Icc 0 n, …`
    "Set.instFintypeIcc": (("extra_pairs.jsonl", "putnambench-extra/putnam_2013_a3@cf72fdb..75e315e", "a"),
                           "Set.instFintypeIcc"),
    # Mathlib/Data/Set/Countable.lean: `S.Countable` (protected there and here: `Countable s` under `open Set` is
    # the class `Countable ↥s`, not declared, so dev Munkres/exercise_30_13's `Countable s` is still rejected)
    "Set.Countable": (("precision_pairs.jsonl", "prec/finiteness/05", "a"), "Set.Countable"),
    # Mathlib/Algebra/Order/Floor/Defs.lean: `Nat.floor (x / 10)` with `x : ℕ`
    "instFloorSemiringNat": (("harmonic_pairs.jsonl", "minif2f-harmonic/amc12a_2021_p3", "b"), "instFloorSemiringNat"),
    # Mathlib/Topology/Constructions.lean: `ContinuousOn`/`IsOpen` over `I : Set ℝ` used as a space
    "instTopologicalSpaceSubtype": (("precision_pairs.jsonl", "prec/definition/08-same", "a"),
                                    "instTopologicalSpaceSubtype"),
    # Mathlib/Topology/Constructions.lean: a space `X × Y`
    "instTopologicalSpaceProd": (("dev_pairs.jsonl", "proofnet/Munkres/exercise_23_9:sharp-vs-verified", "a"),
                                 "instTopologicalSpaceProd"),
    # Mathlib/Algebra/Order/Monoid/Unbundled/WithTop.lean: `ContDiff ℝ 2 f`, the numeral in `WithTop ℕ∞`
    "WithTop.natCast": (("model_pairs.jsonl", "proofnetverif-valid/Rudin/exercise_5_15#row29", "b"),
                        "WithTop.natCast"),
}

# (claimed equivalence, its mutation partner, context): the first must be Lean-equal to the reference, the second not
CLAIMS = [
    # src/Init/Prelude.lean: `i < j` on `Fin n` is `i.val < j.val` (`Fin.lt_def`, `Iff.rfl`); `≤` likewise
    ("theorem t (n : ℕ) (i j : Fin n) : i < j", "theorem t (n : ℕ) (i j : Fin n) : (i : ℕ) < (j : ℕ)",
     "theorem t (n : ℕ) (i j : Fin n) : (i : ℕ) ≤ (j : ℕ)", ""),
    ("theorem t (n : ℕ) (i j : Fin n) : i ≤ j", "theorem t (n : ℕ) (i j : Fin n) : i.val ≤ j.val",
     "theorem t (n : ℕ) (i j : Fin n) : j.val ≤ i.val", ""),
    # src/Init/Prelude.lean: `Nat.add`'s equations make `m + 1 + 1` and `m + 2` one type, and `2 + 3` the literal
    # `5`; not commutativity (that takes induction, `Nat.add_comm`)
    ("theorem t (m : ℕ) (x : Fin (m + 1 + 1)) : x = x", "theorem t (m : ℕ) (x : Fin (m + 2)) : x = x",
     "theorem t (m : ℕ) (x : Fin (m + 3)) : x = x", ""),
    ("theorem t (x : Fin (2 + 3)) : x = x", "theorem t (x : Fin 5) : x = x", "theorem t (x : Fin 6) : x = x", ""),
    ("theorem t (m k : ℕ) (x : Fin (m + k)) : x = x", "theorem t (m k : ℕ) (x : Fin (m + k + 0)) : x = x",
     "theorem t (m k : ℕ) (x : Fin (k + m)) : x = x", ""),
    # Mathlib/Data/Finset/Defs.lean: a finset used as a type is the subtype of its members
    ("theorem t (S T : Finset ℤ) : Nonempty S", "theorem t (S T : Finset ℤ) : Nonempty (Subtype fun x => x ∈ S)",
     "theorem t (S T : Finset ℤ) : Nonempty (Subtype fun x => x ∈ T)", ""),
    # Mathlib/Algebra/Order/Monoid/Unbundled/WithTop.lean: `(2 : WithTop ℕ∞)` is `↑(2 : ℕ∞)`
    ("theorem t (f : ℝ → ℝ) : ContDiff ℝ 2 f", "theorem t (f : ℝ → ℝ) : ContDiff ℝ (WithTop.some (2 : ℕ∞)) f",
     "theorem t (f : ℝ → ℝ) : ContDiff ℝ (WithTop.some (3 : ℕ∞)) f", ""),
]


def _statement(rows, where):
    return rows[where] if where[0] == "corpus" or where[0].endswith(".jsonl") else where


def test_every_added_declaration_is_in_the_term_of_a_real_statement(kernel_lean_exe):
    names = {d.name for d in declarations()}
    assert set(USES) <= names, set(USES) - names
    rows = _rows()
    blocks, spans, line = [], [], HEADER.count("\n") + 1  # the first line after run_blocks' header
    context_tokens: dict[int, set[str]] = {}
    for i, (name, (where, _token)) in enumerate(USES.items()):
        statement, context = _statement(rows, where)
        stmt = lean_statement(parse_declaration(statement), context)
        context_tokens[i] = set(_IDENT.findall("\n".join(stmt.context.commands)))  # the context's definitions
        text, full = scoped_block(f"U{i}", stmt, stmt.axiom_command)
        text += f"\nset_option pp.rawOnError true in\nset_option pp.explicit true in\n#check @{full}"
        blocks.append((i, text))
        spans.append((i, line, line + text.count("\n")))
        line += text.count("\n") + 1
    result, errors = run_blocks(blocks, kernel_lean_exe)
    keys = list(USES)
    assert {keys[i]: e.splitlines()[0] for i, e in errors.items()} == {}
    seen: dict[int, set[str]] = {i: set(context_tokens[i]) for i in range(len(keys))}
    for diag in result.diagnostics:
        for i, first, last in spans:
            if first <= diag.pos.line <= last:
                seen[i].update(t.rstrip(".") for t in _IDENT.findall(diag.message))  # `Subtype.{1}`: `Subtype`
    missing = [keys[i] for i in range(len(keys)) if USES[keys[i]][1] not in seen[i]]
    assert missing == []


def test_each_added_definition_gives_its_other_spelling_and_not_its_mutation(kernel_lean_exe):
    assert_definitional_claims(CLAIMS, kernel_lean_exe)
