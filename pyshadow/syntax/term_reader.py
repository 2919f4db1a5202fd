"""The term reader proper: Pratt parsing (precedence climbing) of Lean term notation into trees.

``TermParser`` reads leading notations (names, literals, brackets, prefix operators, binders) and trailing ones
(infix and postfix operators, application, projection, ``≡ … [MOD n]``) with the binding powers of
``pyshadow.syntax.term_notation``; what it does not know raises ``ReadError`` rather than guess.
"""

from __future__ import annotations

from . import lexer as lx
from .term_binders import BinderReader
from .term_notation import (BIG_OPERATORS, CLOSERS, ENCLOSED, INFIX, KEYWORDS, LEAD_PREC, MAX_PREC, MODEQ_OPENERS,
                            POSTFIX, PREFIX, SPELLING, SYMBOL_CONSTANTS)
from .term_tokens import ReadError, Tok
from .term_tree import (Anonymous, App, Ascription, Binary, Binder, Collection, Enclosed, ModEq, Name, Node, Postfix,
                        Prefix, Projection, SetBuilder, children)


# the punctured and one-sided neighbourhood filters' notations (`𝓝[>] x`), by the relation written in them
WITHIN = frozenset({">", "<", "≥", "≤", "≠"})


class TermParser(BinderReader):
    def __init__(self, toks: list[Tok]):
        super().__init__(toks)
        # `|…|` nesting: inside an absolute value a `|` written with no space before it closes it.
        self.abs_depth = 0
        # The closer of the innermost `‖…‖`/`⌊…⌋`/`⌈…⌉` being read (None outside them).
        self.closer: tuple[str, ...] | None = None

    # -- expressions -----------------------------------------------------------------------------------------
    def expr(self, min_prec: int = 0) -> Node:
        left, level = self.leading()
        return self.trailing(left, level, min_prec)

    def trailing(self, left: Node, level: int, min_prec: int) -> Node:
        while True:
            t = self.peek()
            if t is None:
                return left
            s = t.text
            if s == "|" and self.abs_depth and not t.space_before:
                return left  # closing `|` of an absolute value (written with no space before it)
            if self.closer is not None and s in self.closer:
                return left
            if s in POSTFIX and s != "!":
                # postfix:max — applies to a max-level lhs only
                if level < MAX_PREC or POSTFIX[s] < min_prec:
                    return left
                self.take()
                left, level = Postfix(s, left), POSTFIX[s]
                continue
            if s == "!" and t.kind == lx.SYMBOL:
                # factorial `n !`; ambiguous with Bool's prefix `!b` when a term follows — refuse to guess.
                nxt = self.peek(1)
                if nxt is not None and _starts_argument(nxt) and min_prec <= LEAD_PREC:
                    # `n !b` could be `n (!b)` (application) — inside an argument only the postfix applies.
                    raise ReadError("`!` between terms is ambiguous")
                if level < MAX_PREC:
                    return left
                self.take()
                left, level = Postfix("!", left), 10000
                continue
            if s == "." and not t.space_before and self.peek(1) is not None and not t.space_after:
                f = self.peek(1)
                if f.kind in (lx.IDENT, lx.NUMBER) and level >= MAX_PREC:
                    self.take()
                    self.take()
                    left, level = Projection(left, f.text), MAX_PREC
                    continue
                raise ReadError("unexpected `.`")
            if s == "≡":
                if 50 < min_prec or level < 51:
                    return left
                left = self.modeq(left)
                level = 50
                continue
            if s == "^" and not t.space_after and self.peek(1) is not None and self.peek(1).text == "[":
                # Mathlib/Logic/Function/Iterate.lean: `notation:max f "^["n"]" => Nat.iterate f n` — `^[` is one
                # token there (so `f^[j] x` is `Nat.iterate f j x`, not `f ^ ([j] x)`); read only after an atom.
                if level < MAX_PREC:
                    raise ReadError("`^[` after a non-atomic term")
                self.take()
                self.take()
                n = self.expr(0)
                self.expect("]")
                left, level = App(Name("Nat.iterate"), (left, n)), MAX_PREC
                continue
            if s in INFIX and t.kind == lx.SYMBOL:
                prec, lhs_min, rhs_prec = INFIX[s]
                if prec < min_prec or level < lhs_min:
                    return left
                self.take()
                right = self.expr(rhs_prec)
                op = SPELLING.get(s, s)
                if op == "<|":
                    left = _apply(left, (right,))
                elif op == "|>":
                    left = _apply(right, (left,))
                else:
                    left = Binary(op, left, right)
                level = LEAD_PREC if isinstance(left, App) else prec
                continue
            if t.kind == lx.SYMBOL and s not in CLOSERS and s not in INFIX and not _starts_argument(t):
                raise ReadError(f"unknown notation {s!r}")
            # application: lhs at maxPrec, arguments at maxPrec, result leadPrec
            if _starts_argument(t) and level >= MAX_PREC and min_prec <= LEAD_PREC:
                args = []
                while (a := self.peek()) is not None and _starts_argument(a) and not self._closing_bar(a):
                    args.append(self.argument())
                if not args:
                    return left
                left, level = _apply(left, tuple(args)), LEAD_PREC
                continue
            return left

    def _closing_bar(self, t: Tok) -> bool:
        return (t.text == "|" and self.abs_depth > 0 and not t.space_before) or (
            self.closer is not None and t.text in self.closer)

    def argument(self) -> Node:
        node, level = self.leading(argument=True)
        return self.trailing(node, level, MAX_PREC)

    def modeq(self, left: Node) -> Node:
        self.expect("≡")
        right = self.expr(51)
        kind = self.take().text
        if kind not in MODEQ_OPENERS:
            raise ReadError("unknown ≡ notation")
        kind = kind[1:]
        n = self.expr(0)
        self.expect("]")
        return ModEq(kind, left, right, n)

    def leading(self, argument: bool = False) -> tuple[Node, int]:
        t = self.take()
        s = t.text
        if t.kind in (lx.NUMBER, lx.STRING, lx.CHAR):
            return Name(s), MAX_PREC
        if (s == "𝓝" and not t.space_after and self.at("[") and self.peek(1) is not None
                and self.peek(1).text in WITHIN and self.peek(2) is not None and self.peek(2).text == "]"):
            # Mathlib/Topology/Defs/Filter.lean `scoped[Topology] notation3 "𝓝[>] " x:100 => nhdsWithin x (Set.Ioi x)`
            # and its siblings `𝓝[<]`, `𝓝[≥]`, `𝓝[≤]`, `𝓝[≠]`: read as the notation applied to its point
            kind = self.peek(1).text
            self.take(), self.take(), self.take()
            return App(Name(f"𝓝[{kind}]"), (self.expr(100),)), LEAD_PREC
        if s == "answer" and t.kind == lx.IDENT and not t.space_after and self.at("("):
            # google-deepmind/formal-conjectures FormalConjectures/Util/Answer.lean: `syntax "answer(" term ")"`,
            # one token `answer(` (no space: `answer (e)` applies a function `answer`)
            self.take()
            saved, self.abs_depth = self.abs_depth, 0
            inner = self.expr(0)
            self.expect(")")
            self.abs_depth = saved
            return Enclosed("answer(", inner, ")"), MAX_PREC
        if t.kind == lx.IDENT and s not in KEYWORDS:
            if s.startswith("@"):
                return Name(s), MAX_PREC
            return Name(s), MAX_PREC
        nxt = self.peek()
        if s == "." and not t.space_after and nxt is not None and nxt.kind == lx.IDENT and not nxt.space_before:
            self.take()  # `.I`: an identifier the expected type resolves (Lean's `dotIdent`)
            return Name("." + nxt.text), MAX_PREC
        if s in ("Type", "Sort"):
            # `Type*`, `Type u`, `Sort _`: kept as one name (universe levels are not terms)
            nxt = self.peek()
            if nxt is not None and nxt.text == "*" and not nxt.space_before:
                self.take()
                return Name(s + "*"), MAX_PREC
            if nxt is not None and not argument and nxt.kind in (lx.IDENT, lx.NUMBER) and nxt.text not in KEYWORDS:
                self.take()
                return Name(f"{s} {nxt.text}"), LEAD_PREC
            if nxt is not None and not argument and nxt.text == "_":
                self.take()
                return Name(f"{s} _"), LEAD_PREC
            return Name(s), MAX_PREC
        if s == "Prop":
            return Name(s), MAX_PREC
        if s in SYMBOL_CONSTANTS:
            return Name(s), MAX_PREC
        if s in ("_", "·", "?_") or (t.kind == lx.SYMBOL and s == "@"):
            if s == "@":
                n = self.take()
                if n.kind != lx.IDENT:
                    raise ReadError("@ without a name")
                return Name("@" + n.text), MAX_PREC
            return Name(s), MAX_PREC
        if s == "(":
            return self.paren(), MAX_PREC
        if s == "⟨":
            items = self.items("⟩")
            return Anonymous(tuple(items)), MAX_PREC
        if s in ("[", "#["):
            items = self.items("]")
            return Collection(s, tuple(items)), MAX_PREC
        if s == "{":
            return self.brace(), MAX_PREC
        if s == "|":
            if t.space_after:
                raise ReadError("`|` followed by space does not open an absolute value")
            self.abs_depth += 1
            inner = self.expr(0)
            self.abs_depth -= 1
            close = self.take()
            if close.text != "|":
                raise ReadError("unclosed |")
            return Enclosed("|", inner, "|"), MAX_PREC
        if s in ENCLOSED:
            ok = ENCLOSED[s]
            closers = ok if isinstance(ok, tuple) else (ok,)
            saved = self.abs_depth, self.closer
            self.abs_depth, self.closer = 0, closers
            inner = self.expr(0)
            self.abs_depth, self.closer = saved
            close = self.take()
            if close.text not in closers:
                raise ReadError(f"unclosed {s}")
            return Enclosed(s, inner, close.text), MAX_PREC
        if s in PREFIX and t.kind == lx.SYMBOL:
            level, arg_prec = PREFIX[s]
            if argument and level < MAX_PREC:
                raise ReadError("prefix operator in argument position")
            arg = self.expr(arg_prec)
            return Prefix(s, arg), level
        if s in ("fun", "λ"):
            return self.lam(), LEAD_PREC
        if s in ("∀", "∃", "∃!", "Π", "Σ"):
            if s == "Σ":
                raise ReadError("Σ binder notation")
            # Mathlib/Util/PiNotation.lean: `Π` is "a direct copy of forall notation" (leadPrec, same binders,
            # binder predicates): the same pi type as `∀`.
            return self.quantifier("∀" if s == "Π" else s), LEAD_PREC
        if s in ("forall", "exists") and t.kind == lx.IDENT:
            # the ASCII spellings: src/Lean/Parser/Term.lean `unicodeSymbol "∀" "forall"`, src/Init/NotationExtra.lean
            # `macro "exists" xs:explicitBinders ", " b:term`; the binder predicates (`∀ x > 0,`) extend only the
            # Unicode ones (src/Init/BinderPredicates.lean `syntax "∀ " binderIdent binderPred ", " term`)
            return self.quantifier("∀" if s == "forall" else "∃", allow_bound=False), LEAD_PREC
        if s in BIG_OPERATORS:
            return self.big_operator(s), LEAD_PREC
        if s == "if":
            return self.ite(), LEAD_PREC
        raise ReadError(f"unknown leading token {s!r}")

    def items(self, close: str) -> list[Node]:
        items: list[Node] = []
        saved, self.abs_depth = self.abs_depth, 0
        if self.at(close):
            self.take()
            self.abs_depth = saved
            return items
        while True:
            items.append(self.expr(0))
            t = self.take()
            if t.text == close:
                self.abs_depth = saved
                return items
            if t.text != ",":
                raise ReadError(f"expected , or {close}")

    def paren(self) -> Node:
        saved, self.abs_depth = self.abs_depth, 0
        if self.at(")"):
            self.take()
            self.abs_depth = saved
            return Name("()")
        if self.at("↑") and self.peek(1) is not None and self.peek(1).text == ")":
            # Mathlib's partially applied coercion `(↑)` (Mathlib/Tactic/Coe.lean `elab "(" "↑" ")" : term`)
            self.take(), self.take()
            self.abs_depth = saved
            return Name("(↑)")
        inner = self.expr(0)
        if self.at(":"):
            self.take()
            if self.at(")"):  # `(e :)` — elaborate without expected type
                raise ReadError("(e :) ascription")
            ty = self.expr(0)
            self.expect(")")
            self.abs_depth = saved
            return Ascription(inner, ty)
        if self.at(","):
            items = [inner]
            while self.at(","):
                self.take()
                items.append(self.expr(0))
            self.expect(")")
            self.abs_depth = saved
            return Collection("(", tuple(items))
        self.expect(")")
        self.abs_depth = saved
        if _has_cdot(inner):
            # `(· + 1)` is a function: the parentheses are part of the notation.
            return Collection("(·", (inner,))
        return inner

    def brace(self) -> Node:
        saved, self.abs_depth = self.abs_depth, 0
        try:
            if self.at("}"):
                self.take()
                return Collection("{", ())
            # set-builder: `{x | p}`, `{x : T | p}`, `{x ∈ s | p}`; else a set literal `{a, b}`.
            t, t1 = self.peek(), self.peek(1)
            if t is not None and t.kind == lx.IDENT and t.text not in KEYWORDS and t1 is not None:
                if t1.text == "|":
                    self.take()
                    self.take()
                    body = self.expr(0)
                    self.expect("}")
                    return SetBuilder(Binder(t.text), body)
                if t1.text == ":" or (t1.text in ("∈", "∉", "⊆", "<", "≤", ">", "≥", "≠") and self._builder_ahead()):
                    self.take()
                    if self.at(":"):
                        self.take()
                        ty = self.expr(0)
                        binder = Binder(t.text, ty)
                    else:
                        op = self.take().text
                        bound = self.expr(51)
                        binder = Binder(t.text, None, (op, bound))
                    self.expect("|")
                    body = self.expr(0)
                    self.expect("}")
                    return SetBuilder(binder, body)
                if t1.text == ":=":
                    raise ReadError("structure instance")
            items = [self.expr(0)]
            while self.at(","):
                self.take()
                items.append(self.expr(0))
            if self.at("|"):
                raise ReadError("set-builder with a pattern")
            self.expect("}")
            return Collection("{", tuple(items))
        finally:
            self.abs_depth = saved

    def _builder_ahead(self) -> bool:
        """Whether a top-level `|` comes before the closing `}` (a set-builder rather than `{x ∈ s}` literal)."""
        depth = 0
        for k in range(self.i, len(self.toks)):
            s = self.toks[k].text
            if s in lx.OPEN_BRACKETS:
                depth += 1
            elif s in lx.CLOSE_BRACKETS:
                if depth == 0:
                    return False
                depth -= 1
            elif s == "|" and depth == 0 and self.toks[k].space_before:
                return True
        return False


def _starts_argument(t: Tok) -> bool:
    s = t.text
    if t.kind in (lx.NUMBER, lx.STRING, lx.CHAR):
        return True
    if t.kind == lx.IDENT:
        return s not in KEYWORDS or s in ("Type", "Sort", "Prop", "fun")
    return s in SYMBOL_CONSTANTS or s in ("(", "⟨", "[", "#[", "{", "_", "·", "@", "↑", "⇑", "↥", "‖", "⌊", "⌈", "¬",
                                          "λ") or (
        s == "|" and not t.space_after) or (s == "." and t.space_before and not t.space_after)  # `f .I`


def _apply(fn: Node, args: tuple[Node, ...]) -> Node:
    """``f a`` then ``b`` is ``f a b`` (Lean's application is n-ary; ``(f a) b`` elaborates to the same term)."""
    if isinstance(fn, App):
        return App(fn.fn, fn.args + args)
    return App(fn, args)

def _has_cdot(node: Node) -> bool:
    """Whether ``·`` occurs in ``node`` outside any nested parentheses (which would own it)."""
    if isinstance(node, Name):
        return node.text == "·"
    if isinstance(node, (Collection,)) and node.open == "(·":
        return False
    for child in children(node):
        if _has_cdot(child):
            return True
    return False
