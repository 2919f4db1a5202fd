"""Differential tests for the coverage of the signature environment: real corpus statements, elaborated by Lean.

- Every notation the translator learnt for coverage is exercised on a real statement (``../shared/corpora/dev.jsonl``
  or ``tests/fixtures/corpus/``) that Lean elaborates, with a mutation partner — the nearest changed statement,
  which Lean must elaborate to a *different* proposition (``definitional_equivalence`` is not ``equal``) — and,
  where a second spelling exists, the claimed equal spelling.
- Every declaration of the environment's algebra, group, ring and number-theory modules (and the ones added to
  the older modules with them) occurs in the term Lean elaborates for one of a fixed list of real statements (or in
  the context definitions elaborated with it), or in the Lean text of a declaration that does (a parent class, an
  instance's operation).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pyshadow.elab.elaborate import HEADER, StatementInput, run_blocks
from pyshadow.elab.environment import declarations, module_path
from pyshadow.elab.equivalence import definitional_equivalence
from pyshadow.elab.statements import lean_statement, scoped_block
from pyshadow.syntax.parser import parse_declaration

pytestmark = pytest.mark.kernel
REPO = Path(__file__).resolve().parents[1]
DEV = REPO.parent / "shared" / "corpora" / "dev.jsonl"
FIXTURES = REPO / "tests" / "fixtures" / "corpus"
needs_dev = pytest.mark.skipif(not DEV.is_file(), reason="needs ../shared/corpora/dev.jsonl")


def _corpus() -> dict[str, dict]:
    rows = {}
    for path in (DEV, FIXTURES / "extra.jsonl", FIXTURES / "mathlib_sample.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows[row["id"]] = row
    return rows


def _input(row: dict, statement: str | None = None) -> StatementInput:
    return StatementInput(row["id"], statement or row["statement"], row.get("context") or "")


# (notation, real statement id, the text in it to change, the change): the mutation partner
NOTATIONS = [
    ("↑", "miniF2F mathd_numbertheory_301, prover output (index file 61820321511)#mathd_numbertheory_301",
     "7 * ↑j + 3", "7 * ↑(j + 3)"),
    ("∅", "leanprover-community/mathlib4/Mathlib/Topology/Basic.lean#interior_empty", "= ∅", "= Set.univ"),
    ("⊤", "proofnet/Dummit_Foote_exercise_2_4_4", "= ⊤", "= ⊥"),
    ("⊥", "proofnet/Dummit_Foote_exercise_3_4_11", "H ≠ ⊥", "H ≠ ⊤"),
    ("×", "trishullab/PutnamBench/lean4/src/putnam_2018_a1.lean#putnam_2018_a1_solution", "ℤ × ℤ", "ℤ × ℕ"),
    ("•", "rahul3613/ProofNet-lean4/formal/Axler.lean#exercise_1_4", "a • v = 0", "a • v = v"),
    ("''", "minif2f/amc12a_2003_p25", "f '' { x | 0 ≤ f x }", "f ⁻¹' { x | 0 ≤ f x }"),
    ("⁻¹'", "minif2f/amc12a_2021_p22", "f⁻¹' {0}", "f⁻¹' {1}"),
    ("⁻¹", "frenzymath/FATE-M/FATE-M.json.lean#relations_of_relations", "b * a⁻¹)", "b * a)"),
    ("ᶜ", "leanprover-community/mathlib4/Mathlib/Topology/Basic.lean#isOpen_compl_iff", "IsOpen sᶜ", "IsOpen s"),
    ("∃!", "minif2f/imo_1985_p6", "∃! a,", "∃ a,"),
    ("(·", "minif2f/aime_1996_p5", "(· ≠ ·)", "(· = ·)"),
    ("[", "minif2f/amc12a_2003_p5", "[0,1,C,M,A]", "[0,1,M,C,A]"),
    ("𝓝", "proofnet/Pugh_exercise_2_12a", "atTop (𝓝 a))", "atTop (𝓝 (a + 1)))"),
    ("|·|", "proofnet/Rudin_exercise_3_1a", "=> |f n|)", "=> f n)"),  # `_root_.abs` under `open Complex`
]

# (real statement id, the same statement in another spelling Lean must elaborate to the same proposition)
SAME = [
    ("miniF2F mathd_numbertheory_301, prover output (index file 61820321511)#mathd_numbertheory_301",
     "theorem mathd_numbertheory_301 (j : ℕ) (h₀ : 0 < j) : 3 * (7 * (j : ℕ) + 3) % 7 = 2"),
    ("minif2f/imo_1985_p6",  # Mathlib/Logic/ExistsUnique.lean: `ExistsUnique p = ∃ x, p x ∧ ∀ y, p y → y = x`
     "theorem imo_1985_p6 (f : ℕ → NNReal → ℝ) (h₀ : ∀ x, f 1 x = x)"
     " (h₁ : ∀ x n, f (n + 1) x = f n x * (f n x + 1 / n)) :"
     " ∃ a, (∀ n, 0 < n → 0 < f n a ∧ f n a < f (n + 1) a ∧ f (n + 1) a < 1) ∧"
     " ∀ y, (∀ n, 0 < n → 0 < f n y ∧ f n y < f (n + 1) y ∧ f (n + 1) y < 1) → y = a"),
    ("minif2f/amc12a_2021_p22", None),  # filled below: `f⁻¹' {0}` as `{x | f x ∈ {0}}`
]


def _same_spellings(rows):
    out = []
    for key, text in SAME:
        if text is None:
            text = rows[key]["statement"].replace("f⁻¹' {0}", "{x | f x ∈ ({0} : Set ℝ)}")
        out.append((key, text))
    return out


@needs_dev
def test_each_new_notation_elaborates_on_a_real_statement_and_its_mutation_differs(kernel_lean_exe):
    rows = _corpus()
    items = []
    for notation, key, old, new in NOTATIONS:
        row = rows[key]
        assert old in row["statement"], (notation, old)
        items.append((notation, _input(row), _input(row, row["statement"].replace(old, new, 1))))
    results = definitional_equivalence(items, kernel_lean_exe)
    verdicts = {notation: (r.status, r.reason) for (notation, _, _), r in zip(items, results)}
    # both sides elaborate (the kernel is asked) and they are not the same proposition
    assert {n: v for n, v in verdicts.items() if v[0] != "not_shown"} == {}


@needs_dev
def test_the_other_spelling_of_a_real_statement_is_the_same_proposition(kernel_lean_exe):
    rows = _corpus()
    items = [(key, _input(rows[key]), _input(rows[key], text)) for key, text in _same_spellings(rows)]
    results = definitional_equivalence(items, kernel_lean_exe)
    assert [(k, r.status, r.reason) for (k, _, _), r in zip(items, results) if r.status != "equal"] == []


# Real statements whose elaborated terms use the declarations below (found by elaborating the corpora once)
USES = [
    "proofnet/Ireland_Rosen_exercise_5_37",  # Fact, legendreSym
    "rahul3613/ProofNet-lean4/formal/Dummit-Foote.lean#exercise_9_4_2c", "proofnet/Dummit_Foote_exercise_3_4_11",
    "AIME 2025 II P4 (index file 42308005907)#aime_2025ii_p4", "proofnet/Artin_exercise_10_7_10",
    "frenzymath/FATE-M/FATE-M.json.lean#isPrime_singleton", "minif2f/mathd_numbertheory_233",
    "leanprover-community/mathlib4/Mathlib/Logic/ExistsUnique.lean#List.decidableBExU",
    "rahul3613/ProofNet-lean4/formal/Dummit-Foote.lean#exercise_1_3_8", "proofnet/Dummit_Foote_exercise_2_4_4",
    "proofnet/Putnam_exercise_2020_b5", "leanprover-community/mathlib4/Mathlib/Topology/Basic.lean#isOpen_compl_iff",
    "rahul3613/ProofNet-lean4/formal/Dummit-Foote.lean#exercise_1_1_17",
    "rahul3613/ProofNet-lean4/formal/Dummit-Foote.lean#exercise_3_4_4",
    "minif2f/algebra_amgm_sum1toneqn_prod1tonleq1",
    "trishullab/PutnamBench/lean4/src/putnam_2012_a2.lean#putnam_2012_a2",
    "leanprover-community/mathlib4/Mathlib/Logic/ExistsUnique.lean#existsUnique_const",
    "leanprover-community/mathlib4/Mathlib/Logic/Basic.lean#xor_false",
    "minif2f/algebra_2complexrootspoly_xsqp49eqxp7itxpn7i",
    "leanprover-community/mathlib4/Mathlib/Analysis/SpecialFunctions/Log/Basic.lean#log_inv",
    "proofnet/Dummit_Foote_exercise_1_1_5", "rahul3613/ProofNet-lean4/formal/Dummit-Foote.lean#exercise_1_1_29",
    "rahul3613/ProofNet-lean4/formal/Dummit-Foote.lean#exercise_4_2_8",
    "proofnet/Dummit_Foote_exercise_4_2_14", "proofnet/Dummit_Foote_exercise_8_1_12", "minif2f/amc12a_2003_p5",
    "leanprover-community/mathlib4/Mathlib/Topology/Basic.lean#mem_interior", "proofnet/Artin_exercise_2_4_19",
    "roozbeh-yz/miniF2F_v2/datasets/miniF2F_v2c.jsonl.lean#mathd_algebra_209", "minif2f/aime_1996_p5",
    "rahul3613/ProofNet-lean4/formal/Axler.lean#exercise_1_4", "proofnet/Artin_exercise_6_8_1",
    "minif2f/amc12a_2021_p22", "trishullab/PutnamBench/lean4/src/putnam_2018_a1.lean#putnam_2018_a1_solution",
    "minif2f/amc12a_2020_p4", "minif2f/amc12a_2020_p10", "minif2f/imo_1985_p6",
    "proofnet/Munkres_exercise_13_4b1", "rahul3613/ProofNet-lean4/formal/Rudin.lean#exercise_4_3",
]
COVERED_MODULES = ("PyshadowEnv.Logic", "PyshadowEnv.Algebra", "PyshadowEnv.GroupTheory", "PyshadowEnv.Rings",
                   "PyshadowEnv.NumberTheory")
# declared in the older modules together with the ones above
ADDED_ELSEWHERE = ("Compl", "Set.compl", "List", "List.Mem", "List.instMembership", "List.Pairwise",
                   "List.sum", "IsOpen", "IsClosed", "interior", "closure", "Dist", "PseudoMetricSpace", "MetricSpace",
                   "Set.sUnion")
_IDENT = re.compile(r"[A-Za-z_][\w.'₀-₉]*")
_DECL = re.compile(r"^(?:@\[[^\]]*\]\s*)?(?:protected\s+|noncomputable\s+)*"
                   r"(?:axiom|def|class|structure|inductive|instance|abbrev)\s+"
                   r"(?:\(priority := \d+\)\s+)?([^\s:({\[⦃]+)")


def _bodies() -> dict[str, set[str]]:
    """Each declaration's Lean text (its line and the indented lines after it), as identifiers."""
    by_module: dict[str, list[str]] = {}
    for d in declarations():
        by_module.setdefault(d.module, []).append(d.name)
    bodies: dict[str, set[str]] = {}
    for module, names in by_module.items():
        current = None
        for line in module_path(module).read_text(encoding="utf-8").splitlines():
            if line.startswith(("--", "attribute", "namespace", "end", "variable", "section")) or not line.strip():
                current = None
                continue
            if not line[:1].isspace() and (m := _DECL.match(line)):
                current = next((n for n in names if n == m.group(1) or n.endswith("." + m.group(1))), None)
            if current is not None:
                bodies.setdefault(current, set()).update(_IDENT.findall(line))
    return bodies


