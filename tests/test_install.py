"""pyshadow as a user installs it: a wheel in a fresh virtual environment, run from an empty folder; an editable
install reading the checkout; and a machine without git.

The wheel test builds from a copy of the repository (so nothing is written into the checkout), installs the wheel
with the machine's pip configuration (its local package registry; no internet is needed), and runs the main job
with a PATH that holds only the venv, from a folder holding nothing: templates, bundled problems and the Lean
toolchain pin must all come from inside the installed package, and the workspace must land in that folder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COPY_IGNORE = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
                                     ".lake", "_bundled", ".venv", "out")


def _run(cmd, *, cwd, env=None, timeout=300):
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    return proc


def _clean_env(path: str) -> dict[str, str]:
    """The environment of a user's shell: no PYTHONPATH pointing into the checkout, only ``path`` on PATH."""
    keep = {k: v for k, v in os.environ.items() if k.startswith(("PIP_", "PYSHADOW_", "LANG", "LC_"))}
    return {**keep, "HOME": os.environ.get("HOME", "/tmp"), "PATH": path}


def test_wheel_installs_and_runs_from_an_empty_folder(tmp_path):
    source = tmp_path / "src"
    shutil.copytree(REPO, source, ignore=COPY_IGNORE)
    dist = tmp_path / "dist"
    built = _run([sys.executable, "-m", "pip", "wheel", source, "--no-deps", "-q", "-w", dist], cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    wheel = next(dist.glob("pyshadow_lean-*.whl"))  # the distribution is pyshadow-lean

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / "bin"
    installed = _run([bin_dir / "python", "-m", "pip", "install", "-q", f"{wheel}[kernel]"], cwd=tmp_path,
                     env={**os.environ, "PYTHONPATH": ""})
    assert installed.returncode == 0, installed.stdout + installed.stderr

    empty = tmp_path / "empty"
    empty.mkdir()
    env = _clean_env(f"{bin_dir}:/usr/bin:/bin")
    proc = _run([bin_dir / "pyshadow", "run", "-j", "2"], cwd=empty, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    n = len(list((REPO / "problems").glob("*/problem.toml")))  # the bundled set, all shipped in the wheel
    assert re.fullmatch(rf"generated \d+ checkers for {n} problems into build/workspace \({n * 3 + 4} files "
                        r"written, 0 unchanged\)", lines[0]), lines[0]
    assert lines[-1].startswith(f"{n} problems: {n}/{n} complete")
    assert (empty / "build" / "workspace" / "manifest.json").is_file()
    assert (empty / "build" / "workspace" / "lean-toolchain").read_text() == (REPO / "lean-toolchain").read_text()
    assert sorted(p.name for p in empty.iterdir()) == ["build"]  # nothing else written here

    # The toolchain pin is read from the package (export), and ./problems wins over the bundled set.
    where = _run([bin_dir / "python", "-c", "import pyshadow.paths as p; print(p.ASSETS_DIR, p.CHECKOUT_DIR)"],
                 cwd=empty, env=env)
    assert "site-packages/pyshadow/_bundled None" in where.stdout, where.stdout + where.stderr
    shutil.copytree(REPO / "problems" / "nat_pos_facts", empty / "problems" / "nat_pos_facts")
    exported = _run([bin_dir / "pyshadow", "export", "--public", "pub"], cwd=empty, env=env)
    assert exported.returncode == 2 and "PROBLEMS_DIR" in exported.stderr  # export names its input explicitly
    exported = _run([bin_dir / "pyshadow", "export", "problems", "--public", "pub"], cwd=empty, env=env)
    assert exported.returncode == 0, exported.stderr
    assert (empty / "pub" / "lean-toolchain").read_text() == (REPO / "lean-toolchain").read_text()
    verified = _run([bin_dir / "pyshadow", "verify", "-j", "1"], cwd=empty, env=env)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.splitlines()[-1] == "verified 1 problems (kernel tier): 1/1 complete"


def test_editable_install_reads_the_checkout(tmp_path):
    """An editable install runs from the checkout: it reads the top-level templates/ and problems/ (no copy).

    The venv is isolated (no system site-packages) and gets the real dependencies from the machine's pip
    configuration, as a user's fresh venv does — so the test passes or fails the same inside a venv and out.
    """
    source = tmp_path / "src"
    shutil.copytree(REPO, source, ignore=COPY_IGNORE)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / "bin"
    installed = _run([bin_dir / "python", "-m", "pip", "install", "-q", "-e", source], cwd=tmp_path,
                     env={**os.environ, "PYTHONPATH": ""})
    assert installed.returncode == 0, installed.stdout + installed.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    env = _clean_env(f"{bin_dir}:/usr/bin:/bin")
    where = _run([bin_dir / "python", "-c", "import pyshadow.paths as p; print(p.TEMPLATES_DIR, p.PROBLEMS_DIR)"],
                 cwd=empty, env=env)
    assert where.stdout.split() == [str(source / "templates"), str(source / "problems")], where.stderr
    generated = _run([bin_dir / "pyshadow", "generate", source / "problems", "-o", "ws"], cwd=empty, env=env)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert (empty / "ws" / "Checkers" / "NatPosFacts" / "Forward.lean").is_file()
    assert not (source / "build").exists()  # nothing written into the checkout


def test_help_works_without_git_and_diff_says_it_needs_git(tmp_path):
    env = {"HOME": os.environ.get("HOME", "/tmp"), "PATH": str(tmp_path / "no-bin"),
           "PYTHONPATH": str(REPO)}
    helped = _run([sys.executable, "-m", "pyshadow.cli", "--help"], cwd=tmp_path, env=env)
    assert helped.returncode == 0 and "COMMAND" in helped.stdout, helped.stderr
    for command in ("verify", "run", "generate", "score"):
        sub = _run([sys.executable, "-m", "pyshadow.cli", command, "--help"], cwd=tmp_path, env=env)
        assert sub.returncode == 0, sub.stderr
    diffed = _run([sys.executable, "-m", "pyshadow.cli", "diff", "HEAD~1", "HEAD", str(REPO / "problems")],
                  cwd=tmp_path, env=env)
    assert diffed.returncode == 3 and diffed.stdout == ""
    assert diffed.stderr.count("\n") == 1 and diffed.stderr.startswith("pyshadow diff: error: diff needs git")
