"""``pyshadow agree --labels LABELS.jsonl RESULTS.jsonl [JUDGE.jsonl …] -o DIR``: automatic metrics vs people
(docs/commands.md#agree)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import BadInput
from ..problems import load_problems
from ..score.agreement import (
    BLEU_THRESHOLD,
    bleu_metric,
    bleu_scores,
    compare,
    is_judge_row,
    judge_metrics,
    read_jsonl_objects,
    read_labels,
    render_markdown,
    score_metrics,
    scored_keys,
    write_report,
)
from ..score.candidates import load_candidates
from ..score.metrics import is_score_row
from ..score.plots import matplotlib_available, plot_agreement
from ..score.samples import is_sample_layout, load_sample_layout
from .helptext import add_command


def register(subparsers) -> None:
    p = add_command(subparsers, "agree", "agreement of compile, BLEU, SA-Pass and LLM judges with human labels",
                    "agree --labels labels.jsonl results.jsonl judge.jsonl -o out",
                    description="automatic metrics against human labels")
    p.add_argument("--labels", type=Path, required=True, metavar="LABELS.jsonl",
                   help="{problem_id, system, aligned} per line")
    p.add_argument("inputs", type=Path, nargs="*", metavar="ROWS.jsonl",
                   help="rows of pyshadow score and pyshadow judge")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="DIR", help="folder for the report")
    p.add_argument("--problems", type=Path, metavar="PROBLEMS_DIR", help="with --candidates: compute BLEU")
    p.add_argument("--candidates", type=Path, metavar="CANDIDATES", help="the candidates given to score (for BLEU)")
    p.add_argument("--system", metavar="NAME", help="system of a flat candidates folder")
    p.add_argument("--bleu-threshold", type=float, default=BLEU_THRESHOLD,
                   metavar="B", help=f"BLEU ≥ B passes (default {BLEU_THRESHOLD})")
    p.add_argument("--no-plots", action="store_true", help="no PNG/SVG even with matplotlib")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    labels, problems = read_labels(args.labels)
    if not labels:
        raise BadInput(f"{args.labels}: no valid label (expected {{problem_id, system, aligned}} per line)")
    score_rows, judge_rows = [], []
    for path in args.inputs:
        objects, bad = read_jsonl_objects(path)
        problems += bad
        for number, obj in objects:
            if is_judge_row(obj):
                judge_rows.append(obj)
            elif is_score_row(obj):
                score_rows.append(obj)
            else:
                problems.append(f"{path}:{number}: neither a score row nor a judge row")
    metrics = score_metrics(score_rows)
    if (args.problems is None) != (args.candidates is None):
        raise BadInput("BLEU needs both --problems and --candidates")
    if args.candidates is not None:
        loaded, errors = load_problems(args.problems)
        problems += [f"skipped problem: {e}" for e in errors]
        if is_sample_layout(args.candidates, loaded):
            candidates = load_sample_layout(args.candidates, loaded)
        else:
            candidates = load_candidates(args.candidates, {p.id for p in loaded}, system=args.system)
        metrics.insert(1 if metrics else 0, bleu_metric(bleu_scores(loaded, candidates), args.bleu_threshold))
    metrics += judge_metrics(judge_rows)
    if not metrics:
        raise BadInput("no metric to compare: give score results, judge rows or --problems/--candidates")
    report = compare(labels, metrics, problems, scored_keys(score_rows) if score_rows else None)
    written = write_report(report, args.output)
    if not args.no_plots and matplotlib_available():
        rows = [(r.metric, d["agreement"], d["agreement_ci"]) for r in report.overall for d in [r.to_dict()]]
        written += plot_agreement(rows, args.output / "agreement")
    for line in problems:
        print(f"note: {line}")
    if report.unscored:
        print(f"note: {len(report.unscored)} labels have no scored candidate (counted as not passed): "
              + ", ".join("/".join(lab.key) for lab in report.unscored[:5])
              + (" …" if len(report.unscored) > 5 else ""))
    overall = render_markdown(report).split("## All systems (Table 4)\n\n", 1)[1].split("\n\n", 1)[0]
    print(overall)
    print(f"{len(labels)} labels, {len(metrics)} metrics; written: " + ", ".join(str(p) for p in written))
    return 0
