"""Which casts in a ``binop%`` tree Lean's elaborator inserts anyway — the ones a reading may drop.

Lean's ``binop%``/``binrel%`` elaborator (leanprover/lean4 src/Lean/Elab/Extra.lean) collects the *leaves* of an
arithmetic tree (``toTree``: nested ``binop%``/``unop%``/``rightact%`` and parentheses are walked into, anything else
is ``processLeaf``, elaborated on its own), computes the maximum type of the leaves (``analyze``, starting at the
expected type for ``binop%``), and coerces each leaf whose type is below it (``applyCoe``). So:

- ``↑e`` / ``(e : M)`` of a **leaf** ``e`` (a name, an application, an ascription) whose type lies below the tree's
  maximum ``M`` is the coercion ``applyCoe`` inserts at that leaf anyway: ``↑m - 2`` and ``(m : ℤ) - 2`` are the
  term ``k = m - 2`` elaborates to (with ``k : ℤ``).
- ``↑e`` of a **compound** ``e`` (``↑(m - 2)``, ``↑(a / b)``) is one leaf: ``coeNotation`` is elaborated by
  ``elabCoe`` (src/Lean/Elab/BuiltinNotation.lean: ``elabTerm stx none`` then ``ensureHasType``), so ``e`` is
  elaborated alone — ℕ's truncated subtraction, floor division — and the result cast: ``Nat.cast (m - 2)``, another
  term than ``↑m - 2``. Such a cast is kept; written ``(e : t)`` with ``t`` the compound's own type (the spelling
  ``((m - 2 : ℕ) : ℤ)`` reads to), it is dropped only when ``t`` already is the maximum (no coercion happens).
- ``(e : M)`` of a compound ``e`` elaborates ``e`` *against* ``M``: its tree starts at ``M``, the same tree as
  ``e`` inside the outer one — ``(m - 2 : ℤ)`` is ``↑m - 2``. ``((n + 1 : ℕ) : ℤ)`` is the inner ascription, a leaf
  of type ℕ: a cast of the compound, kept.
- Numerals: ``(2 : M)`` is the numeral at ``M`` (``OfNat M 2``); ``↑2`` is kept (not read).
- A leaf is elaborated *without* an expected type (``processLeaf``), a function's argument and an ascription's body
  *against* one. The two agree only for a leaf whose elaboration the expected type cannot reach — a name, an
  ascription, an application of a function of fixed signature. ``abs x`` (``abs (a : α) : α``) or ``∑ i ∈ s, f i``
  (``Finset.sum … : β``) get the expected type assigned to their type variable first (``elabAppArgs``), so
  ``(|x| : ℝ)`` is ``|↑x|`` while the leaf ``|x|`` and ``↑|x|`` are ``↑|x|``: such an ascription in a tree, and such
  a ``↑`` against a function's domain, are kept. ``g (e : D)`` with ``g``'s domain ``D`` repeats the expected type:
  dropped.
"""

from __future__ import annotations

from ..syntax import terms as tm
from .binder_types import ARITHMETIC, NUMBER_CHAIN, RESULT_TYPES, BinderTypes, is_numeral, type_text


def cast_inner(node: tm.Node) -> tm.Node | None:
    """``e`` for a leaf ``(e : T)`` or ``↑e``; None for any other node."""
    if isinstance(node, tm.Ascription):
        return node.expr
    if isinstance(node, tm.Prefix) and node.op == "↑":
        return node.arg
    return None


def below(t: str, target: str) -> bool:
    """``t`` is ``target`` or coerces to it along ``binder_types.NUMBER_CHAIN``."""
    if t == target:
        return True
    return t in NUMBER_CHAIN and target in NUMBER_CHAIN and NUMBER_CHAIN.index(t) < NUMBER_CHAIN.index(target)


def strip_casts(node: tm.Node, target: str | None, typing: BinderTypes, numerals_only: bool = False,
                expected: bool = False, ascriptions: bool = True) -> tm.Node:
    """``node`` (a ``binop%`` tree whose maximum type is ``target``) without the casts Lean inserts anyway (module
    docstring); ``numerals_only``: only numeral ascriptions go; ``expected``: ``node`` itself is elaborated against
    ``target`` (a function's argument, an ascription's body) rather than being a leaf of a tree; ``ascriptions``
    False: a leaf ``(e : target)`` stays (another leaf raises the maximum above ``target``). An ascription
    ``(e : T)`` that stays has ``e`` read the same way with ``T`` as its target (``target`` None: only that)."""
    strip = lambda n: strip_casts(n, target, typing, numerals_only, ascriptions=ascriptions)
    inner = cast_inner(node)
    if inner is not None:
        return _cast(node, inner, target, typing, numerals_only, expected, ascriptions)
    if isinstance(node, tm.Binary) and node.op in ARITHMETIC:
        return tm.Binary(node.op, strip(node.left), strip(node.right))
    if isinstance(node, tm.Binary) and node.op == "^":  # `rightact%`: the base is in the tree, the exponent not
        return tm.Binary("^", strip(node.left), node.right)
    if isinstance(node, tm.Prefix) and node.op == "-":
        return tm.Prefix("-", strip(node.arg))
    return node


