"""Tests of the static trust gate (``pyshadow.score.audit``) and the ``pyshadow audit`` command.

Fixtures: ``tests/fixtures/audit/cheating/*.lean`` open with ``-- audit-expect: KIND …``, the exact set of kinds the
gate must report for that file; ``tests/fixtures/audit/benign/*.lean`` mention the same words in comments,
docstrings, strings, char literals and «names» (plus legitimate scopes and ``open … in``) and must be clean.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from pyshadow.commands import COMMAND_MODULES
from pyshadow.commands import audit as audit_command
from pyshadow.errors import BadInput
from pyshadow.score.allowlist import undecided
from pyshadow.score.audit import DEFAULT_POLICY, RULES, AuditPolicy, Finding, audit, is_clean
from pyshadow.syntax.lexer import IDENT, code_tokens, tokenize

FIXTURES = Path(__file__).parent / "fixtures" / "audit"
CHEATING = sorted((FIXTURES / "cheating").glob("*.lean"))
BENIGN = sorted((FIXTURES / "benign").glob("*.lean"))


def expected_kinds(path: Path) -> set[str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("-- audit-expect:"), f"{path.name} must open with its expected kinds"
    return set(first.split(":", 1)[1].split())


def kinds(src: str, policy: AuditPolicy = DEFAULT_POLICY) -> set[str]:
    return {f.kind for f in audit(src, policy)}


# ---------------------------------------------------------------------------------------------------------------
# Fixtures


def test_fixture_counts():
    assert len(CHEATING) >= 25
    assert len(BENIGN) >= 12


@pytest.mark.parametrize("path", CHEATING, ids=lambda p: p.stem)
def test_cheating_candidate_is_flagged_with_expected_kinds(path: Path):
    assert kinds(path.read_text(encoding="utf-8")) == expected_kinds(path)


@pytest.mark.parametrize("path", BENIGN, ids=lambda p: p.stem)
def test_benign_candidate_is_clean(path: Path):
    assert audit(path.read_text(encoding="utf-8")) == []


def test_every_rule_has_a_cheating_fixture():
    covered = set().union(*(expected_kinds(p) for p in CHEATING))
    assert covered == set(RULES)


def test_expected_kinds_are_rule_names():
    for p in CHEATING:
        assert expected_kinds(p) <= set(RULES), p.name


# ---------------------------------------------------------------------------------------------------------------
# Findings: positions, excerpts, JSON


def test_finding_position_and_excerpt():
    src = "theorem t : 1 = 1 := by\n  -- fine\n  sorry\n"
    assert audit(src) == [Finding("sorry", 3, 2, "sorry")]


def test_findings_are_sorted_and_json_serialisable():
    src = "axiom a : False\ntheorem t : False := by\n  native_decide\n#exit\n"
    findings = audit(src)
    assert [(f.kind, f.line, f.column) for f in findings] == [("axiom", 1, 0), ("native_decide", 3, 2), ("exit", 4, 0)]
    assert json.loads(json.dumps([f.to_dict() for f in findings]))[0] == {
        "kind": "axiom", "line": 1, "column": 0, "excerpt": "axiom a : False"
    }


def test_long_excerpt_is_cut():
    src = "theorem t : True := by sorry -- " + "x" * 300
    (finding,) = audit(src)
    assert len(finding.excerpt) == 120 and finding.excerpt.endswith("…")


def test_is_clean():
    assert is_clean("theorem t : True := trivial")
    assert not is_clean("theorem t : True := sorry")


# ---------------------------------------------------------------------------------------------------------------
# Attacker variants, one rule at a time


@pytest.mark.parametrize(
    "src, kind",
    [
        ("theorem t : 1 = 2 := sorry", "sorry"),
        ("theorem t : 1 = 2 := by\n  first | rfl | admit", "sorry"),
        ("theorem t : 1 = 2 := by\n  all_goals stop", "sorry"),
        ("theorem t : 1 = 2 := by library_search", "sorry"),
        ("theorem t : 1 = 2 := by rw?", "proof_search"),
        ("protected axiom Foo.bar : False", "axiom"),
        ("noncomputable axiom choice' : Nat", "axiom"),
        ("theorem t : False := «sorryAx» _ false", "unsound_constant"),
        ("theorem t : False := Lean.lcUnreachable", "unsound_constant"),
        ("@[«implemented_by» g] def f := 1", "implemented_by"),
        ("theorem t : 2 ≤ 3 := by decide (config := { native := true })", "native_decide"),
        ("theorem t : 2 ≤ 3 := by bv_decide", "native_decide"),
        ("theorem t : True := trivial\n  #exit", "exit"),
        ("theorem t : True := trivial #exit", "exit"),
        ("theorem t : True := trivial\n/- /- nested -/ never closed", "unterminated_comment"),
        ('def s := "abc', "unterminated_string"),
        ("notation3 \"∑'\" => 0", "syntax_extension"),
        ("scoped[Foo] notation \"x\" => 1", "syntax_extension"),
        ("postfix:max \"!\" => Nat.factorial", "syntax_extension"),
        ("unif_hint (n : Nat) where n =?= 0 ⊢ n + 0 =?= 0", "syntax_extension"),
        ("@[command_elab Lean.Parser.Command.check] def x := 1", "meta_attribute"),
        ("@[builtin_tactic Lean.Parser.Tactic.decide] def x := 1", "meta_attribute"),
        ("@[simp, local macro Foo.bar] def x := 1", "meta_attribute"),
        ("#eval! 1 + 1", "run_code"),
        ("theorem t : True := by run_tac pure ()", "run_code"),
        ("builtin_initialize pure ()", "run_code"),
        ("open Lean Elab in\ndef x := Elab.Term.elabTerm", "meta_code"),
        ("def x := Lean.Meta.whnf", "meta_code"),
        ("def f := Lean.Environment.empty", "meta_code"),
        ("theorem t : True := by\n  set_option debug.proofAsSorry true in\n  trivial", "set_option"),
        ("set_option bootstrap.inductiveCheckResultingUniverse false", "set_option"),
        ("set_option pp.all true", "set_option"),
        ("set_option compiler.extract_closed false", "set_option"),
        ("variable (h : False)\ninclude h", "forced_hypothesis"),
        ("variable [Fact False]", "forced_hypothesis"),
        ("variable [inst : Nonempty Empty] {α : Type}", "forced_hypothesis"),
        ("attribute [-simp] Nat.add_comm", "foreign_attribute"),
        ("attribute [instance 100] Real.instLE", "foreign_instance"),
        ("attribute [local instance] Classical.propDecidable Nat.decEq", "foreign_instance"),
        ("@[instance] def fakeLE : LE ℕ := ⟨fun _ _ => True⟩", "foreign_instance"),
        ("def fakeLE : LE ℕ := ⟨fun _ _ => True⟩\nattribute [instance] fakeLE", "foreign_instance"),
        ("instance {α : Type} [Preorder α] : LT (List α) := ⟨fun _ _ => True⟩", "foreign_instance"),
        ("instance : ∀ n : ℕ, OfNat ℝ n := fun _ => ⟨0⟩", "foreign_instance"),
        ("namespace A.B\nend A", "unbalanced_scope"),
        ("section Foo\nend", "unbalanced_scope"),
        ("namespace Foo\nend", "unbalanced_scope"),
        ("mutual\ndef f : Nat := 0", "unbalanced_scope"),
        ("end Foo", "unbalanced_scope"),
        ("import Mathlib\nimport MyHack.Tactics", "import"),
    ],
)
def test_attack_variant(src: str, kind: str):
    assert kind in kinds(src)


def test_decreasing_by_sorry_is_reported_once_with_its_own_kind():
    src = "def f : Nat → Nat\n  | 0 => 0\n  | n + 1 => f n\ndecreasing_by\n  all_goals sorry\n"
    assert [f.kind for f in audit(src)] == ["decreasing_by_sorry"]


def test_sorry_after_decreasing_by_clause_is_plain_sorry():
    src = "def f : Nat → Nat\n  | 0 => 0\n  | n + 1 => f n\ndecreasing_by omega\ntheorem t : False := sorry\n"
    assert [f.kind for f in audit(src)] == ["sorry"]


def test_interpolated_string_hole_is_code_but_plain_text_is_not():
    assert kinds('def s := s!"{(sorry : Nat)}"') == {"sorry"}
    assert kinds('def s := s!"sorry {1 + 1} admit"') == set()
    assert kinds('def s := "{sorry}"') == set()


def test_native_decide_allowed_by_policy():
    src = "theorem t : 1999 ^ 2000 % 5 = 1 := by native_decide"
    assert kinds(src) == {"native_decide"}
    assert audit(src, AuditPolicy(allow_native_decide=True)) == []
    # implemented_by stays flagged: it is what makes native_decide unsound.
    trick = "@[implemented_by g] opaque f : Nat → Bool\n" + src
    assert kinds(trick, AuditPolicy(allow_native_decide=True)) == {"implemented_by"}


def test_disabled_rules_and_unknown_rule():
    assert audit("theorem t : True := by exact?", AuditPolicy(disabled_rules=frozenset({"proof_search"}))) == []
    with pytest.raises(ValueError, match="unknown audit rule"):
        AuditPolicy(disabled_rules=frozenset({"no_such_rule"}))


def test_option_policy_is_configurable():
    policy = AuditPolicy(forbidden_option_prefixes=("debug.",), forbidden_options=frozenset({"maxRecDepth"}))
    assert kinds("set_option pp.all true", policy) == set()
    assert kinds("set_option maxRecDepth 100", policy) == {"set_option"}


PROOFNET_STYLE = """import Mathlib

