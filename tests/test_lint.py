"""``pyshadow lint``: each rule on real public statements (positive and negative, sources cited) and on
hand-written edge cases; the dev corpus's error findings are exactly the hand-checked ones; the command's output,
JSON and exit codes; check-problem, new and score --lint.

Real statements: tests/fixtures/lint/minif2f_mathport.lean (rah4927/lean-dojo-mew @ d00c7762, cited in the file),
tests/fixtures/pairs/dev_pairs.jsonl (each pair cites its repositories and commits; defective sides in
tests/fixtures/lint/pairs_verdicts.json), tests/fixtures/corpus/*.jsonl and ../shared/corpora/dev.jsonl.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pyshadow.cli import main
from pyshadow.lint import ERROR, RULES, WARNING, finding_records, lint_statement
from pyshadow.lint.context import build_context
from pyshadow.lint.signatures import SIGNATURES, signature
from pyshadow.lint.statement import read_statement
from pyshadow.score.pipeline import ScoreRow

FIXTURES = Path(__file__).parent / "fixtures"
MATHPORT = FIXTURES / "lint" / "minif2f_mathport.lean"
PAIRS = {p["id"]: p for p in map(json.loads, (FIXTURES / "pairs" / "dev_pairs.jsonl").read_text("utf-8").splitlines())}
VERDICTS = json.loads((FIXTURES / "lint" / "pairs_verdicts.json").read_text("utf-8"))
DEV_ERRORS = json.loads((FIXTURES / "lint" / "dev_errors.json").read_text("utf-8"))["findings"]
PROBLEMS_DIR = Path(__file__).resolve().parents[1] / "problems"


def kinds(text: str) -> set[tuple[str, str]]:
    return {(f.rule, f.severity) for f in lint_statement(text)}


# ---------------------------------------------------------------------------------------------------------------
# Real statements: the Mathport port of miniF2F, through the command (real file, real line numbers)

MATHPORT_EXPECTED = {  # theorem → findings (rule, severity); read by hand against Lean's precedences
    "induction_pord1p1on2powklt5on2": {("bigop-body", ERROR)},  # (∏ k, 1) + 1 / 2 ^ k with a new k
    "mathd_algebra_342": {("bigop-body", ERROR)},  # (∑ k, a) + k * d, twice
    "amc12a_2021_p9": {("bigop-body", ERROR)},  # (∏ k, 2 ^ 2 ^ k) + 3 ^ 2 ^ k
    "sum_pairs": {("bigop-body", ERROR)},  # the second sum only: its `+ f (2 * k + 1)`
    "mathd_numbertheory_343": {("bigop-trailing-constant", WARNING)},  # (∏ k, 2 * k + 1) % 10
    "mathd_algebra_158": {("bigop-trailing-constant", WARNING), ("bigop-body", ERROR)},
    "aime_1994_p3": {("single-point-hypothesis", WARNING)},
    "imo_1982_p1": {("nat-subtraction", WARNING)},
    "induction_prod1p1onk3le3m1onn": {("bigop-body", ERROR)},
    "induction_sum2kp1npqsqm1": {("bigop-trailing-constant", WARNING)},
    "mathd_algebra_247": {("binder-shadowing", ERROR)},  # (n : ℤ) … (h₁ : s = n ^ 2 …) (n) (_ : n = 3)
    "amc12a_2020_p13": {("nat-exponent-division", ERROR), ("nat-exponent-division", WARNING)},
    # negatives: bodies closed by parentheses, or nothing after them
    "mathd_numbertheory_127": set(),
    "imo_1974_p3": set(),
    "aime_1999_p11": set(),
    "amc12b_2021_p1": set(),
    "induction_sum_odd": set(),  # (∑ k in Finset.range n, 2 * k) + 1 = n ^ 2: parenthesised, as meant
}


@pytest.fixture(scope="module")
def mathport_rows(tmp_path_factory):
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["lint", str(MATHPORT), "--json"])
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return code, {row["id"]: row for row in lines if "id" in row}, lines[-1]


def test_mathport_statements_get_exactly_the_expected_findings(mathport_rows):
    code, rows, summary = mathport_rows
    assert code == 4 and set(rows) == set(MATHPORT_EXPECTED)
    got = {name: {(f["rule"], f["severity"]) for f in row["findings"]} for name, row in rows.items()}
    assert got == MATHPORT_EXPECTED
    assert summary["summary"].startswith("linted 17 statements:")


def test_findings_point_at_the_exact_span_in_the_file(mathport_rows):
    _, rows, _ = mathport_rows
    lines = MATHPORT.read_text(encoding="utf-8").splitlines()
    (f,) = rows["induction_pord1p1on2powklt5on2"]["findings"]
    # from the ∏ to the stray k, on the file's own line and column
    assert f["excerpt"] == "∏ k in Finset.Icc 1 n, 1 + (1 : ℝ) / 2 ^ k"
    assert lines[f["line"] - 1][f["column"]:].startswith(f["excerpt"])
    assert f["suggestion"] == "∏ k ∈ Finset.Icc 1 n, (1 + (1 : ℝ) / 2 ^ k)"
    (sp,) = rows["aime_1994_p3"]["findings"]
    assert sp["excerpt"] == "f x + f (x - 1) = x ^ 2" and sp["suggestion"] == "(h0 : ∀ x, f x + f (x - 1) = x ^ 2)"
    shadow = rows["mathd_algebra_247"]["findings"][0]
    assert shadow["excerpt"] == "(n)" and lines[shadow["line"] - 1][shadow["column"]:].startswith("(n)")
    sub = rows["imo_1982_p1"]["findings"][0]
    assert sub["excerpt"] == "f (m + n) - f m - f n" and sub["suggestion"] == "(f (m + n) : ℤ) - f m - f n"


# ---------------------------------------------------------------------------------------------------------------
# Real statements: the labelled development pairs (defective side vs fixed side)


@pytest.mark.parametrize("pair_id, rule", [
    ("minif2f/aime_1990_p2", "nat-exponent-division"),
    ("minif2f/mathd_algebra_114", "nat-exponent-division"),
    ("minif2f/imo_1982_p1", "nat-subtraction"),
    ("minif2f/imo_1978_p5", "nat-division"),
    ("minif2f/imo_1979_p1", "nat-division"),
    ("minif2f/induction_sum_odd", "bigop-trailing-constant"),
    ("proofnet/Munkres/exercise_38_6:lean4-vs-sharp", "binder-shadowing"),
    ("putnambench/putnam_1966_a1@cf72fdb..6ab737c", "optparam-binder"),
    ("putnambench/putnam_1965_a1@14b744d..6ab737c", "optparam-binder"),
    ("minif2f/induction_ineq_nsqlefactn", "factorial-identifier"),
    ("minif2f/amc12a_2003_p23", "factorial-identifier"),
    ("minif2f-history/amc12b_2020_p6@8c83bc4", "factorial-identifier"),
])
def test_rule_fires_on_the_defective_side_only(pair_id, rule):
    pair = PAIRS[pair_id]
    bad = VERDICTS["changed"][pair_id]["defective"]
    good = "a" if bad == "b" else "b"
    assert rule in {r for r, _ in kinds(pair[bad])}
    assert rule not in {r for r, _ in kinds(pair[good])}


def test_changed_pairs_are_flagged_on_the_defective_side_and_same_meaning_pairs_rarely():
    """The README's figures (benchmarks/lint_pairs.py computes the same)."""
    flagged_changed, on_defective, flagged_same = 0, 0, []
    for pair in PAIRS.values():
        sides = {s for s in ("a", "b") if lint_statement(pair[s])}
        if pair["same_meaning"]:
            if sides:
                flagged_same.append(pair["id"])
        elif sides:
            flagged_changed += 1
            verdict = VERDICTS["changed"].get(pair["id"])
            assert verdict is not None, f"{pair['id']} is flagged but has no hand verdict"
            assert sides == {verdict["defective"]}, pair["id"]
            on_defective += 1
    assert flagged_changed == on_defective == len(VERDICTS["changed"]) == 25
    assert sorted(flagged_same) == sorted(VERDICTS["same_meaning_flagged"])


