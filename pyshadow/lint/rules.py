"""The lint rules: the table of every rule; importing this module registers them all, in the table's order.

Each rule is one function (registered with :func:`~pyshadow.lint.findings.rule`) in the module of its family:
``rules_bigop``, ``rules_nat``, ``rules_binders`` and ``rules_hypotheses``.

==========================  ========  =========================================================================
rule                        severity  flags
==========================  ========  =========================================================================
bigop-body                  error     a variable bound by ``∑``/``∏`` (body at precedence 67, Mathlib
                                      Algebra/BigOperators/Group/Finset/Defs.lean) reappearing after the body,
                                      where no other binder binds it: ``∑ k ∈ s, a + k * d`` is
                                      ``(∑ k ∈ s, a) + k * d`` with a new auto-bound ``k``. A warning when an
                                      outer binder of that name exists (the occurrence then means the outer one).
bigop-trailing-constant     warning   ``∑ k ∈ s, 2 * k + 1 = n ^ 2``, ``(∏ k ∈ s, 2 * k + 1) % 10``: a constant
                                      after the body is outside it (added once); clean when the big operator
                                      is closed by its own parentheses, ``(∑ k ∈ s, 2 * k) + 1``.
nat-exponent-division       error     ``x ^ (1 / 3)``: a literal exponent is ℕ (Monoid.Pow is the default
                                      instance), so ``1 / 3`` is ℕ division, here 0. A warning when the
                                      division has a variable (``x ^ (1 / n)``).
nat-subtraction             warning   truncated ℕ subtraction where the statement otherwise lives in ℤ/ℚ/ℝ, or
                                      compared with 0 or 1 (``a - b = 0`` holds whenever ``a ≤ b``); not when a
                                      hypothesis guards it (``0 < n`` for ``n - 1``, ``b ≤ a`` for ``a - b``).
nat-division                warning   ℕ division where the statement otherwise lives in ℤ/ℚ/ℝ, unless a
                                      hypothesis says the divisor divides.
binder-shadowing            error     a header binder declaring a name an earlier header binder declared: the
                                      hypotheses after it constrain the new variable. A warning for a quantifier
                                      or ``fun`` inside the statement re-binding a header variable.
factorial-identifier        error     ``n!`` where ``n`` is a variable: one identifier (a new auto-bound
                                      variable), not ``n !``.
optparam-binder             error     ``(S : Set ℕ := {…})`` in a theorem: the default value is no hypothesis,
                                      ``S`` ranges over every value.
vacuous-hypotheses          error     hypotheses that contradict each other syntactically (``x < 0`` and
                                      ``0 < x``, ``a = 2`` and ``a = 3``), or an ℕ variable below 0.
single-point-hypothesis     warning   an equation about a function variable at one header variable that
                                      nothing else mentions: ``(x : ℤ) (h : f x + f (x - 1) = x ^ 2)`` where
                                      ``∀ x,`` was meant.
unused-hypothesis           warning   a hypothesis whose variables appear neither in the conclusion nor in any
                                      hypothesis connected to it.
==========================  ========  =========================================================================
"""

from . import rules_bigop, rules_nat, rules_binders, rules_hypotheses  # noqa: F401  (registers the rules)
