"""The static trust gate: what in an untrusted candidate file could fake a pass.

``audit(src, policy)`` returns one ``Finding`` per offending place, sorted by position. It reads code only —
mentions inside comments, docstrings, strings, char literals and «quoted» names are never findings (the lexer
separates them) — with one exception: the ``{…}`` holes of interpolated strings (``s!"{sorry}"``) are code to
Lean, so they are lexed and audited as code.

Every rule is one row of ``RULES`` (kind → summary, detector). A detector is a small function from the lexed
source to the offsets it flags. The kinds, and the reasoning behind the debatable ones:

=======================  =========================================================================================
kind                     flags
=======================  =========================================================================================
sorry                    ``sorry``, ``admit``, ``stop`` (core macro for ``repeat sorry``), and ``apply?`` /
                         ``library_search``, which close the goal with ``sorry`` when no full proof is found.
decreasing_by_sorry      ``sorry``/``admit`` in a ``decreasing_by`` clause (termination assumed, not proved).
proof_search             ``exact?``, ``rw?``: a search left in the proof. Lean still checks what it finds, but the
                         submission is not a fixed proof (results depend on time limits and the library).
axiom                    ``axiom`` in any form (``private axiom``, ``unsafe axiom``, ``protected axiom`` …).
unsound_constant         Using a constant that proves anything: ``sorryAx``, ``lcProof``, ``lcUnreachable``,
                         ``lcCast``, and the unsafe casts ``unsafeCast``, ``unsafeIO``, ``ptrAddrUnsafe`` ….
unsafe                   ``unsafe`` (declarations or terms outside the kernel's checks).
implemented_by           ``implemented_by`` / ``extern``: the evaluator runs other code than the kernel sees
                         (the ``opaque`` + ``@[implemented_by]`` + ``native_decide`` trick).
native_decide            ``native_decide``, ``decide +native`` / ``native := true``, ``bv_decide``, and
                         ``Lean.ofReduceBool`` / ``ofReduceNat`` / ``reduceBool`` / ``trustCompiler`` used
                         directly: proofs that trust the compiler. Off with ``AuditPolicy(allow_native_decide=True)``.
exit                     ``#exit``: Lean stops reading, so nothing appended after it (the checkers) runs.
message_filter           ``#guard_msgs``: it can drop the errors of the next command — a failed candidate then
                         "compiles", and a trailing ``#guard_msgs (drop error) in`` would hide the first checker's.
unterminated_comment     A ``/-`` never closed: it swallows every checker appended after the candidate.
unterminated_string      A ``"`` never closed: same effect.
syntax_extension         ``notation`` (any, incl. ``local``/``scoped``, Mathlib ``notation3``), ``infix``,
                         ``infixl``, ``infixr``, ``prefix``, ``postfix``, ``syntax``, ``macro``, ``macro_rules``,
                         ``elab``, ``elab_rules``, ``declare_syntax_cat``, ``binder_predicate``, ``simproc``,
                         ``dsimproc``, ``unif_hint``: they can re-define what the checkers' tactics and terms mean
                         (``macro "exact" … => `(tactic| sorry)``, a notation for ``sorry``).
meta_attribute           Attributes that install meta code: ``@[macro]``, ``@[tactic]``, ``@[term_elab]``,
                         ``@[command_elab]``, ``@[delab]``, ``@[app_unexpander]``, ``@[init]``,
                         ``@[builtin_…]``, ``@[…_parser]`` — an elaborator with no ``elab`` keyword.
run_code                 Code run at elaboration time: ``#eval``/``#eval!`` (a ``CommandElabM`` action can add
                         declarations unchecked), ``run_cmd``, ``run_tac``, ``run_elab``, ``run_meta``,
                         ``by_elab``, ``initialize``, ``builtin_initialize``.
meta_code                Names from Lean's meta level — ``Lean.Elab.*``, ``Lean.Meta.*``, ``Lean.Parser.*``,
                         ``Lean.Environment``, ``addDecl``, ``modifyEnv``, ``admitGoal``, ``mkSorry`` …, and
                         ``Elab.*``-style names after ``open Lean``. The ``open`` line itself is no finding.
set_option               Options that switch off checking or change the evidence read: ``debug.*``
                         (``debug.skipKernelTC`` skips the kernel, ``debug.byAsSorry`` turns ``by`` into
                         ``sorry``), ``bootstrap.*`` (switches for building Lean itself), ``pp.*`` (how
                         diagnostics print; nothing a statement needs), ``compiler.*``, ``interpreter.*``,
                         ``doc.*`` (``doc.verso`` elaborates code inside docstrings), and
                         ``allowUnsafeReducibility``. Resource limits (``maxHeartbeats``, ``maxRecDepth``,
                         ``synthInstance.*``), ``trace.*``, ``linter.*``, ``autoImplicit``, ``Elab.async`` and
                         ``backward.*`` are allowed: they change what fails or what is logged, never what passes
                         (the runner enforces its own time and memory limits).
forced_hypothesis        Section variables forced on every later theorem, appended checkers too: ``include``
                         (``variable (h : False)`` + ``include h``), and ``variable [C …]`` instance binders that
                         mention no other variable — Lean includes those in every theorem (``variable [Fact False]``
                         gives each checker a ``False`` hypothesis).
foreign_attribute        ``attribute [...] X`` where ``X`` is not declared in the candidate: ``simp``,
                         ``reducible``, ``irreducible``, ``instance``, ``-simp`` … change library declarations the
                         checkers rely on. ``attribute [local instance] Classical.propDecidable`` (and the other
                         classical decidability instances) is allowed by default (``allowed_local_instances``).
foreign_instance         An ``instance`` (or ``@[instance]`` / ``attribute [instance]`` declaration) of a class
                         the candidate did not define, other than proof-like classes (``Fact``, ``NeZero``,
                         ``Decidable`` …): the checkers see the same instance, so
                         ``instance : LT ℕ := ⟨fun _ _ => False⟩`` changes what their statements mean.
unbalanced_scope         ``end`` that does not pair up with an open ``namespace``/``section`` (names must match,
                         ``end`` never closes more than is open). A scope left open at the end of the file is fine:
                         Lean closes it, and the candidate is compiled as a module of its own.
prelude                  ``prelude``: the file does not import ``Init``; it can define its own ``Eq``, ``Nat``, ….
import                   ``import`` of a module outside ``allowed_import_roots`` (Mathlib, Init, Std, Batteries,
                         Lean, Aesop, Qq, Plausible, …).
=======================  =========================================================================================

``audit(src, policy, trusted_prefix=context)`` ignores findings inside benchmark-provided text the candidate starts
with verbatim (ProofNet's contexts hold ``instance … := sorry`` and an unclosed ``noncomputable section``).

The gate is static and conservative; it complements, never replaces, the runner's checks after compiling
(``#print axioms`` of every checker, positive evidence only).
"""

