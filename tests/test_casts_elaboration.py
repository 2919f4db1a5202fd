"""The cast and binder-type readings against Lean's own elaborator: a differential test in prelude mode.

Each case is a reference statement, a spelling pyshadow reads as the same statement, and its mutation partner — the
nearest changed statement (the cast of a compound, the other binder type), which must stay apart. Every statement is
also printed as prelude-mode Lean (``tests/fixtures/elaboration/prelude.lean``: Init's class structure, operations as
axioms; notation as the builtin syntax Init expands it to — src/Init/Notation.lean ``macro_rules | `($x - $y) =>
`(binop% HSub.hSub $x $y)``, ``^`` as ``rightact%``, ``-x`` as ``unop% Neg.neg``, relations as ``binrel%``), and the
kernel-tier Lean says whether two statements are one term: ``theorem c (h : A) : B := h`` is accepted exactly when
they are (all operations are opaque axioms, so only elaboration can make them equal).

The claim tested: pyshadow reads two statements as one (``normalize_declaration`` gives equal declarations) exactly
when Lean elaborates them to one term. Where pyshadow's binder-type reading is deliberately conservative (the first
fixing use and a strong later use disagree, or the first use is one whose type is not known here), the case says so
and the test asserts both halves: Lean elaborates them to one term, pyshadow keeps them apart — never the converse.

``↑e`` is Init syntax (src/Init/Coe.lean ``coeNotation``); it is printed as ``up e``, a reducible coercion whose target
type the surrounding tree fixes, as ``elabCoe`` (src/Lean/Elab/BuiltinNotation.lean) postpones the coercion until the
expected type is known. This matches ``↑e`` when ``e``'s own type is known (every case here); ``↑2`` and ``↑x`` of an
untyped variable are not emulated this way (``elabCoe`` would unify the type) and are not claimed.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from pyshadow.kernel.definitions import normalize_declaration
from pyshadow.syntax import terms as tm
from pyshadow.syntax.parser import parse_declaration

PRELUDE = Path(__file__).parent / "fixtures" / "elaboration" / "prelude.lean"


@dataclass(frozen=True)
class Case:
    reading: str  # which reading it guards
    binders: str  # pyshadow binder text, shared by the three statements
    ref: str
    same: str  # Lean elaborates it to ref's term
    changed: str  # the mutation partner: Lean elaborates it to another term
    conservative: bool = False  # pyshadow keeps `same` apart from `ref` (never a pass); Lean has them one term


CASES = [
    # -- casts (kernel/casts.py) ------------------------------------------------------------------------------------
    Case("cast of a leaf", "(m : ℕ) (k : ℤ)", "k = ↑m - 2", "k = (m : ℤ) - 2", "k = ↑(m - 2)"),
    Case("cast inserted by binrel%", "(m : ℕ) (k : ℤ)", "k = m - 2", "k = ↑m - 2", "k = ((m - 2 : ℕ) : ℤ)"),
    Case("cast of a compound", "(m : ℕ) (k : ℤ)", "k = ↑(m - 2)", "k = ((m - 2 : ℕ) : ℤ)", "k = (m - 2 : ℤ)"),
    Case("ascription of a compound", "(m : ℕ) (k : ℤ)", "k = (m - 2 : ℤ)", "k = ↑m - 2", "k = ↑(m - 2)"),
    Case("cast of a quotient", "(a b : ℕ) (q : ℝ)", "q = ↑a / ↑b", "q = (a : ℝ) / b", "q = ↑(a / b)"),
    Case("cast in a denominator", "(n : ℕ) (s : ℕ → ℝ)", "s n < 1 / ((n : ℝ) + 1)", "s n < 1 / (n + 1)",
         "s n < 1 / ((n + 1 : ℕ) : ℝ)"),
    Case("cast against a domain", "(m : ℕ) (g : ℤ → ℤ)", "g (m - 2) = 0", "g (↑m - 2) = 0", "g ↑(m - 2) = 0"),
    Case("cast without coercion", "(x k : ℤ)", "k = ↑(x - 2)", "k = x - 2", "k = ↑(2 - x)"),
    Case("cast of a power base", "(n : ℕ) (x : ℝ)", "x = ↑n ^ 2", "x = (n : ℝ) ^ 2", "x = ↑(n ^ 2)"),
    Case("cast under negation", "(n : ℕ) (k : ℤ)", "k = -↑n + 1", "k = -(n : ℤ) + 1", "k = -↑(n + 1)"),
    Case("cast of a product", "(a b : ℕ) (k : ℤ)", "k = ↑a * ↑b - 1", "k = a * b - 1", "k = ↑(a * b - 1)"),
    # an ascription that raises the maximum: `(n : ℤ)` is then `Int.cast (Nat.cast n)`, not `Nat.cast n`
    Case("ascription under a higher maximum", "(n : ℕ) (k : ℤ)", "(n : ℤ) + (1000 : ℝ) = k + k",
         "(n : ℤ) + (1000 : ℝ) = ↑k + k", "n + (1000 : ℝ) = k + k"),
    # `abs x : α`: an expected type is assigned to α first and reaches the argument (`(abs x : ℝ)` is `abs ↑x`)
    Case("cast of a polymorphic leaf", "(x : ℤ) (r : ℝ)", "r = ↑(abs x)", "r = abs x", "r = (abs x : ℝ)"),
    Case("polymorphic leaf against a domain", "(x : ℤ) (g : ℝ → ℝ)", "g (abs x) = 0", "g (abs x : ℝ) = 0",
         "g ↑(abs x) = 0"),
    # -- binder types (kernel/binder_order.py) ----------------------------------------------------------------------
    Case("binder typed by an application", "(g : ℝ → ℝ)", "∃ x, g (x + 1) = 0", "∃ x : ℝ, g (x + 1) = 0",
         "∃ x : ℕ, g (x + 1) = 0"),
    Case("leaf before analysis", "(s : ℕ → ℝ)", "∀ n, s n < 1 / (n + 1)", "∀ n : ℕ, s n < 1 / ((n : ℝ) + 1)",
         "∀ n : ℕ, s n < 1 / ((n + 1 : ℕ) : ℝ)"),
    Case("leaf before analysis, right side", "(s : ℕ → ℝ)", "∀ n, 1 / (n + 1) < s n",
         "∀ n : ℕ, 1 / ((n : ℝ) + 1) < s n", "∀ n : ℕ, ((1 / (n + 1) : ℕ) : ℝ) < s n"),
    Case("maximum along the coercion chain", "(n : ℕ) (r : ℝ)", "∃ x, x + n = r", "∃ x : ℝ, x + n = r",
         "∃ x : ℕ, x + n = r"),
    Case("strong use, then a tree", "(s : ℤ → ℤ) (r : ℝ)", "∀ n, s n = 2 ∧ n + r = 0",
         "∀ n : ℤ, s n = 2 ∧ (n : ℝ) + r = 0", "∀ n : ℕ, s n = 2 ∧ n + r = 0"),
    # issue 21: the first use (the tree) fixes ℕ, `g ↑j` coerces; the old reading took the strong use's ℤ.
    Case("first use, then a strong one", "(m : ℕ) (g : ℤ → ℤ)", "∃ j, j + m = 0 ∧ g j = 0",
         "∃ j : ℕ, j + m = 0 ∧ g j = 0", "∃ j : ℤ, j + m = 0 ∧ g j = 0", conservative=True),
    # a function pyshadow does not know fixes the type first: Lean's ℤ, never the later tree's ℕ
    Case("unknown function first", "(n : ℕ)", "∃ x, Int.sign x = 0 ∧ x + n = 0",
         "∃ x : ℤ, Int.sign x = 0 ∧ x + n = 0", "∃ x : ℕ, Int.sign x = 0 ∧ x + n = 0", conservative=True),
    # a `fun` passed where the callee's domain is a type variable: typed from its body (resolver.py
    # POLYMORPHIC_FUNCTION_ARGUMENT)
    Case("fun under a polymorphic domain", "", "StrictMono (fun x => Real.sqrt x)",
         "StrictMono (fun x : ℝ => Real.sqrt x)", "StrictMono (fun x : ℕ => Real.sqrt x)"),
    # a variable of a type defined as a function type is applied at its domains (binder_types.FUNCTION_TYPE_DEFINITIONS)
    Case("application of a matrix", "(M : Matrix ℤ ℤ ℝ)", "∀ i j, M i j = 0", "∀ i j : ℤ, M i j = 0",
         "∀ i j : ℕ, M i j = 0"),
    Case("ascription, then a tree", "(r : ℝ)", "∃ x, (x : ℤ) + 1 = 0 ∧ x + r = 0",
         "∃ x : ℤ, (x : ℤ) + 1 = 0 ∧ (x : ℝ) + r = 0", "∃ x : ℕ, (x : ℤ) + 1 = 0 ∧ x + r = 0"),
    # `N ≤ n` unifies the two unknown types (`binrel%` falls back to `ensureHasType`); `s n` fixes both
    Case("one type for two binders", "(s : ℕ → ℤ)", "∃ N, ∀ n, N ≤ n → s n = 0", "∃ N : ℕ, ∀ n : ℕ, N ≤ n → s n = 0",
         "∃ N : ℤ, ∀ n : ℕ, N ≤ n → s n = 0"),
    # `def Set α := α → Prop`: `S x` is an application at the element type (binder_types.FUNCTION_TYPE_DEFINITIONS)
    Case("application of a set", "(S : Set ℤ) (r : ℝ)", "∃ x, S x ∧ x + r = 0", "∃ x : ℤ, S x ∧ (x : ℝ) + r = 0",
         "∃ x : ℕ, S x ∧ x + r = 0"),
    # `abs x : α` with α x's type, skipped by `analyze`, unified with the maximum by `applyCoe`
    Case("through a polymorphic leaf", "(r : ℝ)", "∃ x, abs x < r", "∃ x : ℝ, abs x < r", "∃ x : ℤ, abs x < r"),
    # … and against a domain: `g`'s ℝ assigns `abs`'s type variable, then x
    Case("polymorphic argument against a domain", "(g : ℝ → ℝ)", "∃ x, g (abs x) = 0", "∃ x : ℝ, g (abs x) = 0",
         "∃ x : ℤ, g (abs x) = 0"),
    Case("numerals fix nothing", "(g : ℤ → ℤ)", "∃ x, x + 1 = 2 ∧ g x = 0", "∃ x : ℤ, x + 1 = 2 ∧ g x = 0",
         "∃ x : ℕ, x + 1 = 2 ∧ g x = 0"),
]

# -- printing statements as prelude-mode Lean -------------------------------------------------------------------
_TYPES = {"ℕ": "Nat", "ℤ": "Int", "ℝ": "Real"}
_BINOP = {"+": "HAdd.hAdd", "-": "HSub.hSub", "*": "HMul.hMul", "/": "HDiv.hDiv"}
_BINREL = {"=": "Eq", "<": "LT.lt", "≤": "LE.le"}
_LOGIC = {"∧": "And", "∨": "Or", "↔": "Iff"}


def lean_term(node: tm.Node) -> str:
    """``node`` as the builtin syntax Init's notations expand to."""
    if isinstance(node, tm.Name):
        return _TYPES.get(node.text, node.text)
    if isinstance(node, tm.App):
        return "(" + " ".join(lean_term(x) for x in (node.fn, *node.args)) + ")"
    if isinstance(node, tm.Binary):
        left, right = lean_term(node.left), lean_term(node.right)
        if node.op in _BINOP:
            return f"(binop% {_BINOP[node.op]} {left} {right})"
        if node.op == "^":
            return f"(rightact% HPow.hPow {left} {right})"
        if node.op in _BINREL:
            return f"(binrel% {_BINREL[node.op]} {left} {right})"
        if node.op in _LOGIC:
            return f"({_LOGIC[node.op]} {left} {right})"
        if node.op == "→":
            return f"({left} → {right})"
    if isinstance(node, tm.Prefix) and node.op == "-":
        return f"(unop% Neg.neg {lean_term(node.arg)})"
    if isinstance(node, tm.Prefix) and node.op == "↑":
        return f"(up {lean_term(node.arg)})"
    if isinstance(node, tm.Ascription):
        return f"({lean_term(node.expr)} : {lean_term(node.type)})"
    if isinstance(node, tm.Lambda):
        b = node.binder
        binder = f"({b.name} : {lean_term(b.type)})" if b.type is not None else b.name
        return f"(fun {binder} => {lean_term(node.body)})"
    if isinstance(node, tm.Quantifier) and node.kind in ("∀", "∃"):
        b = node.binder
        binder = f"({b.name} : {lean_term(b.type)})" if b.type is not None else b.name
        body = lean_term(node.body)
        return f"(∀ {binder}, {body})" if node.kind == "∀" else f"(Exists fun {binder} => {body})"
    raise ValueError(f"not printed for the prelude: {tm.render(node)}")


