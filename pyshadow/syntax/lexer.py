"""A Lean-aware lexer: tokens, comments, strings, identifiers, and the brackets and keywords of Lean's commands.

Everything that reads Lean source goes through here first — the statement parser, the trust gate (audit), the
candidate extractor — so that a keyword inside a comment, a docstring, a string, a char literal or a «quoted» name
is never mistaken for code. The lexer never raises: an unterminated comment or string becomes a token of kind
``unterminated_comment`` / ``unterminated_string`` running to the end of the input, for the caller to judge.

The lexer follows Lean 4's own token function (leanprover/lean4 ``src/Lean/Parser/Basic.lean``: ``whitespace``,
``finishCommentBlock``, ``tokenFnAux``, ``strLitFnAux``, ``charLitFnAux``, ``rawStrLitFnAux``, ``identFnAux``,
``isIdCont``) so that its comment, string and identifier spans are the ones Lean reads:

* a comment starts only where Lean scans whitespace, i.e. at a token boundary, so the multi-character tokens that
  end in ``/`` matter: ``{x : ℤ //-x ≤ 0}`` is ``//`` then ``-x`` (Init's subtype notation), never a comment;
* ``/--`` and ``/-!`` are doc-comment *tokens* whose body starts after the third character (``/--/ x -/`` is one
  doc comment, not an empty comment followed by code); block comments nest;
* a string is interpolated only after the tokens whose syntax takes ``interpolatedStr`` (``s!``, ``f!``, ``m!``,
  ``throwError``, ``dbg_trace``, ``println!``, ``trace[c]`` — ``INTERPOLATION_KEYWORDS``), never after an arbitrary
  ``ident!``: ``panic!"{"`` is the token ``panic!`` and a plain string (src/Lean/Parser/StrInterpolation.lean);
* a char literal is ``'`` + one character or escape + ``'`` (a newline included); ``''`` and ``⁻¹'`` are tokens;
* identifier characters are Lean's ``isIdFirst``/``isIdRest`` (``src/Init/Meta/Defs.lean``: ASCII letters, ``_``,
  ``isLetterLike`` — Greek but λ Π Σ, Coptic, polytonic Greek, the letterlike block with ℕ ℤ ℚ ℝ ℂ, mathematical
  alphanumerics such as 𝓝, Latin-1 letters but × ÷, Latin Extended-A — then digits, ``'``, ``!``, ``?`` and
  ``isSubScriptAlnum``), with ``«…»`` escapes and ``.`` continuations as ``isIdCont``.

``tests/test_lexer_oracle.py`` checks these spans against the kernel-tier Lean binary itself.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# Token kinds.
IDENT = "ident"
NUMBER = "number"
STRING = "string"
CHAR = "char"
SYMBOL = "symbol"
COMMENT = "comment"  # `--` line comments and `/- -/` block comments
DOC_COMMENT = "doc_comment"  # `/-- -/` and `/-! -/`
UNTERMINATED_COMMENT = "unterminated_comment"
UNTERMINATED_STRING = "unterminated_string"

TRIVIA_KINDS = frozenset({COMMENT, DOC_COMMENT, UNTERMINATED_COMMENT})


class Token(NamedTuple):
    """One token; a tuple because tokenizing thousands of statements a second makes construction cost count."""

    kind: str
    text: str
    start: int  # offset into the source
    end: int

    @property
    def is_trivia(self) -> bool:
        return self.kind in TRIVIA_KINDS


# Lean's `isLetterLike` (src/Init/Meta/Defs.lean), range by range.
LETTERLIKE_RANGES = (
    (0x3B1, 0x3BA), (0x3BC, 0x3C9),  # lower Greek but λ (U+03BB)
    (0x391, 0x39F), (0x3A1, 0x3A2), (0x3A4, 0x3A9),  # upper Greek but Π (U+03A0) and Σ (U+03A3)
    (0x3CA, 0x3FB),  # Coptic letters
    (0x1F00, 0x1FFE),  # polytonic Greek
    (0x2100, 0x214F),  # the letterlike block: ℕ ℤ ℚ ℝ ℂ …
    (0x1D49C, 0x1D59F),  # mathematical script, double-struck, Fraktur
    (0xC0, 0xD6), (0xD8, 0xF6), (0xF8, 0xFF),  # Latin-1 letters but × (U+00D7) and ÷ (U+00F7)
    (0x100, 0x17F),  # Latin Extended-A
)
# Lean's `isSubScriptAlnum`: subscript digits, letters and ⱼ (U+2C7C).
SUBSCRIPT_RANGES = ((0x2080, 0x2089), (0x2090, 0x209C), (0x1D62, 0x1D6A), (0x2C7C, 0x2C7C))


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)


def is_id_first(c: str) -> bool:
    """Lean's ``isIdFirst``: an ASCII letter, ``_`` or a letter-like character."""
    return c == "_" or ("a" <= c <= "z") or ("A" <= c <= "Z") or any(a <= ord(c) <= b for a, b in LETTERLIKE_RANGES)