from __future__ import annotations

import functools
import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from ..syntax.lexer import (
    CLOSE_BRACKETS,
    COMMAND_KEYWORDS,
    IDENT,
    OPEN_BRACKETS,
    SYMBOL,
    UNTERMINATED_COMMENT,
    UNTERMINATED_STRING,
    Token,
    line_col,
    tokenize,
)
from ..syntax.scanner import (
    ADMIT_WORDS,
    ADMITTING_SEARCH,
    NamedDeclaration,
    column_of,
    declarations,
    name_components,
    normalize_name,
    walk_scopes,
)

EXCERPT_WIDTH = 120

# ---------------------------------------------------------------------------------------------------------------
# Word lists used by the rules (each rule's docstring says why)

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
PROOF_LIKE_CLASSES = frozenset(
    {"Fact", "NeZero", "Nonempty", "Nontrivial", "IsEmpty", "Subsingleton", "Decidable", "DecidableEq",
     "DecidablePred", "DecidableRel", "Fintype", "Finite", "Infinite", "Countable"}
)
CLASSICAL_INSTANCES = frozenset(
    {"Classical.propDecidable", "Classical.dec", "Classical.decEq", "Classical.decPred", "Classical.decRel",
     "Classical.decidableInhabited", "Classical.typeDecidableEq", "Classical.typeDecidable"}
)
# Namespaces the checkers live in (pyshadow.score.full.CHECKS_NAMESPACE): a candidate declaring anything there — a
# `Nat`, a scoped instance — changes what every checker statement means once the checker file enters it.
# The statements module (STATEMENTS_MODULE) and both, suffixed with a per-run nonce (`PyshadowChecks_<hex>`), too.
RESERVED_NAMESPACES = frozenset({"PyshadowChecks", "PyshadowStatements", "PyshadowCandidate"})
# Core and Mathlib type and class names a statement reads: a candidate that declares one of them (in any namespace)
# can make its statement read the same and mean something else (`namespace Tiny def Nat := Fin 1`).
CORE_TYPE_NAMES = frozenset(
    {"Nat", "Int", "Rat", "Real", "Complex", "Bool", "Prop", "Type", "Sort", "List", "Array", "Set", "Finset",
     "Multiset", "Fin", "ZMod", "Option", "Prod", "Sum", "Subtype", "String", "Char", "Unit", "True", "False", "Eq",
     "Ne", "Not", "And", "Or", "Iff", "Exists", "Polynomial", "Matrix", "ENNReal", "NNReal", "EReal", "PNat",
     "Function", "ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "LE", "LT", "Add", "Mul", "Sub", "Div", "Neg", "Inv", "Pow", "Dvd", "Mod",
     "HAdd", "HMul", "HSub", "HDiv", "HPow", "HMod", "Zero", "One", "OfNat", "Membership", "Abs", "Max", "Min",
     "Finite", "Fintype", "Decidable", "Nonempty", "Inhabited", "Even", "Odd", "Prime", "Nat.Prime", "Irrational",
     "Continuous", "Differentiable", "deriv", "Real.sqrt", "Real.pi", "abs", "max", "min", "gcd", "lcm"}
)
# Letters of other scripts that render like Latin ones: an identifier mixing them with Latin letters (`Νat`, Greek
# capital Nu) is made to be misread. Single Greek letters (`α`, `ν`, `μ`) and all-Greek names are left alone.
# (Only letters Lean accepts in identifiers matter: Greek, Coptic and Latin Extended-A ones; Cyrillic is no
# identifier character in Lean, so `Nаt` with a Cyrillic а does not even parse.) Each maps to the Latin letter it
# passes for.
CONFUSABLE_WITH_LATIN = {
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ι": "i", "ϲ": "c", "ν": "v", "ρ": "p", "υ": "u", "χ": "x", "ϳ": "j",
    "ı": "i", "ſ": "f",
}
# Lower-case Greek letters are ordinary mathematical names (`hρ : 0 < ρ`, `xν`): they count as disguise only when
# the Latin reading is a name that matters (a core name, `sorry`, or a name the file or the reference uses).
_PLAIN_GREEK = frozenset("οινρυχ")
DEFAULT_IMPORT_ROOTS = frozenset(
    {"Mathlib", "Init", "Std", "Batteries", "Lean", "Aesop", "Qq", "Plausible", "ImportGraph", "ProofWidgets",
     "LeanSearchClient"}
)


