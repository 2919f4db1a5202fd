"""The Lean-aware lexer: comments, strings, chars, «» names, Mathlib tokens, and where declarations end."""

from __future__ import annotations

import pytest

from pyshadow.syntax.lexer import (
    CHAR,
    COMMENT,
    DOC_COMMENT,
    IDENT,
    NUMBER,
    STRING,
    SYMBOL,
    UNTERMINATED_COMMENT,
    UNTERMINATED_STRING,
    Token,
    code_tokens,
    line_col,
    tokenize,
)
from pyshadow.syntax.declarations import find_declarations, split_statement, statement_boundary


def kinds_texts(src: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(src)]


def texts(src: str) -> list[str]:
    return [t.text for t in code_tokens(src)]


# -- comments ----------------------------------------------------------------------------------------------------


def test_nested_block_comment_is_one_token() -> None:
    src = "a /- outer /- inner -/ still outer -/ b"
    assert kinds_texts(src) == [
        (IDENT, "a"), (COMMENT, "/- outer /- inner -/ still outer -/"), (IDENT, "b")]


def test_keyword_inside_comments_is_not_code() -> None:
    src = "-- theorem fake : False := sorry\n/- theorem other : False -/ theorem real : True := trivial"
    assert [d.name for d in find_declarations(src)] == ["real"]


def test_doc_comments_and_module_docs() -> None:
    toks = tokenize("/-- doc -/ /-! module -/ /- plain -/ x")
    assert [t.kind for t in toks] == [DOC_COMMENT, DOC_COMMENT, COMMENT, IDENT]


def test_doc_comment_token_does_not_close_itself() -> None:
    # `/--` is a token and the body starts after it (Lean's `whitespace` / `finishCommentBlock`), so `/--/` opens a
    # doc comment that the next `-/` closes; the kernel-tier Lean 4.35 reads it so (tests/test_lexer_oracle.py).
    assert kinds_texts("/--/ sorry -/ x") == [(DOC_COMMENT, "/--/ sorry -/"), (IDENT, "x")]
    assert tokenize("/--/ x")[-1].kind == UNTERMINATED_COMMENT


def test_unterminated_comment_runs_to_the_end() -> None:
    toks = tokenize("theorem t : /- oops True")
    assert toks[-1].kind == UNTERMINATED_COMMENT and toks[-1].text == "/- oops True"
    assert toks[-1].is_trivia


def test_line_comment_stops_at_newline() -> None:
    assert texts("a -- b c\nd") == ["a", "d"]


# -- strings, chars, primes ----------------------------------------------------------------------------------------


def test_strings_with_escapes() -> None:
    src = r'"a \"quoted\" -- not a comment" x'
    assert kinds_texts(src) == [(STRING, r'"a \"quoted\" -- not a comment"'), (IDENT, "x")]


def test_raw_strings() -> None:
    src = 'f r#"has "quotes" and /- no comment -/"# g'
    assert kinds_texts(src) == [(IDENT, "f"), (STRING, 'r#"has "quotes" and /- no comment -/"#'), (IDENT, "g")]


def test_unterminated_string() -> None:
    assert tokenize('x "never closed')[-1].kind == UNTERMINATED_STRING
    assert tokenize('r#"never closed')[-1].kind == UNTERMINATED_STRING


@pytest.mark.parametrize(
    "src, expected",
    [
        ("f' x", [(IDENT, "f'"), (IDENT, "x")]),
        ("f'' = g'", [(IDENT, "f''"), (SYMBOL, "="), (IDENT, "g'")]),
        ("'a' = c", [(CHAR, "'a'"), (SYMBOL, "="), (IDENT, "c")]),
        (r"'\n' ≠ '\''", [(CHAR, r"'\n'"), (SYMBOL, "≠"), (CHAR, r"'\''")]),
        (r"'\x41'", [(CHAR, r"'\x41'")]),
        ("h₀' : x₁ = y'", [(IDENT, "h₀'"), (SYMBOL, ":"), (IDENT, "x₁"), (SYMBOL, "="), (IDENT, "y'")]),
    ],
)
def test_char_literals_versus_primes(src, expected) -> None:
    assert kinds_texts(src) == expected


