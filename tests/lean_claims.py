"""The check every claimed spelling equivalence gets: Lean passes the same statement spelled otherwise under strict
scoring (a pass Lean checked), and each mutation partner — the nearest changed statement — passes in neither tier."""

from __future__ import annotations

import pyshadow
from pyshadow.settings import Settings

STRICT, LENIENT = Settings(lean_checked_only=True), Settings(lean_checked_only=False)


def assert_lean_decides(reference: str, same: str, changed: list[str], context: str = "") -> None:
    ok = pyshadow.check_pair(reference, same, context=context, candidate_context=context, settings=STRICT)
    assert ok.verdict == "pass" and ok.lean in ("accepted", "equal"), ok.reason
    for settings in (STRICT, LENIENT):
        for text in changed:
            bad = pyshadow.check_pair(reference, text, context=context, candidate_context=context, settings=settings)
            assert bad.verdict != "pass", (settings, text, bad)


def assert_definitional_claims(claims, lean) -> None:
    """Each ``(reference, same, changed, context)``: Lean's elaborator makes ``same`` definitionally the reference
    and keeps ``changed`` apart (``pyshadow.elab.equivalence``), all in one batch."""
    from pyshadow.elab.elaborate import StatementInput
    from pyshadow.elab.equivalence import definitional_equivalence

    items = []
    for i, (reference, same, changed, context) in enumerate(claims):
        items.append((f"same{i}", StatementInput("a", reference, context), StatementInput("b", same, context)))
        items.append((f"changed{i}", StatementInput("a", reference, context), StatementInput("b", changed, context)))
    results = definitional_equivalence(items, lean)
    got = {key: (r.status, r.reason) for (key, _, _), r in zip(items, results)}
    assert {k: v for k, v in got.items() if k.startswith("same") and v[0] != "equal"} == {}
    assert {k: v for k, v in got.items() if k.startswith("changed") and v[0] != "not_shown"} == {}
