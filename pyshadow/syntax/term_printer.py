"""Printing term trees as Lean text: minimal parentheses under Lean's precedences, one spelling per token, fixed
spacing — and, with ``alpha``, bound variables renamed by binding order (the canonical key of α-equivalence).
"""

from __future__ import annotations

from . import lexer as lx
from .term_notation import BIG_OPERATORS, INFIX, LEAD_PREC, MAX_PREC, POSTFIX, PREFIX
from .term_tree import (Anonymous, App, Ascription, BigOperator, Binary, Binder, Collection, Enclosed, IfThenElse,
                        Lambda, ModEq, Name, Node, Opaque, Postfix, Prefix, Projection, Quantifier, SetBuilder)


def _result_level(op: str) -> int:
    return INFIX[op][0]

def _level(node: Node) -> int:
    """The precedence at which ``node``'s notation produces its term."""
    if isinstance(node, Binary):
        return _result_level(node.op)
    if isinstance(node, App):
        return LEAD_PREC
    if isinstance(node, Prefix):
        return PREFIX[node.op][0]
    if isinstance(node, Postfix):
        return POSTFIX[node.op]
    if isinstance(node, Name) and " " in node.text:
        return LEAD_PREC
    if isinstance(node, ModEq):
        return 50
    return MAX_PREC


_OPEN_RIGHT = (Lambda, Quantifier, BigOperator, IfThenElse)


def _ends_open_right(node: Node) -> bool:
    """``node``'s text ends in a binder body running as far right as it can: ``a ∧ ∀ x, p x`` does too (its right
    operand is printed last, bare), so it is parenthesised before ``→ b`` like ``∀ x, p x`` itself would be."""
    while isinstance(node, (Binary, Prefix)):
        node = node.right if isinstance(node, Binary) else node.arg
    return isinstance(node, _OPEN_RIGHT)


