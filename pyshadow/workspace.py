"""A generated Lake workspace: every problem's checkers as Lean modules, and a manifest that lists them.

Layout of ``WORKSPACE`` (``pyshadow generate PROBLEMS_DIR -o WORKSPACE``)::

    lakefile.toml                  requires Mathlib (at the commit built with lean-toolchain) only if a problem imports it
    lean-toolchain                 copied from the repository
    Checkers.lean                  the root module: imports every module below
    Checkers/<Module>/Reference.lean   the problem's reference file, verbatim but for targets proved with `sorry`,
                                   stated as `axiom`s (so checkers' `#print axioms` never list `sorryAx`)
    Checkers/<Module>/Forward.lean     every forward checker of every target, importing the reference
    Checkers/<Module>/Backward.lean    the backward certificates (of the targets that have one)
    manifest.json                  problem id → files, checkers (name, file, lines, sha256), shadows, residuals

**Module names.** A problem id (``[A-Za-z0-9_.-]+``) becomes one Lean module component by splitting it at ``_``,
``.`` and ``-`` and capitalising the first letter of each part (``nat_dvd_facts`` → ``NatDvdFacts``,
``int_natAbs_cases`` → ``IntNatAbsCases``); a result that starts with a digit, or is a Lean keyword (``Type``,
``Sort``, ``Prop``), gets a ``P`` in front. Two ids with the same module name — compared case-insensitively, so
the layout also works on case-insensitive file systems — are an error naming both. The checkers of a problem live
in ``namespace PyShadow.Checkers.<Module>``.

**Checker names.** A problem with one target keeps ``shadow_<problem>_<i>`` / ``shadow_<problem>_complete``; with
several targets each target's checkers are ``shadow_<problem>_<target>_<i>``, where ``<target>`` is the target's
last name component (its full name, dots as ``_``, when two targets share the last component). Targets are always
referred to by their fully qualified names.

**Context.** A checker file re-opens what the reference's statements rely on: its ``universe`` names (plus the
``u_k`` that ``Type*`` binders become), its ``open`` commands (``open … in`` ones too, file-wide), and the target's
namespace and its prefixes (the reference states the target inside them). ``variable``s are not replayed: the
target's declaration already starts with the variables Lean includes in it (``references.included_variables``:
those its statement mentions, and their instances), and the manifest notes that the reference has some.

**Determinism.** The same inputs give byte-identical files; a file is written only when its bytes change (so
unchanged files keep their mtimes and Lake rebuilds nothing), atomically. Files that an earlier run listed in
``manifest.json`` and this run does not produce are removed; nothing else in the folder is touched.
"""

from __future__ import annotations

import functools
import hashlib
import json
import textwrap
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .version import __version__
from .errors import BadInput
from .files import write_atomically
from .paths import LEAN_TOOLCHAIN_FILE
from .problems import Problem, declared_names, reference_text
from .references import ReferenceTarget, reference_as_axioms, reference_sorry, reference_targets
from .syntax.scanner import declarations, lean_component, name_components, normalize_name
from .shadows.checkers import render_template
from .shadows.expert import CONSEQUENCE_KINDS, ExpertShadow
from .shadows.merge import MergeReport, provenances
from .syntax import render_term
from .syntax.declarations import command_starts
from .syntax.lexer import IDENT, code_tokens

MANIFEST = "manifest.json"
MANIFEST_SCHEMA = 1
ROOT_MODULE = "Checkers"
NAMESPACE_ROOT = "PyShadow.Checkers"
LAKE_PACKAGE = "pyshadow_checkers"
_KEYWORD_MODULES = frozenset({"Type", "Sort", "Prop"})
_TOOLCHAIN_RE = re.compile(r"leanprover/lean4:(v\d+\.\d+\.\d+(?:-rc\d+)?)")
# Mathlib's repository, required by URL and commit (no registry look-up): lake's TOML `[[require]]` with `git` and
# `rev` is `DependencySrc.git url rev` (leanprover/lean4 src/lake/Lake/Load/Toml.lean `Dependency.decodeToml`), and a
# full 40-hex `rev` is used as it is (src/lake/Lake/Util/Git.lean `resolveRemoteRevision`: `if rev.isFullSha1`).
MATHLIB_GIT = "https://github.com/leanprover-community/mathlib4"
# The Mathlib commit for each `lean-toolchain` pyshadow ships, whose own `lean-toolchain` is that line. v4.31.0:
# Mathlib's tag `v4.31.0`, commit "chore: bump toolchain to v4.31.0 (#40633)" (2026-06-15), as lake resolved the tag
# in public projects' manifests; every Mathlib entry of templates/lean/full_tier_index.json was read at this commit
# (docs/full-tier.md, "The Mathlib pin").
MATHLIB_COMMITS = {"leanprover/lean4:v4.31.0": "fabf563a7c95a166b8d7b6efca11c8b4dc9d911f"}


