"""Two atoms Lean proves equal: definitionally, or by one lemma of the table, all pairs in one Lean process.

An atom pair is two subterms at the same place of two statements (``pyshadow.kernel.undecided``), over the same
variables: the reference's atom read over the candidate's variables, in the reference's file context, and the
candidate's atom in the candidate's. Each is printed in its own context as ``abbrev stmt (x : T) … := <atom>``
(``statements.scoped_block``; ``abbrev`` is reducible, so the unifier sees through it), over the same binders —
the candidate's header binders of the variables the atoms mention (``atom_binders``). Lean is then asked, for each
pair, for one of

    theorem … : ∀ v₁ … vₙ, Eq (R.stmt v₁ … vₙ) (C.stmt v₁ … vₙ) := fun v₁ … vₙ => <proof>

with ``<proof>`` ``rfl`` (the atoms are definitionally equal), or for a lemma ``L`` of the table
(``pyshadow.elab.lemmas``) ``propext (L ..)`` / ``Eq.symm (propext (L ..))`` (an iff) or ``L ..`` /
``Eq.symm (L ..)`` (an equation): the elaborator's unifier fills the lemma's arguments, the kernel checks the
term. Prop atoms and term atoms are asked the same way (an equation of propositions is one of terms), so nothing
guesses which an atom is. Only lemmas whose key constants the printed atoms mention are tried, so a batch stays
small; one lemma per pair, never a chain.

What is decided is the atoms' *standalone* reading: each is elaborated alone, over its variables' header types,
so a numeral or a cast whose type the surrounding statement fixes may read otherwise. A decision therefore names
the lemma for a report and is no pass by itself; the statement-level check is ``pyshadow.elab.congruence``.
A variable a ∀ or ∃ of the statement binds is one more parameter after the header ones, typed as that quantifier
types it (a closed type) or left for Lean to infer from the atom (``(n)``); the congruence then holes the atom
under its quantifier, applied to the bound name, and Lean checks that the hole's type is the place's. Atoms over
a variable bound both inside and in the header, or over a variable whose type mentions another variable
(``x : G`` with ``[Group G]``) are *unsupported*: no decision, never a failure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..lean.toolchain import LeanExecutable
from ..syntax.ast import Declaration, Quant, inner_names, walk
from ..syntax.lexer import IDENT, code_tokens, ident_root
from ..syntax.parser import ParseError, parse_declaration
from ..syntax.render import render_term
from .ac import ac_equal, ac_proof
from .context import _print, print_binder, read_context, read_names
from .elaborate import BATCH_TIMEOUT_S, run_blocks
from .lemmas import Lemma, lemma_table
from .statements import LeanStatement, scoped_block
from .translate import Scope, Untranslatable, to_lean


@dataclass(frozen=True)
class AtomPairQuery:
    """Two atoms over the same variables: the reference's (read over the candidate's variables,
    ``undecided.AtomPair.read_as``) in the reference's file context, the candidate's in the candidate's, and the
    header binders typing those variables (one group per variable, ``(x : ℝ)``; ``atom_binders``)."""

    key: str
    reference: str
    candidate: str
    binders: tuple[str, ...] = ()
    reference_context: str = ""
    candidate_context: str = ""


@dataclass(frozen=True)
class AtomDecision:
    """Lean's answer for one atom pair."""

    key: str
    status: str  # definitional | lemma | not_shown | unsupported
    lemma: str = ""  # for `lemma`: the name, `.symm` appended when it is used right to left
    proof: str = ""  # the term Lean accepted
    reason: str = ""  # for not_shown/unsupported

    @property
    def equal(self) -> bool:
        return self.status in ("definitional", "lemma")

    @property
    def by(self) -> str:
        """How the pair is settled, for a report: ``definitionally`` or ``by Nat.even_iff``."""
        return "definitionally" if self.status == "definitional" else f"by {self.lemma}" if self.lemma else ""


