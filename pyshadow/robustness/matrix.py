"""The robustness matrix: every checker of a problem against every variant of its reference.

For each target of each problem, the rows are the reference itself (a sanity row), its faithful variants and its
negative controls (``pyshadow.robustness.variants``); the columns are the reference's checkers — ``forward:i`` for
shadow *i* of its decomposition, and ``backward``. A cell is pass/fail with Lean's message when it fails.

The summary reads the matrix two ways:

- per rewrite kind, the fraction of checker cells that survive it (passed / scored);
- **false negatives**: a checker failing a faithful variant (the variant means the same, the checker says no);
  **blind controls**: a control every checker passes (the checker set cannot see that change of meaning).

``report_to_dict`` is the JSON written by ``pyshadow robustness`` (format ``pyshadow-robustness/1``, read back by
``pyshadow diff``); ``render_markdown`` the readable table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..problems import Problem, load_problems
from ..references import reference_targets
from ..shadows import decompose
from ..syntax import render_declaration, render_term
from ..syntax.ast import Declaration
from .tiers import Tier, VariantJob
from .variants import CONTROL, FAITHFUL, KINDS, Variant, VariantFailure, generate_variants

FORMAT = "pyshadow-robustness/1"
REFERENCE_ROW = "reference"
BACKWARD = "backward"


@dataclass(frozen=True)
class CheckerInfo:
    id: str  # "forward:i" | "backward"
    kind: str  # the shadow's kind, or "backward"
    path: str
    statement: str

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "path": self.path, "statement": self.statement}


@dataclass(frozen=True)
class Cell:
    passed: bool
    message: str | None = None

    def to_dict(self) -> dict:
        return {"pass": self.passed, "message": self.message}


@dataclass
class Row:
    variant: Variant
    cells: dict[str, Cell] = field(default_factory=dict)
    error: str | None = None

    @property
    def accepted(self) -> bool:
        """Every checker passes (the variant would score skeleton SA-Pass 1)."""
        return self.error is None and bool(self.cells) and all(c.passed for c in self.cells.values())

    def to_dict(self) -> dict:
        return {**self.variant.to_dict(), "accepted": self.accepted, "error": self.error,
                "cells": {k: c.to_dict() for k, c in self.cells.items()}}


@dataclass
class TargetMatrix:
    problem_id: str
    target: str
    mathlib: bool
    reference: str  # the reference declaration's header
    checkers: list[CheckerInfo]
    rows: list[Row]
    failures: list[VariantFailure] = field(default_factory=list)
    error: str | None = None  # the reference could not be read

    def row(self, variant_id: str) -> Row:
        return next(r for r in self.rows if r.variant.id == variant_id)

    def to_dict(self) -> dict:
        return {"problem": self.problem_id, "target": self.target, "mathlib": self.mathlib,
                "reference": self.reference, "error": self.error,
                "checkers": [c.to_dict() for c in self.checkers], "rows": [r.to_dict() for r in self.rows],
                "unparsable_variants": [f.to_dict() for f in self.failures]}


@dataclass(frozen=True)
class KindSummary:
    kind: str
    role: str
    variants: int
    accepted: int  # variants every checker passes
    cells: int
    passed: int

    @property
    def survival(self) -> float:
        return self.passed / self.cells if self.cells else 1.0

    def to_dict(self) -> dict:
        return {"kind": self.kind, "role": self.role, "variants": self.variants, "accepted": self.accepted,
                "cells": self.cells, "passed": self.passed, "survival": round(self.survival, 4)}


@dataclass(frozen=True)
class Finding:
    """One false negative (a checker failing a faithful variant) or one blind control."""

    problem_id: str
    target: str
    variant: str
    kind: str
    checker: str | None
    message: str | None

    def to_dict(self) -> dict:
        return {"problem": self.problem_id, "target": self.target, "variant": self.variant, "kind": self.kind,
                "checker": self.checker, "message": self.message}


@dataclass
class RobustnessReport:
    tier: str
    tier_description: str
    problems_dir: str
    targets: list[TargetMatrix]
    problem_errors: list[str] = field(default_factory=list)
    tiers: list | None = None  # ``agreement.TierCell`` per scored cell (kernel tier only), None when not compared

    def tiers_disagree(self, *, before: bool = False) -> list:
        """Faithful cells the kernel tier passes whose full-tier checker text has no alternative built from the same
        term (``before``: not counting the skeleton alternative)."""
        return [c for c in self.tiers or () if c.role == FAITHFUL and c.kernel
                and not (c.before if before else c.full_text)]

    def kinds(self) -> list[KindSummary]:
        order: dict[str, list[Row]] = {}
        for t in self.targets:
            for r in t.rows:
                order.setdefault(r.variant.kind, []).append(r)
        rank = {k: i for i, k in enumerate((REFERENCE_ROW, *KINDS))}
        out = []
        for kind, rows in sorted(order.items(), key=lambda item: rank.get(item[0], len(rank))):
            cells = [c for r in rows for c in r.cells.values()]
            out.append(KindSummary(kind, rows[0].variant.role, len(rows), sum(r.accepted for r in rows),
                                   len(cells), sum(c.passed for c in cells)))
        return out

    def false_negatives(self) -> list[Finding]:
        found = []
        for t in self.targets:
            for r in t.rows:
                if r.variant.role != FAITHFUL:
                    continue
                if r.error is not None:
                    found.append(Finding(t.problem_id, t.target, r.variant.id, r.variant.kind, None, r.error))
                for cid, c in r.cells.items():
                    if not c.passed:
                        found.append(Finding(t.problem_id, t.target, r.variant.id, r.variant.kind, cid, c.message))
        return found

    def blind_controls(self) -> list[Finding]:
        return [Finding(t.problem_id, t.target, r.variant.id, r.variant.kind, None, "every checker passes")
                for t in self.targets for r in t.rows if r.variant.role == CONTROL and r.accepted]

    def controls(self) -> tuple[int, int]:
        """(controls rejected, controls scored)."""
        rows = [r for t in self.targets for r in t.rows if r.variant.role == CONTROL]
        return sum(not r.accepted for r in rows), len(rows)

    def unparsable(self) -> list[tuple[str, str, VariantFailure]]:
        return [(t.problem_id, t.target, f) for t in self.targets for f in t.failures]

    @property
    def clean(self) -> bool:
        """No false negative, no blind control, every rewrite parsed, every reference read."""
        return (not self.false_negatives() and not self.blind_controls() and not self.unparsable()
                and not self.problem_errors and all(t.error is None for t in self.targets))


# ---------------------------------------------------------------------------------------------------------------
# Building


@dataclass(frozen=True)
class TargetInput:
    problem: Problem
    target: str
    declaration: Declaration | None
    error: str | None = None


def load_targets(problems_dir: Path) -> tuple[list[TargetInput], list[str]]:
    """Every target of every problem under ``problems_dir`` with its parsed reference declaration
    (``pyshadow.references.reference_targets``; a target that cannot be read carries its error)."""
    problems, errors = load_problems(problems_dir)
    targets = []
    for problem in problems:
        for t in reference_targets(problem):
            if t.declaration is None or t.declaration.type is None:
                targets.append(TargetInput(problem, t.name, None, t.error or "the target states no type"))
            else:
                targets.append(TargetInput(problem, t.name, t.declaration))
    return targets, [str(e) for e in errors]


def reference_variant(decl: Declaration) -> Variant:
    return Variant(REFERENCE_ROW, REFERENCE_ROW, FAITHFUL, True, "the reference itself",
                   render_declaration(decl), decl)


def checker_columns(decl: Declaration, mathlib: bool) -> list[CheckerInfo]:
    dec = decompose(decl, mathlib=mathlib)
    cols = [CheckerInfo(f"forward:{i}", s.kind, s.path_text, render_term(s.statement))
            for i, s in enumerate(dec.shadows, start=1)]
    cols.append(CheckerInfo(BACKWARD, BACKWARD, "", render_term(decl.type)))
    return cols


def build_report(targets: Sequence[TargetInput], tier: Tier, *, problems_dir: str = "",
                 problem_errors: Sequence[str] = (), kinds: Sequence[str] | None = None) -> RobustnessReport:
    """Generate the variants of every target, score them all with ``tier`` in one batch, fill the matrix."""
    matrices: list[TargetMatrix] = []
    jobs: list[VariantJob] = []
    placed: dict[str, tuple[TargetMatrix, Row]] = {}
    for n, t in enumerate(targets):
        mathlib = t.problem.needs_mathlib
        if t.declaration is None:
            matrices.append(TargetMatrix(t.problem.id, t.target, mathlib, "", [], [], error=t.error))
            continue
        variants, failures = generate_variants(t.declaration, mathlib=mathlib, kinds=kinds)
        rows = [Row(v) for v in [reference_variant(t.declaration), *variants]]
        m = TargetMatrix(t.problem.id, t.target, mathlib, render_declaration(t.declaration, with_prefix=False),
                         checker_columns(t.declaration, mathlib), rows, failures)
        matrices.append(m)
        for row in rows:
            key = f"t{n}:{row.variant.id}"
            jobs.append(VariantJob(key, t.problem.id, t.target, t.declaration, row.variant, mathlib))
            placed[key] = (m, row)
    verdicts = tier.score(jobs) if jobs else {}
    for key, (m, row) in placed.items():
        v = verdicts.get(key)
        row.error = v.error if v is not None else "no verdict from the tier"
        for c in m.checkers:
            ok = v is not None and v.error is None and bool(v.passed.get(c.id, False))
            if ok:
                message = None
            elif v is None or v.error is not None:
                message = row.error
            else:
                message = v.messages.get(c.id) or ("rejected (the tier gave no reason)" if c.id in v.passed
                                                   else "no verdict for this checker")
            row.cells[c.id] = Cell(ok, message)
    report = RobustnessReport(tier.name, tier.description, problems_dir, matrices, list(problem_errors))
    if tier.name == "kernel":  # the full tier's checker texts, compared with the terms the kernel tier checked
        from .agreement import tier_cells

        report.tiers = tier_cells(matrices, targets)
    return report


# ---------------------------------------------------------------------------------------------------------------
# Reports


def report_to_dict(report: RobustnessReport) -> dict:
    rejected, controls = report.controls()
    return {
        "format": FORMAT,
        "tier": report.tier,
        "tier_description": report.tier_description,
        "problems_dir": report.problems_dir,
        "summary": {
            "kinds": [k.to_dict() for k in report.kinds()],
            "false_negatives": [f.to_dict() for f in report.false_negatives()],
            "blind_controls": [f.to_dict() for f in report.blind_controls()],
            "controls_rejected": rejected,
            "controls": controls,
            "unparsable_variants": len(report.unparsable()),
            "problem_errors": report.problem_errors,
            "tiers_disagree": None if report.tiers is None else [c.to_dict() for c in report.tiers_disagree()],
            "tiers_disagree_before": None if report.tiers is None else len(report.tiers_disagree(before=True)),
        },
        "tiers": None if report.tiers is None else [c.to_dict() for c in report.tiers],
        "targets": [t.to_dict() for t in report.targets],
    }


def group_findings(findings: Sequence[Finding]) -> list[tuple[str, str, list[str], str]]:
    """Findings grouped by (problem, variant, message): one line per variant instead of one per checker."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for f in findings:
        groups.setdefault((f.problem_id, f.variant, f.message or ""), []).append(f.checker or "all")
    return [(p, v, checkers, m) for (p, v, m), checkers in groups.items()]