# -- identifiers and numbers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, expected",
    [
        ("«my theorem» x", ["«my theorem»", "x"]),
        ("Foo.«bar baz».qux", ["Foo.«bar baz».qux"]),
        ("ℝ≥0 ℝ≥0∞ ℕ∞", ["ℝ≥0", "ℝ≥0∞", "ℕ∞"]),
        ("x : ℝ≥0", ["x", ":", "ℝ≥0"]),
        ("Nat.find? h.1 x.le", ["Nat.find?", "h", ".", "1", "x.le"]),
        ("𝓝 x 𝕜 ℂ α β₁", ["𝓝", "x", "𝕜", "ℂ", "α", "β₁"]),
        ("λ x Π Σ", ["λ", "x", "Π", "Σ"]),  # keywords, not identifiers
        ("0x1F 2.5 1e10 3", ["0x1F", "2.5", "1e10", "3"]),
    ],
)
def test_identifiers(src, expected) -> None:
    assert texts(src) == expected


def test_special_type_names_are_identifiers() -> None:
    assert [t.kind for t in code_tokens("ℝ≥0 ℝ≥0∞")] == [IDENT, IDENT]
    assert [t.kind for t in code_tokens("2.5 0x1F")] == [NUMBER, NUMBER]


@pytest.mark.parametrize(
    "src, expected",
    [
        # Mathlib tokens that begin with a skeleton symbol: splitting them would invent an `→`, `=`, `∀`.
        ("∀ᶠ x in l, p x", ["∀ᶠ", "x", "in", "l", ",", "p", "x"]),
        ("∃ᶠ n in atTop, q n", ["∃ᶠ", "n", "in", "atTop", ",", "q", "n"]),
        ("∀ᵐ x ∂μ, p x", ["∀ᵐ", "x", "∂", "μ", ",", "p", "x"]),
        ("f =ᶠ[l] g", ["f", "=ᶠ", "[", "l", "]", "g"]),
        ("f ≤ᵐ[μ] g", ["f", "≤ᵐ", "[", "μ", "]", "g"]),
        ("f =O[atTop] g", ["f", "=O", "[", "atTop", "]", "g"]),
        ("f =o[l] g", ["f", "=o", "[", "l", "]", "g"]),
        ("ℕ →₀ ℤ", ["ℕ", "→₀", "ℤ"]),
        ("M →ₗ[R] N", ["M", "→ₗ", "[", "R", "]", "N"]),
        ("E →L[𝕜] F", ["E", "→L", "[", "𝕜", "]", "F"]),
        ("R →+* S", ["R", "→+*", "S"]),
        ("∑ᶠ i, f i", ["∑ᶠ", "i", ",", "f", "i"]),
        ("⌊x⌋₊ + x⁻¹", ["⌊", "x", "⌋₊", "+", "x", "⁻¹"]),
        ("s ×ˢ t", ["s", "×ˢ", "t"]),
        # …but never a bracket: `(a)²` keeps its `)`.
        ("(a)² = sᶜ", ["(", "a", ")", "²", "=", "s", "ᶜ"]),
        # A plain arrow before a letter stays an arrow.
        ("p →q", ["p", "→", "q"]),
    ],
)
def test_mathlib_tokens(src, expected) -> None:
    assert texts(src) == expected


def test_multi_character_symbols() -> None:
    assert texts("a <-> b ∧ c /\\ d ≠ e ∃! x, :=") == [
        "a", "<->", "b", "∧", "c", "/\\", "d", "≠", "e", "∃!", "x", ",", ":="]


def test_offsets_and_line_col() -> None:
    src = "theorem t :\n  x = y"
    tok = code_tokens(src)[3]
    assert tok == Token(IDENT, "x", 14, 15)
    assert src[tok.start:tok.end] == "x"
    assert line_col(src, tok.start) == (2, 2)
    assert line_col(src, 0) == (1, 0)


def test_tokenize_never_raises_on_junk() -> None:
    for src in ["", "\x00\x01", "'", "''", "«unclosed", "r#", "/-", "-/", "\"\\", "@[", "⟨⟨⟨", "\u200b", "𝔸𝔹"]:
        toks = tokenize(src)
        assert all(isinstance(t, Token) for t in toks)


# -- declarations -------------------------------------------------------------------------------------------------


def headers(src: str) -> list[str]:
    return [d.header(src) for d in find_declarations(src)]


def test_header_stops_at_top_level_assign() -> None:
    src = "theorem foo (x : ℕ) : x = x := by\n  rfl\n"
    (d,) = find_declarations(src)
    assert (d.keyword, d.name, d.has_body) == ("theorem", "foo", True)
    assert d.header(src) == "theorem foo (x : ℕ) : x = x"
    assert d.body(src).startswith(":= by")


