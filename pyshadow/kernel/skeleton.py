"""Skeleton SA-Pass: a candidate's *statement* checked against the reference's shadows by the kernel-tier Lean.

Without a full toolchain the only score available is this one: the candidate's statement (its proof is not
checked) is abstracted with the reference's atom map — the same ``Abstraction``, so equal atoms become equal
constants; atoms are normalised first (spacing, redundant outer parentheses, ``a > b`` as ``b < a``, ``≥`` as a
flipped ``≤``) — and real Lean checks, in one prelude file per candidate:

- forward, for each shadow Sᵢ of the reference: ``theorem fwd_i <reference binders> : Sᵢ := …`` using the
  candidate (an axiom ``cand``) and the reference's hypotheses;
- backward: ``theorem bwd <candidate binders> (hS_1 : ∀ …, S₁) … : <candidate conclusion> := …``.

The proof terms come from a small goal-directed search (``pyshadow.kernel.search.Prover``). The search only
proposes terms; **Lean decides**. A check the search cannot build a term for fails — conservative, and reported
with what it could not match (``pyshadow.kernel.explain``). Before the search the candidate's binders are renamed
to the reference's (``pyshadow.kernel.alpha``). This module builds one pair's checks and search; running them, the second tries and
Lean's check of the terms against the elaborated statements are ``pyshadow.kernel.scoring``. Reports call this *skeleton SA-Pass* and never mix it with full SA-Pass (the score
layer marks these rows ``CandidateScore.skeleton``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from .abstraction import Abstraction, Printer, Scope
from .prelude import PRELUDE_AXIOMS
from .definitions import normalize_declaration
from .alpha import _rename_binder, align_binders, canonical_binders, rename, rename_declaration  # noqa: F401
from .search import MAX_DEPTH, Context, Param, Prover, Rule
from . import explain as ex
from . import proof_terms as pt
from ..shadows.checkers import certificate_prefix, named_binders
from ..shadows.rules import CertLeaf, Decomposition, Shadow, decompose
from ..syntax import lexer as lx
from ..syntax.ast import Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term
from ..syntax.ast import declaration_names, is_proposition
from ..syntax.render import render_term



@dataclass(frozen=True)
class SkeletonPair:
    key: str
    reference: Declaration
    candidate: Declaration
    mathlib: bool = True
    # The `open`/`namespace` lines each statement is written under (names resolve like Lean's; see atoms.py).
    reference_context: str = ""
    candidate_context: str = ""
    # (reference atom, candidate atom) pairs to read as one atom: the undecided re-check (``undecided.py``).
    aliases: tuple[tuple[str, str], ...] = ()
    # The reference as one shadow (its identity), not decomposed: forward:1 is then exactly "candidate ⇒ reference"
    # (``score.verification`` checks that a target implies an expert shadow so).
    whole: bool = False


@dataclass
class SkeletonVerdict:
    key: str
    forward: list[bool]
    backward: bool
    messages: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    # Atom pairs (reference text, candidate text) the kernel tier cannot judge: set when the structures match but
    # these atoms differ (the check is then *undecided*, not failed).
    undecided: list[tuple[str, str]] = field(default_factory=list)
    undecided_roles: list[str] = field(default_factory=list)  # checks that pass once those atoms are one
    # Lean's check of the search's terms against the elaborated statements (``lean_check``): accepted | rejected |
    # unchecked ("" when not asked), and its reason. A rejected pass is undecided; an accepted undecided a pass.
    lean: str = ""
    lean_reason: str = ""

    @property
    def passed(self) -> bool:
        return self.error is None and all(self.forward) and self.backward

    @property
    def is_undecided(self) -> bool:
        return not self.passed and self.error is None and (
            bool(self.undecided) or self.lean == "rejected" or (self.lean == "unchecked" and bool(self.undecided_roles)))

    def undecided_reason(self) -> str:
        """Why the verdict is undecided (one line)."""
        if self.lean == "unchecked":
            return f"undecided: the skeleton passes, but Lean did not check it (strict scoring): {self.lean_reason}"
        if self.lean == "rejected":
            return ("undecided: Lean rejects the skeleton's proof term against the statements as it elaborates them "
                    f"({self.lean_reason})")
        pairs = "; ".join(f"`{a}` vs `{b}`" for a, b in self.undecided)
        return f"undecided: the kernel tier cannot judge the atom pairs {pairs}"

    def to_dict(self) -> dict:
        return {"key": self.key, "forward": self.forward, "backward": self.backward, "messages": self.messages,
                "error": self.error, "undecided": [list(p) for p in self.undecided],
                "undecided_roles": list(self.undecided_roles), "lean": self.lean, "lean_reason": self.lean_reason}


# ---------------------------------------------------------------------------------------------------------------
# Renaming variables inside trees (atoms are text: rename their identifier tokens)

def align_auxiliary_names(candidate: Declaration, candidate_src: str, reference_src: str) -> Declaration:
    """The candidate's statement with its auxiliary declarations renamed to the reference's names.

    Uses the rule-based matching of ``pyshadow.syntax.scanner.rename_map`` (exact, namespaced, primed, same
    signature), so a candidate that calls its helper ``twice`` where the reference says ``double`` is compared on
    the same atoms.
    """
    from ..syntax.scanner import declaration_headers, rename_map

    pairs = rename_map(declaration_headers(candidate_src), declaration_headers(reference_src))
    mapping = {}
    for target, cand in pairs.items():
        t_short, c_short = target.rsplit(".", 1)[-1], cand.rsplit(".", 1)[-1]
        if t_short != c_short:
            mapping[c_short] = t_short
    if not mapping:
        return candidate
    binders = tuple(_rename_binder(b, mapping, types=True) for b in candidate.binders)
    return replace(candidate, binders=binders,
                   type=rename(candidate.type, mapping, types=True) if candidate.type else None)


# ---------------------------------------------------------------------------------------------------------------
# Building the checks


@dataclass
class SkeletonBlock:
    key: str
    namespace: str
    text: str
    checks: dict[str, str]  # full theorem name → "forward:i" | "backward"
    axioms: frozenset[str]
    n_forward: int
    unbuilt: dict[str, str]  # role → why no proof term was found
    search: "SkeletonSearch | None" = None  # the search result the checks print


@dataclass(frozen=True)
class SkeletonSearch:
    """One search's result for a (reference, candidate) pair: the abstract proof term of each forward shadow and of
    the backward check (``None`` where the search found nothing), with what is needed to print them again —
    abstractly (``pyshadow.kernel.proof_terms.print_abstract``, exactly the text ``skeleton_block`` gives Lean) or
    with the real atoms and names (``pyshadow.score.skeleton_terms``). The binders are named as the checks name
    them (``named_binders``); ``reference``/``candidate`` are what the search read (atoms as canonical keys),
    ``written`` the same two declarations as written (the real Lean text of their atoms)."""

    reference: Declaration
    candidate: Declaration
    shadows: tuple[Shadow, ...]
    abstraction: Abstraction
    candidate_axiom: str
    certificate_prefix: str
    forward: tuple[str | None, ...]
    backward: str | None
    mathlib: bool = True
    written: tuple[Declaration, Declaration] | None = None

    def classify(self, name: str) -> str:
        """The kind of a name in this search's terms (``pyshadow.kernel.proof_terms``)."""
        if name == self.candidate_axiom:
            return pt.CANDIDATE
        if name.startswith(self.certificate_prefix) and name[len(self.certificate_prefix):].isdigit():
            return pt.CERTIFICATE
        if name in PRELUDE_AXIOMS:
            return pt.LEMMA
        if name in self.abstraction.axioms:
            return pt.CONSTANT
        return pt.LOCAL

    def terms(self):
        """The structured terms: ``(forward per shadow, backward)``, ``None`` where nothing was found."""

        def parse(text: str | None) -> pt.ProofTerm | None:
            return pt.parse_proof_term(text, self.classify) if text is not None else None

        return tuple(parse(t) for t in self.forward), parse(self.backward)


