"""The skeleton search's proof terms with real names: the printing Lean checks against real statements.

``pyshadow.kernel.skeleton.skeleton_search`` finds, for a (reference, candidate) pair, a proof term per forward
shadow and one for the backward check; the kernel tier states them over abstract constants
(``pyshadow.kernel.proof_terms.print_abstract``). ``print_concrete`` prints the *same* tree with real names — for
a full toolchain (``pyshadow.score.skeleton_terms``) and for the kernel tier's signature environment, where Lean
checks it against the elaborated statements (``pyshadow.kernel.lean_check``):

- the candidate axiom ``cand`` → the candidate's declaration as the full tier names it (``@Ns.foo``);
- the certificate hypotheses ``hS_i`` → the full tier's names for them (``certificate_prefix`` of the reference);
- the prelude lemma axioms → real lemma names. With Mathlib: ``le_of_eq``, ``ge_of_eq``, ``le_antisymm``
  (leanprover-community/mathlib4 ``Mathlib/Order/Defs/PartialOrder.lean``; ``ge_of_eq`` is generated there by
  ``@[to_dual ge_of_eq]`` on ``le_of_eq``) and ``subset_of_eq``, ``superset_of_eq``, ``subset_antisymm``
  (``Mathlib/Order/RelClasses.lean``). Core Lean only: ``Nat.le_of_eq`` (``Init/Data/Nat/Basic.lean``),
  ``Nat.le_antisymm`` (``protected theorem`` in leanprover/lean4 ``src/Init/Prelude.lean``) and ``Eq.symm`` for
  the reverse inequality — exactly the spellings of ``pyshadow.shadows.types`` (``MATHLIB_ORDER``,
  ``MATHLIB_SETS``, ``CORE_NAT``), which the generated checkers use;
- ``let`` bindings → the statement's own ``let``/``have`` with its real type and value;
- ``fun`` binders → with the binder kind the goal declares (``{x}``, ``⦃x⦄``, ``[inst : C α]``, explicit ``x``).
  A ``fun`` with an implicit or instance binder is not wrapped in a further implicit lambda by Lean
  (``isLambdaWithImplicit``/``blockImplicitLambda``, leanprover/lean4 ``src/Lean/Elab/Term.lean``); ``fun``
  accepts ``{x}``, ``⦃x⦄`` and ``[x : C]`` binders (``funBinder``, ``src/Lean/Parser/Term.lean``).

A *data* candidate (``def``/``instance``/``abbrev … : T``, which the search reads as ``Nonempty T``:
``pyshadow.kernel.definitions``, 4.) is applied as ``Nonempty.intro (@Cand a₁ … aₙ)`` (Lean core
src/Init/Prelude.lean ``Nonempty.intro (val : α) : Nonempty α``), the proof of that reading. Its backward check
gets no alternative: the full tier's goal is ``type_of% @Cand``, a type, which no ``theorem`` can state; nor does
any role of a data *reference*, whose full-tier checkers state its type ``T`` (``pyshadow.references``
decomposes the declaration as written).

Local names (variables, hypotheses, the search's fresh names) print the same in both. The search reads atoms as
canonical keys (``pyshadow.kernel.atoms``); their real text comes from the declarations as written. Where the
plain search finds nothing because atoms differ only in ways the kernel tier cannot judge, the term of its
*undecided* re-check (those atoms read as one) is used: ``exact`` then decides whether they agree. The backward term is wrapped
in ``fun <candidate binders> =>``, since the full tier's backward goal is ``type_of% @Cand`` rather than the
conclusion under the candidate's binders. ``reabstract`` reads a concrete term back to the abstract text (the
textual round trip the tests check). A term that would still contain an abstract constant is not printed.

**No full toolchain has checked this Lean text** (none can be installed on the development machines): the kernel
tier checks the abstract printing, and the concrete one against the signature environment's restatement of the
cited declarations; that it elaborates with Mathlib is reasoned from the sources cited above.
"""

from __future__ import annotations

import re

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from . import proof_terms as pt
from .atom_patterns import alpha_pattern
from .definitions import is_data_declaration
from .normalize import atom_key, type_key
from .skeleton import SkeletonSearch
from ..shadows.checkers import certificate_prefix
from ..shadows.types import CORE_NAT, MATHLIB_ORDER, MATHLIB_SETS, EqualitySplit
from ..syntax.ast import Atom, BinOp, Declaration, Let, Not, Quant, Rel, Term, declaration_names
from ..syntax.render import render_term

# A checker stays readable: a longer term gets no alternative (measured: the longest on the dev pairs is 290).
MAX_TERM_CHARS = 1000

