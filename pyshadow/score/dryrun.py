"""The full-tier dry run: the generated Lean text checked against an index of the pinned Lean and Mathlib, no Lean.

No full toolchain runs on the development machines or in CI, so an "unknown identifier" in a template or a lemma
table would first show on a user's machine. The dry run catches that class of error earlier. For one *unit* — the
generated texts of one problem, candidate or corpus statement, and the user-written texts they were made from
(reference, candidate, statement and context) — every identifier token of the generated text is:

* a name the unit binds or declares itself (``fun``/``intro``/``let``/binder names, ``theorem``/``axiom`` names,
  ``namespace`` and ``universe`` names, the statements module's constants), or
* a name the user-written texts contain (their declarations, their library names: the user's responsibility), or
* found in the committed index ``templates/lean/full_tier_index.json`` of the names pyshadow's templates and
  lemma tables emit — declarations (with their file and universe parameters), tactic and command syntax, options,
  projection fields — resolved as Lean would (as written, then under each ``open`` and enclosing namespace);

anything else is a finding. A name the index lists as *absent* from the pinned Mathlib (read and not found there)
is a finding wherever a generated text uses it — the user-written texts included, since they are compiled with the
checkers — unless the unit declares it itself. Every universe pin ``c.{l₁, …}`` is checked against ``c``'s universe parameters: from
the index, or from its declaration in the unit (``universe_parameters``, an explicit ``.{…}`` on an ``axiom``).
The index records, per source repository, the commit each name was read at (docs/full-tier.md).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import PyshadowError
from ..paths import TEMPLATES_DIR
from ..shadows.checkers import universe_names, universe_parameters
from ..syntax import ParseError, parse_declaration
from ..syntax.lexer import IDENT, code_tokens
from ..syntax.scanner import declarations, name_components, normalize_name

INDEX_FILE = TEMPLATES_DIR / "lean" / "full_tier_index.json"
_DECLARING = frozenset({"theorem", "lemma", "axiom", "def", "abbrev", "instance", "opaque", "structure", "class",
                        "inductive", "example"})
_SCOPING = frozenset({"namespace", "end", "section"})
_BRACKETS = {"(": ")", "{": "}", "⦃": "⦄", "[": "]"}


@dataclass(frozen=True)
class IndexEntry:
    """One name of the index: ``kind`` declaration | syntax | option | field; where it is declared."""

    name: str
    kind: str
    repo: str
    file: str
    universes: tuple[str, ...] | None = None  # a declaration's universe parameters, in Lean's order


@dataclass(frozen=True)
class LeanIndex:
    entries: Mapping[str, IndexEntry]
    sources: Mapping[str, Mapping[str, str]]  # repo → {"ref"/"pin": …, "commit"/"read_at": …, "note": …}
    absent: Mapping[str, IndexEntry] = field(default_factory=dict)  # read at the source's commit and not found

    def resolve(self, name: str, namespaces: Iterable[str] = ()) -> IndexEntry | None:
        """``name`` as Lean resolves a constant: as written, then under each namespace of ``namespaces``."""
        return _resolve(self.entries, name, namespaces)

    def resolve_absent(self, name: str, namespaces: Iterable[str] = ()) -> IndexEntry | None:
        """The ``absent`` entry ``name`` would resolve to (as ``resolve``), if any."""
        return _resolve(self.absent, name, namespaces)


def _resolve(entries: Mapping[str, IndexEntry], name: str, namespaces: Iterable[str]) -> IndexEntry | None:
    plain = normalize_name(name)
    if plain in entries:
        return entries[plain]
    return next((entries[f"{ns}.{plain}"] for ns in namespaces if f"{ns}.{plain}" in entries), None)


def load_index(path: Path = INDEX_FILE) -> LeanIndex:
    """The committed index (see the module docstring); a one-line ``PyshadowError`` if unreadable."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise PyshadowError(f"{path}: cannot read the full-tier index ({err})") from None
    entries = {}
    for kind, section in (("declaration", "declarations"), ("syntax", "syntax"), ("option", "options"),
                          ("field", "fields")):
        for name, where in data.get(section, {}).items():
            universes = tuple(where["universes"]) if "universes" in where else None
            entries[name] = IndexEntry(name, kind, where["repo"], where["file"], universes)
    absent = {name: IndexEntry(name, "absent", where["repo"], where.get("file", ""))
              for name, where in data.get("absent", {}).items()}
    return LeanIndex(entries, data.get("sources", {}), absent)


