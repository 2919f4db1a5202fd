"""``pyshadow score PROBLEMS_DIR CANDIDATES -o RESULTS.jsonl``: SA-Pass of candidate files (what it reads,
checks, writes and prints: docs/commands.md#score)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import BadInput, EmptyInput
from ..files import write_atomically
from ..lean.backends import lean_backend
from ..lean.toolchain import toolchain_fingerprint
from ..lint import finding_records
from ..llm import client_from_args
from ..llm.same_term import AtomPairJudge
from ..score.candidates import Candidate, CandidateError, load_candidates
from ..score.metrics import sa_pass
from ..problems import (
    PER_PROBLEM,
    PROBLEM_FILE,
    PROOFS_MODES,
    ProblemError,
    load_project_settings,
    resolve_proofs,
)
from ..score.passk import per_problem, per_system
from ..score.pipeline import (
    PreparedCandidate,
    ScoreRow,
    apply_llm_adapters,
    error_row,
    findings_of,
    prepare_candidate,
    prepare_problem,
    problem_row,
)
from ..score.report import ResultsLog, compile_label, proofs_line, read_rows, summary_paths, write_summaries
from ..score.skeleton_llm import column_verdict, skeleton_llm_column
from ..progress import track
from ..score.samples import is_sample_layout, load_sample_layout
from .common import add_lean_arguments, add_llm_options, choose_tier, lean_settings, load_problem_set
from .helptext import add_command


def register(subparsers) -> None:
    p = add_command(subparsers, "score", "score candidate formalizations (SA-Pass, SA-Pass_soft, Fwd, Bwd, compile rate)",
                    "score problems candidates -o results.jsonl", description="SA-Pass of candidate files")
    p.add_argument("problems", type=Path, metavar="PROBLEMS_DIR", help="problems folder")
    p.add_argument("candidates", type=Path, metavar="CANDIDATES", help="a folder of .lean files or a .jsonl file")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="RESULTS.jsonl", help="results (appended to; resumable)")
    p.add_argument("--system", metavar="NAME", help="system name of a flat folder or of JSONL lines")
    p.add_argument("--layout", choices=("auto", "flat", "per_system"), default="auto",
                   help="how to read a folder (default: auto)")
    p.add_argument("--proofs", choices=PROOFS_MODES,
                   help="required: no sorry; ignored: statements only")
    p.add_argument("--lint", action="store_true", help="add each candidate's lint findings to its row")
    p.add_argument("--findings", type=Path, metavar="OUT.jsonl",
                   help="FaithAlign-style findings, one line per candidate")
    add_lean_arguments(p)
    add_llm_options(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    client = client_from_args(args)  # a missing LLM setting stops the run before any work
    use_llm = client.mode != "none"
    settings = lean_settings(args)
    folder, problems, load_errors = load_problem_set(args.problems)
    infos = {p.id: prepare_problem(p) for p in problems}
    project = load_project_settings(folder)
    proofs_of = {p.id: resolve_proofs(p, project, args.proofs) for p in problems}
    unloaded = unloaded_problems(load_errors, set(infos))
    if is_sample_layout(args.candidates, problems):  # problems/<id>/candidates/<kind>.lean: system = kind
        loaded = load_sample_layout(args.candidates, problems)
    else:
        loaded = load_candidates(args.candidates, infos.keys() | unloaded.keys(), system=args.system,
                                 layout=args.layout)
    if not loaded:
        raise EmptyInput(f"{args.candidates}: no candidates found")
    chosen = choose_tier(settings)
    tier, lean = chosen.name, chosen.lean
    fingerprint = toolchain_fingerprint(lean)
    if use_llm:  # rows scored with a model's adapters are not the rows of a run without them
        fingerprint = f"{fingerprint}|llm:{client.model}"
    done = read_rows(args.output)

    rows: list[ScoreRow] = []  # this run's rows, in input order, for the summaries
    fresh: list[ScoreRow] = []
    pending: list[PreparedCandidate] = []
    order: dict[str, int] = {}
    for problem_id, reason in unloaded.items():  # the set's denominator: every problem, loaded or not
        row = problem_row(problem_id, reason, tier, fingerprint)
        order[row.content_hash] = len(order)
        (rows if row.content_hash in done else fresh).append(done.get(row.content_hash, row))
    for entry in loaded:
        if isinstance(entry, Candidate) and entry.problem_id in unloaded:
            entry = CandidateError(entry.problem_id, entry.system, entry.origin,
                                   f"the problem {entry.problem_id!r} does not load", entry.sample)
        if isinstance(entry, Candidate):
            prepared = prepare_candidate(entry, infos[entry.problem_id], tier, fingerprint,
                                         proofs=proofs_of[entry.problem_id])
            digest = prepared.content_hash
        else:
            row = error_row(entry, tier, fingerprint, infos)
            row.proofs = proofs_of.get(entry.problem_id or "")
            digest = row.content_hash
        order[digest] = len(order)
        if digest in done:
            rows.append(done[digest])
        elif isinstance(entry, Candidate):
            pending.append(apply_llm_adapters(prepared, client, tier) if use_llm else prepared)
        else:
            fresh.append(row)
    if tier == "full" and settings.workspace is None and any(p.info.problem.needs_mathlib for p in pending):
        first = next(p.info.id for p in pending if p.info.problem.needs_mathlib)
        raise BadInput(f"{first} needs Mathlib: pass --workspace DIR (a Lake workspace with Mathlib built)")

    reused = sum(not r.problem_not_loaded for r in rows)
    # skeleton + LLM: a model's answers on the atom pairs the kernel tier leaves undecided (its own column)
    atom_judge = AtomPairJudge(client) if use_llm and tier == "kernel" else None
    mathlib = {p.id: p.needs_mathlib for p in problems}
    with ResultsLog(args.output) as log:
        for row in fresh:
            if atom_judge is not None and row.counted:
                row.skeleton_llm = skeleton_llm_column(row, atom_judge)
            log.append(row)
            rows.append(row)
        codes = {p.content_hash: p.candidate.code for p in pending}
        with lean_backend(settings, announce=print):
            for row in track(chosen.score(pending), len(pending), "score", unit="candidates"):
                if args.lint and row.content_hash in codes:
                    row.lint = finding_records(codes[row.content_hash], row.origin)
                if atom_judge is not None:
                    row.skeleton_llm = skeleton_llm_column(row, atom_judge,
                                                           mathlib=mathlib.get(row.problem_id or "", True))
                log.append(row)
                rows.append(row)
    rows.sort(key=lambda r: order.get(r.content_hash, len(order)))
    if args.findings is not None:
        text = "".join(json.dumps(findings_of(r), ensure_ascii=False) + "\n" for r in rows)
        write_atomically(args.findings, text.encode("utf-8"))
    modes = sorted(set(proofs_of.values()))
    proofs = modes[0] if len(modes) == 1 else PER_PROBLEM
    written = write_summaries(rows, args.output, tier, {p.id: p.level for p in problems}, proofs=proofs)
    print_summary(rows, tier, reused, lean, args.output, written, {p.id for p in problems} | unloaded.keys())
    print(proofs_line(proofs, tier))
    if use_llm:
        for line in client.accounting.summary_lines():
            print(line)
    if not any(r.counted for r in rows):
        raise BadInput(f"nothing scored: no candidate in {args.candidates} belongs to a problem in {args.problems}")
    return 0


def unloaded_problems(errors: list[ProblemError], loaded: set[str]) -> dict[str, str]:
    """The problems that did not load, by id (their folder's name; the folder's path where that name is taken)."""
    out: dict[str, str] = {}
    for err in errors:
        folder = err.path.parent if err.path.name == PROBLEM_FILE else err.path
        key = folder.name if folder.name not in loaded and folder.name not in out else str(folder)
        out[key] = str(err)
    return out


def print_summary(rows: list[ScoreRow], tier: str, reused: int, lean, output: Path, written: list[Path],
                  problem_ids: set[str]) -> None:
    """One line per system (SA-Pass, statement elaborated / compiled, undecided, pass@k over ``problem_ids``, the
    whole set), what did not load or failed early, unresolved names, adapters, and where the summaries are."""
    measure = "skeleton SA-Pass (kernel tier)" if tier == "kernel" else "SA-Pass (full tier)"
    print(f"lean: {lean.path} ({lean.tier} toolchain, Lean {lean.version}); {measure}")
    by_system: dict[str, list[ScoreRow]] = {}
    for row in rows:
        if row.counted:
            by_system.setdefault(row.system or "", []).append(row)
    groups = per_problem((r.system or "", r.problem_id or "", sa_pass(r.score)) for g in by_system.values()
                         for r in g)
    most = max((g.n for g in groups), default=1)
    ks = [k for k in (1, 5, 10) if k <= most]
    at_k = {s.system: s for s in per_system(groups, problem_ids, ks)} if groups else {}
    for system, group in sorted(by_system.items()):
        passed = sum(sa_pass(r.score) for r in group)
        compiled = sum(r.score.compiled for r in group)
        undecided = sum(r.score.undecided for r in group)
        llm = [column_verdict(r) for r in group]
        print(f"{system:<28} SA-Pass {passed}/{len(group)}  {compile_label(tier).lower()} {compiled}/{len(group)}"
              + (f"  undecided {undecided}/{len(group)}" if tier == "kernel" else "")
              + (f"  skeleton+LLM pass {llm.count('pass')}/{len(group)}, still undecided "
                 f"{llm.count('undecided')}/{len(group)}" if any(v is not None for v in llm) else "")
              + "".join(f"  pass@{k} {_percent(at_k[system].pass_at[k])}" for k in ks if system in at_k))
    not_loaded = [r for r in rows if r.problem_not_loaded]
    if not_loaded:
        print(f"{len(not_loaded)} of {len(problem_ids)} problems did not load (each counts as a failure for every "
              f"system); first: {not_loaded[0].problem_id}: {not_loaded[0].reason}")
    failed = [r for r in rows if r.reason and not r.problem_not_loaded]
    if failed:
        print(f"{len(failed)} candidates failed before or instead of their checks (bad input, audit, compile); "
              f"first: {failed[0].origin}: {failed[0].reason}")
    unresolved = [(r, [t for t, d in r.declarations.items() if d is None]) for r in rows if not r.audit]
    unresolved = [(r, names) for r, names in unresolved if names]
    if unresolved:
        print(f"{len(unresolved)} candidates with unresolved names (a target with no declaration after renaming):")
        for r, names in unresolved:
            notes = {a["target"]: a for a in r.adapters}
            shown = ", ".join(n + _adapter_note(notes.get(n)) for n in names)
            print(f"  {r.origin}: {shown}")
    used = [(r, a) for r in rows for a in r.adapters if a["status"] == "used"]
    if used:
        print(f"{len(used)} LLM adapters appended to candidates and checked with them by Lean:")
        for r, a in used:
            print(f"  {r.origin}: {a['target']} ← {a['candidate_name']} ({a['provenance']})")
    md, _ = summary_paths(output)
    print(f"{len(rows)} rows ({reused} reused from {output}); summaries: {md}"
          + (f" and {len(written) - 1} CSV files" if len(written) > 1 else ""))


def _percent(value) -> str:
    from ..score.metrics import percent

    return "—" if value is None else f"{percent(value)}%"


def _adapter_note(record: dict | None) -> str:
    if record is None:
        return ""
    why = "; ".join(record["reasons"])
    return f" (LLM adapter {record['status']}" + (f": {why})" if why else ")")