# ---------------------------------------------------------------------------------------------------------------
# Public vocabulary


@dataclass(frozen=True, slots=True)
class Finding:
    """One offending place: its rule's kind, 1-based line, 0-based column, and the source line (trimmed)."""

    kind: str
    line: int
    column: int
    excerpt: str

    def to_dict(self) -> dict[str, object]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class AuditPolicy:
    """What the gate tolerates. The defaults are the strict evaluation setting."""

    allow_native_decide: bool = False
    # `doc.verso` (src/Lean/DocString/Extension.lean) makes docstrings Verso markup whose code elements are
    # elaborated, and changes how the docstring itself is parsed: docstrings stop being inert.
    forbidden_option_prefixes: tuple[str, ...] = ("debug.", "bootstrap.", "pp.", "compiler.", "interpreter.", "doc.")
    forbidden_options: frozenset[str] = frozenset({"allowUnsafeReducibility"})
    allowed_instance_classes: frozenset[str] = PROOF_LIKE_CLASSES
    allowed_local_instances: frozenset[str] = CLASSICAL_INSTANCES
    allowed_import_roots: frozenset[str] = DEFAULT_IMPORT_ROOTS
    reserved_namespaces: frozenset[str] = RESERVED_NAMESPACES
    disabled_rules: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        unknown = set(self.disabled_rules) - set(RULES)
        if unknown:
            raise ValueError(f"unknown audit rule(s): {', '.join(sorted(unknown))}")

    def option_forbidden(self, option: str) -> bool:
        return option in self.forbidden_options or option.startswith(self.forbidden_option_prefixes)


# ---------------------------------------------------------------------------------------------------------------
# The lexed source every detector reads


@dataclass(frozen=True, slots=True)
class AttributeEntry:
    """One attribute inside ``@[...]`` or ``attribute [...]``: ``local simp``, ``-instance``, ``implemented_by f``."""

    name: str  # normalized: `simp`, `instance`, `implemented_by`
    token: Token  # the name's token
    command: Token | None  # the `attribute` keyword, or None for `@[...]`
    targets: tuple[Token, ...]  # for `attribute [...] a b`: a, b
    local: bool  # `local` or `scoped`
    owner_offset: int  # for `@[...]`: where the bracket opens (the declaration follows)
    scoped: bool = False  # `scoped` (or `scoped[NS]`): it comes back wherever the namespace is opened


