"""A statement as the lint rules see it: its binder groups and conclusion, each read by the precedence-aware term
reader (``pyshadow.syntax.terms``), with the exact source span of every node.

The header is split on the lexer's tokens (bracket depth, never text patterns): each binder group ``(a b : T)``,
``{x : T}``, ``[inst : C]``, ``⦃x : T⦄`` becomes a :class:`Part` holding its names and its type read as a term, and
the text after the top-level ``:`` is the conclusion. The term reader's trees carry no positions, so
:func:`node_spans` recovers them: the identifiers and numerals of the tree, taken in source order, are aligned with
the part's identifier and number tokens (a longest-matching-subsequence alignment, so the few leaves the reader
synthesises — the ``x`` of ``∀ x ∈ s, p`` expanded to ``∀ x, x ∈ s → p`` — are simply left unmatched); a node's
span runs from its first matched leaf to its last, widened to balanced brackets, and a big operator's from its
symbol. A part the reader cannot read (``None``) has no tree, and no rule looks into it.
"""

from __future__ import annotations

from typing import get_args

from dataclasses import dataclass, field
from difflib import SequenceMatcher

from ..syntax import lexer as lx
from ..syntax import terms as tm

BINDER_OPEN = {"(": ")", "{": "}", "[": "]", "⦃": "⦄", "⟨": "⟩"}
DECLARATION_KEYWORDS = frozenset({"theorem", "lemma", "example", "def", "abbrev", "instance", "axiom"}
                                 | set(lx.DIALECT_DECLARATIONS))
_LEAF_KINDS = (lx.IDENT, lx.NUMBER)


@dataclass
class Part:
    """A binder group (``kind="binder"``) or the conclusion (``kind="conclusion"``) of a statement."""

    kind: str
    bracket: str  # "(" "{" "[" "⦃" for binders, "" for the conclusion
    names: tuple[str, ...]
    text: str  # the type (binders) or the conclusion, verbatim
    start: int  # offset of ``text`` in the statement
    group_start: int  # offset of the whole binder group (its bracket) in the statement
    tree: tm.Node | None = None
    spans: dict[int, tuple[int, int]] = field(default_factory=dict)  # id(node) → statement offsets
    default: str | None = None  # `(x : T := v)`: the default value's text
    end: int = 0  # offset just after the group's closing bracket

    def span(self, node: tm.Node) -> tuple[int, int]:
        """``node``'s offsets in the statement; the whole part when its leaves could not be placed."""
        return self.spans.get(id(node), (self.start, self.start + len(self.text)))

@dataclass
class Statement:
    text: str
    name: str | None
    parts: list[Part]
    keyword: str | None = None  # theorem / lemma / example / def …

    @property
    def binders(self) -> list[Part]:
        return [p for p in self.parts if p.kind == "binder"]

    @property
    def conclusion(self) -> Part | None:
        return next((p for p in self.parts if p.kind == "conclusion"), None)


def read_statement(text: str) -> Statement:
    """Split ``theorem name binders : conclusion`` and read each part; never raises on odd input (what cannot be
    split or read is simply left without a tree)."""
    toks = [t for t in lx.tokenize(text) if not t.is_trivia]
    i, name, keyword = 0, None, None
    while i < len(toks) and toks[i].text not in DECLARATION_KEYWORDS:
        i += 1
    if i < len(toks):
        keyword = lx.DIALECT_DECLARATIONS.get(toks[i].text, toks[i].text)
        if toks[i].text != "example" and i + 1 < len(toks) and toks[i + 1].kind == lx.IDENT:
            name = toks[i + 1].text
            i += 1
        i += 1
    else:
        i = 0
    parts: list[Part] = []
    while i < len(toks):
        t = toks[i]
        if t.text in BINDER_OPEN and t.text != "⟨":
            close = _matching(toks, i)
            if close is None:
                break
            parts.append(_binder_part(text, toks, i, close))
            i = close + 1
            continue
        if t.text == ":":
            start = toks[i + 1].start if i + 1 < len(toks) else len(text)
            parts.append(Part("conclusion", "", (), text[start:].rstrip(), start, t.start))
            break
        i += 1
    for part in parts:
        if part.text:
            part.tree = tm.read_term(part.text)
            if part.tree is not None:
                part.spans = node_spans(part.tree, part.text, part.start)
    return Statement(text, name, parts, keyword)


