"""What the statement-only (kernel) tier may judge: an allowlist of the commands that can surround a statement.

The kernel tier reads a candidate's statement as text and never elaborates the file, so it may judge a candidate
only when nothing before or inside the target's statement can change what that text means or run code while Lean
reads it. Lean is a language that runs code while it compiles (``#eval``, ``elab``, attributes that register
extensions, string-interpolation holes, local instances …), and every denylist of it had gaps; so the rule is the
other way round: the text up to the end of the last target's statement must consist of the commands of ``COMMANDS``
(one row each, below), and anything else — any other command, an attribute off ``SAFE_ATTRIBUTES``, an option off
``SAFE_OPTIONS``, meta-level syntax, a string literal, a local of class type — makes the verdict *undecided: needs
the full tier* with the line that caused it (never a pass, never a fail). What follows the last target's statement
(its proof, later commands) cannot change that statement; the audit (``pyshadow.score.audit``) still fails what
fakes a proof, and the full tier compiles everything in its sandbox.

========================  ==============================================================================================
command                   allowed form
========================  ==============================================================================================
``import``                ``import M`` with ``M``'s root in ``IMPORT_ROOTS`` (Mathlib and the libraries it builds on)
``open``                  ``open [scoped] A B …`` with optional ``(x y)`` lists and ``in``; not ``renaming``/``hiding``
``namespace``             ``namespace N``
``section``               ``[noncomputable] section [N]`` (left open at the end of the file too: Lean accepts that)
``end``                   ``end [N]``
``universe``              ``universe u v …``
``variable``              binders ``(x : T)`` ``{x : T}`` ``⦃x : T⦄`` whose type is no class: a known type, a type
                          variable, ``Type``/``Sort``/``Prop``, a relation (``a ≤ b``: a named hypothesis) or a known
                          predicate (``Nat.Prime p``); never ``[C]`` — every local of class type is a local instance
``set_option``            an option of ``SAFE_OPTIONS`` (limits, linters), also with ``in``
``declaration``           ``theorem``/``lemma``/``def``/``abbrev``/``example`` with ``private``/``protected``/
                          ``noncomputable`` and attributes of ``SAFE_ATTRIBUTES``; the body of a declaration before
                          the target passes the same token check as the statement, but may hold tactic blocks
========================  ==============================================================================================

Docstrings, module docs and comments are trivia and always allowed. Sources: the command grammar is
``src/Lean/Parser/Command.lean`` (leanprover/lean4); ``variable`` binders become local instances when their type is a
class (``src/Lean/Elab/Binders.lean``, ``Term.addLocalInstances``) whether explicit or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..syntax.lexer import (
    CLOSE_BRACKETS,
    COMMAND_KEYWORDS,
    IDENT,
    INTERPOLATION_KEYWORDS,
    NUMBER,
    OPEN_BRACKETS,
    STRING,
    SYMBOL,
    Token,
    line_col,
    tokenize,
)
from ..syntax.scanner import column_of, declarations, name_components, normalize_name

# Roots of `import`: Mathlib and the libraries it is built on (imports add library code only; what a statement can
# be made to mean depends on the commands below, which the table restricts).
IMPORT_ROOTS = frozenset({"Mathlib", "Init", "Std", "Batteries", "Lean", "Aesop", "Qq", "Plausible", "ImportGraph",
                          "ProofWidgets", "LeanSearchClient"})
# Options that change limits or what is logged, never what a statement elaborates to.
SAFE_OPTIONS = frozenset({"maxHeartbeats", "maxRecDepth", "synthInstance.maxHeartbeats", "synthInstance.maxSize",
                          "exponentiation.threshold"})
SAFE_OPTION_PREFIXES = ("linter.",)
# Attributes on declarations that register nothing that runs or that resolves a statement's notation/instances.
SAFE_ATTRIBUTES = frozenset({"simp", "reducible", "inline", "norm_cast", "nolint", "ext"})
DECLARATION_KEYWORDS = frozenset({"theorem", "lemma", "def", "abbrev", "example"})
SAFE_MODIFIERS = frozenset({"private", "protected", "noncomputable"})
# Heads of binder types that are no class (core and Mathlib types, and common predicates that are definitions).
TYPE_HEADS = frozenset(
    {"Nat", "ℕ", "Int", "ℤ", "Rat", "ℚ", "Real", "ℝ", "Complex", "ℂ", "Bool", "Prop", "Type", "Sort", "List", "Array",
     "Set", "Finset", "Multiset", "Fin", "ZMod", "Option", "Prod", "Sum", "String", "Char", "Unit", "NNReal", "ℝ≥0",
     "ENNReal", "ℝ≥0∞", "EReal", "PNat", "ℕ+", "Polynomial", "Matrix", "Nat.Prime", "Prime", "Even", "Odd",
     "Irrational", "Squarefree", "IsSquare", "Function.Injective", "Function.Surjective", "Function.Bijective",
     "Injective", "Surjective", "Bijective", "Continuous", "Differentiable", "Monotone", "StrictMono", "Antitone",
     "StrictAnti", "IsLeast", "IsGreatest", "Nat.Coprime", "Coprime"}
)
RELATIONS = frozenset({"=", "≠", "≤", "<", "≥", ">", "∣", "∈", "∉", "⊆", "⊂", "↔", "≡", "¬", "∀", "∃", "∧", "∨"})
# Meta-level names: the namespaces of Lean's elaborator, and the monads code runs in while a file compiles.
META_COMPONENTS = frozenset(
    {"Elab", "Meta", "Parser", "PrettyPrinter", "Delaborator", "Compiler", "Kernel", "Environment", "IR", "Server",
     "Widget", "CoreM", "MetaM", "TacticM", "TermElabM", "CommandElabM", "MacroM", "Macro", "Syntax", "Expr",
     "addDecl", "addAndCompile", "modifyEnv", "setEnv", "evalExpr", "evalConst", "NormNum", "Linter", "ProofWidgets",
     "Qq", "Tactic", "Command"}
)
# Words that start code run at elaboration time or another command (some are not in COMMAND_KEYWORDS because the
# builtin token table does not know them: Mathlib's `alias`, `unif_hint`, Batteries' `register_…`).
META_WORDS = frozenset(
    {"run_tac", "run_cmd", "run_elab", "run_meta", "by_elab", "dbg_trace", "initialize", "builtin_initialize",
     "unif_hint", "alias", "irreducible_def", "register_simp_attr", "register_option", "register_label_attr",
     "declare_syntax_cat", "deriving", "instance", "local", "scoped", "attribute", "export", "include", "omit",
     "elab", "elab_rules", "macro", "macro_rules", "syntax", "notation", "notation3", "infix", "infixl", "infixr",
     "prefix", "postfix", "simproc", "dsimproc", "add_decl_doc", "library_note", "suppress_compilation",
     "implemented_by", "extern", "unsafe", "partial", "opaque", "axiom", "mutual", "binder_predicate"}
)
# Tokens that may open a line at column 0 inside a declaration (match arms, `where`, termination clauses, closers).
CONTINUATIONS = frozenset({"|", "where", "termination_by", "decreasing_by", "·", "<;>"}) | CLOSE_BRACKETS


@dataclass(frozen=True, slots=True)
class Row:
    """One allowed command: its keyword(s) and the form the module docstring gives."""

    command: str
    keywords: frozenset[str]
    form: str


COMMANDS: dict[str, Row] = {
    r.command: r
    for r in (
        Row("import", frozenset({"import"}), "import M, M's root in IMPORT_ROOTS"),
        Row("open", frozenset({"open"}), "open [scoped] A B … [(x …)] [in], no renaming / hiding"),
        Row("namespace", frozenset({"namespace"}), "namespace N"),
        Row("section", frozenset({"section", "noncomputable"}), "[noncomputable] section [N]"),
        Row("end", frozenset({"end"}), "end [N]"),
        Row("universe", frozenset({"universe"}), "universe u …"),
        Row("variable", frozenset({"variable"}), "binders of non-class types and named hypotheses"),
        Row("set_option", frozenset({"set_option"}), "an option of SAFE_OPTIONS [in]"),
        Row("declaration", DECLARATION_KEYWORDS | SAFE_MODIFIERS | {"@["},
            "theorem/lemma/def/abbrev/example, SAFE_MODIFIERS, attributes of SAFE_ATTRIBUTES"),
    )
}


@dataclass(frozen=True, slots=True)
class Undecided:
    """Why the statement-only tier cannot judge a candidate: the first place off the allowlist."""

    line: int
    excerpt: str
    why: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.why}: {self.excerpt}"


class _Off(Exception):
    def __init__(self, token: Token, why: str):
        self.token, self.why = token, why


def statement_end(src: str, start: int) -> int:
    """The end of the statement of the declaration that starts at ``start`` (its top-level ``:=``)."""
    return next((d.statement_end for d in declarations(src, include_anonymous=True) if d.start == start), len(src))


def undecided(src: str, end: int, *, trusted_prefix: str = "") -> Undecided | None:
    """The first place in ``src[:end]`` that the allowlist does not cover, or None when all of it is covered.

    ``end`` is the end of the last target's statement (``statement_end``). ``trusted_prefix``: benchmark-provided
    context the candidate starts with verbatim (ProofNet's ``noncomputable section``, ``local notation`` …): what it
    holds is the reference's own context and is not judged.
    """
    trusted = len(trusted_prefix) if trusted_prefix and src.startswith(trusted_prefix) else 0
    code = [t for t in tokenize(src) if not t.is_trivia and t.start < end]
    reader = _Reader(src, code, end)
    i = 0
    while i < len(code):
        try:
            i = reader.command(i)
        except _Off as off:
            if off.token.start >= trusted:
                line = line_col(src, off.token.start)[0]
                return Undecided(line, _excerpt(src, off.token.start), off.why)
            i = next((k for k, t in enumerate(code) if t.start >= trusted), len(code))
    return None


def _excerpt(src: str, offset: int, width: int = 120) -> str:
    start = src.rfind("\n", 0, offset) + 1
    stop = src.find("\n", offset)
    line = src[start : stop if stop != -1 else len(src)].strip()
    return line if len(line) <= width else line[: width - 1] + "…"


class _Reader:
    """Reads the allowed commands one by one; raises ``_Off`` at the first token outside them."""

    def __init__(self, src: str, code: Sequence[Token], end: int):
        self.src, self.code, self.end = src, code, end
        self.variables: set[str] = set()
        self.depth = _depths(code)

    def at(self, i: int) -> Token | None:
        return self.code[i] if i < len(self.code) else None

    def word(self, i: int) -> str:
        t = self.at(i)
        return t.text if t is not None and t.kind == IDENT else ""

    def same_line(self, i: int, j: int) -> bool:
        a, b = self.at(i), self.at(j)
        return a is not None and b is not None and "\n" not in self.src[a.end : b.start]

    def command(self, i: int) -> int:
        """Read one command from ``code[i]``; return the index after it."""
        t = self.code[i]
        w = self.word(i)
        if w == "import":
            root = name_components(normalize_name(self.word(i + 1)))[:1]
            if not root or root[0] not in IMPORT_ROOTS:
                raise _Off(t, "an import outside IMPORT_ROOTS")
            return i + 2
        if w == "open":
            return self._open(i + 1)
        if w in {"namespace", "end"}:
            nxt = self.word(i + 1)
            if w == "namespace" and not nxt:
                raise _Off(t, "a namespace without a name")
            return i + 2 if nxt and nxt not in COMMAND_KEYWORDS and self.same_line(i, i + 1) else i + 1
        if w == "section" or (w == "noncomputable" and self.word(i + 1) == "section"):
            k = i + 1 if w == "section" else i + 2
            nxt = self.word(k)
            return k + 1 if nxt and nxt not in COMMAND_KEYWORDS and self.same_line(k - 1, k) else k
        if w == "universe":
            k = i + 1
            while self.word(k) and self.word(k) not in COMMAND_KEYWORDS:
                k += 1
            return k
        if w == "variable":
            return self._variable(i + 1)
        if w == "set_option":
            return self._set_option(i)
        if w in DECLARATION_KEYWORDS | SAFE_MODIFIERS | {"instance"} or (t.kind == SYMBOL and t.text == "@["):
            return self._declaration(i)
        raise _Off(t, "a command off the statement-only tier's allowlist")

    def _open(self, k: int) -> int:
        if self.word(k) == "scoped":
            k += 1
        if not self.word(k) or self.word(k) in COMMAND_KEYWORDS:
            raise _Off(self.code[k - 1], "an open without a namespace")
        while (t := self.at(k)) is not None:
            if t.kind == IDENT and t.text in {"renaming", "hiding"}:
                raise _Off(t, f"open … {t.text} (it renames what names mean)")
            if t.kind == IDENT and t.text == "in":
                return k + 1
            if t.kind == IDENT and t.text not in COMMAND_KEYWORDS and t.text not in META_WORDS:
                k += 1
            elif t.kind == SYMBOL and t.text == "(":
                close = self._close(k)
                if any(x.kind != IDENT for x in self.code[k + 1 : close]):
                    raise _Off(t, "an open with an explicit list that is not plain names")
                k = close + 1
            else:
                return k
        return k

    def _set_option(self, i: int) -> int:
        name = normalize_name(self.word(i + 1))
        if name not in SAFE_OPTIONS and not name.startswith(SAFE_OPTION_PREFIXES):
            raise _Off(self.code[i], f"set_option {name or '?'} (not on SAFE_OPTIONS)")
        value = self.at(i + 2)
        if value is None or value.kind not in {IDENT, NUMBER}:
            raise _Off(self.code[i], "a set_option without a plain value")
        return i + 4 if self.word(i + 3) == "in" else i + 3

    def _close(self, k: int) -> int:
        depth = 0
        for j in range(k, len(self.code)):
            t = self.code[j]
            if t.kind == SYMBOL and t.text in OPEN_BRACKETS:
                depth += 1
            elif t.kind == SYMBOL and t.text in CLOSE_BRACKETS:
                depth -= 1
                if depth == 0:
                    return j
        raise _Off(self.code[k], "a bracket the text before the statement never closes")

    def _variable(self, k: int) -> int:
        start = k
        while (t := self.at(k)) is not None and t.kind == SYMBOL and t.text in {"(", "{", "⦃", "[", "{{", "⟨"}:
            close = self._close(k)
            if t.text in {"[", "⟨"}:
                raise _Off(t, "a section variable with an instance binder (a local instance)")
            inner = self.code[k + 1 : close]
            colon = next((j for j, x in enumerate(inner) if x.kind == SYMBOL and x.text == ":"), None)
            names = [x.text for x in (inner if colon is None else inner[:colon]) if x.kind == IDENT]
            if colon is not None:
                body = inner[colon + 1 :]
                self._tokens(body, statement=True)
                if not self._plain_type(body):
                    raise _Off(t, "a section variable whose type may be a class (every local of class type is a "
                                  "local instance)")
            if shadowing := [n for n in names if normalize_name(n) in TYPE_HEADS]:
                raise _Off(t, f"a section variable named like a type ({shadowing[0]})")
            self.variables.update(names)
            k = close + 1
        if k == start:
            raise _Off(self.code[k - 1], "a variable command without binders")
        return k

    def _plain_type(self, body: Sequence[Token]) -> bool:
        """Whether a binder type is surely no class. Lean's ``isClass?`` looks through ``∀``/``→`` to the codomain,
        so the codomain decides: a relation at depth 0 (a named hypothesis) or a known type's head."""
        if body and body[0].text in {"∃", "∃!", "¬"}:
            return True
        depths = _depths(body)
        cut = max((j + 1 for j, x in enumerate(body) if depths[j] == 0 and x.text in {"→", "->", ","}), default=0)
        body, depths = body[cut:], depths[cut:]
        if any(d == 0 and x.kind == SYMBOL and x.text in RELATIONS for x, d in zip(body, depths)):
            return True  # a proposition whose head is a relation: a named hypothesis, never an instance
        head = next((x for x in body if not (x.kind == SYMBOL and x.text in {"(", "@"})), None)
        if head is None or head.kind != IDENT:
            return False
        name = normalize_name(head.text)
        return name in TYPE_HEADS or name in self.variables or name_components(name)[-1:] == ["Prop"]

    def _declaration(self, i: int) -> int:
        k = i
        while (t := self.at(k)) is not None and t.kind == SYMBOL and t.text == "@[":
            close = self._close(k)
            self._attributes(self.code[k + 1 : close], t)
            k = close + 1
        while self.word(k) in SAFE_MODIFIERS:
            k += 1
        keyword = self.word(k)
        header_end = self._header_end(k + 1)
        is_target = header_end == len(self.code)  # the text is cut at the end of the target's statement
        # The target may be a data target (`instance X … : T`, as the reference states it): its own keyword changes
        # nothing before its statement.
        if keyword not in DECLARATION_KEYWORDS and not (is_target and keyword == "instance"):
            raise _Off(self.at(k) or self.code[i], "a declaration off the allowlist (or with another modifier)")
        self._tokens(self.code[k + 1 : header_end], statement=is_target)
        k = header_end
        while (t := self.at(k)) is not None and not self._starts_command(k):
            k += 1
        self._tokens(self.code[header_end:k], statement=False)
        return k

    def _header_end(self, k: int) -> int:
        """Index of the top-level ``:=`` / ``where`` / ``|`` that ends a declaration's statement (or of the next
        command keyword, or the end): Lean reads a header across lines whatever their columns."""
        while (t := self.at(k)) is not None:
            if self.depth[k] == 0 and t.text in {":=", "where", "|"}:
                return k
            if self.depth[k] == 0 and (t.text in {"@[", "#"} or (t.kind == IDENT and t.text in COMMAND_KEYWORDS)):
                return k
            k += 1
        return k

    def _attributes(self, inner: Sequence[Token], opener: Token) -> None:
        expect_name = True
        for t in inner:
            if expect_name:
                if t.kind != IDENT or normalize_name(t.text) not in SAFE_ATTRIBUTES:
                    raise _Off(opener, f"the attribute {t.text} (not on SAFE_ATTRIBUTES)")
                expect_name = False
            elif t.kind == SYMBOL and t.text == ",":
                expect_name = True
            elif t.kind not in {IDENT, NUMBER} and t.text not in {"←", "<-", "↓"}:
                raise _Off(opener, "an attribute with arguments")

    def _starts_command(self, k: int) -> bool:
        t = self.code[k]
        if t.kind == SYMBOL and t.text in {"@[", "#"}:
            return True
        if t.kind == IDENT and t.text in COMMAND_KEYWORDS and t.text not in {"open", "set_option", "local", "scoped"}:
            return self._depth_zero(k)
        return column_of(self.src, t.start) == 0 and t.text not in CONTINUATIONS and self._depth_zero(k)

    def _depth_zero(self, k: int) -> bool:
        return self.depth[k] == 0

    def _tokens(self, toks: Sequence[Token], *, statement: bool) -> None:
        """Meta-level syntax, string literals and interpolation, hash commands, attributes, quotations."""
        for t in toks:
            if t.kind == STRING:
                raise _Off(t, "a string literal before the target's statement ends (interpolation holes are code)")
            if t.kind == SYMBOL and t.text in {"`", "@[", "#", "%["}:
                raise _Off(t, f"meta-level syntax {t.text!r} before the target's statement ends")
            if t.kind != IDENT:
                continue
            name = normalize_name(t.text)
            if name in INTERPOLATION_KEYWORDS:
                raise _Off(t, f"a macro or elaborator call {t.text} before the target's statement ends")
            if name in META_WORDS or any(c in META_COMPONENTS for c in name_components(name)):
                raise _Off(t, f"meta-level code {t.text} before the target's statement ends")
            if statement and t.text == "by":
                raise _Off(t, "a tactic block inside the target's statement")
            parts = name_components(name)
            if statement and len(parts) > 1 and parts[0] in self.variables:
                # `Real.sqrt x` with a section variable `Real` is a field access on that variable
                raise _Off(t, f"{t.text} reads through the section variable {parts[0]}")


def _depths(toks: Sequence[Token]) -> list[int]:
    """Bracket depth before each token."""
    out, depth = [], 0
    for t in toks:
        if t.kind == SYMBOL and t.text in CLOSE_BRACKETS:
            depth = max(depth - 1, 0)
        out.append(depth)
        if t.kind == SYMBOL and t.text in OPEN_BRACKETS:
            depth += 1
    return out


def judgeable(src: str, starts: Sequence[int], *, trusted_prefix: str = "") -> Undecided | None:
    """``undecided`` up to the end of the last statement among the declarations starting at ``starts``."""
    if not starts:
        return None
    end = max(statement_end(src, s) for s in starts)
    return undecided(src, end, trusted_prefix=trusted_prefix)


__all__ = ["COMMANDS", "SAFE_ATTRIBUTES", "SAFE_OPTIONS", "Undecided", "judgeable", "statement_end", "undecided"]
