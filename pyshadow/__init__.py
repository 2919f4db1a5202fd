"""pyshadow: shadow-theorem checkers and SA-Pass scoring for Lean 4 autoformalization.

The pipeline is the layout: ``syntax`` (lex, parse, render Lean statements), ``shadows`` (decomposition rules
and checker construction), ``workspace`` (Jinja2 → Lake project), ``lean`` (running Lean, the kernel tier),
``score`` (trust gate and metrics), ``llm`` (residual cases), ``commands`` (the CLI, I/O at the edge).
"""

__version__ = "0.1.0"
