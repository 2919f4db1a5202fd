"""The full tier: checker files for real Lean with ``Init`` (and Mathlib), for references and for candidates.

**Candidates (isolation).** A candidate is compiled as its own module ``PyshadowCandidate`` (``lean -o`` into a
fresh temporary directory, ``compile_module``); the shadow statements are compiled as a second module
``PyshadowStatements_<nonce>`` that does *not* import the candidate (``StatementsModule``: one ``axiom`` per goal);
one checker file imports both and holds every check of the problem, each goal stated as ``type_of%`` of a
statements axiom, so only the proofs see the candidate (docs/trust.md §4) — three Lean processes, judged by
``judge`` with ``DEFAULT_ALLOWED_AXIOMS`` and the statements axioms forbidden. A target whose statements name the
reference's own declarations (which a candidate restates) keeps its goals as text: they need the candidate. Whatever the candidate does locally — ``local instance``/``local notation``, ``open``,
``variable``, sections and namespaces it leaves open, ``#exit`` — ends with its module and cannot reach the
checkers; what an imported module *does* carry (global instances, notation, syntax, attributes) is the trust
gate's job (``pyshadow.score.audit``), which runs before anything is compiled.

The checker file, in order:

1. the problem's imports, ``import PyshadowCandidate`` and ``import PyshadowStatements_<nonce>``; the reference's ``universe`` names and ``open``
   commands (``pyshadow.workspace.reference_context``: the shadows are written in the reference's language);
2. per target, ``namespace <target's namespace>.PyshadowChecks_<nonce>`` (names resolve as in the reference; the
   checkers cannot collide with the candidate's, which cannot guess the namespace), holding
   * ``#print axioms <candidate declaration>`` — the candidate's own axioms (role ``axioms``; fails on
     ``sorryAx`` or anything outside the allowed set, so a candidate that only "compiles" with ``sorry`` does not
     count as compiled);
   * the forward checkers ``shadow_<problem>_<i>`` (T̂ ⇒ Sᵢ; docs/checker-idioms.md "Forward checker", applied to the
     candidate's declaration, with the reference's auxiliary names renamed to the candidate's), plus one
     ``| exact …`` line with the skeleton search's term for this candidate where it found one
     (``pyshadow.score.skeleton_terms``; the backward check likewise gets it after its ``intros; apply …``);
   * the certificate ``shadow_<problem>_complete`` (⋀ Sᵢ ⇒ T, a helper that does not mention the candidate) and
     the backward check ``shadow_<problem>_backward`` (⋀ Sᵢ ⇒ T̂): its statement is ``type_of% @Cand`` under the
     shadow hypotheses (docs/checker-idioms.md "Backward check against a candidate"), proved by
     ``intros; apply shadow_<problem>_complete <;> assumption`` — so a candidate with implicit binders,
     reordered hypotheses or a hypothesis moved between binder and conclusion still passes;

   each checker followed by its ``#print axioms`` line.

**References (completeness).** ``reference_check_file`` is the reference itself with each target restated as an
``axiom`` (its proof dropped), followed by the same forward checkers (T ⇒ Sᵢ) and the certificate (⋀ Sᵢ ⇒ T).
Completeness is a property of the target's *statement*: its proof may be ``sorry`` (benchmarks often have none).
Stating the target as an axiom keeps the reference's ``sorryAx`` out of the checkers' axioms altogether, so the
judge stays strict: the allowed axioms are ``propext``, ``Classical.choice``, ``Quot.sound`` and the target
axioms themselves; a ``sorryAx`` in a checker's answer can only come from the checker or from a ``sorry`` in a
definition the statement uses — either way the checker fails and says so. ``reference_sorry`` reports, separately,
whether a target's proof used ``sorry``.

Nothing here has been run with a full toolchain on the development machines (none can be installed there); the
plumbing — module compile, import, one checker process, judging — is exercised with the kernel-tier ``lean`` on
prelude-mode files (tests/test_score.py).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..lean.runner import DEFAULT_ALLOWED_AXIOMS, DeclarationSpan
from ..errors import PyshadowError
from ..kernel.definitions import is_data_declaration
from ..kernel.answers import DATA_KEYWORDS, declared_value, is_open_value
from ..syntax.lexer import IDENT, code_tokens
from ..syntax.scanner import NamedDeclaration, declarations
from ..shadows.checkers import (Checker, CheckerSet, full_tier_checkers, universe_names, universe_occurrences,
                                universe_parameters)
from ..syntax.ast import Declaration
from ..syntax.parser import parse_declaration
from ..references import reference_as_axioms, reference_sorry  # noqa: F401 - re-exported: verify uses both
from ..workspace import reference_context
from ..syntax.scanner import lean_component, lean_name, name_components, normalize_name
from ..syntax import ParseError
from ..syntax.scanner import ExtractedDeclaration
from .skeleton_terms import SkeletonAlternatives, exact_line, skeleton_alternatives, with_forward_alternative
from .pipeline import (
    candidate_statement,
    skeleton_pair,
    PreparedCandidate,
    ProblemInfo,
    TargetInfo,
    rename_identifiers,
)

CANDIDATE_MODULE = "PyshadowCandidate"
CHECKS_NAMESPACE = "PyshadowChecks"
STATEMENTS_MODULE = "PyshadowStatements"  # + "_<nonce>": the module of the shadow statements (never the candidate)
CHECKS_FILE = "Checks.lean"
# As in the workspace's checker files (templates/lean/checker_file.lean.j2): a name a checker does not resolve is
# an error, never an auto-bound variable — so `verify`, `score` and `lake build` judge the same text alike.
AUTO_IMPLICIT_OFF = "set_option autoImplicit false"
_HEAD = "pyshadow_checked_declaration_"  # placeholder for the name checkers apply, replaced after renaming
# proofs = "ignored": the forward checkers apply this hypothesis, of the candidate's type, instead of the candidate
STATEMENT_HYPOTHESIS = "pyshadow_statement"


# ---------------------------------------------------------------------------------------------------------------
# Building checker files


@dataclass(frozen=True)
class Role:
    """What a declaration of a checker file checks: ``kind`` forward | backward | certificate | axioms."""

    kind: str
    target: str
    shadow: int | None = None


class LeanLines:
    """A Lean file under construction, line by line (``lines`` is a dataclass field of each subclass)."""

    lines: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def add(self, text: str) -> None:
        self.lines.extend(text.split("\n"))


@dataclass
class CheckerFile(LeanLines):
    """A Lean file under construction: its lines, the spans to judge and what each span checks."""

    lines: list[str] = field(default_factory=list)
    spans: list[DeclarationSpan] = field(default_factory=list)
    roles: dict[str, Role] = field(default_factory=dict)
    statements: StatementsModule | None = None  # candidate checks: the goals, elaborated without the candidate

    def add_checker(self, full_name: str, text: str, role: Role) -> None:
        """A declaration and its ``#print axioms`` line (by its short name, inside the namespace)."""
        start = len(self.lines) + 1
        self.add(text)
        self.spans.append(DeclarationSpan(full_name, start, len(self.lines)))
        self.roles[full_name] = role
        self.lines.append(f"#print axioms {full_name.rsplit('.', 1)[-1]}")

    def add_axioms_probe(self, name: str, role: Role) -> None:
        """``#print axioms NAME`` for a declaration defined elsewhere (the candidate's): a one-line span."""
        self.lines.append(f"#print axioms {name}")
        line = len(self.lines)
        self.spans.append(DeclarationSpan(name, line, line))
        self.roles[name] = role


