"""Checker theorems for a decomposition: canonical proof terms, and the tactic forms built from them.

Every checker has a **canonical proof term** — the plain projection path (forward) or constructor term (backward)
— built here from the path and the certificate alone. The same builder serves both tiers: the full tier states the
checker in the reference's own Lean, the kernel tier in an abstracted prelude file (``pyshadow.kernel``); only the
*head* (how the target is applied) and the statement printer differ.

The full tier's Lean layout — docstring, header, ``first | … | …`` — is in the templates ``templates/lean/``
(``forward.lean.j2``, ``backward.lean.j2``); this module computes the terms they are filled with.

Forward checker of a generated shadow, the three alternatives of docs/checker-idioms.md "Forward checker" [paper]:
1. ``exact <term>`` with the target applied to the reference's explicit arguments;
2. ``exact (let _hc := <target args>; <term over _hc>)``;
3. ``exact <term over (show FULL by apply TARGET <;> assumption)>`` — argument-agnostic; the ``show … by`` is
   parenthesised so its tactic block cannot swallow what follows (the delimited form the idioms note gives).

Forward checker of an expert/LLM shadow (``pyshadow.shadows.merge``): a consequence, not a projection, so there is
no term to project — the paper's pattern for non-structural sub-claims, with ``simpa using`` in place of the
projection (``simpa`` is core Lean: ``Lean.Elab.Tactic.Simpa``, syntax in ``Init/Tactics.lean``; it simplifies
goal and hypothesis alike, then closes the goal with the hypothesis up to defeq, so it subsumes ``exact``):
1. ``simpa using <target args>``;  2. ``(have _hc := <target args>; simpa using _hc)``;
3. ``simpa using (show FULL by apply TARGET <;> assumption)``.
Such a checker has no canonical term (``Checker.term == ""``); the kernel tier checks generated shadows only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import jinja2

from ..paths import TEMPLATES_DIR
from ..syntax.ast import Atom, Binder, BinOp, Declaration, Let, Not, Quant, Term, atoms, declaration_names
from ..syntax.render import render_binder, render_term
from .expert import CONSEQUENCE_KINDS
from .rules import CertIntro, CertLeaf, CertLet, CertPair, Decomposition, Shadow
from .types import EqualitySplit


# Certificate hypotheses are `hS_1`, `hS_2`, …; ``FreshNames`` never produces that prefix, so a lambda-bound name
# can never shadow one.
CERT_HYP = "hS_"


def certificate_prefix(names, count: int) -> str:
    """The certificate hypotheses' prefix: ``hS_`` unless the statement itself uses a name ``hS_i`` (then
    ``hShadow_``, ``hS1_`` …). ``FreshNames`` never produces names starting with ``hS``, so lambda-bound names
    cannot collide either."""
    for prefix in (CERT_HYP, "hShadow_", *(f"hS{k}_" for k in range(1, 1000))):
        if not any(f"{prefix}{i}" in names for i in range(1, count + 1)):
            return prefix
    raise ValueError("no free certificate hypothesis prefix")
# The argument-agnostic head of the third forward alternative: the target's full conclusion, obtained by letting
# unification apply the target. Parenthesised, so the tactic block of `show … by` cannot swallow what follows.
SHOW_HEAD = "(show {conclusion} by apply {target} <;> assumption)"

# ---------------------------------------------------------------------------------------------------------------
# Canonical proof terms (pure string builders, shared by both tiers)


def _paren(expr: str) -> str:
    """Parenthesise ``expr`` unless it is a single name or projection chain (no space outside brackets)."""
    depth = 0
    for ch in expr:
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        elif ch == " " and depth == 0:
            return f"({expr})"
    return expr


# How a lambda binds a name of each binder kind. Lean introduces `{}`/`⦃⦄`/`[]` binders of an expected ∀ itself
# (the implicit lambda feature), so an unannotated `fun k_1 =>` would bind the *next* argument; the annotation
# makes the lambda bind exactly that binder. `{x}` against an instance binder `[C α]` elaborates (Lean only
# checks the binder is not explicit), and the bound name is a local instance since its type is a class.
LAMBDA_BINDERS = {"(": "{}", "{": "{{{}}}", "⦃": "⦃{}⦄", "[": "{{{}}}"}


def lambda_binder(name: str, bracket: str) -> str:
    """``x_1``, ``{k_1}``, ``⦃k_1⦄`` or ``{inst_1}``: one lambda binder of the given kind."""
    return LAMBDA_BINDERS.get(bracket, "{}").format(name)


def lambda_binders(names, brackets) -> str:
    return " ".join(lambda_binder(n, brackets[i] if i < len(brackets) else "(") for i, n in enumerate(names))


def forward_term(shadow: Shadow, head: str) -> str:
    """Proof of the shadow from ``head`` (a proof of the target's conclusion under the checker's binders).

    ``head`` is ``@target a₁ … aₙ`` (every argument positional) or a term of the conclusion's type (``_hc``, the
    ``show … by`` form). Entering a ∀ binds each variable with its own annotation (``lambda_binder``) and passes
    it: positionally while the term is still the ``@``-application (``@target n k_1``, which takes every argument
    explicitly); after a projection an explicit variable positionally and a non-explicit one by name,
    ``(k := k_1)`` — Lean would otherwise instantiate it itself and give ``k_1`` to the next explicit argument. An
    anonymous instance binder is not passed at all: the lambda-bound instance is found by instance resolution.
    """
    expr = head
    explicit_mode = head.startswith("@")  # still the @-application: every argument is positional
    applied = True  # ``expr`` is an application (or an atom) that takes more arguments without parentheses
    lambdas: list[str] = []
    for step in shadow.path:
        if step.kind in ("left", "right", "mp", "mpr"):
            field = {"left": "1", "right": "2"}.get(step.kind, step.kind)
            # `@target.mp` would read as the constant `target.mp`: an @-term is always parenthesised
            expr = f"({expr}).{field}" if expr.startswith("@") and _paren(expr) == expr else f"{_paren(expr)}.{field}"
            explicit_mode, applied = False, True
        elif step.kind == "intro":
            for i, name in enumerate(step.names):
                bracket = step.bracket(i)
                lambdas.append(lambda_binder(name, bracket))
                if explicit_mode or bracket == "(":
                    argument = name
                elif step.original(i):
                    argument = f"({step.original(i)} := {name})"
                else:
                    continue
                expr = f"{expr if applied else _paren(expr)} {argument}"
                applied = True
        elif step.kind in ("le", "ge"):
            split: EqualitySplit = step.split  # type: ignore[assignment]
            expr = (split.le if step.kind == "le" else split.ge).format(h=expr)
            explicit_mode, applied = False, False
        # "let": definitional, nothing to apply
    return f"fun {' '.join(lambdas)} => {expr}" if lambdas else expr


def certificate_term(decomposition: Decomposition, leaf_head) -> str:
    """Proof of the target's conclusion from the shadow hypotheses.

    ``leaf_head(i, intro_names)`` returns the proof of shadow ``i`` at a point where ``intro_names`` are bound
    (e.g. ``@h_1 n h x_1``). Lambdas bind each name with its binder kind (``lambda_binder``).
    """

    def go(node, bound: tuple[str, ...]) -> str:
        if isinstance(node, CertLeaf):
            return leaf_head(node.index, bound)
        if isinstance(node, CertLet):
            return go(node.body, bound)
        if isinstance(node, CertIntro):
            return f"fun {lambda_binders(node.names, node.brackets)} => {go(node.body, bound + node.names)}"
        if isinstance(node, CertPair):
            left, right = go(node.left, bound), go(node.right, bound)
            if node.kind in ("and", "iff"):
                return f"⟨{left}, {right}⟩"
            return f"{node.split.antisymm} ({left}) ({right})"
        raise TypeError(node)

    return go(decomposition.certificate, ())


# ---------------------------------------------------------------------------------------------------------------
# The full tier: checkers stated in the reference's own Lean


@dataclass(frozen=True)
class Checker:
    """One named checker theorem: ``text`` is its Lean source, ``term`` its canonical proof term."""

    name: str
    kind: str  # "forward" | "backward"
    statement: str
    term: str
    text: str
    shadow_index: int | None = None
    hypotheses: str = ""  # a certificate's shadow hypotheses `(hS_1 : ∀ …, S₁) …`, for checks built on it
    # The statement's parts, for stating it elsewhere (pyshadow.score.full: the shadow statements module): the
    # header binders as written, the names a proof `intro`s in their order, and a certificate's hypotheses one by one
    binders: str = ""
    arguments: tuple[str, ...] = ()
    hypothesis_list: tuple[tuple[str, str], ...] = ()  # (name, type)


def checker_prefix(problem_id: str) -> str:
    """``shadow_<problem>``: a stable identifier prefix, so a message traces back to its problem."""
    safe = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in problem_id)
    return f"shadow_{safe.strip('_') or 'problem'}"


def named_binders(binders: tuple[Binder, ...]) -> tuple[Binder, ...]:
    """Every binder gets a name the checkers can pass explicitly.

    Anonymous instance binders become ``inst_1`` …, ``_`` becomes ``anon_1`` …, and a name bound twice (real
    statements do this: ``(h₀ : 0 < n) (h₀ : … = 1994)``) keeps its last binding — the one later types see — while
    the earlier one is renamed ``h₀_shadowed_1``; renaming does not change the statement's meaning.
    """
    last_index = {n: i for i, b in enumerate(binders) for n in b.names}
    out, k = [], 0
    for i, b in enumerate(binders):
        names = list(b.names)
        if b.is_instance and not names:
            k += 1
            names = [f"inst_{k}"]
        for j, n in enumerate(names):
            if n == "_":
                k += 1
                names[j] = f"anon_{k}"
            elif last_index.get(n, i) != i or names.count(n) > 1 and names.index(n) != j:
                k += 1
                names[j] = f"{n}_shadowed_{k}"
        if tuple(names) != b.names:
            b = Binder(b.bracket, tuple(names), b.type, b.default, b.bound)
        out.append(b)
    return tuple(out)


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


def name_declaration_universes(decl: Declaration, dec: Decomposition
                               ) -> tuple[tuple[Binder, ...], Term, list[Term], tuple[str, ...]]:
    """Binders (named ``named_binders``), conclusion and shadow statements of one target with every universe hole
    named consistently, and the universe names to declare."""
    decl = with_auto_bound(decl)
    namer, explicit = _universe_namer(decl)
    binders = namer.binders(named_binders(decl.binders))
    conclusion = namer.term(decl.type)
    statements = [namer.term(s.statement) for s in dec.shadows]
    return binders, conclusion, statements, (*explicit, *namer.universes)


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
    universes correspond (``pyshadow.score.full.candidate_universe_pin``)."""
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


