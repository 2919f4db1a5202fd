"""The public Python API: judge statements, score candidates and verify problems from a script or a notebook.

    import pyshadow
    problem = pyshadow.load_problems("problems")["nat_double_add"]
    row = pyshadow.score(problem, open("my_candidate.lean").read())[0]
    row.sa_pass, row.failed_checks

Every name here is exported from ``pyshadow`` itself (loaded on first use, so ``import pyshadow`` does nothing).
Functions take typed ``Settings`` and return frozen dataclasses (``pyshadow.api.types``); bad input raises a
``BadInput`` with one line saying what and where, a tier that cannot run here ``Unavailable``. docs/api.md holds
the examples (run by tests/test_api.py).
"""

from ..errors import BadInput, PyshadowError, Unavailable
from ..problems import Problem
from ..score.candidates import Candidate
from ..settings import LLMSettings, Settings
from .pairs import Pair, StatementError, check_pair, check_pairs, shadows
from .scoring import choose_tier, iter_score, load_problems, score, verify
from .types import Check, PairVerdict, ProblemReport, ProblemSet, ScoreRow, Shadow, ShadowSet, TargetReport

__all__ = [
    "BadInput",
    "Candidate",
    "Check",
    "LLMSettings",
    "Pair",
    "PairVerdict",
    "Problem",
    "ProblemReport",
    "ProblemSet",
    "PyshadowError",
    "ScoreRow",
    "Settings",
    "Shadow",
    "ShadowSet",
    "StatementError",
    "TargetReport",
    "Unavailable",
    "check_pair",
    "check_pairs",
    "iter_score",
    "load_problems",
    "score",
    "shadows",
    "verify",
]
