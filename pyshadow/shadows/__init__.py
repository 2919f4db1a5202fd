"""Shadow sets: the deterministic decomposition rules and the checker theorems built from them."""

from .rules import Decomposition, Shadow, Step, decompose, recompose

__all__ = ["Decomposition", "Shadow", "Step", "decompose", "recompose"]
