"""Subterms inside atoms: where two atoms differ, as whole subterm pairs, and an atom with subterms rewritten.

A lemma of the table restates one subterm (``1 / x`` as ``x⁻¹``, ``Real.logb 2 6`` as ``Real.log 6 / Real.log
2``); the atom around it is the same on both sides. ``differing_subterms`` walks two atoms' term trees in
parallel and returns the outermost subterm pairs where they differ; a binder (``∑``, ``λ``, ``∃``, set-builder)
is compared whole, never entered, so every pair returned is closed (mentions no name bound inside the atom).
``rewritten`` writes an atom with such subterms replaced, as term trees (precedence is the printer's).
"""

from __future__ import annotations

from ..syntax import terms as tm

def differing_subterms(a: str, b: str) -> list[tuple[str, str]] | None:
    """The outermost differing subterm pairs of two atom texts (rendered), or ``None`` when a text is not read
    as a term tree."""
    x, y = tm.read_term(a), tm.read_term(b)
    if x is None or y is None or isinstance(x, tm.Opaque) or isinstance(y, tm.Opaque):
        return None
    out: list[tuple[tm.Node, tm.Node]] = []
    _diff(x, y, out)
    return [(tm.render(p), tm.render(q)) for p, q in out]


def _same_head(x: tm.Node, y: tm.Node) -> bool:
    if type(x) is not type(y) or isinstance(x, tm.BINDERS) or isinstance(x, tm.Opaque):
        return False
    if isinstance(x, tm.Name):
        return x.text == y.text
    if isinstance(x, (tm.Binary, tm.Prefix, tm.Postfix)):
        return x.op == y.op
    if isinstance(x, tm.Enclosed):
        return (x.open, x.close) == (y.open, y.close)
    if isinstance(x, tm.Projection):
        return x.field == y.field
    if isinstance(x, tm.App):  # the same function: its arguments are compared (another function is another head)
        return len(x.args) == len(y.args) and tm.render(x.fn) == tm.render(y.fn)
    if isinstance(x, (tm.Anonymous, tm.Collection)):
        return len(tm._children(x)) == len(tm._children(y)) and getattr(x, "open", "") == getattr(y, "open", "")
    return isinstance(x, tm.Ascription)


def _diff(x: tm.Node, y: tm.Node, out: list) -> None:
    if x == y:
        return
    cx, cy = tm._children(x), tm._children(y)
    if not _same_head(x, y) or len(cx) != len(cy) or not cx:
        out.append((x, y))
        return
    for p, q in zip(cx, cy):
        _diff(p, q, out)


def rewritten(text: str, mapping: dict[str, str]) -> tuple[str, set[str]] | None:
    """``text`` with every subterm whose rendering is a key of ``mapping`` replaced by the key's term, and the keys
    used; ``None`` when a text is not read as a term tree or nothing was replaced."""
    node = tm.read_term(text)
    if node is None or isinstance(node, tm.Opaque):
        return None
    keys: dict[str, tm.Node] = {}
    originals: dict[str, str] = {}  # the rendering Lean's term is matched by → the key as given
    for k, v in mapping.items():
        kn, vn = tm.read_term(k), tm.read_term(v)
        if kn is None or vn is None:
            return None
        keys[tm.render(kn)], originals[tm.render(kn)] = vn, k
    used: set[str] = set()

    def walk(n: tm.Node) -> tm.Node:
        r = tm.render(n)
        if r in keys:
            used.add(r)
            return keys[r]
        if isinstance(n, tm.BINDERS):
            return n
        return tm.map_children(n, walk)

    out = walk(node)
    if not used:
        return None
    return tm.render(out), {originals[u] for u in used}
