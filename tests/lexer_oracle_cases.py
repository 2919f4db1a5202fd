"""Boundary cases for the differential lexer test (tests/test_lexer_oracle.py): hand-written, fuzzed, Unicode sweeps.

Every case is one or more lines of a prelude-mode Lean file, built so that Lean's own messages reveal where its
parser put a boundary:

* **probe** cases place a lexeme (comment, doc comment, string, char, raw string, name literal, interpolated
  string of ``dbg_trace``) and then ``def P := Z`` after it: Lean reports "Unknown identifier `Z`" at Z's position
  exactly when its lexeme ended where the probe's position says — and not at all when the lexeme swallowed it;
* **ident** cases write ``#check I``: Lean's "Unknown identifier" message spans exactly the identifier it read.

The fragments only use tokens the prelude-mode (builtin) token table has, so the kernel-tier binary is a faithful
oracle for them; tokens that only Init or Mathlib declare (``//``, ``⁻¹'``, ``s!``) are covered by unit tests that
cite their declarations (tests/test_lexer.py).
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass

from pyshadow.syntax.lexer import LETTERLIKE_RANGES, SUBSCRIPT_RANGES, is_id_first, is_id_rest

SEED = 20261201


@dataclass(frozen=True)
class Case:
    kind: str  # "probe" | "ident"
    label: str  # what the case tests (for failure messages)
    text: str  # Lean text: for "probe", the lexeme (the probe is added by the test); for "ident", the identifier
    host: str = "{X}"  # how the lexeme is placed on its line: `#check {X}` for terms, `{X}` for comments


# ---------------------------------------------------------------------------------------------------------------
# Hand-written edge cases

COMMENTS = [
    "/- a -/", "/- /- nested -/ still -/", "/--/ hidden -/", "/-/ x -/", "/---/", "/--- x -/",
    "/-!-/", "/-! module /- nested -/ -/", "/-- doc /- n -/ -/", "/- a - / -/", "/- ---/", "/- /-/ -/ -/",
    "/- \"-/", "/- '-/' -/", "/- «-/» -/", "/-\n-/", "/- -- -/", "/-- -/", "/-! -/", "/- /- /- -/ -/ -/",
    "-- line /- not a block", "/-/-/", "/-/-/-/ -/", "/-- /- a -/ b -/", "/--/-/--/» -/", "/-- -- x\n-/",
    "/-! x --/", "/-/-/ hidden /- -/ -- -/ -/", "-- -/", "--/- x", "---", "-- \"", "/--/-/",
]
STRINGS = [
    '"a"', '""', '"\\""', '"\\\\"', '"-/"', '"/-"', '"--"', '"{"', '"}"', '"\\n\\t\\r"', '"\\x41"', '"\\u03bb"',
    "\"'\"", '"«"', '"\\\n   b"', '"a\nb"', '"/--/"', '"\\\\\\""', '"λ"', '"𝓝"',
]
CHARS = ["'a'", "'\\''", "'\"'", "'\\\\'", "'\\n'", "'\\x41'", "'\\u03bb'", "'-'", "'/'", "'{'", "'«'", "'\n'",
         "'λ'", "'𝓝'", "'`'"]
RAW_STRINGS = ['r"a"', 'r"a\\"', 'r#"a"b"#', 'r##"a"#b"##', 'r#"-/"#', 'r"/-"', 'r#""#', 'r##"x"#"##']
NAME_LITERALS = ["`a", "`a.b", "`«a b».c", "`«-/»", "`α.β", "`x₁"]
# dbg_trace is a builtin term parser whose argument is `interpolatedStr term` (src/Lean/Parser/Term.lean): its holes
# are code (a string inside a hole may contain `}` and `"`).
INTERPOLATED = ['dbg_trace "a{x}b"; y', 'dbg_trace "{ "}" }"; y', 'dbg_trace "\\{"; y', 'dbg_trace "{f "-/" }"; y',
                'dbg_trace "{ {} }"; y', 'dbg_trace "a"; y']
IDENTS = [
    "a", "x₁", "ℝ", "α", "Ω", "ω", "ς", "ϊ", "ᾼ", "ℕ", "𝓝", "𝔽", "À", "ÿ", "Ğ", "ſ", "aλ", "aΠ", "aΣ", "a×b", "a÷b",
    "x'", "x''", "h!", "h?", "a.b", "a.b.c", "a.«b c».d", "«a-/b»", "«\"»", "a.1", "a.λ", "a..b", "a.b.", "x₀₁",
    "xⱼ", "xᵢ", "aᵃ", "a_b", "_a", "__", "a?b!c", "ℝ≥", "a·b", "x⁻¹", "Àb.Çd", "a.«»", "ℵ₀", "ℏ", "℘",
]


def hand_cases() -> list[Case]:
    cases = [Case("probe", "comment", c) for c in COMMENTS]
    cases += [Case("probe", "string", s, "#check {X}") for s in STRINGS]
    cases += [Case("probe", "char", c, "#check {X}") for c in CHARS]
    cases += [Case("probe", "raw string", r, "#check {X}") for r in RAW_STRINGS]
    cases += [Case("probe", "name literal", n, "#check {X}") for n in NAME_LITERALS]
    cases += [Case("probe", "interpolated string", s, "#check {X}") for s in INTERPOLATED]
    cases += [Case("ident", "identifier", i) for i in IDENTS]
    return cases


# ---------------------------------------------------------------------------------------------------------------
# Fuzzer over comment / string / char / raw string / identifier boundaries

_COMMENT_PIECES = ["/-", "-/", "-", "/", "--", "/--", "/-!", "a", " ", "\n", '"', "'", "«", "»", "{", "}", "!", "λ"]
_STRING_PIECES = ["a", '\\"', "\\\\", "\\n", "\\t", "\\r", "\\'", "\\x4f", "\\u2200", "'", "-/", "/-", "--", "{", "}",
                  "«", "»", "\\\n  ", "λ", "ℝ", " ", "\n", "#", "r"]
_RAW_PIECES = ["a", '"', '"#', '#"', "#", "\\", "-/", "/-", "\n", "λ", " "]
_CHAR_BODIES = ["a", "λ", '"', "\\'", "\\\\", "\\n", "\\t", "\\x7e", "\\u00e9", "-", "/", "{", "}", "«", "»", "`",
                " ", "\n", "ℝ", "𝓝", "#"]


def fuzz_cases(n: int, seed: int = SEED) -> list[Case]:
    rng = random.Random(seed)
    letters = _letter_sample(rng)
    cases: list[Case] = []
    for k in range(n):
        which = k % 6
        if which == 0:  # block / doc / module-doc comments with nesting and near-miss closers
            opener = rng.choice(["/-", "/--", "/-!", "/- ", "/--/"])
            body = "".join(rng.choice(_COMMENT_PIECES) for _ in range(rng.randint(0, 10)))
            text = opener + body
            # One comment exactly: cut it where Lean's scan closes it, or close what is still open.
            depth, end = _comment_scan(text)
            text = text[:end] if depth == 0 else text + "\n-/" * depth  # a newline ends a line comment
            cases.append(Case("probe", "fuzzed comment", text))
        elif which == 1:  # line comments ending at the newline
            body = "".join(rng.choice([p for p in _COMMENT_PIECES if p != "\n"]) for _ in range(rng.randint(0, 8)))
            cases.append(Case("probe", "fuzzed line comment", "--" + body))
        elif which == 2:
            body = "".join(rng.choice(_STRING_PIECES) for _ in range(rng.randint(0, 8)))
            cases.append(Case("probe", "fuzzed string", f'"{body}"', "#check {X}"))
        elif which == 3:
            hashes = "#" * rng.randint(0, 3)
            body = "".join(rng.choice(_RAW_PIECES) for _ in range(rng.randint(0, 8)))
            # Lean's rawStrLitFnAux closes at the first `"` followed by as many `#` as opened: keep the body clear
            # of that, so the case is one literal.
            while '"' + hashes in body:
                body = body.replace('"' + hashes, "x", 1)
            cases.append(Case("probe", "fuzzed raw string", f'r{hashes}"{body}"{hashes}', "#check {X}"))
        elif which == 4:
            cases.append(Case("probe", "fuzzed char", f"'{rng.choice(_CHAR_BODIES)}'", "#check {X}"))
        else:
            cases.append(Case("ident", "fuzzed identifier", _fuzz_ident(rng, letters)))
    return cases


def _comment_scan(text: str) -> tuple[int, int]:
    """Lean's ``finishCommentBlock`` over a block comment at ``text[0]``: (depth left open, end offset)."""
    depth = 1
    i = 3  # `whitespace` steps over the third character of `/-X` before the body (Lean's `whitespace`)
    if text.startswith(("/--", "/-!")):  # a doc-comment token: `whitespace` (comments too) runs before its body
        i = 3
        while i < len(text):
            if text[i] in " \n":
                i += 1
            elif text.startswith("--", i):
                i = text.find("\n", i) if "\n" in text[i:] else len(text)
            elif text.startswith("/-", i) and not text.startswith(("/--", "/-!"), i):
                inner, end = _comment_scan(text[i:])
                if inner:
                    return depth, len(text)  # never closes: the caller appends closers
                i += end
            else:
                break
    while i < len(text) - 1:
        pair = text[i : i + 2]
        if pair == "/-":
            depth, i = depth + 1, i + 2
        elif pair == "-/":
            depth, i = depth - 1, i + 2
            if depth == 0:
                return 0, i
        else:
            i += 1
    return depth, len(text)