@dataclass
class StatementsModule(LeanLines):
    """The module ``PyshadowStatements_<nonce>`` of a candidate's checks: per checker an ``axiom`` whose *type* is
    the checker's goal, elaborated with the problem's imports and the reference's context only — the candidate is
    not imported, so nothing it declares (instances, notation, macros, namespaces) can change what a goal means.
    The checkers state ``type_of% @<module>.<axiom>.{…}``; the axioms themselves must never be used (the judge
    fails a checker whose ``#print axioms`` lists one: ``FullTask.statement_axioms``)."""

    name: str
    lines: list[str] = field(default_factory=list)
    constants: list[str] = field(default_factory=list)

    def add_axiom(self, short: str, binders: str, statement: str) -> str:
        """``axiom _root_.<module>.<short>.{us} <binders> : <statement>`` (inside the target's namespace, so names
        resolve as in the reference); returns the goal ``type_of% @<module>.<short>.{us}``.

        The universe parameters are listed on the axiom itself — the ones its text uses, in order of occurrence —
        so the order ``.{…}`` instantiates them in is the one written here, not ``sortDeclLevelParams``'s choice;
        the checker file declares the same names (``universe``) and pins them, so a backward check's hypotheses and
        the candidate's type (``candidate_universe_pin``) share their universes.
        """
        full = f"{self.name}.{short}"
        universes = universe_names(f"{binders} {statement}")
        pin = ".{" + ", ".join(universes) + "}" if universes else ""
        self.add(f"axiom _root_.{full}{pin}{' ' + binders if binders else ''} :\n    {statement}")
        self.constants.append(full)
        return f"type_of% @{full}{pin}"


