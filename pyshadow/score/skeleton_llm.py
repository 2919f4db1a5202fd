"""The *skeleton + LLM* column: skeleton SA-Pass with a model's answers on the atom pairs it leaves undecided.

Skeleton SA-Pass gives each kernel-tier row pass, fail or undecided (``pyshadow.score.pipeline``: an undecided
row names, per target, the atom pairs the kernel tier cannot judge and the checks that pass once those atoms are
one, ``undecided_atoms``). With ``--llm`` each distinct pair of an undecided row is asked about
(``pyshadow.llm.same_term``) and the row gets a second verdict, in its own field ``skeleton_llm``:

- a skeleton pass is ``pass`` and a skeleton fail is ``fail`` — neither is sent to the model;
- an undecided row is ``pass`` only when every undecided atom pair is answered ``same: true`` **and** its failed
  checks are exactly the recorded ``roles`` (the checks that pass once those atoms are one), ``fail`` when any pair
  is answered ``false``, and stays ``undecided`` otherwise (a ``null`` answer, an unreadable answer, a question
  the budget skipped).

This is a model's opinion, not a Lean check: it never changes the row's SA-Pass, bucket or findings, and reports
show it beside skeleton SA-Pass, never mixed into it.
"""

from __future__ import annotations

from typing import Any

from ..llm.same_term import AtomAnswer, AtomPairJudge, AtomQuestion, TermScope, combine
from .metrics import sa_pass
from .pipeline import ScoreRow

VERDICTS = ("pass", "fail", "undecided")


def failed_checks(row: ScoreRow) -> set[str]:
    return {c.name for c in row.checks if c.kind in ("forward", "backward") and not c.passed}


def undecided_checks(row: ScoreRow) -> set[str]:
    """The checks the recorded atom pairs account for: ``<target>:forward:i`` / ``<target>:backward``."""
    return {f"{item['target']}:{role}" for item in row.undecided_atoms for role in item.get("roles", ())}


def questions_of(row: ScoreRow, mathlib: bool) -> list[tuple[str, AtomQuestion]]:
    """(target, question) for every atom pair the row leaves undecided, in the row's order."""
    out = []
    for item in row.undecided_atoms:
        ref_scope = _scope(item.get("reference_scope"))
        cand_scope = _scope(item.get("candidate_scope"))
        for a, b in item["pairs"]:
            out.append((item["target"], AtomQuestion(a, b, ref_scope, cand_scope, mathlib)))
    return out


def skeleton_llm_column(row: ScoreRow, judge: AtomPairJudge, *, mathlib: bool = True) -> dict[str, Any]:
    """The row's skeleton + LLM verdict and the answers it rests on (each with its atom pair, answer, reason and
    provenance). Only an undecided row whose failed checks are exactly its recorded roles asks the model."""
    if row.score.compiled and sa_pass(row.score):
        return {"verdict": "pass", "answers": []}
    if not (row.score.compiled and row.score.undecided and row.undecided_atoms):
        return {"verdict": "fail", "answers": []}
    if failed_checks(row) != undecided_checks(row):
        return {"verdict": "undecided", "answers": [],
                "note": "the failed checks are not exactly those the atom pairs account for; no model asked"}
    prefix = f"atom-pair/{row.problem_id}/{row.system}"
    answers = []
    for target, question in questions_of(row, mathlib):
        answer = judge.answer(question, f"{prefix}/{target}/{len(answers) + 1}")
        answers.append({"target": target, **answer.to_dict()})
    verdict = combine(AtomAnswer.from_dict(a) for a in answers)
    return {"verdict": verdict, "answers": answers}


def column_verdict(row: Any) -> str | None:
    """The skeleton + LLM verdict of a row (a ``ScoreRow`` or its dict), None when the row has no such column."""
    column = row.get("skeleton_llm") if isinstance(row, dict) else getattr(row, "skeleton_llm", None)
    if not column:
        return None
    verdict = column.get("verdict")
    return verdict if verdict in VERDICTS else None


def answer_errors(row: Any) -> int:
    """How many of a row's atom-pair questions got no usable answer (unreadable, skipped, failed)."""
    column = row.get("skeleton_llm") if isinstance(row, dict) else getattr(row, "skeleton_llm", None)
    return sum(a.get("status") != "ok" for a in (column or {}).get("answers", []))


def _scope(data: Any) -> TermScope:
    data = data or {}
    return TermScope(tuple(data.get("lines", ())), tuple(data.get("variables", ())))