@pytest.mark.parametrize(
    "header",
    [
        # `:=` of a `let`/`have` inside the type
        "theorem t :\n    let a := 2\n    have h : a = 2 := rfl\n    a = 2",
        # `:=` of default arguments and auto-params
        "theorem t (n : ℕ := 3) (h : 0 < n := by decide) : n = n",
        # `:=` inside a structure instance and a named argument
        "theorem t : ({ x := 1, y := 2 } : Point).x = f (n := 1)",
        # `:=` after `fun … =>` inside brackets
        "theorem t : (fun x => x) = id ∧ [fun (y := 1) => y] = []",
        # `:=` inside a string and a comment
        'theorem t : "a := b" = "a := b" -- := not here\n    ∧ True',
    ],
)
def test_find_declarations_is_not_fooled_by_inner_assignments(header) -> None:
    src = header + " := proof\n\ntheorem next : True := trivial\n"
    assert headers(src) == [header, "theorem next : True"]


def test_pattern_matching_equations_end_the_header() -> None:
    src = ("def f : ℕ → ℕ\n  | 0 => 1\n  | n + 1 => f n\n"
           "theorem ExistsUnique.exists {p : α → Prop} : (∃! x, p x) → ∃ x, p x | ⟨x, h, _⟩ => ⟨x, h⟩\n"
           "theorem abs_line (x : ℝ) :\n    |x| ≥ 0 := abs_nonneg x\n"
           "theorem fun_alt : (fun | 0 => 1 | _ => 2 : ℕ → ℕ) 0 = 1 := rfl\n")
    assert headers(src) == [
        "def f : ℕ → ℕ",
        "theorem ExistsUnique.exists {p : α → Prop} : (∃! x, p x) → ∃ x, p x",
        "theorem abs_line (x : ℝ) :\n    |x| ≥ 0",
        "theorem fun_alt : (fun | 0 => 1 | _ => 2 : ℕ → ℕ) 0 = 1",
    ]


def test_attributes_modifiers_docstrings_and_where() -> None:
    src = ("/-- A doc. -/\n@[simp, norm_cast] protected theorem A.b : True := trivial\n"
           "noncomputable instance : Foo where\n  x := 1\n"
           "example : 1 = 1 := rfl\n")
    decls = find_declarations(src)
    assert [(d.keyword, d.name) for d in decls] == [("theorem", "A.b"), ("instance", None), ("example", None)]
    assert src[decls[0].start:].startswith("/-- A doc. -/")
    assert decls[1].header(src) == "instance : Foo"


def test_commands_between_declarations_end_them() -> None:
    src = ("theorem a : True := trivial\nopen Real in\ntheorem b : π > 0 := pi_pos\n"
           "#check b\nend Foo\n")
    decls = find_declarations(src)
    assert [d.name for d in decls] == ["a", "b"]
    assert decls[1].body(src) == ":= pi_pos\n"


def test_declaration_without_body() -> None:
    src = "axiom choice : True\ntheorem t : True"
    decls = find_declarations(src)
    assert [(d.name, d.has_body) for d in decls] == [("choice", False), ("t", False)]
    assert decls[1].header(src) == "theorem t : True"


def test_split_statement() -> None:
    text = "theorem t (x : ℝ) :\n    let y := x\n    y = x := by simp"
    assert split_statement(text) == ("theorem t (x : ℝ) :\n    let y := x\n    y = x", ":= by simp")
    assert split_statement("theorem t : True") == ("theorem t : True", "")


def test_statement_boundary_on_a_token_range() -> None:
    src = "theorem t : a = b := rfl"
    code = code_tokens(src)
    k = statement_boundary(src, code, 0, len(code))
    assert code[k].text == ":="
    assert statement_boundary(src, code, 0, k) is None


# -- reported by the audit and candidate-extraction work ------------------------------------------------------------


def test_interpolated_string_holes_are_code() -> None:
    toks = code_tokens('def s := s!"value {sorry} and {f "x" {a with b := 1}}" ++ t')
    assert (IDENT, "sorry") in [(t.kind, t.text) for t in toks]
    assert [t.text for t in toks if t.kind == STRING] == ['"value {', '} and {', '"x"', '}"']
    assert toks[-1].text == "t"  # the scan resumes after the closing quote
    assert tokenize('s!"open {hole')[-1].kind == UNTERMINATED_STRING


def test_plain_strings_keep_their_braces() -> None:
    assert kinds_texts('"{sorry}" x') == [(STRING, '"{sorry}"'), (IDENT, "x")]