# ---------------------------------------------------------------------------------------------------------------
# The dev corpus: every error is a hand-checked true positive


def test_dev_corpus_errors_are_exactly_the_hand_checked_ones(dev_rows):
    got = []
    for row in dev_rows:
        for f in lint_statement(row["statement"]):
            if f.severity == ERROR:
                got.append({"id": row["id"], "rule": f.rule, "excerpt": f.excerpt, "line": f.line,
                            "column": f.column})
    listed = [{k: e[k] for k in ("id", "rule", "excerpt", "line", "column")} for e in DEV_ERRORS]
    assert got == listed
    assert all(e["verdict"] == "true positive" for e in DEV_ERRORS)


# ---------------------------------------------------------------------------------------------------------------
# Hand-written edge cases (ours)


@pytest.mark.parametrize("text, expected", [
    # big operators: a parenthesised body is never flagged; a term with another variable after the sum is clean
    ("theorem t (s : Finset ℕ) (f g : ℕ → ℕ) : ∑ i in s, (f i + g i) = 0", set()),
    ("theorem t (s : Finset ℕ) (f g : ℕ → ℕ) (j : ℕ) : (∑ i in s, f i) + g j = 0", set()),
    ("theorem t (s : Finset ℕ) (f g : ℕ → ℕ) (j : ℕ) : ∑ i in s, f i + g j = 0", set()),
    ("theorem t (s : Finset ℕ) (f g : ℕ → ℕ) : ∑ i in s, f i + g i = 0", {("bigop-body", ERROR)}),
    ("theorem t (n : ℕ) : ∏ k ∈ Finset.Icc 1 n, (1 + (1 : ℝ) / 2 ^ k) < 5 / 2", set()),
    ("theorem t (n : ℕ) : ∏ k ∈ Finset.Icc 1 n, (1 + 1 / 2 ^ k) < 5 / 2", {("nat-division", WARNING)}),
    ("theorem t (s : Finset ℕ) (f : ℕ → ℕ) : ∑ i in s, f i * i = 0", set()),  # `*` binds tighter than 67
    ("theorem t (i : ℕ) (s : Finset ℕ) (f g : ℕ → ℕ) : ∑ i in s, f i + g i = 0", {("bigop-body", WARNING)}),
    ("theorem t (f : ℕ → ℕ) : ∀ k, ∑ i in Finset.range k, f i = i", {("bigop-body", ERROR)}),  # i unbound
    ("theorem t (f : ℕ → ℕ) : ∀ k, (∑ i in Finset.range k, f i) ≤ k ∧ ∀ i, f i = i", set()),
    ("theorem t (f : ℕ → ℕ) (i : ℕ) : (∑ i in Finset.range 3, f i) ≤ 3 ∧ f i = i", set()),  # not across ∧
    ("theorem t (n : ℕ) : (∑ k in Finset.range n, 2 * k) + 1 = n ^ 2", set()),
    ("theorem t (n : ℕ) : ∑ k in Finset.range n, 2 * k + 1 = n ^ 2", {("bigop-trailing-constant", WARNING)}),
    # ℕ subtraction: guarded by 0 < n it is not flagged; unguarded in a real statement it is a warning
    ("theorem t (n : ℕ) (x : ℝ) (h : 0 < n) (hx : x = n - 1) : x ≥ 0", set()),
    ("theorem t (n : ℕ) (x : ℝ) (h : 0 < n) (hx : x = ((n - 1 : ℕ) : ℝ)) : x ≥ 0", set()),
    ("theorem t (n : ℕ) (x : ℝ) (hx : x = ((n - 1 : ℕ) : ℝ)) : x ≥ 0", {("nat-subtraction", WARNING)}),
    ("theorem t (n : ℕ) : 0 < n → n - 1 + 1 = n", set()),
    ("theorem t (a b : ℕ) (h : a - b = 0) : a ≤ b", {("nat-subtraction", WARNING)}),
    ("theorem t (a b : ℕ) (h : b ≤ a) (h' : a - b = 0) : a = b", set()),
    ("theorem t (p : ℕ) (hp : p.Prime) (x : ℝ) (h : x = ((p - 1 : ℕ) : ℝ)) : 1 ≤ x", set()),
    ("theorem t (x : ℝ) (n : ℕ) (h : x = n - 1) : x + 1 = n", set()),  # real subtraction: ↑n - 1
    # exponents
    ("theorem t : (1000000 : ℝ) ^ (1 / 3) = 100", {("nat-exponent-division", ERROR)}),
    ("theorem t : (1000000 : ℝ) ^ ((1 : ℝ) / 3) = 100", set()),
    ("theorem t : (1000000 : ℝ) ^ (1 / 3 : ℝ) = 100", set()),
    ("theorem t (x : ℝ) : x ^ (6 / 2) = x ^ 3", set()),  # exact in ℕ
    ("theorem t (p : ℕ) (a : ZMod p) : a ^ ((p - 1) / 2) = 1", set()),  # ℕ division meant
    ("theorem t (x : ℝ) (n : ℕ) : x ^ (1 / n) = 1", {("nat-exponent-division", WARNING)}),
    # binders
    ("theorem t (n : ℤ) (h : n = 2) (n : ℕ) (h2 : n = 3) : n = 3", {("binder-shadowing", ERROR)}),
    ("theorem t {X : Type} (X : Type) (x : X) : x = x", {("binder-shadowing", WARNING)}),
    ("theorem t (n : ℕ) (h₀ : 0 < n) (h₀ : n < 5) : n < 6", set()),  # a hypothesis name: no meaning
    ("theorem t (n : ℕ) (h : ∀ n, n + 0 = n) : n = n", set()),  # a quantifier re-binding: as written
    ("theorem t (S : Set ℕ := {n | n < 3}) : S.Finite", {("optparam-binder", ERROR)}),
    ("theorem t (n : ℕ) (h : 0 < n := by decide) : 0 < n", set()),  # an auto-param is a hypothesis
    # factorial
    ("theorem t (n : ℕ) : n ^ 2 ≤ n !", set()),
    ("theorem t (n : ℕ) : n ^ 2 ≤ (n + 1)!", set()),  # `)!` is the postfix notation
    ("theorem t (n : ℕ) : n ^ 2 ≤ n!", {("factorial-identifier", ERROR)}),
    ("theorem t : 5000! > 0", set()),  # a numeral: no identifier
    ("theorem t (m : ℕ) : m ≤ n!", set()),  # `n` is no variable here: nothing to say
    # contradictory hypotheses
    ("theorem t (x : ℝ) (h : x < 0) (h' : 0 < x) : x = 1", {("vacuous-hypotheses", ERROR)}),
    ("theorem t (x : ℝ) (h : x < 0) (h' : x > 0) : x = 1", {("vacuous-hypotheses", ERROR)}),
    ("theorem t (a : ℕ) (h : a = 2) (h' : a = 3) : a = 4", {("vacuous-hypotheses", ERROR)}),
    ("theorem t (n : ℕ) (h : n < 0) : n = 4", {("vacuous-hypotheses", ERROR)}),
    ("theorem t (n : ℕ) (h : n > 0) (h' : n < 5) : n < 6", set()),
    ("theorem t (x y : ℝ) (h : x < y) (h' : y ≤ x + 1) : x < y + 1", set()),
    # single point vs ∀
    ("theorem t (f : ℤ → ℤ) (h : ∀ x, f x + f (x - 1) = x ^ 2) : f 94 = 0", set()),
    ("theorem t (f : ℤ → ℤ) (x : ℤ) (h : f x = x) : f x = x", set()),  # x is the conclusion's too
    # unused hypotheses
    ("theorem t (x y : ℝ) (hy : 0 < y) (hx : 1 < x) : 1 < x ^ 2", {("unused-hypothesis", WARNING)}),
    ("theorem t (x y : ℝ) (hy : 0 < y) (hxy : x < y) (hx : 1 < x) : 1 < x ^ 2", set()),
    ("theorem t (x y : ℝ) (hy : 0 < y) : False", set()),  # a closed conclusion: hypotheses are the point
])
def test_edge_cases(text, expected):
    assert kinds(text) == expected


