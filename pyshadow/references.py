"""Reference files: a target's declaration found by its fully qualified name and parsed; skeletons of new ones.

:func:`reference_targets` is the one place a problem's targets are prepared for every command (generate, run,
verify, score, check-problem, robustness, export): each becomes a :class:`ReferenceTarget` — the parsed
declaration and where it sits, its decomposition with the expert shadows merged, its checker names and checkers,
or why it has none — and this never raises: what is wrong is data on the target (``error``, ``fixes``).

A problem names its targets fully qualified (``NatPos.pos_facts``). :func:`target_declaration` resolves such a name
the way Lean names declarations — ``namespace A`` … ``end A`` blocks tracked (a ``section`` adds no prefix),
``_root_.`` and «guillemets» dropped (``pyshadow.syntax.scanner.declarations``) — never by guessing from the
name's last component, and parses the declaration's header. A parse error points into the reference file (line,
and column counted from 0 as Lean prints it), not into the extracted statement.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .errors import BadInput
from .problems import Problem, ProblemError, reference_text
from .shadows.checkers import Checker, CheckerSet, full_tier_checkers
from .shadows.expert import CONSEQUENCE_KINDS, ExpertShadow
from .shadows.merge import ExpertShadowError, MergeReport, merge_shadows, parse_expert_statement
from .kernel.definitions import data_as_proposition, is_data_declaration
from .shadows.rules import Decomposition, decompose, uncheckable_reason
from .syntax import ParseError, parse_declaration
from .syntax.ast import Binder, Declaration, atoms, declaration_names
from .syntax.declarations import command_starts
from .syntax.lexer import code_tokens, line_col
from .syntax.scanner import NamedDeclaration, contains_admit, declarations, normalize_name


class TargetNotFound(BadInput):
    """No declaration in the reference has the target's fully qualified name."""

    def __init__(self, target: str, declared: list[str]):
        self.target = target
        self.declared = declared
        shown = ", ".join(sorted(declared)[:6]) + (f", … ({len(declared)} in all)" if len(declared) > 6 else "")
        super().__init__(f"{target!r} is not declared in the reference (declared: {shown or 'none'})")


# A target pyshadow cannot parse is not necessarily the author's error: pyshadow's parser reads a subset of Lean.
PARSER_LIMITATION = ("pyshadow's parser cannot read this statement: if Lean accepts it, this is a pyshadow parser "
                     "limitation, not an error in your reference (please report it with the statement); otherwise "
                     "fix the Lean syntax")


class TargetParseError(ParseError):
    """The target's header cannot be read; ``line``/``column`` are positions in the reference file."""

    def __init__(self, target: str, reason: str, line: int, column: int):
        super().__init__(reason, line, column)
        self.target = target


def target_source(src: str, target: str):
    """Where the declaration named ``target`` (fully qualified) sits in ``src``: the last one of that name counts,
    as for candidates (docs/DESIGN.md). Raises :class:`TargetNotFound`."""
    wanted = normalize_name(target)
    named = declarations(src)
    matches = [d for d in named if normalize_name(d.qualified_name) == wanted]
    if not matches:
        raise TargetNotFound(target, [d.qualified_name for d in named])
    return matches[-1]


def target_declaration(src: str, target: str) -> Declaration:
    """The parsed header of the declaration named ``target`` (fully qualified) in the Lean file ``src``.

    Raises :class:`TargetNotFound` or :class:`TargetParseError` (a :class:`~pyshadow.syntax.ParseError` whose line
    and column are in ``src``).
    """
    found = target_source(src, target)
    try:
        decl = parse_declaration(found.header)
    except ParseError as err:
        line, column = line_col(src, found.keyword_start)
        raise TargetParseError(target, err.reason, line + err.line - 1,
                               column + err.column if err.line == 1 else err.column) from None
    included = included_variables(scope_variables(src, found.keyword_start), decl)
    return replace(decl, binders=included + decl.binders) if included else decl


