"""Problem files: a benchmark problem is a folder holding ``problem.toml`` and its reference Lean file.

The folder is named after the problem's ``id``. ``problem.toml`` is read and written with tomlkit, so a load → save
round trip keeps comments, key order, quoting and spacing byte for byte, and a save after an edit changes only the
values that changed.

Schema (also in ``problems/README.md``)::

    id = "nat_add_comm_assoc"        # required; [A-Za-z0-9_.-]+; equals the folder name
    area = "number_theory"           # required; free text in lower_snake
    level = "L1"                     # required; L1 | L2 | L3
    source = "…"                     # required, non-empty; where the problem comes from
    imports = []                     # required; [] = core Lean only, ["Mathlib"] = needs Mathlib.
                                     #   Must equal the reference file's `import` lines.
    reference = "Reference.lean"     # required; a file inside the folder, relative to it
    targets = ["Problem.foo"]        # required, ≥ 1, distinct; fully qualified names of declarations
                                     #   in the reference (`namespace … end` blocks are resolved)
    proofs = "required"              # optional: required | ignored — what candidates' proofs are for (below)
    [informal]                       # required table
    statement = \"\"\"…\"\"\"           # required, non-empty
    proof = \"\"\"…\"\"\"               # optional ("" = absent)
    [rules]                          # optional table: public formalization rules shown to solvers
    text = \"\"\"…\"\"\"                # "" = absent
    [[shadows]]                      # optional, repeated: expert-written shadows
    target = "Problem.foo"           # one of `targets`
    statement = "…"                  # a Lean conclusion under the target's binders
    provenance = "expert"            # expert | llm:<model>   (default: expert)
    [shadowbench]                    # optional: a problem imported from ShadowBench (`pyshadow import-shadowbench`)
    id = "algebra/L1/alg_gen_L1_002" #   its meta.json fields with no pyshadow equivalent, verbatim, any key
    [shadowbench.held_by]            #   meta.json fields a pyshadow field holds: level = "level", …
    [shadowbench.as_json]            #   fields TOML cannot hold (a JSON null inside), as JSON text

Any other key is an error (a typo such as ``target = …`` for ``targets`` must not pass silently).

**Submission kinds** (``proofs``): ``"required"`` (ShadowBench; the default) — a candidate's proof must compile
without ``sorry``, and a ``sorry`` fails the candidate; ``"ignored"`` (statement benchmarks: miniF2F/ProofNet
autoformalization) — a ``sorry`` in a theorem's proof is allowed and reported, and the statement alone is judged.
A problem set chooses for all its problems in ``pyshadow.toml`` at its root (``proofs = "ignored"``, the only key),
a problem may say otherwise in its ``problem.toml``, and ``--proofs`` overrides both (``resolve_proofs``).

A malformed problem raises :class:`ProblemError`, a :class:`~pyshadow.errors.BadInput` whose message is one line
naming the file, the field and what was expected. :func:`load_problems` collects those errors per problem and
goes on with the rest.

Sample candidates (``<folder>/candidates/<kind>.lean`` with ``candidates/expected.toml``) are read by
:func:`load_sample_candidates`; see ``problems/README.md`` for their format.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.toml_document import TOMLDocument

from .errors import BadInput
from .files import write_atomically
from .problem_fields import Collect as _Collect
from .problem_fields import ProblemError
from .problem_fields import check_keys as _check_keys
from .problem_fields import optional_str as _optional_str
from .problem_fields import parse_toml as _parse_toml
from .problem_fields import preview as _preview
from .problem_fields import read_text as _read_text
from .problem_fields import require_bool as _require_bool
from .problem_fields import require_str as _require_str
from .problem_fields import require_str_list as _require_str_list
from .problem_fields import require_table as _require_table
from .problem_fields import type_name as _type_name
from .shadows.expert import ExpertShadow
from .syntax.scanner import declarations, normalize_name
from .syntax.lexer import IDENT, code_tokens

PROBLEM_FILE = "problem.toml"
CANDIDATES_DIR = "candidates"
EXPECTED_FILE = "expected.toml"
LEVELS = ("L1", "L2", "L3")
# What a submission's proofs are for: "required" (ShadowBench: the proof must compile without `sorry`) or
# "ignored" (statement benchmarks: `sorry` is allowed and reported, the statement alone is judged).
PROOFS_MODES = ("required", "ignored")
DEFAULT_PROOFS = "required"
PROJECT_FILE = "pyshadow.toml"  # optional, at the root of a problem set: settings for the whole set
PER_PROBLEM = "per problem"  # what a summary says when a set's problems choose different kinds
CANDIDATE_KINDS = ("faithful", "weakened", "strengthened", "changed", "conclusion_as_hypothesis", "cheating")
AUDIT_VERDICTS = ("clean", "flagged")

_ID_RE = re.compile(r"[A-Za-z0-9_.-]+")
_AREA_RE = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")
_PROVENANCE_RE = re.compile(r"expert|llm:\S+")
_NAME_PART = r"(?:«[^»]+»|[^\W\d][\w'!?₀-₉]*)"
_LEAN_NAME_RE = re.compile(rf"{_NAME_PART}(?:\.{_NAME_PART})*")
_MODULE_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_']*(?:\.[A-Za-z_][A-Za-z0-9_']*)*")

_TOP_KEYS = ("id", "area", "level", "source", "imports", "reference", "targets", "proofs", "informal", "rules",
             "shadows", "shadowbench")
_PROJECT_KEYS = ("proofs",)
# [shadowbench] keys with a meaning to pyshadow (pyshadow.shadowbench); every other key there is a ShadowBench field.
SHADOWBENCH_HELD_BY = "held_by"
SHADOWBENCH_AS_JSON = "as_json"
_INFORMAL_KEYS = ("statement", "proof")
_RULES_KEYS = ("text",)
_SHADOW_KEYS = ("target", "statement", "provenance")
_EXPECTED_KEYS = ("kind", "forward", "backward", "audit", "sorry", "kernel", "note")


@dataclass(frozen=True)
class Problem:
    """One benchmark problem, as loaded from its folder.

    ``reference`` is the reference file's path (the folder joined with the relative path in ``problem.toml``).
    ``shadowbench`` is the ``[shadowbench]`` table as plain data (``None`` for a problem not imported from
    ShadowBench; see :mod:`pyshadow.shadowbench`). ``document`` is the parsed ``problem.toml``;
    :func:`save_problem` writes changed fields back into it, so comments and formatting survive. It takes no part
    in equality.
    """

    id: str
    area: str
    level: str
    source: str
    imports: tuple[str, ...]
    reference: Path
    targets: tuple[str, ...]
    informal_statement: str
    informal_proof: str | None
    rules: str | None
    expert_shadows: tuple[ExpertShadow, ...]
    folder: Path
    shadowbench: dict[str, Any] | None = field(default=None, hash=False)
    proofs: str | None = None  # the problem's own submission kind (None: the set's, else DEFAULT_PROOFS)
    document: TOMLDocument | None = field(default=None, compare=False, repr=False)

    @property
    def needs_mathlib(self) -> bool:
        """Whether the reference (and so every checker) needs Mathlib rather than core Lean alone."""
        return any(m == "Mathlib" or m.startswith("Mathlib.") for m in self.imports)

    @property
    def problem_file(self) -> Path:
        return self.folder / PROBLEM_FILE

    @property
    def reference_relpath(self) -> str:
        """The reference path as written in ``problem.toml`` (relative to the folder, ``/``-separated)."""
        return Path(os.path.relpath(self.reference, self.folder)).as_posix()


@dataclass(frozen=True)
class SampleCandidate:
    """A bundled sample candidate and the skeleton verdict expected for it (from ``candidates/expected.toml``).

    The two directions judge the candidate's *statement* with the skeleton checkers (projections, application,
    ``apply … <;> assumption``; never proving the mathematics afresh), as if its proof were trusted:
    ``forward`` — it implies every skeleton shadow; ``backward`` — the shadows imply it. ``audit`` is the trust
    gate's verdict on the file (``sorry``, ``axiom``, ``#exit``, ``notation``, an unclosed comment … flag it).
    The candidate passes SA-Pass exactly when all three are good (:attr:`sa_pass`).
    """

    name: str  # the file stem, e.g. "faithful_implicit"
    path: Path
    kind: str  # one of CANDIDATE_KINDS
    forward: bool
    backward: bool
    audit: str  # "clean" | "flagged"
    note: str = ""
    # The file's only findings are `sorry`s in theorems' proofs: its audit is clean when proofs are ignored.
    proof_sorry: bool = False
    # `kernel = "undecided"`: the kernel tier cannot check this statement with Lean (the note says why), so its
    # strict scoring leaves the sample undecided; `forward`/`backward` are what the full tier establishes.
    kernel_undecided: bool = False

    @property
    def sa_pass(self) -> bool:
        return self.forward and self.backward and self.audit == "clean"

    def audit_under(self, proofs: str) -> str:
        """The expected audit verdict under a submission kind (``PROOFS_MODES``): ``audit`` as written for
        ``required``; clean for ``ignored`` when the file's only findings are `sorry`s in proofs."""
        return "clean" if proofs == "ignored" and self.proof_sorry else self.audit

    def sa_pass_under(self, proofs: str) -> bool:
        return self.forward and self.backward and self.audit_under(proofs) == "clean"

    def undecided_under(self, tier: str) -> bool:
        """Whether the sample's statement verdict is expected *undecided* under ``tier`` (then no check passes)."""
        return tier == "kernel" and self.kernel_undecided

    def matches(self, row: Mapping[str, Any], tier: str, proofs: str = "required") -> bool:
        """Whether a score row (``ScoreRow.to_dict()``) is what this sample expects under ``tier`` and ``proofs``:
        undecided and no pass where ``undecided_under(tier)``, else its forward, backward, audit and SA-Pass."""
        audit = "flagged" if row["audit"] else "clean"
        if self.undecided_under(tier):
            return bool(row.get("undecided")) and not row["sa_pass"] and audit == self.audit_under(proofs)
        return ((all(row["forward"]), row["backward"], audit, row["sa_pass"])
                == (self.forward, self.backward, self.audit_under(proofs), self.sa_pass_under(proofs)))