def test_suggestions_are_mechanical_rewrites():
    (f,) = lint_statement("theorem t (a d : ℝ) : ∑ k in Finset.range 5, a + k * d = 5 * a + 10 * d")
    assert f.suggestion == "∑ k ∈ Finset.range 5, (a + k * d)" and f.excerpt == "∑ k in Finset.range 5, a + k * d"
    (f,) = lint_statement("theorem t : (1000000 : ℝ) ^ (1 / 3) = 100")
    assert (f.suggestion, f.excerpt) == ("((1 : ℝ) / 3)", "1 / 3")
    (f,) = lint_statement("theorem t (S : Set ℕ := {n | n < 3}) : S.Finite")
    assert f.suggestion == "(S : Set ℕ) (hS : S = {n | n < 3})"


def test_every_rule_has_an_id_a_severity_and_a_summary():
    assert set(RULES) == {"bigop-body", "bigop-trailing-constant", "nat-exponent-division", "nat-subtraction",
                          "nat-division", "binder-shadowing", "optparam-binder", "vacuous-hypotheses",
                          "factorial-identifier",
                          "single-point-hypothesis", "unused-hypothesis"}
    assert all(r.severity in (ERROR, WARNING) and r.summary for r in RULES.values())


# ---------------------------------------------------------------------------------------------------------------
# Type inference and the signature table