def _letter_sample(rng: random.Random) -> list[str]:
    """Characters near identifier boundaries: each letter-like range's ends and neighbours, and random letters."""
    chars: set[int] = set()
    for a, b in (*LETTERLIKE_RANGES, *SUBSCRIPT_RANGES):
        chars.update({a - 1, a, a + 1, b - 1, b, b + 1})
    chars.update(rng.randrange(0x80, 0x2FFFF) for _ in range(200))
    out = []
    for cp in sorted(chars):
        ch = chr(cp)
        if 0xD800 <= cp <= 0xDFFF or unicodedata.category(ch) in ("Cn", "Cs", "Co", "Cc", "Zs", "Zl", "Zp"):
            continue
        out.append(ch)
    return out


def _fuzz_ident(rng: random.Random, letters: list[str]) -> str:
    ascii_rest = list("abcXYZ019_'!?")
    parts = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.15:
            parts.append("«" + "".join(rng.choice(["a", " ", "-/", '"', ".", "λ", "{"]) for _ in range(3)) + "»")
        else:
            first = rng.choice(letters + ["a", "x", "_x"])
            rest = "".join(rng.choice(letters + ascii_rest) for _ in range(rng.randint(0, 4)))
            parts.append(first + rest)
    return ".".join(parts)


# ---------------------------------------------------------------------------------------------------------------
# Unicode sweeps: every letter-like and subscript code point, packed many to an identifier


