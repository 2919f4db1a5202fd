"""Checks an LLM answer must pass before it is handed to Lean: cheap, textual, and conservative.

An answer is rejected unless it
- contains Lean code with at least one declaration of an allowed kind, each with a body (``:=``);
- has none of ``FORBIDDEN_WORDS`` as a code token (comments, docstrings, strings and «names» do not count), no
  unterminated comment or string, and no command that changes the language or the run (``macro``, ``#exit`` …);
- mentions the declaration names the task requires (and not those it forbids);
- does not restate the target: no declaration's conclusion is the target's conclusion again;
- is well-formed by the project's grammar, once that exists (``parse_check``).

Three functions are the seams later work swaps in one place: ``forbidden_tokens`` (token check),
``is_restatement`` (compares whitespace-normalised conclusion text; will compare parsed trees) and ``parse_check``
(grammar check through ``pyshadow.syntax.parse_declaration``). Lean itself has the last word on every answer.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..syntax.lexer import (
    CLOSE_BRACKETS,
    IDENT,
    OPEN_BRACKETS,
    STRING,
    SYMBOL,
    UNTERMINATED_COMMENT,
    UNTERMINATED_STRING,
    Token,
    code_tokens,
    tokenize,
)
from ..syntax.declarations import DeclarationSource, find_declarations, split_statement

FORBIDDEN_WORDS = frozenset({"sorry", "admit", "axiom", "namespace", "end", "sorryAx"})
# Commands that redefine syntax, run code, or cut the file short: never needed by a checker.
DISALLOWED_COMMANDS = frozenset(
    {"macro", "macro_rules", "syntax", "notation", "infix", "infixl", "infixr", "prefix", "postfix", "elab",
     "elab_rules", "initialize", "builtin_initialize", "run_cmd", "run_elab", "run_meta", "import", "prelude",
     "attribute", "export", "mutual", "declare_syntax_cat"}
)
# `set_option` of these switches off checking (e.g. `debug.skipKernelTC`): an answer never needs them.
DISALLOWED_OPTION_PREFIXES = ("debug.", "kernel.")
PROOF_KEYWORDS = ("theorem", "lemma", "example")
_DECL_KEYWORDS = frozenset({"theorem", "lemma", "def", "abbrev", "example", "instance", "structure", "class",
                            "inductive", "axiom", "opaque"})
_MODIFIERS = frozenset({"noncomputable", "private", "protected", "partial", "unsafe", "nonrec", "scoped", "local"})
_INTERPOLATION = re.compile(r"\{([^{}]*)\}")
_NAME_PART = re.compile(r"«[^»]*»|[^.]+")


@dataclass(frozen=True)
class ValidationSpec:
    """What a task's answer must satisfy.

    ``required_names``: each must be mentioned somewhere in the code. ``every_declaration_uses``: a name every
    declaration must mention (a checker that does not use the target checks nothing). ``banned_names``: must not
    be mentioned (a certificate may use only its hypotheses). ``target_statement``: when set, a declaration whose
    conclusion restates the target's is rejected. ``allowed_keywords``: declaration kinds the answer may contain.
    """

    required_names: tuple[str, ...] = ()
    every_declaration_uses: str | None = None
    banned_names: tuple[str, ...] = ()
    target_statement: str | None = None
    allowed_keywords: tuple[str, ...] = PROOF_KEYWORDS


def validate_answer(code: str, spec: ValidationSpec) -> list[str]:
    """Every reason to reject ``code`` under ``spec``, each a short phrase; an empty list means accepted."""
    if not code.strip():
        return ["the answer contains no Lean code"]
    reasons: list[str] = []
    bad = forbidden_tokens(code)
    if bad:
        reasons.append("forbidden: " + ", ".join(bad))
    reasons.extend(
        f"`{name}` is not used"
        for name in spec.required_names
        if name != spec.every_declaration_uses and not mentions(code, name)  # else reported per declaration
    )
    reasons.extend(f"`{name}` must not be used" for name in spec.banned_names if mentions(code, name))
    decls = find_declarations(code)
    if not decls:
        reasons.append("no declaration found")
    for index, decl in enumerate(decls, start=1):
        reasons.extend(_declaration_problems(code, decl, index, spec))
    if not reasons:
        problem = parse_check(code)
        if problem is not None:
            reasons.append(problem)
    return reasons


def _declaration_problems(code: str, decl: DeclarationSource, index: int, spec: ValidationSpec) -> list[str]:
    label = f"declaration {index} ({decl.keyword}{' ' + decl.name if decl.name else ''})"
    problems: list[str] = []
    if decl.keyword not in spec.allowed_keywords:
        problems.append(f"{label}: `{decl.keyword}` is not allowed here (only {', '.join(spec.allowed_keywords)})")
    if not decl.has_body:
        problems.append(f"{label} has no `:=` body")
    text = code[decl.keyword_start : decl.end]
    if spec.every_declaration_uses and not mentions(text, spec.every_declaration_uses):
        problems.append(f"{label} does not use `{spec.every_declaration_uses}`")
    if spec.target_statement is not None and is_restatement(decl.header(code), spec.target_statement):
        problems.append(f"{label} restates the target's conclusion instead of a part of it")
    return problems


# ---------------------------------------------------------------------------------------------------------------
# Token check (the one place to swap in a stricter lexer-based audit)


def forbidden_tokens(code: str) -> list[str]:
    """Forbidden words and commands used as code in ``code``, in order of first appearance, without repeats.

    Uses the project's Lean-aware lexer (``pyshadow.syntax.lexer``), so a word inside a comment, docstring,
    string, char literal or «quoted name» does not count — except inside ``{…}`` of an interpolated string
    (``s!"…"``, ``m!"…"``), which is code. Also reported: unterminated comments and strings (they would swallow
    whatever the checker file puts after the answer), ``#`` commands, syntax-changing commands at the start of a
    line, and ``set_option`` of ``debug.``/``kernel.`` options.
    """
    found: list[str] = []
    tokens = tokenize(code)
    previous: Token | None = None
    for i, tok in enumerate(tokens):
        if tok.kind == UNTERMINATED_COMMENT:
            found.append("unterminated comment")
        elif tok.kind == UNTERMINATED_STRING:
            found.append("unterminated string")
        elif tok.kind == IDENT and tok.text in FORBIDDEN_WORDS:
            found.append(tok.text)
        elif tok.kind == IDENT and tok.text in DISALLOWED_COMMANDS and _starts_line(code, tok):
            found.append(f"command `{tok.text}`")
        elif tok.kind == SYMBOL and tok.text == "#" and i + 1 < len(tokens) and tokens[i + 1].start == tok.end:
            found.append(f"command `#{tokens[i + 1].text}`")
        elif tok.kind == IDENT and tok.text == "set_option" and i + 1 < len(tokens):
            option = tokens[i + 1].text
            if option.startswith(DISALLOWED_OPTION_PREFIXES):
                found.append(f"set_option {option}")
        elif tok.kind == STRING and previous is not None and _is_interpolation_prefix(previous, tok):
            for inner in _INTERPOLATION.findall(tok.text):
                found.extend(forbidden_tokens(inner))
        if not tok.is_trivia:
            previous = tok
    return list(dict.fromkeys(found))


def _starts_line(code: str, tok: Token) -> bool:
    line_start = code.rfind("\n", 0, tok.start) + 1
    return not code[line_start : tok.start].strip()


def _is_interpolation_prefix(previous: Token, string: Token) -> bool:
    return previous.kind == IDENT and previous.text.endswith("!") and previous.end == string.start


def mentions(code: str, name: str) -> bool:
    """Whether ``code`` refers to declaration ``name`` as an identifier outside comments and strings.

    ``foo`` is mentioned by ``foo``, ``@foo``, ``foo.mp``, ``(foo n h).1`` and ``Ns.foo``; ``Ns.foo`` is mentioned
    by ``Ns.foo`` and ``Ns.foo.mp`` but not by a bare ``foo`` (checkers must name the target unambiguously).
    """
    wanted = _name_parts(name.lstrip("@"))
    if not wanted:
        return False
    width = len(wanted)
    for tok in code_tokens(code):
        if tok.kind != IDENT:
            continue
        parts = _name_parts(tok.text)
        if any(parts[k : k + width] == wanted for k in range(len(parts) - width + 1)):
            return True
    return False


def _name_parts(name: str) -> list[str]:
    return _NAME_PART.findall(name)


# ---------------------------------------------------------------------------------------------------------------
# Restatement (the one place to swap in a comparison of parsed trees)


def is_restatement(answer_statement: str, target_statement: str) -> bool:
    """Whether the answer's declaration concludes exactly what the target concludes.

    For now: the conclusions (text after the header's top-level ``:``) compared as token sequences — whitespace,
    comments and redundant outer parentheses do not matter; anything else does. TODO(pyshadow.syntax): compare
    the parsed conclusions (``parse_declaration(…).type``) instead, with atoms normalised the same way, so that
    inner bracketing and renamed binders stop mattering.
    """
    answer = normalise_proposition(conclusion_of(answer_statement))
    target = normalise_proposition(conclusion_of(target_statement))
    return bool(target) and answer == target


def conclusion_of(statement: str) -> str:
    """The type of a declaration header (``theorem f (x : α) : P x := …`` → ``P x``); a bare proposition as is."""
    header, _ = split_statement(statement)
    tokens = code_tokens(header)
    i = 0
    while i < len(tokens) and (tokens[i].text in _MODIFIERS or tokens[i].text == "@["):
        i = _skip_group(tokens, i) if tokens[i].text == "@[" else i + 1
    if i >= len(tokens) or tokens[i].text not in _DECL_KEYWORDS:
        return header.strip()
    depth = 0
    for tok in tokens[i + 1 :]:
        if tok.kind != SYMBOL:
            continue
        if tok.text in OPEN_BRACKETS:
            depth += 1
        elif tok.text in CLOSE_BRACKETS:
            depth = max(0, depth - 1)
        elif tok.text == ":" and depth == 0:
            return header[tok.end :].strip()
    return ""


def normalise_proposition(text: str) -> str:
    """Tokens joined by single spaces, comments dropped, redundant outer parentheses removed."""
    tokens = [t.text for t in code_tokens(text)]
    while len(tokens) >= 2 and tokens[0] == "(" and tokens[-1] == ")" and _closes_at_end(tokens):
        tokens = tokens[1:-1]
    return " ".join(tokens)


def _closes_at_end(tokens: Sequence[str]) -> bool:
    """Whether the ``(`` at index 0 is closed by the last token (so the pair wraps everything)."""
    depth = 0
    for k, text in enumerate(tokens):
        if text in OPEN_BRACKETS:
            depth += 1
        elif text in CLOSE_BRACKETS:
            depth -= 1
            if depth == 0:
                return k == len(tokens) - 1
    return False


def _skip_group(tokens: Sequence[Token], i: int) -> int:
    depth = 0
    for k in range(i, len(tokens)):
        if tokens[k].text in OPEN_BRACKETS:
            depth += 1
        elif tokens[k].text in CLOSE_BRACKETS:
            depth -= 1
            if depth == 0:
                return k + 1
    return len(tokens)


# ---------------------------------------------------------------------------------------------------------------
# Grammar check (the one place that calls the declaration parser)


def parse_check(code: str) -> str | None:
    """Why some declaration header in ``code`` does not parse, or None when all parse (or no parser is installed).

    Each header (``theorem … : T``, without its proof) goes through ``pyshadow.syntax.parse_declaration``. The
    import is lazy so that this module does not depend on the grammar being loadable. TODO(pyshadow.syntax): the
    skip when the module or its ``parse_declaration``/``ParseError`` are missing dates from before the parser
    landed; remove it once the parser is a settled part of every install.
    """
    try:
        syntax = importlib.import_module("pyshadow.syntax")
    except ModuleNotFoundError as err:
        if err.name in ("pyshadow.syntax", "pyshadow"):
            return None
        raise
    parse = getattr(syntax, "parse_declaration", None)
    parse_error = getattr(syntax, "ParseError", None)
    if parse is None or parse_error is None:
        return None
    for index, decl in enumerate(find_declarations(code), start=1):
        try:
            parse(decl.header(code))
        except parse_error as err:
            first_line = str(err).splitlines()[0] if str(err) else type(err).__name__
            return f"declaration {index} does not parse: {first_line}"
    return None