def skeleton_search(pair: SkeletonPair) -> SkeletonSearch:
    """The skeleton search for one pair, without Lean (the same search ``skeleton_block`` states its checks with)."""
    block = skeleton_block(pair, "C0")
    assert block.search is not None
    return block.search


def skeleton_block(pair: SkeletonPair, namespace: str) -> SkeletonBlock:
    # Atoms are compared as terms: each side's atoms become canonical keys, names resolved under its own opens.
    reference = normalize_declaration(pair.reference, pair.reference_context)
    candidate = normalize_declaration(pair.candidate, pair.candidate_context)
    # The candidate's binders renamed to the reference binders they correspond to (by kind and type, not name):
    # nothing below may depend on what the candidate calls its variables (``pyshadow.kernel.alpha``).
    aligned = align_binders(reference, candidate)
    if pair.aliases:
        candidate = _read_as(candidate, {c: r for r, c in pair.aliases})
    candidate = rename_declaration(candidate, aligned)
    ref = _closed(replace(reference, binders=named_binders(reference.binders)))
    cand = _closed(replace(candidate, binders=named_binders(candidate.binders)))
    dec = _identity(ref) if pair.whole else decompose(ref, mathlib=pair.mathlib)
    taken = declaration_names(ref) | declaration_names(cand)
    a = Abstraction(taken)
    cand_axiom = a.fresh("cand")  # the candidate's statement as an axiom, named apart from every statement name
    hyp = certificate_prefix(taken, len(dec.shadows))
    pr = Printer(a)
    prover = Prover(pr)
    ref_groups, ref_scope = pr.binders(ref.binders, Scope())
    cand_groups, cand_scope = pr.binders(cand.binders, Scope())
    ref_text, cand_text = " ".join(ref_groups), " ".join(cand_groups)
    cand_concl = pr.prop(cand.type, cand_scope)
    body = [f"axiom {cand_axiom} {cand_text} : {cand_concl}".replace("  ", " ")]
    checks: dict[str, str] = {}
    unbuilt: dict[str, str] = {}
    found: dict[str, str | None] = {}

    def theorem(name: str, header: str, prop: str, term: str | None, role: str) -> None:
        term = found[role] = pt.canonical_text(term) if term is not None else None
        if term is None:
            unbuilt[role] = NOT_FOUND
            return
        body.append(f"theorem {name} {header} :\n    {prop} :=\n  {term}".replace("  :", " :"))
        body.append(f"#print axioms {name}")
        checks[f"{namespace}.{name}"] = role

    # Forward: reference binders, its hypotheses as facts, the candidate as a rule.
    # The context is the same for every shadow (proving never changes it: intros work on copies), so build once.
    cand_rule = Rule(f"@{cand_axiom}", _binder_params(cand.binders, prover, Scope()), cand.type)
    ctx = forward_ctx = Context(ref_scope, [], [cand_rule])
    _hypotheses_as_facts(prover, ctx, ref.binders)
    prover.saturate(ctx, 0)
    for i, shadow in enumerate(dec.shadows, start=1):
        term = _using(prover.prove(shadow.statement, ctx), (cand_axiom,))
        theorem(f"fwd_{i}", ref_text, pr.prop(shadow.statement, ref_scope), term, f"forward:{i}")

    # Backward: candidate binders and hypotheses; each shadow as a rule over the reference's binders.
    quantified, _ = pr.binders(ref.binders, Scope(), implicit_variables=True)
    ctx = Context(cand_scope, [], [])
    hyps = []
    for i, shadow in enumerate(dec.shadows, start=1):
        prop = pr.prop(shadow.statement, ref_scope)
        hyps.append(f"({hyp}{i} : ∀ {' '.join(quantified)}, {prop})" if quantified else f"({hyp}{i} : {prop})")
        ctx.rules.append(Rule(f"@{hyp}{i}", _binder_params(ref.binders, prover, Scope()), shadow.statement))
    _hypotheses_as_facts(prover, ctx, cand.binders)
    prover.saturate(ctx, 0)
    term = _using(prover.prove(cand.type, ctx), tuple(f"{hyp}{i}" for i in range(1, len(dec.shadows) + 1)))
    theorem("bwd", " ".join([cand_text, *hyps]), cand_concl, term, "backward")
    if unbuilt:  # after every term is built: the diagnosis runs the search again, which must not change them
        _explain(unbuilt, prover, forward_ctx, ctx, ref, cand, dec, pair)

    text = "\n".join([f"namespace {namespace}", *a.declarations, *body, f"end {namespace}", ""])
    own = {*a.axioms, cand_axiom}
    allowed = PRELUDE_AXIOMS | own | {f"{namespace}.{n}" for n in own}
    search = SkeletonSearch(ref, cand, tuple(dec.shadows), a, cand_axiom, hyp,
                            tuple(found[f"forward:{i}"] for i in range(1, len(dec.shadows) + 1)),
                            found["backward"], pair.mathlib,
                            tuple(replace(d, binders=named_binders(d.binders))
                                  for d in (pair.reference, rename_declaration(pair.candidate, aligned))))
    return SkeletonBlock(pair.key, namespace, text, checks, frozenset(allowed), len(dec.shadows), unbuilt, search)


