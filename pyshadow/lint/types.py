"""A small type inference over a statement: which numeric type (ℕ ℤ ℚ ℝ ℂ) each arithmetic expression is
elaborated in.

What it models (Lean core ``src/Init/Prelude.lean``/``Init/Notation.lean``: ``binop%``/``binrel%`` elaborators):
an arithmetic tree — the maximal expression built from ``+ - * / %``, unary ``-`` and one relation at its root —
is elaborated as a whole; its type is the largest type among its leaves (coercions are inserted at the leaves), so
one real leaf makes every operation in the tree real. A leaf's type comes from a binder (``(x : ℝ)``, ``(f : ℕ → ℝ)``
applied), an ascription ``(e : ℝ)``, the table of Mathlib signatures (:mod:`pyshadow.lint.signatures`), or a big
operator's body. Numerals are flexible and default to ℕ when no leaf fixes the type (Lean's ``OfNat`` default
instance); ``↑e`` is flexible but never defaults. The exponent of ``^`` is its own tree: with a literal exponent
Mathlib's ``@[default_instance high] instance Monoid.Pow`` (Mathlib/Algebra/Group/Defs.lean) makes it ℕ whatever the
base. Any leaf of unknown type makes the tree's type unknown (``?``) unless a known leaf is already ℝ or ℂ, and no
rule fires on an unknown type.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..syntax import terms as tm
from .signatures import COMPLEX, INT, NAT, NUMERIC, PROP, REAL, SAME, TYPE_NAMES, UNKNOWN, signature
from .statement import children

ARITHMETIC = frozenset({"+", "-", "*", "/", "%"})
RELATIONS = frozenset({"=", "≠", "<", "≤", ">", "≥", "!=", "<=", ">=", "∣"})
FLEX = "numeral"  # a numeric literal: any numeric type, ℕ by default
COERCED = "↑"  # `↑e`: some numeric type the context decides

# A type: a name in NUMERIC, PROP, a collection head ("Finset", "Set", "List"), UNKNOWN, or a function type.
FunType = tuple  # ("→", (argument types…), result)


def binder_type(node: tm.Node | None) -> object:
    """The type a binder's written type denotes: ``ℕ`` → ℕ, ``ℕ → ℝ`` → ("→", (ℕ,), ℝ), ``Finset ℕ`` → "Finset"."""
    if node is None:
        return UNKNOWN
    if isinstance(node, tm.Name):
        return TYPE_NAMES.get(node.text, UNKNOWN)
    if isinstance(node, tm.Binary) and node.op in ("→", "->"):
        args, result = [binder_type(node.left)], node.right
        while isinstance(result, tm.Binary) and result.op in ("→", "->"):
            args.append(binder_type(result.left))
            result = result.right
        return ("→", tuple(args), binder_type(result))
    if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text in ("Finset", "Set", "List",
                                                                                      "Multiset"):
        return node.fn.text
    return UNKNOWN


@dataclass
class Types:
    """The inferred types of one statement: ``tree_type[id(op node)]`` for every arithmetic operator node (the
    type its tree is elaborated in) and ``roots`` (each arithmetic tree's root node and type)."""

    tree_type: dict[int, str] = field(default_factory=dict)
    roots: list[tuple[tm.Node, str]] = field(default_factory=list)

    def of(self, node: tm.Node) -> str:
        return self.tree_type.get(id(node), UNKNOWN)

    def numeric_types(self) -> set[str]:
        return {t for _, t in self.roots if t in NUMERIC}


