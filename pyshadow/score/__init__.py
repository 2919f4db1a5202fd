"""Scoring candidate formalizations: the trust gate, loading candidates, and the metrics.

- ``candidates`` — load candidate files (folders or JSONL) and find the declaration that is checked (the *last*
  one with the target's name, namespaces resolved), plus rule-based name fixing.
- ``audit`` — the static trust gate over untrusted candidate Lean: one table of rules, each flagging a way a
  candidate could fake a pass (``sorry``, ``axiom``, ``#exit``, syntax extensions, kernel/debug options, …).
- ``metrics`` — SA-Pass, SA-Pass_soft, compile rate, Fwd / Bwd / Fwd_all, buckets, and their aggregation into
  markdown / CSV tables, exactly as docs/DESIGN.md defines them.

Importing this package imports none of them; import the module you need. Calling the package,
``pyshadow.score(problems, candidates, settings=…)``, is the public ``pyshadow.api.score``.
"""