# Abstract lemma → (split, which lemma of it), per library. A lemma the library lacks has no entry: no term.
LEMMAS: dict[bool, dict[str, tuple[EqualitySplit, str]]] = {
    True: {"le_of_eq": (MATHLIB_ORDER, "le"), "ge_of_eq": (MATHLIB_ORDER, "ge"),
           "le_antisymm": (MATHLIB_ORDER, "antisymm"), "subset_of_eq": (MATHLIB_SETS, "le"),
           "superset_of_eq": (MATHLIB_SETS, "ge"), "subset_antisymm": (MATHLIB_SETS, "antisymm")},
    False: {"le_of_eq": (CORE_NAT, "le"), "ge_of_eq": (CORE_NAT, "ge"), "le_antisymm": (CORE_NAT, "antisymm")},
}
# Why a role of a pair with a data declaration has no alternative (module docstring).
DATA_REFERENCE = ("the reference is a data declaration: its full-tier checkers state its type, not the "
                  "`Nonempty` the search reads")
DATA_CANDIDATE_BACKWARD = ("the candidate is a data declaration: the full tier's backward goal `type_of% @Cand` is a "
                           "type, which no theorem states")
# The proof of a data declaration's reading `Nonempty T` from a term of T (Lean core src/Init/Prelude.lean).
NONEMPTY_INTRO = "Nonempty.intro"

# Prelude declarations that are real core Lean names (the rest — Obj, LE0, … — exist only in the kernel tier).
_CORE_NAMES = frozenset({"Eq.symm", "Nat.le_of_eq", "Nat.le_antisymm"})


class NotConcrete(ValueError):
    """The term mentions something with no real spelling (an abstract constant, a lemma the library lacks)."""


@dataclass(frozen=True)
class ConcreteNames:
    """What the abstract names of one search stand for in the full tier's checker file."""

    candidate: str  # the candidate declaration as the checkers call it
    certificate_prefix: str  # the full tier's shadow hypotheses: `hS_1` …
    mathlib: bool
    let_types: dict[str, str | None]  # abstract let type constant → the real type (None: the let states none)
    let_values: dict[str, str]  # abstract let value constant → the real value text
    let_keywords: dict[str, str]  # let name → `let` | `have`, as the statement writes it
    let_constants: dict[tuple[str, str], tuple[str | None, str | None]]  # (name, real value) → (type, value) consts
    let_idents: dict[str, tuple[str, ...]]  # value constant → the identifiers its key (the value as read) mentions
    binders: dict[str, tuple[str, str | None]]  # quantified name → (bracket, type text) as the goal declares it
    candidate_data: bool = False  # a data candidate: its applications prove `Nonempty T` via `Nonempty.intro`


def concrete_names(search: SkeletonSearch, candidate: str, full_prefix: str | None = None) -> ConcreteNames:
    """The substitution for ``search``'s terms; ``full_prefix`` defaults to the full tier's certificate prefix.

    The search read each atom as its canonical key (``pyshadow.kernel.atoms``); the real text of a ``let`` or a
    binder type is taken from the same position of the declarations *as written*."""
    ref, cand = search.reference, search.candidate
    if full_prefix is None:
        full_prefix = full_certificate_prefix(search)
    written_lets: dict[tuple[str, str], Let] = {}
    binders: dict[str, tuple[str, str | None]] = {}
    for read, wrote in zip((ref, cand), written_pair(search)):
        read_terms = [read.type, *(b.type for b in read.binders)]
        wrote_terms = [wrote.type, *(b.type for b in wrote.binders)]
        for r, w in zip(walk_terms(read_terms, Let), walk_terms(wrote_terms, Let)):
            written_lets.setdefault((r.name, r.value.text), w)
        for q in walk_terms(wrote_terms, Quant):
            for b in q.binders if q.kind == "∀" else ():
                for n in b.names:
                    binders.setdefault(n, (b.bracket, render_term(b.type) if b.type is not None else None))
    statements = [ref.type, cand.type, *(s.statement for s in search.shadows),
                  *(b.type for d in (ref, cand) for b in d.binders)]
    let_types: dict[str, str | None] = {}
    let_values: dict[str, str] = {}
    keywords: dict[str, str] = {}
    constants: dict[tuple[str, str], tuple[str | None, str | None]] = {}
    idents: dict[str, tuple[str, ...]] = {}
    a = search.abstraction
    value_consts = a.let_values
    for let in walk_terms(statements, Let):
        if let.binders:
            continue  # `let f (n : ℕ) := …`: not in the search's language
        read_type = _text(let.type)
        ty = a.let_types.get(type_key(f"let {let.name} : {read_type if read_type is not None else let.value.text}"))
        value = value_consts.get(atom_key(let.value.text))
        wrote = written_lets.get((let.name, let.value.text), let)
        if ty is not None:
            let_types.setdefault(ty, _text(wrote.type))
        if value is not None:
            let_values.setdefault(value, wrote.value.text)
        keywords.setdefault(let.name, "have" if let.keyword.startswith("have") else "let")
        constants.setdefault((let.name, wrote.value.text), (ty, value))
        if value is not None:
            # in the order the abstraction applies its constant (``alpha_pattern``: first occurrence in the key)
            order = alpha_pattern(atom_key(let.value.text), [(i, "") for i in let.value.idents])[1]
            idents.setdefault(value, tuple(n for n, _ in order))
    return ConcreteNames(candidate, full_prefix, search.mathlib, let_types=let_types, let_values=let_values,
                         let_keywords=keywords, let_constants=constants, let_idents=idents, binders=binders,
                         candidate_data=is_data_declaration(written_pair(search)[1]))