# ---------------------------------------------------------------------------------------------------------------
# Names


def module_name(problem_id: str) -> str:
    """The Lean module component for a problem id (see the module docstring)."""
    parts = [p for p in re.split(r"[_.\-]+", problem_id) if p]
    name = "".join(p[0].upper() + p[1:] for p in parts) or "P"
    if name[0].isdigit() or name in _KEYWORD_MODULES:
        name = "P" + name
    return name


def module_names(problem_ids: Sequence[str]) -> dict[str, str]:
    """``module_name`` of every id; ``BadInput`` when two ids map to the same module (case-insensitively)."""
    out: dict[str, str] = {}
    seen: dict[str, str] = {}
    for pid in problem_ids:
        name = module_name(pid)
        other = seen.get(name.lower())
        if other is not None:
            raise BadInput(f"problem ids {other!r} and {pid!r} both map to the Lean module name {name!r}; rename one")
        seen[name.lower()] = pid
        out[pid] = name
    return out


def mathlib_rev(toolchain: str) -> str:
    """The Mathlib revision for a ``lean-toolchain`` line: the commit of ``MATHLIB_COMMITS`` (built with that
    toolchain), else the tag Mathlib names after a Lean release (``v4.36.0``) — a convention, not checked here."""
    line = toolchain.strip()
    if line in MATHLIB_COMMITS:
        return MATHLIB_COMMITS[line]
    match = _TOOLCHAIN_RE.fullmatch(line)
    if match is None:
        raise BadInput(f"lean-toolchain: expected 'leanprover/lean4:vX.Y.Z', got {line!r}")
    return match.group(1)


# ---------------------------------------------------------------------------------------------------------------
# What the reference's statements rely on


@dataclass(frozen=True)
class ReferenceContext:
    """Commands of the reference that its statements depend on and that a checker file must repeat."""

    opens: tuple[str, ...]  # verbatim `open …` commands (`open … in` without the `in`)
    universes: tuple[str, ...]
    has_variables: bool  # a `variable` command: the target may have binders the checkers cannot see
    # `local notation …`, `attribute [local instance] …`: verbatim, for checker files in other modules (a file that
    # contains the reference itself already has them)
    local: tuple[str, ...] = ()


@functools.lru_cache(maxsize=256)  # scoring asks once per candidate for the same problem's reference
def reference_context(src: str) -> ReferenceContext:
    code = code_tokens(src)
    starts = command_starts(src, code)
    opens: list[str] = []
    universes: list[str] = []
    local: list[str] = []
    has_variables = False
    namespaces = _file_namespaces(src)
    scope: list[str | None] = []  # the enclosing `namespace`s (None for a `section`)
    for k, i in enumerate(starts):
        keyword = code[i].text
        j = starts[k + 1] if k + 1 < len(starts) else len(code)
        tokens = code[i:j]
        if keyword in ("namespace", "section"):
            scope.append(tokens[1].text if keyword == "namespace" and len(tokens) > 1 else None)
            continue
        if keyword == "end":
            if scope:
                scope.pop()
            continue
        if _is_local_context(tokens):
            # `local notation`/`local infix…`, `attribute [local instance] …`: they end with the reference's file,
            # but its statements are written with them, so checker files in other modules repeat them
            local.append(src[tokens[0].start : tokens[-1].end])
            continue
        if keyword not in ("open", "universe", "variable"):
            continue
        if keyword == "variable":
            has_variables = True
        elif keyword == "universe":
            universes.extend(t.text for t in tokens[1:] if t.kind == IDENT)
        else:
            if len(tokens) > 1 and tokens[-1].text == "in":
                tokens = tokens[:-1]
            if len(tokens) > 1:
                opens.append(_open_at_top_level(src[tokens[0].start : tokens[-1].end], tokens, scope, namespaces))
    return ReferenceContext(tuple(dict.fromkeys(opens)), tuple(dict.fromkeys(universes)), has_variables,
                            tuple(dict.fromkeys(local)))


