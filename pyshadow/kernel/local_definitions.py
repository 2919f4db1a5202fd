"""Definitions are part of the statement: the declarations a statement's file makes (``def``/``abbrev``/``instance``
/``opaque``, PutnamBench's ``abbrev …_solution``) — read so that two statements pass as one only when the
definitions they use are the same.

1. **Local definitions are unfolded** (``unfold_definitions``, first of all readings, on both sides of every
   comparison). Every use of a definition of the statement's context — the text before it — is replaced by the
   definition's value (δ-reduction, then β: the kernel's definitional equality, no lemma), so the comparison sees
   the bodies, whatever the names: a candidate that inlines what the reference names, or names what it inlines, is
   judged by the bodies. ``f a₁ … aₖ`` with ``def f (x₁ : T₁) … (xₖ : Tₖ) : R := v`` becomes ``(v[xᵢ := (aᵢ : Tᵢ)]
   : R)``: each argument ascribed with its parameter's type, as Lean elaborates an argument against the expected
   parameter type (src/Lean/Elab/App.lean, ``elabAppArgs``: ``elabTermEnsuringType`` at the binder's domain), and the
   value with the declared result type, as it was elaborated in the definition (``I`` of ``abbrev I : Set ℝ := Icc 0
   1`` is ``(Icc 0 1 : Set ℝ)``, never ``Icc 0 1`` read at ℕ). Definitions are unfolded in file order, so one that
   uses an earlier one carries its body (the chain).
   A definition is unfolded only when that is exact: a ``:=`` value that reads as a term, every explicit parameter
   typed (a ``Type*``/``Sort`` parameter takes its argument as it is), no implicit parameter the value or types
   mention, a declared result type or a value that is syntactically a proposition, no recursion. Any other
   definition — a ``by``/``where``/``|`` body, a value left open (``:= sorry``: PutnamBench's answer slot), a name
   capture — is kept as a constant whose name says what it is: ``<name>_def<hash>`` with the hash of its kind,
   signature and value (``sorry`` included). Two such constants are the same only for the same definition, so a
   changed body is never passed: it fails, or is undecided. A name the statement binds shadows a definition.

Data declarations and answers are ``kernel/answers.py``'s.
"""


from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass, replace

from ..syntax import ParseError, parse_declaration
from ..syntax import lexer as lx
from ..syntax import terms as tm
from ..syntax.ast import Atom, Declaration, Term, atoms
from ..syntax.parser import parse_term
from ..syntax.render import render_binders, render_term
from ..syntax.scanner import declarations, name_components
from .answers import DATA_KEYWORDS, declared_value, identifiers, is_open_value
from .opens import named_definitions, opened_namespaces, visible_spellings
from .binder_types import BinderTypes, type_text
from .casts import stands_alone
from .substitution import (Skip, free_names, map_atoms, map_terms, quantified, read_key, subst_many,
                           terms)

# ---------------------------------------------------------------------------------------------------------------
# 1. Local definitions


@dataclass(frozen=True)
class LocalDefinition:
    """A definition of a statement's context: its fully qualified name, header (parsed) and value text."""

    name: str
    keyword: str
    header: Declaration
    value: str | None  # the term after `:=` (``declared_value``); None: a `where`/`|` body or none
    body: str = ""  # the whole body as written (comments and spacing dropped): what a tag hashes when no value
    opens: frozenset[str] = frozenset()  # the namespaces open where it is declared (its names resolve under them)

    @property
    def tag(self) -> str:
        """The constant the definition is read as when it is not unfolded: its short name and a hash of what it
        is (keyword, binders, type, value)."""
        h = self.header
        # the namespaces open where it is declared decide what its value's names mean (not a value left open)
        opens = "" if is_open_value(self.value) else " ".join(sorted(self.opens))
        what = "|".join([self.keyword, opens, render_binders(h.binders) if h.binders else "",
                         _text(h.type) if h.type is not None else "",
                         _canonical_value(self.value) if self.value is not None else self.body])
        short = name_components(self.name)[-1]
        return f"{short}_def{hashlib.sha1(what.encode()).hexdigest()[:10]}"