class Inference:
    """Walks a statement's parts in order, binders entering scope as they are declared."""

    def __init__(self) -> None:
        self.types = Types()

    # -- scope ---------------------------------------------------------------------------------------------
    def visit(self, node: tm.Node, scope: dict[str, object], expected: str | None = None,
              default: str = NAT) -> None:
        """Find the arithmetic trees in ``node`` (a proposition or a term) and type each one; ``default`` is the
        type of a tree of numerals only (ℕ, unless an unknown function's argument decides it)."""
        if _is_tree_op(node):
            self._tree(node, scope, expected, default)
            return
        if isinstance(node, (tm.Quantifier, tm.Lambda, tm.SetBuilder)):
            b = node.binder
            if b.type is not None:
                self.visit(b.type, scope)
            if b.bound is not None:
                self.visit(b.bound[1], scope)
            inner = dict(scope)
            inner[b.name] = binder_type(b.type) if b.type is not None else _bound_type(b, scope, self)
            self.visit(node.body, inner)
            return
        if isinstance(node, (tm.BigOperator, tm.Ascription)):
            self.leaf_type(node, scope)  # `((1 / n : ℚ)).den`: the ascription types what it holds
            return
        if isinstance(node, tm.App):
            self._app_args(node, scope)
            return
        for child in children(node):
            self.visit(child, scope)

    def _app_args(self, node: tm.App, scope: dict[str, object]) -> None:
        params = _params(node.fn, scope)
        for k, arg in enumerate(node.args):
            expected = params[k] if k < len(params) and params[k] in NUMERIC else None
            # `𝓝 (1 / 2)`: the function's parameter type (unknown here) decides the numerals' type, not OfNat ℕ
            self.visit(arg, scope, expected, NAT if k < len(params) else UNKNOWN)

    # -- trees ---------------------------------------------------------------------------------------------
    def _tree(self, root: tm.Node, scope: dict[str, object], expected: str | None = None,
              default: str = NAT) -> str:
        ops: list[tm.Node] = []
        leaves: list[str] = []
        self._collect(root, scope, ops, leaves)
        known = [t for t in leaves if t in NUMERIC]
        if expected in NUMERIC:
            known.append(expected)
        if any(t in (REAL, COMPLEX) for t in known):
            result = max(known, key=NUMERIC.index)
        elif any(t not in NUMERIC and t not in (FLEX, COERCED) for t in leaves):
            result = UNKNOWN
        elif known:
            result = max(known, key=NUMERIC.index)
        elif COERCED in leaves or any(isinstance(op, tm.Prefix) for op in ops):
            result = UNKNOWN  # `↑x`, or a negation: ℕ has no `-x`, so the context decides
        else:
            result = default  # numerals only: OfNat's default instance, ℕ
        for op in ops:
            self.types.tree_type[id(op)] = result
        self.types.roots.append((root, result))
        return result

    def _collect(self, node: tm.Node, scope: dict[str, object], ops: list[tm.Node], leaves: list[str]) -> None:
        if _is_tree_op(node) and (not ops or not _is_relation(node)):
            ops.append(node)
            if isinstance(node, tm.Binary):
                if node.op == "^":
                    self._collect(node.left, scope, ops, leaves)
                    self.exponent(node.right, scope)
                    return
                self._collect(node.left, scope, ops, leaves)
                self._collect(node.right, scope, ops, leaves)
            else:  # unary minus
                self._collect(node.arg, scope, ops, leaves)
            return
        leaves.append(self.leaf_type(node, scope))

    def exponent(self, node: tm.Node, scope: dict[str, object]) -> str:
        """The exponent's own tree: a numeral-only exponent is ℕ (Monoid.Pow is the default instance)."""
        if _is_tree_op(node):
            return self._tree(node, scope)
        return self.leaf_type(node, scope)

    # -- leaves --------------------------------------------------------------------------------------------
    def leaf_type(self, node: tm.Node, scope: dict[str, object]) -> str:
        if isinstance(node, tm.Name):
            return _name_type(node.text, scope)
        if isinstance(node, tm.Ascription):
            self.visit(node.expr, scope, _as_numeric(binder_type(node.type)))
            return _as_numeric(binder_type(node.type)) or UNKNOWN
        if isinstance(node, tm.Prefix) and node.op == "↑":
            self.visit(node.arg, scope)
            return COERCED
        if isinstance(node, tm.Postfix) and node.op == "!":
            self.visit(node.arg, scope, NAT)
            return NAT
        if isinstance(node, tm.Enclosed):
            inner = self._tree(node.inner, scope) if _is_tree_op(node.inner) else self.leaf_type(node.inner, scope)
            if node.open == "|":
                return inner if inner in NUMERIC or inner == FLEX else UNKNOWN
            if node.open == "‖":
                return REAL
            return NAT if node.close.endswith("₊") else INT
        if isinstance(node, tm.BigOperator):
            b = node.binder
            if b.bound is not None:
                self.visit(b.bound[1], scope)
            inner = dict(scope)
            inner[b.name] = binder_type(b.type) if b.type is not None else _bound_type(b, scope, self)
            if node.filter is not None:
                self.visit(node.filter, inner)
            if _is_tree_op(node.body):
                return self._tree(node.body, inner)
            return self.leaf_type(node.body, inner)
        if isinstance(node, tm.App):
            self._app_args(node, scope)
            return _app_type(node, scope, self)
        self.visit(node, scope)
        return UNKNOWN


