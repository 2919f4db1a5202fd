"""Problems and candidates: ``load_problems``, ``score`` and ``verify``, the library form of ``pyshadow score`` and
``pyshadow verify`` (the same internals, the same rows; nothing is written to disk).

* ``score`` runs each candidate through the trust gate (audit), extraction of the checked declaration, rule-based
  renaming and the tier's checks (``pyshadow.score.pipeline``); a bad entry becomes a row with its reason.
* ``verify`` checks each problem's shadow set is complete (``pyshadow.score.verification``).

The Lean tier is ``settings.tier``, else the full tier when a full toolchain is on PATH, else the kernel tier;
a requested tier that cannot run here raises ``Unavailable``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from ..errors import BadInput, EmptyInput
from ..lean.backends import lean_backend
from ..lean.toolchain import find_full_toolchain, kernel_lean, toolchain_fingerprint
from ..paths import default_problems_dir
from ..problems import Problem, ProblemError, ProjectSettings, load_project_settings, resolve_proofs
from ..problems import load_problems as _load_problems
from ..score.candidates import Candidate, CandidateError, load_candidates
from ..score.pipeline import ScoreRow as ResultRow
from ..score.pipeline import apply_llm_adapters, error_row, prepare_candidate, prepare_problem
from ..score.samples import is_sample_layout, load_sample_layout
from ..score.tiers import Tier, select_lean, tier_for
from ..score.verification import unloadable_report
from ..settings import Settings
from .types import ProblemReport, ProblemSet, ScoreRow

API_SYSTEM = "api"  # the system name of candidates passed as code
Problems = ProblemSet | Problem | Iterable[Problem] | str | os.PathLike
Candidates = str | os.PathLike | Mapping[str, str] | Iterable[Candidate]


def load_problems(path: str | os.PathLike | None = None) -> ProblemSet:
    """The problems under ``path`` (each folder holding a ``problem.toml``, at any depth; default: ./problems,
    else the bundled set). A problem that does not load is kept in ``errors``; a missing or empty folder, or one
    where no problem loads, raises ``BadInput`` with one line."""
    folder = default_problems_dir() if path is None else Path(path)
    try:
        problems, errors = _load_problems(folder)
    except ProblemError as err:  # not a folder
        raise BadInput(str(err)) from None
    if not problems and not errors:
        raise EmptyInput(f"{folder}: no problems found (a problem is a folder holding problem.toml)")
    if not problems:
        raise BadInput(f"no problem in {folder} loads ({len(errors)} malformed); first: {errors[0]}")
    return ProblemSet(folder, tuple(problems), tuple(errors))


def choose_tier(settings: Settings, *, mutate: bool = False) -> Tier:
    """The tier a run dispatches through, by the rule the commands follow (``pyshadow.score.tiers.select_tier``):
    ``settings.tier``, else full when a full toolchain is on PATH, else kernel; ``Unavailable`` (one line) when
    that tier cannot run here. ``mutate``: the kernel tier's ``verify`` adds negative controls."""
    name, lean = select_lean(settings.tier, find_full_toolchain, "use tier='kernel'", kernel_lean)
    return tier_for(replace(settings.lean, mutate=mutate), name, lean)


def score(problems: Problems, candidates: Candidates, *, settings: Settings | None = None,
          system: str = API_SYSTEM) -> list[ScoreRow]:
    """Score ``candidates`` against ``problems``: one ``ScoreRow`` per candidate, in input order.

    ``problems``: a ``ProblemSet``, one ``Problem``, several, or a folder. ``candidates``: Lean code (a ``str``:
    the one candidate of a single problem), ``{problem_id: code}``, ``Candidate`` objects, or a ``pathlib.Path``
    read as ``pyshadow score`` reads CANDIDATES (a folder of ``<problem_id>.lean``, ``<system>/<problem_id>.lean``,
    a ``.jsonl`` file, or the bundled sample layout). ``system`` names the system of code passed in.
    A candidate for an unknown problem is a row with the reason; when no candidate belongs to a problem at all,
    ``BadInput``.
    """
    order, rows = _scored(problems, candidates, settings, system)
    return sorted(rows, key=lambda r: order.get(r.content_hash, len(order)))


def iter_score(problems: Problems, candidates: Candidates, *, settings: Settings | None = None,
               system: str = API_SYSTEM) -> Iterator[ScoreRow]:
    """``score``, row by row as each finishes (bad entries first, then the candidates). Bad input raises here,
    before any Lean runs."""
    return _scored(problems, candidates, settings, system)[1]


