"""Term-tree plumbing the kernel tier's folds share: walking a declaration's terms and atoms, and substituting a
value for a name inside atoms (as term trees, so precedence and binders are respected), with beta reduction — the
kernel's definitional equality, no lemma. Every substitution raises ``Skip`` where it could capture a name or meets
text it cannot read; the caller then leaves the declaration as it is.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..syntax import terms as tm
from ..syntax.ast import Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term, atoms
from ..syntax.render import render_term
from .atoms import recheck_casts, recheck_relation
from .keys import key_idents


def statement_names(decl: Declaration) -> set[str]:
    return {n for b in decl.binders for n in b.names} | quantified(decl)


def map_terms(decl: Declaration, f) -> Declaration:
    binders = tuple(replace(b, type=f(b.type) if b.type is not None else None,
                            bound=(b.bound[0], f(b.bound[1])) if b.bound is not None else None)
                    for b in decl.binders)
    return replace(decl, binders=binders, type=f(decl.type) if decl.type is not None else None)


def map_atoms(t: Term, f) -> Term:
    if isinstance(t, Atom):
        return f(t)
    if isinstance(t, Not):
        return Not(map_atoms(t.arg, f))
    if isinstance(t, (BinOp, Rel)):
        return replace(t, left=map_atoms(t.left, f), right=map_atoms(t.right, f))
    if isinstance(t, Quant):
        return Quant(t.kind, tuple(replace(b, type=map_atoms(b.type, f) if b.type is not None else None,
                                           bound=(b.bound[0], map_atoms(b.bound[1], f)) if b.bound else None)
                                   for b in t.binders), map_atoms(t.body, f))
    if isinstance(t, Let):
        return replace(t, value=map_atoms(t.value, f), type=map_atoms(t.type, f) if t.type is not None else None,
                       body=map_atoms(t.body, f))
    return t


def quantified(decl: Declaration) -> set[str]:
    out: set[str] = set()
    stack = list(terms(decl))
    while stack:
        t = stack.pop()
        if isinstance(t, Quant):
            out.update(n for b in t.binders for n in b.names)
            stack.extend(b.type for b in t.binders if b.type is not None)
            stack.append(t.body)
        elif isinstance(t, Not):
            stack.append(t.arg)
        elif isinstance(t, (BinOp, Rel)):
            stack.extend((t.left, t.right))
        elif isinstance(t, Let):
            out.add(t.name)
            stack.append(t.body)
    return out


class Skip(Exception):
    """The substitution could capture a name or meets an atom it cannot read: leave the declaration as it is."""


def terms(decl: Declaration) -> list[Term]:
    out = [b.type for b in decl.binders if b.type is not None]
    out += [b.bound[1] for b in decl.binders if b.bound is not None]
    return out + ([decl.type] if decl.type is not None else [])


def idents(t: Term) -> set[str]:
    return {i for a in atoms(t) for i in a.idents}


def term_text(t: Term) -> str:
    return t.text if isinstance(t, Atom) else render_term(t)


def subst_binder(b: Binder, v: str, value: Term, free: set[str], types: dict[str, str] | None = None) -> Binder:
    t = subst(b.type, v, value, free, types) if b.type is not None else None
    bound = (b.bound[0], subst(b.bound[1], v, value, free, types)) if b.bound is not None else None
    return replace(b, type=t, bound=bound)


def subst(t: Term, v: str, value: Term, free: set[str], types: dict[str, str] | None = None) -> Term:
    """``t`` with ``value`` for ``v``; ``types``: the statement variables' types, for reading the casts of the
    atoms the value lands in again (``atoms.recheck_casts``)."""
    if isinstance(t, Atom):
        if v not in t.idents:
            return t
        if t.text == v:
            return value
        return subst_atom(t, v, value, types)
    if isinstance(t, Not):
        return Not(subst(t.arg, v, value, free, types))
    if isinstance(t, Rel):
        out = replace(t, left=subst(t.left, v, value, free, types), right=subst(t.right, v, value, free, types))
        return recheck_relation(out, types) if out != t else out
    if isinstance(t, BinOp):
        return replace(t, left=subst(t.left, v, value, free, types), right=subst(t.right, v, value, free, types))
    if isinstance(t, Quant):
        names = {n for b in t.binders for n in b.names}
        if v not in idents(t):
            return t
        if names & (free | {v}):
            raise Skip  # a binder would capture the value's names (or shadows v: keep it simple, skip)
        inner = {k: x for k, x in types.items() if k not in names} if types else types  # shadowed below
        return Quant(t.kind, tuple(subst_binder(b, v, value, free, inner) for b in t.binders),
                     subst(t.body, v, value, free, inner))
    if isinstance(t, Let):
        if v not in idents(t):
            return t
        raise Skip
    return t


def subst_atom(a: Atom, v: str, value: Term, types: dict[str, str] | None = None) -> Atom:

    node = read_key(a.text)
    # The value's bound names renamed apart from the atom's (both are canonical keys: `x✝1` …), so that putting
    # the atom's arguments into the value's body (beta reduction, `beta`) cannot capture them.
    value_text = CANONICAL_BOUND.sub(lambda m: f"x✝{APART + int(m.group(1))}",
                                      value.text if isinstance(value, Atom) else render_term(value))
    replacement = read_key(value_text)
    if node is None or replacement is None:
        raise Skip
    free_in_value = free_names(replacement)
    new = recheck_casts(subst_node(node, v, replacement, free_in_value), types)
    key = tm.canonical_node(new)
    # a value ending in a binder body (`∀ n ≥ 1, p n`) makes the atom run to the right: it is parenthesised
    # before `∧ q` when printed (``render``), or the substituted statement would read `∀ n ≥ 1, p n ∧ q`
    return Atom(key, key_idents(key), a.open_right or _runs_right(new))


def _runs_right(node: tm.Node) -> bool:
    while isinstance(node, (tm.Binary, tm.Prefix)):
        node = node.right if isinstance(node, tm.Binary) else node.arg
    return isinstance(node, (tm.Lambda, tm.Quantifier, tm.BigOperator, tm.IfThenElse))


CANONICAL_BOUND = re.compile(r"x✝(\d+)")
APART = 100000  # canonical keys number their bound names from 1: the value's are renumbered from here


def read_key(text: str) -> tm.Node | None:
    """``tm.read_term`` of an atom's canonical key: its bound names ``x✝k`` (which the term reader does not read
    back) spelled as plain identifiers first; printing the tree canonically names them ``x✝k`` again."""
    return tm.read_term(CANONICAL_BOUND.sub(r"pyshadow_bound\1", text) if "✝" in text else text)


def free_names(node: tm.Node) -> set[str]:
    """The roots of the names ``node`` mentions free (a binder's own name is not free in its body)."""
    if isinstance(node, tm.Name):
        return {node.text.split(".", 1)[0]}
    if isinstance(node, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)):
        b = node.binder
        outer = set().union(*(free_names(x) for x in (b.type, b.bound[1] if b.bound else None) if x is not None))
        inner = set().union(*(free_names(x) for x in (node.body, getattr(node, "filter", None)) if x is not None))
        return outer | (inner - {b.name})
    if isinstance(node, tm.IfThenElse) and node.hyp is not None:
        return free_names(node.cond) | ((free_names(node.then) | free_names(node.orelse)) - {node.hyp})
    return set().union(*(free_names(c) for c in tm._children(node)))