def new_nonce() -> str:
    """A fresh random suffix for the statements module and the checker namespace: a candidate, written before the
    run, cannot name either (``secrets``: not predictable from earlier runs)."""
    return secrets.token_hex(8)


def _namespace_parts(target: str) -> list[str]:
    """The target's namespace components as Lean source (``«Order Facts»``: ``lean_component``)."""
    parts = name_components(target)
    return [lean_component(c) for c in (parts[1:] if parts[:1] == ["_root_"] else parts)[:-1]]


def _namespace(target: str, nonce: str | None = None) -> str:
    """The checks' namespace, as Lean source (``«Order Facts».PyshadowChecks_…``)."""
    return ".".join([*_namespace_parts(target), f"{CHECKS_NAMESPACE}_{nonce}" if nonce else CHECKS_NAMESPACE])


def _target_namespace(target: str) -> str | None:
    """The target's namespace as Lean source, or None at the top level."""
    return ".".join(_namespace_parts(target)) or None


def isolated_checker_text(checker: Checker, goal: str, name: str | None = None) -> str:
    """``checker`` restated with ``goal`` (``type_of% @<statements>.<axiom>.{…}``) as its statement: the header
    binders become ``intro``s at the start of its tactic proof, which is otherwise unchanged. A ``by`` block gets
    no implicit lambda (lean4 src/Lean/Elab/Term.lean ``blockImplicitLambda``: ``isTacticBlock``), so ``intro``
    binds every binder, implicit and instance ones included, by position; ``intro`` registers instance binders as
    local instances (src/Lean/Meta/Tactic/Intro.lean: ``withNewLocalInstances``)."""
    head, proof = checker.text.split(" := by\n", 1)  # the templates end the header with ` := by`
    doc = head.split("\n", 1)[0] if head.startswith("/--") else None
    intro = [f"  intro {' '.join(checker.arguments)}"] if checker.arguments else []
    return "\n".join([*([doc] if doc else []), f"theorem {name or checker.name} :", f"    {goal} := by", *intro,
                      proof])


def _preamble_commands(preamble: str | None) -> list[str]:
    """``open Real in`` / ``set_option x y in`` written before a declaration, as commands for a whole section."""
    if not preamble:
        return []
    return [re.sub(r"\s+in\s*$", "", line.strip()) for line in preamble.splitlines() if line.strip()]