def is_id_rest(c: str) -> bool:
    """Lean's ``isIdRest``: ``isIdFirst``, an ASCII digit, ``'``, ``!``, ``?`` or a subscript letter or digit."""
    return is_id_first(c) or ("0" <= c <= "9") or c in "'!?" or any(a <= ord(c) <= b for a, b in SUBSCRIPT_RANGES)


_LETTERLIKE = "A-Za-z_" + _class(LETTERLIKE_RANGES)
_SUBSCRIPTS = _class(SUBSCRIPT_RANGES)
_ID_FIRST = f"[{_LETTERLIKE}]"
_ID_REST = f"[{_LETTERLIKE}0-9'!?{_SUBSCRIPTS}]"
# Mathlib notations that Lean's longest-match tokenizer reads as one token and that act as type names
# (Mathlib/Data/PNat/Notation.lean `notation "ℕ+" => PNat`: with Mathlib imported, `ℕ+` is one token).
_SPECIAL_IDENTS = ("ℝ≥0∞", "ℝ≥0", "ℚ≥0", "ℕ∞", "ℕ+", "ℝ*")
_ID_PART = rf"(?:«[^»]*»|{_ID_FIRST}{_ID_REST}*)"

# Multi-character symbols, longest first; anything else is a one-character symbol.
MULTI_SYMBOLS = sorted(
    [
        ":=", "=>", "->", "<-", "<->", "<=", ">=", "!=", "==", "::", "++", "..", "...", "|>.", "|>", "<|",
        "/\\", "\\/", "∃!", "^^^", "&&&", "|||", "<<<", ">>>", "&&", "||", "<;>", "%[", "@[", "⁻¹", "≠",
        "×ˢ", "∑'", "∏'", "↑", "⇑", "↥", "#[", "%%",
        # Mathlib's bundled-morphism arrows: `M →+* N`, `M →+ N`, `M →* N` are single tokens in Lean, not `→`.
        "→+*", "→+", "→*",
        # and the bundled equivalences (Mathlib/Algebra/Group/Equiv/Defs.lean `infixl:25 " ≃* " => MulEquiv`,
        # `infixl:25 " ≃+ " => AddEquiv`; Mathlib/Algebra/Ring/Equiv.lean `infixl:25 " ≃+* " => RingEquiv`)
        "≃+*", "≃*", "≃+",
        # Tokens a comment opener or a char literal could otherwise be read inside: Init's subtype `{x // p}`
        # (`//-x` is `//` then `-x`), Mathlib's preimage `f ⁻¹' s` and image `f '' s`.
        "//", "⁻¹'", "''",
    ],
    key=len,
    reverse=True,
)
# Superscript and subscript letters, digits and signs (ᶠ ᵐ ᵉ ₗ ₀ ₊ ⁻ ² ˢ …). Glued to a symbol they make one Mathlib
# token — `∀ᶠ` `∃ᵉ` `=ᶠ[l]` `≤ᵐ[μ]` `→₀` `→ₗ[R]` `∑ᶠ` `∫⁻` `⌊x⌋₊` — never the bare symbol followed by junk; splitting
# `→₀` into `→` and `₀` would make the parser see an implication that Lean never reads there.
_MODIFIERS = "\u00b2\u00b3\u00b9\u02b0-\u02ff\u1d2c-\u1d6a\u1d9b-\u1dbf\u2070-\u209c\u2c7c"
# Mathlib tokens made of a relation or arrow and an ASCII letter, always followed by `[`: `f =O[l] g`, `f =o[l] g`,
# `f =Θ[l] g`, `E →L[𝕜] F`, `A →A[R] B`, `E →SL[σ] F`.
_LETTER_TOKENS = r"(?:=[oOΘ]|→(?:L|A|SL))(?=\[)"