@functools.lru_cache(maxsize=1)
def default_index() -> LeanIndex:
    return load_index()


@dataclass(frozen=True)
class Unit:
    """What one dry run checks: ``generated`` Lean texts (label → text) and the user-written ``inputs``."""

    label: str
    generated: Mapping[str, str]
    inputs: Sequence[str] = ()
    modules: frozenset[str] = frozenset()  # modules the unit itself provides (generated, the candidate's)


@dataclass(frozen=True)
class Finding:
    unit: str
    text: str  # the label of the generated text
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.unit}: {self.text}:{self.line}: {self.message}"


@dataclass
class DryRunReport:
    findings: list[Finding] = field(default_factory=list)
    identifiers: dict[str, int] = field(default_factory=dict)  # index names used → occurrences
    pins: int = 0  # universe pins checked
    units: int = 0

    @property
    def ok(self) -> bool:
        return not self.findings


class _Text(list):
    """The code tokens of one text, with the text (for line numbers and line breaks between tokens)."""

    def __init__(self, source: str):
        super().__init__(code_tokens(source))
        self.source = source

    def line_of(self, offset: int) -> int:
        return self.source.count("\n", 0, offset) + 1

    def same_line(self, i: int, j: int) -> bool:
        return "\n" not in self.source[self[i].end : self[j].start]


def _bound_names(toks: _Text) -> set[str]:
    """Names the text binds or declares. Each counts as in scope everywhere in the unit (lenient: a misspelling
    that happens to equal a bound name is not caught)."""
    bound: set[str] = set()
    n = len(toks)
    for i, t in enumerate(toks):
        if t.kind != IDENT or i + 1 >= n:
            continue
        if t.text in _DECLARING | _SCOPING | {"let", "have"} and toks[i + 1].kind == IDENT:
            full = normalize_name(toks[i + 1].text)
            bound.update({full, *name_components(full)})
        elif t.text in ("universe", "intro", "intros"):  # the rest of the line
            j = i + 1
            while j < n and toks[j].kind == IDENT and toks.same_line(i, j):
                bound.add(toks[j].text)
                j += 1
        elif t.text in ("fun", "λ", "∀", "∃"):  # up to `=>` / `,`: binder names (and, leniently, their types)
            j = i + 1
            while j < n and toks[j].text not in ("=>", ","):
                if toks[j].kind == IDENT:
                    bound.add(toks[j].text)
                j += 1
    for i, t in enumerate(toks):  # binder groups: `(x y : T)`, `{k}`, `[inst_1 : C α]`, `⦃x⦄`
        if t.text in _BRACKETS:
            j = i + 1
            while j < n and toks[j].kind == IDENT:
                j += 1
            if j > i + 1 and j < n and toks[j].text in (":", _BRACKETS[t.text]):
                bound.update(x.text for x in toks[i + 1 : j])
    return bound


def _input_names(inputs: Sequence[str]) -> tuple[set[str], set[str]]:
    """Every identifier of the user-written texts (normalized), and every component of one."""
    names: set[str] = set()
    for text in inputs:
        names.update(normalize_name(t.text) for t in code_tokens(text) if t.kind == IDENT)
    return names, {c for n in names for c in name_components(n)}