EXPLAIN_DEPTH = MAX_DEPTH - 2  # the depth a diagnosis' searches start at (``_explain``)
NOT_FOUND = "no proof term found by the skeleton search (the statements' shapes do not match)"


def _explain(unbuilt: dict[str, str], prover: Prover, forward_ctx: Context, backward_ctx: Context,
             ref: Declaration, cand: Declaration, dec: Decomposition, pair: SkeletonPair) -> None:
    """Replace each unbuilt role's message by what the search could not match (``pyshadow.kernel.explain``)."""
    written_ref = replace(pair.reference, binders=named_binders(pair.reference.binders))
    written_cand = replace(pair.candidate, binders=named_binders(pair.candidate.binders))

    def shadows(d: Declaration) -> list[Shadow]:
        try:
            return list(decompose(d, mathlib=pair.mathlib).shadows)
        except (ValueError, TypeError):
            return []

    ref_pieces = ex.shadow_pieces("reference", dec.shadows, shadows(written_ref))
    cand_pieces = ex.shadow_pieces("candidate", shadows(cand), shadows(written_cand))
    ref_hyps = ex.hypothesis_pieces("reference", ref, written_ref)
    cand_hyps = ex.hypothesis_pieces("candidate", cand, written_cand)
    granted: dict[str, Context] = {}

    def context(role: str, with_granted: bool) -> Context:
        base = forward_ctx if role == "forward" else backward_ctx
        if not with_granted:
            return base
        if role not in granted:
            ctx = granted[role] = Context(base.scope, list(base.facts), list(base.rules))
            if role == "forward":  # the candidate's hypotheses and conclusion, granted
                _hypotheses_as_facts(prover, ctx, cand.binders)
                prover.add_fact(ctx, "h_granted", cand.type)
            else:  # the reference's hypotheses, granted
                _hypotheses_as_facts(prover, ctx, ref.binders)
            prover.saturate(ctx, 0)
        return granted[role]

    def proves(role: str) -> Callable[[Term, bool], bool]:
        # A shallower search than the checks' (a diagnosis must stay cheap: ∨/∃ eliminations multiply).
        return lambda goal, with_granted: prover.prove(goal, context(role, with_granted), EXPLAIN_DEPTH) is not None

    for role in unbuilt:
        if role.startswith("forward:"):
            i = int(role.split(":")[1])
            why = ex.explain_forward(ref_pieces[i - 1], proves("forward"), cand_pieces, cand_hyps, ref_hyps)
        else:
            why = ex.explain_backward(cand_pieces, proves("backward"), ref_pieces, ref_hyps, cand_hyps)
        unbuilt[role] = f"no proof term found by the skeleton search: {why}"


