"""Where the repository's non-Python assets live (templates, bundled problems, grammar)."""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parent
TEMPLATES_DIR = REPO_DIR / "templates"
PROBLEMS_DIR = REPO_DIR / "problems"
GRAMMAR_FILE = PACKAGE_DIR / "grammar" / "lean_statement.lark"
LEAN_TOOLCHAIN_FILE = REPO_DIR / "lean-toolchain"