@dataclass(frozen=True, slots=True)
class Source:
    """A candidate's text lexed once for all detectors."""

    text: str
    tokens: tuple[Token, ...]  # everything, comments included
    code: tuple[Token, ...]  # code tokens, plus those of interpolated-string holes, in order
    attribute_tokens: frozenset[int]  # indices into `code` of tokens inside attribute brackets
    attributes: tuple[AttributeEntry, ...]
    declarations: tuple[NamedDeclaration, ...]  # all declarations; named ones fully qualified, others ""
    policy: AuditPolicy
    reference_names: frozenset[str] = frozenset()  # library names the reference uses (``reference_used_names``)

    @property
    def named(self) -> tuple[NamedDeclaration, ...]:
        return tuple(d for d in self.declarations if d.qualified_name)


def lex_source(text: str, policy: AuditPolicy) -> Source:
    """Lex ``text``, locate its attribute lists and its declarations."""
    tokens = tuple(tokenize(text))
    code = [t for t in tokens if not t.is_trivia]  # the lexer already lexes interpolation holes as code
    inside, entries = _attribute_lists(text, code)
    decls = tuple(declarations(text, include_anonymous=True))
    return Source(text, tokens, tuple(code), frozenset(inside), tuple(entries), decls, policy)


def _attribute_lists(text: str, code: list[Token]) -> tuple[set[int], list[AttributeEntry]]:
    """Indices of tokens inside ``@[...]`` / ``attribute [...]``, and the attribute entries found there."""
    inside: set[int] = set()
    entries: list[AttributeEntry] = []
    for i, tok in enumerate(code):
        is_at = tok.kind == SYMBOL and tok.text == "@["
        is_cmd = tok.kind == IDENT and tok.text == "attribute" and i + 1 < len(code) and code[i + 1].text == "["
        if not (is_at or is_cmd):
            continue
        open_i = i if is_at else i + 1
        close_i = _matching_bracket(code, open_i)
        inside.update(range(open_i + 1, close_i))
        # `attribute [..] ident+` (src/Lean/Parser/Command.lean) takes identifiers on any later line too.
        targets = tuple(_command_arguments(text, code, close_i + 1, across_lines=True)) if is_cmd else ()
        for group in _split_on_commas(code, open_i + 1, close_i):
            entry = _attribute_entry(group, tok if is_cmd else None, targets, tok.start)
            if entry is not None:
                entries.append(entry)
    return inside, entries


def _depths(toks: Sequence[Token], start: int) -> Iterator[tuple[int, Token, int]]:
    """(index, token, bracket depth after it) from ``start``; a closing bracket is reported at the outer depth."""
    depth = 0
    for k in range(start, len(toks)):
        t = toks[k]
        if t.kind == SYMBOL and t.text in OPEN_BRACKETS:
            depth += 1
        elif t.kind == SYMBOL and t.text in CLOSE_BRACKETS:
            depth -= 1
        yield k, t, depth


def _matching_bracket(code: Sequence[Token], i: int) -> int:
    """Index of the bracket closing the one at ``i`` (or the end)."""
    return next((k for k, t, depth in _depths(code, i) if depth == 0 and t.text in CLOSE_BRACKETS), len(code))


def _split_on_commas(code: list[Token], start: int, stop: int) -> Iterator[list[Token]]:
    depth, group = 0, []
    for k in range(start, stop):
        t = code[k]
        if t.kind == SYMBOL and t.text in OPEN_BRACKETS:
            depth += 1
        elif t.kind == SYMBOL and t.text in CLOSE_BRACKETS:
            depth -= 1
        if depth == 0 and t.kind == SYMBOL and t.text == ",":
            yield group
            group = []
        else:
            group.append(t)
    if group:
        yield group


def _attribute_entry(
    group: list[Token], command: Token | None, targets: tuple[Token, ...], owner: int
) -> AttributeEntry | None:
    local = scoped = False
    k = 0
    while k < len(group) and group[k].text in {"local", "scoped", "-"}:
        local = local or group[k].text in {"local", "scoped"}
        scoped = scoped or group[k].text == "scoped"
        k += 1
        if k < len(group) and group[k].text == "[":  # `scoped[NS] simp`
            while k < len(group) and group[k].text != "]":
                k += 1
            k += 1
    if k >= len(group) or group[k].kind != IDENT:
        return None
    return AttributeEntry(normalize_name(group[k].text), group[k], command, targets, local, owner, scoped)