def _canonical_value(value: str | None) -> str:
    if value is None:
        return "<no value>"
    node = tm.read_term(value)
    return tm.canonical_node(node) if node is not None else " ".join(value.split())


@functools.lru_cache(maxsize=1024)
def local_definitions(context: str) -> tuple[LocalDefinition, ...]:
    """The named data declarations of ``context`` in file order (a header that does not parse is skipped)."""
    if not context or not any(k in context for k in DATA_KEYWORDS):
        return ()
    out = []
    for d in declarations(context):
        if d.keyword not in DATA_KEYWORDS or not d.name:
            continue
        try:
            header = parse_declaration(d.header)
        except ParseError:
            continue
        body = context[d.statement_end:d.end]
        out.append(LocalDefinition(d.qualified_name, d.keyword, header, declared_value(body),
                                   " ".join(t.text for t in lx.code_tokens(body)),
                                   opened_namespaces(context[: d.start], header.preamble)))
    return tuple(out)


def open_slots(context: str) -> dict[str, str]:
    """The constants the answers left open (``:= sorry``) of ``context`` are read as (their tags), each with the
    short name the file declares it under: Lean reads that name as the one slot (an ``axiom`` in the printed
    context, ``pyshadow.elab.context``), so a read statement printed for Lean names it so."""
    return {d.tag: name_components(d.name)[-1] for d in local_definitions(context)
            if is_open_value(d.value) and not d.header.binders}


@dataclass(frozen=True)
class _Unfolding:
    """How one definition's uses are read: ``value`` and ``params`` when it is unfolded, else its ``tag``."""

    tag: str
    params: tuple[tuple[str, tm.Node | None], ...] = ()  # explicit parameters (a Sort parameter: no type)
    value: tm.Node | None = None  # already ascribed with the result type


def _unfolding(d: LocalDefinition, earlier: dict[str, _Unfolding]) -> _Unfolding:
    """``d`` unfolded when that is exact (module docstring, 1.), else its tag; ``earlier`` reads the definitions
    before it (their uses inside ``d`` are unfolded first, so a change in one shows in every later one)."""
    # the definitions it uses are part of what it is: their tags in its own (a changed helper changes it)
    header = " ".join(_text(t) for t in [*(b.type for b in d.header.binders if b.type is not None),
                                         *([d.header.type] if d.header.type is not None else [])])
    deps = sorted({earlier[i].tag for i in identifiers(f"{header} {d.body}") if i in earlier})
    tag = _Unfolding(d.tag if not deps else
                     f"{d.tag.rsplit('_def', 1)[0]}_def{hashlib.sha1('|'.join([d.tag, *deps]).encode()).hexdigest()[:10]}")
    if d.value is None or is_open_value(d.value) or d.value.startswith("by ") or d.value == "by":
        return tag
    node = tm.read_term(d.value)
    if node is None or isinstance(node, tm.Opaque):
        return tag
    params: list[tuple[str, tm.Node | None]] = []
    implicit: set[str] = set()
    for b in d.header.binders:
        if b.bracket == "[":
            implicit.update(b.names)
            continue
        if b.bracket != "(" or b.type is None or b.default is not None or b.bound is not None or not b.names:
            if b.bracket in ("{", "⦃", "{{"):
                implicit.update(b.names)
                continue
            return tag
        ty = read_key(_text(b.type))
        if ty is None:
            return tag
        sort = re.match(r"^(Type|Sort)\b", _text(b.type).strip()) is not None
        params += [(n, None if sort else ty) for n in b.names]
    result = read_key(_text(d.header.type)) if d.header.type is not None else None
    if d.header.type is not None and result is None:
        return tag
    if result is None and isinstance(_logical(d.value), Atom):
        return tag  # no declared type and not a proposition: its type is the elaborator's (`def half := 1 / 2`)
    mentioned = free_names(node) | (free_names(result) if result is not None else set())
    mentioned |= set().union(*(free_names(t) for _, t in params if t is not None)) if params else set()
    short = name_components(d.name)[-1]
    if mentioned & implicit or short in free_names(node) or d.name in free_names(node):
        return tag  # an implicit parameter the value needs, or recursion
    known = {p: tm.canonical_node(t) for p, t in params if t is not None}
    try:
        node = _substitute(node, earlier, frozenset(p for p, _ in params), known)
        params = [(p, _substitute(t, earlier, frozenset()) if t is not None else None) for p, t in params]
        result = _substitute(result, earlier, frozenset()) if result is not None else None
    except Skip:
        return tag
    if result is not None and result != tm.Name("Prop"):
        node = tm.Ascription(node, result)
    return _Unfolding(tag.tag, tuple(params), node)