def _scored(problems: Problems, candidates: Candidates, settings: Settings | None, system: str
            ) -> tuple[dict[str, int], Iterator[ScoreRow]]:
    """(each entry's position by content hash, the rows as they finish); bad input raises before any Lean runs."""
    settings = settings or Settings()
    chosen = _problem_list(problems)
    entries = _candidate_entries(candidates, chosen, system)
    infos = {p.id: prepare_problem(p) for p in chosen}
    # the submission kind per problem, by the rule `pyshadow score` follows (problems.resolve_proofs)
    project = load_project_settings(problems.folder) if isinstance(problems, ProblemSet) else ProjectSettings()
    proofs_of = {p.id: resolve_proofs(p, project, settings.proofs) for p in chosen}
    client = settings.llm.client() if settings.llm.mode != "none" else None  # a missing setting stops it here
    tier = choose_tier(settings)
    fingerprint = toolchain_fingerprint(tier.lean) + (f"|llm:{client.model}" if client is not None else "")
    errors, pending, order = [], [], {}
    for entry in entries:  # in input order; a row is found again by its content hash
        if isinstance(entry, Candidate):
            pending.append(prepare_candidate(entry, infos[entry.problem_id], tier.name, fingerprint,
                                             proofs=proofs_of[entry.problem_id]))
            digest = pending[-1].content_hash
        else:
            errors.append(error_row(entry, tier.name, fingerprint, infos))
            errors[-1].proofs = proofs_of.get(entry.problem_id or "")
            digest = errors[-1].content_hash
        order.setdefault(digest, len(order))
    if client is not None:
        pending = [apply_llm_adapters(p, client, tier.name) for p in pending]
    if not any(r.counted for r in errors) and not pending:
        first = f"; first: {errors[0].origin}: {errors[0].reason}" if errors else ""
        raise BadInput(f"nothing scored: no candidate belongs to one of the {len(chosen)} problems{first}")
    if tier.name == "full" and settings.workspace is None and any(p.info.problem.needs_mathlib for p in pending):
        first_id = next(p.info.id for p in pending if p.info.problem.needs_mathlib)
        raise BadInput(f"{first_id} needs Mathlib: set Settings.workspace to a Lake workspace with Mathlib built")
    judge = None
    if client is not None and tier.name == "kernel":  # the skeleton + LLM column (a model's opinion, beside)
        from ..llm.same_term import AtomPairJudge

        judge = AtomPairJudge(client)
    mathlib = {p.id: p.needs_mathlib for p in chosen}

    def rows() -> Iterator[ScoreRow]:
        for row in errors:
            yield _view(row, judge, True)
        with lean_backend(settings.lean):
            for row in tier.score(pending):
                yield _view(row, judge, mathlib.get(row.problem_id or "", True))

    return order, rows()


def _view(row: ResultRow, judge, mathlib: bool) -> ScoreRow:
    if judge is not None and row.counted:
        from ..score.skeleton_llm import skeleton_llm_column

        row.skeleton_llm = skeleton_llm_column(row, judge, mathlib=mathlib)
    return ScoreRow.from_row(row)


def verify(problems: Problems, *, settings: Settings | None = None, mutate: bool = False) -> list[ProblemReport]:
    """Is each problem's shadow set complete (T ⇒ Sᵢ for each shadow, ⋀ Sᵢ ⇒ T)? One ``ProblemReport`` per
    problem, sorted by id, then one per problem of a ``ProblemSet`` (or folder) that did not load.
    ``mutate``: kernel tier, add negative controls Lean must reject."""
    settings = settings or Settings()
    if isinstance(problems, (str, os.PathLike)):
        problems = load_problems(problems)
    chosen = _problem_list(problems)
    errors = problems.errors if isinstance(problems, ProblemSet) else ()
    tier = choose_tier(settings, mutate=mutate)
    with lean_backend(settings.lean):
        reports = tier.verify([prepare_problem(p) for p in chosen])
    reports += [unloadable_report(str(e.path), tier.name, str(e)) for e in errors]
    return [ProblemReport.from_dict(r) for r in reports]


def _problem_list(problems: Problems) -> list[Problem]:
    if isinstance(problems, (str, os.PathLike)):
        return list(load_problems(problems))
    if isinstance(problems, Problem):
        return [problems]
    chosen = list(problems)
    if not chosen:
        raise EmptyInput("no problems given")
    wrong = next((p for p in chosen if not isinstance(p, Problem)), None)
    if wrong is not None:
        raise BadInput(f"expected problems (pyshadow.load_problems), got a {type(wrong).__name__}")
    return chosen


def _candidate_entries(candidates: Candidates, problems: Sequence[Problem], system: str
                       ) -> list[Candidate | CandidateError]:
    ids = {p.id for p in problems}
    if isinstance(candidates, os.PathLike):
        path = Path(candidates)
        if is_sample_layout(path, problems):
            return list(load_sample_layout(path, problems))
        loaded = load_candidates(path, ids)
        if not loaded:
            raise EmptyInput(f"{path}: no candidates found")
        return loaded
    if isinstance(candidates, str):
        if "\n" not in candidates and candidates.strip().endswith((".lean", ".jsonl", "/")):
            raise BadInput(f"{candidates!r} looks like a path; pass pathlib.Path({candidates!r}) to read candidates "
                           "from files (a str is Lean code)")
        if len(problems) != 1:
            raise BadInput(f"Lean code as a str is the candidate of one problem, but {len(problems)} were given: "
                           "pass {problem_id: code} or one problem")
        candidates = {problems[0].id: candidates}
    if isinstance(candidates, Mapping):
        out: list[Candidate | CandidateError] = []
        for pid, code in candidates.items():
            origin = f"<{system}:{pid}>"
            if not isinstance(code, str):
                out.append(CandidateError(pid, system, origin, f"expected Lean code, got {type(code).__name__}"))
            elif pid not in ids:
                out.append(CandidateError(pid, system, origin, f"unknown problem {pid!r}"))
            elif not code.strip():
                out.append(CandidateError(pid, system, origin, "empty code"))
            else:
                out.append(Candidate(pid, system, code, origin))
        return out
    out = []
    for c in candidates:
        if not isinstance(c, Candidate):
            raise BadInput(f"expected pyshadow.Candidate objects, got a {type(c).__name__}")
        out.append(c if c.problem_id in ids else CandidateError(c.problem_id, c.system, c.origin,
                                                                f"unknown problem {c.problem_id!r}"))
    return out