def _namespaces(toks: _Text) -> list[str]:
    """The namespaces a name may resolve under: every ``open``ed one and every ``namespace`` (with its prefixes)."""
    out: list[str] = []
    for i, t in enumerate(toks):
        if t.text == "open":
            j = i + 1
            while j < len(toks) and toks[j].kind == IDENT and toks[j].text not in ("in", "open", "namespace") \
                    and toks.same_line(i, j):
                out.append(normalize_name(toks[j].text))
                j += 1
        elif t.text == "namespace" and i + 1 < len(toks):
            parts = name_components(normalize_name(toks[i + 1].text))
            out += [".".join(parts[: k + 1]) for k in range(len(parts))]
    return list(dict.fromkeys(out))


def _universe_count(name: str, unit_decls: Mapping[str, int], index: LeanIndex, namespaces: Sequence[str]
                    ) -> tuple[int | None, str]:
    """How many universe parameters constant ``name`` has, and where that was read (None: unknown)."""
    plain = normalize_name(name)
    for candidate in [plain, *(f"{ns}.{plain}" for ns in namespaces)]:
        if candidate in unit_decls:
            return unit_decls[candidate], "its declaration in this unit"
    entry = index.resolve(plain, namespaces)
    if entry is not None and entry.universes is not None:
        return len(entry.universes), f"{entry.repo} {entry.file}"
    return None, ""


_EXPLICIT_DECL_UNIVERSES = re.compile(r"^\s*(?:axiom|theorem|def|lemma)\s+(?:_root_\.)?(\S+?)\.\{([^{}]*)\}")


def _declared_universe_counts(texts: Iterable[str]) -> dict[str, int]:
    """Declarations of the unit and their universe-parameter counts: explicit ``.{…}`` on the name, else what
    ``universe_parameters`` reads from the header (``universe u`` names it uses, ``Type*`` holes)."""
    counts: dict[str, int] = {}
    for text in texts:
        for d in declarations(text):
            header_line = text[d.keyword_start: d.statement_end]
            explicit = _EXPLICIT_DECL_UNIVERSES.match(header_line)
            if explicit:
                counts[normalize_name(d.qualified_name).split(".{")[0]] = len(
                    [u for u in explicit.group(2).split(",") if u.strip()])
                continue
            try:
                decl = parse_declaration(d.header)
            except (ParseError, PyshadowError):
                continue
            counts[normalize_name(d.qualified_name)] = len(universe_parameters(decl))
    return counts


def dry_run(units: Iterable[Unit], index: LeanIndex | None = None) -> DryRunReport:
    """Check every unit (see the module docstring); never raises for what the texts contain."""
    index = index or default_index()
    report = DryRunReport()
    for unit in units:
        report.units += 1
        texts = {label: _Text(text) for label, text in unit.generated.items()}
        bound = set().union(*(_bound_names(t) for t in texts.values())) if texts else set()
        inputs, components = _input_names(unit.inputs)
        counts = _declared_universe_counts([*unit.inputs, *unit.generated.values()])
        modules = unit.modules | _imports(unit.inputs)
        for label, toks in texts.items():
            _check_imports(report, unit, label, toks, modules)
            namespaces = _namespaces(toks)
            universes = set(universe_names(toks.source))
            _check_identifiers(report, unit, label, toks, index, bound, inputs, components, universes, namespaces)
            _check_pins(report, unit, label, toks, index, counts, namespaces)
    return report


def _imports(texts: Iterable[str]) -> frozenset[str]:
    """The modules the user-written texts import (the problem's imports: ``Mathlib``, ``Init`` …)."""
    return frozenset(m for text in texts for m in re.findall(r"(?m)^\s*import\s+(\S+)", text))


def _import_tokens(toks: _Text) -> set[int]:
    """Positions of the module names of ``import`` lines."""
    out: set[int] = set()
    for i, t in enumerate(toks):
        if t.text == "import":
            j = i + 1
            while j < len(toks) and toks[j].kind == IDENT and toks.same_line(i, j):
                out.add(j)
                j += 1
    return out