def _command_arguments(text: str, code: Sequence[Token], i: int, *, across_lines: bool = False) -> Iterator[Token]:
    """The identifiers that follow a command's bracket (``attribute [simp] a b``), up to the next command (or, unless
    ``across_lines``, the next line starting at column 0)."""
    prev_end = code[i - 1].end if i > 0 else 0
    while i < len(code):
        t = code[i]
        new_line = "\n" in text[prev_end : t.start]
        if t.kind != IDENT or t.text in COMMAND_KEYWORDS or t.text == "in":
            return
        if new_line and column_of(text, t.start) == 0 and not across_lines:
            return
        yield t
        prev_end = t.end
        i += 1


def _idents(s: Source, *, outside_attributes: bool = False) -> Iterator[tuple[int, Token]]:
    for i, t in enumerate(s.code):
        if t.kind == IDENT and not (outside_attributes and i in s.attribute_tokens):
            yield i, t


def _hash_command(s: Source, i: int) -> str | None:
    """The name of a ``#command`` whose ``#`` is ``code[i]`` (``#`` and name written together), else None."""
    t = s.code[i]
    if t.kind != SYMBOL or t.text != "#" or i + 1 >= len(s.code):
        return None
    nxt = s.code[i + 1]
    return nxt.text if nxt.kind == IDENT and nxt.start == t.end else None


# ---------------------------------------------------------------------------------------------------------------
# Detectors: each yields the offsets it flags


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


def detect_forced_hypothesis(s: Source) -> Iterator[int]:
    """``include``, and ``variable`` instance binders that depend on no variable (so every theorem gets them)."""
    code = list(s.code)
    variables: set[str] = set()
    instance_binders: list[tuple[Token, list[Token]]] = []
    for i, t in _idents(s):
        if t.text == "include":
            yield t.start
        elif t.text == "variable":
            for opener, inner in _variable_binders(s.text, code, i + 1):
                names, body = _split_binder(inner)
                if opener.text == "[":
                    instance_binders.append((opener, body))
                variables.update(names)
    for opener, body in instance_binders:
        roots = {name_components(normalize_name(t.text))[0] for t in body if t.kind == IDENT}
        if not roots & variables:
            yield opener.start


def _variable_binders(text: str, code: list[Token], i: int) -> Iterator[tuple[Token, list[Token]]]:
    """The bracketed binders of a ``variable`` command starting at ``code[i]``: (opening bracket, inner tokens)."""
    while i < len(code) and code[i].kind == SYMBOL and code[i].text in {"(", "{", "[", "⦃", "{{"}:
        close = _matching_bracket(code, i)
        yield code[i], code[i + 1 : close]
        i = close + 1


def _split_binder(inner: list[Token]) -> tuple[list[str], list[Token]]:
    """(names bound, type tokens) of one binder's inside: ``x y : T`` → (["x", "y"], T); ``C α`` → ([], C α)."""
    for k, t in enumerate(inner):
        if t.kind == SYMBOL and t.text == ":":
            return [x.text for x in inner[:k] if x.kind == IDENT], inner[k + 1 :]
        if t.kind != IDENT:
            break
    return [], inner


def _own_names(s: Source) -> set[str]:
    return {d.qualified_name for d in s.named}


def _is_own(name: str, own: set[str]) -> bool:
    """Whether ``name`` (as written, possibly relative to open namespaces) resolves to a candidate declaration."""
    n = normalize_name(name)
    return any(q == n or q.endswith("." + n) for q in own)


def detect_foreign_attribute(s: Source) -> Iterator[int]:
    """``attribute [...] X`` changing a declaration ``X`` the candidate did not declare."""
    own = _own_names(s)
    for a in s.attributes:
        if a.command is None:
            continue
        for target in a.targets:
            name = normalize_name(target.text)
            if a.name == "instance":  # instances are judged by foreign_instance, whatever their scope
                continue
            # A `local` attribute (not `scoped`: that one comes back wherever the namespace is opened) dies with
            # the candidate's module: `attribute [local simp] Nat.le_add_right` changes nothing the checkers see.
            allowed = a.local and not a.scoped
            if not allowed and not _is_own(name, own):
                yield target.start


def _instance_class(header: str) -> str | None:
    """The class an instance header provides: the head of its type after the top-level colon, past any binders
    (``∀ x, C``, ``[D] → C``, ``(x : α) → C``, ``{α} → C``) and ``@``/parentheses. None when there is no type."""
    toks = [t for t in tokenize(header) if not t.is_trivia]
    colon = _top_level(toks, 0, {":"})
    if colon is None:
        return None
    rest = toks[colon + 1 :]
    while rest:
        if rest[0].text in {"∀", "Π"}:  # `∀ binders, C …`: skip to the comma at depth 0
            comma = _top_level(rest, 0, {","})
            rest = rest[comma + 1 :] if comma is not None else []
            continue
        if rest[0].text in {"[", "{", "⦃", "("} and rest[0].kind == SYMBOL:
            arrow = _top_level(rest, 0, {"→", "->"})
            close = _matching_bracket(rest, 0)
            if arrow is not None and arrow == close + 1:  # a binder arrow: `[D] → C`
                rest = rest[arrow + 1 :]
                continue
        break
    for t in rest:
        if t.kind == IDENT:
            return normalize_name(t.text)
        if t.text not in {"(", "@"}:
            return None
    return None


