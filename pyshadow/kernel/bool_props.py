"""Bool terms in Prop position (``definitions.py``, 1.). A Bool term written where a proposition is expected (a
conclusion, a hypothesis, an operand of ∧ ∨ → ↔ ¬) is coerced by Lean core's ``instance boolToProp : Coe Bool Prop
where coe b := Eq b true`` (src/Init/Coe.lean), so ``b`` there is ``b = true`` — for every term surely of type Bool:
the literals, a variable declared ``: Bool``, ``==`` ``!=`` ``&&`` ``||`` ``!`` and the Bool functions of Lean
core (``_BOOL_HEADS``). The literals then fold: ``(false = true) ↔ False`` and ``(true = true) ↔ True`` are
proved by ``schemas.BOOL_PROP_SCHEMA`` (``Bool.rec``, no axiom), which tests/test_skeleton_definitions.py has the
kernel-tier Lean check. Only outside relations (``b = false`` is Bool equality and stays) and never for a name
bound in scope.
"""

from __future__ import annotations

from dataclasses import replace

from ..syntax import terms as tm
from ..syntax.ast import Atom, BinOp, Declaration, Let, Not, Quant, Rel, Term
from .binder_types import BinderTypes
from .substitution import read_key as _read_key, term_text as _text

_LOGICAL_FALSE = {"false": "False", "true": "True"}

# Heads whose application is surely a `Bool` (Lean core src/Init/Prelude.lean `Nat.beq`, `Nat.ble`, `and`, `or`,
# `not`, `decide : (p : Prop) → [Decidable p] → Bool`, `BEq.beq`; src/Init/Core.lean `def bne … : Bool := !(a == b)`)
# and the operators of type Bool (`a == b` is `BEq.beq`, `a != b` is `bne`, `&&` `||` `!` are `and` `or` `not`).
_BOOL_HEADS = frozenset({"decide", "Nat.beq", "Nat.ble", "and", "or", "not", "bne", "BEq.beq"})
_BOOL_OPS = frozenset({"==", "!=", "&&", "||"})


def bool_props(decl: Declaration) -> Declaration:
    """Every Bool term in Prop position coerced (module docstring); the literals then folded."""
    bound = {n for b in decl.binders for n in b.names}
    if not bound.isdisjoint(_LOGICAL_FALSE) or "Bool" in bound:
        return decl
    types = {n: _text(b.type) for b in decl.binders if b.type is not None for n in b.names}
    binders = tuple(replace(b, type=_prop(b.type, types)) if b.type is not None and b.bracket != "[" else b
                    for b in decl.binders)
    return replace(decl, binders=binders, type=_prop(decl.type, types) if decl.type is not None else None)


def _is_bool(a: Atom, types: dict[str, str]) -> bool:
    node = _read_key(a.text)
    if node is None:
        return False
    if isinstance(node, tm.Binary) and node.op in _BOOL_OPS or isinstance(node, tm.Prefix) and node.op == "!":
        return True
    if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text in _BOOL_HEADS:
        return True
    return BinderTypes(types).type_of(node) == "Bool"


def _prop(t: Term, types: dict[str, str]) -> Term:
    """``t`` read at a Prop position: a Bool term ``b`` becomes ``b = true`` (``boolToProp``), the literals
    ``False``/``True``."""
    if isinstance(t, Atom):
        if t.text in _LOGICAL_FALSE:
            return Atom(_LOGICAL_FALSE[t.text], ())
        return Rel("=", t, Atom("true", ())) if _is_bool(t, types) else t
    if isinstance(t, Not):
        return Not(_prop(t.arg, types))
    if isinstance(t, BinOp):
        return replace(t, left=_prop(t.left, types), right=_prop(t.right, types))
    if isinstance(t, Quant):
        names = {n for b in t.binders for n in b.names}
        if not names.isdisjoint(_LOGICAL_FALSE):
            return t
        inner = {k: v for k, v in types.items() if k not in names}
        inner.update({n: _text(b.type) for b in t.binders if b.type is not None for n in b.names})
        return replace(t, body=_prop(t.body, inner))
    if isinstance(t, Let):
        return t if t.name in _LOGICAL_FALSE else replace(t, body=_prop(t.body, {k: v for k, v in types.items()
                                                                                   if k != t.name}))
    return t  # relations: `b = false` is an equation between Bools
