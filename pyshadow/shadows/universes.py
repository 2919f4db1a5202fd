"""Universes of a statement: naming its universe holes (``Type*``, ``Type _``), reading the names it uses, and
listing its universe parameters in the order Lean gives them — for the checkers' ``universe`` lines, the
statements module's axioms and the candidate backward check's pin (``pyshadow.score.full``). Also the auto-bound
implicit type variables a statement's file bound (``with_auto_bound``), which the universe readers see first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..syntax.ast import Atom, Binder, BinOp, Declaration, Let, Not, Quant, Term, atoms
from ..syntax.render import render_term


# A universe hole in a type: Mathlib's `Type*`/`Sort*` (Mathlib/Tactic/TypeStar.lean: each occurrence elaborates
# to `Sort u`/`Type u` with a fresh universe *parameter*, `levelMVarToParam`) and core's `Type _`/`Sort _` (a level
# metavariable, which a theorem header turns into a parameter of its own). Either way every occurrence — and, since
# Lean elaborates a binder group's type once per name, every variable of `{α β : Type*}` — is its own universe.
# Checkers restate the target's binders inside `∀` hypotheses (`hS_i : ∀ {α : Type _}, …`), where a hole would
# get yet another universe and `@hS_i α` would not typecheck: so every hole is named, `u_1`, `u_2`, … in order of
# occurrence, and the file declares them (`universe u_1 u_2`).
UNIVERSE_HOLE = re.compile(r"(?<![\w.'])(Type|Sort)(?:\*|\s+_(?![\w'!?]))")
# A named universe level after a sort: `Type u`, `Sort (max u v)`, `Type (u + 1)`.
_SORT_LEVEL = re.compile(r"(?<![\w.'])(?:Type|Sort)\s+(\([^()]*\)|[^\W\d][\w']*)")
# An explicit universe instantiation after a constant: `Scheme.{u}`, `ULift.{max u v} α`, `ProjectiveSpace.{u, u}`.
_EXPLICIT_LEVELS = re.compile(r"(?<=[\w'»])\.\{([^{}]*)\}")
_LEVEL_NAME = re.compile(r"[^\W\d][\w']*")


def universe_names(text: str) -> list[str]:
    """The universe names ``text`` uses — in sorts (``Type u``, ``Sort (max u v)``), then in explicit
    instantiations (``Scheme.{u}``, ``ULift.{v} α``) — each once, in order of occurrence within each kind.

    The one reader of universe names: the checker files declare these (``universe u``), ``universe_parameters``
    pins them, and the statements module lists them on its axioms (``pyshadow.score.full``)."""
    names: list[str] = []
    levels = [m.group(1) for m in _SORT_LEVEL.finditer(text)] + [m.group(1) for m in _EXPLICIT_LEVELS.finditer(text)]
    for level in levels:
        for name in _LEVEL_NAME.findall(level):
            if name not in ("max", "imax", "_") and name not in names:
                names.append(name)
    return names


def has_universe_hole(text: str) -> bool:
    return UNIVERSE_HOLE.search(text) is not None


class UniverseNamer:
    """Names every universe hole of a declaration — its binders and the ∀ binders of its conclusion — once.

    The conclusion's ∀ binders are named by identity (the tuple of binders a ``Quant`` holds): every shadow
    re-wraps the *same* tuple (``rules.Frame``), so a shadow's binder gets the name the conclusion's got.
    """

    def __init__(self, taken: frozenset[str] | set[str] = frozenset()):
        self.universes: list[str] = []
        self.taken = set(taken)
        self._quantifiers: dict[int, tuple[Binder, ...]] = {}

    def _fresh(self) -> str:
        k = len(self.universes)
        while True:
            k += 1
            name = f"u_{k}"
            if name not in self.taken:
                self.universes.append(name)
                self.taken.add(name)
                return name

    def _name_text(self, text: str) -> str:
        return UNIVERSE_HOLE.sub(lambda m: f"{m.group(1)} {self._fresh()}", text)

    def _type(self, term: Term | None) -> Term | None:
        if term is None or not has_universe_hole(render_term(term)):
            return term
        return Atom(self._name_text(render_term(term)), atom_idents(term))

    def binders(self, binders: tuple[Binder, ...]) -> tuple[Binder, ...]:
        """The binders with every hole named; a group with holes split into one binder per name."""
        out: list[Binder] = []
        for b in binders:
            if b.type is None or not has_universe_hole(render_term(b.type)):
                out.append(b)
                continue
            for names in [(n,) for n in b.names] or [()]:
                out.append(Binder(b.bracket, names, self._type(b.type), b.default, b.bound))
        return tuple(out)

    def term(self, term: Term) -> Term:
        """``term`` with the holes of its ∀/∃ binders named (atoms are left as they are)."""
        if isinstance(term, Quant):
            key = id(term.binders)
            if key not in self._quantifiers:
                self._quantifiers[key] = self.binders(term.binders)
            return Quant(term.kind, self._quantifiers[key], self.term(term.body))
        if isinstance(term, BinOp):
            return BinOp(term.op, self.term(term.left), self.term(term.right))
        if isinstance(term, Not):
            return Not(self.term(term.arg))
        if isinstance(term, Let):
            return replace(term, body=self.term(term.body))
        return term


def atom_idents(term: Term) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for a in atoms(term) for i in a.idents))


def name_universes(binders: tuple[Binder, ...]) -> tuple[tuple[Binder, ...], tuple[str, ...]]:
    """The binders with every universe hole named (``UniverseNamer``), and the universe names to declare."""
    namer = UniverseNamer()
    return namer.binders(binders), tuple(namer.universes)


# Auto-bound implicit type variables we can tell from globals without elaborating: a lowercase Greek letter (then
# digits, subscripts or primes), the form Lean's strict auto-bound rule admits and the convention for type
# variables. Latin letters are left alone: `I` (unitInterval), `G`, `R` are as often notation or `variable`s
# (which ``references.included_variables`` adds) as auto-bound. `λ` is syntax and `π` notation (`Real.pi`).
_AUTO_BOUND_NAME = re.compile(r"^[α-κμ-ορ-ω][0-9₀-₉']*$")
# Type constructors whose arguments are types: a name in such a position is a type variable.
_TYPE_CONSTRUCTORS = frozenset({"Set", "Finset", "List", "Multiset", "Option", "Array"})


def auto_bound_implicits(decl: Declaration) -> tuple[Binder, ...]:
    """The auto-bound implicit *type* variables of ``decl``: names its binder types use as a type (``(s : Set α)``,
    ``(f : α → β)``, ``(x : α)``) that no binder of the statement binds. The reference's file elaborated them as
    leading implicit arguments; checker files set ``autoImplicit false``, so they are made explicit binders
    ``{α : Type*}`` in front, in order of first use — the signature Lean gave the target. A name used otherwise
    (``Fin n``) is left alone: its type cannot be told without elaborating, and the checker file reports it."""
    from ..syntax import terms

    bound = {n for b in decl.binders for n in b.names}
    binder_types = [b.type for b in decl.binders if b.type is not None]
    if decl.type is not None:
        for q in _quantifiers(decl.type):
            bound.update(n for b in q.binders for n in b.names)
            binder_types += [b.type for b in q.binders if b.type is not None]
    found: list[str] = []
    for t in binder_types:
        tree = terms.read_term(render_term(t))
        if tree is None:
            continue
        for name in _type_position_names(tree, terms):
            if _AUTO_BOUND_NAME.match(name) and name != "π" and name not in bound and name not in found:
                found.append(name)
    return tuple(Binder("{", (n,), Atom("Type*", ("Type",))) for n in found)


def _type_position_names(node, terms) -> list[str]:
    """Names standing where a type stands in a type expression: the whole type, a side of ``→``/``×``, an argument
    of ``Set``/``Finset``/``List``/…"""
    if isinstance(node, terms.Name):
        return [node.text]
    if isinstance(node, terms.Binary) and node.op in ("→", "×"):
        return _type_position_names(node.left, terms) + _type_position_names(node.right, terms)
    if isinstance(node, terms.App) and isinstance(node.fn, terms.Name) and node.fn.text in _TYPE_CONSTRUCTORS:
        return [n for a in node.args for n in _type_position_names(a, terms)]
    return []


def with_auto_bound(decl: Declaration) -> Declaration:
    """``decl`` with its auto-bound implicit type variables as leading binders (``auto_bound_implicits``)."""
    extra = auto_bound_implicits(decl)
    return replace(decl, binders=extra + decl.binders) if extra else decl


def _universe_namer(decl: Declaration) -> tuple[UniverseNamer, list[str]]:
    """A namer for ``decl``'s holes, and the universe names the statement uses itself (``Type u``; its file
    declares or auto-binds them — declared in checker files too, as they set ``autoImplicit false``)."""
    texts = [render_term(b.type) for b in decl.binders if b.type is not None]
    if decl.type is not None:  # the conclusion's atoms too: `… = ULift.{u} α` uses `u` (and ∀/∃ binder types)
        texts += [render_term(b.type) for q in _quantifiers(decl.type) for b in q.binders if b.type is not None]
        texts.append(render_term(decl.type))
    explicit = list(dict.fromkeys([*decl.universes, *(n for t in texts for n in universe_names(t))]))
    return UniverseNamer(set(explicit)), explicit


def universe_parameters(decl: Declaration, declared: Sequence[str] = ()) -> tuple[str, ...]:
    """The universe parameters of ``decl`` in the order Lean gives them, with holes named as the checkers name
    them — what ``@decl.{…}`` must list. ``declared`` are the names of the file's ``universe`` commands, in order.

    lean4 src/Lean/Elab/DeclUtil.lean ``sortDeclLevelParams``: the *user* level names come first, in declaration
    order — the ``universe`` commands' (``declared``), then the declaration's own ``.{u v}`` (``expandDeclId``
    puts them after the scope's) — then the rest sorted by ``Name.lt``. Mathlib's ``Type*``/``Sort*``
    (Mathlib/Tactic/TypeStar.lean ``mkFreshLevelParam``, which inserts each new ``u_i`` at the front of the
    level names: the most recently declared) makes every hole a user name too, in elaboration order — so
    ``u_10`` comes after ``u_9``, never between ``u_1`` and ``u_2`` as a string sort would put it. A name the
    statement uses that no command declares (auto-bound) keeps its order of occurrence."""
    decl = with_auto_bound(decl)
    namer, explicit = _universe_namer(decl)
    namer.binders(decl.binders)
    if decl.type is not None:
        namer.term(decl.type)
    scoped = [u for u in declared if u in explicit and u not in decl.universes]
    own = [u for u in decl.universes if u in explicit or u not in scoped]
    rest = [u for u in explicit if u not in scoped and u not in own]
    return (*scoped, *own, *rest, *namer.universes)  # holes in creation order: u_1, u_2, …, u_10


def universe_occurrences(decl: Declaration) -> tuple[str, ...]:
    """``decl``'s universe names in order of occurrence (its own ``.{…}`` first, then as its binders and
    conclusion use them, holes named ``u_1``, ``u_2``, … as they come): the order in which two statements'
    universes correspond (``pyshadow.score.checker_texts.candidate_universe_pin``)."""
    decl = with_auto_bound(decl)
    namer, explicit = _universe_namer(decl)
    namer.binders(decl.binders)
    if decl.type is not None:
        namer.term(decl.type)
    return (*explicit, *namer.universes)


def _quantifiers(term: Term):
    """Every ∀/∃ of the logical skeleton (not inside atoms)."""
    if isinstance(term, Quant):
        yield term
        yield from _quantifiers(term.body)
    elif isinstance(term, (BinOp,)):
        yield from _quantifiers(term.left)
        yield from _quantifiers(term.right)
    elif isinstance(term, Not):
        yield from _quantifiers(term.arg)
    elif isinstance(term, Let):
        yield from _quantifiers(term.body)