def _logical(text: str) -> Term:
    try:
        return parse_term(text)
    except ParseError:
        return Atom(text, ())


def _expand(u: _Unfolding, args: tuple[tm.Node, ...], known: dict[str, str]) -> tm.Node:
    """A use ``f a₁ … aₖ`` of an unfolded definition as its value (``u.value is not None``); ``known`` are the
    statement variables' types (an argument or value already of the type it is ascribed with is left bare:
    the ascription changes nothing Lean elaborates, ``binder_types.BinderTypes.type_of``)."""
    assert u.value is not None
    mapping: dict[str, tm.Node] = {}
    rest = list(args)
    pending = []
    for name, ty in u.params:
        if rest:
            arg = rest.pop(0)
            if ty is not None:
                ty = _subst_names(ty, mapping)
            mapping[name] = _ascribed(arg, ty, known) if ty is not None else arg
        else:
            pending.append((name, _subst_names(ty, mapping) if ty is not None else None))
    captured = set().union(*(free_names(a) for a in args)) if args else set()
    if any(n in captured for n, _ in pending):
        raise Skip
    body = _subst_names(u.value, mapping)
    if isinstance(body, tm.Ascription) and _already(body.expr, body.type, known):
        body = body.expr
    for name, ty in reversed(pending):  # partially applied: `fun (x : T) => …` for the rest
        if ty is None:
            raise Skip
        body = tm.Lambda(tm.Binder(name, ty, None, "("), body)
    while rest and isinstance(body, tm.Ascription) and isinstance(body.expr, tm.Lambda):
        body = _beta_one(body, rest.pop(0), known)  # `abbrev sol : ℕ → ℕ := fun n => …` applied
    return tm.App(body, tuple(rest)) if rest else body


def _already(e: tm.Node, ty: tm.Node, known: dict[str, str]) -> bool:
    """Whether ``(e : ty)`` may be written ``e`` where a parameter or a definition's use sat: ``e`` is of type
    ``ty`` and a leaf that elaborates alike anywhere (``casts.stands_alone``) — a compound ``m - 1`` keeps its
    ascription, or ``(g m : ℝ)`` with ``g m := m - 1`` would read as real subtraction."""
    typing = BinderTypes(known)
    return typing.type_of(e) == type_text(ty) and stands_alone(e, typing)


def _ascribed(arg: tm.Node, ty: tm.Node, known: dict[str, str]) -> tm.Node:
    return arg if _already(arg, ty, known) else tm.Ascription(arg, ty)


def _beta_one(fn: tm.Ascription, arg: tm.Node, known: dict[str, str]) -> tm.Node:
    """``(fun x => e : A → B) a`` as ``(e[x := (a : A)] : B)``; raises ``Skip`` when the type is no arrow or the
    binder's written type is another."""
    lam, ty = fn.expr, fn.type
    assert isinstance(lam, tm.Lambda)
    if not (isinstance(ty, tm.Binary) and ty.op == "→") or lam.binder.bound is not None:
        raise Skip
    if lam.binder.type is not None and tm.canonical_node(lam.binder.type) != tm.canonical_node(ty.left):
        raise Skip
    body = _subst_names(lam.body, {lam.binder.name: _ascribed(arg, ty.left, known)})
    if ty.right == tm.Name("Prop") or _already(body, ty.right, known):
        return body
    return tm.Ascription(body, ty.right)


def _subst_names(node: tm.Node, mapping: dict[str, tm.Node]) -> tm.Node:
    if not mapping:
        return node
    return subst_many(node, mapping, set().union(*(free_names(v) for v in mapping.values())))


