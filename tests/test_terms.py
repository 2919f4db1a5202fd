"""The term reader (pyshadow.syntax.terms): two texts share a canonical key exactly when Lean parses them to the
same term (up to bound-variable names and one spelling per token). Every row names the declaration it rests on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyshadow.syntax import terms as tm
from pyshadow.syntax.ast import atoms
from pyshadow.syntax.parser import parse_declaration

# (a, b, same term?, what Lean declaration decides it)
TABLE = [
    # arithmetic (src/Init/Notation.lean)
    ("a + b * c", "(a + b) * c", False, "infixl:70 * binds tighter than infixl:65 +"),
    ("a + b * c", "a + (b * c)", True, "infixl:70 * binds tighter than infixl:65 +"),
    ("-x^2", "(-x)^2", False, "prefix:75 - reads its argument at 75; infixr:80 ^ binds tighter"),
    ("-x^2", "-(x^2)", True, "prefix:75 - reads its argument at 75"),
    ("-x * y", "(-x) * y", True, "prefix:75 - then infixl:70 * (75 > 70)"),
    ("-x * y", "-(x * y)", False, "prefix:75 - reads at 75, * is 70"),
    ("a - b - c", "a - (b - c)", False, "infixl:65 - associates left"),
    ("a - b - c", "(a - b) - c", True, "infixl:65 - associates left"),
    ("a / b / c", "a / (b / c)", False, "infixl:70 / associates left"),
    ("a / b * c", "(a / b) * c", True, "infixl:70 / and * are one level, left"),
    ("a / b * c", "a / (b * c)", False, "infixl:70 / and * are one level, left"),
    ("2^3^4", "(2^3)^4", False, "infixr:80 ^ associates right"),
    ("2^3^4", "2^(3^4)", True, "infixr:80 ^ associates right"),
    ("3^(k^2)", "3 ^ k ^ 2", True, "infixr:80 ^"),
    ("a * b % c", "(a * b) % c", True, "infixl:70 % and * one level, left"),
    ("a * b % c", "a * (b % c)", False, "infixl:70 % and * one level, left"),
    ("x^2", "x ^ 2", True, "spacing is not syntax"),
    ("5/4", "5 / 4", True, "spacing is not syntax"),
    ("1- Real.cos t", "1 - Real.cos t", True, "spacing is not syntax"),
    ("2 * x ^ 2", "2 * (x ^ 2)", True, "infixr:80 ^ tighter than infixl:70 *"),
    ("(2 * x) ^ 2", "2 * x ^ 2", False, "infixr:80 ^ tighter than infixl:70 *"),
    ("a • b + c", "(a • b) + c", True, "infixr:73 • tighter than infixl:65 +"),
    ("a • b * c", "a • (b * c)", False, "infixr:73 • binds tighter than infixl:70 *: a • b * c is (a • b) * c"),
    # application (src/Lean/Parser/Term.lean: app is trailing_parser:leadPrec:maxPrec, args at maxPrec)
    ("f x y", "f (x y)", False, "application is left-nested: f x y is (f x) y"),
    ("f x y", "(f x) y", True, "application is n-ary over maxPrec arguments"),
    ("y * (f x (x + y))", "y * f x (x + y)", True, "application (leadPrec) binds tighter than *"),
    ("f x + 1", "f (x + 1)", False, "arguments are read at maxPrec"),
    ("f x + 1", "(f x) + 1", True, "arguments are read at maxPrec"),
    ("f (-x)", "f - x", False, "prefix:75 - cannot be an argument; f - x is subtraction"),
    ("f <| g x", "f (g x)", True, "syntax:min term <| term:min is application"),
    ("x |> f", "f x", True, "syntax:min term |> term:min1 is application"),
    # coercion, inverse, factorial, sqrt
    ("↑f x", "(↑f) x", True, "syntax:1024 ↑ term:1024 — the coercion takes only f"),
    ("↑f x", "↑(f x)", False, "syntax:1024 ↑ term:1024 — the coercion takes only f"),
    ("x⁻¹ ^ 2", "(x⁻¹) ^ 2", True, "postfix:max ⁻¹"),
    ("f x⁻¹", "f (x⁻¹)", True, "postfix:max ⁻¹ applies inside the argument"),
    ("f x⁻¹", "(f x)⁻¹", False, "postfix:max ⁻¹ applies inside the argument"),
    ("n ! + 1", "(n !) + 1", True, "notation:10000 n ! (Mathlib/Data/Nat/Factorial/Basic.lean)"),
    ("(n + 1)!", "n + 1 !", False, "notation:10000 n ! takes a max-level operand"),
    ("2 * n !", "2 * (n !)", True, "notation:10000 n !"),
    ("√x + 1", "(√x) + 1", True, "prefix:max √ (Mathlib/Data/Real/Sqrt.lean)"),
    ("√x + 1", "√(x + 1)", False, "prefix:max √ reads a max-level argument"),
    ("√x⁻¹", "√(x⁻¹)", True, "prefix:max √ then postfix:max ⁻¹ (Mathlib's docstring)"),
    # logic (src/Init/Notation.lean, src/Init/Core.lean)
    ("¬a = b", "¬(a = b)", True, "notation:max ¬ p:40, = is infix:50"),
    ("¬a ∧ b", "(¬a) ∧ b", True, "notation:max ¬ p:40, ∧ is infixr:35"),
    ("¬a ∧ b", "¬(a ∧ b)", False, "notation:max ¬ p:40, ∧ is infixr:35"),
    ("a ∧ b ∨ c", "(a ∧ b) ∨ c", True, "infixr:35 ∧ tighter than infixr:30 ∨"),
    ("a ∧ b ∨ c", "a ∧ (b ∨ c)", False, "infixr:35 ∧ tighter than infixr:30 ∨"),
    ("a ∧ b ∧ c", "(a ∧ b) ∧ c", False, "infixr:35 ∧ associates right"),
    ("a → b → c", "a → (b → c)", True, "→ is right-associative at 25"),
    ("a → b → c", "(a → b) → c", False, "→ is right-associative at 25"),
    ("(0 < x ∧ 0 < y) → P", "0 < x ∧ 0 < y → P", True, "∧ (35) tighter than → (25)"),
    ("a ↔ b ∧ c", "a ↔ (b ∧ c)", True, "infix:20 ↔ loosest"),
    ("a -> b", "a → b", True, "-> and → are one token pair"),
    ("a \\/ b", "a ∨ b", True, "infixr:30 \\/ and ∨ are both Or"),
    ("a <= b", "a ≤ b", True, "infix:50 <= and ≤ are both LE.le"),
    ("a = b ∧ c = d", "(a = b) ∧ (c = d)", True, "infix:50 = tighter than ∧"),
    ("x ∈ s ∩ t", "x ∈ (s ∩ t)", True, "infixl:70 ∩ tighter than ∈ (50)"),
    ("x ∈ s ∪ t", "(x ∈ s) ∪ t", False, "infixl:65 ∪ tighter than ∈ (50)"),
    ("a ∣ b * c", "a ∣ (b * c)", True, "infix:50 ∣"),
    ("a ≡ b [ZMOD n]", "(a ≡ b [ZMOD n])", True, "notation:50 a ≡ b [ZMOD n] (Mathlib/Data/Int/ModEq.lean)"),
    ("a + b ≡ c [ZMOD n]", "(a + b) ≡ c [ZMOD n]", True, "≡ notation at 50 below +"),
    # big operators (Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean: body at term:67)
    ("∑ k ∈ s, f k + 1", "∑ k ∈ s, (f k + 1)", False, "bigsum body is term:67, + is 65"),
    ("∑ k ∈ s, f k + 1", "(∑ k ∈ s, f k) + 1", True, "bigsum body is term:67, + is 65"),
    ("∏ k ∈ s, 2^k + 3^k", "(∏ k ∈ s, 2^k) + 3^k", True, "bigprod body is term:67"),
    ("∑ k ∈ s, 2 * f k", "∑ k ∈ s, (2 * f k)", True, "bigsum body term:67 takes * (70)"),
    ("(∑ k in s, f k) = 137", "∑ k ∈ s, f k = 137", True, "deprecated `in` is `∈`; body stops before = (50)"),
    ("∑ k in Finset.range 101, k", "∑ i in Finset.range 101, i", True, "α-equivalence of the bound name"),
    ("∑ k ∈ s, f k", "∑ k ∈ t, f k", False, "different domains"),
    ("∑ i ∈ s, ∑ j ∈ t, f i j", "∑ j ∈ s, ∑ i ∈ t, f j i", True, "α-equivalence, nested"),
    ("∑ i ∈ s, ∑ j ∈ t, f i j", "∑ i ∈ s, ∑ j ∈ t, f j i", False, "the bound variables swap roles"),
    # binders
    ("fun x ↦ x + 1", "λ y => y + 1", True, "fun/λ and ↦/=> are the same syntax; α-equivalence"),
    ("fun x => f x y", "fun y => f y y", False, "renaming may not capture the free y"),
    ("fun x y => x - y", "fun a => fun b => a - b", True, "fun x y is nested fun"),
    ("fun x y => x - y", "fun y x => x - y", False, "argument order"),
    ("{x : ℝ | 0 < x}", "{y : ℝ | 0 < y}", True, "set-builder binds its variable"),
    ("{x : ℝ | 0 < x}", "{x : ℕ | 0 < x}", False, "binder types differ"),
    ("∀ x ∈ s, p x", "∀ x, x ∈ s → p x", True, "binder predicate ∀ x ∈ s (Init/BinderPredicates.lean)"),
    ("∃ x > 0, q x", "∃ x, x > 0 ∧ q x", True, "binder predicate ∃ x > 0 (Init/BinderPredicates.lean)"),
    ("∃ x, p x ∧ q", "(∃ x, p x) ∧ q", False, "∃ body extends as far right as possible"),
    ("if x < 0 then -x else x", "if y < 0 then -x else x", False, "different condition"),
    ("if x < 0 then -x else x + 1", "if x < 0 then -x else (x + 1)", True, "else-branch is a full term"),
    # brackets
    ("(4:ℝ)", "(4 : ℝ)", True, "type ascription; spacing"),
    ("((4 : ℝ))", "(4 : ℝ)", True, "redundant parentheses"),
    ("|a - b|", "|(a - b)|", True, "Mathlib abs notation, macro:max"),
    ("|a| - b", "|a - b|", False, "abs encloses its argument"),
    ("‖z‖ ^ 2", "(‖z‖) ^ 2", True, "‖e‖ is closed"),
    ("⟨a, b + c⟩", "⟨a, (b + c)⟩", True, "anonymous constructor"),
    ("(· + 1)", "· + 1", False, "the parentheses delimit the · function"),
    ("f⁻¹' {0}", "f ⁻¹' {0}", True, "infixl:80 ⁻¹' (Mathlib/Data/Set/Defs.lean)"),
    ("(x.1 + y).2", "(x.1 + y).2", True, "projection of a parenthesised term"),
]


def test_the_table_has_sixty_pairs():
    assert len(TABLE) >= 60
    assert sum(1 for *_, same, _ in TABLE if not same) >= 25


@pytest.mark.parametrize("a,b,same,why", TABLE, ids=[f"{a} | {b}" for a, b, *_ in TABLE])
def test_same_term_exactly_when_lean_parses_the_same(a, b, same, why):
    assert tm.read_term(a) is not None, f"{a!r} should read as a term"
    if b not in ("· + 1",):
        assert tm.read_term(b) is not None, f"{b!r} should read as a term"
    assert tm.same_term(a, b) is same, (tm.canonical(a), tm.canonical(b), why)


@pytest.mark.parametrize("a,b,same,why", TABLE, ids=[f"{a} | {b}" for a, b, *_ in TABLE])
def test_render_reads_back_to_the_same_tree(a, b, same, why):
    for text in (a, b):
        node = tm.read_term(text)
        if node is None:
            continue
        assert tm.read_term(tm.render(node)) == node, (text, tm.render(node))


def test_bound_names_never_capture_free_variables():
    # Canonical bound names (`x✝1`) are no identifier a statement can write (`✝` is not an identifier character),
    # so a free variable is never confused with a renamed bound one.
    from pyshadow.syntax.lexer import code_tokens

    assert [t.text for t in code_tokens("x✝1")] != ["x✝1"]
    assert tm.canonical("fun x => x + y") != tm.canonical("fun y => y + y")
    assert tm.canonical("∃ x, x = y") == tm.canonical("∃ z, z = y")


@pytest.mark.parametrize("text", [
    "a = b = c",  # infix:50 is not associative: Lean rejects it
    "match x with | 0 => 1 | _ => 2",
    "by simp",
    "x +",
    "(a + b",
    "n !b",  # `n (!b)` or `(n !) b`: ambiguous, never guessed
])
def test_unknown_or_ill_formed_text_is_opaque(text):
    assert tm.read_term(text) is None
    node = tm.read_or_opaque(text)
    assert isinstance(node, tm.Opaque)
    # Opaque keys still fold spacing and spellings.
    assert tm.canonical(text) == tm.canonical(text.replace(" ", "  "))


def test_unknown_infix_is_not_misread_as_application():
    # `⊚` is no notation the reader knows: the whole text stays opaque rather than becoming `a` applied to junk.
    assert tm.read_term("a ⊚ b") is None


def _corpus_atoms() -> list[str]:
    root = Path(__file__).resolve().parents[2] / "shared" / "corpora"
    texts = []
    dev = root / "dev.jsonl"
    pairs = Path(__file__).parent / "fixtures" / "pairs" / "dev_pairs.jsonl"
    if dev.is_file():
        texts += [json.loads(line)["statement"] for line in dev.read_text(encoding="utf-8").splitlines() if line]
    if pairs.is_file():
        for line in pairs.read_text(encoding="utf-8").splitlines():
            if line:
                row = json.loads(line)
                texts += [row["a"], row["b"]]
    out = []
    for text in texts:
        try:
            decl = parse_declaration(text)
        except Exception:  # the statement parser's own coverage is tested elsewhere
            continue
        for t in [decl.type, *(b.type for b in decl.binders)]:
            if t is not None:
                out += [a.text for a in atoms(t)]
    return out


def test_every_corpus_atom_reads_or_is_opaque_and_most_read():
    texts = _corpus_atoms()
    if not texts:
        pytest.skip("no corpus beside the repository")
    read = 0
    for text in texts:
        node = tm.read_or_opaque(text)
        if not isinstance(node, tm.Opaque):
            read += 1
            assert tm.read_term(tm.render(node)) == node, text
        tm.canonical(text)
    assert read / len(texts) >= 0.95


# ---------------------------------------------------------------------------------------------------------------
# Real Lean as the oracle where the kernel tier can parse: its built-in term syntax (application, `→`, `∀`, `fun`,
# ascription). Prelude mode cannot declare Init's notations (`infixl` needs `Lean.TrailingParserDescr` from Init), so
# the arithmetic rows above rest on the cited declarations, not on this oracle.

ORACLE_PAIRS = [
    ("F a b", "(F a) b"),
    ("F a b", "F (G a) b"),
    ("G (G a)", "G G a"),
    ("a → b → c", "a → (b → c)"),
    ("a → b → c", "(a → b) → c"),
    ("(∀ x : T, R x) → c", "∀ x : T, R x → c"),
    ("∀ x : T, R x → c", "∀ y : T, R y → c"),
    ("H (fun x : Prop => F x b) a", "H (fun y : Prop => F y b) a"),
    ("H (fun x : Prop => F x b) a", "H (fun x : Prop => F b x) a"),
    ("(a : Prop) → b", "a → b"),
]

_ORACLE_PRELUDE = """prelude
axiom T : Type
axiom a : Prop
axiom b : Prop
axiom c : Prop
axiom R : T → Prop
axiom G : Prop → Prop
axiom F : Prop → Prop → Prop
axiom H : (Prop → Prop) → Prop → Prop
"""


@pytest.mark.kernel
@pytest.mark.parametrize("a,b", ORACLE_PAIRS)
def test_same_term_agrees_with_lean_on_builtin_syntax(kernel_lean_exe, tmp_path, a, b):
    import subprocess

    # `h : A` proves `B` by itself exactly when Lean reads A and B as the same term (all constants are opaque).
    body = _ORACLE_PRELUDE
    source = tmp_path / "Oracle.lean"
    results = []
    for left, right in ((a, a), (a, b)):
        source.write_text(body + f"theorem t (h : {left}) : {right} := h\n", encoding="utf-8")
        proc = subprocess.run([str(kernel_lean_exe.path), str(source)], capture_output=True, text=True, timeout=60)
        results.append("error" not in proc.stdout + proc.stderr)
    assert results[0], "the oracle must accept a term against itself"
    assert tm.same_term(a, b) is results[1], (a, b, tm.canonical(a), tm.canonical(b))
