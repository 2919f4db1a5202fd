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