open Fintype Subgroup Set Polynomial Ideal

open scoped BigOperators

noncomputable section
theorem exercise_1_1_22a {G : Type*} [Group G] (x g : G) :
  orderOf x = orderOf (g⁻¹ * x * g) := by
  simp [orderOf_conj]
"""


def test_scope_left_open_at_the_end_is_no_finding_but_a_stray_end_is():
    # Lean closes open scopes at the end of the input (checked with the kernel-tier binary), and the candidate is
    # compiled as a module of its own: ProofNet's `noncomputable section` and a `namespace` left open are harmless.
    assert audit(PROOFNET_STYLE) == []
    assert audit("namespace Foo\n" + PROOFNET_STYLE) == []
    assert kinds(PROOFNET_STYLE + "end Foo\n") == {"unbalanced_scope"}
    assert kinds("theorem t : True := trivial\nend\n") == {"unbalanced_scope"}


def proofnet_context() -> str:
    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "dev.jsonl"
    if corpus.exists():
        for line in corpus.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            if entry["id"] == "proofnet/Herstein_exercise_2_5_30":
                return "import Mathlib\n\n" + entry["context"] + "\n"
    return (
        "import Mathlib\n\nopen Fintype Set\n\nnoncomputable section\n\n"
        "instance exercise_2_1_21 (G : Type*) [Group G] [Fintype G]\n  (hG : card G = 5) :\n  CommGroup G :=\nsorry\n"
    )


def test_trusted_prefix_drops_findings_in_the_benchmark_context():
    context = proofnet_context()
    assert "sorry" in context and "noncomputable section" in context
    candidate = context + "theorem exercise_2_5_30 : True := trivial\n"
    assert {"sorry", "foreign_instance"} <= kinds(candidate)
    assert audit(candidate, trusted_prefix=context) == []
    cheat = candidate + "theorem extra : False := sorry\n"
    assert [f.kind for f in audit(cheat, trusted_prefix=context)] == ["sorry"]
    # A prefix the candidate does not start with verbatim is not trusted.
    assert audit(candidate, trusted_prefix=context.replace("Mathlib", "Mathlib ")) != []


def test_own_declarations_may_get_attributes_and_instances():
    src = (
        "namespace My\nclass Nice (α : Type) : Prop where\n  ok : True\nend My\n"
        "instance : My.Nice ℕ := ⟨trivial⟩\n"
        "theorem helper : 1 + 1 = 2 := rfl\nattribute [simp] helper My.helper_missing\n"
    )
    # `helper` is the candidate's; `My.helper_missing` is not declared anywhere in it.
    assert [(f.kind, f.line, f.column) for f in audit(src)] == [("foreign_attribute", 7, 24)]


def test_open_in_and_scopes_are_fine():
    src = "open Nat in\ntheorem t : 2 ∣ 4 := by\n  open Finset in\n  decide\nnamespace A\nsection B\nend B\nend A\n"
    assert audit(src) == []


def test_mentions_outside_code_are_not_findings():
    src = (
        "-- sorry axiom #exit\n/-- admit native_decide -/\ntheorem «sorry» : True := trivial\n"
        "def c : Char := '#'\ndef s : String := \"#exit /- sorry\"\n"
    )
    assert audit(src) == []


# ---------------------------------------------------------------------------------------------------------------
# The command


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pyshadow")
    audit_command.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


def test_cli_json_findings_exit_1(tmp_path: Path, capsys):
    f = tmp_path / "cand.lean"
    f.write_text("theorem t : 1999 ^ 2000 % 5 = 1 := by native_decide\n", encoding="utf-8")
    assert run_cli(["audit", str(f), "--json"]) == 4
    out = json.loads(capsys.readouterr().out)
    assert out == [{"kind": "native_decide", "line": 1, "column": 38,
                    "excerpt": "theorem t : 1999 ^ 2000 % 5 = 1 := by native_decide"}]
    assert run_cli(["audit", str(f), "--json", "--allow-native-decide"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_cli_text_output(tmp_path: Path, capsys):
    f = tmp_path / "cand.lean"
    f.write_text("theorem t : True := by\n  sorry\n", encoding="utf-8")
    assert run_cli(["audit", str(f)]) == 4
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{f}:2:2: sorry: sorry"
    assert lines[-1].startswith("1 finding(s) in")


def test_cli_clean_exit_0(tmp_path: Path, capsys):
    f = tmp_path / "cand.lean"
    f.write_text("theorem t : True := trivial\n", encoding="utf-8")
    assert run_cli(["audit", str(f)]) == 0
    assert "0 finding(s)" in capsys.readouterr().out


def test_cli_unreadable_or_not_utf8_is_bad_input(tmp_path: Path):
    with pytest.raises(BadInput) as missing:
        run_cli(["audit", str(tmp_path / "missing.lean")])
    assert missing.value.exit_code == 2
    bad = tmp_path / "bad.lean"
    bad.write_bytes(b"theorem t : True := \xff\n")
    with pytest.raises(BadInput, match="UTF-8"):
        run_cli(["audit", str(bad)])


@pytest.mark.skipif("audit" not in COMMAND_MODULES, reason="`audit` is not registered in COMMAND_MODULES yet")
def test_cli_main_exit_codes(tmp_path: Path, capsys):
    from pyshadow.cli import main

    f = tmp_path / "cand.lean"
    f.write_text("axiom a : False\n", encoding="utf-8")
    assert main(["audit", str(f), "--json"]) == 4
    assert main(["audit", str(tmp_path / "missing.lean")]) == 2


# ---------------------------------------------------------------------------------------------------------------
# Lexer gaps found while writing the gate (the lexer is not ours to edit; see the report)


def test_lexer_interpolated_string_holes_are_code():
    assert any(t.kind == IDENT and t.text == "sorry" for t in code_tokens('def s := s!"{sorry}"'))


def test_lexer_nested_projection_is_two_field_indices():
    assert [t.text for t in tokenize("(foo h).2.1")][-4:] == [".", "2", ".", "1"]


# ---------------------------------------------------------------------------------------------------------------
# Disguised cheats (#14): every class written several ways, and a fuzzer that disguises every cheating fixture

DISGUISED = sorted((FIXTURES / "disguised").glob("*.lean"))


def test_disguised_fixture_count():
    assert len(DISGUISED) >= 20


@pytest.mark.parametrize("path", DISGUISED, ids=lambda p: p.stem)
def test_disguised_cheat_is_flagged(path: Path):
    assert audit(path.read_text(encoding="utf-8")), path.name


def _split_imports(src: str) -> tuple[str, str]:
    lines = src.split("\n")
    k = 0
    while k < len(lines) and (lines[k].startswith(("import ", "--")) or not lines[k].strip()):
        k += 1
    return "\n".join(lines[:k]), "\n".join(lines[k:])


def _wrap_in_namespace(src: str) -> str:
    head, body = _split_imports(src)
    return f"{head}\nnamespace Disguise\n{body}\nend Disguise\n"


def _docstrings_before_declarations(src: str) -> str:
    return re.sub(r"^((?:private |protected |noncomputable )*(?:theorem|lemma|def|instance|abbrev|class) )",
                  r"/-- a harmless note -/\n\1", src, flags=re.M)


def _open_in_before_declarations(src: str) -> str:
    return re.sub(r"^((?:theorem|lemma|def|instance|abbrev|attribute|#eval|macro|notation|syntax) )",
                  r"open Nat in\n\1", src, flags=re.M)


def _break_attributes_and_headers(src: str) -> str:
    src = re.sub(r"(@\[|attribute \[)([^\]\n]*)\]", lambda m: f"{m[1]}\n  {m[2]}\n  ]", src)
    return re.sub(r"^((?:theorem|lemma|def|instance) \S+)", r"\1\n   ", src, flags=re.M)


def _trailing_comment_mentions(src: str) -> str:
    return src.replace("\n", "  -- fine: nothing here\n", 3)


DISGUISES = {
    "namespace": _wrap_in_namespace,
    "docstrings": _docstrings_before_declarations,
    "open_in": _open_in_before_declarations,
    "line_breaks": _break_attributes_and_headers,
    "comments": _trailing_comment_mentions,
}


@pytest.mark.parametrize("disguise", sorted(DISGUISES))
def test_every_cheat_stays_flagged_under_every_disguise(disguise):
    rewrite = DISGUISES[disguise]
    missed = []
    for path in CHEATING + DISGUISED:
        src = path.read_text(encoding="utf-8")
        for once in (rewrite(src), rewrite(rewrite(src))):
            if not audit(once):
                missed.append(path.name)
    assert not missed, f"{disguise}: {sorted(set(missed))}"


@pytest.mark.parametrize("disguise", ["docstrings", "open_in", "line_breaks", "comments"])
def test_benign_files_stay_clean_under_disguises(disguise):
    flagged = [p.name for p in BENIGN if audit(DISGUISES[disguise](p.read_text(encoding="utf-8")))]
    assert not flagged, flagged


@pytest.mark.parametrize(
    "src, kind",
    [
        # instances, however written
        ("namespace M\nclass LE (α : Type) where\n  le : α → α → Prop\nend M\ninstance : LE Nat := ⟨fun _ _ => True⟩",
         "foreign_instance"),
        ("class C extends LE Nat\ninstance : C := ⟨⟨fun _ _ => True⟩⟩", "foreign_instance"),
        ("class C (α : Type) extends Add α, LE α", "foreign_instance"),
        ("abbrev Order.Decidable (α : Type) := LE α\ninstance : Order.Decidable Nat := ⟨fun _ _ => True⟩",
         "foreign_instance"),
        ("instance w : [Inhabited Nat] → LE Nat := fun => ⟨fun _ _ => True⟩", "foreign_instance"),
        ("instance w : ∀ n : Nat, LE (Fin n) := fun _ => ⟨fun _ _ => True⟩", "foreign_instance"),
        ("def w : LE Nat := ⟨fun _ _ => True⟩\nattribute [instance high]\nw", "foreign_instance"),
        ("def w : LE Nat := ⟨fun _ _ => True⟩\nattribute\n  [instance]\n  w", "foreign_instance"),
        ("@[instance high]\ndef w : HAdd Nat Nat Nat := ⟨fun _ _ => 0⟩", "foreign_instance"),
        ("@[simp, instance]\n\ntheorem w : HAdd Nat Nat Nat := ⟨fun _ _ => 0⟩", "foreign_instance"),
        ("namespace X\nscoped instance : HAdd Nat Nat Nat := ⟨fun _ _ => 0⟩\nend X", "foreign_instance"),
        ("local instance (priority := high) : LT Nat := ⟨fun _ _ => False⟩", "foreign_instance"),
        ("instance : _root_.LE Nat := ⟨fun _ _ => True⟩", "foreign_instance"),
        ("namespace Q\nclass Good (α : Type) where\n  v : α\nend Q\nopen Q in\ninstance : Good Nat := ⟨0⟩\n"
         "instance : Q.Good Int := ⟨0⟩\ninstance : LE Nat := ⟨fun _ _ => True⟩", "foreign_instance"),
        # the checkers' namespace, core names, look-alikes
        ("namespace PyshadowChecks\nscoped instance : HAdd Nat Nat Nat := ⟨fun _ _ => 0⟩\nend PyshadowChecks",
         "reserved_namespace"),
        ("def _root_.PyshadowChecks.helper := 1", "reserved_namespace"),
        ("namespace Foo.PyshadowChecks\ndef x := 1\nend Foo.PyshadowChecks", "reserved_namespace"),
        ("def PyshadowStatements_0123abcd.stmt_1 : True := trivial", "reserved_namespace"),  # a guessed nonce
        ("namespace Cand.PyshadowChecks_ff00\ninstance : HAdd Nat Nat Nat := ⟨fun _ _ => 0⟩\nend Cand.PyshadowChecks_ff00",
         "reserved_namespace"),
        ("namespace A\nstructure Real where\n  x : Nat\nend A", "shadowed_name"),
        ("abbrev Mine.ℕ := Fin 2", "shadowed_name"),
        ("def Ρi := 1", "confusable_identifier"),  # Greek capital Rho
        ("theorem t : True := by\n  exact sοrry", "confusable_identifier"),  # Greek omicron: reads as sorry
        ("theorem t (hp : 0 < 1) (hρ : 0 < 2) : True := trivial", "confusable_identifier"),  # hρ reads as hp
        ("def Fınset := Nat", "confusable_identifier"),  # dotless ı
        ("theorem t (x : Νat) : x = x := rfl", "confusable_identifier"),
        # code run at elaboration time, compiler-trusting proofs
        ("#guard 1 + 1 == 2", "run_code"),
        ("set_option doc.verso true\n/-- {lean}`#eval 1` -/\ntheorem t : True := trivial", "set_option"),
        ("theorem t : 2 ≤ 3 := by decide (config := { kernel := false })", "native_decide"),
        ("theorem t : 2 ≤ 3 := by\n  decide (config := {})", "native_decide"),
    ],
)
def test_disguised_variant(src, kind):
    assert kind in kinds(src), kinds(src)


@pytest.mark.parametrize(
    "src",
    [
        "attribute [local simp] Nat.le_add_right\ntheorem t (a b : Nat) : a ≤ a + b := by simp",
        "attribute [local simp]\n  Nat.le_add_right Nat.le_refl",
        "def NonPos := {x : Int //-x ≥ 0}",
        "class Good (α : Type) where\n  val : α\ninstance : Good Nat := ⟨0⟩\ninstance : Good (List Nat) := ⟨[]⟩",
        "class Good (α : Type) where\n  val : α\n@[instance] def goodNat : Good Nat := ⟨0⟩",
        "namespace Q\nclass Good (α : Type) where\n  v : α\ninstance : Good Nat := ⟨0⟩\nend Q\ninstance : Q.Good Int := ⟨0⟩",
        "instance : Fact (1 < 2) := ⟨by decide⟩",
        "instance : NeZero (2 : Nat) := ⟨by decide⟩",
        "open Classical in\nattribute [local instance] Classical.propDecidable",
        "theorem t (α : Type) (μ ν : Nat) (é : Nat) : μ + ν + é = ν + μ + é := by omega",
        "theorem t (ρ ν : Nat) (hρ : 0 < ρ) (hν : 0 < ν) (xι : Nat) : 0 < ρ + ν + xι := by omega",
        'def s : String := panic! "{"\ntheorem t : True := trivial',
        "-- instance : LE Nat := ⟨fun _ _ => True⟩\n/- def PyshadowChecks.Nat := Fin 1 -/\ntheorem t : True := trivial",
        'def msg := "attribute [instance] w; #eval 1; namespace PyshadowChecks"',
        "def PyshadowChecksum := 1\ndef PyshadowStatementsOf := 2",  # a longer word is not a reserved namespace
        "theorem t : 2 ≤ 3 := by decide",
        "theorem t (a b : Nat) : a + b = b + a := by\n  have := Nat.add_comm a b\n  exact this",
    ],
)
def test_benign_lookalike_is_clean(src):
    assert audit(src) == [], audit(src)


# ---------------------------------------------------------------------------------------------------------------
# What only the full tier can judge (kernel tier: undecided)


@pytest.mark.parametrize(
    "src, what",
    [
        ("variable {α : Type} [Fintype α]\ntheorem t : Fintype.card α = Fintype.card α := rfl", "instance binder"),
        ("set_option autoImplicit true\ntheorem t : a + b = b + a := Nat.add_comm a b", "autoImplicit"),
        ("namespace A\ndef f := 1\nend A\nexport A (f)\ntheorem t : f = 1 := rfl", "off the"),
        ("class Good (α : Type) where\n  val : α\nlocal instance : Good Nat := ⟨0⟩\ntheorem t : True := trivial",
         "off the"),
        ("attribute [local instance] Classical.propDecidable\ntheorem t : True := trivial", "off the"),
    ],
)
def test_what_changes_elaboration_is_undecided_with_its_line(src, what):
    """The kernel tier's allowlist (pyshadow.score.allowlist; its own tests are tests/test_allowlist.py)."""
    off = undecided(src, src.rindex(":="))
    assert off is not None and what in off.why, off


