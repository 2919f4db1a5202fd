"""What a lint rule reports: :class:`Finding` (rule id, severity, exact span, one-line explanation, suggested
rewrite) and the registry of rules (:func:`rule`, :data:`RULES`).

A rule is a function from a :class:`~pyshadow.lint.context.Statement` (the parsed statement with its inferred
types) to the findings it makes; ``@rule(id, severity, summary)`` registers it. Severity ``error`` means the
statement certainly says something else than it appears to (a variable bound by a big operator reappearing free
after its body); ``warning`` means it likely does (ℕ subtraction in a statement that otherwise lives in ℝ).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterable

ERROR = "error"
WARNING = "warning"
SEVERITIES = (ERROR, WARNING)


@dataclass(frozen=True, slots=True)
class Finding:
    """One defect: ``start``/``end`` are offsets into the statement text; ``line``/``column`` (1-based line,
    0-based column, as Lean reports them) locate ``start`` in the file or corpus entry it came from."""

    rule: str
    severity: str
    start: int
    end: int
    line: int
    column: int
    excerpt: str
    message: str
    suggestion: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    severity: str
    summary: str
    check: Callable[[Any], Iterable[Finding]]


RULES: dict[str, Rule] = {}


def rule(rule_id: str, severity: str, summary: str):
    """Register ``check`` as rule ``rule_id``; its ``severity`` is the default of the findings it makes."""
    if severity not in SEVERITIES:
        raise ValueError(f"severity must be one of {SEVERITIES}, got {severity!r}")

    def register(check: Callable[[Any], Iterable[Finding]]) -> Callable[[Any], Iterable[Finding]]:
        if rule_id in RULES:
            raise ValueError(f"lint rule {rule_id!r} registered twice")
        RULES[rule_id] = Rule(rule_id, severity, summary, check)
        return check

    return register
