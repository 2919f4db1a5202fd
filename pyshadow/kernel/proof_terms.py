"""The skeleton search's proof terms as trees, with every constant occurrence marked; the abstract printer.

``pyshadow.kernel.search.Prover`` builds its proof terms as text over a small fixed vocabulary: local names
(binders, hypotheses, the search's fresh ``h_skN``/``a_skN``), the candidate axiom (``@cand1``), the certificate
hypotheses (``@hS_1``), lemma axioms of the prelude (``le_of_eq``, ``ge_of_eq``, ``le_antisymm``, ``subset_of_eq``
…) and, inside ``let`` bindings, abstract type and term constants (``τ3``, ``(t5 x y)``). This module reads that text
back into a tree — ``fun``, ``let``, application, ``@``, projection ``(e).1``/``.mp``, anonymous constructor
``⟨a, b⟩``, parentheses as written — and marks each name with its kind. ``print_abstract`` prints the tree back;
it is the identity on the search's text (tested), so what the kernel tier checks and what the full tier gets
(``pyshadow.kernel.concrete.print_concrete``) are two printings of one search result.

The parser is deliberately generic (any application of any name), so a new lemma or term form the search learns
still parses; a name it cannot classify is a local name, and the concrete printer refuses a term that still
contains an abstract constant rather than emit one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Union

# Kinds of marked names.
LOCAL = "local"  # a bound variable or hypothesis: the same text in both printings
CANDIDATE = "candidate"  # the candidate's statement (the axiom `cand` in the kernel tier)
CERTIFICATE = "certificate"  # a shadow hypothesis of the backward check (`hS_i`)
LEMMA = "lemma"  # a library lemma (a prelude axiom in the kernel tier)
CONSTANT = "constant"  # an abstract type or atom constant (`τ3`, `t5`, `P2`)

_OPEN, _CLOSE = "([{⟨⦃", ")]}⟩⦄"
_STOP = ")⟩,;"


@dataclass(frozen=True)
class Name:
    text: str
    kind: str = LOCAL
    explicit: bool = False  # written with `@`


@dataclass(frozen=True)
class App:
    fn: ProofTerm
    args: tuple[ProofTerm, ...]


@dataclass(frozen=True)
class Paren:
    inner: ProofTerm


@dataclass(frozen=True)
class Proj:
    expr: ProofTerm  # a Paren (the search always parenthesises what it projects)
    field: str  # "1", "2", "mp", "mpr", …


@dataclass(frozen=True)
class Anon:
    items: tuple[ProofTerm, ...]


@dataclass(frozen=True)
class Lam:
    binders: tuple[str, ...]  # as written: `x`, `{x}`, `[inst : C α]` …
    body: ProofTerm


@dataclass(frozen=True)
class LetIn:
    keyword: str  # "let" | "have"
    name: str
    type: str | None  # the binding's type as written (an abstract constant in the kernel tier)
    value: str  # the bound value as written (`(t5 x y)` in the kernel tier)
    body: ProofTerm


ProofTerm = Union[Name, App, Paren, Proj, Anon, Lam, LetIn]


class TermSyntaxError(ValueError):
    """The text is not in the proof-term language the search produces."""


def parse_proof_term(text: str, classify: Callable[[str], str] = lambda _: LOCAL) -> ProofTerm:
    """The tree of a proof term; ``classify`` gives each name's kind (``LOCAL`` by default)."""
    parser = _Parser(text, classify)
    term = parser.term()
    parser.ws()
    if parser.pos != len(text):
        raise TermSyntaxError(f"unexpected text at {parser.pos}: {text[parser.pos:parser.pos + 20]!r}")
    return term


