"""The typed tree as JSON (for ``pyshadow parse`` output) and as compact S-expressions (for tests and reading)."""

from __future__ import annotations

from typing import Any

from .ast import Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term


def term_to_dict(term: Term | None) -> dict[str, Any] | None:
    if term is None:
        return None
    if isinstance(term, Atom):
        return {"atom": term.text, "idents": list(term.idents)}
    if isinstance(term, BinOp):
        return {"op": term.op, "left": term_to_dict(term.left), "right": term_to_dict(term.right)}
    if isinstance(term, Rel):
        return {"rel": term.op, "left": term_to_dict(term.left), "right": term_to_dict(term.right)}
    if isinstance(term, Not):
        return {"not": term_to_dict(term.arg)}
    if isinstance(term, Quant):
        return {"quantifier": term.kind, "binders": [binder_to_dict(b) for b in term.binders],
                "body": term_to_dict(term.body)}
    if isinstance(term, Let):
        out = {"let": term.keyword, "name": term.name, "type": term_to_dict(term.type),
               "value": term_to_dict(term.value), "body": term_to_dict(term.body)}
        if term.binders:
            out["binders"] = [binder_to_dict(b) for b in term.binders]
        return out
    raise TypeError(f"not a term: {term!r}")


def binder_to_dict(binder: Binder) -> dict[str, Any]:
    out: dict[str, Any] = {"bracket": binder.bracket, "names": list(binder.names), "type": term_to_dict(binder.type)}
    if binder.default is not None:
        out["default"] = binder.default
    if binder.bound is not None:
        out["bound"] = {"rel": binder.bound[0], "term": term_to_dict(binder.bound[1])}
    return out


def declaration_to_dict(decl: Declaration) -> dict[str, Any]:
    return {
        "keyword": decl.keyword,
        "name": decl.name,
        "universes": list(decl.universes),
        "attributes": decl.attributes,
        "modifiers": list(decl.modifiers),
        "binders": [binder_to_dict(b) for b in decl.binders],
        "hypotheses": [n for b in decl.hypotheses() for n in b.names],
        "type": term_to_dict(decl.type),
        **({"preamble": decl.preamble} if decl.preamble else {}),
    }


def sexpr(term: Term | None) -> str:
    """A compact, unambiguous rendering of the skeleton: atoms in «», connectives as prefix operators.

    ``(∧ «A n» (→ «P» «Q»))``; quantifiers as ``(∀ [x : «ℕ»] body)``; bounded binders as ``[x ∈ «s»]``.
    """
    if term is None:
        return "_"
    if isinstance(term, Atom):
        return f"«{term.text}»"
    if isinstance(term, (BinOp, Rel)):
        return f"({term.op} {sexpr(term.left)} {sexpr(term.right)})"
    if isinstance(term, Not):
        return f"(¬ {sexpr(term.arg)})"
    if isinstance(term, Quant):
        return f"({term.kind} {' '.join(binder_sexpr(b) for b in term.binders)} {sexpr(term.body)})"
    if isinstance(term, Let):
        head = " ".join([term.keyword, term.name or "_", *(binder_sexpr(b) for b in term.binders)])
        typed = f" : {sexpr(term.type)}" if term.type is not None else ""
        return f"({head}{typed} := {sexpr(term.value)} {sexpr(term.body)})"
    raise TypeError(f"not a term: {term!r}")


def binder_sexpr(binder: Binder) -> str:
    closer = {"(": ")", "{": "}", "⦃": "⦄", "[": "]", "": ""}[binder.bracket]
    opener = binder.bracket or "<"
    closer = closer or ">"
    text = " ".join(binder.names)
    if binder.type is not None:
        text = f"{text} : {sexpr(binder.type)}" if text else sexpr(binder.type)
    if binder.bound is not None:
        text += f" {binder.bound[0]} {sexpr(binder.bound[1])}"
    if binder.default is not None:
        text += f" := {binder.default}"
    return f"{opener}{text}{closer}"


def declaration_sexpr(decl: Declaration) -> str:
    binders = " ".join(binder_sexpr(b) for b in decl.binders)
    return f"{decl.name} {binders} : {sexpr(decl.type)}".replace("  ", " ")