_LOCAL_NOTATION = frozenset({"notation", "infix", "infixl", "infixr", "prefix", "postfix", "macro_rules", "syntax",
                             "macro"})


def _is_local_context(tokens) -> bool:
    """``local notation …`` (and the other notation commands) or ``attribute [local instance] …``."""
    texts = [t.text for t in tokens[:4]]
    if texts[:1] == ["local"] and len(texts) > 1 and texts[1] in _LOCAL_NOTATION:
        return True
    return texts[:1] == ["attribute"] and "local" in texts and "instance" in [t.text for t in tokens[:6]]


def _file_namespaces(src: str) -> frozenset[str]:
    """Every namespace the reference file itself declares (as ``namespace`` blocks or name prefixes)."""
    names: set[str] = set()
    for d in declarations(src):
        parts = normalize_name(d.qualified_name).split(".")[:-1]
        names.update(".".join(parts[: n + 1]) for n in range(len(parts)))
    return frozenset(names)


def _open_at_top_level(command: str, tokens, scope: Sequence[str | None], namespaces: frozenset[str]) -> str:
    """``open Inner`` written inside ``namespace Outer`` names ``Outer.Inner`` when the file declares that namespace
    (Lean resolves ``open`` against the enclosing namespaces); checker files repeat it at the top level, where a bare
    ``open Inner`` would be an unknown namespace and fail the whole file. Other forms are kept verbatim."""
    enclosing = ".".join(n for n in scope if n)
    if not enclosing or not all(t.kind == IDENT for t in tokens[1:]):
        return command
    prefixes = [".".join(enclosing.split(".")[: n]) for n in range(len(enclosing.split(".")), 0, -1)]

    def resolve(name: str) -> str:
        return next((f"{p}.{name}" for p in prefixes if f"{p}.{name}" in namespaces), name)

    return " ".join([tokens[0].text, *(resolve(t.text) for t in tokens[1:])])


def namespace_opens(targets: Sequence[str]) -> tuple[str, ...]:
    """``open A A.B`` for a target ``A.B.foo``: the namespaces the reference stated it inside."""
    names: list[str] = []
    for target in targets:
        parts = [lean_component(c) for c in name_components(target) if c != "_root_"][:-1]  # «…» kept
        names.extend(".".join(parts[: n + 1]) for n in range(len(parts)))
    names = list(dict.fromkeys(names))
    return (f"open {' '.join(names)}",) if names else ()


# ---------------------------------------------------------------------------------------------------------------
# Planning: every target's shadows and checkers


TargetPlan = ReferenceTarget  # a workspace target is the one prepared target (``pyshadow.references``)


@dataclass
class ProblemPlan:
    problem: Problem
    module: str
    source: str  # the reference text
    context: ReferenceContext
    targets: list[TargetPlan]
    notes: list[str] = field(default_factory=list)

    @property
    def namespace(self) -> str:
        return f"{NAMESPACE_ROOT}.{self.module}"

    @property
    def folder(self) -> str:
        return f"{ROOT_MODULE}/{self.module}"

    def module_of(self, kind: str) -> str:
        return f"{ROOT_MODULE}.{self.module}.{kind}"

    def file_of(self, kind: str) -> str:
        return f"{self.folder}/{kind}.lean"

    @property
    def errors(self) -> list[str]:
        """What keeps this problem out of a workspace: targets without checkers, expert shadows that do not parse."""
        return [fix for t in self.targets for fix in (t.fixes or ([t.error] if t.error else []))]


