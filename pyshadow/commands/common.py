"""What commands share: the Lean and LLM options, the one place they become settings (``Settings.from_args``, as
the API builds them), the choice of a Lean tier, and loading a problem set by the API's rule
(``pyshadow.api.scoring.load_problems``) with the one behaviour every command has for bad and empty input.

* A problem that does not load is a data row: one ``skipped problem: …`` line, and the run goes on.
* No problem at all (an empty folder) and no problem that loads are bad input: exit 2.
* A requested tier that is unavailable here is ``Unavailable``: exit 3.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from ..api.scoring import load_problems
from ..lean.settings import BACKENDS, LeanSettings
from ..lean.toolchain import LeanExecutable, find_full_toolchain, kernel_lean
from ..llm import add_llm_arguments
from ..problems import Problem, ProblemError
from ..score.tiers import Tier, select_lean, tier_for
from ..settings import Settings
from .helptext import DOCS, compact_group

LEAN_OPTIONS = f"Lean options ({DOCS}#lean-options)"
LLM_GROUP = "LLM for residual cases"  # the group pyshadow.llm.add_llm_arguments adds
LLM_OPTIONS = f"LLM options ({DOCS}#llm-options; endpoint and key: docs/llm.md)"


def add_lean_arguments(p: argparse.ArgumentParser, *, tier: bool = True, workspace: bool = True) -> None:
    """The Lean options: tier, Lake workspace (an input), parallelism and where it runs, cache and limits. ``--help``
    lists them by spelling (``helptext.compact_group``); what each means is docs/commands.md, "Lean options"."""
    g = p.add_argument_group(LEAN_OPTIONS)
    if tier:
        g.add_argument("--tier", choices=("full", "kernel"), help="the Lean tier (default: the best available)")
    if workspace:
        g.add_argument("--workspace", type=Path, metavar="DIR", help="full tier: the Lake workspace to run Lean in")
    g.add_argument("-j", "--jobs", type=int, metavar="N", help="parallel Lean processes")
    g.add_argument("--backend", choices=BACKENDS, help="where Lean processes run")
    g.add_argument("--scheduler", metavar="ADDRESS", help="dask or ray: the scheduler or cluster address")
    g.add_argument("--cache", type=Path, metavar="DIR", help="result cache directory")
    g.add_argument("--timeout", type=float, metavar="SECONDS", help="seconds per Lean process")
    g.add_argument("--memory-mb", type=int, metavar="MB", help="memory cap per Lean process")
    g.add_argument("--lean-checked-only", action="store_true", default=None,
                   help="kernel tier: a pass Lean did not check (it rests on the readings alone) is undecided "
                        "(the default)")
    g.add_argument("--allow-unchecked", dest="lean_checked_only", action="store_false", default=None,
                   help="kernel tier: let a pass that rests on the skeleton's readings alone stand, marked unchecked")
    compact_group(p, LEAN_OPTIONS)


def add_llm_options(p: argparse.ArgumentParser) -> None:
    """The LLM options (``pyshadow.llm.add_llm_arguments``), listed by spelling in ``--help``."""
    add_llm_arguments(p)
    compact_group(p, LLM_GROUP, rename=LLM_OPTIONS, description=None)


def cli_settings(args: argparse.Namespace) -> Settings:
    """The run's ``Settings`` from the command line, as the API builds them (``Settings.from_args``): an option
    given wins over its ``PYSHADOW_…`` variable, which wins over the default."""
    return Settings.from_args(args)


def lean_settings(args: argparse.Namespace) -> LeanSettings:
    """The one place command-line options become ``LeanSettings`` (library code never sees ``args``): the Lean
    part of ``cli_settings``, with ``--mutate`` where the command has it."""
    return replace(cli_settings(args).lean, mutate=bool(getattr(args, "mutate", False)))


def choose_lean(requested: str | None) -> tuple[str, LeanExecutable]:
    """The tier and its ``lean`` by the one rule (``pyshadow.score.tiers.select_lean``)."""
    return select_lean(requested, find_full_toolchain, "use --tier kernel", kernel_lean)


def choose_tier(settings: LeanSettings, requested: str | None = None) -> Tier:
    """The one ``Tier`` a run dispatches through (``pyshadow.score.tiers.tier_for`` over ``choose_lean``)."""
    return tier_for(settings, *choose_lean(requested or settings.tier))


def load_problem_set(folder: Path | None, *, quiet: bool = False) -> tuple[Path, list[Problem], list[ProblemError]]:
    """The problems under ``folder`` (default: ./problems, else the bundled set) and those that did not load, by the
    API's one rule (``pyshadow.api.scoring.load_problems``: empty folder or nothing loads is bad input, exit 2),
    each one that did not load reported on one line unless ``quiet``."""
    problem_set = load_problems(folder)
    if not quiet:
        for err in problem_set.errors:
            print(f"skipped problem: {err}")
    return problem_set.folder, list(problem_set.problems), list(problem_set.errors)