# ---------------------------------------------------------------------------------------------------------------
# Loading


def load_problem(folder: Path | str) -> Problem:
    """Load and validate the problem in ``folder``; raise :class:`ProblemError` naming every defect found (the
    checks that need a defective field's value are skipped; a file that is not TOML stops at once)."""
    folder = Path(folder)
    path = folder / PROBLEM_FILE
    doc = _parse_toml(path)
    data = doc.unwrap()
    errors = _Collect(path)
    problem_id = area = level = source = statement = ""
    imports: list[str] | None = None
    targets: list[str] | None = None
    reference: Path | None = None
    proofs = proof = rules = None
    shadows: tuple[ExpertShadow, ...] = ()
    shadowbench = None
    with errors.check():
        _check_keys(path, data, _TOP_KEYS, prefix="")
    with errors.check():
        problem_id = _require_str(path, data, "id")
        if not _ID_RE.fullmatch(problem_id):
            raise ProblemError(path, f"expected letters, digits, '_', '.' or '-', got {problem_id!r}", "id")
        if problem_id != folder.resolve().name:
            raise ProblemError(path, f"expected the folder name {folder.resolve().name!r}, got {problem_id!r}", "id")
    with errors.check():
        area = _require_str(path, data, "area")
        if not _AREA_RE.fullmatch(area):
            raise ProblemError(path, f"expected lower_snake text such as 'number_theory', got {area!r}", "area")
    with errors.check():
        level = _require_str(path, data, "level")
        if level not in LEVELS:
            raise ProblemError(path, f"expected one of {', '.join(LEVELS)}, got {level!r}", "level")
    with errors.check():
        source = _require_str(path, data, "source")
    with errors.check():
        found = _require_str_list(path, data, "imports", allow_empty=True)
        for module in found:
            if not _MODULE_RE.fullmatch(module):
                raise ProblemError(path, f"expected Lean module names such as 'Mathlib', got {module!r}", "imports")
        imports = found
    with errors.check():
        reference = _reference_path(path, folder, _require_str(path, data, "reference"))
    with errors.check():
        found = _require_str_list(path, data, "targets", allow_empty=True)
        if not found:
            raise ProblemError(path, "the target is missing: declare the target theorem in the reference and list "
                               "its fully qualified name here", "targets")
        for target in found:
            if not _LEAN_NAME_RE.fullmatch(target):
                raise ProblemError(path, f"expected a fully qualified Lean name, got {target!r}", "targets")
        if len(set(found)) != len(found):
            raise ProblemError(path, "expected distinct names, got a repeated one", "targets")
        targets = found
    with errors.check():
        proofs = _proofs_value(path, data)

    with errors.check():
        informal = _require_table(path, data, "informal")
        with errors.check():
            _check_keys(path, informal, _INFORMAL_KEYS, prefix="informal.")
        with errors.check():
            statement = _require_str(path, informal, "statement", prefix="informal.")
        proof = _optional_str(path, informal, "proof", prefix="informal.")
    with errors.check():
        rules_table = data.get("rules")
        if rules_table is not None:
            if not isinstance(rules_table, dict):
                raise ProblemError(path, f"expected a table [rules], got {_type_name(rules_table)}", "rules")
            with errors.check():
                _check_keys(path, rules_table, _RULES_KEYS, prefix="rules.")
            rules = _optional_str(path, rules_table, "text", prefix="rules.")
    with errors.check():
        shadows = _expert_shadows(path, data.get("shadows"), targets)
    with errors.check():
        shadowbench = _shadowbench_table(path, data.get("shadowbench"))

    if reference is not None:
        with errors.check():
            text = _read_text(reference, path, "reference")
            if imports is not None:
                with errors.check():
                    _check_imports(path, reference, text, imports)
            declared = declared_names(text)
            for target in targets or ():
                if normalize_name(target) not in declared:
                    raise ProblemError(path, f"{target!r} is not declared in {reference.name} "
                                       f"(declared: {_preview(declared)})", "targets")
    errors.raise_any()
    assert reference is not None and imports is not None and targets is not None

    return Problem(
        id=problem_id,
        area=area,
        level=level,
        source=source,
        imports=tuple(imports),
        reference=reference,
        targets=tuple(targets),
        informal_statement=statement,
        informal_proof=proof,
        rules=rules,
        expert_shadows=shadows,
        folder=folder,
        shadowbench=shadowbench,
        document=doc,
        proofs=proofs,
    )