def _substitute(node: tm.Node, table: dict[str, _Unfolding], bound: frozenset[str],
                known: dict[str, str] | None = None) -> tm.Node:
    """``node`` with every use of a definition of ``table`` (not shadowed by ``bound``) unfolded or tagged;
    ``known``: the statement variables' types."""
    known = known or {}

    def dotted(name: str, bound: frozenset[str]) -> tm.Node | None:
        """``S.ncard`` with ``S`` a definition: generalized field notation on its value, ``(value).ncard`` (Lean
        resolves ``S.ncard`` as ``Set.ncard S`` from ``S``'s type, src/Lean/Elab/App.lean ``resolveLValLoop``)."""
        parts = name_components(name)
        for k in range(len(parts) - 1, 0, -1):
            head = ".".join(parts[:k])
            if head in table and head not in bound:
                return tm.Projection(_use(table[head], (), known), ".".join(parts[k:]))
        return None

    def go(x: tm.Node, bound: frozenset[str]) -> tm.Node:
        if isinstance(x, tm.App) and isinstance(x.fn, tm.Name) and x.fn.text in table and x.fn.text not in bound:
            args = tuple(go(a, bound) for a in x.args)
            return _use(table[x.fn.text], args, known)
        if isinstance(x, tm.Name):
            if x.text in table and x.text not in bound:
                return _use(table[x.text], (), known)
            return dotted(x.text, bound) or x
        if isinstance(x, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)):
            inner = bound | {x.binder.name}
            b = x.binder
            binder = tm.Binder(b.name, go(b.type, bound) if b.type is not None else None,
                               (b.bound[0], go(b.bound[1], bound)) if b.bound is not None else None, b.bracket)
            if isinstance(x, tm.BigOperator):
                return tm.BigOperator(x.op, binder, go(x.body, inner),
                                      go(x.filter, inner) if x.filter is not None else None)
            return replace(x, binder=binder, body=go(x.body, inner))
        if isinstance(x, tm.IfThenElse) and x.hyp:
            inner = bound | {x.hyp}
            return tm.IfThenElse(x.hyp, go(x.cond, bound), go(x.then, inner), go(x.orelse, inner))
        if isinstance(x, tm.Opaque) or isinstance(x, tm.Collection) and x.open == "(·":
            if any(n in table for n in free_names(x)):
                raise Skip  # an unread token run: cannot tell where the definition is used in it
            return x
        return tm.map_children(x, lambda c: go(c, bound))

    return go(node, bound)


def _use(u: _Unfolding, args: tuple[tm.Node, ...], known: dict[str, str]) -> tm.Node:
    if u.value is not None:
        try:
            return _expand(u, args, known)
        except Skip:
            pass
    return tm.App(tm.Name(u.tag), args) if args else tm.Name(u.tag)


def _table(defs: tuple[LocalDefinition, ...]) -> dict[str, _Unfolding]:
    """Each definition by every name a use may spell it with: its full name and its trailing components (as
    written inside its namespace). A name two definitions share (or one declared twice) reads as neither: as a
    constant of both their tags, so it is the same only where both sides have the same two definitions."""
    table: dict[str, _Unfolding] = {}
    spelled: dict[str, list[_Unfolding]] = {}
    for d in defs:
        u = _unfolding(d, dict(table))
        parts = name_components(d.name)
        for k in range(len(parts)):
            key = ".".join(parts[k:])
            spelled.setdefault(key, []).append(u)
            table[key] = u
    for key, us in spelled.items():
        if len(us) > 1:
            both = hashlib.sha1("|".join(sorted(u.tag for u in us)).encode()).hexdigest()[:10]
            table[key] = _Unfolding(f"{name_components(key)[-1]}_ambiguous{both}")
    return table


def without_definitions(context: str) -> str:
    """``context`` with its data declarations left out (its ``open`` s and the rest kept): the statement read with
    its definitions folded, as the full tier's goals name them."""
    spans = [(d.start, d.end) for d in declarations(context) if d.keyword in DATA_KEYWORDS]
    out, last = [], 0
    for start, end in spans:
        out.append(context[last:start])
        last = end
    return "".join(out) + context[last:]