def lean_binders(binders: str) -> str:
    out = []
    for names, ty in re.findall(r"\(([^:()]+) : ([^()]+)\)", binders):
        out.append(f"({names.strip()} : {lean_term(tm.read_term(ty))})")
    return " ".join(out)


def lean_same(kernel_lean_exe, tmp_path: Path, pairs: list[tuple[str, str, str]]) -> list[bool]:
    """For each (binders, A, B): whether Lean accepts ``h : A`` as a proof of ``B`` (one file, one line each)."""
    lines = []
    for k, (binders, a, b) in enumerate(pairs):
        bs = lean_binders(binders)
        lines.append(f"theorem c{k} {bs} (h : {lean_term(tm.read_term(a))}) : {lean_term(tm.read_term(b))} := h")
    header = PRELUDE.read_text(encoding="utf-8")
    first = header.count("\n") + 1
    source = tmp_path / "Elaboration.lean"
    source.write_text(header + "\n".join(lines) + "\nend\n", encoding="utf-8")
    proc = subprocess.run([str(kernel_lean_exe.path), str(source)], capture_output=True, text=True, timeout=300)
    output = proc.stdout + proc.stderr
    bad = {int(m.group(1)) - first for m in re.finditer(rf"{re.escape(source.name)}:(\d+):\d+: error", output)}
    assert not {k for k in bad if not 0 <= k < len(lines)}, output  # the prelude itself must elaborate
    return [k not in bad for k in range(len(lines))]