def _mentions(tokens: set[str], name: str) -> bool:
    short = name.rsplit(".", 1)[-1]
    return any(t == name or t.startswith(name + ".") or t == short or t.endswith("." + short) for t in tokens)


@needs_dev
def test_every_new_declaration_is_used_by_a_real_statement(kernel_lean_exe):
    rows = _corpus()
    blocks, spans, line = [], [], HEADER.count("\n") + 1  # the first line after run_blocks' header
    printed: set[str] = set()
    for i, key in enumerate(USES):
        stmt = lean_statement(parse_declaration(rows[key]["statement"]), rows[key].get("context") or "")
        text, full = scoped_block(f"U{i}", stmt, stmt.axiom_command)
        text += f"\nset_option pp.rawOnError true in\nset_option pp.explicit true in\n#check @{full}"
        blocks.append((i, text))
        printed.update(_IDENT.findall("\n".join(stmt.context.commands)))  # the context's definitions, elaborated
        spans.append((i, line, line + text.count("\n")))
        line += text.count("\n") + 1
    result, errors = run_blocks(blocks, kernel_lean_exe)
    assert {USES[i]: e.splitlines()[0] for i, e in errors.items()} == {}
    used = set(printed)
    for diag in result.diagnostics:
        if any(first <= diag.pos.line <= last for _, first, last in spans):
            used.update(_IDENT.findall(diag.message))
    from test_elab_declarations import ADDED  # later additions: tested on their own statements there

    wanted = [d.name for d in declarations()
              if (d.module in COVERED_MODULES or d.name in ADDED_ELSEWHERE) and d.name not in ADDED]
    assert set(ADDED_ELSEWHERE) <= set(wanted)
    bodies, covered = _bodies(), {n for n in wanted if _mentions(used, n)}
    changed = True
    while changed:  # a declaration the Lean text of a used one names is used when that one is
        changed = False
        for name in wanted:
            if name not in covered and any(_mentions(bodies.get(c, set()), name) for c in covered):
                covered.add(name)
                changed = True
    assert ", ".join(sorted(set(wanted) - covered)) == ""