def plan_problem(problem: Problem, module: str) -> ProblemPlan:
    """Every target of ``problem`` prepared (``reference_targets``: never raises; see ``ProblemPlan.errors``)."""
    src = reference_text(problem)
    context = reference_context(src)
    notes = []
    if context.has_variables:
        notes.append("the reference has `variable` commands: each target's binders start with the variables Lean "
                     "includes in it (`references.included_variables`)")
    return ProblemPlan(problem, module, src, context, list(reference_targets(problem, src)), notes)


def merge_into(plan: TargetPlan, shadows: Sequence[ExpertShadow]) -> MergeReport:
    """Merge ``shadows`` into ``plan`` and rebuild its checkers."""
    return plan.merge(shadows)


@dataclass
class WorkspaceBuild:
    """What ``build_workspace`` made: the problems given checkers, those left out (with why), and the files."""

    plans: list[ProblemPlan]
    skipped: list[tuple[str, str]]  # (problem id or folder, one-line reason)
    files: dict[str, bytes]
    manifest: dict


def build_workspace(problems: Sequence[Problem], *, refine=None, toolchain: str | None = None) -> WorkspaceBuild:
    """Plan every problem, leave out (and report) the ones a checker set cannot be made for, render the rest.

    ``refine(plan)`` runs on each usable plan before rendering (``generate --llm``). Two problems sharing a module
    name or a declared name are bad input for the whole set (the root module could not import both).
    """
    modules = module_names([p.id for p in problems])
    plans, skipped = [], []
    for problem in problems:
        plan = plan_problem(problem, modules[problem.id])
        if plan.errors:
            skipped.append((problem.id, "; ".join(plan.errors)))
            continue
        plans.append(plan)
    check_declaration_clashes(plans)
    for plan in plans:
        if refine is not None:
            refine(plan)
    files, manifest = render_workspace(plans, read_toolchain() if toolchain is None else toolchain)
    return WorkspaceBuild(plans, skipped, files, manifest)


def check_declaration_clashes(plans: Sequence[ProblemPlan]) -> None:
    """``BadInput`` when two references declare the same name: the root module could not import both."""
    owner: dict[str, str] = {}
    for plan in plans:
        for name in sorted(declared_names(plan.source)):
            other = owner.setdefault(name, plan.problem.id)
            if other != plan.problem.id:
                raise BadInput(f"problems {other!r} and {plan.problem.id!r} both declare {name!r}; "
                               f"{ROOT_MODULE}.lean could not import both — rename or namespace one")


# ---------------------------------------------------------------------------------------------------------------
# Rendering


def render_workspace(plans: Sequence[ProblemPlan], toolchain: str) -> tuple[dict[str, bytes], dict]:
    """Every file of the workspace (relative path → bytes), the manifest included, and the manifest itself."""
    rev = mathlib_rev(toolchain)
    needs_mathlib = any(p.problem.needs_mathlib for p in plans)
    files: dict[str, bytes] = {
        "lakefile.toml": render_template(
            "lakefile.toml.j2",
            {"name": LAKE_PACKAGE, "mathlib_git": MATHLIB_GIT, "mathlib_rev": rev if needs_mathlib else None},
        ).encode(),
        "lean-toolchain": toolchain.encode(),
    }
    problems: dict[str, dict] = {}
    for plan in plans:
        files[plan.file_of("Reference")] = reference_module_text(plan).encode()
        forward, backward = _checker_file(plan, "forward"), _checker_file(plan, "backward")
        files[plan.file_of("Forward")] = forward.encode()
        files[plan.file_of("Backward")] = backward.encode()
        problems[plan.problem.id] = _problem_manifest(plan, {"Forward": forward, "Backward": backward})
    modules = [plan.module_of(kind) for plan in plans for kind in ("Reference", "Forward", "Backward")]
    files[f"{ROOT_MODULE}.lean"] = render_template(
        "lean/root.lean.j2", {"modules": modules, "count": len(plans)}
    ).encode()
    manifest = {
        "schema": MANIFEST_SCHEMA,
        "generator": f"pyshadow {__version__}",
        "lean_toolchain": toolchain.strip(),
        "mathlib": rev if needs_mathlib else None,
        "files": {path: _sha256(data) for path, data in sorted(files.items())},
        "problems": problems,
        "residual_targets": [
            {"problem": plan.problem.id, "target": t.name} for plan in plans for t in plan.targets if t.residual
        ],
    }
    files[MANIFEST] = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()
    return files, manifest


