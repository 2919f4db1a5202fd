"""Shadows that do not come from the rules: an expert's (or a model's) statements for a target, and their kinds.

The lowest module of ``pyshadow.shadows``: ``problems`` reads ``ExpertShadow`` s from ``problem.toml``,
``merge`` folds them into a decomposition, ``checkers`` renders them — all import from here, never from each other
in a circle.
"""

from __future__ import annotations

from dataclasses import dataclass

# Shadow kinds that are consequences of the target rather than the end of a projection path.
CONSEQUENCE_KINDS = frozenset({"expert", "llm"})


@dataclass(frozen=True)
class ExpertShadow:
    """A shadow written by an expert (or by a model, said by ``provenance``) for one target."""

    target: str
    statement: str
    provenance: str = "expert"