def _identity(decl: Declaration) -> Decomposition:
    """``decl``'s conclusion as its only shadow (``SkeletonPair.whole``)."""
    assert decl.type is not None
    return Decomposition([Shadow("identity", (), decl.type, decl.type)], CertLeaf(0), True)


# The ∨/∃ steps the search learned for relating two statements (not in the search before them).
_CASE_STEPS = frozenset({"Or.elim", "Exists.elim", "Or.inl", "Or.inr", "Exists.intro"})


def _using(term: str | None, names: tuple[str, ...]) -> str | None:
    """``term``, unless it proves the check with ∨/∃ reasoning and without any of ``names`` (the candidate for a
    forward check, the shadows for the backward one): such a proof shows only that the statement is a tautology of
    logic, which says nothing about the candidate (the full tier, too, applies the candidate). Checks the search
    proved without them before it knew ∨/∃ (``A ∧ B → A`` shadows of a propositional reference) stay as they were."""
    if term is None or not names:
        return term
    words = {t.text.lstrip("@") for t in lx.code_tokens(term)}
    if words & set(names) or not words & _CASE_STEPS:
        return term
    return None


def _read_as(decl: Declaration, mapping: dict[str, str]) -> Declaration:
    """``decl`` with the atoms whose text is a key of ``mapping`` replaced by the mapped text (same mentions)."""

    def term(t: Term) -> Term:
        if isinstance(t, Atom):
            return replace(t, text=mapping[t.text]) if t.text in mapping else t
        if isinstance(t, Not):
            return Not(term(t.arg))
        if isinstance(t, (BinOp, Rel)):
            return replace(t, left=term(t.left), right=term(t.right))
        if isinstance(t, Quant):
            return Quant(t.kind, tuple(binder(b) for b in t.binders), term(t.body))
        if isinstance(t, Let):
            return replace(t, body=term(t.body))
        return t

    def binder(b: Binder) -> Binder:
        return replace(b, type=term(b.type) if b.type is not None else None,
                       bound=(b.bound[0], term(b.bound[1])) if b.bound is not None else None)

    return replace(decl, binders=tuple(binder(b) for b in decl.binders),
                   type=term(decl.type) if decl.type is not None else None)


