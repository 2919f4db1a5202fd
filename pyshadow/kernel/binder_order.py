"""The type Lean gives an untyped bound variable: its uses walked in the order Lean elaborates them.

An untyped binder's type is a metavariable, assigned by the *first* use that fixes it; later uses see the assigned
type and coerce to it (``∃ j, j + m = 0 ∧ g j = 0`` with ``m : ℕ``, ``g : ℤ → ℤ`` elaborates with ``j : ℕ`` and
``g ↑j``). The uses of a statement are walked in elaboration order — connectives, quantifiers and applications
left to right (``And p q`` elaborates ``p`` first), and inside one ``binop%``/``binrel%`` tree every leaf before
the tree's analysis (leanprover/lean4 src/Lean/Elab/Extra.lean: ``toTree`` elaborates all leaves, then ``analyze``
computes the maximum type and ``applyCoe`` unifies a leaf of unknown type with it). A use *fixes* a type:

- an argument of a function whose domain is known here (``binder_types.SIGNATURES``, statement variables): the
  argument is elaborated against the domain (a bare variable is unified with it; an arithmetic tree starts its
  maximum type there);
- the variable as a leaf of a ``binop%``/``binrel%`` tree: the tree's maximum type, once its leaves are elaborated —
  unless one of them already fixed it (``s n < 1 / (n + 1)``: ``s n`` types ``n : ℕ`` first);
- membership ``x ∈ s`` (``Membership``'s element type is an ``outParam``), ascription ``(x : T)``.

Where Lean surely fixes the type but this module does not know it — an argument of a function whose signature is
not known here, a tree with a leaf of unknown type, a use inside ``↑e`` or ``⟨…⟩`` (postponed until their expected
type is known), notation this reader keeps opaque — the use fixes ``OPAQUE``. An argument of a function whose
domain is a type variable (``abs``, ``Set.Icc``, ``Int.floor``, ``Even``) is fixed only through the application's
expected type; the components of a pair are not fixed by it. Numerals alone fix nothing (their type is chosen by
default instances, after everything else). Field notation on the variable (``i.1``) is postponed by Lean until the
type is known, so it fixes nothing either.

Postponement can reorder elaboration, so the reading is conservative: a variable is typed only when Lean's order
(the first fixing use) and the reading that leaves order out (the one type its *strong* uses fix — the variable
itself elaborated against a known type — else the one type its tree uses fix) give the same known type. Where they
differ (``∃ j, j + m = 0 ∧ g j = 0``: first use ℕ, strong use ℤ) only the order decides: the type is unknown
(None), the binder stays untyped, and the statement can never pass as one that types it. A later tree whose
maximum differs from an earlier strong use's type (``∀ n, s n = 1 ↔ n = t`` with ``s : ℕ → ℤ``, ``t : ℤ``) is a
coercion in both readings (``applyCoe``). A variable left open is unknown to the other variables' trees as well.
"""

from __future__ import annotations

from typing import Callable, Iterator

from ..syntax import terms as tm
from ..syntax.ast import Atom, Binder, BinOp, Let, Not, Quant, Rel, Term
from ..syntax.render import render_term
from .binder_types import ARITHMETIC, INTERVALS, NUMBER_CHAIN, RESULT_TYPES, BinderTypes, is_numeral, type_text

OPAQUE = "?"  # a type Lean fixes that is not known here
_SKIP = object()  # a leaf ``analyze`` skips: its type is still a metavariable (an untyped variable, a numeral, `↑e`)
_RELATIONS = ("=", "≠", "<", "≤", ">", "≥")  # `binrel%` (src/Init/Notation.lean, src/Init/Core.lean)
# `a ∣ b` is `Dvd.dvd a b` (`Dvd.dvd : α → α → Prop`, src/Init/Prelude.lean): both arguments at one type
_SAME_TYPE = ("∣",)
# Functions whose argument's type is a type variable (`abs (a : α) : α`, Mathlib/Algebra/Order/Group/Unbundled/Abs.lean;
# the floor functions of `binder_types.RESULT_TYPES`; the intervals of `binder_types.INTERVALS`, `Set.Icc (a b : α)`):
# an argument is fixed by them only through the application's expected type (`_through_result`).
_POLYMORPHIC = frozenset({"abs", *RESULT_TYPES, *INTERVALS})
_MOD_EQ = {"MOD": "ℕ", "ZMOD": "ℤ"}  # Nat.ModEq (n a b : ℕ), Int.ModEq (n a b : ℤ) (Mathlib/Data/{Nat,Int}/ModEq)


