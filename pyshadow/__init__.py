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

import types

__version__ = "0.1.0"

# Names the package exports, each loaded from its module on first access (PEP 562).
_PUBLIC = {
    **dict.fromkeys(("Settings", "LLMSettings"), "pyshadow.settings"),
    **dict.fromkeys((
        "BadInput", "Candidate", "Check", "Pair", "PairVerdict", "Problem", "ProblemReport", "ProblemSet",
        "PyshadowError", "ScoreRow", "Shadow", "ShadowSet", "StatementError", "TargetReport", "Unavailable",
        "check_pair", "check_pairs", "iter_score", "load_problems", "verify",
    ), "pyshadow.api"),
}
# ``pyshadow.score`` and ``pyshadow.shadows`` are subpackages *and* API functions: each package makes itself
# callable (``callable_package``), calling ``pyshadow.api.score`` / ``pyshadow.api.shadows``.
_CALLABLE_PACKAGES = ("score", "shadows")

__all__ = ["__version__", *sorted([*_PUBLIC, *_CALLABLE_PACKAGES])]


def __getattr__(name: str) -> object:
    import importlib

    if name in _CALLABLE_PACKAGES:  # the subpackage, callable (importing it sets the attribute)
        return importlib.import_module(f"pyshadow.{name}")
    if name not in _PUBLIC:
        raise AttributeError(f"module 'pyshadow' has no attribute {name!r}")
    value = getattr(importlib.import_module(_PUBLIC[name]), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC, *_CALLABLE_PACKAGES})


class CallablePackage(types.ModuleType):
    """A subpackage whose name is also an API function: ``pyshadow.score(…)`` is ``pyshadow.api.score(…)``, while
    ``pyshadow.score.pipeline`` stays the module. Set by the package itself (``callable_package``), so it holds
    however the package was first imported."""

    def __call__(self, *args: object, **kwargs: object) -> object:
        import importlib

        function = getattr(importlib.import_module("pyshadow.api"), self.__name__.rpartition(".")[2])
        return function(*args, **kwargs)


def callable_package(module_name: str) -> None:
    """Make the package ``module_name`` (``pyshadow.score``, ``pyshadow.shadows``) a ``CallablePackage``."""
    import sys

    sys.modules[module_name].__class__ = CallablePackage
