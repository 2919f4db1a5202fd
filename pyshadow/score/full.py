"""The full tier: checker files for real Lean with ``Init`` (and Mathlib), for references and for candidates.

**Candidates (isolation).** A candidate is compiled as its own module ``PyshadowCandidate`` (``lean -o`` into a
fresh temporary directory, ``compile_module``), and one checker file imports it and holds every check of the
problem — one Lean process for the module, one for the checks, judged by ``judge`` with
``DEFAULT_ALLOWED_AXIOMS``. Whatever the candidate does locally — ``local instance``/``local notation``, ``open``,
``variable``, sections and namespaces it leaves open, ``#exit`` — ends with its module and cannot reach the
checkers; what an imported module *does* carry (global instances, notation, syntax, attributes) is the trust
gate's job (``pyshadow.score.audit``), which runs before anything is compiled.

The checker file, in order:

1. the problem's imports and ``import PyshadowCandidate``; the reference's ``universe`` names and ``open``
   commands (``pyshadow.workspace.reference_context``: the shadows are written in the reference's language);
2. per target, ``namespace <target's namespace>.PyshadowChecks`` (names resolve as in the reference; the checkers
   cannot collide with the candidate's), holding
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
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..lean.batch import effective_backend
from ..lean.runner import DEFAULT_ALLOWED_AXIOMS, DeclarationSpan, LeanResult, compile_module, judge, run_lean
from ..lean.toolchain import LeanExecutable
from ..errors import PyshadowError
from ..shadows.checkers import CheckerSet, full_tier_checkers, universe_parameters
from ..syntax.ast import Declaration
from ..syntax.parser import parse_declaration
from ..references import reference_as_axioms, reference_sorry  # noqa: F401 - re-exported: verify uses both
from ..workspace import reference_context
from ..syntax.scanner import name_components, normalize_name
from ..syntax import ParseError
from ..syntax.scanner import ExtractedDeclaration
from .skeleton_terms import SkeletonAlternatives, exact_line, skeleton_alternatives, with_forward_alternative
from .pipeline import (
    Check,
    candidate_statement,
    skeleton_pair,
    PreparedCandidate,
    ProblemInfo,
    ScoreRow,
    TargetInfo,
    finish_row,
    missing_target_checks,
    rename_identifiers,
)

CANDIDATE_MODULE = "PyshadowCandidate"
CHECKS_NAMESPACE = "PyshadowChecks"
CHECKS_FILE = "Checks.lean"
# As in the workspace's checker files (templates/lean/checker_file.lean.j2): a name a checker does not resolve is
# an error, never an auto-bound variable — so `verify`, `score` and `lake build` judge the same text alike.
AUTO_IMPLICIT_OFF = "set_option autoImplicit false"
_HEAD = "pyshadow_checked_declaration_"  # placeholder for the name checkers apply, replaced after renaming


# ---------------------------------------------------------------------------------------------------------------
# Building checker files


@dataclass(frozen=True)
class Role:
    """What a declaration of a checker file checks: ``kind`` forward | backward | certificate | axioms."""

    kind: str
    target: str
    shadow: int | None = None


@dataclass
class CheckerFile:
    """A Lean file under construction: its lines, the spans to judge and what each span checks."""

    lines: list[str] = field(default_factory=list)
    spans: list[DeclarationSpan] = field(default_factory=list)
    roles: dict[str, Role] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def add(self, text: str) -> None:
        self.lines.extend(text.split("\n"))

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


def _namespace(target: str) -> str:
    parts = name_components(normalize_name(target))[:-1]
    return ".".join([*parts, CHECKS_NAMESPACE])


def _preamble_commands(preamble: str | None) -> list[str]:
    """``open Real in`` / ``set_option x y in`` written before a declaration, as commands for a whole section."""
    if not preamble:
        return []
    return [re.sub(r"\s+in\s*$", "", line.strip()) for line in preamble.splitlines() if line.strip()]


def _checkers(problem_id: str, target: TargetInfo, several: bool, *, certificate: bool) -> CheckerSet:
    """The target's checkers applied to the placeholder head; with ``certificate`` always a certificate (an
    atomic target's is the identity: its shadow is the target itself)."""
    assert target.declaration is not None and target.decomposition is not None
    pid = target.checker_id or problem_id  # the names ``reference_targets`` gave (one place for them)
    dec = replace(target.decomposition, residual=False) if certificate else target.decomposition
    return full_tier_checkers(pid, _HEAD, target.declaration, dec)


