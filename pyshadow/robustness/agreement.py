"""Do the two tiers agree? For each robustness cell the kernel tier passes, does the full tier's checker text try
the same proof term?

The kernel tier scores a variant by the skeleton search (``pyshadow.kernel.skeleton``) over abstract constants.
The full tier writes, per checker, ``first | exact … | …`` alternatives, the last of which is the same search's
term de-abstracted (``pyshadow.score.skeleton_terms``). A cell *agrees* when the full tier's checker text for the
variant — built exactly as ``pyshadow score --tier full`` builds it, from the variant written out as a candidate
file — contains the alternative ``exact <concrete term>`` where the concrete term is printed from the search the
kernel tier ran on that cell. A kernel-passing cell without such an alternative is listed as *tiers disagree*:
the full tier would have to find the proof another way, and the paper's three fixed alternatives often cannot.

``before`` says whether the alternative was there without the skeleton line (one of the three fixed alternatives
written the same term): the count of disagreeing cells before this alternative existed.

Only text is compared here: whether Lean with ``Init``/Mathlib accepts the concrete term needs a full toolchain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..kernel.skeleton import SkeletonPair, skeleton_search
from ..problems import Problem
from ..score.candidates import Candidate
from ..score.full import candidate_check_file
from ..score.pipeline import (
    ProblemInfo,
    prepare_candidate,
    prepare_problem,
    rename_identifiers,
)
from ..kernel.concrete import concrete_terms
from ..score.skeleton_terms import ALTERNATIVE_COMMENT, exact_line
from ..syntax import render_declaration
from ..syntax.ast import Declaration
from ..syntax.scanner import declarations, normalize_name


@dataclass(frozen=True)
class TierCell:
    """One (variant, checker) cell seen by both tiers."""

    problem_id: str
    target: str
    variant: str
    kind: str
    role: str  # faithful | control
    checker: str  # forward:i | backward
    kernel: bool  # the kernel tier passed it
    full_text: bool  # the full tier's checker text holds the kernel term's alternative
    before: bool  # … even without the skeleton alternative
    why: str | None = None  # why there is no alternative (no term, not printable, not found in the text)

    def to_dict(self) -> dict:
        return {"problem": self.problem_id, "target": self.target, "variant": self.variant, "kind": self.kind,
                "checker": self.checker, "kernel": self.kernel, "full_text": self.full_text, "before": self.before,
                "why": self.why}


def variant_source(reference_src: str, target: str, variant: Declaration, *, as_axiom: bool = False) -> str | None:
    """The reference file with ``target``'s statement replaced by ``variant``'s, proved by ``sorry`` (the variant
    as a solver would hand it in) or, with ``as_axiom``, stated as an ``axiom`` (a module that compiles without
    ``sorryAx``). None when the target is not declared in ``reference_src``."""
    wanted = normalize_name(target)
    found = [d for d in declarations(reference_src) if normalize_name(d.qualified_name) == wanted]
    if not found:
        return None
    d = found[-1]
    header = render_declaration(variant, name=d.name, with_prefix=False)
    if as_axiom:
        text = "axiom" + header[len(variant.keyword):] + "\n"
    else:
        text = header + " := by\n  sorry\n"
    return reference_src[:d.keyword_start] + text + reference_src[d.end:]


def cells_for_variant(info: ProblemInfo, target: str, reference: Declaration, variant_id: str, kind: str,
                      role: str, declaration: Declaration, kernel: dict[str, bool]) -> list[TierCell]:
    """The cells of one variant row: ``kernel`` maps checker id → the kernel tier's verdict."""

    def cell(checker: str, full_text: bool = False, before: bool = False, why: str | None = None) -> TierCell:
        return TierCell(info.id, target, variant_id, kind, role, checker, kernel.get(checker, False), full_text,
                        before, why)

    code = variant_source(info.reference, target, declaration)
    if code is None:
        return [cell(c, why="the target is not declared in the reference file") for c in kernel]
    prepared = prepare_candidate(Candidate(info.id, "robustness", code, f"variant {variant_id}"), info, "full",
                                 "robustness")
    found = prepared.extracted.get(target)
    if found is None:
        return [cell(c, why="the variant's declaration was not found as a candidate") for c in kernel]
    search = skeleton_search(SkeletonPair(variant_id, reference, declaration, info.problem.needs_mathlib))
    terms = concrete_terms(search, found.qualified_name)
    file = candidate_check_file(prepared)
    lines = file.text.split("\n")
    spans = {}
    for span in file.spans:
        r = file.roles[span.name]
        if r.target == target and r.kind in ("forward", "backward"):
            spans[f"forward:{r.shadow}" if r.kind == "forward" else "backward"] = lines[span.start_line - 1:span.end_line]
    out = []
    for checker in kernel:
        term = terms.forward.get(int(checker.split(":")[1])) if checker.startswith("forward:") else terms.backward
        if term is None:
            out.append(cell(checker, why=terms.why.get(checker) or terms.why.get("search") or "no term"))
            continue
        term = rename_identifiers(term, prepared.renames, qualify=True)  # as the full tier writes its checkers
        text = spans.get(checker, [])
        wanted = exact_line(term)
        present = wanted in text
        alternatives = [line.strip() for line in text if line.lstrip().startswith("| exact ")
                        and ALTERNATIVE_COMMENT not in line]
        before = wanted.split(" -- ")[0].strip() in alternatives
        out.append(cell(checker, present, before, None if present else "the checker text has no such alternative"))
    return out


def tier_cells(matrices: Sequence, inputs: Sequence) -> list[TierCell]:
    """Every scored cell of a robustness report: ``matrices`` are its ``TargetMatrix`` s, ``inputs`` the
    ``TargetInput`` s they were built from (same problems; each problem is read once)."""
    problems: dict[str, Problem] = {t.problem.id: t.problem for t in inputs}
    references = {(t.problem.id, t.target): t.declaration for t in inputs}
    infos: dict[str, ProblemInfo] = {}
    out: list[TierCell] = []
    for m in matrices:
        reference = references.get((m.problem_id, m.target))
        if m.error is not None or reference is None:
            continue
        if m.problem_id not in infos:
            infos[m.problem_id] = prepare_problem(problems[m.problem_id])
        for row in m.rows:
            if row.error is not None:
                continue
            kernel = {cid: c.passed for cid, c in row.cells.items()}
            v = row.variant
            out += cells_for_variant(infos[m.problem_id], m.target, reference, v.id, v.kind, v.role,
                                     v.declaration, kernel)
    return out


__all__ = ["TierCell", "cells_for_variant", "tier_cells", "variant_source"]
