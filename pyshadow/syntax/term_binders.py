"""Reading the binding notations of a term: ``fun``, ``∀``/``∃``/``∃!``, big operators and ``if h : c``.

``BinderReader`` holds the steps that read binder groups (``x y : T``, ``(x : T) {y}``, ``x ∈ s``) and the
constructs built on them; the expression reader (``pyshadow.syntax.term_reader``) extends it with ``expr``, which
these steps call for every subterm.
"""

from __future__ import annotations

from . import lexer as lx
from .term_notation import BIG_OPERATORS, KEYWORDS, SPELLING
from .term_tokens import Cursor, ReadError
from .term_tree import BigOperator, Binary, Binder, IfThenElse, Lambda, Name, Node, Quantifier


_BINDER_PREDICATES = frozenset({"∈", "∉", "⊆", "⊂", "⊇", "⊃", "<", "≤", ">", "≥", "≠", "<=", ">="})


def _quantify(kind: str, b: Binder, body: Node) -> Node:
    """``∀ x ∈ s, p`` is ``∀ x, x ∈ s → p`` and ``∃ x ∈ s, p`` is ``∃ x, x ∈ s ∧ p`` (Lean core
    ``src/Init/BinderPredicates.lean``: ``binder_predicate x " > " y:term => `($x > $y)`` … expanded by
    ``∃ x, binderPred`` / ``∀ x, binderPred`` macros to exactly these terms)."""
    if b.bound is not None and kind in ("∀", "∃"):
        op, s = b.bound
        cond = Binary(op, Name(b.name), s)
        inner = Binary("→" if kind == "∀" else "∧", cond, body)
        return Quantifier(kind, Binder(b.name, b.type, None, b.bracket), inner)
    if b.bound is not None:
        raise ReadError("binder predicate on ∃!")
    return Quantifier(kind, b, body)


class BinderReader(Cursor):
    """The binding constructs; ``expr`` (a full term at a least precedence) comes from the subclass."""

    def expr(self, min_prec: int = 0) -> Node:
        raise NotImplementedError

    def binder_groups(self, stop: tuple[str, ...], allow_bound: bool) -> list[Binder]:
        """Binder groups up to one of ``stop``: ``x y``, ``x y : T``, ``(x : T) {y}``, ``x ∈ s``, ``x > 0``."""
        binders: list[Binder] = []
        pending: list[str] = []
        while not self.at(*stop):
            t = self.peek()
            if t is None:
                raise ReadError("unterminated binder")
            if t.text in ("(", "{", "⦃", "[", "⟨") and t.kind == lx.SYMBOL:
                if t.text == "⟨":
                    raise ReadError("pattern binder")
                if pending:
                    binders += [Binder(n) for n in pending]
                    pending = []
                open_ = self.take().text
                close = {"(": ")", "{": "}", "⦃": "⦄", "[": "]"}[open_]
                names = []
                while (n := self.peek()) is not None and (n.kind == lx.IDENT and n.text not in KEYWORDS
                                                          or n.text == "_"):
                    names.append(self.take().text)
                if open_ == "[" and not self.at(":"):
                    raise ReadError("anonymous instance binder")
                ty = None
                bound = None
                if self.at(":"):
                    self.take()
                    ty = self.expr(0)
                elif allow_bound and self.peek() is not None and self.peek().text in _BINDER_PREDICATES:
                    op = self.take().text
                    bound = (SPELLING.get(op, op), self.expr(51))
                self.expect(close)
                if not names:
                    raise ReadError("binder group without names")
                bracket = "" if open_ == "(" else open_
                binders += [Binder(n, ty, bound, bracket) for n in names]
                continue
            if (t.kind == lx.IDENT and t.text not in KEYWORDS) or t.text == "_":
                pending.append(self.take().text)
                continue
            if t.text == ":" and pending:
                self.take()
                ty = self.expr(0)
                binders += [Binder(n, ty) for n in pending]
                pending = []
                continue
            if t.text in _BINDER_PREDICATES and pending and allow_bound:
                op = self.take().text
                bound = self.expr(51)
                binders += [Binder(n, None, (SPELLING.get(op, op), bound)) for n in pending]
                pending = []
                continue
            raise ReadError(f"unexpected {t.text!r} in binders")
        binders += [Binder(n) for n in pending]
        if not binders:
            raise ReadError("no binders")
        return binders

    def lam(self) -> Node:
        if self.at("|"):
            raise ReadError("fun with match alternatives")
        binders = self.binder_groups(("=>", "↦", ","), allow_bound=False)
        sep = self.take()
        if sep.text not in ("=>", "↦"):
            raise ReadError("fun without =>")
        body = self.expr(0)
        for b in reversed(binders):
            body = Lambda(b, body)
        return body

    def quantifier(self, kind: str, allow_bound: bool = True) -> Node:
        binders = self.binder_groups((",",), allow_bound=allow_bound)
        self.expect(",")
        body = self.expr(0)
        if kind == "∃!" and len(binders) > 1:
            raise ReadError("∃! over several binders")
        for b in reversed(binders):
            body = _quantify(kind, b, body)
        return body

    def big_operator(self, op: str) -> Node:
        body_prec = BIG_OPERATORS[op]
        binders = self.binder_groups((",", "in", "with"), allow_bound=True)
        if len(binders) != 1 or binders[0].bracket not in ("",):
            raise ReadError("big operator over several binders")
        binder = binders[0]
        if self.at("in"):
            # deprecated `∑ x in s, f` / `∑ x : T in s, f` — Mathlib elaborates both as `∑ x ∈ s, f`
            self.take()
            binder = Binder(binder.name, None, ("∈", self.expr(0)))
        filt = None
        if self.at("with"):
            self.take()
            filt = self.expr(0)
        self.expect(",")
        body = self.expr(body_prec)
        if op not in ("∑", "∏") and (binder.bound is not None or filt is not None):
            if binder.bound is None or binder.bound[0] != "∈" or filt is not None:
                raise ReadError("binder predicate on this big operator")
        return BigOperator(op, binder, body, filt)

    def ite(self) -> Node:
        hyp = None
        t, t1 = self.peek(), self.peek(1)
        if t is not None and t1 is not None and t.kind == lx.IDENT and t1.text == ":":
            hyp = self.take().text
            self.take()
        if self.at("let"):
            raise ReadError("if let")
        cond = self.expr(0)
        self.expect("then")
        then = self.expr(0)
        self.expect("else")
        orelse = self.expr(0)
        return IfThenElse(hyp, cond, then, orelse)