def load_problems(root: Path | str) -> tuple[list[Problem], list[ProblemError]]:
    """Every problem under ``root`` (each folder holding a ``problem.toml``, at any depth), sorted by id.

    A malformed problem becomes a :class:`ProblemError` in the second list (sorted by path) and does not stop the
    others. Two folders with the same id: the second one (by path) is reported. Hidden folders are skipped.
    """
    root = Path(root)
    if not root.is_dir():
        raise ProblemError(root, "expected a folder of problems, found none")
    problems: dict[str, Problem] = {}
    errors: list[ProblemError] = []
    for path in sorted(root.rglob(PROBLEM_FILE)):
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        try:
            problem = load_problem(path.parent)
        except ProblemError as err:
            errors.append(err)
            continue
        if problem.id in problems:
            errors.append(
                ProblemError(path, f"expected a unique id, {problem.id!r} is also {problems[problem.id].folder}", "id")
            )
            continue
        problems[problem.id] = problem
    return [problems[k] for k in sorted(problems)], sorted(errors, key=lambda e: str(e.path))


def _proofs_value(path: Path, data: Mapping[str, Any]) -> str | None:
    value = data.get("proofs")
    if value is not None and value not in PROOFS_MODES:
        raise ProblemError(path, f"expected one of {', '.join(PROOFS_MODES)}, got {value!r}", "proofs")
    return value


