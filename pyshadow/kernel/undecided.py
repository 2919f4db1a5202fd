"""When the kernel tier cannot judge: atom pairs that differ in a way only elaboration could settle.

A skeleton check that fails is either a structural failure (a missing conjunct, an extra hypothesis, another
relation, other numbers) or a difference the kernel tier is blind to: two atoms naming different constants that
may be the same function (``Complex.abs z`` and ``‖z‖``, ``QuotientMap`` and ``IsQuotientMap``), or a cast placed
elsewhere (``(↑k * x : ℝ)`` and ``(k * x : ℝ)``). Opaque atoms cannot tell these apart, and neither can Lean without
Mathlib.

``aligned_atom_pairs`` walks the reference's and the candidate's (normalised) trees in parallel and returns the
atom pairs at matching positions whose difference is of the second kind (``cannot_judge``). The skeleton is then
run again with those candidate atoms read as the reference's: if it passes, the structures match and the verdict
is *undecided*, naming the pairs; if it still fails, the failure is structural. Nothing undecided ever counts as a
pass.
"""

from __future__ import annotations

from ..syntax import terms as tm
from ..syntax.ast import Atom, BinOp, Declaration, Let, Not, Quant, Rel, Term, bound_names, is_proposition

_CASTS = ("↑", "⇑", "↥")




def aligned_atom_pairs(ref: Declaration, cand: Declaration) -> list[tuple[str, str]]:
    """Differing atom pairs at matching positions of the conclusions and of the hypotheses (in order, when both
    have as many), kept only where the kernel tier cannot judge the difference."""
    raw: list[tuple[str, str]] = []
    if ref.type is not None and cand.type is not None:
        _walk_pair(ref.type, cand.type, raw)
    ref_h = [b.type for b in ref.binders if b.type is not None and not b.is_instance and is_proposition(b)]
    cand_h = [b.type for b in cand.binders if b.type is not None and not b.is_instance and is_proposition(b)]
    if len(ref_h) == len(cand_h):
        for a, b in zip(ref_h, cand_h):
            _walk_pair(a, b, raw)
    variables = bound_names(ref) | bound_names(cand)
    out: list[tuple[str, str]] = []
    for a, b in dict.fromkeys(raw):
        if cannot_judge(a, b, variables):
            out.append((a, b))
    return out


def _walk_pair(a: Term, b: Term, out: list[tuple[str, str]]) -> None:
    if isinstance(a, Atom) and isinstance(b, Atom):
        if a.text != b.text:
            out.append((a.text, b.text))
        return
    if type(a) is not type(b):
        return
    if isinstance(a, Not):
        _walk_pair(a.arg, b.arg, out)
    elif isinstance(a, (BinOp, Rel)):
        if a.op == b.op:
            _walk_pair(a.left, b.left, out)
            _walk_pair(a.right, b.right, out)
    elif isinstance(a, Quant):
        if a.kind == b.kind:
            _walk_pair(a.body, b.body, out)
    elif isinstance(a, Let):
        _walk_pair(a.body, b.body, out)


def cannot_judge(a: str, b: str, variables: set[str] | frozenset[str] = frozenset()) -> bool:
    """Whether two atom texts differ only where elaboration would have to decide: every minimal differing subterm
    pair either mentions a constant (not a variable, not a numeral) on one side only, or is equal once casts and
    type ascriptions are dropped. Other numbers, other variables or another operator on the same operands are
    differences the kernel tier judges (a structural failure)."""
    x, y = tm.read_term(a), tm.read_term(b)
    if x is None or y is None:
        return False  # text this reader does not know: no claim either way, so no undecided verdict
    diffs: list[tuple[tm.Node, tm.Node]] = []
    _diff(x, y, diffs)
    if not diffs:
        return False
    return all(_unjudgeable(p, q, variables) for p, q in diffs)


def _head(node: tm.Node):
    if isinstance(node, tm.Name):
        return ("name", node.text)
    if isinstance(node, tm.App):
        return ("app", len(node.args))
    if isinstance(node, tm.Binary):
        return ("bin", node.op)
    if isinstance(node, (tm.Prefix, tm.Postfix)):
        return (type(node).__name__, node.op)
    if isinstance(node, tm.Enclosed):
        return ("enc", node.open)
    if isinstance(node, (tm.Anonymous, tm.Collection)):
        return (type(node).__name__, getattr(node, "open", ""), len(node.items))
    if isinstance(node, tm.Projection):
        return ("proj", node.field)
    if isinstance(node, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)):
        return (type(node).__name__, getattr(node, "op", getattr(node, "kind", "")))
    return (type(node).__name__,)


def _diff(x: tm.Node, y: tm.Node, out: list) -> None:
    if x == y:
        return
    if _head(x) != _head(y):
        out.append((x, y))
        return
    cx, cy = tm._children(x), tm._children(y)
    if len(cx) != len(cy) or not cx:
        out.append((x, y))
        return
    for p, q in zip(cx, cy):
        _diff(p, q, out)


def _strip_casts(node: tm.Node) -> tm.Node:
    if isinstance(node, tm.Prefix) and node.op in _CASTS:
        return _strip_casts(node.arg)
    if isinstance(node, tm.Ascription):
        return _strip_casts(node.expr)
    if isinstance(node, tm.App):
        return tm.App(_strip_casts(node.fn), tuple(_strip_casts(a) for a in node.args))
    if isinstance(node, tm.Binary):
        return tm.Binary(node.op, _strip_casts(node.left), _strip_casts(node.right))
    return node


def _constants(node: tm.Node, variables) -> set[str]:
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tm.Name):
            t = n.text.lstrip("@")
            root = t.split(".", 1)[0]
            if t and not t[0].isdigit() and root not in variables and t not in ("_", "·"):
                out.add(t)
        stack.extend(tm._children(n))
    return out


def _unjudgeable(p: tm.Node, q: tm.Node, variables) -> bool:
    if _strip_casts(p) == _strip_casts(q):
        return True
    cp, cq = _constants(p, variables), _constants(q, variables)
    return bool(cp ^ cq)