def test_kernel_tier_never_skeleton_passes_what_changes_elaboration():
    # A faithful-looking statement under a local instance: the kernel tier reads the same text, so it must say it
    # cannot decide rather than pass it (the engine is not even asked: lean=None would fail if it were).
    from pyshadow.paths import PROBLEMS_DIR
    from pyshadow.problems import load_problem
    from pyshadow.score.candidates import Candidate
    from pyshadow.score.pipeline import UNDECIDED_NEEDS_FULL_TIER, kernel_rows, prepare_candidate, prepare_problem

    info = prepare_problem(load_problem(PROBLEMS_DIR / "nat_add_comm_assoc"))
    reference_decl = info.reference[info.reference.index("theorem"):]
    code = "class Good (α : Type) where\n  v : α\nlocal instance : Good Nat := ⟨0⟩\n" + reference_decl
    prepared = prepare_candidate(Candidate(info.id, "sys", code, "test"), info, "kernel", "fp")
    assert not prepared.flagged
    (row,) = kernel_rows([prepared], None)
    assert row.reason.startswith(UNDECIDED_NEEDS_FULL_TIER) and "line 1:" in row.reason
    assert row.checks and not any(c.passed for c in row.checks)
    assert all(c.message.startswith(UNDECIDED_NEEDS_FULL_TIER) for c in row.checks)


