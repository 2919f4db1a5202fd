"""A problem set's shadows and checker texts, as one revision's generator makes them (JSON on stdout).

``pyshadow diff`` runs this file as a script, in its own Python process, with ``--root`` a revision's tree
written out by ``pyshadow.robustness.revisions``: when that tree holds a ``pyshadow`` package, *its* generator
(rules, checker builders, templates) is the one imported, so a change in the generator or its templates between
two revisions shows up as changed checker texts. A tree without one (a problems-only repository) is read with the
installed pyshadow (``--installed``). Code from another revision never runs inside the calling process.

Only the interfaces every revision has are used: ``load_problems``/``reference_text``, ``decompose``,
``full_tier_checkers`` — through ``pyshadow.workspace.plan_problem`` (target lookup, expert-shadow merge, checker
ids) where the revision has it, else directly with ``pyshadow.references.target_declaration``; a revision older
than both fails here, and ``pyshadow.robustness.revisions`` renders it with the installed generator (with a note).
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path


def _shadow_record(shadow, render_term) -> dict:
    statement = render_term(shadow.statement)
    key = shadow.path_text if shadow.path else f"{shadow.kind}: {statement}"
    return {"key": key, "kind": shadow.kind, "path": shadow.path_text, "statement": statement,
            "provenance": getattr(shadow, "provenance", "generated")}


def _target_record(decl, shadows, checkers, render_declaration, render_term, mathlib: bool, status: str) -> dict:
    return {"declaration": render_declaration(decl, with_prefix=False), "mathlib": mathlib, "status": status,
            "shadows": [_shadow_record(s, render_term) for s in shadows],
            "checkers": {c.name: c.text for c in checkers}, "error": None}


def snapshot(problems_dir: Path) -> dict:
    """Per problem and target: the reference header, its shadows (generated, then merged-in) and checker texts."""
    from pyshadow.problems import load_problems, reference_text
    from pyshadow.shadows import decompose
    from pyshadow.shadows.checkers import full_tier_checkers
    from pyshadow.syntax import render_declaration, render_term

    try:
        from pyshadow.workspace import module_names, plan_problem
    except ImportError:
        plan_problem = module_names = None
        # A revision before workspace.plan_problem reads targets with references.target_declaration; one older
        # than both fails here (ImportError), and the caller renders it with the installed generator instead.
        from pyshadow.references import target_declaration

    problems, errors = load_problems(problems_dir) if problems_dir.is_dir() else ([], [])
    out: dict = {"generator": str(Path(__file__).resolve().parents[1]), "errors": [str(e) for e in errors],
                 "problems": {}}
    modules = module_names([p.id for p in problems]) if module_names else {}
    for problem in problems:
        record: dict = {"level": problem.level, "area": problem.area, "imports": list(problem.imports),
                        "targets": {}, "error": None}
        out["problems"][problem.id] = record
        try:
            if plan_problem is not None:
                plan = plan_problem(problem, modules[problem.id])
                for t in plan.targets:
                    if getattr(t, "error", None) is not None:  # a target that cannot be read: data for the diff
                        record["targets"][t.name] = {"error": t.error}
                        continue
                    record["targets"][t.name] = _target_record(
                        t.declaration, t.merged.shadows, t.checkers.checkers, render_declaration, render_term,
                        problem.needs_mathlib, t.generated.status)
                continue
            src = reference_text(problem)
            for target in problem.targets:
                try:
                    decl = target_declaration(src, target)
                except Exception as err:  # noqa: BLE001 - not found / does not parse: data for the diff
                    decl, reason = None, f"{type(err).__name__}: {err}"
                else:
                    reason = "target not found in the reference"
                if decl is None or decl.type is None:
                    record["targets"][target] = {"error": reason}
                    continue
                dec = decompose(decl, mathlib=problem.needs_mathlib)
                checkers = full_tier_checkers(problem.id, target, decl, dec)
                record["targets"][target] = _target_record(decl, dec.shadows, checkers.checkers, render_declaration,
                                                           render_term, problem.needs_mathlib, dec.status)
        except Exception as err:  # noqa: BLE001 - one problem's failure is data for the diff, not a crash
            record["error"] = f"{type(err).__name__}: {err}"
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="snapshot a problem set with one revision's generator")
    parser.add_argument("--root", type=Path, required=True, help="the revision's tree")
    parser.add_argument("--problems", type=Path, required=True, help="the problems folder inside it")
    parser.add_argument("--installed", action="store_true", help="use the installed pyshadow, not the tree's")
    args = parser.parse_args(argv)
    if not args.installed:
        sys.path.insert(0, str(args.root))
    try:
        data = snapshot(args.problems)
    except Exception:  # noqa: BLE001 - reported to the caller on stderr with the traceback
        traceback.print_exc()
        return 1
    json.dump(data, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
