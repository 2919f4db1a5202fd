"""Importing the public ShadowBench split: ``data/<area>/<level>/<problem_id>/{meta.json,text.md}`` → problems.

What the public repository holds (github.com/ldilab/shadowbench, read through the project's search index):
``meta.json`` has ``id`` (``"algebra/L1/alg_gen_L1_002"`` — the folder path), ``problem_id`` (not unique: the
same ``alg_gen_L2_001`` appears under ``algebra`` and ``algebraic-geometry``), ``area`` (``"Algebra"`` or the
folder's ``"algebraic-geometry"``), ``level``, ``formalization_rules`` (``open …`` preamble, then a comment naming
every required declaration: "The theorem must be named `foo`."), and often ``target_decl``/``target_kind``
(missing in several L3 problems, and not always the name the rules require), ``toolchain`` (``{}`` or
``{"lean": "4.28.0"}``), ``types``, ``custom_module``, ``paper_id``, ``paper_title``, ``text`` (a copy of
``text.md``), ``subfields``, ``references``, ``metrics``, ``created_at``, ``updated_at``,
``translation_direction``. ``text.md`` is LaTeX-flavoured: either environments (``\\begin{theorem}[name]`` …,
``\\begin{definition}``, ``\\begin{proof}`` … ``\\end{proof}``, several statement/proof pairs in one file) or
paragraph labels (``Theorem (Name)`` … ``Proof.`` …); Markdown headings (``## Proof``) are read the same way.

The mapping (every field kept, see ``problems/README.md``):

* pyshadow ``id`` = the ShadowBench id with ``/`` → ``.`` (unique, unlike ``problem_id``); ``level`` = ``level``;
  ``area`` = ``area`` in lower_snake; ``rules.text`` = ``formalization_rules``; ``source`` names the ShadowBench
  id and paper; ``imports = ["Mathlib"]``;
* ``targets`` = the theorem-like declarations the rules require by name, else ``target_decl``, else none (the
  problem is imported anyway and ``check-problem`` says its target is missing);
* ``[informal]`` = ``text.md`` split into statement (everything but the proofs) and proof (the proofs, in order);
* ``[shadowbench]`` = every other field, verbatim (:func:`shadowbench_meta` rebuilds ``meta.json``);
* the reference is left to the author: a stub that imports Mathlib, carries the rules' preamble and names the
  targets, so the problem does not load until the reference declares them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tomlkit.toml_document import TOMLDocument

from .problems import (
    _AREA_RE,
    _ID_RE,
    _LEAN_NAME_RE,
    LEVELS,
    PROBLEM_FILE,
    SHADOWBENCH_AS_JSON,
    SHADOWBENCH_HELD_BY,
    Problem,
    ProblemError,
    load_problem,
    new_problem_document,
    problem_document,
    save_problem,
)
from .references import reference_skeleton

META_FILE = "meta.json"
TEXT_FILE = "text.md"
REFERENCE_FILE = "Reference.lean"
IMPORTS = ("Mathlib",)

_RESERVED = (SHADOWBENCH_HELD_BY, SHADOWBENCH_AS_JSON)

THEOREM_KINDS = frozenset({"theorem", "lemma", "proposition", "corollary", "claim", "fact"})
# The phrasings the public split's formalization rules use to name a required declaration (ldilab/shadowbench @
# cfbdeedc79dd09c92aa5ced289508fbf8dbc9308, data/*/*/*/meta.json): "The theorem must be named `x`." (252 times),
# "Formalize the theorem named `x`." (geometry/L1/geo_gen_L1_014), "Formalize in Lean the Theorem (x) from Text."
# (87 times; the only naming line of geometry/L1/geo_gen_L1_013) and a list item "* `x` : the theorem asserting …"
# under "The formalization must include the following named declarations:" (geo_gen_L1_013, algebraic-geometry).
_REQUIRED_NAME_RE = re.compile(r"The\s+([A-Za-z]+)\s+must\s+be\s+named\s+`([^`]+)`")
_FORMALIZE_NAMED_RE = re.compile(r"Formalize\s+(?:in\s+Lean\s+)?the\s+([A-Za-z]+)\s+named\s+`([^`]+)`")
_FORMALIZE_LABEL_RE = re.compile(r"Formalize\s+in\s+Lean\s+the\s+([A-Za-z]+)\s+\(([^()\s]+)\)\s+from\s+Text")
_LISTED_NAME_RE = re.compile(r"^[ \t]*[*-][ \t]+`([^`]+)`[ \t]*:[ \t]*(?:the|an?)[ \t]+([A-Za-z-]+)", re.M)
_PREAMBLE_RE = re.compile(r"\s*(?:open|set_option|universe|noncomputable|attribute|local|variable)\b")

_LATEX_PROOF_RE = re.compile(r"\\begin\{proof\}.*?(?:\\end\{proof\}|\Z)", re.S)
# Labels that open a block, as a line starts: `Proof.`, `## Proof`, `**Proof.**`; `Theorem (Name)`, `Lemma 2.1.`,
# `## Statement`, `\begin{lemma}`. A statement label must look like a heading (followed by a label, a number,
# `.`/`:` or the line's end), so prose such as "Problem reduces to …" inside a proof does not end it.
_STATEMENT_WORDS = ("Theorem|Lemma|Proposition|Corollary|Definition|Claim|Conjecture|Problem|Exercise|Remark|Example"
                    "|Notation|Statement|Fact|Assumption")
_MARKS = r"[ \t]*(?P<hashes>#{1,6})?[ \t]*(?:\*\*|__|\*|_)?"
_PROOF_HEAD_RE = re.compile(rf"{_MARKS}(?:Proof|PROOF)\b")
_STATEMENT_HEAD_RE = re.compile(
    rf"{_MARKS}(?:{_STATEMENT_WORDS}|{_STATEMENT_WORDS.upper()})(?:\*\*|__|\*|_)?[ \t]*(?:[(\[\d.:]|$)")
_HEADING_RE = re.compile(r"[ \t]*(#{1,6})[ \t]")
_LATEX_STATEMENT_RE = re.compile(rf"[ \t]*\\begin\{{(?:{_STATEMENT_WORDS.lower()})\*?\}}")


class ShadowBenchError(Exception):
    """One ShadowBench problem cannot be imported; the message says which file and why (one line)."""


@dataclass
class Imported:
    """A problem written by :func:`import_problem`: its pyshadow id, folder, targets, notes for the author and the
    other declarations the formalization rules require (``(kind, name)``: definitions, structures …)."""

    id: str
    folder: Path
    targets: tuple[str, ...]
    notes: list[str] = field(default_factory=list)
    auxiliaries: tuple[tuple[str, str], ...] = ()

    def to_write(self) -> str:
        """What the author must write for this problem to load, in one line."""
        reference = self.folder / REFERENCE_FILE
        if not self.targets:
            return (f"{reference}: choose the target theorem, declare it and list it under `targets` in "
                    f"{self.folder / PROBLEM_FILE}")
        also = "".join(f", {kind} `{name}`" for kind, name in self.auxiliaries)
        return f"{reference}: declare " + ", ".join(f"`{t}`" for t in self.targets) + also


def loading(imported: list[Imported]) -> tuple[list[Imported], list[Imported]]:
    """(problems that load as written, problems that do not yet) — an imported reference is a stub, so normally
    none loads until its author declares the targets in it."""
    ok, not_yet = [], []
    for problem in imported:
        try:
            load_problem(problem.folder)
        except ProblemError:
            not_yet.append(problem)
        else:
            ok.append(problem)
    return ok, not_yet


# ---------------------------------------------------------------------------------------------------------------
# text.md → statement and proof


def split_text(text: str) -> tuple[str, str | None]:
    """``(statement, proof)`` of a ``text.md``: the proofs cut out (``\\begin{proof}`` environments, and blocks
    from a ``Proof.`` / ``## Proof`` line up to the next statement heading), joined in order; the rest is the
    statement. ``proof`` is ``None`` when there is none."""
    spans = [(m.start(), m.end()) for m in _LATEX_PROOF_RE.finditer(text)]
    spans += _labelled_proofs(text, spans)
    spans.sort()
    statement_parts, proofs, at = [], [], 0
    for start, end in spans:
        statement_parts.append(text[at:start])
        proofs.append(text[start:end].strip())
        at = end
    statement_parts.append(text[at:])
    statement = re.sub(r"\n[ \t]*\n(?:[ \t]*\n)+", "\n\n", "".join(statement_parts)).strip()
    proof = "\n\n".join(p for p in proofs if p)
    return statement, proof or None


def _labelled_proofs(text: str, latex: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of proofs introduced by a line starting with ``Proof`` (plain or Markdown), outside LaTeX proofs.

    Such a proof runs to the next statement label, ``\\begin{theorem}``-like environment, LaTeX proof, or
    Markdown heading no deeper than its own (a ``### Step 1`` inside a ``## Proof`` stays in the proof).
    """
    spans: list[tuple[int, int]] = []
    start: int | None = None
    depth = 0  # the proof heading's Markdown level; 0 for a plain `Proof.` label (any heading ends it)
    offset = 0
    for line in text.splitlines(keepends=True):
        inside_latex = any(a <= offset < b for a, b in latex)
        if start is not None and (inside_latex or _ends_proof(line, depth)):
            spans.append((start, offset))
            start = None
        if start is None and not inside_latex and (head := _PROOF_HEAD_RE.match(line)):
            start, depth = offset, len(head["hashes"] or "")
        offset += len(line)
    if start is not None:
        spans.append((start, len(text)))
    return spans


def _ends_proof(line: str, depth: int) -> bool:
    if _PROOF_HEAD_RE.match(line) or _STATEMENT_HEAD_RE.match(line) or _LATEX_STATEMENT_RE.match(line):
        return True
    heading = _HEADING_RE.match(line)
    return heading is not None and (depth == 0 or len(heading.group(1)) <= depth)


# ---------------------------------------------------------------------------------------------------------------
# meta.json → targets, fields


def required_names(rules: str) -> list[tuple[str, str]]:
    """``(kind, name)`` of every declaration the formalization rules require, first by "The lemma must be named
    `x`", then by the other phrasings (``Formalize the theorem named `x```, ``Formalize in Lean the Theorem (x) from
    Text``, ``* `x` : the map …``) for names not yet seen; a label that is not a Lean name (``(Cantelli's
    inequality)``) names nothing."""
    rules = rules or ""
    found = _REQUIRED_NAME_RE.findall(rules) + _FORMALIZE_NAMED_RE.findall(rules)
    found += [(kind, name) for kind, name in _FORMALIZE_LABEL_RE.findall(rules) if _LEAN_NAME_RE.fullmatch(name)]
    found += [(kind, name) for name, kind in _LISTED_NAME_RE.findall(rules)]
    seen, names = set(), []
    for kind, name in found:
        if name not in seen:
            seen.add(name)
            names.append((kind.lower(), name))
    return names


def rules_preamble(rules: str) -> str:
    """The Lean the rules require before the formalization: the ``open``/``set_option``/… commands that lead their
    text, up to the first comment or prose line."""
    lines = []
    for line in (rules or "").splitlines():
        if not line.strip():
            continue
        if not _PREAMBLE_RE.match(line):
            break
        lines.append(line.rstrip())
    return "\n".join(lines)


def pyshadow_id(shadowbench_id: str) -> str:
    """``algebra/L1/alg_gen_L1_002`` → ``algebra.L1.alg_gen_L1_002``."""
    return shadowbench_id.strip("/").replace("/", ".")


def lower_snake(area: str) -> str:
    """``Algebraic-Geometry`` → ``algebraic_geometry``."""
    return "_".join(re.findall(r"[a-z0-9]+", area.lower()))


def shadowbench_table(meta: dict[str, Any], held: dict[str, str]) -> dict[str, Any]:
    """The ``[shadowbench]`` table: ``meta`` minus the fields in ``held``; a field TOML cannot hold (a null
    inside) or named like a reserved key goes to ``as_json`` as JSON text."""
    table: dict[str, Any] = {}
    as_json: dict[str, str] = {}
    for key, value in meta.items():
        if key in held:
            continue
        if key in _RESERVED or _has_null(value):
            as_json[key] = json.dumps(value, ensure_ascii=False)
        else:
            table[key] = value
    if held:
        table[SHADOWBENCH_HELD_BY] = dict(held)
    if as_json:
        table[SHADOWBENCH_AS_JSON] = as_json
    return table


def shadowbench_meta(problem: Problem) -> dict[str, Any]:
    """The ``meta.json`` fields a problem was imported from: ``[shadowbench]`` plus the fields pyshadow holds."""
    if problem.shadowbench is None:
        raise ValueError(f"{problem.id} was not imported from ShadowBench (no [shadowbench] table)")
    table = problem.shadowbench
    held_values = {"level": problem.level, "area": problem.area, "rules.text": problem.rules}
    meta = {k: v for k, v in table.items() if k not in _RESERVED}
    for key, text in table.get(SHADOWBENCH_AS_JSON, {}).items():
        meta[key] = json.loads(text)
    for key, where in table.get(SHADOWBENCH_HELD_BY, {}).items():
        meta[key] = held_values[where]
    return meta


def _has_null(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_has_null(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_null(v) for v in value)
    return False


# ---------------------------------------------------------------------------------------------------------------
# One problem folder


def problem_folders(data_dir: Path) -> list[Path]:
    """Folders under ``data_dir`` holding a ``meta.json`` or a ``text.md`` (hidden folders skipped), sorted."""
    found = {p.parent for name in (META_FILE, TEXT_FILE) for p in data_dir.rglob(name)}
    return sorted(f for f in found if not any(part.startswith(".") for part in f.relative_to(data_dir).parts))


def read_meta(folder: Path) -> dict[str, Any]:
    path = folder / META_FILE
    if not path.is_file():
        raise ShadowBenchError(f"{path}: not found")
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as err:
        raise ShadowBenchError(f"{path}: expected UTF-8 text, byte {err.start} is not") from None
    except json.JSONDecodeError as err:
        raise ShadowBenchError(f"{path}: invalid JSON at line {err.lineno}, column {err.colno}: {err.msg}") from None
    if not isinstance(meta, dict):
        raise ShadowBenchError(f"{path}: expected a JSON object, got {type(meta).__name__}")
    return meta


def read_text(folder: Path) -> str:
    path = folder / TEXT_FILE
    if not path.is_file():
        raise ShadowBenchError(f"{path}: not found (the informal statement and proof)")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ShadowBenchError(f"{path}: expected UTF-8 text, byte {err.start} is not") from None


def import_problem(folder: Path, data_dir: Path, out_dir: Path) -> Imported:
    """Write the pyshadow problem for one ShadowBench folder; raise :class:`ShadowBenchError` when it cannot."""
    meta = read_meta(folder)
    text = read_text(folder)
    meta_path = folder / META_FILE
    notes: list[str] = []

    def string_field(key: str) -> str | None:
        value = meta.get(key)
        if value is not None and not isinstance(value, str):
            raise ShadowBenchError(f"{meta_path}: field '{key}': expected a string, got {type(value).__name__}")
        return value

    relative = folder.relative_to(data_dir).as_posix()
    sb_id = string_field("id") or "/".join(folder.relative_to(data_dir).parts[-3:])  # <area>/<level>/<problem_id>
    problem_id = pyshadow_id(sb_id)
    if not _ID_RE.fullmatch(problem_id):
        raise ShadowBenchError(f"{meta_path}: field 'id': cannot be a pyshadow id: {sb_id!r}")
    if not relative.endswith(sb_id.strip("/")):
        notes.append(f"meta.json id {sb_id!r} differs from the folder {relative!r}; the id is used")

    level = string_field("level")
    if level is None:
        raise ShadowBenchError(f"{meta_path}: field 'level': missing")
    if level not in LEVELS:
        raise ShadowBenchError(f"{meta_path}: field 'level': expected one of {', '.join(LEVELS)}, got {level!r}")
    parts = folder.relative_to(data_dir).parts
    raw_area = string_field("area") or (parts[-3] if len(parts) >= 3 else "")
    area = lower_snake(raw_area)
    if not _AREA_RE.fullmatch(area):
        raise ShadowBenchError(f"{meta_path}: field 'area': cannot be read as an area: {raw_area!r}")
    rules = string_field("formalization_rules")

    held = {"level": "level"}
    if meta.get("area") == area:
        held["area"] = "area"
    if rules is not None and rules.strip():
        held["formalization_rules"] = "rules.text"

    targets, auxiliaries = _targets(meta, rules, meta_path, notes)
    statement, proof = split_text(text)
    if not statement:
        raise ShadowBenchError(f"{folder / TEXT_FILE}: no statement (the file is empty or holds only proofs)")

    out = out_dir / problem_id
    if (out / PROBLEM_FILE).exists() or (out / REFERENCE_FILE).exists():
        raise ShadowBenchError(f"{out}: a problem is already there; remove it to import {sb_id} again")
    paper = ", ".join(str(meta[k]) for k in ("paper_id", "paper_title") if isinstance(meta.get(k), str) and meta[k])
    source = f"ShadowBench {sb_id}" + (f" ({paper})" if paper else "")

    template = new_problem_document(problem_id, area, level)
    problem = Problem(
        id=problem_id, area=area, level=level, source=source, imports=IMPORTS, reference=out / REFERENCE_FILE,
        targets=targets, informal_statement=statement, informal_proof=proof,
        rules=rules if "formalization_rules" in held else None, expert_shadows=(), folder=out,
        shadowbench=shadowbench_table(meta, held), document=template,
    )
    document: TOMLDocument = problem_document(problem)
    out.mkdir(parents=True, exist_ok=True)
    (out / REFERENCE_FILE).write_text(_stub(sb_id, targets, auxiliaries, rules_preamble(rules or "")),
                                      encoding="utf-8")
    save_problem(document, out)
    return Imported(problem_id, out, targets, notes, tuple(auxiliaries))


def _targets(meta: dict[str, Any], rules: str | None, meta_path: Path, notes: list[str]
             ) -> tuple[tuple[str, ...], list[tuple[str, str]]]:
    """(targets, other required declarations): the rules' theorem-like names, else ``target_decl``."""
    required = required_names(rules or "")
    theorems = [name for kind, name in required if kind in THEOREM_KINDS]
    others = [(kind, name) for kind, name in required if kind not in THEOREM_KINDS]
    decl = meta.get("target_decl")
    if decl is not None and not isinstance(decl, str):
        raise ShadowBenchError(f"{meta_path}: field 'target_decl': expected a string, got {type(decl).__name__}")
    if not theorems and decl:
        theorems = [decl]
    elif decl and decl not in theorems and decl not in [n for _, n in others]:
        notes.append(f"target_decl {decl!r} is not a name the formalization rules require; "
                     f"the targets are the rules' {', '.join(theorems)}")
    if not theorems:
        notes.append("no target: the formalization rules name no theorem (\"The theorem must be named `…`\") and "
                     "there is no target_decl; name the reference's target in problem.toml `targets`")
    for name in theorems:
        if not _LEAN_NAME_RE.fullmatch(name):
            raise ShadowBenchError(f"{meta_path}: target {name!r} is not a Lean name")
    return tuple(theorems), others


def _stub(sb_id: str, targets: tuple[str, ...], auxiliaries: list[tuple[str, str]], preamble: str) -> str:
    lines = [f"Imported from ShadowBench `{sb_id}`. Write the reference formalization here. pyshadow checks",
             "the targets `problem.toml` lists; declare each under exactly this name:", ""]
    lines += [f"* `{name}`" for name in targets]
    if not targets:
        lines += ["(none yet: the formalization rules name no target. Choose the target's name, declare it here",
                  "and list it under `targets` in `problem.toml`.)"]
    if auxiliaries:
        lines += ["", "The formalization rules also require:", ""]
        lines += [f"* {kind} `{name}`" for kind, name in auxiliaries]
    lines += ["", "Then run `pyshadow check-problem` on this folder."]
    return reference_skeleton(f"{sb_id}: reference formalization (to be written)", "\n".join(lines),
                              imports=IMPORTS, preamble=preamble)


# ---------------------------------------------------------------------------------------------------------------
# A whole data folder


def import_shadowbench(data_dir: Path, out_dir: Path) -> tuple[list[Imported], list[str], int]:
    """Import every problem folder under ``data_dir`` into ``out_dir``; one failure does not stop the rest.

    Returns (imported problems, one error line per problem that could not be imported, folders found).
    """
    folders = problem_folders(data_dir)
    imported, errors = [], []
    for folder in folders:
        try:
            imported.append(import_problem(folder, data_dir, out_dir))
        except ShadowBenchError as err:
            errors.append(str(err))
    return imported, errors, len(folders)
