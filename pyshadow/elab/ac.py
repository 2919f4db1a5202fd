"""Two terms equal up to associativity and commutativity of ``+`` and ``*``: a proof term Lean checks.

Independent formalizations of one statement write a sum or a product in another order or grouping
(``x * y + (x + y)`` and ``x * y + x + y``, ``4 * (x * y)`` and ``4 * x * y``). Python proposes: each side is
brought to a normal form — every maximal ``+``-chain and ``*``-chain right-nested and its operands sorted — by
single rewrites with Mathlib's ``add_assoc``/``add_comm``/``add_left_comm`` and ``mul_assoc``/``mul_comm``/
``mul_left_comm`` (``PyshadowEnv/Lemmas.lean``, the statements of ``Mathlib/Algebra/Group/Defs.lean`` and
``Basic.lean``). Lean disposes: each rewrite is ``congrArg (fun z => C[z]) (lemma _ …)``, its arguments left to
the unifier (so a cast the elaborator puts on a leaf is the one rewritten), the steps joined by ``Eq.trans``, and
``Eq.trans p (Eq.symm q)`` proves the two sides equal. Nothing here is a claim about a type: the lemmas need
``AddCommSemigroup``/``CommSemigroup`` instances, so a product of matrices, or any type Lean finds no such instance
for, is rejected by Lean, never read as commutative.

Rewrites stay outside binders (a ``∑``, ``λ`` or set-builder body): the motive ``fun z => C[z]`` cannot abstract a
subterm that mentions a bound name. ``-``, ``/``, ``^`` and the relations are not rewritten, only looked through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..syntax import terms as tm

# op → (assoc, comm, left_comm): Mathlib/Algebra/Group/Defs.lean (`mul_assoc`, `mul_comm`, their additive
# versions by `to_additive`), Mathlib/Algebra/Group/Basic.lean (`mul_left_comm`, `add_left_comm`).
LEMMAS = {"+": ("add_assoc", "add_comm", "add_left_comm"), "*": ("mul_assoc", "mul_comm", "mul_left_comm")}
_ARITY = {"add_assoc": 3, "add_comm": 2, "add_left_comm": 3, "mul_assoc": 3, "mul_comm": 2, "mul_left_comm": 3}
HOLE = "pyshadowZ"
# Nodes whose children a rewrite may reach (not binders: their bodies mention bound names).
_LOOK_THROUGH = (tm.Binary, tm.Prefix, tm.App, tm.Enclosed, tm.Ascription)
MAX_STEPS = 200


@dataclass(frozen=True)
class Step:
    path: tuple[int, ...]  # child indices (``terms._children`` order) from the root to the rewritten subterm
    lemma: str
    before: tm.Node  # the whole term before the rewrite


def _child_indices(node: tm.Node) -> range:
    if not isinstance(node, _LOOK_THROUGH):
        return range(0)
    n = len(tm._children(node))
    if isinstance(node, tm.Ascription):  # the term, not its type
        return range(1)
    return range(1, n) if isinstance(node, tm.App) else range(n)  # an application's function is not rewritten


def _at(node: tm.Node, path: tuple[int, ...]) -> tm.Node:
    for i in path:
        node = tm._children(node)[i]
    return node


def _replace_at(node: tm.Node, path: tuple[int, ...], new: tm.Node) -> tm.Node:
    if not path:
        return new
    count = iter(range(len(tm._children(node))))
    return tm.map_children(node, lambda c: _replace_at(c, path[1:], new) if next(count) == path[0] else c)


class _Normaliser:
    def __init__(self, root: tm.Node):
        self.root = root
        self.steps: list[Step] = []

    def rewrite(self, path: tuple[int, ...], lemma: str, new: tm.Node) -> None:
        if len(self.steps) >= MAX_STEPS:
            raise OverflowError("too many rewrites")
        self.steps.append(Step(path, lemma, self.root))
        self.root = _replace_at(self.root, path, new)

    def normalise(self, path: tuple[int, ...]) -> None:
        node = _at(self.root, path)
        for i in _child_indices(node):
            self.normalise(path + (i,))
        node = _at(self.root, path)
        if isinstance(node, tm.Binary) and node.op in LEMMAS:
            self._right_nest(path, node.op)
            self._sort(path, node.op)

    def _right_nest(self, path: tuple[int, ...], op: str) -> None:
        assoc = LEMMAS[op][0]
        while True:
            node = _at(self.root, path)
            if not (isinstance(node, tm.Binary) and node.op == op):
                return
            left = node.left
            if isinstance(left, tm.Binary) and left.op == op:  # (a ∘ b) ∘ c → a ∘ (b ∘ c)
                self.rewrite(path, assoc, tm.Binary(op, left.left, tm.Binary(op, left.right, node.right)))
                continue
            path = path + (1,)

    def _chain(self, path: tuple[int, ...], op: str) -> list[tm.Node]:
        out, node = [], _at(self.root, path)
        while isinstance(node, tm.Binary) and node.op == op:
            out.append(node.left)
            node = node.right
        return out + [node]

    def _sort(self, path: tuple[int, ...], op: str) -> None:
        _, comm, left_comm = LEMMAS[op]
        items = self._chain(path, op)
        n = len(items)
        for end in range(n - 1, 0, -1):  # bubble sort by key, one adjacent swap per rewrite
            for i in range(end):
                items = self._chain(path, op)
                if _key(items[i]) <= _key(items[i + 1]):
                    continue
                at = path + (1,) * i
                if i + 1 == n - 1:  # x ∘ y → y ∘ x
                    self.rewrite(at, comm, tm.Binary(op, items[i + 1], items[i]))
                else:  # x ∘ (y ∘ r) → y ∘ (x ∘ r)
                    rest = _at(self.root, at + (1, 1))
                    self.rewrite(at, left_comm, tm.Binary(op, items[i + 1], tm.Binary(op, items[i], rest)))


def _key(node: tm.Node) -> str:
    """The sort key: the operand's text with casts and ascriptions left out, so that ``↑m.den`` and ``m.den``
    (which the elaborator may coerce alike) sort alike; whether they are alike is Lean's to say."""
    return tm.render(tm.without_casts(node))