def _top_level(toks: Sequence[Token], start: int, wanted: set[str]) -> int | None:
    """Index of the first token at bracket depth 0 (from ``start``) whose text is in ``wanted``."""
    return next((k for k, t, depth in _depths(toks, start)
                 if depth == 0 and t.text in wanted and t.text not in CLOSE_BRACKETS), None)


def _allowed_class(cls: str, s: Source, offset: int) -> bool:
    """Whether instances of ``cls`` (as written) are harmless: the candidate's own ``class`` that extends nothing
    foreign, or a proof-like class of the policy's list written by its own name — and no candidate declaration
    could capture that name (``Order.Decidable``, a class named ``Decidable`` in some namespace)."""
    if _resolves_to_own(cls, s, _own_classes(s), offset):
        return True
    parts = name_components(cls)
    if not parts or parts[-1] not in s.policy.allowed_instance_classes or len(parts) > 1:
        return False
    return not any(name_components(d.qualified_name)[-1:] == parts[-1:] for d in s.named)


def _resolves_to_own(name: str, s: Source, own: set[str], offset: int) -> bool:
    """Whether ``name``, written at ``offset``, resolves to one of ``own`` as Lean resolves it: ``_root_.N`` is the
    root ``N``; otherwise the innermost enclosing namespace that has an ``N`` wins. A name the candidate could only
    mean through ``open`` is not counted as own (the library's class of that name competes with it)."""
    n = normalize_name(name)
    if name.startswith("_root_"):
        return n in own
    spaces = walk_scopes(s.text).namespace_at(offset)
    return any(".".join([*spaces[:k], n]) in own for k in range(len(spaces), -1, -1))


def _own_classes(s: Source) -> set[str]:
    """The candidate's own classes: declared with ``class`` and extending no foreign class (a parent's projection is
    a global instance: ``class C extends LE Nat`` provides ``LE Nat`` wherever a ``C`` instance exists)."""
    return {d.qualified_name for d in s.named if d.keyword == "class" and not _foreign_parents(d, s)}


def _foreign_parents(d: NamedDeclaration, s: Source) -> list[str]:
    """The ``extends`` parents of a class declaration that are neither the candidate's nor allowed."""
    toks = [t for t in tokenize(d.header) if not t.is_trivia]
    k = next((i for i, t in enumerate(toks) if t.kind == IDENT and t.text == "extends"), None)
    if k is None:
        return []
    parents: list[str] = []
    depth, expect_head = 0, True
    for t in toks[k + 1 :]:
        if t.kind == SYMBOL and t.text in OPEN_BRACKETS:
            depth += 1
        elif t.kind == SYMBOL and t.text in CLOSE_BRACKETS:
            depth -= 1
        elif depth == 0 and t.text == ",":
            expect_head = True
        elif depth == 0 and t.text in {":", "where", ":="}:
            break
        elif expect_head and t.kind == IDENT:
            parents.append(normalize_name(t.text))
            expect_head = False
    own = {q.qualified_name for q in s.named if q.keyword == "class" and q is not d}
    return [p for p in parents if not _is_own(p, own) and p not in s.policy.allowed_instance_classes]


def detect_foreign_instance(s: Source) -> Iterator[int]:
    """New instances of classes that are not the candidate's own (or proof-like), in every syntactic form:
    ``instance`` (``scoped``/``local`` too), ``@[instance]`` / ``@[local instance]`` on any declaration, ``attribute
    [instance] X`` with ``X`` on any line, ``class … extends Foreign``, and instance binders in front of the class."""
    # `@[instance]` belongs to the first declaration after it, on the same line or any later one.
    owned = {_declaration_after(s, a.owner_offset) for a in s.attributes if a.name == "instance" and a.command is None}
    for d in s.declarations:
        is_instance = d.keyword == "instance" or d.keyword_start in owned
        if d.keyword == "class" and _foreign_parents(d, s):
            yield d.keyword_start
            continue
        if not is_instance:
            continue
        cls = _instance_class(d.header)
        if cls is None or not _allowed_class(cls, s, d.keyword_start):
            yield d.keyword_start
    by_name = {d.qualified_name: d for d in s.named}
    for a in s.attributes:
        if a.name != "instance" or a.command is None:
            continue
        if not a.targets:
            yield a.token.start  # an instance attribute whose target the gate cannot see
        for target in a.targets:
            name = normalize_name(target.text)
            if a.local and name in s.policy.allowed_local_instances:
                continue
            decl = next((d for q, d in by_name.items() if q == name or q.endswith("." + name)), None)
            cls = _instance_class(decl.header) if decl is not None else None
            if cls is None or not _allowed_class(cls, s, decl.keyword_start if decl else target.start):
                yield target.start


