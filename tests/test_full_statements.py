"""The full tier's statements module (issue #14): shadow statements elaborated *without* the candidate.

The checker file states each goal as ``type_of% @PyshadowStatements_<nonce>.<axiom>`` — an expression elaborated
in a module that never imports the candidate — so a candidate's instance or a declaration in the checkers'
namespace cannot change what a shadow means. The mechanism (``lean -o`` of both modules, one checker file importing
both, ``type_of%``, explicit universe lists, ``#print axioms``) is run for real with the kernel-tier Lean on
prelude-mode files; the candidates here are adversarial inputs written for this test. The generated *tactic* text
(``intro`` + ``first | exact …``) needs ``Init``: it is checked as text here and by ``tests/test_full_tier_lean.py``
with a full toolchain (not run on the development machines).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest_lean import PRELUDE_HEADER
from pyshadow.lean.runner import compile_module
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.problems import load_problem
from pyshadow.score.candidates import Candidate
from pyshadow.score.checker_file import CheckerFile, Role, StatementsModule
from pyshadow.score.checker_texts import needs_candidate
from pyshadow.score.full import candidate_check_file
from pyshadow.score.full_run import FullTask, full_task, run_full_task
from pyshadow.score.pipeline import prepare_candidate, prepare_problem
from pyshadow.shadows.checkers import universe_names

# What the problem's imports provide (Init/Mathlib in the full tier): an order-like class with an honest instance.
BASE = PRELUDE_HEADER + """\
class Le (α : Type) : Type where
  le : α → α → Prop
instance instLeN : Le N := ⟨fun a b => MyEq a b⟩
inductive True : Prop where
  | intro : True
"""
HONEST = "prelude\nimport Base\ntheorem Cand.main (a : N) : Le.le a a := MyEq.refl\n"
# A global instance that makes `Le.le a b` mean `True`: stated as text after `import PyshadowCandidate`, the
# shadow `∀ a b : N, Le.le a b` is then provable.
CHEAT_INSTANCE = ("prelude\nimport Base\ninstance cheat : Le N := ⟨fun _ _ => True⟩\n"
                  "theorem Cand.main (a b : N) : Le.le a b := True.intro\n")
# A declaration in the target's namespace: inside `namespace Cand.…`, `N` then names the candidate's one-element
# type, and the shadow `∀ a b : N, MyEq a b` becomes true.
CHEAT_NAMESPACE = ("prelude\nimport Base\ninductive Cand.N : Type where\n  | only : Cand.N\n"
                   "theorem Cand.main (a b : Cand.N) : MyEq a b :=\n"
                   "  Cand.N.rec (motive := fun a => MyEq a b)\n"
                   "    (Cand.N.rec (motive := fun b => MyEq Cand.N.only b) MyEq.refl b) a\n")


@pytest.fixture(scope="module")
def base_library(tmp_path_factory, kernel_lean_exe) -> Path:
    """``Base.olean``: stands for the problem's imports, shared by the statements module and the candidate."""
    folder = tmp_path_factory.mktemp("library")
    (folder / "Base.lean").write_text(BASE, encoding="utf-8")
    result = compile_module(kernel_lean_exe, folder / "Base.lean", folder / "Base.olean", root=folder)
    assert result.succeeded, result.errors
    return folder


def _statements(nonce: str, axioms: list[tuple[str, str, str]]) -> tuple[StatementsModule, list[str]]:
    module = StatementsModule(f"PyshadowStatements_{nonce}")
    module.add("prelude\nimport Base\nnamespace Cand")  # the target's namespace, as candidate_check_file opens it
    goals = [module.add_axiom(short, binders, statement) for short, binders, statement in axioms]
    module.add("end Cand")
    return module, goals