def pyshadow_same(binders: str, a: str, b: str) -> bool:
    da = normalize_declaration(parse_declaration(f"theorem t {binders} : {a}"))
    db = normalize_declaration(parse_declaration(f"theorem t {binders} : {b}"))
    return da == db


@pytest.fixture(scope="module")
def verdicts(kernel_lean_exe, tmp_path_factory):
    pairs = []
    for c in CASES:
        pairs += [(c.binders, c.ref, c.ref), (c.binders, c.same, c.same), (c.binders, c.changed, c.changed),
                  (c.binders, c.ref, c.same), (c.binders, c.ref, c.changed)]
    got = lean_same(kernel_lean_exe, tmp_path_factory.mktemp("elab"), pairs)
    return {c: got[5 * i:5 * i + 5] for i, c in enumerate(CASES)}


@pytest.mark.kernel
@pytest.mark.parametrize("case", CASES, ids=[c.reading for c in CASES])
def test_readings_agree_with_lean(verdicts, case):
    ref_ok, same_ok, changed_ok, lean_one, lean_changed_one = verdicts[case]
    assert ref_ok and same_ok and changed_ok, "every statement must elaborate in the prelude"
    assert lean_one, f"Lean elaborates {case.ref!r} and {case.same!r} to different terms"
    assert not lean_changed_one, f"the mutation partner {case.changed!r} is not a changed statement for Lean"
    assert not pyshadow_same(case.binders, case.ref, case.changed), "pyshadow passes the mutation partner"
    if case.conservative:
        assert not pyshadow_same(case.binders, case.ref, case.same), "the conservative reading became a claim"
    else:
        assert pyshadow_same(case.binders, case.ref, case.same), "pyshadow misses a spelling Lean reads as one"


def test_every_statement_prints_for_the_prelude():
    for c in CASES:
        for text in (c.ref, c.same, c.changed):
            assert lean_term(tm.read_term(text))
