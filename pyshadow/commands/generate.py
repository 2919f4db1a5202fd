"""``pyshadow generate PROBLEMS_DIR -o WORKSPACE``: the checkers of a problem set as a Lake workspace
(docs/commands.md#generate)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ..errors import EXIT_NEGATIVE, EXIT_OK
from ..llm import certificate_task, client_from_args, run_task, run_tasks, shadow_task
from ..shadows.merge import answer_shadows
from ..syntax import render_declaration, render_term
from ..workspace import ProblemPlan, TargetPlan, build_workspace, merge_into, write_workspace
from .common import add_llm_options, load_problem_set
from .helptext import add_command


def register(subparsers) -> None:
    p = add_command(subparsers, "generate", "write the checkers of a problem set as a Lake workspace",
                    "generate problems -o build/workspace")
    p.add_argument("problems", type=Path, metavar="PROBLEMS_DIR", help="folder of problems (each with problem.toml)")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="WORKSPACE", help="workspace folder to write")
    add_llm_options(p)
    p.add_argument("--llm-certificates", action="store_true",
                   help="also ask the model for backward certificates")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    client = client_from_args(args)  # a missing LLM setting stops the run before any work
    _, problems, load_errors = load_problem_set(args.problems, quiet=True)
    use_llm = client.mode != "none"
    certificates = getattr(args, "llm_certificates", False)
    build = build_workspace(problems,
                            refine=(lambda plan: refine_residuals(client, plan, certificates=certificates))
                            if use_llm else None)
    plans = build.plans
    for n, plan in enumerate(plans, start=1):
        print(f"[{n}/{len(plans)}] {plan.problem.id}: {_problem_line(plan)}")
    skipped = [(str(e.path), str(e)) for e in load_errors] + build.skipped
    for who, reason in skipped:
        print(f"no checkers for {who}: {reason}", file=sys.stderr)
    report = write_workspace(args.output, build.files)

    residual = [(plan, t) for plan in plans for t in plan.targets if t.residual]
    if residual:
        how = "sent to the LLM" if use_llm else "identity shadow only; --llm none"
        print(f"residual targets ({how}): {len(residual)}")
        for plan, t in residual:
            n = t.added_shadows if t.llm is None else 0  # an LLM answer's note says what it added
            experts = f" (+{n} expert shadow{'s' if n != 1 else ''})" if n else ""
            print(f"  {plan.problem.id}: {t.name}{experts}{_llm_note(t)}")
    if use_llm:
        for line in client.accounting.summary_lines():
            print(line)
    targets = [t for plan in plans for t in plan.targets]
    shadows = sum(len(t.merged.shadows) for t in targets)
    checkers = sum(len(t.checkers.checkers) + (t.llm_certificate is not None) for t in targets)
    print(
        f"generated {len(plans)} problems, {len(targets)} targets ({len(targets) - len(residual)} decomposed, "
        f"{len(residual)} residual), {shadows} shadows, {checkers} checkers into {args.output}: "
        f"{len(report.written)} files written, {len(report.unchanged)} unchanged, {len(report.removed)} removed"
        + (f"; {len(skipped)} problem{'s' if len(skipped) != 1 else ''} left out" if skipped else "")
    )
    return EXIT_NEGATIVE if skipped else EXIT_OK


def refine_residuals(client, plan: ProblemPlan, *, certificates: bool = False) -> None:
    """Ask the model for shadows of each residual target of ``plan`` and merge what an accepted answer proposes."""
    residual = [t for t in plan.targets if t.residual]
    if not residual:
        return
    problem = plan.problem
    tasks = [
        shadow_task(
            problem.id,
            t.name,
            render_declaration(t.declaration, name=t.name, with_prefix=False),
            existing_shadows=[render_term(s.statement) for s in t.merged.shadows],
            context=t.preceding,
            informal=problem.informal_statement,
            rules=problem.rules or "",
            reason="the conclusion is atomic for the structural rules (no ∧, ↔, ordered =, ∀/→ over them)",
        )
        for t in residual
    ]
    for t, result in zip(residual, run_tasks(client, tasks)):
        record = {"task": result.task, "status": result.status, "provenance": result.provenance,
                  "reasons": list(result.reasons), "added": 0, "duplicates": 0}
        if result.accepted and result.code and result.provenance:
            proposed, skipped = answer_shadows(result.code, t.name, t.declaration, result.provenance)
            merged = merge_into(t, proposed)
            record["added"] = merged.added
            record["duplicates"] = len(merged.outcomes) - merged.added
            record["reasons"] = skipped
        t.llm = record
        if certificates and merged_ok(t):
            propose_certificate(client, plan, t)


def merged_ok(t: TargetPlan) -> bool:
    """A residual target that got LLM shadows and has no certificate: the case task (b) is for."""
    return (t.residual and t.checkers.backward is None and t.llm_certificate is None
            and t.llm is not None and t.llm.get("added", 0) > 0)


def propose_certificate(client, plan: ProblemPlan, t: TargetPlan) -> None:
    """Ask for ⋀ (LLM shadows) ⇒ T; a validated answer becomes ``t.llm_certificate`` (and ``t.llm["certificate"]``).

    The identity shadow is left out of the hypotheses (with it the certificate would be trivial); only the shadows
    a model or an expert added are given, each quantified over the target's binders, as is the goal.
    """
    from ..shadows.checkers import Checker, checker_prefix, is_consequence, name_universes, named_binders, \
        render_binder
    from ..syntax.declarations import find_declarations

    binders, _ = name_universes(named_binders(t.declaration.binders))
    binder_text = " ".join(render_binder(b) for b in binders)

    def closed(statement: str) -> str:
        return f"∀ {binder_text}, {statement}" if binder_text else statement

    shadows = [closed(render_term(s.statement)) for s in t.merged.shadows if is_consequence(s)]
    name = f"{checker_prefix(t.checker_id)}_llm_complete"
    task = certificate_task(
        plan.problem.id, t.name, render_declaration(t.declaration, name=t.name, with_prefix=False),
        closed(render_term(t.declaration.type)), shadows, context=t.preceding, certificate_name=name,
        reason="the target is residual: its only generated shadow is the identity",
    )
    result = run_task(client, task)
    record = {"task": result.task, "status": result.status, "provenance": result.provenance, "name": name,
              "reasons": list(result.reasons), "key": result.key}
    assert t.llm is not None
    t.llm["certificate"] = record
    if not result.accepted or not result.code:
        return
    code = re.sub(r"^\s*/--.*?-/\s*", "", result.code.strip(), flags=re.DOTALL)
    code = "\n".join(line.rstrip() for line in code.splitlines() if line.strip())
    found = find_declarations(code)
    if len(found) != 1 or not code.startswith(f"theorem {name} ") and not code.startswith(f"theorem {name}\n"):
        record["status"] = "rejected"
        record["reasons"] = [f"the answer must be exactly one declaration, `theorem {name} …`"]
        return
    text = f"-- provenance: {result.provenance} (LLM task {result.task}); checked by Lean like every checker\n{code}"
    t.llm_certificate = Checker(name, "backward", closed(render_term(t.declaration.type)), "", text)


def _problem_line(plan: ProblemPlan) -> str:
    targets = plan.targets
    shadows = sum(len(t.merged.shadows) for t in targets)
    added = sum(t.added_shadows for t in targets)
    forward = sum(len(t.checkers.forward) for t in targets)
    backward = sum(1 for t in targets if t.checkers.backward is not None or t.llm_certificate is not None)
    residual = sum(1 for t in targets if t.residual)
    parts = [
        f"{len(targets)} target{'s' if len(targets) != 1 else ''}",
        f"{shadows} shadow{'s' if shadows != 1 else ''}" + (f" ({added} expert/LLM)" if added else ""),
        f"{forward} forward + {backward} backward checker{'s' if forward + backward != 1 else ''}",
    ]
    if residual:
        parts.append(f"{residual} residual")
    return ", ".join(parts) + "".join(f"; note: {note}" for note in plan.notes)


def _llm_note(t: TargetPlan) -> str:
    if t.llm is None:
        return ""
    if t.llm["status"] != "accepted":
        why = "; ".join(t.llm["reasons"])
        return f" — LLM {t.llm['status']}" + (f": {why}" if why else "")
    note = f" — LLM ({t.llm['provenance']}): {t.llm['added']} shadows added, {t.llm['duplicates']} duplicates"
    cert = t.llm.get("certificate")
    if cert is not None:
        why = "; ".join(cert["reasons"])
        note += "; certificate " + ("written to Backward.lean" if t.llm_certificate is not None
                                    else cert["status"] + (f": {why}" if why else ""))
    return note
