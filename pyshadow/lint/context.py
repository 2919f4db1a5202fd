"""Everything a rule reads about one statement: its parts (:mod:`pyshadow.lint.statement`), the inferred types
(:mod:`pyshadow.lint.types`), which header binders are variables and which are hypotheses, and a helper that turns
a span into a :class:`~pyshadow.lint.findings.Finding`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..syntax import lexer as lx
from ..syntax import terms as tm
from .findings import RULES, Finding
from .statement import Part, Statement, children
from .types import RELATIONS, Inference, Types, binder_type
from .signatures import PROP, UNKNOWN, signature

LOGICAL = frozenset({"∧", "∨", "→", "↔", "/\\", "\\/", "->", "<->", "∈", "∉", "⊆", "⊂", "⊇", "⊃"}) | RELATIONS
TYPE_HEADS = frozenset({"Type", "Sort", "Type*", "Prop", "Set", "Finset", "List", "Multiset", "Fin", "ZMod",
                        "Matrix", "Polynomial"})


@dataclass
class Context:
    statement: Statement
    types: Types
    informal: str | None = None
    # header binder name → the part declaring it (the last one wins, as in Lean)
    variables: dict[str, Part] = field(default_factory=dict)
    hypotheses: list[Part] = field(default_factory=list)
    scope_types: dict[str, object] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.statement.text

    def finding(self, rule_id: str, span: tuple[int, int], message: str, suggestion: str | None = None,
                severity: str | None = None) -> Finding:
        start, end = span
        line, column = lx.line_col(self.text, start)
        return Finding(rule_id, severity or RULES[rule_id].severity, start, end, line, column,
                       self.text[start:end], message, suggestion)


def is_proposition(part: Part) -> bool:
    """Whether a binder group is a hypothesis: its type is a relation or connective (not an arrow between types), a
    quantifier, a negation, a Prop-valued function of the signature table, or it is named like one (``h``, ``h₀``,
    ``hx`` — the convention of every corpus read)."""
    tree = part.tree
    if part.bracket == "[":
        return False
    if tree is not None:
        if isinstance(tree, tm.Binary) and tree.op in LOGICAL:
            if tree.op in ("→", "->") and _is_type(tree.left) and _is_type(tree.right):
                return False
            return True
        if isinstance(tree, tm.Quantifier) or (isinstance(tree, tm.Prefix) and tree.op == "¬"):
            return True
        if isinstance(tree, tm.App) and isinstance(tree.fn, tm.Name):
            sig = signature(tree.fn.text)
            if sig is not None and sig[1] == PROP:
                return True
    return any(n == "h" or (n.startswith("h") and len(n) > 1 and not n[1].isupper()) for n in part.names)


def _is_type(node: tm.Node) -> bool:
    if binder_type(node) != UNKNOWN:
        return True
    if isinstance(node, tm.Name):
        return node.text in TYPE_HEADS or node.text[:1].isupper() or node.text in ("α", "β", "γ", "ι", "𝕜")
    if isinstance(node, tm.App) and isinstance(node.fn, tm.Name):
        return node.fn.text in TYPE_HEADS or node.fn.text[:1].isupper()
    if isinstance(node, tm.Binary) and node.op in ("→", "->", "×"):
        return _is_type(node.left) and _is_type(node.right)
    return False


def build_context(statement: Statement, informal: str | None = None) -> Context:
    """Infer types part by part, each binder group's names entering scope after its type is read."""
    inference = Inference()
    scope: dict[str, object] = {}
    ctx = Context(statement, inference.types, informal)
    for part in statement.parts:
        if part.tree is not None:
            inference.visit(part.tree, scope)
        if part.kind != "binder":
            continue
        if is_proposition(part):
            ctx.hypotheses.append(part)
        else:
            t = binder_type(part.tree) if part.tree is not None else UNKNOWN
            for name in part.names:
                scope[name] = t
        for name in part.names:
            ctx.variables[name] = part
    ctx.scope_types = scope
    return ctx


def free_names(node: tm.Node | None, bound: frozenset[str] = frozenset()) -> set[str]:
    """Identifier roots occurring free in ``node`` (``s.card`` counts as ``s``); none in a part without a tree."""
    out: set[str] = set()
    if node is not None:
        _free(node, bound, out)
    return out


def _free(node: tm.Node, bound: frozenset[str], out: set[str]) -> None:
    if isinstance(node, tm.Name):
        if node.text[:1].isalpha() or node.text[:1] in "_αβγδεζηθικμνξπρστυφχψω":
            root = lx.ident_root(node.text.lstrip("@"))
            if root not in bound:
                out.add(root)
        return
    if isinstance(node, tm.Opaque):
        out.update(lx.ident_root(t) for t in node.tokens if t[:1].isalpha() and lx.ident_root(t) not in bound)
        return
    if isinstance(node, (tm.Quantifier, tm.Lambda, tm.SetBuilder, tm.BigOperator)):
        b = node.binder
        for x in (b.type, b.bound[1] if b.bound else None):
            if x is not None:
                _free(x, bound, out)
        inner = bound | {b.name}
        if isinstance(node, tm.BigOperator) and node.filter is not None:
            _free(node.filter, inner, out)
        _free(node.body, inner, out)
        return
    if isinstance(node, tm.IfThenElse) and node.hyp is not None:
        _free(node.cond, bound, out)
        _free(node.then, bound | {node.hyp}, out)
        _free(node.orelse, bound | {node.hyp}, out)
        return
    for child in children(node):
        _free(child, bound, out)