def _checkers(problem_id: str, target: TargetInfo, *, certificate: bool) -> CheckerSet:
    """The target's checkers applied to the placeholder head; with ``certificate`` always a certificate (an
    atomic target's is the identity: its shadow is the target itself)."""
    assert target.declaration is not None and target.decomposition is not None
    pid = target.checker_id or problem_id  # the names ``reference_targets`` gave (one place for them)
    dec = replace(target.decomposition, residual=False) if certificate else target.decomposition
    return full_tier_checkers(pid, _HEAD, target.declaration, dec)


def candidate_backward_text(name: str, certificate_name: str, hypotheses: str, head: str,
                            universes: Sequence[str] = (), alternative: str | None = None, data: bool = False) -> str:
    """⋀ Sᵢ ⇒ T̂: the shadows as hypotheses, the candidate's own type as the goal, proved via the certificate (or
    by ``alternative``, the skeleton search's term, when there is one).

    ``universes`` pins the candidate's universe parameters to the ones the hypotheses use (``@Cand.{u_1}``):
    ``type_of% @Cand`` alone gives each a fresh universe, and no ``hS_i`` at ``u_1`` proves it at ``u_2``.

    A ``data`` candidate (``instance X (b…) : T``) says that its type ``∀ b…, T`` is inhabited: the goal is
    ``Nonempty (type_of% @Cand …)``. ``type_of%`` elaborates to the whole Pi type (lean4 src/Lean/Parser/Term.lean
    ``typeOf``, elaborated by ``inferType``), so the proof first enters it — ``refine ⟨?_⟩`` (``Nonempty.intro``,
    src/Init/Prelude.lean), after which the goal is the Pi type and ``intros`` introduces every binder
    (src/Lean/Meta/Tactic/Intro.lean ``getIntrosSize`` counts ``forallE``/``letE``/``mdata``) — then ``T`` from the
    certificate's ``Nonempty T`` by ``Classical.choice`` (an allowed axiom). ``Nonempty (∀ b…, T)`` and the
    skeleton's ``∀ b…, Nonempty T`` (kernel/definitions.py, 4.) are equivalent with choice; no binder is restated
    as text, so the candidate's ``variable``s, ``open``s and notation need not be reproduced.
    """
    pin = ".{" + ", ".join(universes) + "}" if universes else ""
    goal = f"type_of% @{head}{pin}"
    enter = ["refine ⟨?_⟩", "intros", "apply Classical.choice"] if data else ["intros"]
    proof = [*(f"  {tac}" for tac in enter), f"  apply {certificate_name} <;> assumption"]
    if alternative is not None:
        proof = ["  first", f"  | ({'; '.join(enter)}; apply {certificate_name} <;> assumption)",
                 exact_line(alternative)]
    return "\n".join([
        "/-- Backward check: the shadows imply the candidate's statement -/",
        f"theorem {name} {hypotheses} :",
        f"    Nonempty ({goal}) := by" if data else f"    {goal} := by",
        *proof,
    ])


def statement_as_hypothesis(text: str, universes: Sequence[str] = ()) -> str:
    """A forward checker that takes the candidate's *statement* as a hypothesis instead of applying the candidate
    (proofs = "ignored"): ``(pyshadow_statement : type_of% @Cand.{…})`` joins its header and every use of the
    candidate becomes that hypothesis, so the candidate's proof — ``sorry`` or not — never reaches the checker's
    axioms, while a ``sorry`` in a definition the statement uses still does (``#print axioms`` collects the
    constants of a theorem's type as well as its value: lean4 src/Lean/Util/CollectAxioms.lean, ``collect``).
    ``@h`` on a local hypothesis gives its implicit arguments explicitly, as ``@Cand`` does (checked with the
    kernel-tier Lean: tests/test_proofs.py)."""
    pin = ".{" + ", ".join(universes) + "}" if universes else ""
    text = text.replace(_HEAD, STATEMENT_HYPOTHESIS)
    return re.sub(r"^(theorem \S+)", lambda m: f"{m.group(1)} ({STATEMENT_HYPOTHESIS} : type_of% @{_HEAD}{pin})",
                  text, count=1, flags=re.M)