def pair_by_value(reference: str, candidate: str, paired: dict[str, str]) -> dict[str, str]:
    """Reference definitions (fully qualified) paired with candidate ones by what they are: the same value under
    the same reading, parameters α-renamed (``twice (k : ℕ) : ℕ := 2 * k`` for ``double (n : ℕ) : ℕ := 2 * n``),
    each side's chain unfolded; only definitions ``paired`` (reference → candidate) leaves out, and only a unique
    match. A pairing decides only which names the checks use: the kernel tier compares the unfolded bodies
    anyway, the full tier checks the pair ``rfl``-equal."""
    keys = []
    for src, taken in ((reference, set(paired)), (candidate, set(paired.values()))):
        defs = local_definitions(src)
        table = _table(defs)
        found: dict[str, list[str]] = {}
        for d in defs:
            key = _value_key(table.get(d.name))
            if key is not None and d.name not in taken:
                found.setdefault(key, []).append(d.name)
        keys.append(found)
    ref, cand = keys
    return {r[0]: cand[k][0] for k, r in ref.items() if len(r) == 1 and len(cand.get(k, ())) == 1}


def _value_key(u: _Unfolding | None) -> str | None:
    if u is None or u.value is None:
        return None
    mapping: dict[str, tm.Node] = {}
    types = []
    for i, (name, ty) in enumerate(u.params):
        types.append(tm.canonical_node(_subst_names(ty, mapping)) if ty is not None else "Sort")
        mapping[name] = tm.Name(f"pyshadow_p{i}")
    try:
        return "|".join([*types, tm.canonical_node(_subst_names(u.value, mapping))])
    except Skip:
        return None


@functools.lru_cache(maxsize=4096)
def unfold_definitions(decl: Declaration, context: str) -> Declaration:
    """``decl`` with every use of a definition of ``context`` unfolded or tagged (module docstring, 1.)."""
    defs = local_definitions(context)
    if not defs:
        return decl
    table = visible_spellings(_table(defs), [d.name for d in defs], opened_namespaces(context, decl.preamble), decl.name)
    header = {n for b in decl.binders for n in b.names}
    table = {k: u for k, u in table.items() if k not in header}  # a header binder shadows the definition
    # A name bound inside the statement (`∃ f, …`) may also be the definition used free elsewhere: which use is
    # which is not tracked here, so every use reads as the definition's constant (never as its unfolded value).
    table = {k: (_Unfolding(u.tag) if k in quantified(decl) else u) for k, u in table.items()}
    used = {n for t in terms(decl) for a in atoms(t) for n in named_definitions(a, table)}
    if not used:  # a binder's default is an `optParam` (Lean core src/Init/Prelude.lean): no part of the statement
        return decl
    changed = False
    known = {n: tm.canonical(_text(b.type)) for b in decl.binders if b.type is not None for n in b.names}

    def atom(a: Atom) -> Atom:
        nonlocal changed
        if not named_definitions(a, table):
            return a
        node = read_key(a.text)
        if node is None:
            # an atom the term reader cannot read: its definition names as tags (never unfolded text)
            text = re.sub(r"(?<![\w.'])(" + "|".join(map(re.escape, sorted(used, key=len, reverse=True)))
                          + r")(?![\w'])", lambda m: table[m.group(1)].tag, a.text)
        else:
            try:
                new = _substitute(node, table, frozenset(), known)
            except Skip:
                new = _substitute(node, {k: _Unfolding(u.tag) for k, u in table.items()}, frozenset())
            text = tm.render(new) if new != node else a.text
            if new != node and not isinstance(new, (tm.Name, tm.App, tm.Ascription)):
                text = f"({text})"
        if text == a.text:
            return a
        changed = True
        return Atom(text, tuple(dict.fromkeys(identifiers(text))), a.open_right)

    out = map_terms(decl, lambda t: map_atoms(t, atom))
    if not changed:
        return decl
    # Re-read: an unfolded proposition (`is_topology X T` ↦ `univ ∈ T ∧ …`) is logical structure, as written inline.
    header = f"theorem pyshadow_unfolded {render_binders(out.binders) if out.binders else ''}"
    try:
        again = parse_declaration(header + (f" : {render_term(out.type)}" if out.type is not None else ""))
    except ParseError:
        return out
    if len(again.binders) != len(out.binders):
        return out
    return replace(out, binders=again.binders, type=again.type if out.type is not None else None)


def _text(t: Term) -> str:
    return t.text if isinstance(t, Atom) else render_term(t)