def _cast(node: tm.Node, inner: tm.Node, target: str | None, typing: BinderTypes, numerals_only: bool,
          expected: bool, ascriptions: bool) -> tm.Node:
    ascribed = isinstance(node, tm.Ascription)
    if ascribed:
        node = tm.Ascription(strip_casts(inner, type_text(node.type), typing, numerals_only, expected=True),
                             node.type)
        inner = node.expr
    if target is None or (ascribed and (type_text(node.type) != target or not ascriptions)):
        return node
    if is_numeral(inner):
        return inner if ascribed else node
    if numerals_only:
        return node
    if ascribed and expected:  # `g (e : D)` against `D`: the ascription repeats the expected type
        return inner
    t = typing.type_of(inner)
    if t is None or not below(t, target):
        return node
    compound = typing.leaves(inner) != [inner]
    alike = compound or _elaborated_alike(inner, typing)
    if ascribed:  # a tree leaf elaborated against the maximum: the tree's own term — unless the maximum reaches
        # inside: `(|x| : ℝ)` is `|↑x|`, the leaf `|x|` is cast whole, `↑|x|` (not when `x : ℝ`: nothing to reach)
        return inner if alike or t == target else node
    if expected and not alike:  # `g ↑|x|` elaborates `|x|` alone; `g |x|` against `g`'s domain
        return node
    if t == target:  # `↑e` with no coercion: `e` elaborated alone, at the maximum already
        return strip_casts(inner, target, typing)
    if not compound:  # a leaf below the maximum: `applyCoe` casts it anyway
        return inner
    # `↑(m - 2)`: the compound elaborated alone at its own type `t`, then cast — one spelling for it
    return tm.Ascription(strip_casts(inner, t, typing, expected=True), tm.read_or_opaque(t))


def _elaborated_alike(e: tm.Node, typing: BinderTypes) -> bool:
    """Whether ``e`` elaborates to one term with and without an expected type: a name, an ascription (it fixes its
    own type), an application of a function of fixed signature (its arguments are elaborated against its domains,
    its result type is its own). Not ``abs x``, ``∑ i ∈ s, f i``: their result type is a type variable the expected
    type assigns first (``elabAppArgs`` propagates it), so the expected type reaches their arguments."""
    if isinstance(e, (tm.Name, tm.Ascription)):
        return True
    if isinstance(e, tm.App) and isinstance(e.fn, tm.Name):
        return typing.signature(e.fn) is not None or e.fn.text in RESULT_TYPES
    return False


def stands_alone(e: tm.Node, typing: BinderTypes) -> bool:
    """Whether ``e`` of type ``T`` may replace a *variable* of type ``T`` without the ascription ``(e : T)``: only a
    leaf elaborated alike with and without an expected type (``_elaborated_alike``). A compound ``m - 1`` or
    ``a / b`` may not: put bare where the variable sat under a cast or in a tree of a larger type (``(n : ℝ)``,
    ``x = n`` with ``x : ℝ``), ``binop%`` would elaborate its operation at the larger type — ``↑m - 1`` in ℝ, not
    ``↑(m - 1)`` — while ``(m - 1 : ℕ)`` stays one leaf of type ℕ (module docstring). A leaf whose type is a
    ``Set``/``Finset`` (a typed set-builder ``{m : ℤ | p}``) is no operand of an arithmetic tree: it stands alone."""
    if typing.leaves(e) != [e]:
        return False
    return _elaborated_alike(e, typing) or (typing.type_of(e) or "").startswith(("Set ", "Finset "))


