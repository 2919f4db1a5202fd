"""``pyshadow export``: the public half holds nothing hidden; the hidden half pins toolchain, Mathlib, pyshadow
version and every checker's sha256; both are deterministic and written only into new folders."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from pyshadow import __version__
from pyshadow.cli import main
from pyshadow.paths import LEAN_TOOLCHAIN_FILE
from pyshadow.problems import load_problems
from pyshadow.workspace import mathlib_rev, module_names, plan_problem

TOOLCHAIN = LEAN_TOOLCHAIN_FILE.read_text(encoding="utf-8")

PROBLEMS = {
    "toy_add": (
        '''id = "toy_add"
area = "arithmetic"
level = "L1"
source = "written for the export test"
imports = []
reference = "Reference.lean"
targets = ["ToyAdd.add_zero_and_comm", "ToyAdd.exists_zero"]

[informal]
statement = "Adding nothing changes nothing, sums commute, and some natural number is zero."
proof = "By the definition of addition and by induction."

[rules]
text = "Name each theorem as listed."

[[shadows]]
target = "ToyAdd.exists_zero"
statement = "∃ m : Nat, m ≤ 0"
''',
        '''/-!
# toy_add: reference formalization
-/

namespace ToyAdd

theorem add_zero_and_comm (a b : Nat) : a + 0 = a ∧ a + b = b + a :=
  ⟨Nat.add_zero a, Nat.add_comm a b⟩

theorem exists_zero : ∃ n : Nat, n = 0 := ⟨0, rfl⟩

end ToyAdd
'''),
    "iff_root": (
        '''id = "iff_root"
area = "logic"
level = "L2"
source = "written for the export test"
imports = []
reference = "Main.lean"
targets = ["and_swap_iff"]

[informal]
statement = "A conjunction holds exactly when its swapped version holds."
''',
        '''theorem and_swap_iff (p q : Prop) : p ∧ q ↔ q ∧ p :=
  ⟨fun h => ⟨h.2, h.1⟩, fun h => ⟨h.2, h.1⟩⟩
'''),
    "real_sq": (
        '''id = "real_sq"
area = "analysis"
level = "L1"
source = "written for the export test"
imports = ["Mathlib"]
reference = "Reference.lean"
targets = ["RealSq.sq_nonneg_eq"]

[informal]
statement = "The square of a real number equals the number times itself, and is never negative."

[shadowbench]
id = "analysis/L1/ana_toy_L1_009"
paper_id = "toy"
types = ["theorem_stmt"]

[shadowbench.held_by]
level = "level"
''',
        '''import Mathlib

namespace RealSq

theorem sq_nonneg_eq (x : ℝ) : x ^ 2 = x * x ∧ 0 ≤ x ^ 2 := ⟨sq x, sq_nonneg x⟩

end RealSq
'''),
}


@pytest.fixture
def problems_dir(tmp_path) -> Path:
    root = tmp_path / "problems"
    for pid, (toml_text, reference) in PROBLEMS.items():
        folder = root / pid
        folder.mkdir(parents=True)
        (folder / "problem.toml").write_text(toml_text, encoding="utf-8")
        ref_name = re.search(r'reference = "([^"]+)"', toml_text).group(1)
        (folder / ref_name).write_text(reference, encoding="utf-8")
    return root


@pytest.fixture
def exported(problems_dir, tmp_path, capsys):
    public, hidden = tmp_path / "public", tmp_path / "hidden"
    assert main(["export", str(problems_dir), "--public", str(public), "--hidden", str(hidden)]) == 0
    out = capsys.readouterr().out
    return public, hidden, out


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_public_export_contains_nothing_hidden(exported, problems_dir):
    public, hidden, _ = exported
    texts = {name: data.decode("utf-8") for name, data in files_of(public).items()}
    assert set(texts) == {"problems.jsonl", "lean-toolchain", "manifest.json"}
    blob = "\n".join(texts.values())
    # JSON escapes nothing here (ensure_ascii off), but check the unescaped and the JSON-escaped forms alike.
    forms = lambda s: {s, json.dumps(s, ensure_ascii=False)[1:-1]}  # noqa: E731

    problems, errors = load_problems(problems_dir)
    assert not errors
    hidden_strings = []
    for problem in problems:
        reference = problem.reference.read_text(encoding="utf-8")
        hidden_strings.append(reference)
        hidden_strings += [line.strip() for line in reference.splitlines() if len(line.strip()) >= 12]
        hidden_strings += [s.statement for s in problem.expert_shadows]
    manifest = json.loads((hidden / "manifest.json").read_text(encoding="utf-8"))
    for entry in manifest["problems"].values():
        for target in entry["targets"]:
            hidden_strings += [s["statement"] for s in target["shadows"]]
            hidden_strings += [c["name"] for c in target["checkers"]]
    for name in manifest["files"]:
        if name.startswith("Checkers/") and not name.endswith("Reference.lean"):
            for block in (hidden / name).read_text(encoding="utf-8").split("\n\n"):
                if "theorem shadow_" in block:
                    hidden_strings.append(block.strip())
    assert len(hidden_strings) > 40
    leaks = [s for s in hidden_strings for form in forms(s) if form in blob]
    assert leaks == []


def test_public_records_field_by_field(exported, problems_dir):
    public, _, _ = exported
    lines = (public / "problems.jsonl").read_text(encoding="utf-8").splitlines()
    records = {r["id"]: r for r in map(json.loads, lines)}
    assert list(records) == ["iff_root", "real_sq", "toy_add"]
    keys = {"id", "area", "level", "source", "imports", "targets", "informal", "rules", "lean_toolchain", "mathlib",
            "shadowbench"}
    assert all(set(r) == keys for r in records.values())
    toy = records["toy_add"]
    assert toy["targets"] == ["ToyAdd.add_zero_and_comm", "ToyAdd.exists_zero"]
    assert toy["informal"] == {"statement": "Adding nothing changes nothing, sums commute, and some natural number "
                                            "is zero.", "proof": "By the definition of addition and by induction."}
    assert toy["rules"] == "Name each theorem as listed." and toy["imports"] == [] and toy["mathlib"] is None
    assert toy["lean_toolchain"] == TOOLCHAIN.strip() and toy["shadowbench"] is None
    real = records["real_sq"]
    assert real["imports"] == ["Mathlib"] and real["mathlib"] == mathlib_rev(TOOLCHAIN)
    assert real["shadowbench"] == {"id": "analysis/L1/ana_toy_L1_009", "paper_id": "toy", "types": ["theorem_stmt"],
                                   "held_by": {"level": "level"}}
    assert records["iff_root"]["informal"]["proof"] is None and records["iff_root"]["rules"] is None
    assert (public / "lean-toolchain").read_text(encoding="utf-8") == TOOLCHAIN
    manifest = json.loads((public / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["kind"] == "public" and manifest["generator"] == f"pyshadow {__version__}"
    assert manifest["lean_toolchain"] == TOOLCHAIN.strip() and manifest["mathlib"] == mathlib_rev(TOOLCHAIN)
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((public / name).read_bytes()).hexdigest() == digest


def test_hidden_manifest_pins_toolchain_mathlib_version_and_every_checker(exported, problems_dir):
    _, hidden, out = exported
    manifest = json.loads((hidden / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["lean_toolchain"] == TOOLCHAIN.strip()
    # a problem imports Mathlib: the Mathlib commit built with lean-toolchain (pyshadow.workspace.MATHLIB_COMMITS)
    assert manifest["mathlib"] == mathlib_rev(TOOLCHAIN) and len(manifest["mathlib"]) == 40
    assert manifest["generator"] == f"pyshadow {__version__}"
    assert (hidden / "lean-toolchain").read_text(encoding="utf-8") == TOOLCHAIN
    assert f'rev = "{mathlib_rev(TOOLCHAIN)}"' in (hidden / "lakefile.toml").read_text(encoding="utf-8")

    problems, _ = load_problems(problems_dir)
    modules = module_names([p.id for p in problems])
    expected = {}
    for problem in problems:
        for target in plan_problem(problem, modules[problem.id]).targets:
            for checker in target.checkers.checkers:
                expected[(problem.id, target.name, checker.name)] = checker.text
    listed = {}
    for pid, entry in manifest["problems"].items():
        for target in entry["targets"]:
            for c in target["checkers"]:
                listed[(pid, target["name"], c["name"])] = c["sha256"]
                assert expected[(pid, target["name"], c["name"])] in (hidden / c["file"]).read_text(encoding="utf-8")
    assert listed == {k: hashlib.sha256(v.encode()).hexdigest() for k, v in expected.items()}
    assert len(listed) >= 10
    # The expert shadow is in the hidden half, with its provenance.
    toy = {t["name"]: t for t in manifest["problems"]["toy_add"]["targets"]}
    assert any(s["statement"] == "∃ m : Nat, m ≤ 0" and s["provenance"] == ["expert"]
               for s in toy["ToyAdd.exists_zero"]["shadows"])
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((hidden / name).read_bytes()).hexdigest() == digest
    assert f"hidden export: 3 problems, {len(listed)} checkers" in out
    assert "public export: 3 problems" in out


def test_exports_are_deterministic(exported, problems_dir, tmp_path, capsys):
    public, hidden, _ = exported
    again_public, again_hidden = tmp_path / "public2", tmp_path / "hidden2"
    assert main(["export", str(problems_dir), "--public", str(again_public), "--hidden", str(again_hidden)]) == 0
    assert files_of(again_public) == files_of(public)
    assert files_of(again_hidden) == files_of(hidden)


def test_exports_go_only_into_new_folders(exported, problems_dir, tmp_path, capsys):
    public, hidden, _ = exported
    capsys.readouterr()
    before = files_of(public)
    assert main(["export", str(problems_dir), "--public", str(public)]) == 2
    assert "expected a new or empty folder" in capsys.readouterr().err
    assert files_of(public) == before
    assert main(["export", str(problems_dir), "--public", str(tmp_path / "x"), "--hidden", str(tmp_path / "x" / "h")]) == 2
    assert "separate folders" in capsys.readouterr().err
    assert main(["export", str(problems_dir)]) == 2
    assert "nothing to export" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_a_malformed_problem_stops_the_export(problems_dir, tmp_path, capsys):
    (problems_dir / "iff_root" / "problem.toml").write_text(PROBLEMS["iff_root"][0].replace('"L2"', '"L9"'), "utf-8")
    assert main(["export", str(problems_dir), "--public", str(tmp_path / "p"), "--hidden", str(tmp_path / "h")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "field 'level'" in err and "nothing exported" in err
    assert not (tmp_path / "p").exists() and not (tmp_path / "h").exists()
