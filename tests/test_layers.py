"""Layers point only down, and no package imports itself back in a cycle (read from the source with ``ast``).

The order (README "Layout"; the issue's "layers that only point down"):

    syntax → shadows → kernel, lean (and llm beside lean) → the problem layer (problems, references, workspace,
    corpus, export, shadowbench, lint, settings) → score → robustness, api → commands → cli

with the utilities every layer may use below all of them (errors, paths, files, jsonl, progress, the package root). A
module may import from its own layer or any lower one, never a higher one — whether at the top of the file or
inside a function (an import on use is still a dependency) — and the packages form no cycle.

One exception, by design: the package root is also the public facade. Its names (``pyshadow.score``,
``pyshadow.check_pair`` …) are ``pyshadow.api``'s, loaded on first access by a module ``__getattr__`` (by module
name, which the import scan does not see), so ``import pyshadow`` loads nothing; no module of the package imports
the root (``__version__`` lives in ``pyshadow.version``), so the facade sits above every layer it names.
``test_the_package_root_is_a_lazy_facade`` holds that exception to exactly that.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pyshadow"

RANKS = {
    "errors": 0, "paths": 0, "files": 0, "jsonl": 0, "__init__": 0, "version": 0, "grammar": 0, "progress": 0,
    "syntax": 1,
    "shadows": 2,
    "kernel": 3, "lean": 3, "llm": 3, "elab": 3,
    "problems": 4, "problem_fields": 4, "references": 4, "workspace": 4, "corpus": 4, "export": 4, "shadowbench": 4, "lint": 4,
    "settings": 4,
    "score": 5,
    "robustness": 6, "api": 6,
    "commands": 7,
    "cli": 8,
}


def _layer(module: str) -> str:
    """``pyshadow.score.full`` → ``score``; ``pyshadow.references`` → ``references``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(path: Path, package: Path = PACKAGE) -> str:
    rel = path.relative_to(package.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path, package_dir: Path = PACKAGE) -> set[str]:
    """Every pyshadow module ``path`` imports (absolute names), top-level or inside functions."""
    module = _module_name(path, package_dir)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "pyshadow":
                continue
            found.add(target)
            if not node.module or target.count(".") == 0:  # `from . import lexer`: the names are modules
                found.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "pyshadow")
    return found


def _sources() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if "_bundled" not in p.parts]


def test_every_layer_is_ranked():
    layers = {_layer(_module_name(p)) for p in _sources()}
    assert layers <= set(RANKS), f"add these to RANKS: {sorted(layers - set(RANKS))}"


def test_no_module_imports_a_higher_layer():
    upward = []
    for path in _sources():
        here = _layer(_module_name(path))
        for target in _imports(path):
            there = _layer(target)
            if there in RANKS and RANKS[there] > RANKS[here]:
                upward.append(f"{path.relative_to(PACKAGE.parent)} imports {target} ({here} → {there})")
    assert upward == []


def test_packages_form_no_cycle():
    edges: dict[str, set[str]] = defaultdict(set)
    for path in _sources():
        here = _layer(_module_name(path))
        for target in _imports(path):
            there = _layer(target)
            if there != here:
                edges[here].add(there)
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, stack: list[str]) -> bool:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycle.extend(stack[stack.index(nxt):] + [nxt] if nxt in stack else [node, nxt])
                return True
            if state.get(nxt) is None and visit(nxt, stack + [nxt]):
                return True
        state[node] = 2
        return False

    for node in sorted(list(edges)):
        if state.get(node) is None and visit(node, [node]):
            break
    assert cycle == []


def test_the_checker_finds_an_upward_import(tmp_path):
    """The checker itself, on a fake package: a syntax module importing score, relatively and inside a function,
    is caught (a test that could fail)."""
    fake = tmp_path / "pyshadow"
    (fake / "syntax").mkdir(parents=True)
    probe = fake / "syntax" / "probe.py"
    probe.write_text("def f():\n    from ..score import pipeline\n    from . import lexer\n", encoding="utf-8")
    found = _imports(probe, fake)
    assert {"pyshadow.score", "pyshadow.syntax.lexer"} <= found
    here = _layer(_module_name(probe, fake))
    assert here == "syntax" and RANKS[_layer("pyshadow.score")] > RANKS[here]


def test_the_package_root_is_a_lazy_facade():
    """The root imports no pyshadow module (only names them for ``__getattr__``), names only the api and settings
    modules and the callable subpackages, and ``import pyshadow`` loads no other pyshadow module."""
    import subprocess
    import sys

    import pyshadow

    root = PACKAGE / "__init__.py"
    assert _imports(root) == set()
    assert set(pyshadow._PUBLIC.values()) == {"pyshadow.api", "pyshadow.settings", "pyshadow.version"}
    importers = [p for p in _sources() if "pyshadow" in _imports(p) or "pyshadow.__init__" in _imports(p)]
    assert importers == []  # nothing below imports the facade
    assert set(pyshadow._CALLABLE_PACKAGES) <= {_layer(_module_name(p)) for p in _sources()}
    code = "import sys, pyshadow; print(sorted(m for m in sys.modules if m.startswith('pyshadow')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=PACKAGE.parent).stdout
    assert out.strip() == "['pyshadow']"


def test_docs_the_code_cites_are_in_the_repository():
    """Every ``docs/NAME.md`` a module or template cites is a file of this repository (not a path outside it)."""
    import re

    root = PACKAGE.parent
    cited: set[str] = set()
    for path in [*_sources(), *(root / "templates").rglob("*.j2")]:
        cited.update(re.findall(r"docs/[\w.-]+\.md", path.read_text(encoding="utf-8")))
    assert {"docs/DESIGN.md", "docs/checker-idioms.md"} <= cited
    assert sorted(c for c in cited if not (root / c).is_file()) == []