def scope_variables(src: str, offset: int) -> tuple[Binder, ...]:
    """The ``variable`` binders in scope at ``offset`` of ``src`` (a ``section``/``namespace`` ends its own), in
    declaration order, one binder per name. A ``variable`` that does not parse (or only updates binder kinds,
    ``variable {x}``) is skipped."""
    code = code_tokens(src)
    starts = command_starts(src, code)
    scopes: list[list[Binder]] = [[]]
    for k, i in enumerate(starts):
        if code[i].start >= offset:
            break
        keyword = code[i].text
        j = starts[k + 1] if k + 1 < len(starts) else len(code)
        if keyword in ("namespace", "section"):
            scopes.append([])
        elif keyword == "end" and len(scopes) > 1:
            scopes.pop()
        elif keyword == "variable" and j - i > 1 and code[j - 1].text != "in":
            try:
                binders = parse_declaration(f"theorem pyshadow_variables {src[code[i + 1].start : code[j - 1].end]}"
                                            " : True").binders
            except ParseError:
                continue
            scopes[-1].extend(Binder(b.bracket, (n,) if b.names else (), b.type, b.default, b.bound)
                              for b in binders if b.type is not None for n in (b.names or ("",)))
    return tuple(b for scope in scopes for b in scope)


def included_variables(variables: tuple[Binder, ...], decl: Declaration) -> tuple[Binder, ...]:
    """The ``variable``s Lean adds to ``decl``'s signature: those its header mentions, those an included variable's
    type mentions, and instance binders all of whose variables are included (Lean 4's rule since variables stopped
    being included by use in proofs), in declaration order."""
    names = {n for b in variables for n in b.names}
    mentioned = set(declaration_names(decl)) & names
    chosen: set[int] = set()
    changed = True
    while changed:
        changed = False
        for k, b in enumerate(variables):
            if k in chosen:
                continue
            uses = {i for a in (atoms(b.type) if b.type is not None else ()) for i in a.idents} & names
            if (set(b.names) & mentioned) or (b.is_instance and uses and uses <= mentioned):
                chosen.add(k)
                mentioned |= uses | set(b.names)
                changed = True
    return tuple(b for k, b in enumerate(variables) if k in chosen)


def with_context_variables(context: str, decl: Declaration) -> Declaration:
    """``decl`` (a corpus statement) with the ``variable``s of the text before it (``context``) that Lean includes
    in it as leading binders (``included_variables``), as ``target_declaration`` reads a reference: so
    ``@target a b hab`` passes every argument and a certificate quantifies over them."""
    if "variable" not in context:
        return decl
    source = f"{context.rstrip()}\n\n"
    included = included_variables(scope_variables(source + "theorem pyshadow_here : True", len(source)), decl)
    return replace(decl, binders=included + decl.binders) if included else decl


def statement_declaration(statement: str, context: str = "") -> Declaration:
    """A corpus statement read as ``generate`` reads a reference target: parsed, the context's included
    ``variable``s in front, a data declaration as ``Nonempty`` of its type. Raises ``ParseError``."""
    decl = with_context_variables(context, parse_declaration(statement))
    return data_as_proposition(decl) if is_data_declaration(decl) else decl


def reference_skeleton(title: str, body: str, *, imports: tuple[str, ...] = (), preamble: str = "",
                       namespace: str | None = None) -> str:
    """A reference file to fill in: its imports, a module docstring ``/-! # title … -/``, a preamble (``open``
    lines), and an empty ``namespace … end`` block when ``namespace`` is given."""
    parts = []
    if imports:
        parts.append("\n".join(f"import {m}" for m in imports))
    parts.append(f"/-!\n# {title}\n\n{body.strip()}\n-/")
    if preamble.strip():
        parts.append(preamble.strip())
    if namespace:
        parts.append(f"namespace {namespace}\n\nend {namespace}")
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------------------------------------------------------
# Targets, ready for every command


def checker_ids(problem_id: str, targets: Sequence[str]) -> dict[str, str]:
    """The id each target's checker names derive from (``shadow_<id>_<i>``), unique within the problem: the
    problem id for a single target; else ``<problem>_<last name component>``, or ``<problem>_<full name with
    dots as _>`` when two targets share the last component."""
    if len(targets) == 1:
        return {targets[0]: problem_id}
    last = [normalize_name(t).rsplit(".", 1)[-1] for t in targets]
    return {
        t: f"{problem_id}_{short if last.count(short) == 1 else normalize_name(t).replace('.', '_')}"
        for t, short in zip(targets, last)
    }