def candidate_backward_text(name: str, certificate_name: str, hypotheses: str, head: str,
                            universes: Sequence[str] = (), alternative: str | None = None) -> str:
    """⋀ Sᵢ ⇒ T̂: the shadows as hypotheses, the candidate's own type as the goal, proved via the certificate (or
    by ``alternative``, the skeleton search's term, when there is one).

    ``universes`` pins the candidate's universe parameters to the ones the hypotheses use (``@Cand.{u_1}``):
    ``type_of% @Cand`` alone gives each a fresh universe, and no ``hS_i`` at ``u_1`` proves it at ``u_2``.
    """
    pin = ".{" + ", ".join(universes) + "}" if universes else ""
    proof = ["  intros", f"  apply {certificate_name} <;> assumption"]
    if alternative is not None:
        proof = ["  first", f"  | (intros; apply {certificate_name} <;> assumption)", exact_line(alternative)]
    return "\n".join([
        "/-- Backward check: the shadows imply the candidate's statement -/",
        f"theorem {name} {hypotheses} :",
        f"    type_of% @{head}{pin} := by",
        *proof,
    ])


def _section(
    out: CheckerFile, problem_id: str, target: TargetInfo, several: bool, head: str,
    renames: Mapping[str, str] | None, declared_universes: set[str],
    alternatives: SkeletonAlternatives | None = None, candidate_header: str | None = None,
) -> None:
    """One target's namespace block: (candidate axioms), forward checkers, certificate, (candidate backward)."""
    assert target.declaration is not None
    scoring = renames is not None
    checkers = _checkers(problem_id, target, several, certificate=scoring)
    namespace = _namespace(target.name)
    new_universes = [u for u in checkers.universes if u not in declared_universes]
    declared_universes.update(new_universes)
    if new_universes:
        out.add(f"universe {' '.join(new_universes)}")
    out.add(f"namespace {namespace}")
    out.add("\n".join(_preamble_commands(target.declaration.preamble)) or "")
    if scoring:
        out.add_axioms_probe(head, Role("axioms", target.name))

    def lean_text(text: str) -> str:
        if renames:
            text = rename_identifiers(text, renames, qualify=True)
        return text.replace(_HEAD, head)

    for checker in checkers.forward:
        role = Role("forward", target.name, (checker.shadow_index or 0) + 1)
        text = with_forward_alternative(checker.text, alternatives.forward.get(role.shadow)) if alternatives \
            else checker.text
        out.add_checker(f"{namespace}.{checker.name}", lean_text(text), role)
    certificate = checkers.backward
    if certificate is not None:
        kind = "certificate" if scoring else "backward"
        out.add_checker(f"{namespace}.{certificate.name}", lean_text(certificate.text), Role(kind, target.name))
        if scoring:
            name = certificate.name.removesuffix("_complete") + "_backward"
            extra = alternatives.backward if alternatives else None
            pin = candidate_universe_pin(target.declaration, candidate_header)
            text = candidate_backward_text(name, certificate.name, lean_text(certificate.hypotheses), head, pin,
                                           lean_text(extra) if extra else None)
            out.add_checker(f"{namespace}.{name}", text, Role("backward", target.name))
    out.add(f"end {namespace}")


def candidate_universe_pin(reference: Declaration, candidate_header: str | None) -> tuple[str, ...]:
    """The universes to instantiate the candidate at: the reference's, in Lean's order, when the candidate has as
    many universe parameters (matched by position); none when it has none, or a different number (then the
    backward check can only pass for a candidate that is not universe-polymorphic)."""
    wanted = universe_parameters(reference)
    if not wanted or candidate_header is None:
        return ()
    try:
        candidate = parse_declaration(candidate_header)
    except PyshadowError:
        return ()
    return wanted if len(universe_parameters(candidate)) == len(wanted) else ()


def candidate_check_file(prepared: PreparedCandidate, *, module: str = CANDIDATE_MODULE) -> CheckerFile:
    """The checker file for one candidate (see the module docstring); targets the candidate lacks are left out."""
    info = prepared.info
    out = CheckerFile()
    out.add("\n".join([*(f"import {m}" for m in info.problem.imports), f"import {module}"]))
    out.add(f"/-! # pyshadow checks of a candidate for `{info.id}` (generated) -/")
    out.add(AUTO_IMPLICIT_OFF)
    context = reference_context(info.reference)
    out.add("\n".join([*(f"universe {u}" for u in context.universes), *context.opens, *context.local]))
    universes = set(context.universes)
    several = len(info.targets) > 1
    for target in info.targets:
        found = prepared.extracted.get(target.name)
        if found is None or target.error or target.declaration is None:
            continue
        _section(out, info.id, target, several, found.qualified_name, prepared.renames, universes,
                 candidate_alternatives(prepared, target, found), found.header)
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
        return skeleton_alternatives(skeleton_pair("full", prepared, target, found, statement), head=_HEAD)
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
    several = len(info.targets) > 1
    for target in info.targets:
        if target.decomposition is not None:
            _section(out, info.id, target, several, normalize_name(target.name), None, universes)
    allowed = DEFAULT_ALLOWED_AXIOMS | {normalize_name(t.name) for t in info.targets}
    return out, frozenset(allowed)


# ---------------------------------------------------------------------------------------------------------------
# Running a candidate