def _matching(toks: list[lx.Token], i: int) -> int | None:
    depth = 0
    for j in range(i, len(toks)):
        s = toks[j].text
        if s in lx.OPEN_BRACKETS:
            depth += 1
        elif s in lx.CLOSE_BRACKETS:
            depth -= 1
            if depth == 0:
                return j
    return None


def _binder_part(text: str, toks: list[lx.Token], open_i: int, close_i: int) -> Part:
    """``(a b : T := d)`` → names (a, b), type T (up to a top-level ``:=``); ``[C x]`` → type ``C x``."""
    depth, colon, default = 0, None, None
    for j in range(open_i + 1, close_i):
        s = toks[j].text
        if s in lx.OPEN_BRACKETS:
            depth += 1
        elif s in lx.CLOSE_BRACKETS:
            depth -= 1
        elif depth == 0 and s == ":" and colon is None and default is None:
            colon = j  # a `:` after `:=` is inside the default value (`(f := fun n : ℕ => n)`)
        elif depth == 0 and s == ":=" and default is None:
            default = j
    part = _binder_fields(text, toks, open_i, close_i, colon, default)
    part.end = toks[close_i].end
    if default is not None:
        part.default = text[toks[default + 1].start:toks[close_i].start].strip() if default + 1 < close_i else ""
    return part


def _binder_fields(text: str, toks: list[lx.Token], open_i: int, close_i: int, colon: int | None,
                   default: int | None) -> Part:
    bracket = toks[open_i].text
    end_i = default if default is not None else close_i
    if colon is None:
        if bracket == "[":  # anonymous instance: the whole content is the type
            start = toks[open_i + 1].start if open_i + 1 < close_i else toks[close_i].start
            return Part("binder", bracket, (), text[start:toks[end_i].start].rstrip(), start, toks[open_i].start)
        names = tuple(t.text for t in toks[open_i + 1:end_i] if t.kind == lx.IDENT)
        return Part("binder", bracket, names, "", toks[close_i].start, toks[open_i].start)
    names = tuple(t.text for t in toks[open_i + 1:colon] if t.kind == lx.IDENT or t.text == "_")
    start = toks[colon + 1].start if colon + 1 < end_i else toks[end_i].start
    return Part("binder", bracket, names, text[start:toks[end_i].start].rstrip(), start, toks[open_i].start)


# ---------------------------------------------------------------------------------------------------------------
# Spans


_BINDING = (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)


def children(node: tm.Node) -> list[tm.Node]:
    """The sub-terms of ``node`` in source order (binder types and bounds before bodies). Read off the node's
    fields, so that node kinds the term reader adds later are walked too."""
    if isinstance(node, _BINDING):
        b = node.binder
        out = [x for x in (b.type, b.bound[1] if b.bound else None) if x is not None]
        if isinstance(node, tm.BigOperator) and node.filter is not None:
            out.append(node.filter)
        return [*out, node.body]
    if isinstance(node, (tm.Name, tm.Opaque)):
        return []
    out = []
    for name in node.__slots__:
        value = getattr(node, name)
        if isinstance(value, tuple):
            out.extend(v for v in value if _is_node(v))
        elif _is_node(value):
            out.append(value)
    return out


_NODE_TYPES = get_args(tm.Node)


def _is_node(value: object) -> bool:
    return isinstance(value, _NODE_TYPES)