def tree_types(text: str) -> list[str]:
    ctx = build_context(read_statement(text))
    return [t for _, t in ctx.types.roots]


@pytest.mark.parametrize("text, types", [
    ("theorem t (x : ℝ) (n : ℕ) : x * (n - 1) = 0", ["ℝ"]),  # one real leaf: the whole tree is real
    ("theorem t (f : ℕ → ℕ) (m : ℕ) : f m - 1 = 0", ["ℕ"]),
    ("theorem t (f : ℕ → ℕ) (m : ℕ) : f m - 1 = (0 : ℤ)", ["ℤ"]),  # the ascription moves the tree to ℤ
    ("theorem t : 2 + 2 = 4", ["ℕ"]),  # numerals default to ℕ
    ("theorem t (n : ℕ) : Real.sqrt n = 2", ["ℝ"]),  # Real.sqrt : ℝ → ℝ (signature table)
    ("theorem t (s : Finset ℕ) : s.card - 1 = 0", ["ℕ"]),
    ("theorem t (x : ℤ) : ↑x - 1 = 0", ["?"]),  # ↑x: the context decides
])
def test_arithmetic_tree_types(text, types):
    assert tree_types(text)[-len(types):] == types


def test_signature_table_entries_resolve_and_cite_their_files():
    from pyshadow.lint import signatures

    doc = signatures.__doc__
    for name in SIGNATURES:
        head = name.split(".")[0]
        assert head in doc or name in doc, f"{name} has no cited file"
    assert signature("sqrt") == SIGNATURES["Real.sqrt"]  # `open Real`
    assert signature("Nat.choose") == (("ℕ", "ℕ"), "ℕ")