class _Parser:
    def __init__(self, text: str, classify: Callable[[str], str]):
        self.s, self.pos, self.classify = text, 0, classify

    def ws(self) -> None:
        while self.pos < len(self.s) and self.s[self.pos].isspace():
            self.pos += 1

    def peek(self, word: str) -> bool:
        self.ws()
        if not self.s.startswith(word, self.pos):
            return False
        end = self.pos + len(word)
        return not (word[-1].isalnum() and end < len(self.s) and _is_name_char(self.s[end]))

    def expect(self, word: str) -> None:
        if not self.peek(word):
            raise TermSyntaxError(f"expected {word!r} at {self.pos}")
        self.pos += len(word)

    def raw_until(self, *stops: str) -> str:
        """Balanced text up to the first of ``stops`` at bracket depth 0 (the stop is not consumed)."""
        self.ws()
        start, depth = self.pos, 0
        while self.pos < len(self.s):
            ch = self.s[self.pos]
            if depth == 0 and any(self.s.startswith(st, self.pos) for st in stops):
                return self.s[start:self.pos].strip()
            depth += (ch in _OPEN) - (ch in _CLOSE)
            if depth < 0:
                break
            self.pos += 1
        raise TermSyntaxError(f"unterminated text from {start}: expected one of {stops}")

    def term(self) -> ProofTerm:
        if self.peek("fun"):
            self.pos += 3
            binders = self.raw_until("=>")
            self.pos += 2
            return Lam(tuple(_split_binders(binders)), self.term())
        for keyword in ("let", "have"):
            if self.peek(keyword):
                self.pos += len(keyword)
                self.ws()
                name = self.name_text()
                self.ws()
                ty = None
                if self.s.startswith(":", self.pos) and not self.s.startswith(":=", self.pos):
                    self.pos += 1
                    ty = self.raw_until(":=")
                self.expect(":=")
                value = self.raw_until(";")
                self.pos += 1
                return LetIn(keyword, name, ty, value, self.term())
        return self.application()

    def application(self) -> ProofTerm:
        items = [self.atom()]
        while True:
            self.ws()
            if self.pos >= len(self.s) or self.s[self.pos] in _STOP or self.s.startswith(":=", self.pos):
                break
            items.append(self.atom())
        return items[0] if len(items) == 1 else App(items[0], tuple(items[1:]))

    def atom(self) -> ProofTerm:
        self.ws()
        if self.pos >= len(self.s):
            raise TermSyntaxError("unexpected end of term")
        ch = self.s[self.pos]
        if ch == "(":
            self.pos += 1
            node: ProofTerm = Paren(self.term())
            self.expect(")")
            while self.s.startswith(".", self.pos) and self.pos + 1 < len(self.s) and _is_name_char(
                    self.s[self.pos + 1]):
                self.pos += 1
                node = Proj(node, self.name_text())
            return node
        if ch == "⟨":
            self.pos += 1
            items = [self.term()]
            while self.peek(","):
                self.pos += 1
                items.append(self.term())
            self.expect("⟩")
            return Anon(tuple(items))
        explicit = ch == "@"
        if explicit:
            self.pos += 1
        text = self.name_text()
        return Name(text, self.classify(text), explicit)

    def name_text(self) -> str:
        start = self.pos
        while self.pos < len(self.s) and _is_name_char(self.s[self.pos]):
            self.pos += 1
        if start == self.pos:
            raise TermSyntaxError(f"expected a name at {start}: {self.s[start:start + 20]!r}")
        return self.s[start:self.pos]


def _is_name_char(ch: str) -> bool:
    return not ch.isspace() and ch not in "()[]{}⟨⟩⦃⦄,;:@"