def _checker_file(plan: ProblemPlan, kind: str) -> str:
    if kind == "forward":
        checkers = [c for t in plan.targets for c in t.checkers.forward]
        title = f"Forward checkers of `{plan.problem.id}`"
        summary = [
            "Each theorem proves one shadow of a target from the target itself, tried three ways (direct",
            "application, let-bound, argument-agnostic `apply … <;> assumption`); expert and LLM shadows are",
            "consequences, reached with `simpa`. Checked against the reference, they show the reference implies",
            "every shadow; against a candidate, that the candidate does.",
        ]
    else:
        checkers = [c.backward for c in (t.checkers for t in plan.targets) if c.backward is not None]
        llm = [t.llm_certificate for t in plan.targets if t.llm_certificate is not None]
        title = f"Backward certificates of `{plan.problem.id}`"
        summary = [
            "Each theorem takes a target's generated shadows as hypotheses (quantified over the target's binders)",
            "and proves the target's statement: the shadow set is complete.",
        ]
        if llm:
            summary.append("Certificates marked `-- provenance: llm:…` were proposed by a model for a residual")
            summary.append("target (from its added shadows) and are checked by Lean like every other certificate.")
        checkers += llm
        if not checkers:
            summary.append("No target here has one: every target is residual (its identity shadow only).")
    summary += ["", "Targets:"] + [_target_line(t) for t in plan.targets]
    summary += ["", "Generated by `pyshadow generate`; do not edit — rerun it."]
    universes = list(plan.context.universes)
    for t in plan.targets:  # `theorem foo.{u}` and the `u_k` of `Type*` binders
        universes.extend(u for u in (*t.declaration.universes, *t.checkers.universes) if u not in universes)
    imports = list(dict.fromkeys([*plan.problem.imports, plan.module_of("Reference")]))
    return render_template("lean/checker_file.lean.j2", {
        "imports": imports,
        "title": title,
        "summary": summary,
        "universes": universes,
        "opens": [*plan.context.opens, *namespace_opens(plan.problem.targets), *plan.context.local],
        "namespace": plan.namespace,
        "checkers": checkers,
    })


def _target_line(t: TargetPlan) -> str:
    n = len(t.merged.shadows)
    extra = f", {t.added_shadows} of them expert/LLM" if t.added_shadows else ""
    state = "residual: identity shadow only" if t.residual else "decomposed"
    return f"* `{t.name}`: {n} shadow{'s' if n != 1 else ''}{extra} ({state})"


def _problem_manifest(plan: ProblemPlan, texts: Mapping[str, str]) -> dict:
    spans = {kind: _spans(text) for kind, text in texts.items()}
    targets = []
    for t in plan.targets:
        checkers = []
        for c in t.checkers.checkers:
            kind = "Forward" if c.kind == "forward" else "Backward"
            first, last = spans[kind][c.name]
            checkers.append({
                "name": c.name,
                "qualified_name": f"{plan.namespace}.{c.name}",
                "kind": c.kind,
                "shadow": None if c.shadow_index is None else c.shadow_index + 1,
                "file": plan.file_of(kind),
                "lines": [first, last],
                "sha256": _sha256(c.text.encode()),
            })
        targets.append({
            "name": t.name,
            "status": t.generated.status,
            "residual": t.residual,
            "shadows": [
                {
                    "index": i,
                    "kind": s.kind,
                    "path": None if s.kind in CONSEQUENCE_KINDS else s.path_text,
                    "statement": render_term(s.statement),
                    "provenance": list(provenances(s)),
                }
                for i, s in enumerate(t.merged.shadows, start=1)
            ],
            "checkers": checkers,
            "llm": t.llm,
        })
        if t.llm_certificate is not None:
            c = t.llm_certificate
            first, last = spans["Backward"][c.name]
            checkers.append({
                "name": c.name,
                "qualified_name": f"{plan.namespace}.{c.name}",
                "kind": c.kind,
                "shadow": None,
                "file": plan.file_of("Backward"),
                "lines": [first, last],
                "sha256": _sha256(c.text.encode()),
                "provenance": (t.llm or {}).get("certificate", {}).get("provenance"),
            })
    return {
        "module": plan.module,
        "namespace": plan.namespace,
        "needs_mathlib": plan.problem.needs_mathlib,
        "files": {kind.lower(): plan.file_of(kind) for kind in ("Reference", "Forward", "Backward")},
        "targets": targets,
        "residual_targets": [t.name for t in plan.targets if t.residual],
        # targets proved with `sorry`, stated as axioms in Reference.lean: a checker's `#print axioms` lists them
        # (and Lean's standard axioms), never `sorryAx`
        "reference_axioms": [t for t, admitted in reference_sorry(plan.source, plan.problem.targets).items()
                             if admitted],
        "notes": plan.notes,
    }


