"""``pyshadow score PROBLEMS_DIR CANDIDATES -o RESULTS.jsonl [--tier full|kernel]``: SA-Pass of candidate files.

CANDIDATES is a folder of ``<problem_id>.lean`` files (one system, ``--system`` or the folder's name), a folder of
``<system>/<problem_id>.lean`` (or ``<system>/<problem_id>/<k>.lean`` for several samples), or a JSONL file of
``{"problem_id", "system", "code"}`` objects (``"sample"`` for several samples). Two candidates with the same
(system, problem, sample) are bad input (exit 2). The bundled sample layout — ``problems`` or
``problems/<id>/candidates`` (``<kind>….lean`` beside ``expected.toml``) — is read too,
each sample's kind as its system (``pyshadow.score.samples``).

Per candidate: the trust gate (``pyshadow audit``; any finding fails it, and nothing of it is compiled), the
checked declaration (the last with the target's name), rule-based renaming, then the checks —

* ``--tier full``: the candidate compiled as its own module, one Lean process for every forward check and the
  backward check, its own ``#print axioms`` audited (``pyshadow.score.full``);
* ``--tier kernel`` (the default when no full toolchain is on PATH): **skeleton SA-Pass**, the candidate's
  statement checked against the shadows on abstracted atoms; its proof is not checked (every row says
  ``"proof": "not checked"``).

Two submission kinds (``--proofs``, else the problem's ``proofs``, else the set's ``pyshadow.toml``, else
``required``; every row, summary and report says which): ``required`` (ShadowBench) — a ``sorry`` anywhere fails
the candidate (audit); ``ignored`` (statement benchmarks: ``theorem … := by sorry``) — a ``sorry`` in a theorem's
proof is allowed and listed in the row's ``sorry``, the statement alone is judged, and in the full tier the forward
checkers take the candidate's statement as a hypothesis (``pyshadow.score.full.statement_as_hypothesis``), so its
proof never reaches their axioms; a ``sorry`` in a definition's body still fails the candidate in both kinds.

One JSON row per candidate is appended to RESULTS.jsonl as it finishes (problem_id, system, tier, audit findings,
compiled, every check with its verdict and message, SA-Pass, SA-Pass_soft, Fwd, Bwd, Fwd_all, bucket,
content_hash). A rerun skips candidates already in the file with the same content hash. Bad input — an unknown
problem, an empty or non-UTF-8 file, a JSONL line without ``code`` — becomes a row with the reason; the rest goes
on. A problem of the set that does not load is a row too (``problem_not_loaded``): every summary lists it and
counts it as a failure for every system. Then RESULTS.summary.md and RESULTS.by_<grouping>.csv are written beside
it: per system, area, level and system × level, titled full or skeleton SA-Pass, with the compile − SA-Pass gap as
its own column and every bucket (they add up to n); and RESULTS.pass_at_k.csv (per system: pass@1, pass@5, …,
mean@k over every problem of the set), RESULTS.samples.csv (per system and problem), RESULTS.buckets.csv,
RESULTS.per_problem.csv, RESULTS.not_loaded.csv and RESULTS.skipped.csv (inputs not scored).

Skeleton SA-Pass has three verdicts: a check passes, fails, or is *undecided* — the structures match but some atom
pairs differ where only elaboration could decide (another constant on one side, a cast placed elsewhere); the
check's message names the pairs. Undecided candidates are counted in their own column and never as passes.
``--findings OUT.jsonl`` writes one FaithAlign-style line per candidate (``pyshadow.score.pipeline.findings_of``).

LLM options (``--llm none|replay|record|live``, docs/llm.md): when a target has no candidate declaration after
rule-based renaming (the name-mismatch case), ``adapter_task`` is asked for an adapter — a declaration with the
reference's name built from the candidate's own theorem. An answer the validators accept is appended to the
candidate's code and, in the full tier, compiled and audited with it like any other code; the row records it under
``adapters`` (provenance ``llm:<model>``, the text, status and reasons). An adapter is a proof, and the kernel tier
checks statements only: there no model is asked and the row says "adapter needs the full tier". In the kernel tier,
``--llm`` also fills the *skeleton + LLM* column (``pyshadow.score.skeleton_llm``): each distinct atom pair an
undecided row names is asked about ("do these two terms elaborate to the same term?"); the row's ``skeleton_llm``
holds the verdict (pass only when every pair is answered same, fail when one is answered different, else undecided)
and every answer with its provenance. It is a model's opinion, not a Lean check: SA-Pass, buckets and findings stay
the skeleton's; the summary shows both side by side. Skeleton passes and fails are never sent. With ``--llm none``
(the default) nothing changes; candidates with unresolved names are listed in the summary either way, and the LLM
accounting (calls, tokens, cache hits) is printed when a model was in play.

Exit codes (README): 0 scored (failing candidates are data); 2 bad input (unreadable or empty CANDIDATES, nothing
scored, no or an empty problems folder, a Mathlib problem in the full tier without ``--workspace``); 3 the requested
Lean tier is not available here; 1 internal error. ``--lint`` adds the candidate's ``pyshadow lint`` findings to its
row (``lint``: one record per finding, with its declaration).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import BadInput, EmptyInput
from ..files import write_atomically
from ..lean.backends import lean_backend
from ..lean.toolchain import toolchain_fingerprint
from ..lint import finding_records
from ..llm import add_llm_arguments, client_from_args
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
from .common import add_lean_arguments, choose_tier, lean_settings, load_problem_set


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "score", help="score candidate formalizations (SA-Pass, SA-Pass_soft, Fwd, Bwd, compile rate)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("problems", type=Path, help="problems folder")
    p.add_argument("candidates", type=Path, help="candidates: a folder of .lean files or a .jsonl file")
    p.add_argument("-o", "--output", type=Path, required=True, help="RESULTS.jsonl (appended to; resumable)")
    p.add_argument("--system", help="system name for a flat folder or JSONL lines without one")
    p.add_argument("--layout", choices=("auto", "flat", "per_system"), default="auto",
                   help="how to read a candidates folder (default: auto)")
    p.add_argument("--proofs", choices=PROOFS_MODES,
                   help="the submission kind: required (ShadowBench: a `sorry` fails the candidate) or ignored "
                        "(statement benchmarks: a `sorry` in a theorem's proof is allowed and reported, the "
                        "statement alone is judged); default: the problem's `proofs`, else the set's "
                        "pyshadow.toml, else required")
    p.add_argument("--lint", action="store_true", help="add each candidate's `pyshadow lint` findings to its row")
    p.add_argument("--findings", type=Path, metavar="OUT.jsonl",
                   help="write FaithAlign-style findings, one line per candidate: one finding per shadow and per "
                        "backward check (faithful / unfaithful / undecidable, with the shadow's text) and the "
                        "candidate's verdict (unfaithful if any finding is, else undecidable if any is, else "
                        "faithful)")
    add_lean_arguments(p)
    add_llm_arguments(p)
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