def _text(term: Term | None) -> str | None:
    if term is None:
        return None
    return term.text if isinstance(term, Atom) else render_term(term)


def written_pair(search: SkeletonSearch) -> tuple[Declaration, Declaration]:
    """The reference and the candidate as written (binders named as the search names them)."""
    return search.written or (search.reference, search.candidate)


def full_certificate_prefix(search: SkeletonSearch) -> str:
    """The prefix ``pyshadow.shadows.checkers.full_tier_checkers`` gives the reference's shadow hypotheses."""
    return certificate_prefix(declaration_names(search.reference), len(search.shadows))


def walk_terms(terms, kind) -> Iterator:
    stack = [t for t in terms if t is not None]
    while stack:
        t = stack.pop(0)
        if isinstance(t, kind):
            yield t
        if isinstance(t, Not):
            stack.append(t.arg)
        elif isinstance(t, (BinOp, Rel)):
            stack += [t.left, t.right]
        elif isinstance(t, Quant):
            stack += [b.type for b in t.binders if b.type is not None] + [t.body]
        elif isinstance(t, Let):
            stack.append(t.body)


# ---------------------------------------------------------------------------------------------------------------
# Printing


def print_concrete(term: pt.ProofTerm, names: ConcreteNames) -> str:
    """``term`` with real names, lemmas, lets and binder kinds (raises ``NotConcrete``)."""
    lemmas = LEMMAS[names.mathlib]

    def lemma(text: str) -> str:
        if text in lemmas and lemmas[text][1] != "ge":
            split, which = lemmas[text]
            return split.antisymm if which == "antisymm" else split.le.split(" ", 1)[0]
        if text in _CORE_NAMES:
            return text
        raise NotConcrete(f"the lemma {text} has no spelling here")

    plain = name_printer(names.candidate, names.certificate_prefix, lemma)

    def name(n: pt.Name) -> str:
        if names.candidate_data and n.kind == pt.CANDIDATE:
            return f"{NONEMPTY_INTRO} {plain(n)}"  # the search parenthesises every argument it passes
        return plain(n)

    def app(a: pt.App) -> str | None:
        fn = a.fn
        if names.candidate_data and isinstance(fn, pt.Name) and fn.kind == pt.CANDIDATE:
            return f"{NONEMPTY_INTRO} ({' '.join([plain(fn), *(print_term(x) for x in a.args)])})"
        if not (isinstance(fn, pt.Name) and fn.kind == pt.LEMMA and fn.text in lemmas and len(a.args) == 1):
            return None
        split, which = lemmas[fn.text]
        if which == "antisymm":
            return None
        arg = a.args[0]
        inner = arg.inner if isinstance(arg, pt.Paren) else arg
        return (split.le if which == "le" else split.ge).format(h=print_term(inner))

    def let(node: pt.LetIn) -> tuple[str, str | None, str]:
        ty = node.type
        if ty is not None:
            if ty not in names.let_types:
                raise NotConcrete(f"no source for the let type {ty}")
            ty = names.let_types[ty]
        head = node.value.strip("()").split(" ", 1)[0]
        if head not in names.let_values:
            raise NotConcrete(f"no source for the let value {node.value}")
        return names.let_keywords.get(node.name, "let"), ty, names.let_values[head]

    def lam(node: pt.Lam) -> tuple[str, ...]:
        return tuple(fun_binder(pt.binder_name(b), *names.binders.get(pt.binder_name(b), ("(", None)))
                     for b in node.binders)

    def print_term(t: pt.ProofTerm) -> str:
        return pt.print_term(t, name, app, let, lam)

    return print_term(term)