@dataclass(frozen=True)
class ProjectSettings:
    """``pyshadow.toml`` at the root of a problem set (every field optional)."""

    proofs: str | None = None


def load_project_settings(root: Path | str) -> ProjectSettings:
    """The settings of the problem set at ``root`` (``PROJECT_FILE``; none when the file is absent)."""
    path = Path(root) / PROJECT_FILE
    if not path.is_file():
        return ProjectSettings()
    data = _parse_toml(path).unwrap()
    _check_keys(path, data, _PROJECT_KEYS, prefix="")
    return ProjectSettings(proofs=_proofs_value(path, data))


def resolve_proofs(problem: Problem | None, project: ProjectSettings, requested: str | None = None) -> str:
    """The submission kind a candidate of ``problem`` is scored under: ``--proofs``, else the problem's
    ``proofs``, else the set's ``pyshadow.toml``, else ``DEFAULT_PROOFS``."""
    if requested is not None:
        if requested not in PROOFS_MODES:
            raise BadInput(f"--proofs: expected one of {', '.join(PROOFS_MODES)}, got {requested!r}")
        return requested
    return (problem.proofs if problem is not None else None) or project.proofs or DEFAULT_PROOFS


def proofs_description(proofs: str, tier: str) -> str:
    """What ``proofs`` means in ``tier``, in one clause (reports and summaries say it)."""
    if proofs not in PROOFS_MODES:
        return "the problems of the set choose different kinds (each row's `proofs` says which)"
    if proofs == "ignored":
        what = "a statement benchmark: `sorry` in a theorem's proof is allowed and reported, the statement is judged"
        return what + ("; the full tier states the checkers with the candidate's statement as a hypothesis"
                       if tier == "full" else "")
    if tier == "kernel":
        return ("a `sorry` fails the candidate (audit); the kernel tier does not check proofs: skeleton SA-Pass is "
                "of the statement only")
    return "proofs must compile without `sorry` (a `sorry` fails the candidate)"