def _section(
    out: CheckerFile, problem_id: str, target: TargetInfo, head: str,
    renames: Mapping[str, str] | None, declared_universes: set[str],
    alternatives: SkeletonAlternatives | None = None, candidate_header: str | None = None,
    nonce: str | None = None, candidate_names: frozenset[str] = frozenset(),
    candidate_universes: Sequence[str] = (), statement_only: bool = False,
) -> None:
    """One target's namespace block: (candidate axioms), forward checkers, certificate, (candidate backward).

    Scoring with ``out.statements``: every goal is that module's axiom's type (``isolated_checker_text``), unless
    the statements mention the candidate's own auxiliary definitions (the reference's, renamed): those cannot be
    elaborated without the candidate, so that target's goals stay text in the checker file (docs/trust.md)."""
    assert target.declaration is not None
    scoring = renames is not None
    if renames:  # the candidate's names as Lean source: `«Order Facts».aux` keeps its guillemets
        renames = {k: lean_name(v) for k, v in renames.items()}
    checkers = _checkers(problem_id, target, certificate=scoring)
    namespace = _namespace(target.name, nonce)
    texts = [t for c in checkers.checkers for t in (c.binders, c.statement, *(p for _, p in c.hypothesis_list))]
    preamble = _preamble_commands(target.declaration.preamble)
    isolated = scoring and not needs_candidate([*texts, *preamble], candidate_names)
    statements = out.statements if isolated else None
    if statements is not None:
        ns = _target_namespace(target.name)  # a section when there is none: the preamble's `open`s end with it
        statements.add("\n".join([f"namespace {ns}" if ns else "section", *preamble]))
    new_universes = [u for u in checkers.universes if u not in declared_universes]
    declared_universes.update(new_universes)
    if new_universes:
        out.add(f"universe {' '.join(new_universes)}")
    out.add(f"namespace {namespace}")
    out.add("\n".join(_preamble_commands(target.declaration.preamble)) or "")
    if scoring and not statement_only:  # statement_only: the candidate's proof is not what is judged
        out.add_axioms_probe(head, Role("axioms", target.name))

    def lean_text(text: str) -> str:
        if renames:
            text = rename_identifiers(text, renames, qualify=True)
        return text.replace(_HEAD, head)

    def goal_of(checker: Checker, short: str) -> Checker:
        """``checker`` with its goal taken from the statements module (when there is one for this target)."""
        if statements is None:
            return checker
        goal = statements.add_axiom(short, checker.binders, checker.statement)
        return replace(checker, text=isolated_checker_text(checker, goal))

    key = len(out.roles)  # unique per file: the axioms of several targets share one module
    for checker in checkers.forward:
        role = Role("forward", target.name, (checker.shadow_index or 0) + 1)
        checker = goal_of(checker, f"stmt_{key}_{role.shadow}")
        text = with_forward_alternative(checker.text, alternatives.forward.get(role.shadow)) if alternatives \
            else checker.text
        if statement_only:
            text = statement_as_hypothesis(text, candidate_universe_pin(target.declaration, candidate_header))
        out.add_checker(f"{namespace}.{checker.name}", lean_text(text), role)
    certificate = checkers.backward
    if certificate is not None:
        kind = "certificate" if scoring else "backward"
        stated = goal_of(certificate, f"certificate_{key}")
        out.add_checker(f"{namespace}.{certificate.name}", lean_text(stated.text), Role(kind, target.name))
        if scoring:
            name = certificate.name.removesuffix("_complete") + "_backward"
            extra = alternatives.backward if alternatives else None
            pin = candidate_universe_pin(target.declaration, candidate_header, candidate_universes)
            hypotheses = certificate.hypotheses
            if statements is not None:
                hypotheses = " ".join(f"({hyp} : {statements.add_axiom(f'hypothesis_{key}_{i}', '', prop)})"
                                      for i, (hyp, prop) in enumerate(certificate.hypothesis_list, start=1))
            text = candidate_backward_text(name, certificate.name, lean_text(hypotheses), head, pin,
                                           lean_text(extra) if extra else None, _is_data(candidate_header))
            out.add_checker(f"{namespace}.{name}", text, Role("backward", target.name))
    out.add(f"end {namespace}")
    if statements is not None:
        statements.add(f"end {ns}" if ns else "end")