def _run(kernel_lean_exe, library: Path, candidate: str, checkers: list[tuple[str, str]], *,
         stated: list[tuple[str, str, str]], nonce: str = "5eed") -> dict[str, object]:
    """Run checkers ``(name, "theorem …")`` against ``candidate``; returns each check by its short name."""
    statements, goals = _statements(nonce, stated)
    file = CheckerFile(statements=statements)
    file.add(f"prelude\nimport Base\nimport PyshadowCandidate\nimport {statements.name}\nuniverse u_1")
    namespace = f"Cand.PyshadowChecks_{nonce}"
    file.add(f"namespace {namespace}")
    for name, text in checkers:
        for k, goal in enumerate(goals, start=1):
            text = text.replace(f"GOAL{k}", goal)
        file.add_checker(f"{namespace}.{name}", text, Role("forward", "Cand.main", 1))
    file.add(f"end {namespace}")
    task = FullTask("k", candidate, file.text, tuple(file.spans), file.roles, timeout_s=60,
                    statements_module=statements.name, statements_text=statements.text,
                    statement_axioms=frozenset(statements.constants), library_path=(library,))
    outcome = run_full_task(task, kernel_lean_exe)
    assert outcome.compiled, outcome.reason
    return {c.name.rsplit(".", 1)[-1]: c for c in outcome.checks}


@pytest.mark.kernel
def test_an_honest_candidate_proves_the_goal_from_the_statements_module(kernel_lean_exe, base_library):
    checks = _run(kernel_lean_exe, base_library, HONEST,
                  [("fwd", "theorem fwd : GOAL1 := fun a => Cand.main a")],
                  stated=[("stmt_1", "(a : N)", "Le.le a a")])
    assert checks["fwd"].passed, checks["fwd"].message


@pytest.mark.kernel
def test_a_candidate_instance_no_longer_changes_what_a_shadow_means(kernel_lean_exe, base_library):
    checks = _run(kernel_lean_exe, base_library, CHEAT_INSTANCE, [
        # the old way: the shadow as text in a file that imports the candidate — the cheat's instance wins
        ("as_text", "theorem as_text (a b : N) : Le.le a b := Cand.main a b"),
        # the goal from the statements module: the honest instance, so the candidate's proof does not fit
        ("isolated", "theorem isolated : GOAL1 := fun a b => Cand.main a b"),
    ], stated=[("stmt_1", "(a b : N)", "Le.le a b")])
    assert checks["as_text"].passed  # the attack is real …
    assert not checks["isolated"].passed and "error" in checks["isolated"].message  # … and is closed


@pytest.mark.kernel
def test_a_declaration_in_the_targets_namespace_no_longer_changes_a_name(kernel_lean_exe, base_library):
    checks = _run(kernel_lean_exe, base_library, CHEAT_NAMESPACE, [
        ("as_text", "theorem as_text (a b : N) : MyEq a b := Cand.main a b"),
        ("isolated", "theorem isolated : GOAL1 := fun a b => Cand.main a b"),
    ], stated=[("stmt_1", "(a b : N)", "MyEq a b")])
    assert checks["as_text"].passed
    assert not checks["isolated"].passed


@pytest.mark.kernel
def test_a_checker_that_uses_the_statement_axiom_fails(kernel_lean_exe, base_library):
    checks = _run(kernel_lean_exe, base_library, CHEAT_INSTANCE, [
        ("assumed", "theorem assumed : GOAL1 := fun a b => PyshadowStatements_5eed.stmt_1 a b"),
    ], stated=[("stmt_1", "(a b : N)", "Le.le a b")])
    assert not checks["assumed"].passed
    assert "statement axiom PyshadowStatements_5eed.stmt_1" in checks["assumed"].message


@pytest.mark.kernel
def test_universes_are_listed_on_the_axiom_and_pinned_in_the_goal(kernel_lean_exe, base_library):
    stated = [("stmt_1", "{α : Sort u_1} (x : α)", "MyEq x x"), ("hyp_1", "", "∀ {β : Sort u_1} (y : β), MyEq y y")]
    statements, goals = _statements("0", stated)
    assert goals == ["type_of% @PyshadowStatements_0.stmt_1.{u_1}", "type_of% @PyshadowStatements_0.hyp_1.{u_1}"]
    assert "axiom _root_.PyshadowStatements_0.stmt_1.{u_1} {α : Sort u_1} (x : α) :" in statements.text
    # a hypothesis and a goal at the same pinned universe: the backward check's shape (docs/full-tier.md class 3)
    checks = _run(kernel_lean_exe, base_library, HONEST, [
        ("fwd", "theorem fwd : GOAL1 := fun {α} x => MyEq.refl"),
        ("bwd", "theorem bwd (h : GOAL2) : GOAL1 := fun {α} x => h x"),
    ], stated=stated)
    assert checks["fwd"].passed and checks["bwd"].passed, (checks["fwd"].message, checks["bwd"].message)