def reference_text(problem: Problem) -> str:
    """The text of the problem's reference Lean file."""
    return _read_text(problem.reference, problem.problem_file, "reference")


# ---------------------------------------------------------------------------------------------------------------
# Saving


def save_problem(problem_or_document: Problem | TOMLDocument, folder: Path | str) -> Path:
    """Write ``problem.toml`` into ``folder`` (created if missing) and return its path.

    A document is written as it is. A problem is merged into the document it was loaded from: only fields whose
    value changed are rewritten, so comments and hand formatting survive; a problem built by hand gets a fresh
    document. The reference file is not written (it is the author's Lean file).
    """
    folder = Path(folder)
    if isinstance(problem_or_document, Problem):
        doc = problem_document(problem_or_document)
    elif isinstance(problem_or_document, TOMLDocument):
        doc = problem_or_document
    else:
        raise TypeError(f"save_problem expects a Problem or a tomlkit document, got {type(problem_or_document)!r}")
    path = folder / PROBLEM_FILE
    write_atomically(path, tomlkit.dumps(doc).encode("utf-8"))
    return path


def problem_document(problem: Problem) -> TOMLDocument:
    """The TOML document for ``problem``: its original document with changed fields rewritten, or a new one."""
    doc = tomlkit.parse(tomlkit.dumps(problem.document)) if problem.document is not None else tomlkit.document()
    _set(doc, "id", problem.id)
    _set(doc, "area", problem.area)
    _set(doc, "level", problem.level)
    _set(doc, "source", problem.source)
    _set(doc, "imports", list(problem.imports))
    _set(doc, "reference", problem.reference_relpath)
    _set(doc, "targets", list(problem.targets))
    if problem.proofs is None:
        if "proofs" in doc:
            del doc["proofs"]
    else:
        _set(doc, "proofs", problem.proofs)

    if "informal" not in doc:
        doc.add(tomlkit.nl())
        doc.add("informal", tomlkit.table())
    informal = doc["informal"]
    _set(informal, "statement", problem.informal_statement)
    _set_optional(informal, "proof", problem.informal_proof)

    if problem.rules is None:
        if "rules" in doc:
            del doc["rules"]
    else:
        if "rules" not in doc:
            doc.add(tomlkit.nl())
            doc.add("rules", tomlkit.table())
        _set(doc["rules"], "text", problem.rules)

    wanted = [
        {"target": s.target, "statement": s.statement, "provenance": s.provenance} for s in problem.expert_shadows
    ]
    current = doc.get("shadows")
    current_entries = [{"provenance": "expert", **entry} for entry in (current.unwrap() if current is not None else [])]
    if current_entries != wanted:
        if "shadows" in doc:
            del doc["shadows"]
        if wanted:
            shadows = tomlkit.aot()
            for entry in wanted:
                table = tomlkit.table()
                for key, value in entry.items():
                    table.add(key, _toml_value(value))
                shadows.append(table)
            doc.add("shadows", shadows)

    current_sb = doc.get("shadowbench")
    if problem.shadowbench is None:
        if current_sb is not None:
            del doc["shadowbench"]
    elif current_sb is None or current_sb.unwrap() != problem.shadowbench:
        if current_sb is not None:
            del doc["shadowbench"]
        doc.add(tomlkit.nl())
        doc.add("shadowbench", _shadowbench_item(problem.shadowbench))
    return doc