class _Run:
    """One walk over the uses of ``names`` in elaboration order, assigning types as Lean's unifier would."""

    def __init__(self, types: dict[str, str], names: tuple[str, ...], unsure: frozenset[str] = frozenset()):
        self.names = frozenset(names)
        self.known = {k: v for k, v in types.items() if k not in self.names}  # names with a known type
        self.active = self.names
        self.unsure = unsure  # names read as fixed to a type not known here, whatever their uses
        self.assigned: dict[str, str] = {}  # the first fixing use's type: Lean's assignment
        self.uses: dict[str, list[tuple[str, bool]]] = {}  # every fixing use: (type, strong)

    # -- assignments ---------------------------------------------------------------------------------------------
    def fix(self, name: str, t: str, strong: bool = True) -> None:
        """A use that fixes ``name``'s type to ``t`` if it is still unknown; ``strong``: the variable itself is
        elaborated against ``t`` (an argument, a membership, an ascription), else it is a leaf of a tree whose
        maximum is ``t``."""
        if name not in self.active:
            return
        if name in self.unsure:
            t = OPAQUE
        self.uses.setdefault(name, []).append((t, strong))
        if name not in self.assigned:
            self.assigned[name] = t
            if t != OPAQUE:
                self.known[name] = t

    def result(self) -> dict[str, str]:
        """The names whose type is the same read in Lean's order (the first fixing use) and read with the order
        left out (the one type the strong uses fix, else the one the tree uses fix): where the two readings differ
        (``j + m = 0 ∧ g j = 0``), only the order decides, and postponement could change it."""
        out = {}
        for name, uses in self.uses.items():
            first = uses[0][0]
            strong = {t for t, s in uses if s}
            unordered = strong or {t for t, _ in uses}
            if first != OPAQUE and unordered == {first}:
                out[name] = first
        return out

    def _var(self, node: tm.Node) -> str | None:
        return node.text if isinstance(node, tm.Name) and node.text in self.names else None

    # -- the walk ------------------------------------------------------------------------------------------------
    def walk(self, node: tm.Node, expected: str | None = None) -> None:
        """Elaborate ``node`` against ``expected`` (a type, ``OPAQUE``, or None: no expected type)."""
        var = self._var(node)
        if var is not None:
            if expected is not None:
                self.fix(var, expected)
            return
        if isinstance(node, tm.Binary) and node.op in _RELATIONS + _SAME_TYPE:
            self.tree([node.left, node.right], None)
        elif _is_tree(node):
            self.tree([node], expected)
        elif isinstance(node, tm.Binary) and node.op in ("∈", "∉"):
            self.walk(node.right, None)
            element = self.typing().element_type(node.right)
            self.walk(node.left, element if element is not None else OPAQUE)
        elif isinstance(node, tm.Binary) and node.op in ("∧", "∨", "→", "↔"):
            self.walk(node.left, None)
            self.walk(node.right, None)
        elif isinstance(node, tm.Prefix) and node.op == "¬":
            self.walk(node.arg, None)
        elif isinstance(node, tm.Ascription):
            self.walk(node.type, None)
            self.walk(node.expr, type_text(node.type))
        elif isinstance(node, tm.App):
            self.application(node, expected)
        elif isinstance(node, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)):
            children = tm._children(node)
            shadowed = node.binder.name in self.active
            for child in children[:-1]:
                self.walk(child, None)
            if shadowed:  # the body's uses of the name are another variable's
                saved, self.active = self.active, self.active - {node.binder.name}
                self.walk(children[-1], None)
                self.active = saved
            else:
                self.walk(children[-1], None)
        elif isinstance(node, tm.ModEq) and node.kind in _MOD_EQ:
            for child in (node.modulus, node.left, node.right):
                self.walk(child, _MOD_EQ[node.kind])
        elif isinstance(node, tm.Postfix) and node.op == "!":  # Nat.factorial (n : ℕ) : ℕ
            self.walk(node.arg, "ℕ")
        elif (isinstance(node, tm.Prefix) and node.op == "↑") or isinstance(node, tm.Anonymous):
            self.postponed(node)
        elif isinstance(node, tm.Projection):
            if self._var(node.expr) is None:  # field notation on the variable itself is postponed by Lean
                self.walk(node.expr, None)
        elif isinstance(node, tm.Collection) and node.open == "(" and expected is None:
            for child in node.items:  # `(a, b)` is `Prod.mk a b`, polymorphic: its components are not fixed here
                self.walk(child, None)
        elif isinstance(node, tm.Opaque):
            for token in node.tokens:
                if token in self.names:
                    self.fix(token, OPAQUE)
        else:  # notation not modelled here: a bare variable in it is fixed to something not known here
            for child in tm._children(node):
                self.walk(child, OPAQUE if self._var(child) is not None else None)

    def postponed(self, node: tm.Node) -> None:
        """``↑e`` and ``⟨…⟩`` are postponed until their expected type is known (``elabCoe``,
        ``elabAnonymousConstructor``: ``tryPostponeIfNoneOrMVar``): when the names in them are fixed is not known
        here."""
        stack = [node]
        while stack:
            n = stack.pop()
            var = self._var(n)
            if var is not None:
                self.fix(var, OPAQUE)
            stack.extend(tm._children(n))

    def application(self, node: tm.App, expected: str | None = None) -> None:
        fn_var = self._var(node.fn)
        if fn_var is not None:
            self.fix(fn_var, OPAQUE)  # used as a function: its type is an arrow Lean builds
        sig = self.typing().signature(node.fn)
        if isinstance(node.fn, tm.Name) and node.fn.text in _POLYMORPHIC:
            # the argument's type is the function's type variable, which only an expected type can assign first
            # (`elabAppArgs` unifies it with the result type): `g |x|` with `g : ℝ → ℝ` fixes x : ℝ
            inner = _through_result(node.fn.text, expected)
            for arg in node.args:
                self.walk(arg, inner)
            return
        if sig is None:
            if fn_var is None:
                self.walk(node.fn, None)
            for arg in node.args:
                self.walk(arg, OPAQUE)
            return
        domains, _ = sig
        for k, arg in enumerate(node.args):
            self.walk(arg, type_text(domains[k]) if k < len(domains) else OPAQUE)

    def tree(self, roots: list[tm.Node], expected: str | None) -> None:
        """A ``binop%`` tree (``expected``: its expected type) or a ``binrel%`` relation (its two sides, no expected
        type): the leaves first (``toTree``), then each variable that is itself a leaf gets the maximum type."""
        leaves = [leaf for root in roots for leaf in self.typing().leaves(root)]
        direct = list(dict.fromkeys(v for v in map(self._direct, leaves) if v is not None))
        before = set(self.assigned)
        for root in roots:
            self._leaves_first(root)
        for var in direct:
            if var in self.assigned and var not in before:
                continue  # a leaf of this tree typed it: its elaboration precedes the analysis
            top = self.maximum(leaves, expected, var)
            if top is not None:
                self.fix(var, top, strong=False)

    def _leaves_first(self, node: tm.Node) -> None:
        """``toTree``'s walk, left to right: each leaf that is not a variable, and each exponent of ``^``
        (``rightact%`` elaborates it as a leaf of its own), elaborated without an expected type."""
        if isinstance(node, tm.Binary) and node.op == "^":
            self._leaves_first(node.left)
            self.walk(node.right, None)
        elif _is_tree(node):
            for child in tm._children(node):
                self._leaves_first(child)
        elif self._direct(node) is None:
            # a leaf whose type is `Set ?α`/`?α` of a polymorphic function: `applyCoe` unifies it with the
            # maximum, which assigns the type variable its arguments were elaborated against (`S = Set.Icc 1 n`)
            polymorphic = isinstance(node, tm.App) and isinstance(node.fn, tm.Name) \
                and node.fn.text in _POLYMORPHIC and node.fn.text not in RESULT_TYPES
            self.walk(node, OPAQUE if polymorphic else None)

    def _direct(self, leaf: tm.Node) -> str | None:
        """The variable whose type a leaf's type is, still unknown at the analysis: the variable itself, under
        ``↑`` (``elabCoe`` unifies its type with the maximum), or under ``abs`` (``abs (a : α) : α``)."""
        if isinstance(leaf, tm.Prefix) and leaf.op == "↑":
            return self._var(leaf.arg)
        if isinstance(leaf, tm.App) and isinstance(leaf.fn, tm.Name) and leaf.fn.text == "abs" and len(leaf.args) == 1:
            return self._var(leaf.args[0])
        return self._var(leaf)

    def maximum(self, leaves: list[tm.Node], expected: str | None, var: str) -> str | None:
        """The maximum type ``analyze`` computes for the tree, read as if ``var``'s type were still unknown: None
        when no leaf fixes one (numerals and unknowns only), ``OPAQUE`` when a leaf's type is not known here or the
        known ones do not lie on one coercion chain."""
        types: set[str] = set()
        for leaf in leaves:
            if self._direct(leaf) == var:
                continue
            t = self.leaf_type(leaf)
            if t is OPAQUE:
                return OPAQUE
            if t is not _SKIP:
                types.add(t)
        if expected == OPAQUE:
            return OPAQUE
        if expected is not None:
            types.add(expected)
        if not types:
            return None
        if len(types) == 1:
            return next(iter(types))
        if types <= set(NUMBER_CHAIN) and (expected is None or expected == max(types, key=NUMBER_CHAIN.index)):
            return max(types, key=NUMBER_CHAIN.index)  # `hasCoe` along ℕ → ℤ → ℚ → ℝ → ℂ: the last one
        return OPAQUE

    def leaf_type(self, leaf: tm.Node):
        if is_numeral(leaf) or (isinstance(leaf, tm.Prefix) and leaf.op == "↑"):
            return _SKIP  # `↑e` is postponed (`elabCoe`: `tryPostponeIfNoneOrMVar`): its type is a metavariable
        var = self._direct(leaf)
        if var is not None:
            if var in self.known:
                return self.known[var]
            return OPAQUE if var in self.assigned or var not in self.active else _SKIP
        t = self.typing().type_of(leaf)
        return t if t is not None else OPAQUE

    def typing(self) -> BinderTypes:
        return BinderTypes(self.known)