def name_printer(candidate: str, prefix: str, lemma: Callable[[str], str]) -> Callable[[pt.Name], str]:
    """Names of one printing: the candidate, the shadow hypotheses (``prefix`` + index) and lemmas substituted."""

    def name(n: pt.Name) -> str:
        if n.kind == pt.CANDIDATE:
            text = candidate
        elif n.kind == pt.CERTIFICATE:
            text = prefix + _index(n.text)
        elif n.kind == pt.LEMMA:
            text = lemma(n.text)
        elif n.kind == pt.CONSTANT:
            raise NotConcrete(f"the abstract constant {n.text} outside a let binding")
        else:
            text = n.text
        return f"@{text}" if n.explicit else text

    return name


def _index(cert_name: str) -> str:
    digits = ""
    for ch in reversed(cert_name):
        if not ch.isdigit():
            break
        digits = ch + digits
    return digits


def fun_binder(name: str, bracket: str, type_text: str | None) -> str:
    """One ``fun`` binder with the kind its goal declares (an instance binder needs its class)."""
    if bracket == "{":
        return f"{{{name}}}"
    if bracket == "⦃":
        return f"⦃{name}⦄"
    if bracket == "[":
        if type_text is None:
            raise NotConcrete(f"the instance binder {name} has no type")
        return f"[{name} : {type_text}]"
    return name


def candidate_lambda(candidate: Declaration) -> str:
    """``fun <the candidate's binders, kinds kept> =>`` (empty for a candidate with no binders)."""
    parts = []
    for b in candidate.binders:
        for n in b.names:
            parts.append(fun_binder(n, b.bracket, render_term(b.type) if b.type is not None else None))
    return f"fun {' '.join(parts)} => " if parts else ""


@dataclass(frozen=True)
class SkeletonAlternatives:
    """The full tier's extra alternatives for one candidate target: a concrete term per forward shadow (1-based)
    and for the backward check, where the search found one; ``why`` says why a role has none."""

    forward: dict[int, str] = field(default_factory=dict)
    backward: str | None = None
    why: dict[str, str] = field(default_factory=dict)


def concrete_terms(search: SkeletonSearch, candidate: str) -> SkeletonAlternatives:
    """Both printings' concrete half for every role of ``search``; the candidate called ``candidate``."""
    names = concrete_names(search, candidate)
    if is_data_declaration(written_pair(search)[0]):
        roles = [f"forward:{i}" for i in range(1, len(search.shadows) + 1)] + ["backward"]
        return SkeletonAlternatives(why={role: DATA_REFERENCE for role in roles})
    try:
        forward_trees, backward_tree = search.terms()
    except pt.TermSyntaxError as err:  # a term form this reader does not know yet: no alternative, said why
        return SkeletonAlternatives(why={"search": f"the search's term does not parse: {err}"})
    forward: dict[int, str] = {}
    why: dict[str, str] = {}
    for i, tree in enumerate(forward_trees, start=1):
        if tree is None:
            why[f"forward:{i}"] = "the search found no term"
            continue
        try:
            forward[i] = print_concrete(tree, names)
        except NotConcrete as err:
            why[f"forward:{i}"] = str(err)
    backward = None
    bound = {n for b in search.candidate.binders for n in b.names} | set(names.binders)
    if backward_tree is None:
        why["backward"] = "the search found no term"
    elif names.candidate_data:
        why["backward"] = DATA_CANDIDATE_BACKWARD
    elif any(re.fullmatch(re.escape(names.certificate_prefix) + r"\d+", n) for n in bound):
        # the full tier names its shadow hypotheses (`hS_1` …, ``shadows.checkers.certificate_prefix``) apart from
        # the reference's names only: a candidate binder named so would capture them in `fun <candidate binders> =>`
        why["backward"] = f"a candidate binder is named like the shadow hypotheses ({names.certificate_prefix}…)"
    else:
        try:
            backward = candidate_lambda(written_pair(search)[1]) + print_concrete(backward_tree, names)
        except NotConcrete as err:
            why["backward"] = str(err)
    for role, term in [*((f"forward:{i}", t) for i, t in forward.items()), ("backward", backward)]:
        if term is not None and len(term) > MAX_TERM_CHARS:
            why[role] = f"the term is longer than {MAX_TERM_CHARS} characters"
    forward = {i: t for i, t in forward.items() if f"forward:{i}" not in why}
    backward = backward if "backward" not in why else None
    return SkeletonAlternatives(forward, backward, why)