def explicit_arguments(binders: tuple[Binder, ...]) -> list[str]:
    return [n for b in binders if b.bracket == "(" for n in b.names]


def all_arguments(binders: tuple[Binder, ...]) -> list[str]:
    return [n for b in binders for n in b.names]


def _quantified(binders: tuple[Binder, ...]) -> str:
    """The target's binders as a ∀ prefix for a certificate hypothesis: variables implicit, hypotheses explicit."""
    parts = []
    for b in binders:
        if b.is_instance:
            parts.append(render_binder(b))
        elif b.bracket == "(" and _is_hypothesis(b):
            parts.append(render_binder(Binder("(", b.names, b.type)))
        else:
            parts.append(render_binder(Binder("{", b.names, b.type)))
    return " ".join(parts)


def _is_hypothesis(b: Binder) -> bool:
    from ..syntax.ast import is_proposition

    return is_proposition(b)


@dataclass(frozen=True)
class CheckerSet:
    """The checkers of one target and the universe names their file must declare."""

    checkers: tuple[Checker, ...]
    universes: tuple[str, ...]

    @property
    def forward(self) -> tuple[Checker, ...]:
        return tuple(c for c in self.checkers if c.kind == "forward")

    @property
    def backward(self) -> Checker | None:
        return next((c for c in self.checkers if c.kind == "backward"), None)