def _declaration_after(s: Source, offset: int) -> int | None:
    """Keyword offset of the first declaration whose keyword follows ``offset``."""
    return next((d.keyword_start for d in s.declarations if d.keyword_start > offset), None)


def detect_reserved_namespace(s: Source) -> Iterator[int]:
    """Declarations, ``namespace`` blocks and names in the checkers' own namespaces (``PyshadowChecks``,
    ``PyshadowStatements``, each also with a ``_<nonce>`` suffix) or the candidate module's name."""
    reserved = s.policy.reserved_namespaces

    def is_reserved(name: str) -> bool:
        return any(part in reserved or part.split("_", 1)[0] in reserved for part in name_components(name))

    for _, t in _idents(s):
        if is_reserved(normalize_name(t.text)):
            yield t.start
    for d in s.declarations:
        if is_reserved(d.qualified_name):
            yield d.keyword_start


def detect_shadowed_name(s: Source) -> Iterator[int]:
    """Declarations named like a core or Mathlib type or class (``Tiny.Nat``, ``Mine.LE``), or like a library name
    the reference's statement uses (``Foo.Nat.choose`` when the reference says ``Nat.choose``): in any namespace, the
    candidate's statement — and a checker that enters that namespace — can then read like the reference's and mean
    something else."""
    for d in s.named:
        parts = name_components(d.qualified_name)
        if parts and (parts[-1] in CORE_TYPE_NAMES or ".".join(parts[-2:]) in CORE_TYPE_NAMES):
            yield d.keyword_start
        elif any(d.qualified_name == u or d.qualified_name.endswith("." + u) for u in s.reference_names):
            yield d.keyword_start


@functools.lru_cache(maxsize=256)  # the gate asks once per candidate for the same problem's reference
def reference_used_names(reference: str) -> frozenset[str]:
    """Library names a reference uses and does not declare itself: identifiers of two or more components
    (``Nat.choose``, ``Real.sqrt``) or capitalised (``Prime``, ``Irrational``) — binder names are neither, as a rule."""
    if not reference:
        return frozenset()
    declared = {d.qualified_name for d in declarations(reference)}
    used = set()
    for t in tokenize(reference):
        if t.kind != IDENT or t.is_trivia or t.text in COMMAND_KEYWORDS:
            continue
        name = normalize_name(t.text)
        parts = name_components(name)
        if not parts or not (len(parts) >= 2 or parts[0][:1].isupper()):
            continue
        if any(q == name or q.endswith("." + name) or name.endswith("." + q) for q in declared):
            continue
        used.add(name)
    return frozenset(used)


def detect_confusable_identifier(s: Source) -> Iterator[int]:
    """Identifiers that mix Latin letters with look-alikes of other scripts in one component and are made to be
    misread: a capital look-alike (``Νat``, Greek Nu; ``Ρrop``), ``ı``/``ſ``, or a lower-case Greek one whose Latin
    reading is a core name, an admitting word or another name of the file or the reference (``sοrry``)."""
    names = {normalize_name(t.text) for _, t in _idents(s)} | set(s.reference_names)
    known = CORE_TYPE_NAMES | ADMIT_WORDS | {p for n in names for p in name_components(n)}
    for _, t in _idents(s):
        for part in name_components(t.text):
            confusables = [c for c in part if c in CONFUSABLE_WITH_LATIN]
            if not confusables or not any("a" <= c.lower() <= "z" for c in part):
                continue
            latin = "".join(CONFUSABLE_WITH_LATIN.get(c, c) for c in part)
            if any(c not in _PLAIN_GREEK for c in confusables) or latin in known:
                yield t.start
                break


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


# ---------------------------------------------------------------------------------------------------------------
# The rule table


@dataclass(frozen=True, slots=True)
class Rule:
    kind: str
    summary: str
    detect: Callable[[Source], Iterator[int]]


