"""``pyshadow import-shadowbench``: ShadowBench's ``data/<area>/<level>/<problem_id>/{meta.json,text.md}`` layout
(fixtures in tests/fixtures/shadowbench/data, written in that layout) becomes problems, field by field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import tomlkit

from pyshadow.cli import main
from pyshadow.problems import PROBLEM_FILE, ProblemError, load_problem, save_problem
from pyshadow.shadowbench import required_names, rules_preamble, shadowbench_meta, split_text

DATA = Path(__file__).parent / "fixtures" / "shadowbench" / "data"
GOOD = {  # pyshadow id → (ShadowBench folder, targets)
    "algebra.L1.alg_toy_L1_001": ("algebra/L1/alg_toy_L1_001", ["toy_double_even"]),
    "algebraic-geometry.L1.alg_toy_L1_001": ("algebraic-geometry/L1/alg_toy_L1_001", ["ToyScheme.quasiToy_of_toy"]),
    "number-theory.L3.nt_toy_L3_001": ("number-theory/L3/nt_toy_L3_001", ["ToyBound0", "ToyBound1"]),
}
BAD = {  # folder → what the error line says
    "combinatorics/L2/comb_toy_L2_001": "meta.json: not found",
    "geometry/L1/geo_toy_L1_001": "meta.json: invalid JSON at line 4, column 1",
    "probability/L1/prob_toy_L1_001": "field 'level': expected one of L1, L2, L3, got 'L4'",
    "topology/L2/top_toy_L2_001": "text.md: not found",
}


@pytest.fixture
def imported(tmp_path, capsys):
    out = tmp_path / "problems"
    code = main(["import-shadowbench", str(DATA), "-o", str(out)])
    return code, capsys.readouterr().out, out


def meta_of(folder: str) -> dict:
    return json.loads((DATA / folder / "meta.json").read_text(encoding="utf-8"))


def text_of(folder: str) -> str:
    return (DATA / folder / "text.md").read_text(encoding="utf-8")


def toml_of(out: Path, pid: str) -> dict:
    return tomlkit.parse((out / pid / PROBLEM_FILE).read_text(encoding="utf-8")).unwrap()


def write_reference(folder: Path, declarations: str) -> None:
    path = folder / "Reference.lean"
    path.write_text(path.read_text(encoding="utf-8") + "\n" + declarations, encoding="utf-8")


def test_good_problems_import_and_bad_ones_are_listed(imported):
    code, out, root = imported
    assert code == 4  # some imported, some listed as errors (README exit codes)
    assert sorted(p.name for p in root.iterdir()) == sorted(GOOD)
    for pid, (_, targets) in GOOD.items():
        assert f"imported {pid}: targets {', '.join(targets)}" in out
    errors = [line for line in out.splitlines() if line.startswith("error: ")]
    assert len(errors) == len(BAD)
    for folder, reason in BAD.items():
        assert any(str(DATA / folder) in line and reason in line for line in errors), (folder, errors)
    assert "imported 3/7 problems" in out and "4 errors" in out


def test_same_problem_id_in_two_areas_gives_two_problems(imported):
    _, _, root = imported
    ids = {toml_of(root, pid)["shadowbench"]["problem_id"] for pid in GOOD if "alg_toy" in pid}
    assert ids == {"alg_toy_L1_001"}  # ShadowBench's problem_id repeats; the pyshadow ids do not


def test_latex_problem_field_by_field(imported):
    _, out, root = imported
    pid = "algebra.L1.alg_toy_L1_001"
    folder, _ = GOOD[pid]
    meta, data = meta_of(folder), toml_of(root, pid)
    assert data["id"] == pid and data["level"] == meta["level"] == "L1"
    assert data["area"] == "algebra" and data["shadowbench"]["area"] == "Algebra"  # lower_snake; original kept
    assert data["source"] == "ShadowBench algebra/L1/alg_toy_L1_001 (Toy-Notes-Ch1)"
    assert data["imports"] == ["Mathlib"] and data["reference"] == "Reference.lean"
    assert data["targets"] == ["toy_double_even"]  # the rules' theorem, not the differing target_decl
    assert "note: target_decl 'double_is_even' is not a name the formalization rules require" in out
    assert data["rules"]["text"] == meta["formalization_rules"]
    statement, proof = data["informal"]["statement"], data["informal"]["proof"]
    assert statement.startswith("\\begin{definition}[toyDouble]") and statement.endswith("\\end{theorem}")
    assert "\\begin{proof}" not in statement and "\\item[(b)] $n \\le n + n$." in statement
    assert proof.startswith("\\begin{proof}\nWrite $n + n = 2 \\cdot n$") and proof.endswith("\\end{proof}")
    sb = data["shadowbench"]
    for key in ("id", "problem_id", "paper_id", "paper_title", "target_decl", "target_kind", "toolchain", "types",
                "custom_module", "created_at", "updated_at", "translation_direction", "references", "subfields",
                "metrics", "text"):
        assert sb[key] == meta[key], key
    assert sb["held_by"] == {"level": "level", "formalization_rules": "rules.text"}
    # A null anywhere, or a field named like a reserved key, is kept as JSON text.
    assert {k: json.loads(v) for k, v in sb["as_json"].items()} == {
        "reviewer": None, "history": meta["history"], "held_by": meta["held_by"]}
    assert set(sb) - {"held_by", "as_json"} | set(sb["held_by"]) | set(sb["as_json"]) == set(meta)


def test_plain_label_problem_field_by_field(imported):
    _, _, root = imported
    pid = "number-theory.L3.nt_toy_L3_001"
    folder, targets = GOOD[pid]
    meta, data = meta_of(folder), toml_of(root, pid)
    assert data["targets"] == targets and data["area"] == "number_theory"
    assert data["source"] == "ShadowBench number-theory/L3/nt_toy_L3_001"  # no paper id or title
    assert data["informal"]["statement"] == (
        "Theorem (ToyBound0)\n\n$$\n\\sum_{k = 1}^n k \\le n^2.\n$$\n\nTheorem (ToyBound1)\n\n"
        "For $n \\ge 1$, $\\sum_{k=1}^n k \\ge n$.\n\nDefinition (ToyConstant)\n\n"
        "The toy constant is $1/2$, the limit of $n^{-2} \\sum_{k \\le n} k$.")
    proof = data["informal"]["proof"]
    assert proof.startswith("Proof.\n\nEach of the $n$ terms") and proof.endswith("The last term alone is $n$.")
    assert "\\begin{align*}" in proof and "Problem reduces to counting terms." in proof
    sb = data["shadowbench"]
    assert sb["toolchain"] == {"lean": "4.28.0"} and "target_decl" not in sb and "as_json" not in sb
    assert sb["area"] == "number-theory" and sb["held_by"] == {"level": "level", "formalization_rules": "rules.text"}


def test_markdown_problem_keeps_subheadings_in_the_proof(imported):
    _, _, root = imported
    data = toml_of(root, "algebraic-geometry.L1.alg_toy_L1_001")
    assert data["informal"]["statement"] == (
        "# Toy scheme statement\n\n## Statement\n\nLet $X$ be a toy scheme. Then $X$ is *quasi-toy*.")
    assert data["informal"]["proof"].startswith("## Proof\n\n### Step 1\n") and "### Step 2" in data["informal"]["proof"]
    assert data["source"] == "ShadowBench algebraic-geometry/L1/alg_toy_L1_001 (mathlib4, Toy Geometry)"


def test_reference_stub_names_the_targets_and_the_problem_loads_once_written(imported):
    _, _, root = imported
    folder = root / "algebra.L1.alg_toy_L1_001"
    stub = (folder / "Reference.lean").read_text(encoding="utf-8")
    assert stub.startswith("import Mathlib\n\n/-!\n# algebra/L1/alg_toy_L1_001: reference formalization")
    assert "* `toy_double_even`" in stub and "* definition `toyDouble`" in stub
    assert stub.rstrip().endswith("open Nat")  # the rules' preamble
    with pytest.raises(ProblemError, match="'toy_double_even' is not declared in Reference.lean"):
        load_problem(folder)
    write_reference(folder, "def toyDouble (n : ℕ) : ℕ := n + n\n\n"
                            "theorem toy_double_even (n : ℕ) : 2 ∣ toyDouble n ∧ n ≤ toyDouble n := sorry\n")
    problem = load_problem(folder)
    assert problem.needs_mathlib and problem.targets == ("toy_double_even",)


@pytest.mark.parametrize("pid", sorted(GOOD))
def test_meta_json_is_rebuilt_exactly(imported, pid):
    _, _, root = imported
    folder = root / pid
    targets = GOOD[pid][1]
    write_reference(folder, "".join(f"theorem {t.split('.')[-1]} : True := trivial\n" for t in targets)
                    if "." not in targets[0] else "namespace ToyScheme\ntheorem quasiToy_of_toy : True := trivial\n"
                    "end ToyScheme\n")
    problem = load_problem(folder)
    assert shadowbench_meta(problem) == meta_of(GOOD[pid][0])
    save_problem(problem, folder)  # a load → save round trip keeps the table byte for byte
    assert load_problem(folder).shadowbench == problem.shadowbench


def test_reimport_refuses_to_overwrite(imported, capsys):
    _, _, root = imported
    before = (root / "algebra.L1.alg_toy_L1_001" / PROBLEM_FILE).read_bytes()
    assert main(["import-shadowbench", str(DATA), "-o", str(root)]) == 2  # nothing could be imported
    out = capsys.readouterr().out
    assert out.count("a problem is already there") == 3
    assert (root / "algebra.L1.alg_toy_L1_001" / PROBLEM_FILE).read_bytes() == before


def test_nothing_importable_exits_2(tmp_path, capsys):
    bad = tmp_path / "data"
    for folder in BAD:
        shutil.copytree(DATA / folder, bad / folder)
    assert main(["import-shadowbench", str(bad), "-o", str(tmp_path / "out")]) == 2
    out = capsys.readouterr().out
    assert out.count("error: ") == 4 and "imported 0/4 problems" in out
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("make", ["missing", "empty"])
def test_no_data_folder_exits_2_with_one_line(tmp_path, capsys, make):
    data = tmp_path / "data"
    if make == "empty":
        data.mkdir()
    assert main(["import-shadowbench", str(data), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(data) in err


def test_a_problem_without_any_target_is_imported_and_check_problem_says_it_is_missing(tmp_path, capsys):
    # Like ShadowBench's probability/L1/prob_gen_L1_002 (ldilab/shadowbench @ cfbdeedc79dd09c92aa5ced289508fbf8dbc9308):
    # the formalization rules are the theorem's LaTeX text and name no declaration; there is no target_decl.
    folder = tmp_path / "data" / "logic" / "L1" / "log_toy_L1_001"
    folder.mkdir(parents=True)
    rules = "\\begin{theorem}[Quantitative lemma]\nLet $A_i$ be events.\n\\end{theorem}\n"
    (folder / "meta.json").write_text(json.dumps({"level": "L1", "formalization_rules": rules,
                                                  "target_decl": None}), "utf-8")
    (folder / "text.md").write_text("Theorem (t)\n\nSomething.\n", "utf-8")
    out_dir = tmp_path / "out"
    assert main(["import-shadowbench", str(tmp_path / "data"), "-o", str(out_dir)]) == 0
    out = capsys.readouterr().out
    assert "imported logic.L1.log_toy_L1_001: targets none (missing)" in out
    assert "note: no target: the formalization rules name no theorem" in out
    assert "imported 1/1 problems" in out
    problem = out_dir / "logic.L1.log_toy_L1_001"
    assert toml_of(out_dir, "logic.L1.log_toy_L1_001")["targets"] == []
    assert "the formalization rules name no target" in (problem / "Reference.lean").read_text(encoding="utf-8")
    assert main(["check-problem", str(problem)]) == 2
    err = capsys.readouterr().err
    assert "field 'targets': the target is missing" in err and err.count("\n") == 1


# ---------------------------------------------------------------------------------------------------------------
# The pieces


@pytest.mark.parametrize("text, statement, proof", [
    ("Just a statement.\n", "Just a statement.", None),
    ("\\begin{lemma}\nL.\n\\end{lemma}\n\\begin{proof}\nP.\n\\end{proof}\n\\begin{corollary}\nC.\n\\end{corollary}\n",
     "\\begin{lemma}\nL.\n\\end{lemma}\n\n\\begin{corollary}\nC.\n\\end{corollary}", "\\begin{proof}\nP.\n\\end{proof}"),
    ("Lemma 1. A.\n\nProof. Since B.\nQED\n\nLemma 2. C.\n", "Lemma 1. A.\n\nLemma 2. C.", "Proof. Since B.\nQED"),
    ("**Theorem.** A.\n\n**Proof.** B.\n", "**Theorem.** A.", "**Proof.** B."),
    ("Theorem A.\n\\begin{proof}\nunclosed", "Theorem A.", "\\begin{proof}\nunclosed"),
])
def test_split_text(text, statement, proof):
    assert split_text(text) == (statement, proof)


def test_required_names_and_preamble():
    rules = ("open A B\nopen scoped C\n\n/-\n1. The definition must be named `d`.\n2. The lemma must be named `X.l`."
             "\nThe theorem must be named `t`.\nThe theorem must be named `t`.\n-/")
    assert required_names(rules) == [("definition", "d"), ("lemma", "X.l"), ("theorem", "t")]
    assert rules_preamble(rules) == "open A B\nopen scoped C"
    assert rules_preamble("Use Mathlib's names.\nopen X") == ""  # prose first: nothing to copy into Lean


# The phrasings ShadowBench's public split uses besides "The theorem must be named `x`." (ldilab/shadowbench @
# cfbdeedc79dd09c92aa5ced289508fbf8dbc9308): the lines are quoted from geometry/L1/geo_gen_L1_014/meta.json and
# geometry/L1/geo_gen_L1_013/meta.json; the last case is an adversarial one of ours.
@pytest.mark.parametrize("rules, names", [
    ("open Manifold Function\n\n/-\nFormalize the theorem named `partial_x_ne_partial_xtilde_at_p`.\n\n"
     "The fact that (x~, y~) are global smooth coordinates should be formalized\nas an auxiliary diffeomorphism "
     "`Phi`.\n-/", [("theorem", "partial_x_ne_partial_xtilde_at_p")]),
    ("open Manifold Set Topology\n\n/-\nFormalize in Lean the Theorem (gamma_not_smooth_embedding) from Text.\n\n"
     "The formalization must include the following named declarations:\n\n* `gamma` : the map γ(t) = (t^3, 0)\n"
     "* `gamma_smooth` : the theorem asserting that γ is smooth\n"
     "* `gamma_not_smooth_embedding` : the theorem asserting that γ is not a smooth embedding\n-/",
     [("theorem", "gamma_not_smooth_embedding"), ("map", "gamma"), ("theorem", "gamma_smooth")]),
    ("Formalize in Lean the Theorem (Cantelli's inequality) from Text.\nThe lemma must be named `l`.",
     [("lemma", "l")]),
])
def test_required_names_other_phrasings(rules, names):
    assert required_names(rules) == names


def test_the_import_says_how_many_load_and_what_to_write(imported):
    """Stub references declare nothing, so none loads yet: the output says so and names, per problem, what to
    declare; once one reference is written, that problem loads and the count says it (the mutation partner)."""
    from pyshadow.shadowbench import Imported, loading

    _, out, root = imported
    lines = out.splitlines()
    assert f"load as written: 0/{len(GOOD)} problems" in lines
    assert any(line.startswith(f"to write ({len(GOOD)}): each Reference.lean is a stub") for line in lines)
    folder = root / "algebra.L1.alg_toy_L1_001"
    assert f"  {folder / 'Reference.lean'}: declare `toy_double_even`, definition `toyDouble`" in lines
    nt = root / "number-theory.L3.nt_toy_L3_001"
    assert f"  {nt / 'Reference.lean'}: declare `ToyBound0`, `ToyBound1`, definition `ToyConstant`" in lines
    write_reference(folder, "def toyDouble (n : ℕ) : ℕ := n + n\n\n"
                            "theorem toy_double_even (n : ℕ) : 2 ∣ toyDouble n ∧ n ≤ toyDouble n := sorry\n")
    problems = [Imported(pid, root / pid, tuple(targets)) for pid, (_, targets) in GOOD.items()]
    ok, not_yet = loading(problems)
    assert [p.id for p in ok] == ["algebra.L1.alg_toy_L1_001"] and len(not_yet) == len(GOOD) - 1
