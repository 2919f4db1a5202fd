"""What ``pyshadow lint`` reads: one statement per :class:`Source`, from a Lean file (every theorem-like
declaration's header), a corpus JSONL file (each entry's ``statement``, with its ``informal`` text) or a folder of
problems (each reference's declarations, with the problem's informal statement).

An unreadable input (missing, not UTF-8, a non-JSON corpus line) raises ``BadInput``; a problem that does not load
is one line in ``skipped`` and the others go on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..corpus import read_corpus
from ..errors import BadInput
from ..files import read_utf8
from ..problems import PROBLEM_FILE, ProblemError, load_problem, reference_text
from ..syntax.declarations import find_declarations
from ..syntax.lexer import DIALECT_DECLARATIONS, line_col

# Declarations whose header is a statement to lint (a `def`'s type is not a claim).
STATEMENT_KEYWORDS = frozenset({"theorem", "lemma", "example"} | set(DIALECT_DECLARATIONS))


@dataclass(frozen=True)
class Source:
    """One statement: ``text`` from its keyword up to the top-level ``:=``; ``line``/``column`` where ``text``
    starts in ``path`` (1-based line, 0-based column; a corpus entry starts at line 1 of its statement)."""

    id: str
    path: str
    text: str
    line: int = 1
    column: int = 0
    informal: str | None = None
    context: str = ""


@dataclass
class Inputs:
    sources: list[Source] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # one line per input that could not be read


def lean_sources(src: str, path: str, informal: str | None = None, context: str = "") -> list[Source]:
    """Every theorem/lemma/example header of a Lean file, located in it."""
    found = []
    for decl in find_declarations(src):
        if decl.keyword not in STATEMENT_KEYWORDS:
            continue
        line, column = line_col(src, decl.keyword_start)
        name = decl.name or f"example@{line}"
        found.append(Source(name, path, decl.header(src), line, column, informal, context))
    return found


def corpus_sources(path: Path) -> Inputs:
    inputs = Inputs()
    for entry in read_corpus(path):
        if entry.error:
            inputs.skipped.append(f"{path}:{entry.line}: {entry.error}")
            continue
        inputs.sources.append(Source(entry.id, f"{path}:{entry.line}", entry.statement, 1, 0, entry.informal,
                                     entry.context))
    return inputs


def problem_sources(root: Path) -> Inputs:
    """The declarations of each problem's reference under ``root`` (a problem folder or a folder of them)."""
    inputs = Inputs()
    folders = [root] if (root / PROBLEM_FILE).is_file() else sorted(
        p.parent for p in root.rglob(PROBLEM_FILE) if not any(x.startswith(".") for x in p.relative_to(root).parts))
    if not folders:
        raise BadInput(f"{root}: no problem (a folder holding {PROBLEM_FILE}) under it")
    for folder in folders:
        try:
            problem = load_problem(folder)
            src = reference_text(problem)
        except ProblemError as err:
            inputs.skipped.append(str(err))
            continue
        inputs.sources += lean_sources(src, str(problem.reference), problem.informal_statement)
    return inputs


def read_inputs(path: Path) -> Inputs:
    """Sources of a ``.lean`` file, a ``.jsonl`` corpus, or a folder of problems."""
    if path.is_dir():
        return problem_sources(path)
    if not path.exists():
        raise BadInput(f"{path}: no such file or folder")
    if path.suffix == ".jsonl":
        return corpus_sources(path)
    if path.suffix == ".lean":
        return Inputs(lean_sources(read_utf8(path), str(path)))
    raise BadInput(f"{path}: expected a .lean file, a .jsonl corpus or a folder of problems")
