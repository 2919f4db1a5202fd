"""The Lean text of single full-tier checks: a checker restated on an isolated goal, the backward check against a
candidate, a forward checker that takes the candidate's statement as a hypothesis, the universes to pin.

``pyshadow.score.full`` assembles these into a problem's checker file; ``_HEAD`` is the placeholder for the name the
checkers apply, replaced by the candidate's (or the reference's) declaration there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..errors import PyshadowError
from ..kernel.definitions import is_data_declaration
from ..shadows.checkers import Checker, CheckerSet, full_tier_checkers, universe_occurrences, universe_parameters
from ..syntax.ast import Declaration
from ..syntax.parser import parse_declaration
from ..syntax.scanner import lean_component, name_components, normalize_name
from .skeleton_terms import exact_line
from .pipeline import TargetInfo, rename_identifiers
from .checker_file import CHECKS_NAMESPACE


_HEAD = "pyshadow_checked_declaration_"  # placeholder for the name checkers apply, replaced after renaming
# proofs = "ignored": the forward checkers apply this hypothesis, of the candidate's type, instead of the candidate
STATEMENT_HYPOTHESIS = "pyshadow_statement"


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
