"""The trust gate's detectors of how code is written: unproved goals, axioms, unsafe and compiler-trusting code,
commands that run code or extend the syntax, meta-level names, options, scopes, imports. Each yields the offsets it
flags; the table of rules and the policy are in ``pyshadow.score.audit``, the detectors of what a declaration
affects in ``pyshadow.score.audit_names``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..syntax.lexer import IDENT, UNTERMINATED_COMMENT, UNTERMINATED_STRING, Token
from ..syntax.scanner import ADMIT_WORDS, ADMITTING_SEARCH, column_of, name_components, normalize_name, walk_scopes
from .audit_source import Source, _command_arguments, _hash_command, _idents

PROOF_SEARCH = frozenset({"exact?", "rw?"})
UNSOUND_CONSTANTS = frozenset(
    {"sorryAx", "lcProof", "lcUnreachable", "lcCast", "unsafeCast", "unsafeIO", "unsafeBaseIO", "unsafeEIO",
     "ptrAddrUnsafe", "withPtrAddrUnsafe"}
)
NATIVE_TACTICS = frozenset({"native_decide", "bv_decide"})
NATIVE_CONSTANTS = frozenset({"ofReduceBool", "ofReduceNat", "reduceBool", "reduceNat", "trustCompiler"})
IMPLEMENTATION_ATTRIBUTES = frozenset({"implemented_by", "extern"})
SYNTAX_COMMANDS = frozenset(
    {"notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix", "syntax", "macro", "macro_rules",
     "elab", "elab_rules", "declare_syntax_cat", "binder_predicate", "simproc", "dsimproc", "simproc_decl",
     "dsimproc_decl", "unif_hint"}
)
META_ATTRIBUTES = frozenset({"macro", "tactic", "term_elab", "command_elab", "delab", "app_unexpander", "init"})
RUN_COMMANDS = frozenset({"run_cmd", "run_tac", "run_elab", "run_meta", "by_elab", "initialize", "builtin_initialize"})
# `#guard` evaluates its Bool term with compiled code (core Lean); Plausible's `#test` / `#sample` run generators.
HASH_RUN_COMMANDS = frozenset({"eval", "eval!", "guard", "test", "sample"})
META_PREFIXES = (
    "Lean.Elab", "Lean.Meta", "Lean.Parser", "Lean.Compiler", "Lean.Kernel", "Lean.Environment", "Lean.IR",
    "Lean.Server", "Lean.addDecl", "Lean.modifyEnv", "Lean.setEnv", "Lean.addAndCompile", "Lean.evalConst",
)
META_NAMES = frozenset(
    {"addDecl", "addAndCompile", "modifyEnv", "setEnv", "admitGoal", "mkSorry", "evalExpr", "evalConst",
     "elabCommand", "liftCommandElabM", "liftTermElabM", "CommandElabM", "TermElabM", "TacticM", "MetaM"}
)
META_NAMESPACES_AFTER_OPEN_LEAN = frozenset({"Elab", "Meta", "Parser", "Compiler", "Kernel", "IR"})


def _decreasing_by_clauses(s: Source) -> set[int]:
    """Indices of code tokens inside a ``decreasing_by`` clause (up to the next column-0 token)."""
    inside: set[int] = set()
    active = False
    for i, t in enumerate(s.code):
        if active and column_of(s.text, t.start) == 0:
            active = False
        if t.kind == IDENT and t.text == "decreasing_by":
            active = True
        elif active:
            inside.add(i)
    return inside


def detect_sorry(s: Source) -> Iterator[int]:
    """``sorry``/``admit``/``stop``, and the searches that admit the goal when they fail (``apply?``)."""
    in_clause = _decreasing_by_clauses(s)
    for i, t in _idents(s, outside_attributes=True):
        if (t.text in ADMIT_WORDS and i not in in_clause) or t.text in ADMITTING_SEARCH:
            yield t.start


def detect_decreasing_by_sorry(s: Source) -> Iterator[int]:
    """``sorry``/``admit``/``stop`` inside ``decreasing_by``: termination assumed instead of proved."""
    in_clause = _decreasing_by_clauses(s)
    for i, t in _idents(s, outside_attributes=True):
        if t.text in ADMIT_WORDS and i in in_clause:
            yield t.start


def detect_proof_search(s: Source) -> Iterator[int]:
    """``exact?`` / ``rw?`` left in a proof."""
    for _, t in _idents(s):
        if t.text in PROOF_SEARCH:
            yield t.start


def detect_axiom(s: Source) -> Iterator[int]:
    """Every ``axiom`` keyword (a keyword in Lean: it cannot be an ordinary identifier)."""
    for _, t in _idents(s):
        if t.text == "axiom":
            yield t.start


def _last_component(name: str) -> str:
    parts = name_components(name)
    return parts[-1] if parts else name


def detect_unsound_constant(s: Source) -> Iterator[int]:
    """References to constants that prove anything (``sorryAx``, ``lcProof`` …), however qualified or quoted."""
    for _, t in _idents(s):
        if _last_component(t.text) in UNSOUND_CONSTANTS:
            yield t.start


def detect_unsafe(s: Source) -> Iterator[int]:
    """``unsafe`` declarations and ``unsafe`` terms."""
    for _, t in _idents(s):
        if t.text == "unsafe":
            yield t.start


def detect_implemented_by(s: Source) -> Iterator[int]:
    """``implemented_by`` / ``extern`` attributes (also written with «guillemets»)."""
    for _, t in _idents(s):
        if normalize_name(t.text) in IMPLEMENTATION_ATTRIBUTES:
            yield t.start


def detect_native_decide(s: Source) -> Iterator[int]:
    """Compiler-trusting proofs: ``native_decide``, ``decide +native``, ``(native := true)``, ``ofReduceBool`` …"""
    code = s.code
    for i, t in _idents(s):
        if t.text in NATIVE_TACTICS or _last_component(t.text) in NATIVE_CONSTANTS:
            yield t.start
        elif t.text == "decide" and _config_follows(code, i + 1):
            yield t.start
        elif t.text == "native":
            after_plus = i > 0 and code[i - 1].text == "+" and code[i - 1].end == t.start
            as_field = i + 1 < len(code) and code[i + 1].text == ":="
            if after_plus or as_field:
                yield t.start


def _config_follows(code: Sequence[Token], i: int) -> bool:
    """``(config := …)`` right after: ``decide (config := …)`` can switch to compiled evaluation without the word
    ``native_decide`` (``kernel := false``, ``native := true``)."""
    return i + 2 < len(code) and code[i].text == "(" and code[i + 1].text == "config" and code[i + 2].text == ":="


def detect_exit(s: Source) -> Iterator[int]:
    """``#exit``."""
    for i, t in enumerate(s.code):
        if _hash_command(s, i) == "exit":
            yield t.start