def new_problem_document(problem_id: str, area: str, level: str) -> TOMLDocument:
    """A ``problem.toml`` for a new problem: every field present and commented, placeholders to fill in.

    It does not load as is (``source``, ``targets`` and the informal statement are empty) — on purpose: the
    author must fill them in.
    """
    if not _ID_RE.fullmatch(problem_id):
        raise BadInput(f"problem id: expected letters, digits, '_', '.' or '-', got {problem_id!r}")
    if not _AREA_RE.fullmatch(area):
        raise BadInput(f"problem area: expected lower_snake text such as 'number_theory', got {area!r}")
    if level not in LEVELS:
        raise BadInput(f"problem level: expected one of {', '.join(LEVELS)}, got {level!r}")
    doc = tomlkit.document()
    doc.add(tomlkit.comment("A pyshadow problem. This file and its reference Lean file sit in a folder named after"))
    doc.add(tomlkit.comment("`id`. Schema: problems/README.md in the pyshadow repository."))

    def add(key: str, value: Any, comment: str) -> None:
        item = tomlkit.item(value)
        item.comment(comment)
        doc.add(key, item)

    add("id", problem_id, "unique; letters, digits, '_', '.', '-'; equals the folder name")
    add("area", area, "lower_snake, e.g. number_theory, algebra, analysis, logic")
    add("level", level, "L1 | L2 | L3")
    add("source", "", "where the problem comes from: book and exercise, competition, paper")
    add("imports", tomlkit.array(), '[] = core Lean only; ["Mathlib"] = needs Mathlib; must match the reference')
    add("reference", "Reference.lean", "the reference formalization, relative to this folder")
    add("targets", tomlkit.array(), "fully qualified names of the target declarations in the reference (>= 1)")

    informal = tomlkit.table()
    informal.add(tomlkit.comment("The informal problem, as shown to solvers."))
    informal.add("statement", tomlkit.string("", multiline=True))
    informal.add(tomlkit.comment("Optional: the informal proof (leave empty if there is none)."))
    informal.add("proof", tomlkit.string("", multiline=True))
    doc.add(tomlkit.nl())
    doc.add("informal", informal)

    rules = tomlkit.table()
    rules.add(tomlkit.comment("Optional: public formalization rules shown to solvers (names, conventions)."))
    rules.add("text", tomlkit.string("", multiline=True))
    doc.add(tomlkit.nl())
    doc.add("rules", rules)

    doc.add(tomlkit.nl())
    doc.add(tomlkit.comment("Optional expert shadows, one [[shadows]] table each:"))
    doc.add(tomlkit.comment("[[shadows]]"))
    doc.add(tomlkit.comment('target = "Namespace.theorem_name"  # one of `targets`'))
    doc.add(tomlkit.comment('statement = "…"  # a Lean conclusion under the target\'s binders'))
    doc.add(tomlkit.comment('provenance = "expert"  # expert | llm:<model>'))
    return doc


# ---------------------------------------------------------------------------------------------------------------
# Sample candidates


