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

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..syntax.lexer import line_col
from .audit_code import (
    detect_axiom,
    detect_decreasing_by_sorry,
    detect_exit,
    detect_implemented_by,
    detect_import,
    detect_message_filter,
    detect_meta_attribute,
    detect_meta_code,
    detect_native_decide,
    detect_prelude,
    detect_proof_search,
    detect_run_code,
    detect_set_option,
    detect_sorry,
    detect_syntax_extension,
    detect_unbalanced_scope,
    detect_unsafe,
    detect_unsound_constant,
    detect_unterminated_comment,
    detect_unterminated_string,
)
from .audit_names import (
    CLASSICAL_INSTANCES,
    PROOF_LIKE_CLASSES,
    RESERVED_NAMESPACES,
    detect_confusable_identifier,
    detect_foreign_attribute,
    detect_foreign_instance,
    detect_forced_hypothesis,
    detect_reserved_namespace,
    detect_shadowed_name,
    reference_used_names,
)
from .audit_source import Source, lex_source

EXCERPT_WIDTH = 120

# ---------------------------------------------------------------------------------------------------------------
# Word lists used by the rules (each rule's docstring says why)

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