def needs_candidate(texts: Sequence[str], names: frozenset[str]) -> bool:
    """Whether Lean text (statements, ``open``/``local`` commands) cannot be elaborated without the candidate: it
    names one of ``names`` — the reference's own declarations, which a candidate's checkers read as the
    candidate's (renamed or not) — or ``open``s a namespace one of them lives in (``open Doubling``: without the
    candidate the namespace may not exist, an error; with a library namespace such as ``Nat`` it is merely
    conservative)."""
    marker = {name: "pyshadow_marker" for name in names}  # any identifier naming one of them is rewritten
    if any(rename_identifiers(t, marker, qualify=True) != t for t in texts):
        return True
    namespaces = {".".join(name_components(normalize_name(n))[:k]) for n in names
                  for k in range(1, len(name_components(normalize_name(n))))}
    opened = {word for t in texts if re.match(r"\s*open\b", t) for word in re.findall(r"[^\s()\[\]]+", t)[1:]}
    return bool(opened & namespaces)


def _is_data(candidate_header: str | None) -> bool:
    """Whether the candidate's declaration is data (``kernel.definitions.is_data_declaration``)."""
    if candidate_header is None:
        return False
    try:
        return is_data_declaration(parse_declaration(candidate_header))
    except PyshadowError:
        return False


def candidate_universe_pin(reference: Declaration, candidate_header: str | None,
                           candidate_universes: Sequence[str] = ()) -> tuple[str, ...]:
    """The universes to instantiate the candidate at, listed in the candidate's own Lean order
    (``universe_parameters``, given the ``universe`` commands of its file): each candidate universe is paired with
    the reference universe at the same position of occurrence (``universe_occurrences``: ``{α : Type u}
    {β : Type v}`` pairs ``u`` with the reference's first). None when the candidate has no universe parameter or a
    different number than the reference (then the backward check can only pass for a candidate that is not
    universe-polymorphic)."""
    wanted = universe_occurrences(reference)
    if not wanted or candidate_header is None:
        return ()
    try:
        candidate = parse_declaration(candidate_header)
    except PyshadowError:
        return ()
    order, occurrences = universe_parameters(candidate, candidate_universes), universe_occurrences(candidate)
    if len(order) != len(wanted) or sorted(order) != sorted(occurrences):
        return ()
    paired = dict(zip(occurrences, wanted))
    return tuple(paired[u] for u in order)