def _split_binders(text: str) -> list[str]:
    """``x {y} [inst : C α] h`` → the binder groups as written."""
    out, i = [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        if text[i] in _OPEN:
            depth, j = 0, i
            while j < len(text):
                depth += (text[j] in _OPEN) - (text[j] in _CLOSE)
                j += 1
                if depth == 0:
                    break
            out.append(text[i:j])
            i = j
        else:
            j = i
            while j < len(text) and not text[j].isspace():
                j += 1
            out.append(text[i:j])
            i = j
    return out


def binder_name(binder: str) -> str:
    """The name a ``fun`` binder group binds: ``x``, ``{x}``, ``[inst : C α]`` → ``x``/``inst``."""
    inner = binder.strip("()[]{}⦃⦄ ")
    return inner.split(":", 1)[0].strip() or "_"


# ---------------------------------------------------------------------------------------------------------------
# Printing


def print_term(term: ProofTerm, name: Callable[[Name], str], app: Callable[[App], str | None] | None = None,
               let: Callable[[LetIn], tuple[str, str | None, str] | None] | None = None,
               lam: Callable[[Lam], tuple[str, ...]] | None = None) -> str:
    """Print ``term``, laid out exactly as the search lays out its text; the callbacks substitute names, whole
    applications (a lemma with another spelling), ``let`` bindings and ``fun`` binders."""

    def go(t: ProofTerm) -> str:
        if isinstance(t, Name):
            return name(t)
        if isinstance(t, App):
            special = app(t) if app is not None else None
            if special is not None:
                return special
            return " ".join([go(t.fn), *(go(a) for a in t.args)])
        if isinstance(t, Paren):
            return f"({go(t.inner)})"
        if isinstance(t, Proj):
            return f"{go(t.expr)}.{t.field}"
        if isinstance(t, Anon):
            return "⟨" + ", ".join(go(i) for i in t.items) + "⟩"
        if isinstance(t, Lam):
            binders = lam(t) if lam is not None else t.binders
            return f"fun {' '.join(binders)} => {go(t.body)}"
        if isinstance(t, LetIn):
            keyword, ty, value = let(t) if let is not None else (t.keyword, t.type, t.value)
            head = f"{keyword} {t.name} : {ty}" if ty is not None else f"{keyword} {t.name}"
            return f"{head} := {value}; {go(t.body)}"
        raise TypeError(t)

    return go(term)


def print_abstract(term: ProofTerm) -> str:
    """The kernel tier's text of ``term`` (abstract constants, prelude lemma names): the search's own text."""
    return print_term(term, lambda n: f"@{n.text}" if n.explicit else n.text)


def explicit_heads(term: ProofTerm) -> ProofTerm:
    """``(@f a) b`` and ``(h) a`` as ``@f a b`` and ``@h a``: one explicit application per rule.

    The search applies a rule to *every* parameter, binder kinds aside (the kernel tier prints quantifier binders
    explicit). Real Lean reads ``(@f a) b`` as an ordinary application of ``@f a``, inserting arguments for any
    implicit binder of ``∀ {x}, …`` left in its type, so ``b`` would land in the wrong place; ``@f a b`` passes
    every argument explicitly in both tiers (``elabAppFn`` in leanprover/lean4 ``src/Lean/Elab/App.lean``: only a
    head written ``@$id`` sets ``explicit := true``; a parenthesised head is elaborated on its own and applied
    with implicit insertion). Same term, same kernel verdict.
    """

    def go(t: ProofTerm) -> ProofTerm:
        if isinstance(t, App):
            fn, args = go(t.fn), tuple(go(a) for a in t.args)
            if isinstance(fn, Paren):
                inner = fn.inner
                if isinstance(inner, Name) and inner.kind != LEMMA:
                    return App(Name(inner.text, inner.kind, True), args)
                if isinstance(inner, App) and isinstance(inner.fn, Name) and inner.fn.explicit:
                    return App(inner.fn, inner.args + args)
            return App(fn, args)
        if isinstance(t, Paren):
            return Paren(go(t.inner))
        if isinstance(t, Proj):
            return Proj(go(t.expr), t.field)
        if isinstance(t, Anon):
            return Anon(tuple(go(i) for i in t.items))
        if isinstance(t, Lam):
            return Lam(t.binders, go(t.body))
        if isinstance(t, LetIn):
            return LetIn(t.keyword, t.name, t.type, t.value, go(t.body))
        return t

    return go(term)


def canonical_text(text: str) -> str:
    """The search's term as both tiers print it: ``explicit_heads`` applied (a term this module cannot read is
    returned unchanged, and the concrete printer will give no alternative for it)."""
    try:
        return print_abstract(explicit_heads(parse_proof_term(text)))
    except TermSyntaxError:
        return text


__all__ = [
    "CANDIDATE",
    "CERTIFICATE",
    "CONSTANT",
    "LEMMA",
    "LOCAL",
    "Anon",
    "App",
    "Lam",
    "LetIn",
    "Name",
    "Paren",
    "Proj",
    "ProofTerm",
    "TermSyntaxError",
    "binder_name",
    "canonical_text",
    "explicit_heads",
    "parse_proof_term",
    "print_abstract",
    "print_term",
]