# One master pattern; where two alternatives can match at the same place, the earlier wins (`ℝ≥0` before the
# identifier `ℝ`, a raw string `r#"…"#` before the identifier `r`, comments before symbols). Identifiers and
# numbers come early because most tokens are one. Block comments nest, which no regex can follow: the pattern
# only finds their opener and ``tokenize`` scans to the matching closer.
_TOKEN_RE = re.compile(
    "|".join(
        [
            r"(?P<special>" + "|".join(re.escape(s) for s in _SPECIAL_IDENTS) + ")",
            r'(?P<raw_string>r#*")',
            rf"(?P<ident>{_ID_PART}(?:\.{_ID_PART})*)",
            # After `.` digits are a field index (`h.2.1` is `.2` then `.1`), never a decimal.
            r"(?P<number>(?<=\.)[0-9]+|0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+"
            r"|[0-9][0-9_]*(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)",
            r"(?P<line_comment>--[^\n]*)",
            r"(?P<block_comment>/-)",
            r'(?P<string>"(?:[^"\\]|\\.)*")',
            r'(?P<unterminated_string>")',
            # `'` then one character (a newline too) or escape, then `'` (charLitFnAux); `''` is a token instead.
            r"(?P<char>'(?:\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)|[^'\\])')",
            # The lookahead on first characters spares most symbols the trial of every multi-character one.
            rf"(?P<symbol>{_LETTER_TOKENS}|(?:(?=[{re.escape(''.join(sorted({s[0] for s in MULTI_SYMBOLS})))}])(?:"
            + "|".join(re.escape(s) for s in MULTI_SYMBOLS)
            + rf")|[^\s()\[\]{{}}⟨⟩⦃⦄⟦⟧‹›⁅⁆⟪⟫])[{_MODIFIERS}]*|\S)",
        ]
    ),
    re.DOTALL,
)


def _block_comment_end(src: str, pos: int) -> int:
    """End offset of the (nested) block comment opening at ``pos``, or -1 if it never closes.

    Lean (``src/Lean/Parser/Basic.lean``): ``/-`` is skipped by ``whitespace`` and its body, from the *fourth*
    character (``whitespace`` reads the third to rule out ``/--``/``/-!`` and steps over it), is ``finishCommentBlock``: ``/-`` and ``-/`` pairs taken left to right, nesting. ``/--`` and ``/-!``
    are *tokens*, and like every token they are followed by ``whitespace`` before their ``commentBody``: spaces,
    ``--`` line comments and ``/- -/`` block comments right after the opener are skipped first. So ``/--/ x -/`` is one
    doc comment (the body starts at ``/``), and in ``/-- --/ -/`` the ``--/ -/`` is a line comment, the doc comment
    runs on to a later ``-/``.
    """
    if src.startswith(("/--", "/-!"), pos):
        i = _skip_whitespace(src, pos + 3)
        if i == -1:
            return -1
        return _finish_comment_block(src, i)
    # `whitespace` checks the third character for `-`/`!` and then starts the body *after* it: `/-/-/` is closed.
    return _finish_comment_block(src, min(pos + 3, len(src)))


def _finish_comment_block(src: str, i: int) -> int:
    """Lean's ``finishCommentBlock`` at nesting 1 from ``i``: the offset after the closing ``-/``, or -1."""
    depth = 1
    while True:
        # Next interesting place: an opener "/-" or a closer "-/"; the earlier one is the pair Lean reads.
        closer = src.find("-/", i)
        if closer == -1:
            return -1
        opener = src.find("/-", i, closer + 1)  # an opener starting before the closer wins, even in `/-/`
        if opener != -1:
            depth += 1
            i = opener + 2
            continue
        depth -= 1
        i = closer + 2
        if depth == 0:
            return i


def _skip_whitespace(src: str, i: int) -> int:
    """Lean's ``whitespace`` from ``i``: spaces, line comments and plain block comments (not ``/--``, ``/-!``)."""
    n = len(src)
    while i < n:
        c = src[i]
        if c in " \t\r\n":
            i += 1
        elif src.startswith("--", i):
            newline = src.find("\n", i)
            i = n if newline == -1 else newline
        elif src.startswith("/-", i) and not src.startswith(("/--", "/-!"), i):
            i = _finish_comment_block(src, min(i + 3, n))
            if i == -1:
                return -1
        else:
            break
    return i