def _is_tree_op(node: tm.Node) -> bool:
    if isinstance(node, tm.Binary):
        return node.op in ARITHMETIC or node.op == "^" or node.op in RELATIONS
    return isinstance(node, tm.Prefix) and node.op == "-"


def _is_relation(node: tm.Node) -> bool:
    return isinstance(node, tm.Binary) and node.op in RELATIONS


def _as_numeric(t: object) -> str | None:
    return t if isinstance(t, str) and t in NUMERIC else None


def _name_type(text: str, scope: dict[str, object]) -> str:
    if text[:1].isdigit():
        return FLEX if "." not in text else UNKNOWN  # `2.5` is a scientific literal: not ℕ
    if text in scope:
        t = scope[text]
        return t if isinstance(t, str) else UNKNOWN
    root, _, rest = text.partition(".")
    if rest and root in scope:
        # `s.card`, `l.length`, `n.factorial`, `n.succ`: the projections whose type we know.
        if rest in ("card", "length", "factorial", "succ", "pred", "natAbs", "toNat", "totient"):
            return NAT
        return UNKNOWN
    sig = signature(text)
    if sig is not None and not sig[0]:
        return sig[1]
    return UNKNOWN


def _params(fn: tm.Node, scope: dict[str, object]) -> tuple:
    if isinstance(fn, tm.Name):
        t = scope.get(fn.text)
        if isinstance(t, tuple):
            return t[1]
        if fn.text not in scope:
            sig = signature(fn.text)
            if sig is not None:
                return sig[0]
    return ()


def _app_type(node: tm.App, scope: dict[str, object], inference: Inference) -> str:
    fn = node.fn
    if not isinstance(fn, tm.Name):
        return UNKNOWN
    t = scope.get(fn.text)
    if isinstance(t, tuple):
        _, args, result = t
        if len(node.args) == len(args):
            return result if isinstance(result, str) else UNKNOWN
        return UNKNOWN
    if fn.text in scope:
        return UNKNOWN
    sig = signature(fn.text)
    if sig is None or len(sig[0]) != len(node.args):
        return UNKNOWN
    params, result = sig
    if result == SAME:
        arg = node.args[params.index(SAME)]
        inner = inference.exponent(arg, scope)  # its own tree
        return inner if inner in NUMERIC else UNKNOWN
    return result if result in NUMERIC or result == PROP else UNKNOWN


def _bound_type(b: tm.Binder, scope: dict[str, object], inference: Inference) -> object:
    """The type of ``x`` in ``∑ x ∈ s``: ℕ for ``range n``; the endpoints' type for ``Icc a b`` (numerals: ℕ)."""
    if b.bound is None:
        return UNKNOWN
    op, domain = b.bound
    if op in ("<", "≤", ">", "≥", "<=", ">="):
        t = inference.exponent(domain, scope)
        return NAT if t == FLEX else t
    if op != "∈" or not isinstance(domain, tm.App) or not isinstance(domain.fn, tm.Name):
        return UNKNOWN
    head = domain.fn.text.rsplit(".", 1)[-1]
    if head == "range":
        return NAT
    if head in ("Icc", "Ico", "Ioc", "Ioo") and len(domain.args) == 2:
        types = {inference.exponent(a, scope) for a in domain.args}
        numeric = [t for t in types if t in NUMERIC]
        if numeric:
            return max(numeric, key=NUMERIC.index)
        return NAT if types <= {FLEX} else UNKNOWN
    if head in ("divisors", "properDivisors", "primeFactors"):
        return NAT
    return UNKNOWN


__all__ = ["Inference", "Types", "binder_type", "FLEX", "COERCED", "ARITHMETIC", "RELATIONS"]