def test_universe_names_reads_sorts_and_explicit_instantiations():
    assert universe_names("{α : Type u_2} (f : ULift.{v} α → Sort (max u w))") == ["u_2", "u", "w", "v"]
    assert universe_names("(n : Nat) : n = n") == []


# ---------------------------------------------------------------------------------------------------------------
# The generated files (text): what a real toolchain elaborates


def _prepared(problem: str, candidate: str):
    info = prepare_problem(load_problem(PROBLEMS_DIR / problem))
    code = (PROBLEMS_DIR / problem / "candidates" / candidate).read_text(encoding="utf-8")
    return prepare_candidate(Candidate(problem, "s", code, "x"), info, "full", "fp")


def test_generated_checker_states_every_goal_as_a_statements_module_type():
    prepared = _prepared("saddle_point_derivatives", "faithful_explicit.lean")
    file = candidate_check_file(prepared, nonce="abc123")
    stmts = file.statements
    assert stmts is not None and stmts.name == "PyshadowStatements_abc123"
    assert "import PyshadowCandidate" not in stmts.text and stmts.text.startswith("import Mathlib\n")
    assert "\nopen Filter\n" in stmts.text and "\nnamespace Saddle\n" in stmts.text
    assert "import PyshadowCandidate\nimport PyshadowStatements_abc123\n" in file.text
    assert "namespace Saddle.PyshadowChecks_abc123" in file.text
    headers = [file.lines[s.start_line] for s in file.spans if file.roles[s.name].kind in ("forward", "certificate")]
    assert headers and all(h.startswith("theorem ") and h.endswith(" :") for h in headers)  # no binders, no text
    goals = [line.strip() for line in file.lines if line.strip().startswith("type_of% @PyshadowStatements_")]
    assert len(goals) == len(headers)  # forward checkers and the certificate; the backward's goal is the candidate's
    assert "Dx = 0" in stmts.text and not any("Dx = 0 :=" in line for line in file.lines)
    backward = next(file.lines[s.start_line] for s in file.spans if file.roles[s.name].kind == "backward")
    assert "(hS_1 : type_of% @PyshadowStatements_abc123.hypothesis_" in backward
    assert "  intro n m f x0 z0 Dx Dz hs hx hz\n" in file.text
    task = full_task(prepared, workspace=None, timeout_s=1, memory_mb=1)
    assert task.statements_module == stmts.name.replace("abc123", task.statements_module.rsplit("_", 1)[1])
    assert all(c.startswith(f"{task.statements_module}.") for c in task.statement_axioms)
    assert len(task.statement_axioms) == len(stmts.constants) == 5


def test_every_run_gets_a_fresh_nonce():
    prepared = _prepared("saddle_point_derivatives", "faithful_explicit.lean")
    names = {candidate_check_file(prepared).statements.name for _ in range(3)}
    assert len(names) == 3


def test_goals_that_name_the_candidates_own_definitions_stay_text():
    """`nat_double_add`'s shadows use the reference's `Doubling.twice`, renamed to the candidate's: they cannot be
    elaborated without the candidate (docs/trust.md says what that leaves open)."""
    file = candidate_check_file(_prepared("nat_double_add", "faithful_renamed_aux.lean"), nonce="n")
    assert file.statements is None and "import PyshadowStatements_n" not in file.text
    assert "Doubling.twice (m + n) = Doubling.twice m + Doubling.twice n" in file.text
    # the same without a rename (the reference scored against itself): `twice` is still the candidate's own
    info = prepare_problem(load_problem(PROBLEMS_DIR / "nat_double_add"))
    itself = prepare_candidate(Candidate("nat_double_add", "ref", info.reference, "x"), info, "full", "fp")
    assert not any(k != v for k, v in itself.renames.items() if k.endswith("twice"))
    assert candidate_check_file(itself).statements is None


def test_context_that_needs_the_candidate_disables_the_statements_module():
    names = frozenset({"Outer.Inner.twice", "Doubling.double"})
    assert needs_candidate(["open Outer.Inner"], names)  # the namespace may exist only through the candidate
    assert needs_candidate(["local notation \"⟪\" n \"⟫\" => Outer.Inner.twice n"], names)
    assert needs_candidate(["(n : Nat) : double n = n + n"], names)  # written as inside `namespace Doubling`
    assert not needs_candidate(["open Filter Real", "open scoped BigOperators", "(n : Nat) : n + n = 2 * n"], names)