def test_candidate_declaring_a_library_name_the_reference_uses_is_flagged():
    # Inside `namespace Foo`, `Nat.choose` means `Foo.Nat.choose` — for the candidate's statement and for a checker
    # that enters the target's namespace alike; the text stays the reference's.
    reference = "theorem t (n : Nat) : Nat.choose n 1 = n := by simp\n"
    cheat = "namespace Foo\ndef Nat.choose (n k : Nat) : Nat := n\ntheorem t (n : Nat) : Nat.choose n 1 = n := rfl\nend Foo\n"
    assert "shadowed_name" in kinds_with_reference(cheat, reference)
    assert "shadowed_name" not in kinds_with_reference(cheat, "")  # only the reference says the name matters
    honest = "def helper (n : Nat) := n\ntheorem t (n : Nat) : Nat.choose n 1 = n := by simp [helper]\n"
    assert audit(honest, reference=reference) == []
    # the reference's own auxiliary declarations may be declared again by the candidate
    aux_reference = "def Foo.f (n : Nat) := n + 1\ntheorem t (n : Nat) : Foo.f n = n + 1 := rfl\n"
    assert audit("def Foo.f (n : Nat) := n + 1\ntheorem t (n : Nat) : Foo.f n = n + 1 := rfl\n",
                 reference=aux_reference) == []


def kinds_with_reference(src: str, reference: str) -> set[str]:
    return {f.kind for f in audit(src, reference=reference)}


INDEPENDENT = sorted((FIXTURES / "independent").glob("*.lean"))


def test_independent_cheat_count():
    assert len(INDEPENDENT) == 12


@pytest.mark.parametrize("path", INDEPENDENT, ids=lambda p: p.stem)
def test_independent_cheat_is_flagged(path: Path):
    """Cheats written from the threat model alone (fixtures/audit/independent/README.md): each is a finding."""
    assert audit(path.read_text(encoding="utf-8")), f"{path.name} passed the trust gate"