@dataclass
class ReferenceTarget:
    """One target of a problem, prepared once for every command; never raises — ``error`` says why a target has
    no decomposition, ``fixes`` lists (one line each, located in the author's files) what its author must fix.

    ``generated`` is what the rules derive; ``merged`` adds the expert (and LLM) shadows; ``checkers`` are the
    full-tier checkers of ``merged`` (their names from ``checker_id``). ``decomposition`` is the shadow set the
    Lean tiers verify and score with — the generated one (the kernel tier cannot read an expert statement's
    mathematics; ``check-problem`` in the full tier checks ``merged``).
    """

    name: str  # fully qualified, as in problem.toml
    checker_id: str = ""
    declaration: Declaration | None = None
    source: NamedDeclaration | None = None  # where the declaration sits in the reference (span, header)
    preceding: str = ""  # the reference's text before the target (definitions, opens): context for an LLM
    generated: Decomposition | None = None
    merged: Decomposition | None = None
    checkers: CheckerSet | None = None
    decomposition: Decomposition | None = None
    error: str | None = None
    fixes: list[str] = field(default_factory=list)
    llm: dict | None = None  # what the LLM was asked and answered (generate --llm), for the manifest
    llm_certificate: Checker | None = None  # a backward certificate an LLM proposed (residual targets only)

    @property
    def ok(self) -> bool:
        """Usable: declaration parsed and decomposed (expert-shadow fixes may still be listed)."""
        return self.error is None and self.decomposition is not None

    @property
    def residual(self) -> bool:
        return self.generated is not None and self.generated.residual

    @property
    def added_shadows(self) -> int:
        return sum(1 for s in (self.merged.shadows if self.merged else ()) if s.kind in CONSEQUENCE_KINDS)

    @property
    def identity_only(self) -> bool:
        """Residual with nothing added: the only shadow is the target itself, so its "complete" says nothing."""
        return self.residual and self.added_shadows == 0

    @property
    def n_forward(self) -> int:
        return len(self.decomposition.shadows) if self.decomposition is not None else 0

    def merge(self, shadows: Sequence[ExpertShadow]) -> MergeReport:
        """Merge ``shadows`` (already parsed once: ``ExpertShadowError`` otherwise) and rebuild the checkers."""
        assert self.merged is not None and self.declaration is not None
        self.merged, report = merge_shadows(self.merged, shadows)
        self.checkers = full_tier_checkers(self.checker_id, self.name, self.declaration, self.merged)
        return report

    def checked_with(self, decomposition: Decomposition) -> "ReferenceTarget":
        """A copy whose tiers check ``decomposition`` (``check-problem`` in the full tier: the merged set)."""
        return replace(self, decomposition=decomposition)


def reference_targets(problem: Problem, src: str | None = None) -> tuple[ReferenceTarget, ...]:
    """Every target of ``problem``: found, parsed, decomposed, merged with its expert shadows, given checkers."""
    try:
        src = reference_text(problem) if src is None else src
    except ProblemError as err:
        return tuple(ReferenceTarget(name, error=str(err), fixes=[str(err)]) for name in problem.targets)
    ids = checker_ids(problem.id, problem.targets)
    return tuple(_reference_target(problem, src, name, ids[name]) for name in problem.targets)


