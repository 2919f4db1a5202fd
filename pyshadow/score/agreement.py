"""Agreement of automatic metrics with human labels: the ShadowBench paper's Table 4, plus κ, Wilson intervals and
paired exact McNemar tests ("Beyond Compilation" §4.1).

Inputs: labels ``{problem_id, system, aligned}`` (one per candidate), score rows (``pyshadow score`` RESULTS.jsonl,
either tier), judge rows (``pyshadow judge``) and optionally BLEU scores of the candidates' theorem statements.
Every metric becomes a *decision* per labelled item — pass (True), fail (False) or undecided (None: no row for the
item, a judge that answered "uncertain" or not at all, a skeleton verdict marked ``undecided``):

==========================  ==================================================================================
metric                      decision
==========================  ==================================================================================
compile                     the candidate compiled (full tier)
statement elaborated        the kernel tier could read and abstract the statement (nothing is compiled there)
BLEU ≥ 0.1                  sentence BLEU of the candidate's statement vs the reference's (paper, App. E)
[skeleton] SA-Pass_soft > 0 the paper's threshold 0 for SA-Pass_soft
[skeleton] SA-Pass          SA-Pass (full tier) or skeleton SA-Pass (kernel tier) — never mixed
judge <model>               that judge's majority over its votes
judges: majority of votes   majority over every vote of every judge (the paper's nine-vote majority)
judges: strict consensus    every judge's majority says correct ("Beyond Compilation")
==========================  ==================================================================================

Per metric (overall and per system), on the items it decided: tp/fp/fn/tn, precision, recall, F1, agreement and
Cohen's κ, each proportion with its Wilson 95% interval; coverage = decided / labelled. For every pair of metrics,
McNemar on the items both decided: how many only one of them gets right, and the exact two-sided p.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

from ..files import read_utf8
from .metrics import row_compiled
from .stats import (
    Confusion,
    McNemar,
    agreement,
    cohen_kappa,
    f1,
    mcnemar,
    precision,
    recall,
    sentence_bleu,
    wilson_interval,
)

Key = tuple[str, str]  # (problem_id, system)
BLEU_THRESHOLD = 0.1


@dataclass(frozen=True)
class Label:
    problem_id: str
    system: str
    aligned: bool

    @property
    def key(self) -> Key:
        return (self.problem_id, self.system)


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
        pid, system, aligned = obj.get("problem_id"), obj.get("system"), obj.get("aligned")
        if not isinstance(pid, str) or not isinstance(system, str) or not isinstance(aligned, bool):
            problems.append(f"{path}:{number}: expected {{problem_id: str, system: str, aligned: true|false}}")
            continue
        if (pid, system) in labels:
            problems.append(f"{path}:{number}: a second label for {pid} / {system} replaces the first")
        labels[(pid, system)] = Label(pid, system, aligned)
    return list(labels.values()), problems


def is_judge_row(obj: Mapping[str, Any]) -> bool:
    return "judges" in obj and "consensus" in obj


def row_is_undecided(obj: Mapping[str, Any]) -> bool:
    """Whether a score row carries an "undecided" skeleton verdict (field or bucket), which no metric reads as
    pass or fail."""
    return bool(obj.get("undecided")) or obj.get("bucket") == "undecided" or obj.get("verdict") == "undecided"


def score_metrics(rows: Iterable[Mapping[str, Any]]) -> list[Metric]:
    """Compile (or statement elaborated), SA-Pass_soft > 0 and SA-Pass from score rows (a later row for the same
    candidate wins). Kernel-tier rows give the skeleton metrics; both tiers may be present side by side."""
    by_tier: dict[str, dict[Key, Mapping[str, Any]]] = {}
    for row in rows:
        if not row.get("counted", True) or not row.get("problem_id") or not row.get("system"):
            continue
        by_tier.setdefault(row.get("tier", "full"), {})[(row["problem_id"], row["system"])] = row
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
        key = (row.get("problem_id") or "", row.get("system") or "")
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
# Computing


@dataclass(frozen=True)
class AgreementRow:
    """One metric against the labels, over one group of items (``system`` None: all systems)."""

    metric: str
    system: str | None
    labelled: int
    confusion: Confusion

    @property
    def decided(self) -> int:
        return self.confusion.n

    def to_dict(self) -> dict[str, Any]:
        c = self.confusion
        out: dict[str, Any] = {"metric": self.metric, "system": self.system, "labelled": self.labelled,
                               "decided": self.decided, "tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn}
        for name, value, (num, den) in (
            ("precision", precision(c), (c.tp, c.tp + c.fp)),
            ("recall", recall(c), (c.tp, c.tp + c.fn)),
            ("agreement", agreement(c), (c.tp + c.tn, c.n)),
        ):
            ci = wilson_interval(num, den)
            out[name] = None if value is None else float(value)
            out[f"{name}_ci"] = None if ci is None else [round(ci[0], 6), round(ci[1], 6)]
        score = f1(c)
        out["f1"] = None if score is None else float(score)
        out["kappa"] = cohen_kappa(c)
        return out


@dataclass(frozen=True)
class AgreementReport:
    labels: tuple[Label, ...]
    metrics: tuple[str, ...]
    overall: tuple[AgreementRow, ...]
    per_system: tuple[AgreementRow, ...]
    pairs: tuple[tuple[str, str, McNemar], ...]
    problems: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "labelled": len(self.labels),
            "positives": sum(lab.aligned for lab in self.labels),
            "metrics": list(self.metrics),
            "overall": [r.to_dict() for r in self.overall],
            "per_system": [r.to_dict() for r in self.per_system],
            "mcnemar": [{"a": a, "b": b, "n": t.n, "a_only": t.a_only, "b_only": t.b_only, "p": t.p}
                        for a, b, t in self.pairs],
            "problems": list(self.problems),
        }


def confusion_for(labels: Sequence[Label], metric: Metric) -> Confusion:
    pairs = [(lab.aligned, metric.decisions[lab.key]) for lab in labels if metric.decisions.get(lab.key) is not None]
    return Confusion.from_pairs(pairs)


def compare(labels: Sequence[Label], metrics: Sequence[Metric], problems: Sequence[str] = ()) -> AgreementReport:
    """Every metric against the labels (overall and per system) and McNemar for every pair of metrics."""
    overall = tuple(AgreementRow(m.name, None, len(labels), confusion_for(labels, m)) for m in metrics)
    systems = sorted({lab.system for lab in labels})
    per_system = []
    for system in systems:
        group = [lab for lab in labels if lab.system == system]
        per_system += [AgreementRow(m.name, system, len(group), confusion_for(group, m)) for m in metrics]
    pairs = []
    for a, b in combinations(metrics, 2):
        both = [lab for lab in labels
                if a.decisions.get(lab.key) is not None and b.decisions.get(lab.key) is not None]
        truth = [lab.aligned for lab in both]
        pairs.append((a.name, b.name, mcnemar(truth, [bool(a.decisions[lab.key]) for lab in both],
                                              [bool(b.decisions[lab.key]) for lab in both])))
    return AgreementReport(tuple(labels), tuple(m.name for m in metrics), overall, tuple(per_system), tuple(pairs),
                           tuple(problems))


# ---------------------------------------------------------------------------------------------------------------
# Rendering


def fmt(value: Fraction | float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{float(value):.{digits}f}"


def fmt_ci(value: Any, ci: Sequence[float] | None) -> str:
    if value is None or ci is None:
        return "—"
    return f"{value:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"


_HEADERS = ("Metric", "decided / labelled", "TP", "FP", "FN", "TN", "Precision [95% CI]", "Recall [95% CI]", "F1",
            "Agreement [95% CI]", "κ")


def _markdown_rows(rows: Sequence[AgreementRow]) -> list[str]:
    best_agreement = max((agreement(r.confusion) or 0 for r in rows), default=0)
    lines = ["| " + " | ".join(_HEADERS) + " |", "| --- | ---: " + "| ---: " * (len(_HEADERS) - 2) + "|"]
    for row in rows:
        d = row.to_dict()
        agree_cell = fmt_ci(d["agreement"], d["agreement_ci"])
        if d["agreement"] is not None and best_agreement and agreement(row.confusion) == best_agreement:
            agree_cell = f"**{agree_cell}**"
        cells = [row.metric, f"{row.decided}/{row.labelled}", str(d["tp"]), str(d["fp"]), str(d["fn"]), str(d["tn"]),
                 fmt_ci(d["precision"], d["precision_ci"]), fmt_ci(d["recall"], d["recall_ci"]), fmt(d["f1"]),
                 agree_cell, fmt(d["kappa"])]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def render_markdown(report: AgreementReport) -> str:
    """Table 4 (overall), the same per system, then the McNemar pairs."""
    positives = sum(lab.aligned for lab in report.labels)
    lines = [
        "# Agreement of automatic metrics with human labels",
        "",
        f"{len(report.labels)} labelled candidates ({positives} aligned, {len(report.labels) - positives} not). "
        "Each metric is scored on the candidates it decided (a pass or a fail); intervals are Wilson 95%; "
        "agreement = (TP + TN) / decided; κ = Cohen's kappa; — = undefined (a zero denominator). Best agreement "
        "in bold.",
        "",
        "## All systems (Table 4)",
        "",
        *_markdown_rows(report.overall),
    ]
    for system in sorted({r.system for r in report.per_system if r.system is not None}):
        lines += ["", f"## System `{system}`", "", *_markdown_rows([r for r in report.per_system if r.system == system])]
    lines += ["", "## Paired comparisons (exact McNemar on the candidates both metrics decided)", "",
              "| Metric A | Metric B | n | only A right | only B right | p (two-sided) |",
              "| --- | --- | ---: | ---: | ---: | ---: |"]
    for a, b, t in report.pairs:
        lines.append(f"| {a} | {b} | {t.n} | {t.a_only} | {t.b_only} | {t.p:.4g} |")
    if report.problems:
        lines += ["", "## Input problems", "", *(f"- {p}" for p in report.problems)]
    return "\n".join(lines) + "\n"


CSV_COLUMNS = ("metric", "system", "labelled", "decided", "tp", "fp", "fn", "tn", "precision", "precision_lo",
               "precision_hi", "recall", "recall_lo", "recall_hi", "f1", "agreement", "agreement_lo",
               "agreement_hi", "kappa")


def render_csv(report: AgreementReport) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in (*report.overall, *report.per_system):
        d = row.to_dict()
        values = []
        for column in CSV_COLUMNS:
            base, _, end = column.rpartition("_")
            if end in ("lo", "hi") and base in ("precision", "recall", "agreement"):
                ci = d[f"{base}_ci"]
                values.append("" if ci is None else f"{ci[0 if end == 'lo' else 1]:.4f}")
            elif column == "system":
                values.append(d["system"] or "all")
            elif isinstance(d[column], float):
                values.append(f"{d[column]:.4f}")
            else:
                values.append("" if d[column] is None else d[column])
        writer.writerow(values)
    return out.getvalue()


def render_mcnemar_csv(report: AgreementReport) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("metric_a", "metric_b", "n", "a_only", "b_only", "p"))
    for a, b, t in report.pairs:
        writer.writerow((a, b, t.n, t.a_only, t.b_only, f"{t.p:.6g}"))
    return out.getvalue()


def write_report(report: AgreementReport, out_dir: Path) -> list[Path]:
    """agreement.md, agreement.csv, mcnemar.csv and agreement.json in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = {
        "agreement.md": render_markdown(report),
        "agreement.csv": render_csv(report),
        "mcnemar.csv": render_mcnemar_csv(report),
        "agreement.json": json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n",
    }
    paths = []
    for name, text in files.items():
        (out_dir / name).write_text(text, encoding="utf-8")
        paths.append(out_dir / name)
    return paths


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
        scores[(cand.problem_id, cand.system)] = sentence_bleu(hyp, ref)
    return scores
