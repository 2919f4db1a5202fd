"""Robustness of checkers: do they survive harmless variation in how a statement is written?

- ``variants`` — semantically equivalent rewrites of a reference declaration (binder styles, hypothesis names and
  order, bundling, ``>`` for ``<``, ``Type*``, ``fun … ↦``, ``∑ x ∈ s``) and negative controls, pure functions
  over the typed tree;
- ``matrix`` — every checker of a problem run against every variant of its reference (variant × checker →
  pass/fail with Lean's message), the per-rewrite summary and its JSON / markdown reports;
- ``tiers`` — which Lean scores a variant (the kernel tier's skeleton SA-Pass; the full tier plugs in there);
- ``revisions`` and ``diff`` — a problem set read at a git revision (gitpython, no checkout) and what changed
  between two revisions: problems, shadows, checker texts, result files.

Importing this package imports none of them; import the module you need.
"""