RULES: dict[str, Rule] = {
    r.kind: r
    for r in (
        Rule("sorry", "a goal left unproved (sorry / admit / stop / apply?)", detect_sorry),
        Rule("decreasing_by_sorry", "termination assumed with sorry", detect_decreasing_by_sorry),
        Rule("proof_search", "a proof search left in the proof (exact? / rw?)", detect_proof_search),
        Rule("axiom", "a new axiom", detect_axiom),
        Rule("unsound_constant", "a constant that proves anything (sorryAx, lcProof, unsafeCast …)",
             detect_unsound_constant),
        Rule("unsafe", "unsafe code", detect_unsafe),
        Rule("implemented_by", "implemented_by / extern: evaluated code differs from the kernel's",
             detect_implemented_by),
        Rule("native_decide", "a proof that trusts the compiler", detect_native_decide),
        Rule("exit", "#exit: nothing after it is checked", detect_exit),
        Rule("message_filter", "#guard_msgs: can drop the next command's errors", detect_message_filter),
        Rule("unterminated_comment", "a block comment that never closes", detect_unterminated_comment),
        Rule("unterminated_string", "a string that never closes", detect_unterminated_string),
        Rule("syntax_extension", "new notation / syntax / macro / elaborator", detect_syntax_extension),
        Rule("meta_attribute", "an attribute that installs meta code", detect_meta_attribute),
        Rule("run_code", "code run at elaboration time (#eval, run_cmd, initialize …)", detect_run_code),
        Rule("meta_code", "Lean meta-level names (Lean.Elab, addDecl …)", detect_meta_code),
        Rule("set_option", "an option that disables checks or alters diagnostics", detect_set_option),
        Rule("forced_hypothesis", "section variables forced on every later theorem (include, variable [C])",
             detect_forced_hypothesis),
        Rule("foreign_attribute", "an attribute changed on a declaration the candidate did not define",
             detect_foreign_attribute),
        Rule("foreign_instance", "an instance of a class the candidate did not define", detect_foreign_instance),
        Rule("reserved_namespace", "a declaration or name in the checkers' namespace", detect_reserved_namespace),
        Rule("shadowed_name", "a declaration named like a core or Mathlib type or class", detect_shadowed_name),
        Rule("confusable_identifier", "an identifier mixing Latin with look-alike letters", detect_confusable_identifier),
        Rule("unbalanced_scope", "namespace / section / end that do not pair up", detect_unbalanced_scope),
        Rule("prelude", "prelude: Init not imported", detect_prelude),
        Rule("import", "an import outside the allowed libraries", detect_import),
    )
}

DEFAULT_POLICY = AuditPolicy()


def active_rules(policy: AuditPolicy) -> list[Rule]:
    """The rules a policy applies, in table order."""
    off = set(policy.disabled_rules) | ({"native_decide"} if policy.allow_native_decide else set())
    return [r for k, r in RULES.items() if k not in off]


def excerpt_at(text: str, offset: int, width: int = EXCERPT_WIDTH) -> str:
    """The source line containing ``offset``, stripped and cut to ``width`` characters."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    line = text[start : end if end != -1 else len(text)].strip()
    return line if len(line) <= width else line[: width - 1] + "…"


def audit(
    src: str, policy: AuditPolicy = DEFAULT_POLICY, *, trusted_prefix: str = "", reference: str = ""
) -> list[Finding]:
    """All findings of the policy's rules on ``src``, sorted by position then kind, without duplicates.

    ``trusted_prefix``: benchmark-provided text the candidate starts with (e.g. ProofNet's context, which itself
    holds ``instance … := sorry`` and an unclosed ``noncomputable section``). When ``src`` starts with it
    verbatim, findings located inside it are dropped; the rest of ``src`` is audited as usual.
    ``reference``: the reference text, so that a candidate declaring a library name its statement uses is caught.
    """
    source = dataclasses.replace(lex_source(src, policy), reference_names=reference_used_names(reference))
    trusted_end = len(trusted_prefix) if trusted_prefix and src.startswith(trusted_prefix) else 0
    found: set[Finding] = set()
    for rule in active_rules(policy):
        for offset in rule.detect(source):
            if offset < trusted_end:
                continue
            line, column = line_col(src, offset)
            found.add(Finding(rule.kind, line, column, excerpt_at(src, offset)))
    return sorted(found, key=lambda f: (f.line, f.column, f.kind))


def is_clean(src: str, policy: AuditPolicy = DEFAULT_POLICY) -> bool:
    """Whether ``audit`` finds nothing."""
    return not audit(src, policy)


__all__ = [
    "AuditPolicy",
    "DEFAULT_POLICY",
    "Finding",
    "RULES",
    "Rule",
    "audit",
    "is_clean",
]