def candidate_check_file(prepared: PreparedCandidate, *, module: str = CANDIDATE_MODULE,
                         nonce: str | None = None) -> CheckerFile:
    """The checker file for one candidate (see the module docstring); targets the candidate lacks are left out.
    ``nonce`` (fresh per call by default) names the statements module and the checkers' namespace."""
    info = prepared.info
    nonce = nonce or new_nonce()
    context = reference_context(info.reference)
    targets = {normalize_name(t.name) for t in info.targets}
    reference_own = frozenset(n for n in [*info.headers, *prepared.renames] if normalize_name(n) not in targets)
    statements = StatementsModule(f"{STATEMENTS_MODULE}_{nonce}")
    statements.add("\n".join(f"import {m}" for m in info.problem.imports))
    statements.add(f"/-! # the shadow statements of `{info.id}`, elaborated without the candidate (generated) -/")
    statements.add(AUTO_IMPLICIT_OFF)
    statements.add("\n".join([*context.opens, *context.local]))  # universes: listed on each axiom
    out = CheckerFile(statements=statements)
    out.add("\n".join([*(f"import {m}" for m in info.problem.imports), f"import {module}",
                       f"import {statements.name}"]))
    out.add(f"/-! # pyshadow checks of a candidate for `{info.id}` (generated) -/")
    out.add(AUTO_IMPLICIT_OFF)
    out.add("\n".join([*(f"universe {u}" for u in context.universes), *context.opens, *context.local]))
    universes = set(context.universes)
    if needs_candidate([*context.opens, *context.local], reference_own):
        out.statements = None  # the reference's context itself (an `open`, a local notation) needs the candidate
    for target in info.targets:
        found = prepared.extracted.get(target.name)
        if found is None or target.error or target.declaration is None:
            continue
        _section(out, info.id, target, lean_name(found.qualified_name), prepared.renames, universes,
                 candidate_alternatives(prepared, target, found), found.header, nonce, reference_own,
                 reference_context(prepared.candidate.code).universes,
                 statement_only=prepared.proofs == "ignored")
    definitions = add_definition_checks(out, statements, prepared, nonce) if out.statements is not None else 0
    if not statements.constants and not definitions:  # no goal elaborates without the candidate: no module
        out.statements = None
        out.lines[out.lines.index(f"import {statements.name}")] = "-- no statements module: the goals need the candidate"
    return out


def candidate_alternatives(prepared: PreparedCandidate, target: TargetInfo, found: ExtractedDeclaration
                           ) -> SkeletonAlternatives | None:
    """The skeleton search's terms for one candidate target, de-abstracted (``pyshadow.score.skeleton_terms``);
    None when the candidate's statement does not parse (its checkers then keep their three alternatives)."""
    assert target.declaration is not None
    try:
        statement = candidate_statement(prepared, found)
    except ParseError:
        return None
    if statement.type is None:
        return None
    try:
        return skeleton_alternatives(skeleton_pair("full", prepared, target, found, statement, definitions=False),
                                     head=_HEAD)
    except Exception as err:  # noqa: BLE001 - an extra alternative must never cost a candidate its three
        return SkeletonAlternatives(why={"search": f"the skeleton search failed: {err}"})


def reference_check_file(info: ProblemInfo) -> tuple[CheckerFile, frozenset[str]]:
    """The completeness file of a problem, and the axioms its checkers may use (the targets' among them)."""
    out = CheckerFile()
    out.add(reference_as_axioms(info.reference, info.problem.targets).rstrip("\n"))
    out.add(f"\n/-! # pyshadow completeness checks for `{info.id}` (generated) -/")
    out.add(AUTO_IMPLICIT_OFF)
    context = reference_context(info.reference)  # the reference above declares its universes already
    out.add("\n".join(context.opens))  # its `open`s inside namespaces and `open … in` ended with them
    universes = set(context.universes)
    for target in info.targets:
        if target.decomposition is not None:
            _section(out, info.id, target, lean_name(target.name), None, universes)
    allowed = DEFAULT_ALLOWED_AXIOMS | {normalize_name(t.name) for t in info.targets}
    return out, frozenset(allowed)


# ---------------------------------------------------------------------------------------------------------------
# Definitions are part of the statement: the candidate's counterpart of each reference definition, checked equal

DEFINITIONS_NAMESPACE = "Reference"  # inside the statements module: `PyshadowStatements_<nonce>.Reference.<name>`


@dataclass(frozen=True)
class DefinitionCheck:
    """One reference definition the targets use (a helper, an answer, a data target's value) and the candidate's
    declaration it is compared with."""

    reference: str  # fully qualified, in the reference
    candidate: str  # fully qualified, in the candidate
    target: str  # the target whose verdict it is part of


