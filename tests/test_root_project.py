"""The repository is its own Lake project: ``Checkers/`` (and ``Checkers.lean``, ``lakefile.toml``,
``manifest.json``) at the top level are exactly what ``pyshadow generate problems -o .`` writes (issue #16).

Regenerating is byte-identical, so a change to the generator or to a bundled problem that is not followed by
``pyshadow generate problems -o .`` fails here. ``lake build`` at the root is then the full-tier check of every
bundled problem (``tests/test_full_tier_lean.py``, where a toolchain exists).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _generate(out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pyshadow.cli", "generate", str(ROOT / "problems"), "-o", str(out)],
                          capture_output=True, text=True, cwd=ROOT)


def test_committed_checkers_are_the_generated_ones(tmp_path):
    proc = _generate(tmp_path / "ws")
    assert proc.returncode == 0, proc.stderr
    generated = sorted(p.relative_to(tmp_path / "ws").as_posix() for p in (tmp_path / "ws").rglob("*") if p.is_file())
    manifest = json.loads((ROOT / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(manifest["files"]) + ["manifest.json"] == sorted(generated)
    drifted = [rel for rel in generated if (ROOT / rel).read_bytes() != (tmp_path / "ws" / rel).read_bytes()]
    assert not drifted, f"rerun `pyshadow generate problems -o .`: {drifted[:5]}"
    committed = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "Checkers").rglob("*.lean"))
    assert committed == sorted(g for g in generated if g.startswith("Checkers/"))  # nothing stale left behind


def test_references_proved_with_sorry_are_axioms_in_the_root_project():
    manifest = json.loads((ROOT / "manifest.json").read_text(encoding="utf-8"))
    admitted = {pid: p["reference_axioms"] for pid, p in manifest["problems"].items() if p["reference_axioms"]}
    assert admitted  # measured: two bundled references state their target with `sorry`
    for pid, targets in admitted.items():
        text = (ROOT / manifest["problems"][pid]["files"]["reference"]).read_text(encoding="utf-8")
        code = re.sub(r"/-.*?-/|--[^\n]*", "", text, flags=re.S)  # the generated header names the `sorry` it dropped
        assert "sorry" not in code
        for target in targets:
            assert f"axiom {target.rsplit('.', 1)[-1]}" in text


def test_generate_refuses_to_overwrite_a_foreign_lakefile(tmp_path):
    foreign = 'name = "someone_elses"\n'
    (tmp_path / "lakefile.toml").write_text(foreign, encoding="utf-8")
    proc = _generate(tmp_path)
    assert proc.returncode == 2 and "refusing to overwrite" in proc.stderr
    assert (tmp_path / "lakefile.toml").read_text(encoding="utf-8") == foreign
    assert not (tmp_path / "Checkers").exists()