# ---------------------------------------------------------------------------------------------------------------
# The command


def test_clean_file_exits_0_and_unreadable_input_exits_2(tmp_path, capsys):
    clean = tmp_path / "Clean.lean"
    clean.write_text("theorem t (n : ℕ) : n + 0 = n := by simp\n", encoding="utf-8")
    assert main(["lint", str(clean)]) == 0
    assert capsys.readouterr().out.strip() == "linted 1 statement: 0 findings in 0"
    bad = tmp_path / "Bad.lean"
    bad.write_bytes(b"theorem t : \xff = 1")
    for path in (bad, tmp_path / "missing.lean", tmp_path / "notes.txt"):
        if path.name == "notes.txt":
            path.write_text("x", encoding="utf-8")
        assert main(["lint", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(path) in err


def test_corpus_lines_and_problem_folders(tmp_path, capsys):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({"id": "x", "statement": "theorem x : (8 : ℝ) ^ (1 / 3) = 2"}) + "\n"
                      + json.dumps({"id": "y"}) + "\n", encoding="utf-8")
    assert main(["lint", str(corpus)]) == 4
    out = capsys.readouterr().out
    assert f"{corpus}:1:1:23: error nat-exponent-division" in out and "suggested: ((1 : ℝ) / 3)" in out
    assert f"skipped: {corpus}:2:" in out
    assert main(["lint", str(PROBLEMS_DIR)]) == 0  # the bundled references are clean
    assert capsys.readouterr().out.splitlines()[-1].startswith("linted ")


def test_check_problem_lists_lint_errors_as_fixes(tmp_path, capsys, kernel_lean_exe):
    folder = tmp_path / "nat_pos_facts"
    shutil.copytree(PROBLEMS_DIR / "nat_pos_facts", folder)
    ref = folder / "Reference.lean"
    ref.write_text(ref.read_text(encoding="utf-8") + "\ntheorem extra (x : Nat) (h : x < 0) (h' : 0 < x) : x = 1 :="
                   " by omega\n", encoding="utf-8")
    assert main(["check-problem", str(folder), "--tier", "kernel"]) == 4
    out = capsys.readouterr().out
    assert "error vacuous-hypotheses" in out and "Reference.lean:" in out


def test_new_reports_lint_on_the_fresh_reference(tmp_path, capsys):
    assert main(["new", str(tmp_path), "--id", "p1", "--area", "algebra", "--level", "L1"]) == 0
    assert "lint: 0 findings in the reference" in capsys.readouterr().out


def test_score_rows_carry_lint_findings():
    code = "theorem t (x : ℝ) : x ^ (1 / 3) = 1 := by sorry\n"
    records = finding_records(code, "cand.lean")
    assert [(r["declaration"], r["rule"], r["line"]) for r in records] == [("t", "nat-exponent-division", 1)]
    row = ScoreRow.from_dict({"problem_id": "p", "system": "s", "origin": "o", "tier": "kernel", "content_hash": "h",
                              "compiled": True, "lint": records})
    assert row.lint == records and row.to_dict()["lint"] == records
    plain = ScoreRow.from_dict({"problem_id": "p", "system": "s", "origin": "o", "tier": "kernel",
                                "content_hash": "h", "compiled": True})
    assert "lint" not in plain.to_dict()


@pytest.mark.kernel
def test_score_lint_adds_each_candidates_findings_to_its_row(tmp_path, capsys, kernel_lean_exe):
    folder = tmp_path / "cands"
    folder.mkdir()
    (folder / "nat_pos_facts.lean").write_text(
        "namespace NatPos\ntheorem pos_facts (n : Nat) : 0 < n → n ≠ 0 ∧ 1 ≤ n ∧ n - 1 + 1 = n := by omega\n"
        "theorem helper (x : Nat) (h : x < 0) : x = 1 := by omega\nend NatPos\n", encoding="utf-8")
    out = tmp_path / "results.jsonl"
    argv = ["score", str(PROBLEMS_DIR), str(folder), "-o", str(out), "--tier", "kernel", "--system", "s"]
    assert main([*argv, "--lint"]) == 0
    (row,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(f["declaration"], f["rule"], f["line"]) for f in row["lint"]] == [("helper", "vacuous-hypotheses", 3)]
    out.unlink()
    assert main(argv) == 0
    capsys.readouterr()
    assert "lint" not in json.loads(out.read_text(encoding="utf-8"))  # without --lint rows stay as they were


def test_a_problem_that_does_not_load_is_one_skipped_line(tmp_path, capsys):
    root = tmp_path / "problems"
    shutil.copytree(PROBLEMS_DIR / "nat_pos_facts", root / "nat_pos_facts")
    broken = root / "broken"
    shutil.copytree(PROBLEMS_DIR / "nat_pos_facts", broken)  # its id no longer matches its folder
    assert main(["lint", str(root)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if line.startswith("skipped: ")] == [
        line for line in out if "broken" in line and line.startswith("skipped: ")] and len(out) == 2
    assert out[-1].startswith("linted 1 statement:")
