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

This module assembles the two files; what a checker file is (``CheckerFile``, ``StatementsModule``, ``Role``) is
``pyshadow.score.checker_file``, the text of single checks ``pyshadow.score.checker_texts``, the definition checks
``pyshadow.score.definition_checks``.

Nothing here has been run with a full toolchain on the development machines (none can be installed there); the
plumbing — module compile, import, one checker process, judging — is exercised with the kernel-tier ``lean`` on
prelude-mode files (tests/test_score.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..lean.runner import DEFAULT_ALLOWED_AXIOMS
from ..shadows.checkers import Checker
from ..references import reference_as_axioms, reference_sorry  # noqa: F401 - re-exported: verify uses both
from ..workspace import reference_context
from ..syntax.scanner import lean_name, normalize_name
from ..syntax import ParseError
from ..syntax.scanner import ExtractedDeclaration
from .skeleton_terms import SkeletonAlternatives, skeleton_alternatives, with_forward_alternative
from .pipeline import (
    candidate_statement,
    skeleton_pair,
    PreparedCandidate,
    ProblemInfo,
    TargetInfo,
    rename_identifiers,
)
from .checker_file import (AUTO_IMPLICIT_OFF, CANDIDATE_MODULE, STATEMENTS_MODULE, CheckerFile, Role, StatementsModule,
                           new_nonce)
from .checker_texts import (_HEAD, _checkers, _is_data, _namespace, _preamble_commands, _target_namespace,
                            candidate_backward_text, candidate_universe_pin, isolated_checker_text, needs_candidate,
                            statement_as_hypothesis)
from .definition_checks import add_definition_checks


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
