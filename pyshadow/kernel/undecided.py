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

The comparison is invariant under α-renaming. An atom is abstracted as a constant applied to the bound variables
it mentions, in order of first occurrence (``atom_patterns.alpha_pattern``); "read the candidate atom as the
reference's" therefore means "the same constant applied to the candidate atom's own variables": the reference
atom's variables are replaced, position by position, by the candidate atom's (``AtomPair.read_as``), and the
difference is judged on that text. ``‖z ^ 2‖`` against ``Complex.abs (w ^ 2)`` is then ``‖w ^ 2‖`` against
``Complex.abs (w ^ 2)`` (another constant: undecided), whatever the candidate calls its variable; atoms that
mention different numbers of variables are no such pair (judged: a structural difference).

Lean's answer on such pairs (definitionally equal, equal by a lemma of the table, not shown) is
``pyshadow.kernel.lemma_pairs``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..syntax import lexer as lx
from ..syntax import terms as tm
from ..syntax.ast import Atom, BinOp, Declaration, Let, Not, Quant, Rel, Term, bound_names, is_proposition
from .atom_patterns import variable_tokens
from .alpha import rename_atom



@dataclass(frozen=True)
class AtomPair:
    """Two aligned atoms the kernel tier cannot tell apart: as each statement writes it, and the reference atom
    over the candidate atom's variables (what the re-check reads the candidate atom as)."""

    reference: str
    candidate: str
    read_as: str


def aligned_atom_pairs(ref: Declaration, cand: Declaration) -> list[AtomPair]:
    """Differing atom pairs at matching positions of the conclusions and of the hypotheses (in order, when both
    have as many), kept only where the kernel tier cannot judge the difference."""
    raw: list[tuple[str, str, str | None]] = []  # (reference text, candidate text, read_as)
    ref_scope, cand_scope = frozenset(ref.variables()), frozenset(cand.variables())
    if ref.type is not None and cand.type is not None:
        _walk_pair(ref.type, cand.type, ref_scope, cand_scope, raw)
    ref_h = [b.type for b in ref.binders if b.type is not None and not b.is_instance and is_proposition(b)]
    cand_h = [b.type for b in cand.binders if b.type is not None and not b.is_instance and is_proposition(b)]
    if len(ref_h) == len(cand_h):
        for a, b in zip(ref_h, cand_h):
            _walk_pair(a, b, ref_scope, cand_scope, raw)
    variables = bound_names(ref) | bound_names(cand)
    out: list[AtomPair] = []
    for a, b, read_as in dict.fromkeys(raw):
        if read_as is not None and cannot_judge(read_as, b, variables):
            out.append(AtomPair(a, b, read_as))
    return out


def _walk_pair(a: Term, b: Term, ref_scope: frozenset[str], cand_scope: frozenset[str], out: list) -> None:
    if isinstance(a, Atom) and isinstance(b, Atom):
        if a.text != b.text:
            out.append((a.text, b.text, read_over(a, ref_scope, b, cand_scope)))
        return
    if type(a) is not type(b):
        return
    if isinstance(a, Not):
        _walk_pair(a.arg, b.arg, ref_scope, cand_scope, out)
    elif isinstance(a, (BinOp, Rel)):
        if a.op == b.op:
            _walk_pair(a.left, b.left, ref_scope, cand_scope, out)
            _walk_pair(a.right, b.right, ref_scope, cand_scope, out)
    elif isinstance(a, Quant):
        if a.kind == b.kind:
            _walk_pair(a.body, b.body, ref_scope | {n for x in a.binders for n in x.names},
                       cand_scope | {n for x in b.binders for n in x.names}, out)
    elif isinstance(a, Let):
        _walk_pair(a.body, b.body, ref_scope | {a.name}, cand_scope | {b.name}, out)


def read_over(a: Atom, ref_scope: frozenset[str], b: Atom, cand_scope: frozenset[str]) -> str | None:
    """``a``'s text with its bound variables replaced, in order of first occurrence, by ``b``'s (``None`` when
    they mention different numbers of variables)."""
    xs = [v for v in _occurrences(a.text) if v in ref_scope]
    ys = [v for v in _occurrences(b.text) if v in cand_scope]
    if len(xs) != len(ys):
        return None
    return rename_atom(Atom(a.text, tuple(xs)), dict(zip(xs, ys))).text


def _occurrences(text: str) -> list[str]:
    """The variable-like identifier roots of ``text``, in order of first occurrence."""
    return list(dict.fromkeys(lx.ident_root(t.text) for t in variable_tokens(text)))


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
    if tm.without_casts(p) == tm.without_casts(q):
        return True
    cp, cq = _constants(p, variables), _constants(q, variables)
    return bool(cp ^ cq)