def beta(fn: tm.Node, args: tuple[tm.Node, ...]) -> tm.Node:
    """``fn a₁ … aₙ`` with as many ``fun`` binders of ``fn`` as there are arguments replaced by them (beta
    reduction: the kernel's definitional equality, no lemma). An ascribed ``(fun x => e : A → B)`` keeps ``e``
    ascribed ``B`` — its elaboration at ``B`` is what ``(fun …) a`` elaborated — except for ``B = Prop``."""
    ty = None
    if isinstance(fn, tm.Ascription) and isinstance(fn.expr, tm.Lambda):
        fn, ty = fn.expr, fn.type
    if not isinstance(fn, tm.Lambda):
        return tm.App(fn, args)
    mapping: dict[str, tm.Node] = {}
    body: tm.Node = fn
    while isinstance(body, tm.Lambda) and len(mapping) < len(args):
        if body.binder.bound is not None or body.binder.name in mapping:
            raise Skip
        mapping[body.binder.name] = args[len(mapping)]
        if ty is not None:
            if not (isinstance(ty, tm.Binary) and ty.op == "→"):
                raise Skip
            ty = ty.right
        body = body.body
    free = set().union(*(free_names(a) for a in mapping.values()))
    out = subst_many(body, mapping, free)
    if ty is not None and ty != tm.Name("Prop"):
        out = tm.Ascription(out, ty)
    rest = args[len(mapping):]
    return tm.App(out, rest) if rest else out


def subst_many(node: tm.Node, mapping: dict[str, tm.Node], free: set[str]) -> tm.Node:
    """Simultaneous substitution of ``mapping`` in ``node`` (skipped where a binder would capture a name)."""
    if not mapping:
        return node
    if isinstance(node, tm.Name):
        root = node.text.split(".", 1)[0]
        if node.text in mapping:
            return mapping[node.text]
        if root in mapping:
            # `q.den` with `q := a`: `a.den` — field notation resolves by the type's head, and the argument has the
            # parameter's type (src/Lean/Elab/App.lean `resolveLValLoop`)
            out = mapping[root]
            for field in node.text.split(".")[1:]:
                out = tm.Name(f"{out.text}.{field}") if isinstance(out, tm.Name) else tm.Projection(out, field)
            return out
        return node
    if isinstance(node, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)) and node.binder.name in free:
        raise Skip
    if isinstance(node, tm.IfThenElse) and node.hyp in free:
        raise Skip
    if isinstance(node, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)) and node.binder.name in mapping:
        raise Skip  # shadowed: never produced by canonical keys, keep it simple
    return rebuild(node, lambda c: subst_many(c, mapping, free))


def subst_node(node: tm.Node, v: str, value: tm.Node, free: set[str]) -> tm.Node:
    if isinstance(node, tm.App) and node.fn == tm.Name(v):
        return beta(value, tuple(subst_node(a, v, value, free) for a in node.args))
    if isinstance(node, tm.Name):
        if node.text == v:
            return value
        if node.text.startswith(v + "."):
            raise Skip  # `v.f` is field notation on v: its resolution depends on v's type
        return node
    if isinstance(node, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)):
        b = node.binder
        if b.name == v or b.name in free:
            raise Skip
    if isinstance(node, tm.IfThenElse) and node.hyp in free | {v}:
        raise Skip
    return rebuild(node, lambda c: subst_node(c, v, value, free))


def rebuild(node: tm.Node, f) -> tm.Node:
    """``node`` with ``f`` applied to each child (``terms.map_children``)."""
    if isinstance(node, tm.Opaque) or isinstance(node, tm.Collection) and node.open == "(·":
        raise Skip  # an unread token run, a `(· …)` function kept whole: cannot tell where v occurs in it
    return tm.map_children(node, f)