@dataclass(frozen=True)
class FullTask:
    """What a worker needs to check one candidate (plain data: it crosses process boundaries)."""

    key: str
    module_text: str  # the candidate's Lean file
    checker_text: str
    spans: tuple[DeclarationSpan, ...]
    roles: Mapping[str, Role]
    workspace: Path | None = None
    timeout_s: float = 120
    memory_mb: int = 4096
    module: str = CANDIDATE_MODULE
    allowed_axioms: frozenset[str] = DEFAULT_ALLOWED_AXIOMS


@dataclass
class FullOutcome:
    key: str
    compiled: bool
    reason: str | None
    checks: list[Check]
    elapsed_s: float


def full_task(prepared: PreparedCandidate, *, workspace: Path | None, timeout_s: float, memory_mb: int
              ) -> FullTask:
    file = candidate_check_file(prepared)
    return FullTask(prepared.content_hash, prepared.candidate.code, file.text, tuple(file.spans), file.roles,
                    workspace, timeout_s, memory_mb)


def run_full_task(task: FullTask, lean: LeanExecutable) -> FullOutcome:
    """Compile the candidate module, then run the checker file against it; never raises for what Lean does."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pyshadow-candidate-") as tmp:
        src_dir, out_dir = Path(tmp) / "src", Path(tmp) / "build"
        src_dir.mkdir()
        source = src_dir / f"{task.module}.lean"
        source.write_text(task.module_text, encoding="utf-8")
        module = compile_module(lean, source, out_dir / f"{task.module}.olean", timeout_s=task.timeout_s,
                                memory_mb=task.memory_mb, cwd=task.workspace, root=src_dir, sandbox=Path(tmp))
        if not module.succeeded:
            return FullOutcome(task.key, False, f"the candidate does not compile: {compile_failure(module)}", [],
                               time.monotonic() - start)
        checks_file = Path(tmp) / CHECKS_FILE
        checks_file.write_text(task.checker_text, encoding="utf-8")
        result = run_lean(lean, checks_file, timeout_s=task.timeout_s, memory_mb=task.memory_mb,
                          cwd=task.workspace, lean_path=(out_dir,), sandbox=Path(tmp))
    verdicts = judge(result, task.spans, task.allowed_axioms, text=task.checker_text)
    checks = []
    for span in task.spans:
        role, verdict = task.roles[span.name], verdicts[span.name]
        if role.kind == "certificate":
            continue  # a helper: its failure shows in the backward check that uses it
        checks.append(Check(span.name, role.kind, role.target, verdict.passed, verdict.reason, role.shadow))
    axioms = [c for c in checks if c.kind == "axioms"]
    bad_axioms = [c for c in axioms if not c.passed]
    compiled = result.status == "ok" and not bad_axioms
    reason = None
    if result.status != "ok":
        reason = f"the checker process ended with {result.status}: {result.detail}"
    elif bad_axioms:
        reason = f"the candidate's axioms: {bad_axioms[0].message}"
    return FullOutcome(task.key, compiled, reason, checks, time.monotonic() - start)


def compile_failure(result: LeanResult) -> str:
    """One line on why a module did not compile: the first error, or the process status."""
    if result.status != "ok":
        return f"{result.status} ({result.detail})" if result.detail else result.status
    if result.errors:
        first = result.errors[0]
        return f"line {first.pos.line}: {first.message.splitlines()[0] if first.message else 'error'}"
    return f"exit code {result.returncode}"


# ---------------------------------------------------------------------------------------------------------------
# Many candidates


def full_rows(
    prepared: Sequence[PreparedCandidate],
    lean: LeanExecutable,
    *,
    workspace: Path | None = None,
    n_jobs: int = -1,
    backend: str | None = "loky",
    timeout_s: float = 120,
    memory_mb: int = 4096,
) -> Iterator[ScoreRow]:
    """Full-tier rows, yielded as candidates finish (joblib over candidates; two Lean processes each).

    A flagged candidate is never compiled: its row comes at once, failed with the audit's findings.
    """
    tasks: dict[str, tuple[PreparedCandidate, FullTask]] = {}
    for p in prepared:
        if p.flagged:
            yield finish_row(p, "full", missing_checks(p), compiled=False)
        else:
            tasks[p.content_hash] = (p, full_task(p, workspace=workspace, timeout_s=timeout_s, memory_mb=memory_mb))
    if not tasks:
        return
    import joblib  # imported on use, as in pyshadow.lean.batch

    parallel = joblib.Parallel(n_jobs=n_jobs, backend=effective_backend(backend), return_as="generator_unordered")
    for outcome in parallel(joblib.delayed(run_full_task)(task, lean) for _, task in tasks.values()):
        p, _ = tasks[outcome.key]
        yield finish_row(p, "full", outcome.checks + missing_checks(p), compiled=outcome.compiled,
                         reason=outcome.reason, elapsed_s=outcome.elapsed_s)


def missing_checks(prepared: PreparedCandidate) -> list[Check]:
    """Failed checks for the targets that get no checkers: not declared by the candidate, or not checkable."""
    out: list[Check] = []
    for t in prepared.info.targets:
        if prepared.extracted.get(t.name) is None or t.error or t.declaration is None:
            out += missing_target_checks(prepared, t)
    return out