def expected_type_reaches(e: tm.Node, target: str, typing: BinderTypes) -> bool:
    """Whether ``(e : target)`` elaborates otherwise than ``e`` as a ``binop%``/``binrel%`` leaf coerced to
    ``target`` (``x = e`` with ``x : target``): ``processLeaf`` elaborates a leaf with no expected type, an
    ascription against ``target``, and for a leaf like ``∑ i ∈ s, (i - 1)``, ``min (a - b) 1`` or ``if … then …
    else n - 2`` the expected type reaches inside (``elabAppArgs`` assigns the result type variable first): ℕ's
    truncated subtraction there becomes ℝ's. Not for a tree (its leaves are elaborated alone either way), a
    numeral or a term of numerals (``3⁻¹``), ``↑e`` (``elabCoe`` elaborates ``e`` alone), a leaf elaborated alike
    with and without an expected type, or one known to be of type ``target`` already."""
    if typing.leaves(e) != [e] or is_numeral(e) or isinstance(e, tm.Prefix) and e.op == "↑" or not _names(e):
        return False  # (no name at all, `3⁻¹`: alone its type stays open, unified with the maximum — as ascribed)
    return not _elaborated_alike(e, typing) and typing.type_of(e) != target


def _names(e: tm.Node) -> bool:
    """Whether ``e`` mentions a name (not only numerals and notation)."""
    return (isinstance(e, tm.Name) and not is_numeral(e)) or any(_names(c) for c in tm._children(e))


def plain_arguments(app: tm.App, typing: BinderTypes) -> tm.App:
    """``g (2 : D)``/``g ↑n`` as ``g 2``/``g n`` when ``g``'s domain is known to be ``D``: the argument is
    elaborated against ``D``, where ``binop%`` starts its maximum type."""
    sig = typing.signature(app.fn)
    if sig is None:
        return app
    domains, _ = sig
    args = tuple(strip_casts(a, type_text(domains[k]), typing, expected=True) if k < len(domains) else a
                 for k, a in enumerate(app.args))
    return app if args == app.args else tm.App(app.fn, args)


def plain_relation(left: tm.Node, right: tm.Node, typing: BinderTypes) -> tuple[tm.Node, tm.Node]:
    """A ``binrel%`` relation without the casts that do not change its elaboration. Its leaves other than casts
    must be numerals or of known types whose maximum ``M`` is known (``BinderTypes.tree_type``; an ascription of a
    term already of the ascribed type counts as such a leaf); then casts are
    read against ``M`` (``strip_casts``). With numerals alone, ``(n : ℕ)`` is dropped: numerals default to ``ℕ``
    (``instOfNatNat`` is a default instance, src/Init/Prelude.lean)."""
    leaves = typing.leaves(left) + typing.leaves(right)
    rest = [leaf for leaf in leaves if cast_inner(leaf) is None]
    if any(not is_numeral(leaf) and typing.type_of(leaf) is None for leaf in rest):
        return left, right
    # an ascription `(e : T)` of an `e` already of type `T` is a leaf of type `T` (`(m - 1 : ℕ) < 3`: ℕ) — as a
    # substituted value or an unfolded definition is written (`casts.stands_alone`)
    neutral = [leaf for leaf in leaves if isinstance(leaf, tm.Ascription) and not is_numeral(leaf.expr)
               and typing.type_of(leaf.expr) == type_text(leaf.type)]
    target = typing.tree_type(rest + neutral)
    if target is None:
        casts = [leaf for leaf in leaves if cast_inner(leaf) is not None]
        if casts and all(isinstance(c, tm.Ascription) and is_numeral(c.expr) and type_text(c.type) == "ℕ"
                         for c in casts):
            target = "ℕ"
    # the maximum with the ascriptions counted: where one raises it above `target` (`(n : ℤ) + (1 : ℝ) = k`), an
    # ascription to `target` is a cast of its own, under the coercion to the maximum — only `↑e` leaves go
    top = typing.tree_type(rest + [leaf for leaf in leaves if isinstance(leaf, tm.Ascription)])
    ascriptions = top == target
    return (strip_casts(left, target, typing, ascriptions=ascriptions),
            strip_casts(right, target, typing, ascriptions=ascriptions))


def interval_at(collection: tm.Node, element: str | None, typing: BinderTypes, intervals) -> tm.Node:
    """``x ∈ Set.Icc (0 : T) 1`` with ``x : T`` as ``x ∈ Set.Icc 0 1``: membership unifies the interval's element
    type with ``x``'s (``Set.instMembership : Membership α (Set α)``, α an outParam), so the bounds are elaborated
    at ``T`` either way."""
    if element is None or not (isinstance(collection, tm.App) and isinstance(collection.fn, tm.Name)
                               and collection.fn.text in intervals):
        return collection
    args = tuple(strip_casts(a, element, typing, numerals_only=True) for a in collection.args)
    return collection if args == collection.args else tm.App(collection.fn, args)
