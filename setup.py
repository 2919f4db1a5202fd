"""Build step that puts the repository's top-level assets into the wheel.

``templates/``, ``problems/`` and ``lean-toolchain`` live at the repository's top level (where authors read and
edit them); an installed package finds them under ``pyshadow/_bundled/`` (see ``pyshadow/paths.py``). An editable
install needs no copy: the package then runs from the checkout and reads the top-level folders directly.
Everything else is configured in ``pyproject.toml``.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
ASSETS = ("templates", "problems", "lean-toolchain")  # = pyshadow.paths.BUNDLED_ASSETS


class build_py_with_assets(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "pyshadow" / "_bundled"
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        for name in ASSETS:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                shutil.copy2(source, target / name)


setup(cmdclass={"build_py": build_py_with_assets})
