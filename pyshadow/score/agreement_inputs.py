"""What ``pyshadow agree`` compares: human labels, and each automatic metric's decision per labelled candidate.

A candidate is keyed by ``(problem_id, system)``, or ``(problem_id, system, sample)`` when it is one of several
samples (``key_of``); labels carry an optional ``sample`` the same way. Every metric becomes a *decision* per item —
pass (True), fail (False) or undecided (None: a skeleton verdict marked ``undecided``, a judge that answered
"uncertain" or not at all); an item the metric has no entry for is undecided too. Score rows give compile (kernel
tier: statement elaborated), SA-Pass_soft > 0 and SA-Pass; judge rows each judge's majority, the majority of all
votes and strict consensus; BLEU ≥ threshold of the candidate's statement against the reference's (paper, App. E).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..files import read_utf8
from .metrics import row_compiled
from .stats import sentence_bleu

Key = tuple[str, ...]  # (problem_id, system) or (problem_id, system, sample)
BLEU_THRESHOLD = 0.1


def key_of(problem_id: str, system: str, sample: Any = None) -> Key:
    """The key of one candidate: its sample id joins the key only when it has one."""
    return (problem_id, system) if sample is None else (problem_id, system, str(sample))


@dataclass(frozen=True)
class Label:
    problem_id: str
    system: str
    aligned: bool
    sample: str | None = None

    @property
    def key(self) -> Key:
        return key_of(self.problem_id, self.system, self.sample)


@dataclass
class Metric:
    """One automatic metric's decisions per item (True pass, False fail, None undecided)."""

    name: str
    decisions: dict[Key, bool | None] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------------------------
# Reading inputs


def read_jsonl_objects(path: Path) -> tuple[list[tuple[int, dict[str, Any]]], list[str]]:
    """(line number, object) for each JSON object line; unreadable lines become one-line problems."""
    text = read_utf8(path)
    objects, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            problems.append(f"{path}:{number}: not JSON ({err.msg})")
            continue
        if not isinstance(obj, dict):
            problems.append(f"{path}:{number}: expected a JSON object")
            continue
        objects.append((number, obj))
    return objects, problems


def read_labels(path: Path) -> tuple[list[Label], list[str]]:
    """Labels in file order (a later line for the same candidate replaces an earlier one) and the problems found."""
    objects, problems = read_jsonl_objects(path)
    labels: dict[Key, Label] = {}
    for number, obj in objects:
        pid, system, aligned, sample = obj.get("problem_id"), obj.get("system"), obj.get("aligned"), obj.get("sample")
        if not isinstance(pid, str) or not isinstance(system, str) or not isinstance(aligned, bool) \
                or isinstance(sample, bool) or not isinstance(sample, (str, int, type(None))):
            problems.append(f"{path}:{number}: expected {{problem_id: str, system: str, aligned: true|false}} "
                            "(and an optional sample: str | int)")
            continue
        label = Label(pid, system, aligned, None if sample is None else str(sample))
        if label.key in labels:
            problems.append(f"{path}:{number}: a second label for {' / '.join(label.key)} replaces the first")
        labels[label.key] = label
    return list(labels.values()), problems


def is_judge_row(obj: Mapping[str, Any]) -> bool:
    return "judges" in obj and "consensus" in obj


def row_is_undecided(obj: Mapping[str, Any]) -> bool:
    """Whether a score row carries an "undecided" skeleton verdict (field or bucket), which no metric reads as
    pass or fail."""
    return bool(obj.get("undecided")) or obj.get("bucket") == "undecided" or obj.get("verdict") == "undecided"


def scored_keys(rows: Iterable[Mapping[str, Any]]) -> set[Key]:
    """The candidates that have a counted score row (either tier)."""
    return {key_of(r["problem_id"], r["system"], r.get("sample")) for r in rows
            if r.get("counted", True) and r.get("problem_id") and r.get("system")}