def detect_message_filter(s: Source) -> Iterator[int]:
    """``#guard_msgs``, which can drop the next command's error messages."""
    for i, t in enumerate(s.code):
        if _hash_command(s, i) == "guard_msgs":
            yield t.start


def detect_unterminated_comment(s: Source) -> Iterator[int]:
    """A block comment that never closes."""
    for t in s.tokens:
        if t.kind == UNTERMINATED_COMMENT:
            yield t.start


def detect_unterminated_string(s: Source) -> Iterator[int]:
    """A string literal that never closes."""
    for t in s.tokens:
        if t.kind == UNTERMINATED_STRING:
            yield t.start


def detect_syntax_extension(s: Source) -> Iterator[int]:
    """Commands that add notation, syntax, macros, elaborators or elaboration hooks."""
    for _, t in _idents(s, outside_attributes=True):
        if t.text in SYNTAX_COMMANDS:
            yield t.start


def detect_meta_attribute(s: Source) -> Iterator[int]:
    """Attributes that register meta code (elaborators, macros, delaborators, initializers, parsers)."""
    for a in s.attributes:
        if a.name in META_ATTRIBUTES or a.name.startswith("builtin_") or a.name.endswith("_parser"):
            yield a.token.start


def detect_run_code(s: Source) -> Iterator[int]:
    """Commands and tactics that run code while the file is elaborated."""
    for i, t in enumerate(s.code):
        if (t.kind == IDENT and t.text in RUN_COMMANDS and i not in s.attribute_tokens) or (
            _hash_command(s, i) in HASH_RUN_COMMANDS
        ):
            yield t.start


def detect_meta_code(s: Source) -> Iterator[int]:
    """Lean meta-level names (``Lean.Elab.*``, ``addDecl`` …), and ``Elab.*``-style names after ``open Lean``.
    The namespaces an ``open`` command names are no finding (``open Lean Meta Qq`` is a common prover header and
    runs nothing); what they make reachable is."""
    opens_lean, opened = _opens_lean(s), _open_arguments(s)
    for i, t in _idents(s):
        if i in opened:
            continue
        name = normalize_name(t.text)
        first = name_components(name)[0] if name else ""
        if (
            name.startswith(META_PREFIXES)
            or name in META_NAMES
            or (opens_lean and first in META_NAMESPACES_AFTER_OPEN_LEAN)
        ):
            yield t.start


def _open_arguments(s: Source) -> set[int]:
    """Indices of the namespaces named by ``open`` commands."""
    out: set[int] = set()
    for i, t in _idents(s):
        if t.text == "open":
            args = {a.start for a in _command_arguments(s.text, s.code, i + 1)}
            out.update(k for k in range(i + 1, min(i + 1 + len(args) + 1, len(s.code))) if s.code[k].start in args)
    return out


def _opens_lean(s: Source) -> bool:
    """Whether some ``open`` command opens the ``Lean`` namespace."""
    for i, t in _idents(s):
        if t.text == "open" and any(a.text == "Lean" for a in _command_arguments(s.text, s.code, i + 1)):
            return True
    return False


def detect_set_option(s: Source) -> Iterator[int]:
    """``set_option`` of an option the policy forbids (``debug.*``, ``pp.*`` …), however the name is quoted."""
    code = s.code
    for i, t in _idents(s):
        if t.text == "set_option" and i + 1 < len(code) and code[i + 1].kind == IDENT:
            if s.policy.option_forbidden(normalize_name(code[i + 1].text)):
                yield t.start


def detect_unbalanced_scope(s: Source) -> Iterator[int]:
    """``end`` that closes no open scope or names another one. A scope left open at the end of the file is no
    finding: Lean closes it (the candidate is compiled as a module of its own, nothing is appended to it)."""
    for p in walk_scopes(s.text).problems:
        if p.unclosed is None or p.unclosed.kind == "mutual":  # a `mutual` block must end (Lean: parse error)
            yield p.offset


def detect_prelude(s: Source) -> Iterator[int]:
    """``prelude``: the file opts out of ``Init``."""
    for _, t in _idents(s):
        if t.text == "prelude":
            yield t.start


def detect_import(s: Source) -> Iterator[int]:
    """``import M`` with ``M``'s root outside the policy's allowed roots."""
    code = s.code
    for i, t in _idents(s):
        if t.text == "import" and i + 1 < len(code) and code[i + 1].kind == IDENT:
            root = name_components(normalize_name(code[i + 1].text))[0]
            if root not in s.policy.allowed_import_roots:
                yield code[i + 1].start