class TermPrinter:
    def __init__(self, alpha: bool):
        self.alpha = alpha
        self.env: dict[str, str] = {}
        self.counter = 0

    def name(self, text: str) -> str:
        if not self.env:
            return text
        root = lx.ident_root(text) if not text.startswith("@") else lx.ident_root(text[1:])
        if root in self.env:
            prefix = "@" if text.startswith("@") else ""
            rest = text[len(prefix) + len(root):]
            return prefix + self.env[root] + rest
        return text

    def bind(self, name: str) -> tuple[str, str | None]:
        """The printed name of a new bound variable, and what it shadowed (to restore)."""
        old = self.env.get(name)
        if self.alpha and name != "_":
            self.counter += 1
            new = f"x✝{self.counter}"
        else:
            new = name
        self.env[name] = new
        return new, old

    def unbind(self, name: str, old: str | None) -> None:
        if old is None:
            self.env.pop(name, None)
        else:
            self.env[name] = old

    def show(self, node: Node, prec: int, last: bool) -> str:
        """``node`` where a term of precedence ``prec`` is expected; ``last``: nothing follows it."""
        text = self._show(node)
        level = _level(node)
        if level < prec or (_ends_open_right(node) and (not last or prec > LEAD_PREC)):
            return f"({text})"
        return text

    def _show(self, node: Node) -> str:
        if isinstance(node, Name):
            return self.name(node.text)
        if isinstance(node, Opaque):
            return " ".join(self.name(t) if t and (t[0].isalpha() or t[0] == "_") else t for t in node.tokens)
        if isinstance(node, App):
            parts = [self.show(node.fn, MAX_PREC, False)]
            for k, a in enumerate(node.args):
                parts.append(self.show(a, MAX_PREC, k == len(node.args) - 1))
            return " ".join(parts)
        if isinstance(node, Binary):
            _, lhs_min, rhs_prec = INFIX[node.op]
            left = self.show(node.left, lhs_min, False)
            right = self.show(node.right, rhs_prec, True)
            return f"{left} {node.op} {right}"
        if isinstance(node, Prefix):
            _, arg_prec = PREFIX[node.op]
            arg = self.show(node.arg, arg_prec, True)
            if node.op == "-" and arg.startswith("-"):
                return f"- {arg}"  # `--` would open a comment
            return f"{node.op}{arg}"
        if isinstance(node, Postfix):
            arg = self.show(node.arg, MAX_PREC, False)
            return f"{arg} !" if node.op == "!" else f"{arg}{node.op}"
        if isinstance(node, Enclosed):
            return f"{node.open}{self.show(node.inner, 0, True)}{node.close}"
        if isinstance(node, Ascription):
            return f"({self.show(node.expr, 0, True)} : {self.show(node.type, 0, True)})"
        if isinstance(node, Anonymous):
            return "⟨" + ", ".join(self.show(x, 0, True) for x in node.items) + "⟩"
        if isinstance(node, Collection):
            if node.open == "(·":
                return "(" + self.show(node.items[0], 0, True) + ")"
            close = {"(": ")", "{": "}", "[": "]", "#[": "]"}[node.open]
            return node.open + ", ".join(self.show(x, 0, True) for x in node.items) + close
        if isinstance(node, Projection):
            return f"{self.show(node.expr, MAX_PREC, False)}.{node.field}"
        if isinstance(node, Lambda):
            head, old, b = self._binder(node.binder)
            parts = [head]
            body = node.body
            restore = [(b, old)]
            while isinstance(body, Lambda):  # `fun x y => e` is `fun x => fun y => e`
                h, o, bb = self._binder(body.binder)
                parts.append(h)
                restore.append((bb, o))
                body = body.body
            text = f"fun {' '.join(parts)} => {self.show(body, 0, True)}"
            for n, o in reversed(restore):
                self.unbind(n, o)
            return text
        if isinstance(node, Quantifier):
            head, old, b = self._binder(node.binder)
            text = f"{node.kind} {head}, {self.show(node.body, 0, True)}"
            self.unbind(b, old)
            return text
        if isinstance(node, BigOperator):
            b = node.binder
            bound = ""
            if b.bound is not None:
                bound = f" {b.bound[0]} {self.show(b.bound[1], 51, False)}"
            ty = f" : {self.show(b.type, 0, True)}" if b.type is not None else ""
            new, old = self.bind(b.name)
            filt = f" with {self.show(node.filter, 0, True)}" if node.filter is not None else ""
            body = self.show(node.body, BIG_OPERATORS[node.op], True)
            self.unbind(b.name, old)
            head = f"({new}{ty})" if ty and bound else f"{new}{ty}"
            return f"{node.op} {head}{bound}{filt}, {body}"
        if isinstance(node, SetBuilder):
            b = node.binder
            ty = f" : {self.show(b.type, 0, True)}" if b.type is not None else ""
            bound = f" {b.bound[0]} {self.show(b.bound[1], 51, False)}" if b.bound is not None else ""
            new, old = self.bind(b.name)
            body = self.show(node.body, 0, True)
            self.unbind(b.name, old)
            return f"{{{new}{ty}{bound} | {body}}}"
        if isinstance(node, IfThenElse):
            cond = self.show(node.cond, 0, True)
            if node.hyp is not None:
                new, old = self.bind(node.hyp)
                then, orelse = self.show(node.then, 0, True), self.show(node.orelse, 0, True)
                self.unbind(node.hyp, old)
                return f"if {new} : {cond} then {then} else {orelse}"
            return f"if {cond} then {self.show(node.then, 0, True)} else {self.show(node.orelse, 0, True)}"
        if isinstance(node, ModEq):
            left, right = self.show(node.left, 51, False), self.show(node.right, 51, False)
            return f"{left} ≡ {right} [{node.kind} {self.show(node.modulus, 0, True)}]"
        raise TypeError(node)

    def _binder(self, b: Binder) -> tuple[str, str | None, str]:
        ty = self.show(b.type, 0, True) if b.type is not None else None
        new, old = self.bind(b.name)
        if b.bracket in ("{", "⦃", "["):
            close = {"{": "}", "⦃": "⦄", "[": "]"}[b.bracket]
            text = f"{b.bracket}{new}{' : ' + ty if ty else ''}{close}"
        elif ty is not None:
            text = f"({new} : {ty})"
        else:
            text = new
        return text, old, b.name
