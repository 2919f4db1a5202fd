"""``pyshadow judge PROBLEMS_DIR CANDIDATES -o JUDGE.jsonl --llm replay|record|live``: LLM-as-judge verdicts
(docs/commands.md#judge)."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from ..errors import BadInput
from ..llm import client_from_args
from ..progress import track
from ..score.candidates import Candidate, load_candidates
from ..score.judge import JudgeSettings, judge_candidate
from ..score.pipeline import prepare_problem
from ..score.samples import is_sample_layout, load_sample_layout
from .common import add_llm_options, load_problem_set
from .helptext import add_command


def register(subparsers) -> None:
    p = add_command(subparsers, "judge", "LLM-as-judge verdicts per candidate (a baseline for pyshadow agree)",
                    "judge problems candidates -o judge.jsonl --llm replay --llm-cache llm-cache")
    p.add_argument("problems", type=Path, metavar="PROBLEMS_DIR", help="problems folder")
    p.add_argument("candidates", type=Path, metavar="CANDIDATES", help="as for pyshadow score")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="JUDGE.jsonl", help="judge rows (rewritten)")
    p.add_argument("--judges", metavar="M1,M2", help="judge models (default: --llm-model)")
    p.add_argument("--votes", type=int, default=1, metavar="K", help="votes per judge (default 1; the paper: 3)")
    p.add_argument("--temperature", type=float, default=None,
                   metavar="T", help="default 0 with one vote, else 0.5")
    p.add_argument("--retries", type=int, default=2, metavar="N", help="asks again after a malformed answer (default 2)")
    p.add_argument("--system", metavar="NAME", help="system name of a flat folder or of JSONL lines")
    add_llm_options(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.llm == "none":
        raise BadInput("judging needs a model: pass --llm replay (a recorded cache, --llm-cache DIR), "
                       "--llm record or --llm live with --judges MODEL[,MODEL…] (endpoint: docs/llm.md)")
    judges = tuple(m.strip() for m in (args.judges or "").split(",") if m.strip())
    if judges and not args.llm_model:
        args.llm_model = judges[0]  # the client's default model; each request names its judge
    client = client_from_args(args)
    judges = judges or ((client.model,) if client.model else ())
    if args.votes < 1 or args.retries < 0:
        raise BadInput("--votes must be at least 1 and --retries at least 0")
    temperature = args.temperature if args.temperature is not None else (0.5 if args.votes > 1 else 0.0)
    settings = JudgeSettings(judges, args.votes, temperature, retries=args.retries)

    _, problems, _ = load_problem_set(args.problems)
    infos = {p.id: prepare_problem(p) for p in problems}
    if is_sample_layout(args.candidates, problems):
        loaded = load_sample_layout(args.candidates, problems)
    else:
        loaded = load_candidates(args.candidates, infos.keys(), system=args.system)
    candidates = [c for c in loaded if isinstance(c, Candidate)]
    for entry in loaded:
        if not isinstance(entry, Candidate):
            print(f"skipped: {entry.origin}: {entry.reason}")
    if not candidates:
        raise BadInput(f"nothing to judge: no candidate in {args.candidates} belongs to a problem in {args.problems}")

    rows = [judge_candidate(client, settings, infos[c.problem_id], c)
            for c in track(candidates, len(candidates), "judge", unit="candidates")]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text("".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows),
                           encoding="utf-8")
    for model in judges:
        counts = Counter(r["judges"][model]["majority"] or "no decided vote" for r in rows)
        print(f"judge {model}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    consensus = Counter(r["consensus"] or "undecided" for r in rows)
    errors = sum(r["errors"] for r in rows)
    print(f"{len(rows)} candidates judged by {len(judges)} judges × {settings.votes} votes; strict consensus: "
          + ", ".join(f"{k} {v}" for k, v in sorted(consensus.items()))
          + (f"; {errors} votes without a verdict (reasons in the rows)" if errors else ""))
    for line in client.accounting.summary_lines():
        print(line)
    print(f"written: {args.output}")
    return 0