def normal_form(node: tm.Node) -> tuple[tm.Node, list[Step]]:
    """``node``'s AC normal form and the rewrites that reach it."""
    n = _Normaliser(node)
    n.normalise(())
    return n.root, n.steps


def ac_equal(a: str, b: str) -> bool:
    """Whether two term texts differ and have one AC normal form, casts and ascriptions aside (Python only: worth
    asking Lean, who decides whether the casts agree)."""
    x, y = tm.read_term(a), tm.read_term(b)
    if x is None or y is None or isinstance(x, tm.Opaque) or isinstance(y, tm.Opaque) or x == y:
        return False
    try:
        (nx, xs), (ny, ys) = normal_form(x), normal_form(y)
    except OverflowError:
        return False
    return bool(xs or ys) and _key(nx) == _key(ny)  # some order or grouping to prove, the rest Lean's


def _chain_term(steps: list[Step], to_lean: Callable[[tm.Node], str]) -> str | None:
    terms = []
    for s in steps:
        args = " ".join(["_"] * _ARITY[s.lemma])
        law = f"({s.lemma} {args})"
        if s.path:
            motive = to_lean(_replace_at(s.before, s.path, tm.Name(HOLE)))
            terms.append(f"(congrArg (fun {HOLE} => {motive}) {law})")
        else:
            terms.append(law)
    if not terms:
        return None
    out = terms[-1]
    for t in reversed(terms[:-1]):
        out = f"(Eq.trans {t} {out})"
    return out


def ac_proof(reference: str, candidate: str, print_reference: Callable[[tm.Node], str],
             print_candidate: Callable[[tm.Node], str]) -> tuple[str, tuple[str, ...]] | None:
    """A term of type ``reference = candidate`` (each side printed by its own printer, in its own file's
    context) and the lemmas it uses, when the two have one AC normal form; ``None`` otherwise."""
    if not ac_equal(reference, candidate):
        return None
    x, y = tm.read_term(reference), tm.read_term(candidate)
    (_, xs), (_, ys) = normal_form(x), normal_form(y)
    p, q = _chain_term(xs, print_reference), _chain_term(ys, print_candidate)
    used = tuple(dict.fromkeys(s.lemma for s in xs + ys))
    if p is None and q is None:
        return None
    if q is None:
        return p, used
    back = f"(Eq.symm {q})"
    return (back if p is None else f"(Eq.trans {p} {back})"), used