def score_metrics(rows: Iterable[Mapping[str, Any]]) -> list[Metric]:
    """Compile (or statement elaborated), SA-Pass_soft > 0 and SA-Pass from score rows (a later row for the same
    candidate wins). Kernel-tier rows give the skeleton metrics; both tiers may be present side by side."""
    by_tier: dict[str, dict[Key, Mapping[str, Any]]] = {}
    for row in rows:
        if not row.get("counted", True) or not row.get("problem_id") or not row.get("system"):
            continue
        key = key_of(row["problem_id"], row["system"], row.get("sample"))
        by_tier.setdefault(row.get("tier", "full"), {})[key] = row
    metrics = []
    for tier in sorted(by_tier):
        rows_by_key = by_tier[tier]
        skeleton = tier == "kernel"
        prefix = "skeleton " if skeleton else ""
        compiled = Metric("statement elaborated" if skeleton else "compile")
        soft = Metric(f"{prefix}SA-Pass_soft > 0")
        strict = Metric(f"{prefix}SA-Pass")
        for key, row in rows_by_key.items():
            compiled.decisions[key] = row_compiled(row)
            undecided = row_is_undecided(row)
            soft.decisions[key] = None if undecided else float(row.get("sa_pass_soft", 0.0)) > 0
            strict.decisions[key] = None if undecided else bool(row.get("sa_pass"))
        metrics += [compiled, soft, strict]
    return metrics


VERDICT_DECISION = {"correct": True, "incorrect": False}


def judge_metrics(rows: Iterable[Mapping[str, Any]]) -> list[Metric]:
    """Per judge its majority, then the majority of all votes and strict consensus (``pyshadow judge`` rows)."""
    per_judge: dict[str, Metric] = {}
    majority = Metric("judges: majority of votes")
    consensus = Metric("judges: strict consensus")
    for row in rows:
        key = key_of(row.get("problem_id") or "", row.get("system") or "", row.get("sample"))
        for model, record in sorted((row.get("judges") or {}).items()):
            metric = per_judge.setdefault(model, Metric(f"judge {model}"))
            metric.decisions[key] = VERDICT_DECISION.get(record.get("majority"))
        majority.decisions[key] = VERDICT_DECISION.get(row.get("majority_all"))
        consensus.decisions[key] = VERDICT_DECISION.get(row.get("consensus"))
    if not majority.decisions:
        return []
    return [per_judge[m] for m in sorted(per_judge)] + [majority, consensus]


def bleu_metric(scores: Mapping[Key, float], threshold: float = BLEU_THRESHOLD) -> Metric:
    return Metric(f"BLEU ≥ {threshold:g}", {k: v >= threshold for k, v in scores.items()})


# ---------------------------------------------------------------------------------------------------------------
# BLEU of theorem statements


def statement_tokens(text: str) -> list[str]:
    """Lean tokens of a statement (comments dropped) — what BLEU counts n-grams of."""
    from ..syntax.lexer import code_tokens

    return [t.text for t in code_tokens(text)]


def bleu_scores(problems: Sequence[Any], candidates: Iterable[Any]) -> dict[Key, float]:
    """Sentence BLEU per candidate: its target statements (each declaration up to ``:=``) against the reference's.

    The statement, not the proof: a reference's proof is ``sorry`` or absent and the proof is not what is judged.
    Several targets are joined in the problem's order; a target the candidate does not declare contributes no
    tokens (BLEU then falls through the brevity penalty).
    """
    from ..syntax.scanner import extract_target, normalize_name
    from .candidates import Candidate
    from .pipeline import prepare_problem

    infos = {p.id: prepare_problem(p) for p in problems}
    scores: dict[Key, float] = {}
    for cand in candidates:
        if not isinstance(cand, Candidate) or cand.problem_id not in infos:
            continue
        info = infos[cand.problem_id]
        ref, hyp = [], []
        for target in info.targets:
            header = info.headers.get(normalize_name(target.name)) or info.headers.get(target.name) or ""
            ref += statement_tokens(header)
            found = extract_target(cand.code, target.name)
            hyp += statement_tokens(found.header) if found is not None else []
        scores[key_of(cand.problem_id, cand.system, cand.sample)] = sentence_bleu(hyp, ref)
    return scores