# Pattern groups whose match is the whole token, and the token kind each gives.
_SIMPLE_KINDS = {"ident": IDENT, "symbol": SYMBOL, "number": NUMBER, "string": STRING, "char": CHAR,
                 "special": IDENT, "line_comment": COMMENT}


def tokenize(src: str) -> list[Token]:
    """All tokens of ``src`` in order, comments included, whitespace dropped. Never raises.

    An interpolated string (``s!"a {x} b"``, ``m!…``, ``f!…``) is its literal chunks as ``string`` tokens
    (``"a {``, ``} b"``) with the code of each ``{…}`` hole lexed as code in between: a hole runs code.
    """
    return _scan(src, 0, False)[0]


def _scan(src: str, pos: int, in_hole: bool) -> tuple[list[Token], int]:
    """Tokens from ``pos``; in an interpolation hole, up to the ``}`` that closes it (whose offset is returned,
    -1 when it never closes). Outside a hole the returned offset is the end of the text."""
    tokens: list[Token] = []
    append = tokens.append
    new = tuple.__new__  # Token(...) without the NamedTuple constructor's extra call: this loop is hot
    simple = _SIMPLE_KINDS
    n = len(src)
    depth = 0
    while pos < n:
        # No alternative matches whitespace, so `finditer` skips it between tokens by itself.
        for m in _TOKEN_RE.finditer(src, pos):
            group = m.lastgroup
            kind = simple.get(group)
            if kind is not None and not in_hole and group != "string":  # the common case, kept lean
                start, end = m.span()
                append(new(Token, (kind, m.group(), start, end)))
                continue
            start = m.start()
            if kind is not None:
                if group == "string" and _interpolation_prefix(tokens, start):
                    pieces, pos = _interpolated(src, start)
                    tokens.extend(pieces)
                    break
                text = m.group()
                if in_hole and kind == SYMBOL:
                    if text == "{":
                        depth += 1
                    elif text == "}":
                        if depth == 0:
                            return tokens, start
                        depth -= 1
                append(new(Token, (kind, text, start, m.end())))
                continue
            if group == "block_comment":
                end = _block_comment_end(src, start)
                if end == -1:
                    append(Token(UNTERMINATED_COMMENT, src[start:], start, n))
                    return tokens, (-1 if in_hole else n)
                doc = src.startswith(("/--", "/-!"), start)
                append(Token(DOC_COMMENT if doc else COMMENT, src[start:end], start, end))
                pos = end
                break  # resume the scan after the comment
            elif group == "raw_string":
                closer = '"' + m.group()[1:-1]
                end = src.find(closer, m.end())
                if end == -1:
                    append(Token(UNTERMINATED_STRING, src[start:], start, n))
                    return tokens, (-1 if in_hole else n)
                end += len(closer)
                append(Token(STRING, src[start:end], start, end))
                pos = end
                break
            else:  # unterminated_string
                if _interpolation_prefix(tokens, start):
                    pieces, pos = _interpolated(src, start)
                    tokens.extend(pieces)
                    break
                append(Token(UNTERMINATED_STRING, src[start:], start, n))
                return tokens, (-1 if in_hole else n)
        else:
            break
    return tokens, (-1 if in_hole else n)


# Tokens whose syntax reads an interpolated string after them (`interpolatedStr(term)`): `s!`
# (src/Init/Data/ToString/Macro.lean), `f!` (src/Init/Data/Format/Macro.lean), `m!` (src/Lean/Message.lean),
# `throwError` (src/Lean/Exception.lean), `dbg_trace` (src/Lean/Parser/Term.lean), `println!`
# (src/Init/System/IO.lean); and `trace[cls]` (src/Lean/Util/Trace.lean), matched by shape. Any other `ident!` before
# a string is an identifier followed by a plain string literal.
INTERPOLATION_KEYWORDS = frozenset({"s!", "f!", "m!", "throwError", "dbg_trace", "println!"})


