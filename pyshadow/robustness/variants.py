"""Variants of a reference declaration: rewrites a solver might write, each labelled with its kind.

Every rule is a pure function over the typed tree (``pyshadow.syntax.ast``): it takes a ``Declaration`` and
returns the rewritten declarations with a one-line detail of what it changed. ``generate_variants`` renders each
with ``render_declaration`` and parses it back, so a variant is always a declaration pyshadow can read; a rewrite
whose text does not parse is reported as a ``VariantFailure`` (a bug in the rule, never dropped silently), and a
rewrite that changes nothing is no variant.

Two roles:

- **faithful** rewrites say the same thing in other words; each rule's docstring says why it is equivalent. A
  checker that fails one is a false negative.
- **controls** change the meaning on purpose (a dropped hypothesis or conjunct, ``<`` for ``≤``, one direction of
  an ``↔``): "non-equivalent by construction" means non-equivalent as a *skeleton*, with the atoms opaque — which is
  what the checkers judge. A checker set that accepts a control is too weak to notice that change.

Token-level rewrites inside atoms (``fun x =>`` / ``fun x ↦``, ``∑ x in s`` / ``∑ x ∈ s``) use the project lexer,
so text inside comments, strings and «quoted names» is never touched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from ..syntax import lexer as lx
from ..syntax.ast import AND, IFF, IMP, Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term, atoms
from ..syntax.ast import bound_names, is_proposition, walk
from ..syntax.parser import ParseError, parse_declaration
from ..syntax.names import FreshNames
from ..syntax.render import render_declaration, render_term

FAITHFUL = "faithful"
CONTROL = "control"

# A rewrite: what it changed (one line) and the rewritten declaration.
Rewrite = tuple[str, Declaration]


@dataclass(frozen=True)
class Variant:
    """One rewrite of a reference declaration, re-parsed from its rendered text.

    ``id`` is unique among the variants of one reference (``kind``, or ``kind@detail`` for rules that rewrite one
    site at a time); ``equivalent`` says whether the variant means the same as the reference.
    """

    id: str
    kind: str
    role: str  # FAITHFUL | CONTROL
    equivalent: bool
    detail: str
    text: str
    declaration: Declaration

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "role": self.role, "equivalent": self.equivalent,
                "detail": self.detail, "text": self.text}


@dataclass(frozen=True)
class VariantFailure:
    """A rewrite whose rendered text does not parse back: a bug in the rule, reported rather than dropped."""

    kind: str
    detail: str
    text: str
    error: str

    def to_dict(self) -> dict:
        return {"kind": self.kind, "detail": self.detail, "text": self.text, "error": self.error}


@dataclass(frozen=True)
class RewriteRule:
    kind: str
    role: str
    equivalent: bool
    apply: Callable[[Declaration, bool], list[Rewrite]]  # (declaration, mathlib) → rewrites
    per_site: bool = False  # one variant per rewritten site (ids carry the detail)

    @property
    def summary(self) -> str:
        doc = (self.apply.__doc__ or "").strip()
        return doc.split("\n\n", 1)[0].replace("\n", " ")


# ---------------------------------------------------------------------------------------------------------------
# Tree helpers


def map_term(term: Term, fn: Callable[[Term], Term]) -> Term:
    """``term`` rebuilt bottom-up with ``fn`` applied to every node (binder types, bounds and let values too)."""
    if isinstance(term, Not):
        term = Not(map_term(term.arg, fn))
    elif isinstance(term, (BinOp, Rel)):
        term = replace(term, left=map_term(term.left, fn), right=map_term(term.right, fn))
    elif isinstance(term, Quant):
        term = Quant(term.kind, tuple(map_binder(b, fn) for b in term.binders), map_term(term.body, fn))
    elif isinstance(term, Let):
        term = replace(term, type=map_term(term.type, fn) if term.type is not None else None,
                       value=map_term(term.value, fn), body=map_term(term.body, fn),
                       binders=tuple(map_binder(b, fn) for b in term.binders))
    return fn(term)


def map_binder(b: Binder, fn: Callable[[Term], Term]) -> Binder:
    t = map_term(b.type, fn) if b.type is not None else None
    bound = (b.bound[0], map_term(b.bound[1], fn)) if b.bound is not None else None
    return replace(b, type=t, bound=bound)


def map_declaration(decl: Declaration, fn: Callable[[Term], Term], *, binders: bool = True,
                    conclusion: bool = True) -> Declaration:
    new_binders = tuple(map_binder(b, fn) for b in decl.binders) if binders else decl.binders
    new_type = map_term(decl.type, fn) if conclusion and decl.type is not None else decl.type
    return replace(decl, binders=new_binders, type=new_type)


def mentions(term: Term | None, bound: frozenset[str] = frozenset()) -> set[str]:
    """The identifier roots ``term`` mentions free: names its own quantifiers and lets bind are left out. Names
    bound *inside* atoms (``fun x => …``) cannot be told apart and count as mentioned — an over-approximation,
    which only ever makes the rules below more careful."""
    if term is None:
        return set()
    if isinstance(term, Atom):
        return set(term.idents) - bound
    if isinstance(term, Not):
        return mentions(term.arg, bound)
    if isinstance(term, (BinOp, Rel)):
        return mentions(term.left, bound) | mentions(term.right, bound)
    found: set[str] = set()
    if isinstance(term, Quant):
        for b in term.binders:
            found |= mentions(b.type, bound)
            if b.bound is not None:
                found |= mentions(b.bound[1], bound)
            bound = bound | set(b.names)
        return found | mentions(term.body, bound)
    if isinstance(term, Let):
        inner = bound
        for b in term.binders:
            found |= mentions(b.type, inner)
            inner = inner | set(b.names)
        found |= mentions(term.type, inner) | mentions(term.value, inner)
        return found | mentions(term.body, bound | {term.name})
    raise TypeError(term)


def binder_mentions(b: Binder) -> set[str]:
    found = mentions(b.type)
    if b.bound is not None:
        found |= mentions(b.bound[1])
    if b.default is not None:
        found |= {lx.ident_root(t.text) for t in lx.code_tokens(b.default) if t.kind == lx.IDENT}
    return found


def used_elsewhere(decl: Declaration, name: str, *, skip: int | None = None) -> bool:
    """Whether ``name`` is mentioned by any binder (except the one at index ``skip``) or by the conclusion."""
    if name in mentions(decl.type):
        return True
    return any(name in binder_mentions(b) for i, b in enumerate(decl.binders) if i != skip)


def all_names(decl: Declaration) -> set[str]:
    """Every name the declaration binds or mentions: fresh names must avoid all of them."""
    names = {decl.name or "", *decl.universes, *bound_names(decl)}
    for t in [decl.type, *(b.type for b in decl.binders)]:
        if t is not None:
            names |= {i for a in atoms(t) for i in a.idents}
    return names


class Fresh(FreshNames):
    """Fresh names, none of which occurs in the declaration: ``h``, else ``h2``, ``h3`` …"""

    def __init__(self, decl: Declaration):
        super().__init__(all_names(decl), bare_first=True)


def is_hypothesis(b: Binder) -> bool:
    return b.type is not None and not b.is_instance and is_proposition(b)


def in_dependency_order(binders: tuple[Binder, ...]) -> bool:
    """Whether every binder comes after the binders whose names its type mentions."""
    declared = {n for b in binders for n in b.names}
    seen: set[str] = set()
    for b in binders:
        if (binder_mentions(b) & declared) - seen:
            return False
        seen.update(b.names)
    return True


def _split_group(b: Binder, keep: Callable[[str], bool], bracket: str) -> list[Binder]:
    """A binder group split into runs: names with ``keep(name)`` get ``bracket``, the rest keep theirs."""
    out: list[Binder] = []
    for n in b.names:
        br = bracket if keep(n) else b.bracket
        if out and out[-1].bracket == br:
            out[-1] = replace(out[-1], names=out[-1].names + (n,))
        else:
            out.append(replace(b, bracket=br, names=(n,)))
    return out


def _conclusion_nodes(term: Term) -> Iterator[tuple[Term, Callable[[Term], Term]]]:
    """Skeleton nodes of a conclusion with a function that puts a replacement back in their place (pre-order)."""
    yield term, lambda new: new
    if isinstance(term, Not):
        for node, put in _conclusion_nodes(term.arg):
            yield node, lambda new, put=put: Not(put(new))
    elif isinstance(term, (BinOp, Rel)):
        for node, put in _conclusion_nodes(term.left):
            yield node, lambda new, put=put: replace(term, left=put(new))
        for node, put in _conclusion_nodes(term.right):
            yield node, lambda new, put=put: replace(term, right=put(new))
    elif isinstance(term, (Quant, Let)):
        for node, put in _conclusion_nodes(term.body):
            yield node, lambda new, put=put: replace(term, body=put(new))


# ---------------------------------------------------------------------------------------------------------------
# Faithful rewrites: binders


def implicit_binders(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Explicit variables made implicit where a later explicit hypothesis's type mentions them.

    Equivalent: binder information (explicit, implicit) is not part of a proposition's meaning — ``∀ {x}, P x``
    and ``∀ x, P x`` are the same Lean type up to how arguments are passed. The rule keeps to variables a later
    hypothesis mentions, because only those can be inferred from the hypothesis a caller passes.
    """
    binders = decl.binders
    out: list[Binder] = []
    made: list[str] = []
    for i, b in enumerate(binders):
        if b.bracket != "(" or is_hypothesis(b) or b.default is not None:
            out.append(b)
            continue
        later = set().union(*(binder_mentions(c) for c in binders[i + 1:] if c.bracket == "(" and is_hypothesis(c)))
        inferable = [n for n in b.names if n in later and n != "_"]
        made += inferable
        out.extend(_split_group(b, lambda n: n in inferable, "{"))
    return [(", ".join(made), replace(decl, binders=tuple(out)))] if made else []


