"""A full-tier checker file under construction: its lines, the declarations to judge and what each one checks.

``CheckerFile`` is the Lean file of a problem's checks (each checker followed by its ``#print axioms`` line, with the
span the judge reads and its ``Role``); ``StatementsModule`` the module of a candidate's shadow statements, one
``axiom`` per goal, elaborated without the candidate. The module, file and namespace names are here; what goes
into the files is ``pyshadow.score.full``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from ..lean.runner import DeclarationSpan
from ..shadows.checkers import universe_names


CANDIDATE_MODULE = "PyshadowCandidate"
CHECKS_NAMESPACE = "PyshadowChecks"
STATEMENTS_MODULE = "PyshadowStatements"  # + "_<nonce>": the module of the shadow statements (never the candidate)
CHECKS_FILE = "Checks.lean"
# As in the workspace's checker files (templates/lean/checker_file.lean.j2): a name a checker does not resolve is
# an error, never an auto-bound variable — so `verify`, `score` and `lake build` judge the same text alike.
AUTO_IMPLICIT_OFF = "set_option autoImplicit false"


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