def _check_imports(report, unit, label, toks, modules):
    for j in sorted(_import_tokens(toks)):
        if toks[j].text not in modules:
            report.findings.append(Finding(unit.label, label, toks.line_of(toks[j].start),
                                           f"import of {toks[j].text!r}: neither the problem's import nor a "
                                           "module of the unit"))


def _check_identifiers(report, unit, label, toks, index, bound, inputs, components, universes, namespaces):
    skip = _import_tokens(toks)  # module names: `_check_imports`
    for i, t in enumerate(toks):
        if t.kind != IDENT or i in skip:
            continue
        text = t.text
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if nxt is not None and nxt.text == "%" and nxt.start == t.end:
            text += "%"  # a term elaborator: `type_of%`
        if i > 0 and toks[i - 1].text == "#" and toks[i - 1].end == t.start:
            text = "#" + text
        missing = index.resolve_absent(text, namespaces)
        if missing is not None and normalize_name(text) not in bound:
            source = index.sources.get(missing.repo, {})
            report.findings.append(Finding(unit.label, label, toks.line_of(t.start),
                                           f"{text!r} ({missing.name}) is not declared in the pinned "
                                           f"{missing.repo} (read at {source.get('read_at', '?')[:12]})"))
            continue
        entry = index.resolve(text, namespaces)
        if entry is not None:
            report.identifiers[entry.name] = report.identifiers.get(entry.name, 0) + 1
            continue
        plain = normalize_name(text)
        parts = name_components(plain)
        if plain in bound or plain in inputs or plain in universes:
            continue
        if parts and (parts[0] in bound or parts[0] in inputs):
            # `_hc.mp`, `hab.le`: a local or user name, then projections — each field must be known
            unknown = [p for p in parts[1:] if p not in components and p not in bound and
                       (index.entries.get(p) is None or index.entries[p].kind != "field")]
            if not unknown:
                continue
            report.findings.append(Finding(unit.label, label, toks.line_of(t.start),
                                           f"unknown field {unknown[0]!r} in {text!r} (not in the index)"))
            continue
        if parts and all(p in components or p in bound for p in parts):
            continue  # the user's name, qualified (`«Order Facts».main_thm`, `PyshadowStatements_….stmt_1`)
        report.findings.append(Finding(unit.label, label, toks.line_of(t.start),
                                       f"unknown identifier {text!r}: neither in the full-tier index nor in the "
                                       "unit's own texts"))


def _check_pins(report, unit, label, toks, index, counts, namespaces):
    for i in range(len(toks) - 2):
        t, dot, brace = toks[i], toks[i + 1], toks[i + 2]
        if not (t.kind == IDENT and dot.text == "." and brace.text == "{" and dot.start == t.end
                and brace.start == dot.end):
            continue
        if i > 0 and toks[i - 1].text in _DECLARING:
            continue  # a declaration's own universe parameters, not a pin
        j, depth, levels = i + 3, 0, [[]]
        while j < len(toks) and not (toks[j].text == "}" and depth == 0):
            depth += toks[j].text == "("
            depth -= toks[j].text == ")"
            if toks[j].text == "," and depth == 0:
                levels.append([])
            else:
                levels[-1].append(toks[j])
            j += 1
        given = len([lv for lv in levels if lv])
        if index.resolve_absent(t.text, namespaces) is not None and t.text not in counts:
            continue  # reported by the identifier check
        want, where = _universe_count(t.text, counts, index, namespaces)
        report.pins += 1
        if want is None:
            report.findings.append(Finding(unit.label, label, toks.line_of(t.start),
                                           f"universe pin on {t.text!r}: its universe parameters are unknown "
                                           "(not in the index, not declared in the unit)"))
        elif want != given:
            report.findings.append(Finding(unit.label, label, toks.line_of(t.start),
                                           f"universe pin {t.text}.{{…}} gives {given} universe(s); {where} has "
                                           f"{want}"))

