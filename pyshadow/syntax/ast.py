"""The typed tree of a Lean declaration: binders, hypotheses, and the logical skeleton of its type.

Only the logic is structured — quantifiers, connectives, relations, ``let``. Everything else is an ``Atom``: source
text kept verbatim, with the identifiers it mentions, so that nothing pyshadow does not need to understand is ever
rewritten. Nodes are frozen dataclasses: equality is structural, which is what "parse → render → parse gives the
same tree" means.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Union

# Connectives, by Lean precedence (higher binds tighter): ↔ 20 (non-assoc), → 25 (right), ∨ 30 (right),
# ∧ 35 (right), ¬ 40 (prefix), relations 50 (non-assoc). Quantifiers, `let`, `fun` extend as far right as possible.
IFF, IMP, OR, AND = "↔", "→", "∨", "∧"
BINARY_PRECEDENCE = {IFF: 20, IMP: 25, OR: 30, AND: 35}
RELATIONS = ("=", "≠", "≤", "<", "≥", ">", "∈", "∉", "⊆", "⊂", "⊇", "⊃", "∣")
RELATION_PRECEDENCE = 50
NOT_PRECEDENCE = 40
# ASCII spellings Lean accepts, normalised to the Unicode form in the tree.
ASCII_OPERATORS = {"->": IMP, "<->": IFF, "/\\": AND, "\\/": OR, "<=": "≤", ">=": "≥", "!=": "≠"}


@dataclass(frozen=True, slots=True)
class Atom:
    """Opaque Lean text (an application, arithmetic, a set-builder, a `fun`, …) kept verbatim.

    ``idents`` are the roots of the identifiers it mentions, in order of first appearance; intersect them with the
    variables in scope to know which bound variables the atom depends on (``pyshadow.syntax.scope``).
    ``open_right`` marks text ending in a construct whose body runs as far right as it can (``fun``, ``if``,
    ``match``, ``<|``): such an atom must be parenthesised when something follows it.
    """

    text: str
    idents: tuple[str, ...] = ()
    open_right: bool = False


@dataclass(frozen=True, slots=True)
class Not:
    arg: Term


@dataclass(frozen=True, slots=True)
class BinOp:
    """A binary connective: ``op`` is one of ∧ ∨ → ↔."""

    op: str
    left: Term
    right: Term


@dataclass(frozen=True, slots=True)
class Rel:
    """A relation ``left op right`` with ``op`` in ``RELATIONS``."""

    op: str
    left: Term
    right: Term


@dataclass(frozen=True, slots=True)
class Binder:
    """One binder group, in a declaration header or after a quantifier.

    ``bracket`` is ``(`` explicit, ``{`` implicit, ``⦃`` strict implicit, ``[`` instance, or ``""`` for a bare
    quantifier binder (``∀ x y : T,``). ``names`` is empty for an anonymous instance ``[Group G]``. ``default`` is
    the verbatim text after ``:=`` (a default value, or ``by tac`` for an auto-param). ``bound`` is the
    binder predicate of bounded quantifiers: ``("∈", s)`` for ``∀ x ∈ s,``, ``(">", 0)`` for ``∃ n > 0,``.
    """

    bracket: str
    names: tuple[str, ...]
    type: Term | None = None
    default: str | None = None
    bound: tuple[str, Term] | None = None

    @property
    def is_instance(self) -> bool:
        return self.bracket == "["


@dataclass(frozen=True, slots=True)
class Quant:
    """``∀``/``∃``/``∃!`` over binder groups."""

    kind: str
    binders: tuple[Binder, ...]
    body: Term


@dataclass(frozen=True, slots=True)
class Let:
    """``let``/``have``/``letI``/``haveI`` in a statement: ``keyword name binders : type := value`` then ``body``.

    ``name`` is ``""`` for the anonymous forms (``have : p := …``, ``haveI : Fact p := …``, ``letI := …``).
    ``binders`` are the let's own parameters (``let f (n : ℕ) : ℕ := n + 1``), their types kept as atoms. The
    ``value`` and ``type`` atoms have their line breaks folded into spaces, so they can be laid out on one line.
    To rebuild a ``Let`` with another body use ``dataclasses.replace(let, body=…)``, which keeps ``binders``.
    """

    keyword: str
    name: str
    type: Term | None
    value: Atom
    body: Term
    binders: tuple[Binder, ...] = ()


Term = Union[Atom, Not, BinOp, Rel, Quant, Let]


@dataclass(frozen=True, slots=True)
class Declaration:
    """A ``theorem``/``lemma`` (or the header of a ``def``/``abbrev``/``instance``/``example``)."""

    keyword: str
    name: str | None
    binders: tuple[Binder, ...]
    type: Term | None
    universes: tuple[str, ...] = ()
    attributes: str | None = None  # verbatim `@[simp, …]`
    modifiers: tuple[str, ...] = ()
    docstring: str | None = None
    # Verbatim `open Real in` / `set_option maxHeartbeats 0 in` commands the declaration is written under.
    preamble: str | None = None

    def hypotheses(self) -> tuple[Binder, ...]:
        """Explicit binders whose type is a proposition (see ``is_proposition``)."""
        return tuple(b for b in self.binders if b.bracket in ("(", "⦃", "{") and is_proposition(b))

    def variables(self) -> tuple[str, ...]:
        """Every name the header binds, in order."""
        return tuple(n for b in self.binders for n in b.names)


_TYPE_HEADS = ("Type", "Sort", "Prop")
# Heads of types of data (never a proposition), whatever the binder's name: `(hx : ℝ)` is a variable.
_DATA_TYPE_HEADS = frozenset({"ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "Nat", "Int", "Rat", "Real", "Complex", "Set", "Finset", "Fin",
                              "List", "Multiset", "Polynomial", "Matrix", "ZMod", "Subgroup", "Ideal", "Submodule"})


def is_proposition(binder: Binder) -> bool:
    """Whether a binder is (syntactically) a hypothesis rather than a variable.

    Lean decides this by elaboration; without it, a type with logical structure (a relation, ∧ ∨ ↔ ¬ ∃, or a ∀ whose
    body is logical) is a hypothesis, and so is an opaque type under a hypothesis-style name (``h``, ``h₀``, ``hx``,
    ``hab`` …) — the convention every corpus we read follows (``(hp : Nat.Prime p)``).
    """
    t = binder.type
    if t is None or binder.is_instance:
        return False
    if _is_logical(t):
        return True
    if isinstance(t, Atom) and (t.text.split(" ", 1)[0].split(".", 1)[0] in _TYPE_HEADS
                                or t.text.split(" ", 1)[0] in _DATA_TYPE_HEADS):
        return False
    return any(_hypothesis_name(n) for n in binder.names)


def _hypothesis_name(name: str) -> bool:
    # `h`, `h₀`, `hx`, `hab`, `hd`, and `hE`/`hG₁` (every such binder of an opaque type in the corpora we read is a
    # hypothesis: `(hE : IsClosed E)`, `(hG : IsCyclic G)`); `hom` names a homomorphism.
    return name == "h" or (name.startswith("h") and len(name) > 1 and name != "hom")


def _is_logical(t: Term) -> bool:
    if isinstance(t, (Rel, Not)):
        return True
    if isinstance(t, BinOp):
        return t.op != IMP or _is_logical(t.left) or _is_logical(t.right)
    if isinstance(t, Quant):
        return t.kind != "∀" or _is_logical(t.body)
    if isinstance(t, Let):
        return _is_logical(t.body)
    return False


def walk(term: Term) -> Iterator[Term]:
    """Every node of ``term``, parents before children (binder types and bounds included)."""
    stack = [term]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (BinOp, Rel)):
            stack.extend((node.right, node.left))
        elif isinstance(node, Not):
            stack.append(node.arg)
        elif isinstance(node, Quant):
            stack.append(node.body)
            for b in reversed(node.binders):
                if b.bound is not None:
                    stack.append(b.bound[1])
                if b.type is not None:
                    stack.append(b.type)
        elif isinstance(node, Let):
            stack.append(node.body)
            stack.append(node.value)
            if node.type is not None:
                stack.append(node.type)
            for b in reversed(node.binders):
                if b.type is not None:
                    stack.append(b.type)


def atoms(term: Term) -> list[Atom]:
    return [n for n in walk(term) if isinstance(n, Atom)]


def bound_names(decl: Declaration) -> set[str]:
    """Every name the declaration binds: its binders' and, inside binder types and the conclusion, every ∀/∃/λ
    binder's and ``let``'s."""
    return set(decl.variables()) | inner_names(decl)


def inner_names(decl: Declaration) -> set[str]:
    """Names a ∀/∃/λ/``let`` binds inside the statement (a header name bound again inside included)."""
    names: set[str] = set()
    for t in [decl.type, *(b.type for b in decl.binders)]:
        if t is None:
            continue
        for node in walk(t):
            if isinstance(node, Quant):
                names.update(n for b in node.binders for n in b.names)
            elif isinstance(node, Let):
                names.add(node.name)
    return names


@dataclass(frozen=True)
class Scope:
    """Names bound at a point of the tree, innermost last (a name may repeat: the last one shadows)."""

    names: tuple[str, ...] = field(default=())

    def extend(self, names: tuple[str, ...]) -> Scope:
        return Scope(self.names + names)


def mentioned(atom: Atom, scope: Scope | tuple[str, ...]) -> tuple[str, ...]:
    """The bound variables of ``scope`` that ``atom`` mentions, in order of first mention."""
    names = scope.names if isinstance(scope, Scope) else scope
    bound = set(names)
    return tuple(i for i in atom.idents if i in bound)


def declaration_names(decl: Declaration) -> frozenset[str]:
    """Every name a declaration binds or mentions: its own name, binders, quantified and let-bound names, and the
    identifiers of its atoms. Generated names (lambda variables, abstract constants, certificate hypotheses) are
    chosen outside this set so that none can capture or shadow the statement's own."""
    names = {n for b in decl.binders for n in b.names}
    if decl.name:
        names.add(decl.name)
    terms = [t for t in (decl.type, *(b.type for b in decl.binders)) if t is not None]
    for t in terms:
        for node in walk(t):
            if isinstance(node, Atom):
                names.update(node.idents)
            elif isinstance(node, Quant):
                names.update(n for b in node.binders for n in b.names)
            elif isinstance(node, Let):
                names.add(node.name)
                names.update(n for b in node.binders for n in b.names)
    return frozenset(names)
