"""Pointwise definitions (``definitions.py``, 5.). A hypothesis ``(h : ∀ x₁ … xₖ, P x₁ … xₖ ↔ Q)`` defines the
variable ``P`` as ``fun x₁ … xₖ => Q`` (``(∀ x, P x ↔ Q x) ↔ P = fun x => Q x``: ``funext`` and ``propext``),
``(h : ∀ x₁ … xₖ, f x₁ … xₖ = e)`` defines ``f`` (``funext``) and ``(h : ∀ x, x ∈ S ↔ Q)`` with ``S : Set A``
defines ``S`` as ``{x | Q}`` (Mathlib ``Set.ext``, Mathlib/Data/Set/Defs.lean; membership in ``{x | p x}`` is
``p a`` by ``rfl``, ``Set.mem_setOf_eq``). ``schemas.POINTWISE_SCHEMA`` proves the three (``funext``/``propext``
are no classical axioms) and tests/test_skeleton_definitions.py has Lean check it. Only for a variable of the
statement, applied to exactly the ∀'s distinct variables in order, each untyped or typed with the variable's
declared domain; the value is then eliminated as in 2. (``fixed_variables``: each binder typed with the
variable's declared domain — the type ``P x`` gives an untyped ``∀ x`` — and ascribed with its type), and every
use ``P a b`` is beta-reduced to ``Q[a, b]`` (the kernel's definitional equality). A written value with an untyped
binder (``v = {x | p}``) is not substituted: which of ``p`` and ``v``'s type fixes ``x``'s type is the
elaborator's call.
"""

from __future__ import annotations

from dataclasses import replace

from ..syntax import terms as tm
from ..syntax.ast import IFF, Atom, BinOp, Declaration, Quant, Rel, Term, atoms
from ..syntax.render import render_term
from .substitution import read_key as _read_key, term_text as _text


def pointwise_as_definitions(decl: Declaration) -> Declaration:
    """Each pointwise hypothesis ``(h : ∀ x, P x ↔ Q)`` as the definition ``(h : P = fun x => Q)`` it states
    (module docstring), as written text, before atoms are read — so the value is read exactly as a written
    ``P = fun x => Q`` is, binder types inferred alike — and then eliminated as in 2. (``fixed_variables``)."""
    binders = list(decl.binders)
    for j, hb in enumerate(binders):
        if hb.bracket != "(" or hb.default is not None or len(hb.names) != 1 or hb.type is None:
            continue
        for vb in binders[:j]:
            if vb.bracket not in ("(", "{") or vb.type is None or vb.default is not None:
                continue
            found = next(((v, value) for v in vb.names
                          if (value := _pointwise_value(hb.type, v, vb.type)) is not None), None)
            if found is not None:
                binders[j] = replace(hb, type=Rel("=", Atom(found[0], (found[0],)), found[1]))
                break
    return replace(decl, binders=tuple(binders))


def _pointwise_value(t: Term, v: str, v_type: Term) -> Term | None:
    """The function (or set) a pointwise hypothesis defines ``v`` to be (module docstring): ``fun x₁ … xₖ => Q``
    for ``∀ x₁ … xₖ, v x₁ … xₖ ↔ Q`` (``v : A₁ → … → Aₖ → Prop``) or ``∀ x₁ … xₖ, v x₁ … xₖ = e`` (``v : A₁ → … →
    Aₖ → B``); ``{x | Q}`` for ``∀ x, x ∈ v ↔ Q`` (``v : Set A``). The arguments must be exactly the ∀'s distinct
    variables in order, each written untyped or with its domain's type; otherwise None."""
    names, domains, body = [], [], t
    while isinstance(body, Quant) and body.kind == "∀":
        for b in body.binders:
            if b.bound is not None or not b.names or b.bracket not in ("", "("):
                return None
            for n in b.names:
                names.append(n)
                domains.append(b.type)
        body = body.body
    if not names or len(set(names)) != len(names) or "_" in names or v in names:
        return None
    ty = _read_key(_text(v_type))
    if ty is None:
        return None
    if isinstance(body, BinOp) and body.op == IFF:
        sides = [(body.left, body.right), (body.right, body.left)]
    elif isinstance(body, Rel) and body.op == "=":
        sides = [(body.left, body.right), (body.right, body.left)]
    else:
        return None
    for head, other in sides:
        if isinstance(head, Rel) and head.op == "∈" and isinstance(body, BinOp) and len(names) == 1:
            # ∀ x, x ∈ S ↔ Q  with  S : Set A  (Mathlib Set.ext, Mathlib/Data/Set/Defs.lean; `x ∈ {x | p x}` is
            # `p x` by rfl there: `Set.mem_setOf_eq`)
            if not (_is_name(head.left, names[0]) and _is_name(head.right, v)):
                continue
            if not (isinstance(ty, tm.App) and ty.fn == tm.Name("Set") and len(ty.args) == 1):
                return None
            if not _domains_fit(domains, [ty.args[0]]):
                return None
            element = tm.render(ty.args[0])
            return _written_atom(f"{{{names[0]} : {element} | {render_term(other)}}}", other, False)
        if not isinstance(head, Atom):
            continue
        node = _read_key(head.text)
        if not (isinstance(node, tm.App) and node.fn == tm.Name(v)
                and list(node.args) == [tm.Name(n) for n in names]):
            continue
        arrows = []
        result = ty
        for _ in names:
            if not (isinstance(result, tm.Binary) and result.op == "→"):
                return None
            arrows.append(result.left)
            result = result.right
        if isinstance(body, BinOp) and result != tm.Name("Prop"):
            return None  # `↔` defines a predicate; `=` a function, or a predicate (`eq_iff_iff`, as atoms.py reads it)
        if not _domains_fit(domains, arrows):
            return None
        typed = " ".join(f"({n} : {tm.render(d)})" for n, d in zip(names, arrows))
        return _written_atom(f"fun {typed} => {render_term(other)}", other, True)
    return None


def _domains_fit(written: list[Term | None], domains: list[tm.Node]) -> bool:
    """Each ∀ binder untyped (its type is the domain, by unification) or typed with exactly its domain."""
    for w, d in zip(written, domains):
        if w is not None and tm.canonical(_text(w)) != tm.canonical_node(d):
            return False
    return True


def _is_name(t: Term, name: str) -> bool:
    return isinstance(t, Atom) and t.text == name


def _written_atom(text: str, body: Term, open_right: bool) -> Atom:
    """The value as Lean text (read as terms, like every atom, by ``canonical_atoms`` after this pass)."""
    return Atom(text, tuple(dict.fromkeys(i for a in atoms(body) for i in a.idents)), open_right)
