"""pyshadow: shadow-theorem checkers and SA-Pass scoring for Lean 4 autoformalization.

The public API (``pyshadow.check_pair``, ``pyshadow.score``, ``pyshadow.verify``, ``pyshadow.shadows``,
``pyshadow.load_problems``, ``pyshadow.Settings`` and the result types) lives in ``pyshadow.api`` and is loaded on
first use by the module ``__getattr__`` below: ``import pyshadow`` imports nothing else, starts no Lean and creates
no folder. Examples: docs/api.md.

The pipeline is the layout: ``syntax`` (lex, parse, render Lean statements), ``shadows`` (decomposition rules
and checker construction), ``workspace`` (Jinja2 → Lake project), ``lean`` (running Lean, the kernel tier),
``score`` (trust gate and metrics), ``llm`` (residual cases), ``api`` (the public API), ``commands`` (the CLI, I/O
at the edge).
"""

import importlib
import sys
import types

# Names the package exports, each loaded from its module on first access (PEP 562).
_PUBLIC = {
    "__version__": "pyshadow.version",
    **dict.fromkeys(("Settings", "LLMSettings"), "pyshadow.settings"),
    **dict.fromkeys((
        "BadInput", "Candidate", "Check", "Pair", "PairVerdict", "Problem", "ProblemReport", "ProblemSet",
        "PyshadowError", "ScoreRow", "Shadow", "ShadowSet", "StatementError", "TargetReport", "Unavailable",
        "check_pair", "check_pairs", "iter_score", "load_problems", "verify",
    ), "pyshadow.api"),
}
# ``pyshadow.score`` and ``pyshadow.shadows`` are subpackages *and* API functions: the root hands the subpackage
# out as a ``CallablePackage`` (calling it calls ``pyshadow.api.score`` / ``pyshadow.api.shadows``). Nothing in
# the package imports the root, so the facade sits above every layer it names.
_CALLABLE_PACKAGES = ("score", "shadows")

__all__ = sorted([*_PUBLIC, *_CALLABLE_PACKAGES])


def __getattr__(name: str) -> object:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'pyshadow' has no attribute {name!r}")
    value = getattr(importlib.import_module(_PUBLIC[name]), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC, *_CALLABLE_PACKAGES})


class CallablePackage(types.ModuleType):
    """A subpackage whose name is also an API function: ``pyshadow.score(…)`` is ``pyshadow.api.score(…)``, while
    ``pyshadow.score.pipeline`` stays the module."""

    def __call__(self, *args: object, **kwargs: object) -> object:
        function = getattr(importlib.import_module("pyshadow.api"), self.__name__.rpartition(".")[2])
        return function(*args, **kwargs)


def _callable_subpackage(name: str) -> property:
    """The root's attribute for subpackage ``name``: the import system stores the module through the setter; the
    getter imports it on first use and hands it out callable."""
    slot = f"_subpackage_{name}"

    def get(root: types.ModuleType) -> types.ModuleType:
        module = root.__dict__.get(slot) or importlib.import_module(f"pyshadow.{name}")
        if not isinstance(module, CallablePackage):
            module.__class__ = CallablePackage
        return module

    def put(root: types.ModuleType, module: types.ModuleType) -> None:
        root.__dict__[slot] = module

    return property(get, put)


class _Root(types.ModuleType):
    """The package root: its callable subpackages are properties (``_callable_subpackage``)."""

    score = _callable_subpackage("score")
    shadows = _callable_subpackage("shadows")


sys.modules[__name__].__class__ = _Root