def _through_result(fn: str, expected: str | None) -> str | None:
    """The expected type of a polymorphic function's arguments, given the application's expected type."""
    if expected is None or fn in RESULT_TYPES:  # `Int.floor : α → ℤ`: the result type is not the variable
        return None
    if expected == OPAQUE or fn == "abs":  # `abs (a : α) : α`
        return expected
    node = tm.read_term(expected)  # an interval `Set.Icc (a b : α) : Set α`
    if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text == INTERVALS[fn][0] \
            and len(node.args) == 1:
        return type_text(node.args[0])
    return OPAQUE


def _is_tree(node: tm.Node) -> bool:
    return (isinstance(node, tm.Binary) and (node.op in ARITHMETIC or node.op == "^")) or \
        (isinstance(node, tm.Prefix) and node.op == "-")


Piece = tm.Node | tuple[tm.Node, frozenset[str]]


def infer_group(names: tuple[str, ...], pieces: list[Piece], types: dict[str, str]) -> dict[str, str]:
    """Types for untyped bound ``names`` (``∃ a b, P m = a * b``) from their uses in ``pieces``, in elaboration
    order (a piece may come with the set of names free in it). A name still unassigned after the walk is read in a
    second walk with the others' types known: ``∀ n ≥ N, a n < 1`` unifies ``N``'s type with ``n``'s, fixed
    later."""
    def run(known: dict[str, str], todo: tuple[str, ...]) -> _Run:
        unsure: frozenset[str] = frozenset()
        while True:  # a name left open is unknown for the others' trees too: walk again with it unknown
            walk = _Run(known, todo, unsure)
            for piece in pieces:
                node, free = piece if isinstance(piece, tuple) else (piece, walk.names)
                walk.active = walk.names & free
                if walk.active:
                    walk.walk(node)
            open_ = frozenset(walk.uses) - frozenset(walk.result())
            if open_ <= unsure:
                return walk
            unsure |= open_

    first = run(types, names)
    typed = first.result()
    rest = tuple(n for n in names if n not in first.uses)
    if not rest:
        return typed
    return {**typed, **run({**types, **typed}, rest).result()}


