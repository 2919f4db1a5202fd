"""Render the typed tree back into Lean text, parenthesising by Lean's precedences.

Atoms are emitted verbatim; the skeleton is laid out canonically (one space around connectives). The output
re-parses to the same tree: ``parse(render(t)) == t`` for every tree the parser builds.
"""

from __future__ import annotations

from .ast import (
    BINARY_PRECEDENCE,
    IFF,
    NOT_PRECEDENCE,
    RELATION_PRECEDENCE,
    Atom,
    Binder,
    BinOp,
    Declaration,
    Let,
    Not,
    Quant,
    Rel,
    Term,
)

_CLOSERS = {"(": ")", "{": "}", "⦃": "⦄", "[": "]"}
_MAX = 1024
# Quantifiers and `let` sit below every operator: as a left operand they need parentheses.
_EXTENDING = 0


def precedence(term: Term) -> int:
    if isinstance(term, Atom):
        return _MAX
    if isinstance(term, BinOp):
        return BINARY_PRECEDENCE[term.op]
    if isinstance(term, Rel):
        return RELATION_PRECEDENCE
    if isinstance(term, Not):
        return NOT_PRECEDENCE
    return _EXTENDING


def _extends_right(term: Term) -> bool:
    """Whether the rendered text of ``term`` ends in something that would swallow a following operator."""
    while True:
        if isinstance(term, (Quant, Let)):
            return True
        if isinstance(term, Atom):
            return term.open_right
        if isinstance(term, (BinOp, Rel)):
            term = term.right
        elif isinstance(term, Not):
            term = term.arg
        else:
            return False


def _wrap(text: str, needed: bool) -> str:
    return f"({text})" if needed else text


def render_term(term: Term) -> str:
    if isinstance(term, Atom):
        return term.text
    if isinstance(term, BinOp):
        p = BINARY_PRECEDENCE[term.op]
        # Right-associative (→ ∧ ∨): the left operand needs parentheses at the same level; ↔ is non-associative.
        left_needed = precedence(term.left) <= p or _extends_right(term.left)
        right = term.right
        right_needed = precedence(right) < p and not isinstance(right, (Quant, Let))
        if term.op == IFF:
            right_needed = precedence(right) <= p and not isinstance(right, (Quant, Let))
        return f"{_wrap(render_term(term.left), left_needed)} {term.op} {_wrap(render_term(right), right_needed)}"
    if isinstance(term, Rel):
        left_needed = precedence(term.left) <= RELATION_PRECEDENCE or _extends_right(term.left)
        right_needed = precedence(term.right) <= RELATION_PRECEDENCE and not isinstance(term.right, (Quant, Let))
        return (f"{_wrap(render_term(term.left), left_needed)} {term.op} "
                f"{_wrap(render_term(term.right), right_needed)}")
    if isinstance(term, Not):
        arg = term.arg
        needed = precedence(arg) < NOT_PRECEDENCE and not isinstance(arg, (Quant, Let))
        return f"¬{_wrap(render_term(arg), needed)}"
    if isinstance(term, Quant):
        return f"{term.kind} {render_quantifier_binders(term.binders)}, {render_term(term.body)}"
    if isinstance(term, Let):
        return f"{render_let_head(term)}; {render_term(term.body)}"
    raise TypeError(f"not a term: {term!r}")


def render_let_head(term: Let) -> str:
    """``let x (a : A) : T := v`` without the body (anonymous forms: ``have : p := v``)."""
    head = term.keyword
    if term.name:
        head += f" {term.name}"
    if term.binders:
        head += " " + render_binders(term.binders)
    if term.type is not None:
        head += f" : {render_term(term.type)}"
    return f"{head} := {term.value.text}"


def render_binder(binder: Binder) -> str:
    """A bracketed binder group, e.g. ``(x y : ℕ)``, ``[inst : Group G]``, ``(n : ℕ := 3)``."""
    if binder.bracket == "":
        return render_quantifier_binders((binder,))
    inner = " ".join(binder.names)
    if binder.type is not None:
        inner = f"{inner} : {render_term(binder.type)}" if inner else render_term(binder.type)
    if binder.default is not None:
        inner += f" := {binder.default}"
    return f"{binder.bracket}{inner}{_CLOSERS[binder.bracket]}"


def render_quantifier_binders(binders: tuple[Binder, ...]) -> str:
    parts = []
    for b in binders:
        if b.bracket:
            parts.append(render_binder(b))
            continue
        text = " ".join(b.names)
        if b.type is not None:
            text += f" : {render_term(b.type)}"
        if b.bound is not None:
            text += f" {b.bound[0]} {render_term(b.bound[1])}"
        parts.append(text)
    return " ".join(parts)


def render_binders(binders: tuple[Binder, ...]) -> str:
    return " ".join(render_binder(b) for b in binders)


def render_declaration(decl: Declaration, *, name: str | None = None, with_prefix: bool = True) -> str:
    """``theorem name binders : type`` (without ``:=``); ``name`` overrides the declared name."""
    parts: list[str] = []
    if with_prefix:
        if decl.preamble:
            parts.append(decl.preamble + "\n")
        if decl.docstring:
            parts.append(decl.docstring + "\n")
        if decl.attributes:
            parts.append(decl.attributes + " ")
        parts.extend(m + " " for m in decl.modifiers)
    parts.append(decl.keyword)
    shown = name if name is not None else decl.name
    if shown:
        parts.append(" " + shown)
        if decl.universes:
            parts.append(".{" + ", ".join(decl.universes) + "}")
    if decl.binders:
        parts.append(" " + render_binders(decl.binders))
    if decl.type is not None:
        parts.append(" : " + render_term(decl.type))
    return "".join(parts)