def _closed(decl: Declaration) -> Declaration:
    """``decl`` with each atom's ``idents`` cut to the variables the declaration binds where the atom stands.

    Any other name an atom mentions (an auto-bound ``v``, a ``def``, a library constant) is, for this statement, a
    constant: the printer makes it part of the atom's abstract constant (``Scope.mentioned`` sees no variable of
    that name in the statement's own scope). The search, though, reads a rule of one statement — the candidate
    axiom, a shadow of the reference — in the *other* statement's scope, where a variable of that name may be bound;
    left in ``idents`` the name would be read as that variable, the search's view would differ from what Lean is
    given, and it would propose ill-typed terms (``-(-v) = v`` with an auto-bound ``v`` against a reference that
    binds ``{v : V}``)."""

    def term(t: Term, bound: frozenset[str]) -> Term:
        if isinstance(t, Atom):
            kept = tuple(i for i in t.idents if i in bound)
            return t if kept == t.idents else replace(t, idents=kept)
        if isinstance(t, Not):
            return Not(term(t.arg, bound))
        if isinstance(t, (BinOp, Rel)):
            return replace(t, left=term(t.left, bound), right=term(t.right, bound))
        if isinstance(t, Quant):
            binders = []
            for b in t.binders:
                binders.append(binder(b, bound))
                bound = bound | set(b.names)
            return Quant(t.kind, tuple(binders), term(t.body, bound))
        if isinstance(t, Let):
            own = bound | {n for b in t.binders for n in b.names}
            return replace(t, type=term(t.type, own) if t.type is not None else None, value=term(t.value, own),
                           body=term(t.body, bound | {t.name}))
        return t

    def binder(b: Binder, bound: frozenset[str]) -> Binder:
        return replace(b, type=term(b.type, bound) if b.type is not None else None,
                       bound=(b.bound[0], term(b.bound[1], bound)) if b.bound is not None else None)

    bound: frozenset[str] = frozenset()
    binders = []
    for b in decl.binders:
        binders.append(binder(b, bound))
        bound = bound | set(b.names)
    return replace(decl, binders=tuple(binders), type=term(decl.type, bound) if decl.type is not None else None)


def _hypotheses_as_facts(prover: Prover, ctx: Context, binders: tuple[Binder, ...]) -> None:
    """A declaration's hypotheses (proposition binders), as facts named by their binder names."""
    for b in binders:
        if _is_hypothesis(b):
            for n in b.names:
                prover.add_fact(ctx, n, b.type)


def _is_hypothesis(b: Binder) -> bool:
    """A declaration binder the search reads as a hypothesis: a proposition, or an instance ``[C x]``
    (``Printer._binder_type`` with ``header``)."""
    return b.type is not None and (b.is_instance or is_proposition(b))


def _binder_params(binders: tuple[Binder, ...], prover: Prover, scope: Scope) -> tuple[Param, ...]:
    params: list[Param] = []
    for b in binders:
        is_prop = _is_hypothesis(b)
        for n in b.names:
            if is_prop:
                params.append(Param("prop", n, b.type, instance=b.is_instance))
            else:
                params.append(Param("var", n, b.type, prover.type_key(b, scope)))
                scope = scope.bind(n, params[-1].type_key)
    return tuple(params)


__all__ = ["SkeletonPair", "SkeletonVerdict", "SkeletonSearch", "skeleton_block", "skeleton_search",
           "rename", "canonical_binders", "render_term"]