def infer(name: str, body: tm.Node, types: dict[str, str]) -> str | None:
    """The type the uses of ``name`` in ``body`` fix; None when none does or they disagree."""
    return infer_group((name,), [body], types).get(name)


# -- the uses in a statement's logical structure ----------------------------------------------------------------
Resolve = Callable[[tm.Node, frozenset[str]], tm.Node]


def infer_in_term(names: tuple[str, ...], body: Term, types: dict[str, str], resolve: Resolve,
                  extra: tuple[tm.Node, ...] = ()) -> str | None:
    """One type for all of ``names`` (a binder group shares it) from their uses in ``body`` — its atoms, and each
    relation between two atoms read as one ``binrel%`` tree — with the untyped binders inside ``body`` walked
    along (``∃ N, ∀ n ≥ N, a n < 1``); ``extra``: the binder's own bound as a relation (``ε > 0``), first."""
    siblings = tuple(dict.fromkeys(names + untyped_inner(body)))
    group = frozenset(siblings)
    pieces = [(resolve(x, group), group) for x in extra]
    pieces += [(resolve(node, group), free) for node, free in term_pieces(body, group, set(names))]
    got = infer_group(siblings, pieces, types)
    found = {got.get(n) for n in names}
    return found.pop() if len(found) == 1 else None