def _md(text: str | None, limit: int = 160) -> str:
    text = " ".join((text or "").split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _code(text: str) -> str:
    return f"`{text}`" if "`" not in text else f"``{text}``"


def render_markdown(report: RobustnessReport) -> str:
    rejected, controls = report.controls()
    lines = [f"# Robustness matrix — {report.tier_description}", ""]
    if report.problems_dir:
        lines += [f"Problems: `{report.problems_dir}`.", ""]
    lines += ["## Summary", "",
              "| rewrite kind | role | variants | accepted by every checker | checker cells survived | fraction |",
              "| --- | --- | ---: | ---: | ---: | ---: |"]
    for k in report.kinds():
        lines.append(f"| `{k.kind}` | {k.role} | {k.variants} | {k.accepted} | {k.passed}/{k.cells} "
                     f"| {100 * k.survival:.1f}% |")
    lines.append("")
    fns = report.false_negatives()
    lines.append(f"**False negatives** (a checker failing a faithful variant): {len(fns) or 'none'}")
    lines += [f"- `{p}` `{v}` × {', '.join(f'`{c}`' for c in cs)}: {_md(m)}" for p, v, cs, m in group_findings(fns)]
    lines.append("")
    blind = report.blind_controls()
    lines.append(f"**Controls rejected**: {rejected}/{controls}. Blind controls (every checker passes a change of "
                 f"meaning): {len(blind) or 'none'}")
    lines += [f"- `{f.problem_id}` `{f.variant}`" for f in blind]
    if report.tiers is not None:
        lines += ["", *tier_lines(report)]
    bad = report.unparsable()
    if bad:
        lines += ["", f"**Rewrites that did not parse back** (generator bugs): {len(bad)}"]
        lines += [f"- `{p}` `{f.kind}`: {_md(f.error)}" for p, _, f in bad]
    if report.problem_errors:
        lines += ["", "**Problems not loaded**:"] + [f"- {_md(e, 400)}" for e in report.problem_errors]
    for t in report.targets:
        lines += ["", f"## `{t.problem_id}` — `{t.target}`", ""]
        if t.error:
            lines.append(f"Not scored: {t.error}")
            continue
        lines += [_code(_md(t.reference, 400)), ""]
        heads = [f"{c.id} ({c.kind} `{c.path}`)" if c.path else c.id for c in t.checkers]
        lines.append("| variant | role | " + " | ".join(heads) + " |")
        lines.append("| --- | --- | " + " | ".join(":---:" for _ in heads) + " |")
        notes = []
        for r in t.rows:
            marks = []
            for c in t.checkers:
                cell = r.cells.get(c.id)
                marks.append("✓" if cell and cell.passed else "✗")
                if cell and not cell.passed:
                    notes.append(f"- `{r.variant.id}` × `{c.id}`: {_md(cell.message)}")
            lines.append(f"| `{r.variant.id}` | {r.variant.role} | " + " | ".join(marks) + " |")
        if notes:
            lines += ["", "<details><summary>why cells failed</summary>", "", *notes, "", "</details>"]
    lines.append("")
    return "\n".join(lines)


def tier_lines(report: RobustnessReport) -> list[str]:
    """The two tiers side by side, per rewrite kind, and the cells where they disagree."""
    lines = ["## Two tiers", "",
             "A column per tier: the kernel tier's cells passed, and the full tier's checker texts (for the variant "
             "scored as a candidate) that try the very term the kernel tier accepted, de-abstracted. Whether Lean "
             "with `Init`/Mathlib accepts that text needs a full toolchain.", "",
             "| rewrite kind | role | kernel tier: cells passed | full tier (text): kernel's term tried "
             "| … without the skeleton alternative |",
             "| --- | --- | ---: | ---: | ---: |"]
    by_kind: dict[str, list] = {}
    for c in report.tiers or ():
        by_kind.setdefault(c.kind, []).append(c)
    rank = {k: i for i, k in enumerate((REFERENCE_ROW, *KINDS))}
    for kind, cells in sorted(by_kind.items(), key=lambda item: rank.get(item[0], len(rank))):
        passed = [c for c in cells if c.kernel]
        lines.append(f"| `{kind}` | {cells[0].role} | {len(passed)}/{len(cells)} "
                     f"| {sum(c.full_text for c in passed)}/{len(passed)} | {sum(c.before for c in passed)}/{len(passed)} |")
    disagree, before = report.tiers_disagree(), report.tiers_disagree(before=True)
    lines += ["", f"**Tiers disagree** (faithful cells the kernel tier passes, no full-tier alternative from the "
                  f"same term): {len(disagree) or 'none'} (without the skeleton alternative: {len(before)})"]
    lines += [f"- `{c.problem_id}` `{c.variant}` × `{c.checker}`: {_md(c.why)}" for c in disagree]
    return lines


def summary_lines(report: RobustnessReport) -> list[str]:
    """The few lines ``pyshadow robustness`` prints."""
    lines = [f"{'rewrite kind':<24} {'role':<8} {'variants':>8} {'survived':>12}"]
    for k in report.kinds():
        lines.append(f"{k.kind:<24} {k.role:<8} {k.variants:>8} {f'{k.passed}/{k.cells}':>12} "
                     f"{100 * k.survival:5.1f}%")
    for p, v, cs, m in group_findings(report.false_negatives()):
        lines.append(f"false negative: {p} {v} × {', '.join(cs)}: {_md(m, 200)}")
    for f in report.blind_controls():
        lines.append(f"blind control: {f.problem_id} {f.variant} passes every checker")
    for p, _, f in report.unparsable():
        lines.append(f"unparsable variant: {p} {f.kind}: {_md(f.error, 200)}")
    if report.tiers is not None:
        lines.append(f"tiers disagree: {len(report.tiers_disagree())} faithful cells "
                     f"(without the skeleton alternative: {len(report.tiers_disagree(before=True))})")
    rejected, controls = report.controls()
    faithful = [r for t in report.targets for r in t.rows if r.variant.role == FAITHFUL]
    lines.append(f"{len(report.targets)} targets; faithful variants accepted {sum(r.accepted for r in faithful)}/"
                 f"{len(faithful)}; controls rejected {rejected}/{controls}; "
                 f"false negatives {len(report.false_negatives())}")
    return lines