def atom_binders(decl: Declaration, atoms: Sequence[str], context: str = "") -> tuple[str, ...] | str:
    """The header binders of ``decl`` typing the variables ``atoms`` mention (in order of first occurrence), or
    why they cannot be given: a variable bound inside the statement, a context ``variable``, a type that mentions
    another variable."""
    header = {n: b for b in decl.binders for n in b.names}
    inner = inner_names(decl)
    try:
        context_vars = {n for group in read_context(context).variable_names for n in group}
    except Untranslatable as err:
        return f"the context is not printed for Lean: {str(err).splitlines()[0]}"
    variables: list[str] = []
    bound: list[str] = []
    for t in code_tokens(" ".join(atoms)):
        if t.kind != IDENT:
            continue
        name = ident_root(t.text)
        if name in inner:
            if name in header or name in context_vars:
                return f"`{name}` is bound inside the statement and outside it"
            if name not in bound:
                bound.append(name)
            continue
        if name in context_vars and name not in header:
            return f"`{name}` is a `variable` of the context"
        if name in header and name not in variables:
            variables.append(name)
    # a bound variable's type, where its quantifiers give it one over the header's variables only
    quantified = {name: _quantifier_type(decl, name) for name in bound}
    for typ in filter(None, quantified.values()):
        variables.extend(n for n in _mentions_of(typ) & set(header) if n not in variables)
    for name in variables:
        b = header[name]
        if b.type is None or b.bracket == "[":
            return f"`{name}` has no header type"
    # what the variables' types mention is needed too (`A : ℕ → Set X` needs `X`), and the instance binders over
    # the needed variables (`[TopologicalSpace X]`): Lean's own rule for which `variable`s a theorem includes
    needed = set(variables)
    while True:
        more = set()
        for name in needed:
            mentions = _mentions_of(header[name].type)
            if mentions & context_vars - set(header):
                return f"the type of `{name}` mentions a `variable` of the context"
            more |= mentions & set(header) - needed
        if not more:
            break
        needed |= more
    binders = []
    for b in decl.binders:
        if b.type is None:
            if set(b.names) & needed:
                return f"`{b.names[0]}` has no header type"
            continue
        typ = render_term(b.type)
        if b.bracket == "[":
            over = _mentions_of(b.type) & set(header)
            # not the instance the pair is about (`[Fact p.Prime]` against `p.Prime`): the congruence replaces it
            if over and over <= needed and " ".join(typ.split()) not in {" ".join(a.split()) for a in atoms}:
                binders.append(f"[{b.names[0]} : {typ}]" if b.names else f"[{typ}]")
            continue
        # every variable explicit (the congruence's hole is applied to each), instance binders left to Lean
        binders.extend(f"({n} : {typ})" for n in b.names if n in needed)
    return tuple(binders) + tuple(f"({n} : {render_term(quantified[n])})" if quantified[n] is not None else f"({n})"
                                  for n in bound)


def _mentions_of(term) -> set[str]:
    return {ident_root(t.text) for t in code_tokens(render_term(term)) if t.kind == IDENT}


def _quantifier_type(decl: Declaration, name: str):
    """The type every quantifier of ``decl`` binding ``name`` gives it, when they agree and it mentions no bound
    variable (the header's may be mentioned: they are parameters before it); else ``None`` — the parameter is then
    ``(n)`` and Lean infers its type from the atom."""
    types = {render_term(b.type) if b.type is not None else None: b.type
             for t in [decl.type, *(b.type for b in decl.binders)] if t is not None
             for node in walk(t) if isinstance(node, Quant) for b in node.binders if name in b.names}
    if len(types) != 1 or next(iter(types)) is None:
        return None
    typ = next(iter(types.values()))
    return None if _mentions_of(typ) & inner_names(decl) else typ


@dataclass
class PrintedAtom:
    text: str  # the side's block
    name: str  # the full name of its `stmt`
    body: str  # the printed atom (for the lemma filter)
    arity: int
    binders: tuple[str, ...] = ()  # as printed
    scope: Scope | None = None  # the side's file context, for printing its subterms (``ac``)
    levels: str = ""  # `.{u_1}` when a binder is universe-polymorphic

    @property
    def explicit(self) -> bool:
        return all(b.startswith("(") for b in self.binders)


def printed_atom(atom: str, binders: tuple[str, ...], context: str, namespace: str) -> PrintedAtom:
    """``abbrev stmt <binders> := <atom>`` in the side's context; a `Type*` binder makes it universe-polymorphic
    (``levels``: every use names them, ``@stmt.{u_1} …``). ``arity`` counts every parameter, implicit and instance
    ones included."""
    ctx = read_context(context)
    scope = Scope(frozenset(ctx.opens))
    universes: list[str] = []
    printed: tuple[str, ...] = ()
    if binders:
        try:
            decl = parse_declaration(f"theorem _a {' '.join(binders)} : True")
        except ParseError as err:
            raise Untranslatable(f"binders `{' '.join(binders)}` ({str(err).splitlines()[0]})") from None
        printed = tuple(print_binder(b, scope, universes) if b.type is not None else f"({read_names(b.names[0])})"
                        for b in decl.binders)
    body = _print(atom, scope, universes)
    levels = f".{{{', '.join(universes)}}}" if universes else ""
    stmt = LeanStatement(printed, body, (), ctx)
    text, name = scoped_block(namespace, stmt, " ".join([f"abbrev stmt{levels}", *printed, f":= {body}"]))
    return PrintedAtom(text, name, body, len(binders), printed, scope, levels)


def _mentions(text: str, key: str) -> bool:
    """Whether printed ``text`` names constant ``key`` — in full, by its last component (dot notation, an opened
    namespace). A loose filter: it only decides which lemmas are tried."""
    last = key.rsplit(".", 1)[-1]
    for t in code_tokens(text):
        if t.kind == IDENT and (t.text == key or t.text.endswith("." + last) or t.text == last):
            return True
    return False


def candidate_lemmas(reference: str, candidate: str, table: Sequence[Lemma] | None = None) -> list[Lemma]:
    """The lemmas whose key constants the two printed atoms mention, in table order."""
    text = reference + " " + candidate
    return [row for row in (lemma_table() if table is None else table)
            if row.key_constants and all(_mentions(text, k) for k in row.key_constants)]