def infer_in_header(names: tuple[str, ...], later: tuple[Binder, ...], conclusion: Term | None,
                    types: dict[str, str], resolve: Resolve) -> str | None:
    """``infer_in_term`` for header binders: the uses are in the later binders and the conclusion."""
    terms: list[Term] = []
    for b in later:
        if set(b.names) & set(names):
            break  # rebound: later uses are another variable's
        terms += [t for t in (b.type, b.bound[1] if b.bound else None) if t is not None]
    else:
        if conclusion is not None:
            terms.append(conclusion)
    inner = tuple(n for b in later if b.type is None and b.bound is None for n in b.names)
    siblings = tuple(dict.fromkeys(names + inner + tuple(n for t in terms for n in untyped_inner(t))))
    group = frozenset(siblings)
    introduced = set(names) | set(inner)
    pieces = [(resolve(node, group), free) for t in terms for node, free in term_pieces(t, group, introduced)]
    got = infer_group(siblings, pieces, types)
    found = {got.get(n) for n in names}
    return found.pop() if len(found) == 1 else None


def untyped_inner(t: Term) -> tuple[str, ...]:
    """The names of the untyped binders of the quantifiers inside ``t`` (``∃ a, ∃ b, …``, ``∃ N, ∀ n ≥ N, …``)."""
    out: list[str] = []
    stack = [t]
    while stack:
        t = stack.pop()
        if isinstance(t, Quant):
            out += [n for b in t.binders if b.type is None for n in b.names]
            stack.append(t.body)
        elif isinstance(t, (BinOp, Rel)):
            stack += [t.right, t.left]
        elif isinstance(t, Not):
            stack.append(t.arg)
    return tuple(dict.fromkeys(out))


def term_pieces(t: Term, free: frozenset[str], introduced: set[str]) -> Iterator[tuple[tm.Node, frozenset[str]]]:
    """The term trees of ``t``'s atoms and relations in elaboration order, each with the group's names free in it.
    An untyped binder of a group name introduces that sibling (it stays free below); a typed binder, or a second
    binder of the same name, is another variable (the name is not free below it)."""
    if not free:
        return
    if isinstance(t, Atom):
        if free.intersection(t.idents):
            yield tm.read_or_opaque(t.text), free
    elif isinstance(t, Rel):
        if isinstance(t.left, Atom) and isinstance(t.right, Atom):
            left, right = tm.read_term(t.left.text), tm.read_term(t.right.text)
            if left is not None and right is not None:
                if free.intersection(t.left.idents + t.right.idents):
                    yield tm.Binary(t.op, left, right), free
                return
        yield from term_pieces(t.left, free, introduced)
        yield from term_pieces(t.right, free, introduced)
    elif isinstance(t, Not):
        yield from term_pieces(t.arg, free, introduced)
    elif isinstance(t, BinOp):
        yield from term_pieces(t.left, free, introduced)
        yield from term_pieces(t.right, free, introduced)
    elif isinstance(t, Quant):
        for b in t.binders:
            if b.type is not None:
                yield from term_pieces(b.type, free, introduced)
            for n in b.names:
                if n in free and (b.type is not None or n in introduced):
                    free = free - {n}
                elif n in free:
                    introduced = introduced | {n}
            if b.bound is not None:
                bound = tm.read_term(_text(b.bound[1]))
                if bound is None:
                    yield tm.Opaque(tuple(b.names)), free
                else:
                    for n in b.names:
                        yield tm.Binary(b.bound[0], tm.Name(n), bound), free
        yield from term_pieces(t.body, free, introduced)
    elif isinstance(t, Let):
        yield from term_pieces(t.value, free, introduced)
        yield from term_pieces(t.body, free - {t.name}, introduced)


def bound_pieces(b: Binder) -> tuple[tm.Node, ...]:
    """A bounded binder's bound as relations (``∀ n ≥ N,``: ``n ≥ N``), one per bound name."""
    if b.bound is None:
        return ()
    bound = tm.read_term(_text(b.bound[1]))
    if bound is None:
        return ()
    return tuple(tm.Binary(b.bound[0], tm.Name(n), bound) for n in b.names)


def _text(t: Term) -> str:
    return t.text if isinstance(t, Atom) else render_term(t)