def full_tier_checkers(problem_id: str, target: str, decl: Declaration, dec: Decomposition) -> CheckerSet:
    """Forward checkers and the backward certificate of one target, in tactic form (full toolchain).

    ``target`` is the fully qualified name by which the checkers refer to the declaration under test. ``dec`` may
    carry expert/LLM shadows merged in by ``pyshadow.shadows.merge`` (after the generated ones): each gets a forward
    checker of the consequence form; the certificate is built from the generated shadows alone.
    """
    prefix = checker_prefix(problem_id)
    binders, conclusion_term, statements, universes = name_declaration_universes(decl, dec)
    binder_text = " ".join(render_binder(b) for b in binders)
    conclusion = render_term(conclusion_term)
    head = target_head(target, binders)
    show_head = SHOW_HEAD.format(conclusion=conclusion, target=target)
    checkers: list[Checker] = []
    for i, shadow in enumerate(dec.shadows, start=1):
        name = f"{prefix}_{i}"
        statement = render_term(statements[i - 1])
        context = {"name": name, "binders": binder_text, "statement": statement, "head": head}
        if is_consequence(shadow):
            # No path, so no projection to write: the checker simplifies the target's statement into the shadow.
            term = ""
            context.update(form="consequence", show_head=show_head,
                           doc=f"Shadow {i}: {shadow.kind} consequence ({shadow.provenance})")
        else:
            term = forward_term(shadow, head)
            context.update(form="projection", direct=term, via_let=forward_term(shadow, "_hc"),
                           via_show=forward_term(shadow, show_head), nonempty=statement.startswith("Nonempty "),
                           doc=f"Shadow {i}: {shadow.kind} `{shadow.path_text}`")
        checkers.append(Checker(name, "forward", statement, term, render_lean("forward", context), i - 1,
                                binders=binder_text, arguments=tuple(all_arguments(binders))))
    if not dec.residual:
        hyp = certificate_prefix(declaration_names(decl), len(dec.shadows))
        checkers.append(_full_certificate(prefix, binders, binder_text, conclusion, dec, statements, hyp))
    return CheckerSet(tuple(checkers), universes)