def load_sample_candidates(problem: Problem) -> tuple[SampleCandidate, ...]:
    """The problem's sample candidates with their expected verdicts, sorted by name; () when it has none.

    Every ``candidates/*.lean`` must have an entry in ``candidates/expected.toml`` and every entry a file; a
    name starts with its kind (``faithful_implicit`` is of kind ``faithful``).
    """
    folder = problem.folder / CANDIDATES_DIR
    if not folder.is_dir():
        return ()
    path = folder / EXPECTED_FILE
    data = _parse_toml(path).unwrap()
    files = {p.stem: p for p in folder.glob("*.lean")}
    unlisted = sorted(set(files) - set(data))
    if unlisted:
        raise ProblemError(path, f"expected an entry for candidate file {unlisted[0]}.lean", unlisted[0])
    result = []
    for name in sorted(data):
        entry = data[name]
        if not isinstance(entry, dict):
            raise ProblemError(path, f"expected a table [{name}], got {_type_name(entry)}", name)
        if name not in files:
            raise ProblemError(path, f"expected a candidate file {name}.lean beside expected.toml", name)
        _check_keys(path, entry, _EXPECTED_KEYS, prefix=f"{name}.")
        kind = _require_str(path, entry, "kind", prefix=f"{name}.")
        if kind not in CANDIDATE_KINDS:
            raise ProblemError(path, f"expected one of {', '.join(CANDIDATE_KINDS)}, got {kind!r}", f"{name}.kind")
        if name != kind and not name.startswith(kind + "_"):
            raise ProblemError(path, f"expected the file name to start with its kind {kind!r}", f"{name}.kind")
        forward = _require_bool(path, entry, "forward", prefix=f"{name}.")
        backward = _require_bool(path, entry, "backward", prefix=f"{name}.")
        audit = _require_str(path, entry, "audit", prefix=f"{name}.")
        if audit not in AUDIT_VERDICTS:
            raise ProblemError(path, f"expected one of {', '.join(AUDIT_VERDICTS)}, got {audit!r}", f"{name}.audit")
        note = _optional_str(path, entry, "note", prefix=f"{name}.") or ""
        proof_sorry = _require_bool(path, entry, "sorry", prefix=f"{name}.") if "sorry" in entry else False
        if proof_sorry and audit != "flagged":
            raise ProblemError(path, "expected audit = \"flagged\" with sorry = true (a `sorry` is a finding when "
                               "proofs are required)", f"{name}.sorry")
        kernel = _optional_str(path, entry, "kernel", prefix=f"{name}.")
        if kernel not in (None, "undecided"):
            raise ProblemError(path, f"expected kernel = \"undecided\" or no kernel key, got {kernel!r}", f"{name}.kernel")
        if kernel and not note:
            raise ProblemError(path, "expected a note saying why the kernel tier leaves it undecided", f"{name}.note")
        result.append(SampleCandidate(name, files[name], kind, forward, backward, audit, note, proof_sorry,
                                      kernel_undecided=kernel == "undecided"))
    return tuple(result)


# ---------------------------------------------------------------------------------------------------------------
# Declarations in the reference


def declared_names(src: str) -> frozenset[str]:
    """Fully qualified names of the named declarations in ``src``, ``namespace … end`` blocks resolved.

    ``_root_.`` and «guillemets» are dropped, as Lean does when it names the declaration. The scope tracking is
    ``pyshadow.syntax.scanner.declarations`` — the one reference lookups and candidate extraction use.
    """
    return frozenset(normalize_name(d.qualified_name) for d in declarations(src))


def reference_imports(src: str) -> tuple[str, ...]:
    """The modules named by the ``import`` commands at the head of a Lean file, in order."""
    tokens = code_tokens(src)
    modules = []
    i = 0
    while i < len(tokens):
        text = tokens[i].text
        if text in ("module", "prelude", "public", "meta", "private"):
            i += 1
        elif text == "import" and i + 1 < len(tokens) and tokens[i + 1].kind == IDENT:
            j = i + 1
            if tokens[j].text == "all" and j + 1 < len(tokens) and tokens[j + 1].kind == IDENT:
                j += 1
            modules.append(tokens[j].text)
            i = j + 1
        else:
            break
    return tuple(modules)


# ---------------------------------------------------------------------------------------------------------------
# Validation of problem.toml fields (the generic readers are pyshadow.problem_fields)


def _reference_path(path: Path, folder: Path, relative: str) -> Path:
    rel = Path(relative)
    if rel.is_absolute() or ".." in rel.parts:
        raise ProblemError(path, f"expected a path inside the problem folder, got {relative!r}", "reference")
    reference = folder / rel
    if not reference.is_file():
        raise ProblemError(path, f"expected an existing file, {reference} not found", "reference")
    return reference