def _reference_target(problem: Problem, src: str, name: str, checker_id: str) -> ReferenceTarget:
    target = ReferenceTarget(name, checker_id)
    try:
        target.source = target_source(src, name)
        target.declaration = target_declaration(src, name)
    except TargetNotFound as err:
        target.error = str(err)
        target.fixes.append(f"{problem.problem_file}: target {name}: {err}")
        return target
    except TargetParseError as err:
        target.error = f"the reference statement does not parse: {err.reason} (line {err.line}, column {err.column})"
        target.fixes.append(f"{problem.reference}:{err.line}:{err.column}: target {name} does not parse: {err.reason}"
                            f" — {PARSER_LIMITATION}")
        return target
    if is_data_declaration(target.declaration):
        # `instance X … : T := sorry` states that T is inhabited: its checkers state `Nonempty T` (a theorem of a
        # type is no proposition — Lean rejects it), as the skeleton reads it (kernel/answers.py, 1.).
        target.declaration = data_as_proposition(target.declaration)
    if reason := uncheckable_reason(target.declaration):
        target.error = reason
        target.fixes.append(f"{problem.reference}: target {name}: {reason}")
        return target
    target.preceding = src[: target.source.start].strip()
    target.generated = target.merged = target.decomposition = decompose(target.declaration,
                                                                        mathlib=problem.needs_mathlib)
    experts = []
    for index, shadow in enumerate(problem.expert_shadows):
        if shadow.target != name:
            continue
        try:
            parse_expert_statement(index, shadow)
        except ExpertShadowError as err:
            target.fixes.append(f"{problem.problem_file}: shadows[{index + 1}]: {err}")
            continue
        experts.append(shadow)
    target.checkers = full_tier_checkers(checker_id, name, target.declaration, target.generated)
    if experts:
        target.merge(experts)
    return target


def reference_as_axioms(src: str, targets: Sequence[str], *, only_admitted: bool = False) -> str:
    """``src`` with each target restated as an ``axiom`` (the last declaration of that name; proof dropped); with
    ``only_admitted`` just the targets whose proof uses ``sorry``/``admit``.

    A checker's ``#print axioms`` then lists the target itself, never ``sorryAx``: completeness is a property of
    the target's statement, and a ``sorry`` in its proof must not make every checker look unsound.

    A data target (``instance X … : T := sorry``, ``def``/``abbrev``/``opaque``; ``kernel.definitions``) becomes
    ``axiom X … : T`` too — its checkers' ``exact ⟨@X …⟩`` would otherwise depend on ``sorryAx`` — but only when
    its body uses ``sorry``: a real body keeps its definition, which later declarations may unfold. An
    ``instance`` keeps its attribute (``attribute [instance] X`` after the axiom; the scanner does not name an
    ``instance (priority := …) X``, so such a target is not found at all), a
    ``noncomputable`` before the keyword is dropped (an axiom has no code).
    """
    wanted = {normalize_name(t) for t in targets}
    chosen = {}
    for d in declarations(src):
        if normalize_name(d.qualified_name) not in wanted:
            continue
        admitted = contains_admit(src[d.statement_end : d.end])
        if d.keyword in ("theorem", "lemma"):
            if only_admitted and not admitted:
                chosen.pop(normalize_name(d.qualified_name), None)
                continue
        elif not (admitted and _is_data_header(d.header)):
            chosen.pop(normalize_name(d.qualified_name), None)
            continue
        chosen[normalize_name(d.qualified_name)] = d
    out, last = [], 0
    for d in sorted(chosen.values(), key=lambda d: d.keyword_start):
        before = src[last : d.keyword_start]
        header = src[d.keyword_start : d.statement_end].rstrip()[len(d.keyword):]
        attribute = f"attribute [instance] {d.name}\n\n" if d.keyword == "instance" else ""
        before = re.sub(r"\bnoncomputable\s+$", "", before) if d.keyword != "theorem" else before
        out += [before, "axiom", header, "\n\n", attribute]
        last = d.end
    return "".join(out) + src[last:]


def _is_data_header(header: str) -> bool:
    """Whether a declaration header is data (``kernel.definitions.is_data_declaration``); False if unreadable."""
    try:
        return is_data_declaration(parse_declaration(header))
    except ParseError:
        return False


def reference_sorry(src: str, targets: Sequence[str]) -> dict[str, bool]:
    """Whether each target's proof in the reference uses ``sorry`` (reported; it does not affect completeness)."""
    wanted = {normalize_name(t) for t in targets}
    found = {normalize_name(d.qualified_name): contains_admit(src[d.statement_end : d.end])
             for d in declarations(src) if normalize_name(d.qualified_name) in wanted}
    return {t: found.get(normalize_name(t), False) for t in targets}
