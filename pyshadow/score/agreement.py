"""Agreement of automatic metrics with human labels: the ShadowBench paper's Table 4, plus κ, Wilson intervals and
paired exact McNemar tests ("Beyond Compilation" §4.1).

Inputs (``pyshadow.score.agreement_inputs``): labels ``{problem_id, system, aligned}`` (one per candidate, an
optional ``sample``), score rows (``pyshadow score`` RESULTS.jsonl, either tier), judge rows (``pyshadow judge``) and
optionally BLEU scores of the candidates' theorem statements; every metric becomes a decision per labelled item —
pass, fail or undecided:

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

Per metric (overall and per system) **over all labelled candidates first**: an item the metric did not decide —
undecided, or no score row for it — counts as *not passed*, so every metric is judged on the same items, as BEq or
GTED (which decide every item) are; tp/fp/fn/tn, precision, recall, F1, agreement and Cohen's κ, each proportion
with its Wilson 95% interval. Beside them the same figures over the items the metric decided, with coverage =
decided / labelled. For every pair of metrics, McNemar on all labelled items (undecided = not passed): how many
only one of them gets right, and the exact two-sided p. Labels for which no score row exists are listed.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

from .agreement_inputs import (  # noqa: F401 - re-exported: what callers read and compare
    BLEU_THRESHOLD,
    Key,
    Label,
    Metric,
    bleu_metric,
    bleu_scores,
    is_judge_row,
    judge_metrics,
    key_of,
    read_jsonl_objects,
    read_labels,
    row_is_undecided,
    score_metrics,
    scored_keys,
    statement_tokens,
)
from .stats import (
    Confusion,
    McNemar,
    agreement,
    cohen_kappa,
    f1,
    mcnemar,
    precision,
    recall,
    wilson_interval,
)


# ---------------------------------------------------------------------------------------------------------------
# Computing


def figures(c: Confusion) -> dict[str, Any]:
    """Counts, precision / recall / agreement with Wilson 95% intervals, F1 and κ of one confusion table."""
    out: dict[str, Any] = {"tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn}
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
class AgreementRow:
    """One metric against the labels, over one group of items (``system`` None: all systems): ``everything`` over
    every labelled item (undecided = not passed), ``confusion`` over the items the metric decided."""

    metric: str
    system: str | None
    labelled: int
    confusion: Confusion  # decided items only
    everything: Confusion  # every labelled item, undecided counted as not passed

    @property
    def decided(self) -> int:
        return self.confusion.n

    def to_dict(self) -> dict[str, Any]:
        """The all-labelled figures at the top level; the decided-only ones under ``decided_only``."""
        return {"metric": self.metric, "system": self.system, "labelled": self.labelled, "decided": self.decided,
                "coverage": self.decided / self.labelled if self.labelled else None,
                **figures(self.everything), "decided_only": figures(self.confusion)}


@dataclass(frozen=True)
class AgreementReport:
    labels: tuple[Label, ...]
    metrics: tuple[str, ...]
    overall: tuple[AgreementRow, ...]
    per_system: tuple[AgreementRow, ...]
    pairs: tuple[tuple[str, str, McNemar], ...]
    problems: tuple[str, ...] = ()
    unscored: tuple[Label, ...] = ()  # labels no score row is for (None: no score rows were given)

    def to_dict(self) -> dict[str, Any]:
        return {
            "labelled": len(self.labels),
            "positives": sum(lab.aligned for lab in self.labels),
            "metrics": list(self.metrics),
            "overall": [r.to_dict() for r in self.overall],
            "per_system": [r.to_dict() for r in self.per_system],
            "mcnemar": [{"a": a, "b": b, "n": t.n, "a_only": t.a_only, "b_only": t.b_only, "p": t.p}
                        for a, b, t in self.pairs],
            "labels_without_a_scored_candidate": [list(lab.key) for lab in self.unscored],
            "problems": list(self.problems),
        }


def confusion_for(labels: Sequence[Label], metric: Metric) -> Confusion:
    """Over the items ``metric`` decided."""
    pairs = [(lab.aligned, metric.decisions[lab.key]) for lab in labels if metric.decisions.get(lab.key) is not None]
    return Confusion.from_pairs(pairs)


def confusion_all(labels: Sequence[Label], metric: Metric) -> Confusion:
    """Over every labelled item: undecided (or no decision at all) counts as not passed."""
    return Confusion.from_pairs([(lab.aligned, bool(metric.decisions.get(lab.key))) for lab in labels])


def _row(metric: Metric, system: str | None, labels: Sequence[Label]) -> AgreementRow:
    return AgreementRow(metric.name, system, len(labels), confusion_for(labels, metric), confusion_all(labels, metric))


def compare(labels: Sequence[Label], metrics: Sequence[Metric], problems: Sequence[str] = (),
            scored: set[Key] | None = None) -> AgreementReport:
    """Every metric against the labels (overall and per system) and McNemar for every pair of metrics, on all
    labelled items. ``scored``: the candidates with a score row; labels outside it are listed as unscored."""
    overall = tuple(_row(m, None, labels) for m in metrics)
    per_system = []
    for system in sorted({lab.system for lab in labels}):
        group = [lab for lab in labels if lab.system == system]
        per_system += [_row(m, system, group) for m in metrics]
    truth = [lab.aligned for lab in labels]
    pairs = [(a.name, b.name, mcnemar(truth, [bool(a.decisions.get(lab.key)) for lab in labels],
                                      [bool(b.decisions.get(lab.key)) for lab in labels]))
             for a, b in combinations(metrics, 2)]
    unscored = tuple(lab for lab in labels if scored is not None and lab.key not in scored)
    return AgreementReport(tuple(labels), tuple(m.name for m in metrics), overall, tuple(per_system), tuple(pairs),
                           tuple(problems), unscored)


# ---------------------------------------------------------------------------------------------------------------
# Rendering


def fmt(value: Fraction | float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{float(value):.{digits}f}"


def fmt_ci(value: Any, ci: Sequence[float] | None) -> str:
    if value is None or ci is None:
        return "—"
    return f"{value:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"


_HEADERS = ("Metric", "labelled", "TP", "FP", "FN", "TN", "Precision [95% CI]", "Recall [95% CI]", "F1",
            "Agreement [95% CI]", "κ", "decided (coverage)", "Precision (decided)", "Recall (decided)",
            "Agreement (decided)", "κ (decided)")


def _markdown_rows(rows: Sequence[AgreementRow]) -> list[str]:
    best = max((agreement(r.everything) or 0 for r in rows), default=0)
    lines = ["| " + " | ".join(_HEADERS) + " |", "| --- | ---: " + "| ---: " * (len(_HEADERS) - 2) + "|"]
    for row in rows:
        d = row.to_dict()
        dec = d["decided_only"]
        agree_cell = fmt_ci(d["agreement"], d["agreement_ci"])
        if d["agreement"] is not None and best and agreement(row.everything) == best:
            agree_cell = f"**{agree_cell}**"
        coverage = f"{row.decided}/{row.labelled} ({fmt(d['coverage'])})"
        cells = [row.metric, str(row.labelled), str(d["tp"]), str(d["fp"]), str(d["fn"]), str(d["tn"]),
                 fmt_ci(d["precision"], d["precision_ci"]), fmt_ci(d["recall"], d["recall_ci"]), fmt(d["f1"]),
                 agree_cell, fmt(d["kappa"]), coverage, fmt(dec["precision"]), fmt(dec["recall"]),
                 fmt(dec["agreement"]), fmt(dec["kappa"])]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def render_markdown(report: AgreementReport) -> str:
    """Table 4 (overall, all labelled candidates first), the same per system, McNemar, unscored labels."""
    positives = sum(lab.aligned for lab in report.labels)
    lines = [
        "# Agreement of automatic metrics with human labels",
        "",
        f"{len(report.labels)} labelled candidates ({positives} aligned, {len(report.labels) - positives} not). "
        "The figures are over **all labelled candidates**: a candidate a metric did not decide (undecided, no "
        "score row, a judge that did not answer) counts as not passed, so every metric is judged on the same "
        "items — the figure to compare with BEq or GTED, which decide every item. Beside them: coverage "
        "(decided / labelled) and the figures over the decided candidates only. Intervals are Wilson 95%; "
        "agreement = (TP + TN) / labelled; κ = Cohen's kappa; — = undefined (a zero denominator). Best agreement "
        "in bold.",
        "",
        "## All systems (Table 4)",
        "",
        *_markdown_rows(report.overall),
    ]
    for system in sorted({r.system for r in report.per_system if r.system is not None}):
        lines += ["", f"## System `{system}`", "", *_markdown_rows([r for r in report.per_system if r.system == system])]
    lines += ["", "## Paired comparisons (exact McNemar on all labelled candidates, undecided = not passed)", "",
              "| Metric A | Metric B | n | only A right | only B right | p (two-sided) |",
              "| --- | --- | ---: | ---: | ---: | ---: |"]
    for a, b, t in report.pairs:
        lines.append(f"| {a} | {b} | {t.n} | {t.a_only} | {t.b_only} | {t.p:.4g} |")
    if report.unscored:
        lines += ["", f"## Labels without a scored candidate ({len(report.unscored)})", "",
                  "No score row is for these labels: every score metric counts them as not passed.", "",
                  "| Problem | System | Sample | Aligned |", "| --- | --- | --- | --- |"]
        lines += [f"| {lab.problem_id} | {lab.system} | {lab.sample or ''} | {str(lab.aligned).lower()} |"
                  for lab in report.unscored]
    if report.problems:
        lines += ["", "## Input problems", "", *(f"- {p}" for p in report.problems)]
    return "\n".join(lines) + "\n"


_FIGURES = ("tp", "fp", "fn", "tn", "precision", "precision_lo", "precision_hi", "recall", "recall_lo", "recall_hi",
            "f1", "agreement", "agreement_lo", "agreement_hi", "kappa")
CSV_COLUMNS = ("metric", "system", "labelled", "decided", "coverage", *_FIGURES, *(f"decided_{c}" for c in _FIGURES))


def _figure_cells(d: dict[str, Any]) -> list[Any]:
    values: list[Any] = []
    for column in _FIGURES:
        base, _, end = column.rpartition("_")
        if end in ("lo", "hi") and base in ("precision", "recall", "agreement"):
            ci = d[f"{base}_ci"]
            values.append("" if ci is None else f"{ci[0 if end == 'lo' else 1]:.4f}")
        elif isinstance(d[column], float):
            values.append(f"{d[column]:.4f}")
        else:
            values.append("" if d[column] is None else d[column])
    return values


def render_csv(report: AgreementReport) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in (*report.overall, *report.per_system):
        d = row.to_dict()
        coverage = "" if d["coverage"] is None else f"{d['coverage']:.4f}"
        writer.writerow([d["metric"], d["system"] or "all", d["labelled"], d["decided"], coverage,
                         *_figure_cells(d), *_figure_cells(d["decided_only"])])
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
