"""An expert shadow the tier did not check is never counted toward ``complete`` (issue 21): the kernel tier checks
T ⇒ S for each expert shadow with the skeleton search, and one it cannot prove — the plainly false
``n ^ 2 + n = 7 ∧ False`` — makes the problem ``unchecked``: exit 4 in ``check-problem``, ``verify`` and ``run``,
and the same word in all three. A true expert shadow the search proves keeps the problem ``complete`` (its partner).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pyshadow.cli import main
from pyshadow.paths import PROBLEMS_DIR

FALSE_SHADOW = "n ^ 2 + n = 7 ∧ False"
TRUE_SHADOW = "2 * sumUpTo n ≤ n * (n + 1)"  # the target `2 * sumUpTo n = n * (n + 1)`, weakened: le_of_eq


def gauss_with(tmp_path: Path, statement: str) -> Path:
    """The bundled ``nat_gauss_sum`` (an atomic target, residual) with one more expert shadow."""
    root = tmp_path / "problems"
    folder = root / "nat_gauss_sum"
    shutil.copytree(PROBLEMS_DIR / "nat_gauss_sum", folder)
    toml = folder / "problem.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n[[shadows]]\ntarget = \"Gauss.two_mul_sumUpTo\"\n"
                    f"statement = \"{statement}\"\n", encoding="utf-8")
    return folder


@pytest.mark.kernel
def test_a_false_expert_shadow_is_unchecked_everywhere(tmp_path, capsys, kernel_lean_exe):
    folder = gauss_with(tmp_path, FALSE_SHADOW)
    assert main(["check-problem", str(folder)]) == 4
    out = capsys.readouterr().out
    assert ("(residual: the identity shadow and 1 expert shadow); Lean accepted its checker; "
            "1 expert shadow unchecked") in out
    assert f"expert shadow 2 `{FALSE_SHADOW}`: the kernel tier could not show that the target implies it" in out
    assert out.rstrip().splitlines()[-1].startswith("unchecked: 1 expert shadow of nat_gauss_sum not checked")
    assert "complete: every shadow set" not in out

    report = tmp_path / "verify.jsonl"
    assert main(["verify", str(folder.parent), "-o", str(report)]) == 4
    out = capsys.readouterr().out
    assert "nat_gauss_sum                    unchecked" in out
    assert "0/1 complete; 1 unchecked" in out
    row = json.loads(report.read_text(encoding="utf-8"))
    assert row["status"] == "unchecked" and row["complete"] is False
    assert [u["statement"] for u in row["targets"][0]["unchecked"]] == [FALSE_SHADOW]

    assert main(["run", str(folder.parent), "-o", str(tmp_path / "ws")]) == 4
    out = capsys.readouterr().out
    assert "unchecked: nat_gauss_sum: Gauss.two_mul_sumUpTo: expert shadow 2" in out
    assert "1 problems: 0/1 complete; 1 unchecked" in out

    # generate agrees: the target is residual, with its expert shadow
    assert main(["generate", str(folder.parent), "-o", str(tmp_path / "gen")]) == 0
    out = capsys.readouterr().out
    assert "nat_gauss_sum: Gauss.two_mul_sumUpTo (+1 expert shadow)" in out


@pytest.mark.kernel
def test_a_true_expert_shadow_is_checked_by_the_skeleton_search(tmp_path, capsys, kernel_lean_exe):
    folder = gauss_with(tmp_path, TRUE_SHADOW)
    report = tmp_path / "verify.jsonl"
    assert main(["verify", str(folder.parent), "-o", str(report)]) == 0
    row = json.loads(report.read_text(encoding="utf-8"))
    assert row["status"] == "complete" and row["targets"][0]["unchecked"] == []
    expert = [c for c in row["targets"][0]["checks"] if c["kind"] == "expert"]
    assert [(c["shadow"], c["passed"]) for c in expert] == [(2, True)]
    assert main(["check-problem", str(folder)]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last == "complete: every shadow set of nat_gauss_sum is complete (kernel tier)"


@pytest.mark.kernel
def test_the_bundled_expert_shadow_is_checked(tmp_path, capsys, kernel_lean_exe):
    """``nat_not_even_and_odd``'s LLM shadow ``n % 2 = 0 → n % 2 ≠ 1`` follows from
    ``¬(n % 2 = 0 ∧ n % 2 = 1)``."""
    shutil.copytree(PROBLEMS_DIR / "nat_not_even_and_odd", tmp_path / "p" / "nat_not_even_and_odd")
    report = tmp_path / "verify.jsonl"
    assert main(["verify", str(tmp_path / "p"), "-o", str(report)]) == 0
    row = json.loads(report.read_text(encoding="utf-8"))
    assert row["status"] == "complete"
    assert [c["passed"] for c in row["targets"][0]["checks"] if c["kind"] == "expert"] == [True]
