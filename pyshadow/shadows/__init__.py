"""Shadow sets: the deterministic decomposition rules and the checker theorems built from them.

Calling the package, ``pyshadow.shadows(statement)``, is the public ``pyshadow.api.shadows`` (a ``ShadowSet``).
"""

from .rules import Decomposition, Shadow, Step, decompose, recompose

__all__ = ["Decomposition", "Shadow", "Step", "decompose", "recompose"]
