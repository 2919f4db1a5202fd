"""What the full-tier dry run checks (``pyshadow.score.dryrun``): the generated text of the bundled problems'
workspace and completeness files, of every sample candidate's checker file and statements module, and of a
corpus's ``pyshadow shadows`` checkers — each as a ``Unit`` with the user-written texts it was made from."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..corpus import CorpusEntry
from ..problems import Problem, load_sample_candidates, reference_text
from ..references import statement_declaration
from ..shadows.checkers import full_tier_checkers
from ..shadows.rules import decompose, uncheckable_reason
from ..syntax import ParseError
from ..workspace import build_workspace
from .candidates import Candidate
from .dryrun import Unit
from .full import candidate_check_file, reference_check_file
from .pipeline import prepare_candidate, prepare_problem


def workspace_units(problems: Sequence[Problem]) -> Iterator[Unit]:
    """Per problem: its generated ``Checkers/<Module>/*.lean`` files (``pyshadow generate``), and its completeness
    file (``verify --tier full``), against its reference."""
    build = build_workspace(problems)
    files = build.files
    for plan in build.plans:
        prefix = f"Checkers/{plan.module}/"
        generated = {path: data.decode("utf-8") for path, data in files.items() if path.startswith(prefix)}
        file, _ = reference_check_file(prepare_problem(plan.problem))
        generated["verify --tier full"] = file.text
        modules = frozenset(path.removesuffix(".lean").replace("/", ".") for path in generated)
        yield Unit(plan.problem.id, generated, (plan.source,), modules)


def candidate_units(problems: Sequence[Problem]) -> Iterator[Unit]:
    """Per sample candidate (``problems/<id>/candidates/*.lean``): its checker file and statements module."""
    for problem in problems:
        samples = load_sample_candidates(problem)
        if not samples:
            continue
        info = prepare_problem(problem)
        for sample in samples:
            code = sample.path.read_text(encoding="utf-8")
            prepared = prepare_candidate(Candidate(problem.id, sample.name, code, str(sample.path)), info, "full",
                                         "dry-run")
            file = candidate_check_file(prepared, nonce="dryrun")
            generated = {"Checks.lean": file.text}
            if file.statements is not None:
                generated[f"{file.statements.name}.lean"] = file.statements.text
            modules = frozenset({"PyshadowCandidate", *(m.removesuffix(".lean") for m in generated)})
            yield Unit(f"{problem.id}/{sample.path.name}", generated, (reference_text(problem), code), modules)


def corpus_units(entries: Sequence[CorpusEntry]) -> Iterator[Unit]:
    """Per corpus statement that parses and decomposes: its ``pyshadow shadows`` checkers (one text)."""
    for entry in entries:
        if entry.error:
            continue
        try:
            decl = statement_declaration(entry.statement, entry.context)
        except ParseError:
            continue
        if uncheckable_reason(decl):
            continue
        mathlib = any(i == "Mathlib" or i.startswith("Mathlib") for i in entry.imports)
        checkers = full_tier_checkers(entry.id, decl.name, decl, decompose(decl, mathlib=mathlib))
        yield Unit(entry.id, {"shadows": "\n".join(c.text for c in checkers.checkers)},
                   (entry.context, entry.statement))