def might_apply(reference: str, candidate: str, reference_context: str = "", candidate_context: str = "") -> bool:
    """Whether some table lemma's key constants are named by the two atoms as printed in their contexts, or the
    two are one sum or product up to order and grouping (``ac``) — Python only: which pairs are worth asking Lean
    about."""
    if ac_equal(reference, candidate):
        return True
    try:
        a = _print(reference, Scope(frozenset(read_context(reference_context).opens)))
        b = _print(candidate, Scope(frozenset(read_context(candidate_context).opens)))
    except Untranslatable:
        return False
    return bool(candidate_lemmas(a, b))


def proofs(row: Lemma) -> list[tuple[str, str]]:
    """(label, term) for using ``row`` left to right and right to left."""
    term = f"propext ({row.name} ..)" if row.kind == "iff" else f"({row.name} ..)"
    return [(row.name, term), (f"{row.name}.symm", f"Eq.symm ({term})")]


@dataclass
class _Job:
    query: AtomPairQuery
    sides: list[int] = field(default_factory=list)  # block indices of the two sides
    attempts: list[tuple[int, str, str]] = field(default_factory=list)  # (block index, label, term)


def decide_atom_pairs(queries: Sequence[AtomPairQuery], lean: LeanExecutable, *, cache_root: Path | None = None,
                      timeout_s: float = BATCH_TIMEOUT_S) -> list[AtomDecision]:
    """One ``AtomDecision`` per query, in order; one Lean process for all of them."""
    out: dict[int, AtomDecision] = {}
    blocks: list[tuple[int, str]] = []
    jobs: dict[int, _Job] = {}
    for i, q in enumerate(queries):
        try:
            ref = printed_atom(q.reference, q.binders, q.reference_context, f"AQ{i}.R")
            cand = printed_atom(q.candidate, q.binders, q.candidate_context, f"AQ{i}.C")
        except (Untranslatable, ParseError) as err:
            out[i] = AtomDecision(q.key, "unsupported", reason=f"not printed for Lean: {str(err).splitlines()[0]}")
            continue
        if ref.levels != cand.levels:
            out[i] = AtomDecision(q.key, "unsupported", reason="the two atoms have different universes")
            continue
        job = jobs[i] = _Job(q)
        for side in (ref, cand):
            job.sides.append(len(blocks))
            blocks.append((len(blocks), side.text))
        vs = " ".join(f"v{k}" for k in range(ref.arity))
        head = f"∀ {vs}, " if vs else ""
        lam = f"fun {vs} => " if vs else ""
        goal = f"{head}Eq (@{ref.name}{ref.levels} {vs}) (@{cand.name}{cand.levels} {vs})".replace(" )", ")")
        attempts = [("", "rfl")] + [p for row in candidate_lemmas(ref.body, cand.body) for p in proofs(row)]
        if cand.explicit and not cand.levels:
            attempts += _ac_attempt(q, ref, cand, vs)
        for label, term in attempts:
            index = len(blocks)
            job.attempts.append((index, label, term))
            blocks.append((index, f"theorem AQ{i}.t{index}{ref.levels} : {goal} := {lam}{term}"))
    if blocks:
        result, errors = run_blocks(blocks, lean, cache_root=cache_root, timeout_s=timeout_s)
        for i, job in jobs.items():
            out[i] = _decision(job, result.status == "ok", result.detail, errors)
    return [out[i] for i in range(len(queries))]


def _ac_attempt(q: AtomPairQuery, ref: PrintedAtom, cand: PrintedAtom, vs: str) -> list[tuple[str, str]]:
    """The ``ac`` rewrite chain for the pair as (label, term) over ``vs`` (the chain is written over the atoms'
    own variable names, bound by a typed λ applied to ``vs``); none when the two are not one sum or product up
    to order and grouping, or a subterm is not printed."""
    def printer(scope: Scope):
        def show(node) -> str:
            universes: list[str] = []
            out = to_lean(node, scope, universes)
            if universes:
                raise Untranslatable("a universe-polymorphic subterm")
            return out
        return show
    try:
        found = ac_proof(q.reference, q.candidate, printer(ref.scope), printer(cand.scope))
    except (Untranslatable, OverflowError):
        return []
    if found is None:
        return []
    term, used = found
    if vs:
        term = f"((fun {' '.join(cand.binders)} => {term}) {vs})"
    return [(" ".join(used) + " (order and grouping)", term)]


def _decision(job: _Job, finished: bool, detail: str, errors: dict[int, str]) -> AtomDecision:
    key = job.query.key
    if not finished:
        return AtomDecision(key, "unsupported", reason=f"Lean did not finish: {detail}")
    for index in job.sides:
        if index in errors:
            return AtomDecision(key, "unsupported", reason=f"not elaborated: {errors[index].splitlines()[0]}")
    for index, label, term in job.attempts:
        if index not in errors:
            return AtomDecision(key, "lemma" if label else "definitional", label, term)
    first = errors.get(job.attempts[0][0], "") if job.attempts else ""
    return AtomDecision(key, "not_shown", reason=(first.splitlines() or ["no lemma of the table applies"])[0])
