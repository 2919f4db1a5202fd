"""Where pyshadow's non-Python assets live, and the defaults that are relative to the current folder.

The repository keeps ``templates/``, ``problems/`` and ``lean-toolchain`` at its top level (where an author reads
them). A wheel carries copies inside the package, under ``pyshadow/_bundled/`` (``setup.py``'s ``build_py`` step
puts them there). At run time the bundled copy wins when it exists (an installed wheel); otherwise the package is
running from a checkout (an editable install, or ``PYTHONPATH``) and the top-level folders are used.

Defaults for the user's own files are relative to the current folder, never to the installation:
``./problems`` when it exists (else the bundled problems) and ``./build/workspace``.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
BUNDLED_DIR = PACKAGE_DIR / "_bundled"  # present only in an installed wheel
# Names of the assets, the same in the repository's top level and in ``_bundled/`` (setup.py copies these).
BUNDLED_ASSETS = ("templates", "problems", "lean-toolchain")


def _checkout_dir() -> Path | None:
    """The repository checkout the package runs from, or None when it runs from an installed wheel."""
    if BUNDLED_DIR.is_dir():
        return None
    root = PACKAGE_DIR.parent
    return root if (root / "templates").is_dir() and (root / "lean-toolchain").is_file() else None


CHECKOUT_DIR = _checkout_dir()
ASSETS_DIR = CHECKOUT_DIR if CHECKOUT_DIR is not None else BUNDLED_DIR
TEMPLATES_DIR = ASSETS_DIR / "templates"
PROBLEMS_DIR = ASSETS_DIR / "problems"  # the bundled problem set
LEAN_TOOLCHAIN_FILE = ASSETS_DIR / "lean-toolchain"
GRAMMAR_FILE = PACKAGE_DIR / "grammar" / "lean_statement.lark"

LOCAL_PROBLEMS = Path("problems")
LOCAL_WORKSPACE = Path("build") / "workspace"


def default_problems_dir() -> Path:
    """``./problems`` when the current folder has one, else the bundled problem set."""
    return LOCAL_PROBLEMS if LOCAL_PROBLEMS.is_dir() else PROBLEMS_DIR


def default_workspace_dir() -> Path:
    """Where ``run`` writes its Lake workspace: ``./build/workspace``."""
    return LOCAL_WORKSPACE