def target_head(target: str, binders: tuple[Binder, ...]) -> str:
    """``@target a₁ … aₙ``: the target applied to every binder of the statement, by position.

    Both tiers' first alternative. Every argument is given (instances by their ``named_binders`` name), so nothing
    is left to unification or instance search: the term elaborates for the reference whatever its binder kinds,
    and ``@`` carries on into the conclusion's own ∀ binders (``@target n k_1`` for ``∀ {k}, …``).
    """
    return " ".join([f"@{target}", *all_arguments(binders)])


def _full_certificate(prefix, binders, binder_text, conclusion, dec: Decomposition, statements, hyp: str) -> Checker:
    # Only the generated shadows become hypotheses: they come first in ``dec.shadows`` and the certificate tree
    # indexes exactly them. Expert and LLM shadows add forward checks; they never enter (or weaken) completeness.
    quantified = _quantified(binders)
    hyps, hypothesis_list = [], []
    for i, shadow in enumerate(dec.shadows, start=1):
        if is_consequence(shadow):
            continue
        prop = render_term(statements[i - 1])
        hypothesis_list.append((f"{hyp}{i}", f"∀ {quantified}, {prop}" if quantified else prop))
        hyps.append(f"({hyp}{i} : {hypothesis_list[-1][1]})")
    args = all_arguments(binders)

    def leaf(index: int, bound: tuple[str, ...]) -> str:
        return " ".join([f"@{hyp}{index + 1}", *args, *bound])

    term = certificate_term(dec, leaf)
    name = f"{prefix}_complete"
    context = {"doc": "Backward completeness certificate", "name": name, "binders": " ".join([binder_text, *hyps]).strip(),
               "statement": conclusion, "term": term}
    return Checker(name, "backward", conclusion, term, render_lean("backward", context), hypotheses=" ".join(hyps),
                   binders=context["binders"], arguments=(*args, *(n for n, _ in hypothesis_list)),
                   hypothesis_list=tuple(hypothesis_list))


# ---------------------------------------------------------------------------------------------------------------
# Templates: the Lean layout lives in ``templates/lean/`` (and ``templates/lakefile.toml.j2``)


def is_consequence(shadow: Shadow) -> bool:
    """An expert or LLM shadow: a consequence of the target with no projection path (``merge.CONSEQUENCE_KINDS``)."""
    return shadow.kind in CONSEQUENCE_KINDS


@functools.lru_cache(maxsize=1)
def template_environment() -> jinja2.Environment:
    """The one Jinja2 environment for generated Lean and Lake files, rooted at ``templates/``; built on first use.

    ``StrictUndefined``: a template asking for a value the caller did not pass is an error naming it. No
    autoescaping (the output is Lean, not HTML); block tags do not leave blank lines behind.
    """
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


@functools.lru_cache(maxsize=None)
def _template(name: str) -> jinja2.Template:
    return template_environment().get_template(name)


def render_template(name: str, context: Mapping[str, object]) -> str:
    """Render ``templates/<name>`` with ``context``."""
    return _template(name).render(context)


def render_lean(kind: str, context: Mapping[str, object]) -> str:
    """One checker theorem from ``templates/lean/<kind>.lean.j2``, without a trailing newline."""
    return render_template(f"lean/{kind}.lean.j2", context).rstrip("\n")