def explicit_binders(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Implicit and strict-implicit binders made explicit.

    Equivalent for the same reason as ``implicit_binders``: only how arguments are passed changes.
    """
    made = [n for b in decl.binders if b.bracket in ("{", "⦃") for n in b.names]
    binders = tuple(replace(b, bracket="(") if b.bracket in ("{", "⦃") else b for b in decl.binders)
    return [(", ".join(made), replace(decl, binders=binders))] if made else []


# Classes with no instance-implicit parameters of their own: an instance binder of one of them elaborates
# anywhere after the variables it mentions, so it may trade places with a neighbouring instance binder.
BASE_CLASSES = frozenset({
    "Fintype", "Finite", "DecidableEq", "DecidablePred", "DecidableRel", "Decidable", "Nonempty", "Inhabited",
    "Countable", "Infinite", "Fact", "Nontrivial", "Subsingleton", "Unique", "IsEmpty", "Encodable",
})


def _instance_head(b: Binder) -> str:
    text = b.type.text if isinstance(b.type, Atom) else ""
    return text.split(" ", 1)[0]


def instances_reordered(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Adjacent instance binders swapped where neither can need the other.

    Equivalent: instance arguments are arguments like any other, and reordering arguments whose types do not
    depend on each other gives an equivalent statement. Class hierarchies are invisible to syntax
    (``[InnerProductSpace ℝ V]`` needs ``[NormedAddCommGroup V]`` before it), so two instance binders swap only
    when they mention disjoint variables (``[Group G] [Ring R]``) or one is a class without instance parameters
    (``[Fintype α] [DecidableEq α]``, ``BASE_CLASSES``).
    """
    declared = set(decl.variables())
    binders = list(decl.binders)
    swapped: list[str] = []
    i = 0
    while i + 1 < len(binders):
        a, b = binders[i], binders[i + 1]
        if a.is_instance and b.is_instance:
            vars_a, vars_b = binder_mentions(a) & declared, binder_mentions(b) & declared
            independent = not (vars_a & vars_b) or {_instance_head(a), _instance_head(b)} & BASE_CLASSES
            if independent and not (set(a.names) & binder_mentions(b)):
                binders[i], binders[i + 1] = b, a
                swapped.append(f"{_instance_head(a)}↔{_instance_head(b)}")
                i += 2
                continue
        i += 1
    return [(", ".join(swapped), replace(decl, binders=tuple(binders)))] if swapped else []


def instances_named(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Anonymous instance binders given names (``[Group G]`` → ``[instGroup : Group G]``).

    Equivalent: a binder's name is not part of the proposition (α-equivalence); a fresh name shadows nothing.
    """
    fresh = Fresh(decl)
    named: list[str] = []
    binders = []
    for b in decl.binders:
        if b.is_instance and not b.names:
            name = fresh(f"inst{_instance_head(b).split('.')[-1]}")
            b = replace(b, names=(name,))
            named.append(name)
        binders.append(b)
    return [(", ".join(named), replace(decl, binders=tuple(binders)))] if named else []


def instances_anonymous(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Named instance binders made anonymous when nothing mentions their name.

    Equivalent: α-equivalence again — an unused binder name carries no meaning.
    """
    dropped: list[str] = []
    binders = []
    for i, b in enumerate(decl.binders):
        if b.is_instance and len(b.names) == 1 and not used_elsewhere(decl, b.names[0], skip=i):
            dropped.append(b.names[0])
            b = replace(b, names=())
        binders.append(b)
    return [(", ".join(dropped), replace(decl, binders=tuple(binders)))] if dropped else []


def type_star_as_universe(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``Type*`` / ``Sort*`` binders written with explicit universe variables (``Type u_1``), declared on the
    declaration (``theorem foo.{u_1}``).

    Equivalent: Mathlib's ``Type*`` elaborates to ``Type u`` for a fresh universe variable ``u``, one per bound
    name — so ``{α β : Type*}`` becomes ``{α : Type u_1} {β : Type u_2}``, two universes, not one.
    """
    fresh = Fresh(decl)
    universes = list(decl.universes)
    binders: list[Binder] = []
    for b in decl.binders:
        if isinstance(b.type, Atom) and b.type.text in ("Type*", "Sort*"):
            for n in b.names or ("_",):
                u = fresh("u_1" if not universes else f"u_{len(universes) + 1}")
                universes.append(u)
                text = f"{b.type.text[:-1]} {u}"
                binders.append(replace(b, names=(n,) if b.names else (), type=Atom(text, (u,))))
        else:
            binders.append(b)
    added = [u for u in universes if u not in decl.universes]
    if not added:
        return []
    return [(", ".join(added), replace(decl, binders=tuple(binders), universes=tuple(universes)))]


def universe_as_type_star(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``Type u`` / ``Sort u`` written ``Type*`` where ``u`` occurs nowhere else (Mathlib problems only).

    Equivalent: a universe variable used by one binder alone is exactly what ``Type*`` introduces. A universe
    shared by two binders (``{α β : Type u}``) is not rewritten: ``Type*`` would give each its own universe, a more
    general statement. ``Type*`` is Mathlib syntax, so core problems are left alone.
    """
    if not mathlib:
        return []
    counts: dict[str, int] = {}
    for a in _all_atoms(decl):
        for tok in lx.code_tokens(a.text):
            if tok.kind == lx.IDENT:
                counts[tok.text] = counts.get(tok.text, 0) + 1
    binders: list[Binder] = []
    removed: list[str] = []
    for b in decl.binders:
        text = b.type.text if isinstance(b.type, Atom) else ""
        head, _, u = text.partition(" ")
        if head in ("Type", "Sort") and u.isidentifier() and counts.get(u) == 1 and len(b.names) == 1:
            removed.append(u)
            b = replace(b, type=Atom(f"{head}*", ()))
        binders.append(b)
    if not removed:
        return []
    universes = tuple(u for u in decl.universes if u not in removed)
    return [(", ".join(removed), replace(decl, binders=tuple(binders), universes=universes))]


def _all_atoms(decl: Declaration) -> list[Atom]:
    found = atoms(decl.type) if decl.type is not None else []
    for b in decl.binders:
        if b.type is not None:
            found += atoms(b.type)
        if b.bound is not None:
            found += atoms(b.bound[1])
    return found


# ---------------------------------------------------------------------------------------------------------------
# Faithful rewrites: hypotheses


def hypotheses_renamed(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Hypotheses given other names (``hs`` → ``hyp1``) where nothing else mentions them.

    Equivalent: α-equivalence — the names of hypotheses no later type or the conclusion mentions carry no meaning.
    """
    fresh = Fresh(decl)
    renamed: list[str] = []
    binders = []
    for i, b in enumerate(decl.binders):
        if is_hypothesis(b) and not any(used_elsewhere(decl, n, skip=i) or n == "_" for n in b.names):
            names = tuple(fresh(f"hyp{len(renamed) + k + 1}") for k in range(len(b.names)))
            renamed += [f"{old}→{new}" for old, new in zip(b.names, names)]
            b = replace(b, names=names)
        binders.append(b)
    return [(", ".join(renamed), replace(decl, binders=tuple(binders)))] if renamed else []


def hypotheses_reordered(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Hypotheses moved after the variables, in reverse order, each still after every binder its type mentions.

    Equivalent: ``∀ (h₁ : A) (h₂ : B), C`` and ``∀ (h₂ : B) (h₁ : A), C`` are equivalent when neither type mentions
    the other's name (swap the arguments), and likewise for a hypothesis and a variable its type does not mention.
    A hypothesis also stays after every instance binder that came before it, since its type may need that
    instance to elaborate (instance arguments are invisible to syntax).
    """
    binders = decl.binders
    names = [n for b in binders for n in b.names]
    if len(set(names)) != len(names):
        return []  # a repeated name (shadowing): order carries meaning we cannot see
    hyps = [i for i, b in enumerate(binders) if is_hypothesis(b)]
    if not hyps:
        return []
    wanted = [i for i in range(len(binders)) if i not in hyps] + hyps[::-1]
    owner = {n: i for i, b in enumerate(binders) for n in b.names}
    needs = {}
    for j, b in enumerate(binders):
        need = {owner[n] for n in binder_mentions(b) if n in owner and owner[n] != j}
        if j in hyps:
            need |= {i for i in range(j) if binders[i].is_instance}
        needs[j] = need
    order: list[int] = []
    placed: set[int] = set()
    while len(order) < len(binders):
        j = next(j for j in wanted if j not in placed and needs[j] <= placed)
        order.append(j)
        placed.add(j)
    if order == list(range(len(binders))):
        return []
    moved = [n for i in hyps for n in binders[i].names]
    return [(", ".join(moved), replace(decl, binders=tuple(binders[i] for i in order)))]


def hypothesis_split(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """A hypothesis ``h : A ∧ B`` split into ``h_l : A`` and ``h_r : B`` (every such hypothesis, one level).

    Equivalent: ``A ∧ B → C`` and ``A → B → C`` are equivalent (currying: ``And.intro`` one way, ``.1``/``.2``
    the other). Only hypotheses nothing else mentions by name are split.
    """
    fresh = Fresh(decl)
    split: list[str] = []
    binders: list[Binder] = []
    for i, b in enumerate(decl.binders):
        if (b.bracket == "(" and is_hypothesis(b) and len(b.names) == 1 and isinstance(b.type, BinOp)
                and b.type.op == AND and not used_elsewhere(decl, b.names[0], skip=i)):
            name = b.names[0]
            split.append(name)
            binders.append(Binder("(", (fresh(f"{name}_l"),), b.type.left))
            binders.append(Binder("(", (fresh(f"{name}_r"),), b.type.right))
        else:
            binders.append(b)
    return [(", ".join(split), replace(decl, binders=tuple(binders)))] if split else []


def hypotheses_merged(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The first run of adjacent explicit hypotheses bundled into one ``h : A ∧ B ∧ …``.

    Equivalent: the converse of ``hypothesis_split`` (uncurrying). Only single-name hypotheses that nothing else
    mentions by name are bundled.
    """
    binders = decl.binders

    def bundlable(i: int) -> bool:
        b = binders[i]
        return (b.bracket == "(" and is_hypothesis(b) and len(b.names) == 1 and b.default is None
                and not used_elsewhere(decl, b.names[0], skip=i))

    start = next((i for i in range(len(binders) - 1) if bundlable(i) and bundlable(i + 1)), None)
    if start is None:
        return []
    end = start
    while end + 1 < len(binders) and bundlable(end + 1):
        end += 1
    run = binders[start:end + 1]
    conj = run[-1].type
    for b in reversed(run[:-1]):
        conj = BinOp(AND, b.type, conj)
    merged = Binder("(", (Fresh(decl)("h_and"),), conj)
    detail = ", ".join(n for b in run for n in b.names)
    return [(detail, replace(decl, binders=binders[:start] + (merged,) + binders[end + 1:]))]


# ---------------------------------------------------------------------------------------------------------------
# Faithful rewrites: quantifiers in and out of the header


def forall_to_binders(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """A leading ``∀ x,`` of the conclusion moved into the header as ``(x)`` binders (``∀ x ∈ s,`` gives
    ``(x) (h_x : x ∈ s)``).

    Equivalent: a theorem's header binders *are* a leading ∀ of its type (``theorem t (x : α) : P x`` has type
    ``∀ x : α, P x``), and ``∀ x ∈ s, P`` is notation for ``∀ x, x ∈ s → P``. Skipped when a bound name is
    already a header name (moving it would shadow).
    """
    q = decl.type
    if not (isinstance(q, Quant) and q.kind == "∀"):
        return []
    taken = set(decl.variables())
    if any(n in taken for b in q.binders for n in b.names):
        return []
    fresh = Fresh(decl)
    added: list[Binder] = []
    for b in q.binders:
        if b.bracket:
            added.append(b)
            continue
        if b.bound is None:
            added.append(Binder("(", b.names, b.type))
            continue
        for n in b.names:
            added.append(Binder("(", (n,), b.type))
            added.append(Binder("(", (fresh(f"h_{n}"),), Rel(b.bound[0], Atom(n, (n,)), b.bound[1])))
    detail = ", ".join(n for b in q.binders for n in b.names)
    return [(detail, replace(decl, binders=decl.binders + tuple(added), type=q.body))]


def binders_to_forall(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The trailing explicit header binders moved into the conclusion: variables as ``∀ x : T,``, hypotheses as
    ``A →`` (or ``∀ (h : A),`` when a later type mentions ``h``).

    Equivalent: the converse of ``forall_to_binders`` — header binders are a leading ∀ of the type, and a
    non-dependent ∀ over a proposition is an implication.
    """
    binders = decl.binders
    k = len(binders)
    while k > 0 and binders[k - 1].bracket == "(" and binders[k - 1].default is None and binders[k - 1].names:
        k -= 1
    if k == len(binders) or decl.type is None:
        return []
    body = decl.type
    for j in range(len(binders) - 1, k - 1, -1):
        b = binders[j]
        later = mentions(body) | set().union(*(binder_mentions(c) for c in binders[j + 1:]))
        if is_hypothesis(b) and len(b.names) == 1 and b.names[0] not in later:
            body = BinOp(IMP, b.type, body)
        elif is_hypothesis(b):
            body = Quant("∀", (replace(b, bracket="("),), body)
        else:
            body = Quant("∀", (Binder("", b.names, b.type),), body)
    detail = ", ".join(n for b in binders[k:] for n in b.names)
    return [(detail, replace(decl, binders=binders[:k], type=body))]


# ---------------------------------------------------------------------------------------------------------------
# Faithful rewrites: relations and notation


_FLIP = {">": "<", "≥": "≤", "<": ">", "≤": "≥"}


def _flipping(ops: tuple[str, ...]) -> Callable[[Term], Term]:
    def fn(t: Term) -> Term:
        if isinstance(t, Rel) and t.op in ops:
            return Rel(_FLIP[t.op], t.right, t.left)
        return t

    return fn


def _count_rels(decl: Declaration, ops: tuple[str, ...]) -> int:
    terms = [decl.type, *(b.type for b in decl.binders)]
    return sum(isinstance(n, Rel) and n.op in ops for t in terms if t is not None for n in walk(t))


def gt_as_lt(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``a > b`` written ``b < a`` and ``a ≥ b`` written ``b ≤ a`` (in hypotheses and the conclusion).

    Equivalent: ``>`` and ``≥`` are notation — ``a > b`` unfolds to ``b < a`` (``GT.gt a b := LT.lt b a``).
    Relations inside atoms and binder predicates (``∃ n > 0,``) are left as written.
    """
    n = _count_rels(decl, (">", "≥"))
    return [(f"{n} relation(s)", map_declaration(decl, _flipping((">", "≥"))))] if n else []


def lt_as_gt(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``a < b`` written ``b > a`` and ``a ≤ b`` written ``b ≥ a``: the converse of ``gt_as_lt``."""
    n = _count_rels(decl, ("<", "≤"))
    return [(f"{n} relation(s)", map_declaration(decl, _flipping(("<", "≤"))))] if n else []


def _rewrite_atoms(decl: Declaration, rewrite: Callable[[str], tuple[str, int]]) -> tuple[Declaration, int]:
    """Every atom's text through ``rewrite`` (text → new text, number of sites); the declaration and the total."""
    total = 0

    def fn(t: Term) -> Term:
        nonlocal total
        if isinstance(t, Atom):
            text, n = rewrite(t.text)
            if n:
                total += n
                return Atom(text, t.idents, t.open_right)
        return t

    return map_declaration(decl, fn), total


def _substitute(text: str, edits: list[tuple[lx.Token, str]]) -> str:
    for tok, new in sorted(edits, key=lambda e: e[0].start, reverse=True):
        text = text[:tok.start] + new + text[tok.end:]
    return text


def _first_after(text: str, starters: tuple[str, ...], wanted: tuple[str, ...]) -> list[lx.Token]:
    """For every ``starters`` token of ``text``, the first token after it in ``wanted`` at its own bracket depth,
    before a ``,`` at that depth (the end of a binder head) or the bracket that closes around it. A starter
    followed by ``|`` (``fun | p => …``, pattern-matching arms) is skipped."""
    if not any(s in text for s in starters):
        return []  # most atoms: no need to tokenize
    toks = lx.code_tokens(text)
    found = []
    for i, tok in enumerate(toks):
        if tok.text not in starters or i + 1 >= len(toks) or toks[i + 1].text == "|":
            continue
        depth = 0
        for t in toks[i + 1:]:
            if t.text in lx.OPEN_BRACKETS:
                depth += 1
            elif t.text in lx.CLOSE_BRACKETS:
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and t.text in wanted:
                found.append(t)
                break
            elif depth == 0 and t.text == ",":
                break
    return found


def _fun_rewriter(old: str, new: str) -> Callable[[str], tuple[str, int]]:
    def rewrite(text: str) -> tuple[str, int]:
        edits = [(t, new) for t in _first_after(text, ("fun", "λ"), ("=>", "↦")) if t.text == old]
        return _substitute(text, edits), len(edits)

    return rewrite


def fun_mapsto(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``fun x => e`` written ``fun x ↦ e`` inside atoms (Mathlib problems only).

    Equivalent: ``↦`` is Mathlib's alternative token for ``=>`` in ``fun``; both parse to the same lambda.
    """
    if not mathlib:
        return []
    new, n = _rewrite_atoms(decl, _fun_rewriter("=>", "↦"))
    return [(f"{n} lambda(s)", new)] if n else []


def fun_arrow(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``fun x ↦ e`` written ``fun x => e``: the converse of ``fun_mapsto``."""
    new, n = _rewrite_atoms(decl, _fun_rewriter("↦", "=>"))
    return [(f"{n} lambda(s)", new)] if n else []


_BIG_OPERATORS = ("∑", "∏")


def _sum_rewriter(old: str, new: str) -> Callable[[str], tuple[str, int]]:
    def rewrite(text: str) -> tuple[str, int]:
        edits = [(t, new) for t in _first_after(text, _BIG_OPERATORS, (old,))]
        return _substitute(text, edits), len(edits)

    return rewrite


def sum_in_as_mem(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``∑ x in s, f`` / ``∏ x in s, f`` written with ``∈``.

    Equivalent: both are Mathlib's notation for ``Finset.sum s (fun x ↦ f)``; ``in`` is the older spelling
    (deprecated, still read).
    """
    new, n = _rewrite_atoms(decl, _sum_rewriter("in", "∈"))
    return [(f"{n} big operator(s)", new)] if n else []


def sum_mem_as_in(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """``∑ x ∈ s, f`` written ``∑ x in s, f``: the converse of ``sum_in_as_mem`` (the older spelling, which
    newer Mathlib reads with a deprecation warning)."""
    new, n = _rewrite_atoms(decl, _sum_rewriter("∈", "in"))
    return [(f"{n} big operator(s)", new)] if n else []


def iff_swapped(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The first ``A ↔ B`` of the conclusion whose sides differ written ``B ↔ A``.

    Equivalent (``Iff.comm``), but it reverses which direction is ``.mp``: checkers that only project ``.mp`` /
    ``.mpr`` out of the candidate reject it, a checker that searches for the direction accepts it. Kept with the
    faithful rewrites because it is one — a checker that fails it is a false negative.
    """
    if decl.type is None:
        return []
    for node, put in _conclusion_nodes(decl.type):
        if isinstance(node, BinOp) and node.op == IFF and node.left != node.right:
            return [("", replace(decl, type=put(BinOp(IFF, node.right, node.left))))]
    return []


# ---------------------------------------------------------------------------------------------------------------
# Negative controls
#
# A control removes or changes a part of the statement. It is non-equivalent by construction only when what it
# removes cannot be recovered from what stays — ``p ∧ q ∧ r → (p ∧ q) ∧ r`` is a tautology, and ``m = n`` follows
# from ``m ≤ n`` and ``n ≤ m`` (``le_antisymm``), so dropping such a part changes nothing. ``supplied`` is the
# test: every leaf (an atom, or a relation between two operands) of the removed part must be found among the
# leaves that stay — directly, ``=`` from ``≤``/``⊆`` both ways, ``≤``/``⊆`` from ``=`` either way. A control is
# generated only when some leaf is *not* supplied: with opaque atoms that leaf is then free to be false.


_NORMAL_REL = {">": "<", "≥": "≤", "⊇": "⊆", "⊃": "⊂"}


def _leaf_key(term: Term) -> tuple[str, ...]:
    if isinstance(term, Rel):
        left, right = " ".join(render_term(term.left).split()), " ".join(render_term(term.right).split())
        if term.op in _NORMAL_REL:
            return (_NORMAL_REL[term.op], right, left)
        return (term.op, left, right)
    return ("atom", " ".join(render_term(term).split()))


def _leaves(term: Term | None) -> set[tuple[str, ...]]:
    """The skeleton's leaves: atoms standing as propositions, relations, and whole ``∃``/``∃!`` statements."""
    if term is None:
        return set()
    if isinstance(term, (Atom, Rel)) or (isinstance(term, Quant) and term.kind != "∀"):
        return {_leaf_key(term)}
    if isinstance(term, Not):
        return _leaves(term.arg)
    if isinstance(term, BinOp):
        return _leaves(term.left) | _leaves(term.right)
    if isinstance(term, Quant):
        return set().union(*(_leaves(b.type) for b in term.binders if is_hypothesis(b))) | _leaves(term.body)
    if isinstance(term, Let):
        return _leaves(term.body)
    raise TypeError(term)


def supplied(part: Term, context: Iterable[Term | None]) -> bool:
    """Whether every leaf of ``part`` can be supplied by the leaves of ``context`` (see the note above)."""
    have = set().union(*(_leaves(t) for t in context))
    for leaf in _leaves(part):
        if leaf in have:
            continue
        op, *sides = leaf
        if op == "=" and len(sides) == 2:
            a, b = sides
            if ("=", b, a) in have or any({(r, a, b), (r, b, a)} <= have for r in ("≤", "⊆")):
                continue
        if op in ("≤", "⊆") and len(sides) == 2:
            a, b = sides
            if ("=", a, b) in have or ("=", b, a) in have:
                continue
        return False
    return True


def _hypothesis_types(decl: Declaration, skip: int | None = None) -> list[Term]:
    return [b.type for i, b in enumerate(decl.binders) if i != skip and is_hypothesis(b)]


def drop_hypothesis(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """One hypothesis dropped (a variant per hypothesis nothing else mentions by name).

    Not equivalent: the dropped hypothesis has a leaf no other hypothesis supplies (``supplied``), so with opaque
    atoms the variant is strictly stronger than the reference, and the backward check must fail.
    """
    out: list[Rewrite] = []
    for i, b in enumerate(decl.binders):
        if not is_hypothesis(b) or any(used_elsewhere(decl, n, skip=i) for n in b.names):
            continue
        if supplied(b.type, _hypothesis_types(decl, skip=i)):
            continue  # the other hypotheses supply it: dropping it may change nothing
        out.append((" ".join(b.names), replace(decl, binders=decl.binders[:i] + decl.binders[i + 1:])))
    return out


def le_as_lt(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The first ``≤`` (or ``≥``) of the conclusion — else of a hypothesis — made strict (``<``, ``>``).

    Not equivalent: ``≤`` and ``<`` are different opaque relations; in the conclusion the variant is stronger, in
    a hypothesis weaker.
    """
    strict = {"≤": "<", "≥": ">"}
    if decl.type is not None:
        for node, put in _conclusion_nodes(decl.type):
            if isinstance(node, Rel) and node.op in strict:
                return [("conclusion", replace(decl, type=put(Rel(strict[node.op], node.left, node.right))))]
    for i, b in enumerate(decl.binders):
        if not is_hypothesis(b):
            continue
        for node, put in _conclusion_nodes(b.type):
            if isinstance(node, Rel) and node.op in strict:
                new = replace(b, type=put(Rel(strict[node.op], node.left, node.right)))
                return [(f"hypothesis {' '.join(b.names)}",
                         replace(decl, binders=decl.binders[:i] + (new,) + decl.binders[i + 1:]))]
    return []


def _conjuncts(term: Term) -> list[Term]:
    if isinstance(term, BinOp) and term.op == AND:
        return _conjuncts(term.left) + _conjuncts(term.right)
    return [term]


def drop_conjunct(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The last conjunct of the first conjunction in the conclusion dropped (``A ∧ B ∧ C`` → ``A ∧ B``).

    Not equivalent: the dropped conjunct has a leaf that neither the kept conjuncts nor the hypotheses supply
    (``supplied``); the variant is weaker, and the forward check of the dropped shadow must fail.
    """
    if decl.type is None:
        return []
    for node, put in _conclusion_nodes(decl.type):
        if isinstance(node, BinOp) and node.op == AND:
            parts = _conjuncts(node)
            if supplied(parts[-1], [*parts[:-1], *_hypothesis_types(decl)]):
                return []
            kept = parts[-2]
            for p in reversed(parts[:-2]):
                kept = BinOp(AND, p, kept)
            return [(f"conjunct {len(parts)} of {len(parts)}", replace(decl, type=put(kept)))]
    return []


def iff_one_direction(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """The first ``A ↔ B`` of the conclusion (sides differing) weakened to ``A → B``.

    Not equivalent: the converse ``B → A`` is lost — ``A`` has a leaf ``B`` and the hypotheses do not supply
    (``supplied``) — so the ``.mpr`` shadows' forward checks must fail.
    """
    if decl.type is None:
        return []
    for node, put in _conclusion_nodes(decl.type):
        if isinstance(node, BinOp) and node.op == IFF and node.left != node.right:
            if supplied(node.left, [node.right, *_hypothesis_types(decl)]):
                return []  # the converse holds outright (`p ∧ q ∧ r → (p ∧ q) ∧ r`): nothing is lost
            return [("", replace(decl, type=put(BinOp(IMP, node.left, node.right))))]
    return []


# ---------------------------------------------------------------------------------------------------------------
# The registry and the generator


FAITHFUL_RULES: tuple[RewriteRule, ...] = tuple(
    RewriteRule(fn.__name__, FAITHFUL, True, fn)
    for fn in (implicit_binders, explicit_binders, instances_reordered, instances_named, instances_anonymous,
               hypotheses_renamed, hypotheses_reordered, hypothesis_split, hypotheses_merged, forall_to_binders,
               binders_to_forall, gt_as_lt, lt_as_gt, type_star_as_universe, universe_as_type_star, fun_mapsto,
               fun_arrow, sum_in_as_mem, sum_mem_as_in, iff_swapped)
)
CONTROL_RULES: tuple[RewriteRule, ...] = (
    RewriteRule("drop_hypothesis", CONTROL, False, drop_hypothesis, per_site=True),
    RewriteRule("le_as_lt", CONTROL, False, le_as_lt),
    RewriteRule("drop_conjunct", CONTROL, False, drop_conjunct),
    RewriteRule("iff_one_direction", CONTROL, False, iff_one_direction),
)

_FAITHFUL_BY_KIND = {r.kind: r for r in FAITHFUL_RULES}
# The ``combined`` variant: these faithful rewrites one after another, each where it applies — a solver rarely
# differs from the reference in one way only.
COMBINED_CHAIN = ("hypotheses_renamed", "hypotheses_reordered", "hypothesis_split", "implicit_binders",
                  "instances_named", "gt_as_lt", "type_star_as_universe", "fun_mapsto", "sum_in_as_mem")


def combined(decl: Declaration, mathlib: bool) -> list[Rewrite]:
    """Every rewrite of ``COMBINED_CHAIN`` that applies, in that order (at least two).

    Equivalent: a composition of equivalences. Each step works on the re-parsed output of the one before.
    """
    applied: list[str] = []
    current = decl
    for kind in COMBINED_CHAIN:
        rewrites = _FAITHFUL_BY_KIND[kind].apply(current, mathlib)
        if not rewrites:
            continue
        _, new = rewrites[0]
        try:
            reparsed = parse_declaration(render_declaration(new))
        except ParseError:
            return [("+".join(applied + [kind]), new)]  # reported as a failure by the generator
        if reparsed != current:
            applied.append(kind)
            current = reparsed
    return [("+".join(applied), current)] if len(applied) >= 2 else []


COMBINED_RULE = RewriteRule("combined", FAITHFUL, True, combined)
ALL_RULES: tuple[RewriteRule, ...] = FAITHFUL_RULES + (COMBINED_RULE,) + CONTROL_RULES
KINDS: tuple[str, ...] = tuple(r.kind for r in ALL_RULES)
RULES_BY_KIND = {r.kind: r for r in ALL_RULES}


def generate_variants(decl: Declaration, *, mathlib: bool = True, kinds: Iterable[str] | None = None
                      ) -> tuple[list[Variant], list[VariantFailure]]:
    """Every variant of ``decl`` (or of the rules named in ``kinds``), rendered and parsed back.

    Returns the variants, in rule order, and the rewrites whose text did not parse. A rewrite that parses back to
    the reference itself is not a variant and is left out.
    """
    wanted = set(kinds) if kinds is not None else None
    if wanted is not None and wanted - set(KINDS):
        raise ValueError(f"unknown rewrite kind(s): {', '.join(sorted(wanted - set(KINDS)))}")
    baseline = parse_declaration(render_declaration(decl))
    variants: list[Variant] = []
    failures: list[VariantFailure] = []
    seen: set[str] = set()
    for rule in ALL_RULES:
        if wanted is not None and rule.kind not in wanted:
            continue
        for detail, new in rule.apply(baseline, mathlib):
            text = render_declaration(new)
            try:
                parsed = parse_declaration(text)
            except ParseError as err:
                failures.append(VariantFailure(rule.kind, detail, text, str(err)))
                continue
            if parsed == baseline:
                continue
            vid = f"{rule.kind}@{detail}" if rule.per_site else rule.kind
            while vid in seen:
                vid += "'"
            seen.add(vid)
            variants.append(Variant(vid, rule.kind, rule.role, rule.equivalent, detail, text, parsed))
    return variants, failures


__all__ = [
    "ALL_RULES", "CONTROL", "FAITHFUL", "KINDS", "RULES_BY_KIND", "RewriteRule", "Variant", "VariantFailure",
    "generate_variants", "in_dependency_order",
]