def definition_checks(prepared: PreparedCandidate) -> tuple[list[DefinitionCheck], list[NamedDeclaration]]:
    """The reference definitions to compare with the candidate's, and every reference definition their copies in
    the statements module need (file order). A definition is compared when a target uses it — directly, through
    another definition, or as the target itself (a data target with a value) — and the candidate has a counterpart
    (``prepared.renames``); not when its value is left open (``:= sorry``: the slot a candidate fills, nothing to
    compare with) or it needs one that is, and not when it sits in a namespace of the reference's (not copied)."""
    info = prepared.info
    src = info.reference
    defs = {normalize_name(d.qualified_name): d for d in declarations(src) if d.keyword in DATA_KEYWORDS}
    by_short = {}
    for name in defs:
        by_short.setdefault(name_components(name)[-1], []).append(name)

    def used_in(text: str) -> set[str]:
        out = set()
        for tok in code_tokens(text):
            if tok.kind == IDENT:
                n = normalize_name(tok.text)
                out.update([n] if n in defs else by_short.get(n, []) if len(by_short.get(n, [])) == 1 else [])
        return out

    def closure(names: set[str]) -> set[str]:
        seen, todo = set(), list(names)
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            d = defs[n]
            todo += sorted(used_in(src[d.keyword_start : d.end]) - {n})
        return seen

    def is_open(n: str) -> bool:
        return is_open_value(declared_value(src[defs[n].statement_end : defs[n].end]))

    checks: list[DefinitionCheck] = []
    needed: set[str] = set()
    for t in info.targets:
        found = prepared.extracted.get(t.name)
        if t.source is None or t.error or found is None:
            continue
        own = normalize_name(t.name)
        uses = used_in(t.source.header) - {own}
        if own in defs:
            uses |= {own}
        for n in sorted(uses):
            deps = closure({n})
            cand = found.qualified_name if n == own else prepared.renames.get(n)
            if cand is None or any(is_open(m) for m in deps) or any(name_components(m)[:-1] for m in deps):
                continue
            if all(c.reference != n for c in checks):
                checks.append(DefinitionCheck(n, cand, t.name))
                needed |= deps
    return checks, [d for n, d in defs.items() if n in needed]


def add_definition_checks(out: CheckerFile, statements: StatementsModule, prepared: PreparedCandidate,
                          nonce: str) -> int:
    """The reference definitions copied into the statements module (``namespace <module>.Reference``, verbatim, in
    a ``noncomputable section``: the module never runs them), and in the checker file, per compared definition,
    ``theorem … : @Cand.f = @<module>.Reference.f := rfl`` — only a candidate definition definitionally equal to
    the reference's meets it (Lean core src/Init/Prelude.lean ``theorem rfl {α : Sort u} {a : α} : Eq a a``; the
    header's universe metavariables become parameters, as the kernel-tier Lean shows in
    tests/test_definitions_full.py). Role ``definition``: a failed one fails its target's backward verdict
    (``pipeline.finish_row``). Returns the number of checks."""
    checks, copies = definition_checks(prepared)
    if not checks:
        return 0
    src = prepared.info.reference
    module = f"{statements.name}.{DEFINITIONS_NAMESPACE}"
    statements.add("\n".join(["noncomputable section", f"namespace {module}",
                              *(src[d.start : d.end].rstrip() for d in copies),
                              f"end {module}", "end"]))
    namespace = f"{CHECKS_NAMESPACE}_{nonce}_definitions"
    out.add(f"namespace {namespace}")
    for i, check in enumerate(checks, start=1):
        name = f"definition_{i}"
        text = "\n".join([f"/-- Definition check: the candidate's `{check.candidate}` is the reference's "
                          f"`{check.reference}` -/",
                          # `_root_.`: the candidate's name, never one an `open` namespace also has (Lean's name
                          # resolution reads `_root_.x` as the root declaration only; checked with the kernel-tier
                          # Lean in tests/test_definitions_full.py)
                          f"theorem {name} : @_root_.{check.candidate} = @_root_.{module}.{check.reference} := rfl"])
        out.add_checker(f"{namespace}.{name}", text, Role("definition", check.target))
    out.add(f"end {namespace}")
    return len(checks)