def reference_module_text(plan: ProblemPlan) -> str:
    """The reference file, with each target proved by ``sorry`` stated as an ``axiom`` (issue #16, class 6), and —
    when it declares anything at the root — inside ``namespace <plan.namespace>`` (``in_own_namespace``). When a
    target became an axiom, a comment at the top says which and why (``axiom_header``)."""
    text = reference_as_axioms(plan.source, plan.problem.targets, only_admitted=True)
    wrapped = bool(root_declarations(plan.source))
    text = in_own_namespace(text, plan.namespace) if wrapped else text
    admitted = [t for t, a in reference_sorry(plan.source, plan.problem.targets).items() if a]
    return axiom_header(plan, admitted, wrapped) + text if admitted else text


def axiom_header(plan: ProblemPlan, admitted: Sequence[str], wrapped: bool) -> str:
    """The comment that opens a generated ``Reference.lean`` whose targets ``admitted`` (proved with ``sorry`` by
    the author) are restated as axioms. A comment may precede the ``import`` lines: Lean's module header allows
    whitespace and comments before them, as every Mathlib file's copyright comment does (e.g.
    mathlib4 Mathlib/Logic/Basic.lean)."""
    names = ", ".join(f"`{t}`" for t in admitted)
    lines = [f"Generated by pyshadow from the reference of problem {plan.problem.id} "
             f"({plan.problem.reference_relpath}); do not edit — edit that file and regenerate.",
             f"{'Targets' if len(admitted) > 1 else 'Target'} {names}, proved with `sorry` there, "
             f"{'are' if len(admitted) > 1 else 'is'} stated here as `axiom` (the proof dropped, the statement "
             "unchanged): completeness is a property of a target's statement, so a checker's `#print axioms` lists "
             "the target itself instead of `sorryAx`, and the author's `sorry` cannot make every checker look "
             "unsound. Everything else is the reference verbatim"
             + (f", inside `namespace {plan.namespace}` (its root names would clash with Mathlib's)." if wrapped
                else ".")]
    body = "\n".join(textwrap.fill(line, 110) for line in lines).replace("-/", "- /")
    return f"/-\n{body}\n-/\n\n"


def root_declarations(src: str) -> list[str]:
    """The names ``src`` declares at the root (no namespace, no dot): the ones that could clash with a root name
    of Mathlib or of another imported module."""
    return [d.qualified_name for d in declarations(src) if "." not in normalize_name(d.qualified_name)]


def in_own_namespace(src: str, namespace: str) -> str:
    """``src`` (a reference) with everything after its ``import`` lines inside ``namespace … end``.

    ``Checkers.lean`` imports every problem's modules, Mathlib's among them: a core-only reference's root
    ``theorem exists_prime_ge`` would clash with a Mathlib declaration of that name. Inside the checkers' own
    namespace it is ``<namespace>.exists_prime_ge``, and the checkers — in the same namespace — still find it by
    the name the problem gives (lean4 src/Lean/ResolveName.lean ``resolveGlobalName``: the current namespace and
    its prefixes are tried before the root and before ``open``s). The limit: a reference that also writes into a
    library namespace (``namespace Nat … succ …``) then resolves there relative to ``<namespace>.Nat`` — an error
    at ``lake build``, never a silent change."""
    code = code_tokens(src)
    starts = command_starts(src, code)
    body = 0
    for k, i in enumerate(starts):
        if code[i].text != "import":
            break
        j = starts[k + 1] if k + 1 < len(starts) else len(code)
        body = code[j - 1].end
    head, rest = src[:body].rstrip(), src[body:].strip()
    return f"{head + chr(10) * 2 if head else ''}namespace {namespace}\n\n{rest}\n\nend {namespace}\n"