class _Leaf:
    """A binder name or projection field: a token in the source that is no node of its own."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def _leaves(node: tm.Node, out: list, seen_types: set[int]) -> None:
    if isinstance(node, tm.Name):
        out.append(node)
        return
    if isinstance(node, tm.Opaque):
        out.extend(_Leaf(t) for t in node.tokens)
        return
    if isinstance(node, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)):
        b = node.binder
        out.append(_Leaf(b.name))
        # `∀ x y : T, p` reads as two quantifiers sharing one type node: its leaves are in the source once.
        if b.type is not None and id(b.type) not in seen_types:
            seen_types.add(id(b.type))
            _leaves(b.type, out, seen_types)
        if b.bound is not None:
            _leaves(b.bound[1], out, seen_types)
        if isinstance(node, tm.BigOperator) and node.filter is not None:
            _leaves(node.filter, out, seen_types)
        _leaves(node.body, out, seen_types)
        return
    if isinstance(node, tm.IfThenElse) and node.hyp is not None:
        out.append(_Leaf(node.hyp))
    for child in children(node):
        _leaves(child, out, seen_types)
    if isinstance(node, tm.Projection):
        out.append(_Leaf(node.field))


def node_spans(tree: tm.Node, text: str, base: int) -> dict[int, tuple[int, int]]:
    """``id(node) → (start, end)`` in statement offsets (``text`` starts at ``base``) for every node of ``tree``
    with at least one leaf placed in the source."""
    toks = [t for t in lx.tokenize(text) if not t.is_trivia]
    leaf_toks = [t for t in toks if t.kind in _LEAF_KINDS]
    leaves: list = []
    _leaves(tree, leaves, set())
    matcher = SequenceMatcher(None, [x.text for x in leaves], [t.text for t in leaf_toks], autojunk=False)
    placed: dict[int, tuple[int, int]] = {}
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            tok = leaf_toks[b + k]
            placed[id(leaves[a + k])] = (tok.start, tok.end)
    starts = [t.start for t in toks]
    spans: dict[int, tuple[int, int]] = {}

    def visit(node) -> tuple[int, int] | None:
        own = placed.get(id(node))
        found = [own] if own else []
        for child in children(node):
            s = visit(child)
            if s:
                found.append(s)
        if not found:
            return None
        start, end = min(s for s, _ in found), max(e for _, e in found)
        if isinstance(node, (tm.BigOperator, tm.Quantifier, tm.Lambda, tm.SetBuilder, tm.Prefix)):
            start = _head_start(toks, starts, start, node)
        start, end = _balanced(toks, start, end)
        spans[id(node)] = (base + start, base + end)
        return start, end

    visit(tree)
    return spans


_HEADS = {tm.Quantifier: None, tm.Lambda: ("fun", "λ"), tm.SetBuilder: ("{",)}


def _head_start(toks: list[lx.Token], starts: list[int], start: int, node) -> int:
    """Move ``start`` back to the symbol that opens ``node`` (``∑``, ``∀``, ``fun``, ``-``): the nearest such token
    before its first leaf."""
    if isinstance(node, tm.BigOperator):
        heads: tuple[str, ...] = (node.op,)
    elif isinstance(node, tm.Quantifier):
        heads = (node.kind, "forall", "exists")
    elif isinstance(node, tm.Prefix):
        heads = (node.op,)
    else:
        heads = _HEADS[type(node)]
    for tok in reversed(toks):
        if tok.start < start and tok.text in heads:
            return tok.start
    return start


def _balanced(toks: list[lx.Token], start: int, end: int) -> tuple[int, int]:
    """Widen ``[start, end)`` to whole tokens with balanced brackets (``f (x`` → ``f (x)``,
    ``a) / (b`` → ``(a) / (b)``)."""
    inside = [k for k, t in enumerate(toks) if t.start >= start and t.end <= end]
    if not inside:
        return start, end
    lo, hi = inside[0], inside[-1]
    depth = lowest = 0
    for k in range(lo, hi + 1):
        s = toks[k].text
        if s in lx.OPEN_BRACKETS:
            depth += 1
        elif s in lx.CLOSE_BRACKETS:
            depth -= 1
            lowest = min(lowest, depth)
    need_open, need_close = -lowest, depth - lowest
    while need_open > 0 and lo > 0:  # closers without openers: take the openers before
        lo -= 1
        if toks[lo].text in lx.OPEN_BRACKETS:
            need_open -= 1
        elif toks[lo].text in lx.CLOSE_BRACKETS:
            need_open += 1
    while need_close > 0 and hi + 1 < len(toks):  # unclosed openers: take the closers after
        hi += 1
        if toks[hi].text in lx.CLOSE_BRACKETS:
            need_close -= 1
        elif toks[hi].text in lx.OPEN_BRACKETS:
            need_close += 1
    return toks[lo].start, toks[hi].end