def _expert_shadows(path: Path, value: Any, targets: list[str] | None) -> tuple[ExpertShadow, ...]:
    """The ``[[shadows]]`` entries, every entry's defects raised together; ``targets`` None (the targets field is
    itself wrong) skips the target check."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ProblemError(path, f"expected [[shadows]] tables, got {_type_name(value)}", "shadows")
    errors = _Collect(path)
    shadows = []
    for n, entry in enumerate(value, start=1):
        prefix = f"shadows[{n}]."
        target = statement = provenance = ""
        before = len(errors.found)
        with errors.check():
            _check_keys(path, entry, _SHADOW_KEYS, prefix=prefix)
        with errors.check():
            target = _require_str(path, entry, "target", prefix=prefix)
            if targets is not None and target not in targets:
                raise ProblemError(path, f"expected one of the targets {targets}, got {target!r}", prefix + "target")
        with errors.check():
            statement = _require_str(path, entry, "statement", prefix=prefix)
        with errors.check():
            provenance = entry.get("provenance", "expert")
            if not isinstance(provenance, str) or not _PROVENANCE_RE.fullmatch(provenance):
                raise ProblemError(path, f"expected 'expert' or 'llm:<model>', got {provenance!r}",
                                   prefix + "provenance")
        if len(errors.found) == before:
            shadows.append(ExpertShadow(target, statement, provenance))
    errors.raise_any()
    return tuple(shadows)


def _shadowbench_table(path: Path, value: Any) -> dict[str, Any] | None:
    """The ``[shadowbench]`` table: any keys (ShadowBench's own fields); ``held_by``/``as_json`` tables of strings."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ProblemError(path, f"expected a table [shadowbench], got {_type_name(value)}", "shadowbench")
    for key in (SHADOWBENCH_HELD_BY, SHADOWBENCH_AS_JSON):
        sub = value.get(key)
        if sub is not None and not (isinstance(sub, dict) and all(isinstance(v, str) for v in sub.values())):
            raise ProblemError(path, f"expected a table of strings, got {_type_name(sub)}", f"shadowbench.{key}")
    return value


def _check_imports(path: Path, reference: Path, text: str, imports: list[str]) -> None:
    found = reference_imports(text)
    if sorted(found) != sorted(imports):
        raise ProblemError(
            path, f"expected the imports of {reference.name}, which are {list(found)}, got {imports}", "imports"
        )


# ---------------------------------------------------------------------------------------------------------------
# Writing helpers


def _toml_value(value: Any) -> Any:
    """A tomlkit item for ``value``: multi-line strings as \"\"\" blocks, lists one line."""
    if isinstance(value, str) and "\n" in value:
        return tomlkit.string(value, multiline=True)
    return tomlkit.item(value)


def _shadowbench_item(value: dict[str, Any]) -> Any:
    """``[shadowbench]``: plain values inline (nested tables as ``{…}``), ``held_by``/``as_json`` as sub-tables."""

    def inline(v: Any) -> Any:  # strings one line, escaped: nested values stay on their key's line
        if isinstance(v, dict):
            table = tomlkit.inline_table()
            for k, x in v.items():
                table.append(k, inline(x))
            return table
        if isinstance(v, list):
            array = tomlkit.array()
            for x in v:
                array.append(inline(x))
            return array
        return tomlkit.item(v)

    table = tomlkit.table()
    for key, v in value.items():
        if key in (SHADOWBENCH_HELD_BY, SHADOWBENCH_AS_JSON) and isinstance(v, dict):
            sub = tomlkit.table()
            for k, x in v.items():
                sub.add(k, _toml_value(x))
            table.add(key, sub)
        else:
            table.add(key, _toml_value(v) if isinstance(v, str) else inline(v))
    return table


def _set(table: Any, key: str, value: Any) -> None:
    """Set ``table[key]`` only when its value differs, so untouched items keep their formatting and comments."""
    if key in table and _unwrap(table[key]) == value:
        return
    if key in table:
        old = table[key]
        new = _toml_value(value)
        comment = getattr(getattr(old, "trivia", None), "comment", "")
        if comment and hasattr(new, "trivia"):
            new.trivia.comment = comment
            new.trivia.comment_ws = old.trivia.comment_ws
        table[key] = new
    else:
        table.add(key, _toml_value(value))


def _set_optional(table: Any, key: str, value: str | None) -> None:
    if value is None:
        if key in table and _unwrap(table[key]).strip():
            del table[key]
        return
    _set(table, key, value)


def _unwrap(item: Any) -> Any:
    return item.unwrap() if hasattr(item, "unwrap") else item
