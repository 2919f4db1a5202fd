"""A precedence-aware reader for Lean term notation: typed trees, canonical printing, α-equivalence.

The statement parser (``pyshadow.syntax.parser``) structures only the logic of a statement and keeps everything
else as verbatim ``Atom`` text. This module reads such text as Lean does — Pratt parsing (precedence climbing) over
the project's lexer, with Lean's own precedences — so that two atoms can be compared as *terms*: ``x^2`` and
``x ^ 2``, ``y * (f x (x + y))`` and ``y * f x (x + y)``, ``∑ k in s, f k`` and ``∑ i ∈ s, f i`` are one term,
while ``a - b - c`` and ``a - (b - c)`` stay two.

- ``read_term(text)`` gives a tree of frozen dataclasses (``Name``, ``App``, ``Binary``, ``Prefix``, ``Postfix``,
  ``Enclosed``, ``Ascription``, ``Anonymous``, ``Collection``, ``Projection``, ``Lambda``, ``Quantifier``,
  ``BigOperator``, ``SetBuilder``, ``IfThenElse``, ``Opaque``) or ``None`` when the text is not a term this reader
  knows. It never guesses: notation it does not know (an infix operator whose precedence is not in the table, a
  ``match``, a tactic block) makes the *whole* text an ``Opaque`` token sequence — never a wrong tree.
- ``render(tree)`` prints valid Lean with minimal parentheses under the precedences below, one spelling per token
  (``λ``→``fun``, ``↦``→``=>``, ``<=``→``≤``, ``in``→``∈`` in big operators …) and fixed spacing.
- ``canonical(text)`` is the key: the canonical print with bound variables renamed by binding order (α-equivalence:
  ``fun x => x + 1`` and ``fun y => y + 1`` share it). Text that does not read as a term keys by its tokens.

Precedences (a Pratt parser's binding powers) are Lean's, each from the declaration that makes it so:

- Lean core ``src/Init/Notation.lean`` (leanprover/lean4 @ 00298d03): ``infixr:90 " ∘ "``, ``infixr:35 " × "``,
  ``infix:50 " ∣ "``, ``infixl:65 " + "``/``" - "``/``" ++ "``, ``infixl:70 " * "``/``" / "``/``" % "``,
  ``infixr:80 " ^ "``, ``prefix:75 "-"``, ``postfix:max "⁻¹"``, ``infixr:73 " • "``, ``infix:50`` for
  ``≤ < ≥ > = == <= >=``, ``infixr:35 " ∧ "``/``/\\``, ``infixr:30 " ∨ "``/``\\/``, ``notation:max "¬" p:40``,
  ``infixl:35 " && "``, ``infixl:30 " || "``, ``notation:50 a:50 " ∈ " b:50``, ``notation:50 a:50 " ∉ " b:50``,
  ``infixr:67 " :: "``, ``syntax:min term " <| " term:min``, ``syntax:min term " |> " term:min1``;
  ``if … then … else`` (``termIfThenElse``, else-branch a full term), ``fun`` (maxPrec leading, body a full term).
- Lean core ``src/Init/Core.lean``: ``infix:50 " ≠ " => Ne``, ``infix:20 " ↔ "``/``" <-> "`` (Iff),
  ``infix:50 " ⊆ "``/``" ⊂ "``/``" ⊇ "``/``" ⊃ "``, ``infixl:65 " ∪ "``, ``infixl:70 " ∩ "``, ``infix:70 " \\ "``
  (sdiff), ``infix:50 " ≈ "``; ``→`` is the built-in arrow, ``term:25 → term:25`` right-associative
  (``src/Lean/Parser/Term.lean``: ``trailing_parser:25 unicodeSymbol " → " " -> " >> termParser 25``).
- Lean core ``src/Init/Coe.lean``: ``syntax:1024 (name := coeNotation) "↑" term:1024``.
- Lean core ``src/Lean/Parser/Term.lean``: application is ``trailing_parser:leadPrec:maxPrec many1 argArg`` (the
  function at maxPrec, each argument at maxPrec); ``∀``/``∃``/``fun`` bodies are full terms; type ascription
  ``(e : T)`` and anonymous constructors ``⟨a, b⟩`` are bracketed.
- Mathlib ``Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean``:
  ``syntax (name := bigsum) "∑ " bigOpBinders ("with " term)? ", " term:67 : term`` (and ``∏``), and the deprecated
  ``syntax (name := bigsumin) "∑ " extBinder " in " term ", " term:67`` which elaborates as ``∑ x ∈ s, r`` — so a
  big operator's body is read at precedence 67: ``∏ k ∈ s, 2^k + 3^k`` is ``(∏ k ∈ s, 2^k) + 3^k``.
- Mathlib ``Mathlib/Topology/Algebra/InfiniteSum/Defs.lean``: ``notation3 "∑' "(...)", "r:67:(scoped f => tsum f)``
  (and ``∏'``).
- Mathlib ``Mathlib/Order/SetNotation.lean``: ``notation3 "⋃ "(...)", "r:60:(scoped f => iUnion f)``, ``⋂`` alike;
  ``Mathlib/Order/CompleteLattice/Defs.lean`` (``Mathlib/Order/Notation.lean``): ``⨆``/``⨅`` bodies at 60.
- Mathlib ``Mathlib/Data/Nat/Factorial/Basic.lean``: ``scoped notation:10000 n "!" => Nat.factorial n``.
- Mathlib ``Mathlib/Algebra/Order/Group/Unbundled/Abs.lean``: ``macro:max atomic("|" noWs) a:term noWs "|" : term``
  (``abs``); ``Mathlib/Analysis/Normed/Group/Basic.lean``: ``‖e‖`` (``norm``); ``Mathlib/Order/Floor/Defs.lean``:
  ``⌊a⌋``, ``⌈a⌉``, ``⌊a⌋₊``, ``⌈a⌉₊`` (all closed, max precedence).
- Mathlib ``Mathlib/Data/Real/Sqrt.lean``: ``prefix:max "√" => Real.sqrt`` (its docstring: ``√x⁻¹`` is
  ``√(x⁻¹)``).
- Mathlib ``Mathlib/Data/Set/Defs.lean``: ``infixl:80 " ⁻¹' " => preimage``, ``infixl:80 " '' " => image``,
  set-builder ``{x | p x}`` / ``{x : α | p x}`` / ``{x ∈ s | p x}`` (``binderPred``).
- Mathlib ``Mathlib/Order/Notation.lean``: ``postfix:1024 "ᶜ" => compl``, ``infixl:100 " ∆ "``;
  ``infixl:68 " ⊔ "``, ``infixl:69 " ⊓ "``, ``notation "⊤"``/``"⊥"``; ``Mathlib/Data/SProd.lean``:
  ``infixr:82 " ×ˢ "``; ``Mathlib/Logic/Equiv/Defs.lean``: ``infixl:25 " ≃ "``;
  ``Mathlib/Algebra/Group/Equiv/Defs.lean``: ``infixl:25 " ≃* "``/``" ≃+ "``; ``Mathlib/Algebra/Quotient.lean``:
  ``infixl:35 " ⧸ "``; ``Mathlib/Algebra/Group/Units/Defs.lean``: ``postfix:1024 "ˣ" => Units``.
- Mathlib ``Mathlib/Data/Int/ModEq.lean``: ``notation:50 a " ≡ " b " [ZMOD " n "]"``,
  ``Mathlib/Data/Nat/ModEq.lean`` ``[MOD n]`` — read as one ternary relation.

The oracle for these parses is real Lean: ``tests/test_terms.py`` declares the same notations, with the same
precedences, in a prelude-mode test file and checks that Lean elaborates each table entry to the structure this
reader gives (where the kernel tier is available).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Union

from . import lexer as lx

MAX_PREC = 1024  # maxPrec (src/Init/Prelude.lean: `macro "max" : prec => `(prec| 1024)`)
ARG_PREC = 1023  # argPrec
LEAD_PREC = 1022  # leadPrec
MIN_PREC = 10  # minPrec

# ---------------------------------------------------------------------------------------------------------------
# Tree


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

# ---------------------------------------------------------------------------------------------------------------
# Operator tables: (left binding power = the notation's precedence, right operand precedence, result precedence)

# Each entry: (precedence, least precedence of the left operand, precedence the right operand is read at).
# infixl:p is `syntax:p term:p op term:(p+1)`, infixr:p is `term:(p+1) op term:p`, infix:p is `term:(p+1) op
# term:(p+1)` (Lean's `Lean.Elab.Command.expandMixfix`).
INFIX: dict[str, tuple[int, int, int]] = {}


def _infixl(p: int, *ops: str) -> None:
    for op in ops:
        INFIX[op] = (p, p, p + 1)


def _infixr(p: int, *ops: str) -> None:
    for op in ops:
        INFIX[op] = (p, p + 1, p)


def _infix(p: int, *ops: str) -> None:
    for op in ops:
        INFIX[op] = (p, p + 1, p + 1)


_infixr(90, "∘")
_infixr(35, "×", "∧", "/\\")
_infixr(30, "∨", "\\/", "⊕")
_infix(50, "∣", "≤", "<", "≥", ">", "=", "==", "<=", ">=", "≠", "!=", "⊆", "⊂", "⊇", "⊃", "≈", "∈", "∉")
_infixl(65, "+", "-", "++", "∪")
_infixl(70, "*", "/", "%", "∩", "\\")
_infixr(80, "^")
_infixr(73, "•")
_infixl(35, "&&")
_infixl(30, "||")
_infixr(67, "::")
_infix(20, "↔", "<->")
_infixr(25, "→", "->")
_infixl(80, "⁻¹'", "''")
_infixr(82, "×ˢ")
_infixl(100, "∆")
_infixl(25, "≃", "≃*", "≃+", "≃+*")
_infixl(35, "⧸")
_infixl(69, "⊓")
_infixl(68, "⊔")
# `f <| x` (syntax:min term " <| " term:min) and `x |> f` (syntax:min term " |> " term:min1): both are application.
INFIX["<|"] = (MIN_PREC, 0, MIN_PREC)
INFIX["$"] = (MIN_PREC, 0, MIN_PREC)
INFIX["|>"] = (MIN_PREC, 0, MIN_PREC + 1)

# (precedence of the notation, precedence its argument is read at)
PREFIX: dict[str, tuple[int, int]] = {
    "-": (75, 75), "¬": (MAX_PREC, 40), "↑": (MAX_PREC, MAX_PREC), "⇑": (MAX_PREC, MAX_PREC),
    "↥": (MAX_PREC, MAX_PREC), "√": (MAX_PREC, MAX_PREC), "!": (MAX_PREC, 40), "~~~": (100, 100),
}
POSTFIX = {"⁻¹": MAX_PREC, "ᶜ": MAX_PREC, "ˣ": MAX_PREC, "!": 10000}
# Constants written as symbols: `∅` (Init/Core.lean `notation "∅" => EmptyCollection.emptyCollection`), `⊤`/`⊥`
# (Mathlib/Order/Notation.lean `notation "⊤" => Top.top`, `notation "⊥" => Bot.bot`), `∠`
# (Mathlib/Geometry/Euclidean/Angle/Unoriented/Affine.lean `scoped notation "∠" => EuclideanGeometry.angle`).
SYMBOL_CONSTANTS = frozenset({"∅", "⊤", "⊥", "∠"})

ENCLOSED = {"‖": "‖", "⌊": ("⌋", "⌋₊"), "⌈": ("⌉", "⌉₊")}

# Big operators and their body precedence.
BIG_OPERATORS = {"∑": 67, "∏": 67, "∑'": 67, "∏'": 67, "⋃": 60, "⋂": 60, "⨆": 60, "⨅": 60}

# One spelling per token (ASCII and Unicode alternatives of the same syntax, each pair from the declarations above).
SPELLING = {"->": "→", "<->": "↔", "/\\": "∧", "\\/": "∨", "<=": "≤", ">=": "≥", "!=": "≠", "λ": "fun", "↦": "=>",
            "$": "<|"}

_MODEQ_OPENERS = frozenset({"[ZMOD", "[MOD", "[PMOD", "[SMOD"})
_KEYWORDS = frozenset({"fun", "if", "then", "else", "let", "have", "show", "from", "by", "match", "with", "do",
                       "at", "in", "calc", "where", "suffices", "open", "Type", "Sort", "Prop"})
_CLOSERS = _MODEQ_OPENERS | frozenset({")", "]", "}", "⟩", ",", "|", "‖", "⌋", "⌉", "⌋₊", "⌉₊", ":", ":=", "=>", "↦", "then", "else",
                      "with", "in"})


class ReadError(Exception):
    """The text is not a term this reader knows (never raised to callers of ``read_term``)."""


# ---------------------------------------------------------------------------------------------------------------
# Tokens


@dataclass(frozen=True, slots=True)
class _Tok:
    text: str
    kind: str
    space_before: bool  # whitespace between this token and the previous one
    space_after: bool


def _tokens(text: str) -> list[_Tok]:
    raw = [t for t in lx.tokenize(text) if not t.is_trivia]
    merged: list[tuple[str, str, int, int]] = []
    i = 0
    while i < len(raw):
        t = raw[i]
        kind, s, start, end = t.kind, t.text, t.start, t.end
        # `⁻¹'` (preimage) and `''` (image) are single Mathlib tokens the project lexer splits.
        if s == "⁻¹" and i + 1 < len(raw) and raw[i + 1].text == "'" and raw[i + 1].start == end:
            s, end, i = "⁻¹'", raw[i + 1].end, i + 1
        elif s == "'" and i + 1 < len(raw) and raw[i + 1].text == "'" and raw[i + 1].start == end:
            s, end, i = "''", raw[i + 1].end, i + 1
        if kind == lx.IDENT and s == "in":
            kind = lx.SYMBOL
        # `[ZMOD`, `[MOD`, `[PMOD`, `[SMOD` are single tokens of Mathlib's congruence notations.
        if s == "[" and i + 1 < len(raw) and "[" + raw[i + 1].text in _MODEQ_OPENERS:
            s, end, i = "[" + raw[i + 1].text, raw[i + 1].end, i + 1
        merged.append((kind, s, start, end))
        i += 1
    out: list[_Tok] = []
    for k, (kind, s, start, end) in enumerate(merged):
        before = k > 0 and start > merged[k - 1][3]
        after = k + 1 < len(merged) and merged[k + 1][2] > end
        out.append(_Tok(s, kind, before, after))
    return out


# ---------------------------------------------------------------------------------------------------------------
# Parser


class _Parser:
    def __init__(self, toks: list[_Tok]):
        self.toks = toks
        self.i = 0
        # `|…|` nesting: inside an absolute value a `|` written with no space before it closes it.
        self.abs_depth = 0
        # The closer of the innermost `‖…‖`/`⌊…⌋`/`⌈…⌉` being read (None outside them).
        self.closer: tuple[str, ...] | None = None

    # -- helpers ---------------------------------------------------------------------------------------------
    def peek(self, k: int = 0) -> _Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def at(self, *texts: str) -> bool:
        t = self.peek()
        return t is not None and t.text in texts

    def take(self) -> _Tok:
        t = self.peek()
        if t is None:
            raise ReadError("unexpected end")
        self.i += 1
        return t

    def expect(self, text: str) -> _Tok:
        t = self.take()
        if t.text != text:
            raise ReadError(f"expected {text!r}, found {t.text!r}")
        return t

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
            if t.kind == lx.SYMBOL and s not in _CLOSERS and s not in INFIX and not _starts_argument(t):
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

    def _closing_bar(self, t: _Tok) -> bool:
        return (t.text == "|" and self.abs_depth > 0 and not t.space_before) or (
            self.closer is not None and t.text in self.closer)

    def argument(self) -> Node:
        node, level = self.leading(argument=True)
        return self.trailing(node, level, MAX_PREC)

    def modeq(self, left: Node) -> Node:
        self.expect("≡")
        right = self.expr(51)
        kind = self.take().text
        if kind not in _MODEQ_OPENERS:
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
        if t.kind == lx.IDENT and s not in _KEYWORDS:
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
            if nxt is not None and not argument and nxt.kind in (lx.IDENT, lx.NUMBER) and nxt.text not in _KEYWORDS:
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
            if t is not None and t.kind == lx.IDENT and t.text not in _KEYWORDS and t1 is not None:
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

    # -- binders ---------------------------------------------------------------------------------------------
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
                while (n := self.peek()) is not None and (n.kind == lx.IDENT and n.text not in _KEYWORDS
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
            if (t.kind == lx.IDENT and t.text not in _KEYWORDS) or t.text == "_":
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

    def quantifier(self, kind: str) -> Node:
        binders = self.binder_groups((",",), allow_bound=True)
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


def _starts_argument(t: _Tok) -> bool:
    s = t.text
    if t.kind in (lx.NUMBER, lx.STRING, lx.CHAR):
        return True
    if t.kind == lx.IDENT:
        return s not in _KEYWORDS or s in ("Type", "Sort", "Prop", "fun")
    return s in SYMBOL_CONSTANTS or s in ("(", "⟨", "[", "#[", "{", "_", "·", "@", "↑", "⇑", "↥", "‖", "⌊", "⌈", "¬",
                                          "λ") or (
        s == "|" and not t.space_after) or (s == "." and t.space_before and not t.space_after)  # `f .I`


def _apply(fn: Node, args: tuple[Node, ...]) -> Node:
    """``f a`` then ``b`` is ``f a b`` (Lean's application is n-ary; ``(f a) b`` elaborates to the same term)."""
    if isinstance(fn, App):
        return App(fn.fn, fn.args + args)
    return App(fn, args)


def _result_level(op: str) -> int:
    return INFIX[op][0]


def _has_cdot(node: Node) -> bool:
    """Whether ``·`` occurs in ``node`` outside any nested parentheses (which would own it)."""
    if isinstance(node, Name):
        return node.text == "·"
    if isinstance(node, (Collection,)) and node.open == "(·":
        return False
    for child in _children(node):
        if _has_cdot(child):
            return True
    return False


def map_children(node: Node, f) -> Node:
    """``node`` with ``f`` applied to each child (the shapes of ``_children``; a ``(· …)`` function and an
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


def _children(node: Node) -> tuple[Node, ...]:
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


# ---------------------------------------------------------------------------------------------------------------
# Entry points


def read_term(text: str) -> Node | None:
    """The tree of ``text`` read as one Lean term, or None when it is not one this reader knows."""
    return _read(text)


@lru_cache(maxsize=65536)
def _read(text: str) -> Node | None:
    toks = _tokens(text)
    if not toks:
        return None
    if any(t.kind in (lx.UNTERMINATED_STRING,) for t in toks):
        return None
    p = _Parser(toks)
    try:
        node = p.expr(0)
    except (ReadError, RecursionError):
        return None
    if p.i != len(toks):
        return None
    return node


def read_or_opaque(text: str) -> Node:
    """``read_term``, or the text's token sequence as an ``Opaque`` node (one spelling per token)."""
    node = read_term(text)
    if node is not None:
        return node
    return Opaque(tuple(SPELLING.get(t.text, t.text) for t in _tokens(text)))


def render(node: Node) -> str:
    """Lean text for ``node``: minimal parentheses, one spelling per token, fixed spacing."""
    return _Printer(alpha=False).show(node, 0, True)


@lru_cache(maxsize=65536)
def canonical(text: str) -> str:
    """The key of a term: its canonical print with bound variables renamed by binding order (α-equivalence).
    Text that does not read as a term keys by its normalised token sequence."""
    return _Printer(alpha=True).show(read_or_opaque(text), 0, True)


def canonical_node(node: Node) -> str:
    """``canonical`` of a tree (e.g. one rewritten by name resolution)."""
    return _Printer(alpha=True).show(node, 0, True)


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


def same_term(a: str, b: str) -> bool:
    """Whether two texts are the same term up to spelling, parentheses Lean does not need, and bound names."""
    return canonical(a) == canonical(b)


# ---------------------------------------------------------------------------------------------------------------
# Printing


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


class _Printer:
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


__all__ = ["Node", "Name", "App", "Binary", "Prefix", "Postfix", "Enclosed", "Ascription", "Anonymous",
           "Collection", "Projection", "Binder", "Lambda", "Quantifier", "BigOperator", "SetBuilder", "IfThenElse",
           "ModEq", "Opaque", "read_term", "read_or_opaque", "render", "canonical", "canonical_node", "same_term", "INFIX", "PREFIX",
           "POSTFIX", "BIG_OPERATORS"]