def _interpolation_prefix(tokens: list[Token], start: int) -> bool:
    """Whether the string at ``start`` is interpolated: the code token before it takes an interpolated string."""
    code = [t for t in tokens[-6:] if t.kind not in TRIVIA_KINDS]
    if not code:
        return False
    if code[-1].kind == IDENT and code[-1].text in INTERPOLATION_KEYWORDS:
        return True
    # `trace[cls] "…"`: `trace[` is one token in Lean.
    return (len(code) >= 4 and code[-1].text == "]" and code[-2].kind == IDENT and code[-3].text == "["
            and code[-4].text == "trace" and code[-4].end == code[-3].start)


def _interpolated(src: str, start: int) -> tuple[list[Token], int]:
    """Tokens of the interpolated string whose opening quote is at ``start``, and the offset after it."""
    out: list[Token] = []
    n = len(src)
    chunk = start
    i = start + 1
    while i < n:
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            out.append(Token(STRING, src[chunk : i + 1], chunk, i + 1))
            return out, i + 1
        if c == "{":
            out.append(Token(STRING, src[chunk : i + 1], chunk, i + 1))
            hole, close = _scan(src, i + 1, True)
            out.extend(hole)
            if close == -1:
                if not hole or hole[-1].kind not in (UNTERMINATED_STRING, UNTERMINATED_COMMENT):
                    out.append(Token(UNTERMINATED_STRING, "", n, n))
                return out, n
            chunk = close
            i = close + 1
            continue
        i += 1
    out.append(Token(UNTERMINATED_STRING, src[chunk:], chunk, n))
    return out, n


def code_tokens(src: str) -> list[Token]:
    """Tokens of ``src`` without comments (unterminated strings are kept: they are code errors)."""
    return [t for t in tokenize(src) if not t.is_trivia]


def line_col(src: str, offset: int) -> tuple[int, int]:
    """1-based line and 0-based column (in characters) of ``offset``, as Lean reports positions."""
    line = src.count("\n", 0, offset) + 1
    col = offset - (src.rfind("\n", 0, offset) + 1)
    return line, col


def ident_root(name: str) -> str:
    """The first component of a dotted identifier: the variable `x` in `x.1` or `x.le`."""
    if name.startswith("«"):
        return name[: name.index("»") + 1]
    return name.split(".", 1)[0]


# ---------------------------------------------------------------------------------------------------------------
# Brackets, modifiers and command keywords

OPEN_BRACKETS = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "⟦": "⟧", "‹": "›", "⁅": "⁆", "%[": "]",
                 "@[": "]", "#[": "]", "⟪": "⟫"}
CLOSE_BRACKETS = frozenset(OPEN_BRACKETS.values())

DECLARATION_KEYWORDS = frozenset(
    {"theorem", "lemma", "def", "abbrev", "example", "instance", "structure", "class", "inductive", "axiom",
     "opaque", "noncomputable", "private", "protected", "partial", "unsafe", "nonrec"}
)
MODIFIERS = frozenset({"noncomputable", "private", "protected", "partial", "unsafe", "nonrec", "scoped", "local"})
# Keywords that start a top-level command (used to find where a declaration ends).
COMMAND_KEYWORDS = frozenset(
    {"theorem", "lemma", "def", "abbrev", "example", "instance", "structure", "class", "inductive", "axiom",
     "opaque", "open", "namespace", "section", "end", "variable", "universe", "set_option", "attribute",
     "import", "macro", "macro_rules", "syntax", "notation", "infix", "infixl", "infixr", "prefix", "postfix",
     "elab", "elab_rules", "initialize", "builtin_initialize", "run_cmd", "#eval", "#check", "#print", "#exit",
     "#reduce", "#synth", "#guard", "include", "omit", "export", "mutual", "deriving", "noncomputable", "private",
     "protected", "partial", "unsafe", "nonrec", "@[", "prelude", "irreducible_def", "alias", "scoped", "local"}
)
# Commands of compfiles' problem-extraction dialect (github.com/dwrensha/compfiles): `problem` states a theorem,
# `determine` an answer definition; `problem_file {…}` and `snip begin/end` frame them. They begin a command only at
# the start of a line (they are ordinary identifiers elsewhere), and are kept apart from COMMAND_KEYWORDS, which
# other modules read as Lean's own command set.
DIALECT_COMMANDS = frozenset({"problem", "determine", "problem_file", "snip"})
DIALECT_DECLARATIONS = {"problem": "theorem", "determine": "abbrev"}  # and the core keyword each behaves like
