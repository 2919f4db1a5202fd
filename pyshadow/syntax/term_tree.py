"""The term reader's trees: one frozen dataclass per Lean notation it structures, and walks over them.

A tree is what ``pyshadow.syntax.terms.read_term`` gives and ``render``/``canonical`` print. ``children`` and
``map_children`` are the one description of which fields of a node are subterms; ``without_casts`` drops the
coercion arrows and type ascriptions the elaborator may insert or leave out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Union


@dataclass(frozen=True, slots=True)
class Name:
    """An identifier, a numeral, a string/char literal, ``_``, ``·`` or a sort (``Type``, ``Prop``)."""

    text: str


@dataclass(frozen=True, slots=True)
class App:
    fn: "Node"
    args: tuple["Node", ...]


@dataclass(frozen=True, slots=True)
class Binary:
    op: str
    left: "Node"
    right: "Node"


@dataclass(frozen=True, slots=True)
class Prefix:
    op: str
    arg: "Node"


@dataclass(frozen=True, slots=True)
class Postfix:
    op: str
    arg: "Node"


@dataclass(frozen=True, slots=True)
class Enclosed:
    """``|x|``, ``‖x‖``, ``⌊x⌋``, ``⌈x⌉``, ``⌊x⌋₊``, ``⌈x⌉₊``: ``open`` and ``close`` are the brackets."""

    open: str
    inner: "Node"
    close: str


@dataclass(frozen=True, slots=True)
class Ascription:
    expr: "Node"
    type: "Node"


@dataclass(frozen=True, slots=True)
class Anonymous:
    """``⟨a, b⟩``."""

    items: tuple["Node", ...]


@dataclass(frozen=True, slots=True)
class Collection:
    """``(a, b)`` tuples, ``{a, b}`` set literals, ``[a, b]`` lists, ``#[a]`` arrays; ``open`` says which."""

    open: str
    items: tuple["Node", ...]


@dataclass(frozen=True, slots=True)
class Projection:
    """``e.1``, ``(f x).toFinset``: a field of a non-identifier (``x.le`` is one identifier token)."""

    expr: "Node"
    field: str


@dataclass(frozen=True, slots=True)
class Binder:
    """One bound name; ``type`` when written; ``bound`` a binder predicate ``("∈", s)`` kept where Lean keeps it
    (big operators, set-builder); for ∀/∃ it is expanded into the body, as Lean's binder predicates do."""

    name: str
    type: "Node | None" = None
    bound: "tuple[str, Node] | None" = None
    bracket: str = ""  # "" explicit, "{" implicit, "⦃" strict implicit, "[" instance


@dataclass(frozen=True, slots=True)
class Lambda:
    binder: Binder
    body: "Node"


@dataclass(frozen=True, slots=True)
class Quantifier:
    kind: str  # ∀ ∃ ∃!
    binder: Binder
    body: "Node"


@dataclass(frozen=True, slots=True)
class BigOperator:
    """``∑ x ∈ s with p, body`` and friends: ``binder.bound`` is the domain, ``filter`` the ``with`` clause."""

    op: str
    binder: Binder
    body: "Node"
    filter: "Node | None" = None


@dataclass(frozen=True, slots=True)
class SetBuilder:
    binder: Binder
    body: "Node"


@dataclass(frozen=True, slots=True)
class IfThenElse:
    hyp: str | None  # `if h : c then …`
    cond: "Node"
    then: "Node"
    orelse: "Node"


@dataclass(frozen=True, slots=True)
class ModEq:
    """``a ≡ b [ZMOD n]`` (Mathlib ``notation:50 a " ≡ " b " [ZMOD " n "]" => Int.ModEq n a b``)."""

    kind: str  # ZMOD MOD PMOD SMOD
    left: "Node"
    right: "Node"
    modulus: "Node"


@dataclass(frozen=True, slots=True)
class Opaque:
    """Text this reader does not structure, as its token sequence (one spelling per token, fixed spacing)."""

    tokens: tuple[str, ...]


Node = Union[Name, App, Binary, Prefix, Postfix, Enclosed, Ascription, Anonymous, Collection, Projection, Lambda,
             Quantifier, BigOperator, SetBuilder, IfThenElse, ModEq, Opaque]


def map_children(node: Node, f) -> Node:
    """``node`` with ``f`` applied to each child (the shapes of ``children``; a ``(· …)`` function and an
    ``Opaque`` run are returned as they are — their insides are not children)."""
    if isinstance(node, App):
        return App(f(node.fn), tuple(f(a) for a in node.args))
    if isinstance(node, Binary):
        return Binary(node.op, f(node.left), f(node.right))
    if isinstance(node, (Prefix, Postfix)):
        return type(node)(node.op, f(node.arg))
    if isinstance(node, Enclosed):
        return Enclosed(node.open, f(node.inner), node.close)
    if isinstance(node, Ascription):
        return Ascription(f(node.expr), f(node.type))
    if isinstance(node, Anonymous):
        return Anonymous(tuple(f(x) for x in node.items))
    if isinstance(node, Collection):
        return node if node.open == "(·" else Collection(node.open, tuple(f(x) for x in node.items))
    if isinstance(node, Projection):
        return Projection(f(node.expr), node.field)
    if isinstance(node, (Lambda, Quantifier, SetBuilder, BigOperator)):
        b = node.binder
        binder = Binder(b.name, f(b.type) if b.type is not None else None,
                        (b.bound[0], f(b.bound[1])) if b.bound is not None else None, b.bracket)
        if isinstance(node, BigOperator):
            return BigOperator(node.op, binder, f(node.body), f(node.filter) if node.filter is not None else None)
        return replace(node, binder=binder, body=f(node.body))
    if isinstance(node, IfThenElse):
        return IfThenElse(node.hyp, f(node.cond), f(node.then), f(node.orelse))
    if isinstance(node, ModEq):
        return ModEq(node.kind, f(node.left), f(node.right), f(node.modulus))
    return node


def children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, App):
        return (node.fn, *node.args)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, (Prefix, Postfix)):
        return (node.arg,)
    if isinstance(node, Enclosed):
        return (node.inner,)
    if isinstance(node, Ascription):
        return (node.expr, node.type)
    if isinstance(node, (Anonymous, Collection)):
        return node.items if not (isinstance(node, Collection) and node.open == "(·") else ()
    if isinstance(node, Projection):
        return (node.expr,)
    if isinstance(node, (Lambda, Quantifier, SetBuilder, BigOperator)):
        b = node.binder
        extra = tuple(x for x in (b.type, b.bound[1] if b.bound else None,
                                  getattr(node, "filter", None)) if x is not None)
        return (*extra, node.body)
    if isinstance(node, IfThenElse):
        return (node.cond, node.then, node.orelse)
    if isinstance(node, ModEq):
        return (node.left, node.right, node.modulus)
    return ()


# Nodes that bind a name: their bodies are not rewritten in place (a subterm there may mention the bound name).
BINDERS = (Lambda, Quantifier, SetBuilder, BigOperator)
CASTS = ("↑", "⇑", "↥")


def without_casts(node: Node) -> Node:
    """``node`` with its coercion arrows and type ascriptions left out, through applications and operators (not
    into binders): ``(a⁻¹ : G)`` and ``↑a⁻¹`` are ``a⁻¹`` — the spellings the elaborator may read alike."""
    if isinstance(node, Prefix) and node.op in CASTS:
        return without_casts(node.arg)
    if isinstance(node, Ascription):
        return without_casts(node.expr)
    if isinstance(node, (App, Binary, Prefix, Postfix, Enclosed)):
        return map_children(node, without_casts)
    return node