def _spans(text: str) -> dict[str, tuple[int, int]]:
    """Checker name → (first, last) line, 1-based, of its declaration from docstring to proof: the
    ``DeclarationSpan`` the runner judges (the ``#print axioms`` line after it is attributed to it too)."""
    lines = text.split("\n")
    spans: dict[str, tuple[int, int]] = {}
    for n, line in enumerate(lines):
        if not line.startswith("theorem "):
            continue
        first = n if n > 0 and lines[n - 1].startswith("/--") else n + 1
        end = n
        while end + 1 < len(lines) and lines[end + 1].strip():
            end += 1
        spans[line.split(" ", 2)[1]] = (first, end + 1)
    return spans


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------------------------------------------
# Writing


@dataclass(frozen=True)
class WriteReport:
    written: tuple[str, ...]
    unchanged: tuple[str, ...]
    removed: tuple[str, ...]


def write_workspace(root: Path, files: Mapping[str, bytes]) -> WriteReport:
    """Write ``files`` under ``root``: only those whose bytes differ, atomically; remove what the previous
    manifest listed and this one does not. ``BadInput`` when ``root`` exists and is not a folder."""
    if root.exists() and not root.is_dir():
        raise BadInput(f"{root}: expected a folder for the workspace, found a file")
    previous = _previous_files(root)
    _refuse_foreign_lakefile(root, files, previous)
    written, unchanged = [], []
    for rel, data in sorted(files.items()):
        path = root / rel
        if _same_bytes(path, data):
            unchanged.append(rel)
            continue
        write_atomically(path, data)
        written.append(rel)
    removed = []
    for rel in sorted(set(previous) - set(files)):
        path = root / rel
        if path.is_file():
            path.unlink()
            removed.append(rel)
            _remove_empty_parents(path.parent, root)
    return WriteReport(tuple(written), tuple(unchanged), tuple(removed))


GENERATED_MARK = "# Generated by `pyshadow generate`"


def _refuse_foreign_lakefile(root: Path, files: Mapping[str, bytes], previous: Sequence[str]) -> None:
    """Never overwrite a ``lakefile.toml`` that pyshadow did not write (no generated mark, not in the previous
    manifest): generating into an existing Lake project — the repository root included, until its lakefile is
    the generated one — must not silently replace its configuration."""
    path = root / "lakefile.toml"
    if "lakefile.toml" not in files or not path.is_file() or "lakefile.toml" in previous:
        return
    if not path.read_text(encoding="utf-8", errors="replace").startswith(GENERATED_MARK):
        raise BadInput(f"{path}: a lakefile.toml pyshadow did not generate; refusing to overwrite it "
                       f"(move it away, or generate into another folder)")


def _previous_files(root: Path) -> list[str]:
    """The files an earlier run generated (from its manifest); [] when there is none or it is unreadable."""
    try:
        manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
        listed = manifest.get("files", {})
    except (OSError, ValueError, AttributeError):
        return []
    # Only relative paths inside the workspace: a hand-edited manifest must not make us delete elsewhere.
    return [rel for rel in listed if isinstance(rel, str) and not Path(rel).is_absolute() and ".." not in Path(rel).parts]


def _same_bytes(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def _remove_empty_parents(folder: Path, root: Path) -> None:
    root = root.resolve()
    folder = folder.resolve()
    while folder != root and root in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def read_toolchain(path: Path = LEAN_TOOLCHAIN_FILE) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as err:
        raise BadInput(f"{path}: cannot read: {err.strerror or err}") from None

