"""Shadow sets: the deterministic decomposition rules and the checker theorems built from them.

Calling the package, ``pyshadow.shadows(statement)``, is the public ``pyshadow.api.shadows`` (a ``ShadowSet``).
"""

from .. import callable_package
from .rules import Decomposition, Shadow, Step, decompose, recompose

__all__ = ["Decomposition", "Shadow", "Step", "decompose", "recompose"]

callable_package(__name__)
