"""Lean's own elaborator for statements: a signature environment of Lean core and Mathlib declarations
(``environment``), surface notation printed as the builtin syntax it expands to (``translate``, ``statements``),
and batches of statements elaborated by the kernel-tier Lean against it (``elaborate``)."""