def sweep_cases(chunk: int = 64) -> list[Case]:
    """``a`` + a run of every ``isIdRest`` code point (one identifier if Lean agrees), and ``a.c₁.c₂…`` with every
    ``isIdFirst`` code point after a dot (``isIdCont`` needs ``isIdFirst``), ``chunk`` code points a case; and each
    code point just outside a range, alone after ``a`` (where the identifier must stop)."""
    rest = [chr(cp) for a, b in (*LETTERLIKE_RANGES, *SUBSCRIPT_RANGES) for cp in range(a, b + 1)]
    first = [chr(cp) for a, b in LETTERLIKE_RANGES for cp in range(a, b + 1)]
    cases = [Case("ident", "sweep isIdRest", "a" + "".join(rest[i : i + chunk])) for i in range(0, len(rest), chunk)]
    cases += [Case("ident", "sweep isIdFirst", "a." + ".".join(first[i : i + chunk]))
              for i in range(0, len(first), chunk)]
    outside = sorted({cp for a, b in (*LETTERLIKE_RANGES, *SUBSCRIPT_RANGES) for cp in (a - 1, b + 1)})
    for cp in outside:
        ch = chr(cp)
        if is_id_rest(ch) or unicodedata.category(ch) in ("Cn", "Cc", "Zs") or ch in "\"'`/-«»{}()[]#@$,.:;":
            continue
        cases.append(Case("ident", f"outside U+{cp:04X}", f"a{ch}b"))
    assert all(is_id_first(c) for c in first)
    return cases


def all_cases(n_fuzz: int = 480) -> list[Case]:
    return hand_cases() + fuzz_cases(n_fuzz) + sweep_cases()
