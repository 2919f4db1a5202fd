"""Differential test: pyshadow's lexer against the kernel-tier Lean's own parser (real Lean 4.35, prelude mode).

All cases (tests/lexer_oracle_cases.py: hand-written edge cases, a seeded fuzzer, and sweeps over every letter-like
code point) go into one prelude-mode file, one case per line group, and one Lean process judges them all:

* probe cases end with ``def P_k := Z_k``: pyshadow's position of the code identifier ``Z_k`` (None when pyshadow
  reads it as part of a comment or string) must equal the position of Lean's "Unknown identifier `Z_k`" (None when
  Lean never reports it) — so a comment, string or char that ends elsewhere in either reading fails the case;
* ident cases are ``#check I``: pyshadow's first token after ``#check`` is an identifier exactly when Lean reports
  "Unknown identifier" at that column, and both spans end at the same column.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pyshadow.lean.runner import run_lean
from pyshadow.syntax.lexer import IDENT, code_tokens, line_col, tokenize
from lexer_oracle_cases import Case, all_cases

PROBE = "zq"


def build_file(cases: list[Case]) -> tuple[str, list[tuple[Case, int, str | None]]]:
    """The Lean file, and per case (case, 1-based first line, probe name or None for ident cases)."""
    lines = ["prelude"]
    placed = []
    for k, case in enumerate(cases):
        first = len(lines) + 1
        if case.kind == "probe":
            probe = f"{PROBE}{k}"
            text = case.host.replace("{X}", case.text) + f"\ndef p{k} := {probe}"
            placed.append((case, first, probe))
        else:
            text = f"#check {case.text}"
            placed.append((case, first, None))
        # A command that ends where it ends: the next case's lexeme (or its lexical error) cannot be read as an
        # argument of this case's last term.
        lines.extend([*text.split("\n"), '#print "-"'])
    return "\n".join(lines) + "\n", placed


def pyshadow_probe_positions(src: str) -> dict[str, tuple[int, int]]:
    """(line, column) of every code identifier named like a probe, as pyshadow reads the file."""
    out = {}
    for tok in code_tokens(src):
        if tok.kind == IDENT and tok.text.startswith(PROBE) and tok.text[len(PROBE):].isdigit():
            out.setdefault(tok.text, line_col(src, tok.start))
    return out


def pyshadow_ident(text: str) -> tuple[int, int] | None:
    """Span (start column, end column) of the identifier pyshadow reads first in ``#check TEXT``, if any."""
    toks = code_tokens(f"#check {text}")
    first = next((t for t in toks if t.start >= len("#check ")), None)
    if first is None or first.kind != IDENT or first.start != len("#check "):
        return None
    return first.start, first.end


@pytest.fixture(scope="module")
def oracle(kernel_lean_exe, tmp_path_factory):
    cases = all_cases()
    src, placed = build_file(cases)
    path = Path(tmp_path_factory.mktemp("lexer_oracle")) / "Oracle.lean"
    path.write_text(src, encoding="utf-8")
    result = run_lean(kernel_lean_exe, path, timeout_s=600, memory_mb=4096)
    assert result.status == "ok", result.detail
    errors = {}
    for d in result.diagnostics:
        if d.is_error:
            errors.setdefault(d.pos.line, []).append(d)
    return src, placed, errors


def lean_ident_span(errors) -> tuple[int, int] | None:
    """The identifier Lean read after ``#check ``: the span of its "Unknown identifier" error, or — when a ``.``
    not followed by an identifier start comes next — up to Lean's "Invalid field notation" error at that dot."""
    col = len("#check ")
    for d in errors:
        if d.message.startswith("Unknown identifier") and d.pos.column == col and d.end_pos is not None:
            return (col, d.end_pos.column) if d.end_pos.line == d.pos.line else None
    for d in errors:
        if d.message.startswith("Invalid field notation") and d.pos.column > col:
            return col, d.pos.column
    return None


# Fuzzed lexemes are built valid by Lean's rules; pyshadow must read each as exactly one token of this kind.
SINGLE_TOKEN = {"fuzzed comment": ("comment", "doc_comment"), "fuzzed line comment": ("comment",),
                "fuzzed string": ("string",), "fuzzed raw string": ("string",), "fuzzed char": ("char",)}


def test_fuzzed_lexemes_are_single_tokens():
    failures = []
    for case in all_cases():
        kinds = SINGLE_TOKEN.get(case.label)
        if kinds is None:
            continue
        toks = [t for t in tokenize(case.text)]
        if len(toks) != 1 or toks[0].kind not in kinds or toks[0].text != case.text:
            failures.append(f"{case.label} {case.text!r}: {[(t.kind, t.text) for t in toks]}")
    assert not failures, "\n".join(failures[:20])


def test_enough_generated_boundary_cases():
    assert len(all_cases()) >= 500


def test_lexer_agrees_with_lean_on_every_boundary(oracle):
    src, placed, errors = oracle
    ours = pyshadow_probe_positions(src)
    lean_probes = {}
    for line, ds in errors.items():
        for d in ds:
            if not d.message.startswith("Unknown identifier"):
                continue
            name = d.message.split("`")[1] if "`" in d.message else ""
            if name.startswith(PROBE):
                lean_probes[name] = (line, d.pos.column)
    failures = []
    for case, first, probe in placed:
        if probe is not None:
            if ours.get(probe) != lean_probes.get(probe):
                failures.append(f"{case.label} {case.text!r}: pyshadow {ours.get(probe)} vs Lean {lean_probes.get(probe)}")
            continue
        span = pyshadow_ident(case.text)
        lean_span = lean_ident_span(errors.get(first, []))
        if span != lean_span:
            failures.append(f"{case.label} {case.text!r}: pyshadow {span} vs Lean {lean_span}")
    assert not failures, f"{len(failures)} of {len(placed)} disagree:\n" + "\n".join(failures[:40])