def test_only_interpolation_keywords_interpolate() -> None:
    # `panic!` is a token taking a term (src/Lean/Parser/Term.lean), `foo!` an identifier: their strings are plain,
    # so a `{` inside cannot swallow the code after them.
    for prefix in ("panic!", "foo!", "assert!", "x.s!"):
        src = f'def f := {prefix}"{{"\ntheorem t : False := sorry'
        assert (IDENT, "sorry") in [(t.kind, t.text) for t in code_tokens(src)], prefix
        assert [t.text for t in code_tokens(src) if t.kind == STRING] == ['"{"']
    # The real ones, with whitespace or a comment before the string as Lean allows.
    for prefix in ("s!", "f!", "m!", "throwError", "dbg_trace", "println!", "s! ", "s! /- c -/ ", "trace[Meta.debug] "):
        toks = code_tokens(f'def f := {prefix}"a {{sorry}} b"')
        assert (IDENT, "sorry") in [(t.kind, t.text) for t in toks], prefix


@pytest.mark.parametrize("src, expected", [
    # Init's subtype notation `{x // p}`: `//` is a token, so `//-x` is not a comment opener.
    ("{x : Int //-x ≤ 0}", ["{", "x", ":", "Int", "//", "-", "x", "≤", "0", "}"]),
    # Mathlib's preimage and image tokens end in `'`: no char literal starts there.
    ("f ⁻¹' s ∪ g '' t ∪ {'a'}", ["f", "⁻¹'", "s", "∪", "g", "''", "t", "∪", "{", "'a'", "}"]),
])
def test_tokens_ending_in_comment_or_char_openers(src, expected) -> None:
    assert texts(src) == expected


def test_whitespace_steps_over_the_third_character_of_a_block_comment() -> None:
    # Lean's `whitespace` reads `/-X`, rules out `/--` and `/-!`, and starts the body after X: `/-/-/` is closed, so
    # the code after it is code (the old nesting reading hid it until the last `-/`).
    src = "/-/-/ instance : LE Nat := ⟨fun _ _ => True⟩ /- -/ -- -/ -/"
    assert (IDENT, "instance") in [(t.kind, t.text) for t in code_tokens(src)]


def test_statement_reader_sees_a_hypothesis_after_a_self_closing_comment() -> None:
    # Lean reads `(h : False)` here (the kernel-tier oracle agrees on `/-/-/`); a nesting reading hid it.
    src = "theorem t (a b : Nat) /-/-/ (h : False) /- -/ -- -/ -/\n    : a + b = b + a := h.elim\n"
    (decl,) = find_declarations(src)
    assert "h" in [t.text for t in code_tokens(decl.header(src))]


def test_doc_comment_token_is_followed_by_whitespace() -> None:
    # `/--` is a token: `whitespace` (line and block comments included) runs before its body.
    assert tokenize("/-- -- x -/\n-/ y")[0].text == "/-- -- x -/\n-/"
    assert tokenize("/-- /- a -/ b -/ y")[0].text == "/-- /- a -/ b -/"
    assert tokenize("/-- /- a -/ y")[-1].kind == UNTERMINATED_COMMENT


@pytest.mark.parametrize("name", ["Àb", "ÿ", "Ğx", "ſ", "x₁ⱼ", "ϊ", "ᾼ", "𝓝", "aΡ"])
def test_identifiers_with_leans_letter_classes(name) -> None:
    assert kinds_texts(name) == [(IDENT, name)]


@pytest.mark.parametrize("src, first", [("a×b", "a"), ("a÷b", "a"), ("aλ", "a"), ("aΠ", "a"), ("aΣ", "a")])
def test_non_letters_end_identifiers(src, first) -> None:
    assert code_tokens(src)[0].text == first


def test_nested_projections_are_field_indices() -> None:
    assert texts("(foo h).2.1 + x.1 + 2.5") == ["(", "foo", "h", ")", ".", "2", ".", "1", "+", "x", ".", "1", "+",
                                              "2.5"]


def test_declarations_after_open_in_and_inline_docstrings() -> None:
    assert [d.name for d in find_declarations("open Real in theorem foo : True := trivial")] == ["foo"]
    (d,) = find_declarations("/-- doc -/ theorem foo : True := trivial")
    assert d.name == "foo" and d.start == 0
    src = "@[simp] theorem a : True := trivial\nprivate lemma b : True := trivial"
    assert [(d.name, src[d.start:d.keyword_start]) for d in find_declarations(src)] == [
        ("a", "@[simp] "), ("b", "private ")]


def test_hash_commands_end_declarations() -> None:
    src = "theorem a : True := trivial\n#print axioms a\n  #eval 1\ntheorem b : True := trivial"
    a, b = find_declarations(src)
    assert a.end == src.index("#print") and b.name == "b"
    # …while `#s` (a cardinality) inside a term is not a command.
    (d,) = find_declarations("theorem c (s : Finset ℕ) : #s = 2 := rfl")
    assert d.header("theorem c (s : Finset ℕ) : #s = 2 := rfl") == "theorem c (s : Finset ℕ) : #s = 2"
