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
to the reference's (``pyshadow.kernel.alpha``); a failed candidate is tried again in its flattest shape
(``pyshadow.kernel.reshape``) and then with the atoms the kernel tier cannot judge read as one (*undecided*,
``pyshadow.kernel.undecided``). Reports call this *skeleton SA-Pass* and never mix it with full SA-Pass (the score
layer marks these rows ``CandidateScore.skeleton``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

from .abstract import PRELUDE, PRELUDE_AXIOMS, Abstraction, Printer, Scope
from .definitions import normalize_declaration
from .alpha import _rename_binder, align_binders, canonical_binders, rename, rename_declaration  # noqa: F401
from .reshape import reshaped
from .search import ELIMINATORS, MAX_DEPTH, Context, Param, Prover, Rule
from .lemma_pairs import lemma_rewrites, lemma_upgrade, settle_atom_pairs, settlement_message
from .undecided import AtomPair, aligned_atom_pairs
from ..errors import PyshadowError
from ..lean.batch import LeanJob, run_jobs
from .check import block_spans
from . import explain as ex
from . import proof_terms as pt
from ..lean.toolchain import LeanExecutable
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
        return not self.passed and self.error is None and (bool(self.undecided) or self.lean == "rejected")

    def undecided_reason(self) -> str:
        """Why the verdict is undecided (one line)."""
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


def skeleton_score(pairs: Sequence[SkeletonPair], lean: LeanExecutable, *, n_jobs: int = -1,
                   cache_dir: Path | None = None, batch_size: int = 80, recheck: bool = True,
                   lean_checked: bool = True) -> dict[str, SkeletonVerdict]:
    """Build every pair's checks, run them in real Lean (one file per candidate), and read the verdicts; failed
    pairs get the undecided re-check (``_recheck_undecided``) unless ``recheck`` is off; then, unless
    ``lean_checked`` is off, Lean checks the terms of every pass and undecided verdict against the elaborated
    statements (``pyshadow.kernel.lean_check``): Lean disposes."""
    blocks: list[SkeletonBlock] = []
    verdicts: dict[str, SkeletonVerdict] = {}
    for n, pair in enumerate(pairs):
        if pair.candidate.type is None:
            verdicts[pair.key] = SkeletonVerdict(pair.key, [], False, {}, "the candidate has no stated type")
            continue
        blocks.append(skeleton_block(pair, f"C{n}"))
    # Several candidates share one Lean file (each in its own namespace; only generated constant names reach
    # Lean, never candidate text), so a large run starts few processes; a candidate's checks never span files.
    jobs, job_of = [], {}
    # At most `batch_size` candidates per file, but at least one file per Lean process when there are few.
    processes = n_jobs if n_jobs > 0 else (os.cpu_count() or 1)
    batch_size = max(1, min(batch_size, -(-len(blocks) // processes)))
    for start in range(0, len(blocks), batch_size):
        chunk = blocks[start : start + batch_size]
        text = PRELUDE + ELIMINATORS + "\n" + "\n".join(b.text for b in chunk)
        spans = block_spans(text)
        allowed = frozenset().union(*(b.axioms for b in chunk))
        key = f"skeleton-{start // batch_size}:" + ",".join(b.key for b in chunk)
        jobs.append(LeanJob(key=key, text=text, spans=spans, allowed_axioms=allowed))
        job_of.update({b.key: key for b in chunk})
    results = {r.key: r for r in run_jobs(jobs, lean, n_jobs=n_jobs, cache_dir=cache_dir)} if jobs else {}
    for b in blocks:
        r = results[job_of[b.key]]
        passed = {name: v for name, v in r.verdicts.items()}
        role_ok: dict[str, bool] = {}
        messages = dict(b.unbuilt)
        for name, role in b.checks.items():
            v = passed.get(name)
            role_ok[role] = bool(v and v.passed)
            if not role_ok[role]:
                messages[role] = v.reason if v else "no verdict"
        forward = [role_ok.get(f"forward:{i}", False) for i in range(1, b.n_forward + 1)]
        verdicts[b.key] = SkeletonVerdict(b.key, forward, role_ok.get("backward", False), messages)
    if recheck:
        run = {"n_jobs": n_jobs, "cache_dir": cache_dir, "batch_size": batch_size}
        flat = _retry_reshaped(pairs, verdicts, lean, **run)
        settled = _recheck_undecided(pairs, verdicts, lean, flat, **run)
        if lean_checked:
            _lean_disposes(pairs, verdicts, lean, {b.key: b.search for b in blocks}, flat, n_jobs)
            lemma_upgrade(pairs, verdicts, settled, lean, n_jobs)
    return verdicts


def _lean_disposes(pairs: Sequence[SkeletonPair], verdicts: dict[str, SkeletonVerdict], lean,
                   searches: dict, flat: dict[str, SkeletonPair], n_jobs: int) -> None:
    """Lean's check of the terms (``lean_check``) applied: a pass Lean rejects becomes undecided, an undecided
    verdict whose re-check terms Lean accepts (the atoms are definitionally equal as Lean elaborates them)
    becomes a pass; an unchecked one keeps the skeleton's verdict, marked so."""
    from .lean_check import ACCEPTED, REJECTED, lean_check

    items = []
    for pair in pairs:
        v = verdicts.get(pair.key)
        if v is None or v.error:
            continue
        if v.passed and searches.get(pair.key) is not None:
            items.append((pair, searches[pair.key]))
        elif v.undecided:
            source = pair if undecided_atom_pairs(pair) else flat.get(pair.key, pair)
            aliased = replace(source, aliases=undecided_aliases(source))
            items.append((aliased, skeleton_search(aliased)))
    for key, check in lean_check(items, lean, n_jobs=n_jobs).items():
        v = verdicts[key]
        v.lean, v.lean_reason = check.status, check.reason
        if not v.passed and check.status == ACCEPTED and check.read:
            v.lean, v.lean_reason = "unchecked", "accepted only against the read statements (canonical keys)"
        if v.passed and check.status == REJECTED:
            role = check.role
            if role.startswith("forward:"):
                v.forward[int(role.split(":")[1]) - 1] = False
            else:
                v.backward = False
            v.undecided_roles = [role]
            v.messages[role] = v.undecided_reason()
        elif not v.passed and v.undecided and check.status == ACCEPTED and not check.read:
            # Only the written statements: the read ones print atoms as canonical keys, which are the very
            # reading an upgrade must not rest on.
            v.forward, v.backward = [True] * len(v.forward), True
            v.undecided, v.undecided_roles, v.messages = [], [], {}


def _retry_reshaped(pairs: Sequence[SkeletonPair], verdicts: dict[str, SkeletonVerdict], lean, **run
                    ) -> dict[str, SkeletonPair]:
    """Failed pairs whose candidate has a flatter shape (``reshape.reshaped``: the conclusion's ∀/→ as binders,
    conjunctive hypotheses split) are run again with it; a check either run proves passes. Returns those pairs
    with the candidate reshaped, by key (the undecided re-check's second choice)."""
    again = []
    for pair in pairs:
        v = verdicts.get(pair.key)
        flat = reshaped(pair.candidate) if v is not None and not v.error and not v.passed else pair.candidate
        if flat != pair.candidate:
            again.append(replace(pair, candidate=flat))
    out = {pair.key: pair for pair in again}
    if again:
        second = skeleton_score(again, lean, recheck=False, **run)
        for pair in again:
            v, w = verdicts[pair.key], second.get(pair.key)
            if w is None or w.error or len(w.forward) != len(v.forward):
                continue
            v.forward = [a or b for a, b in zip(v.forward, w.forward)]
            v.backward = v.backward or w.backward
            passed = {f"forward:{i}" for i, ok in enumerate(v.forward, start=1) if ok} | ({"backward"} if v.backward else set())
            v.messages = {r: (w.messages.get(r) or m) for r, m in v.messages.items() if r not in passed}
    return out


def undecided_atom_pairs(pair: SkeletonPair) -> list[AtomPair]:
    """The aligned atom pairs of ``pair`` the kernel tier cannot judge (``undecided.aligned_atom_pairs``)."""
    ref = normalize_declaration(pair.reference, pair.reference_context)
    cand = normalize_declaration(pair.candidate, pair.candidate_context)
    return aligned_atom_pairs(ref, cand)


def undecided_aliases(pair: SkeletonPair) -> tuple[tuple[str, str], ...]:
    """``SkeletonPair.aliases`` for the undecided re-check: each candidate atom read as the reference's atom over
    the candidate atom's own variables (``AtomPair.read_as``)."""
    return tuple((p.read_as, p.candidate) for p in undecided_atom_pairs(pair))


def _recheck_undecided(pairs: Sequence[SkeletonPair], verdicts: dict[str, SkeletonVerdict], lean,
                       flat: dict[str, SkeletonPair] | None = None, **run) -> dict:
    """Failed pairs whose aligned atoms differ only where the kernel tier cannot judge (``undecided.py``) — or at a
    relation Lean proves equal by a table lemma (``lemma_pairs.lemma_rewrites``) — are run again with those atoms
    read as one; where that passes, the verdict becomes *undecided*, naming the pairs, and the checks that passed
    only so are listed in ``undecided_roles``. Returns, by key, the pair re-checked and Lean's answer on each of its
    atom pairs (``lemma_pairs.AtomSettlement``), for ``lemma_pairs.lemma_upgrade``."""
    again: list[SkeletonPair] = []
    shown: dict[str, list[tuple[str, str]]] = {}
    found: dict[str, list[AtomPair]] = {}
    unaligned: dict[str, SkeletonPair] = {}
    presettled: dict = {}  # key -> the lemma_pairs.AtomSettlement rows Lean already proved
    for pair in pairs:
        v = verdicts.get(pair.key)
        if v is None or v.error or v.passed:
            continue
        atom_pairs = undecided_atom_pairs(pair)
        if not atom_pairs and flat and pair.key in flat:  # the reshaped candidate's atoms may align instead
            pair = flat[pair.key]
            atom_pairs = undecided_atom_pairs(pair)
        if atom_pairs:
            again.append(replace(pair, aliases=tuple((p.read_as, p.candidate) for p in atom_pairs)))
            shown[pair.key] = [(p.reference, p.candidate) for p in atom_pairs]
            found[pair.key] = atom_pairs
        else:  # a difference at a relation or connective: a table lemma may restate it (lemma_pairs.lemma_rewrites)
            unaligned[pair.key] = pair
    try:
        rewritten = lemma_rewrites([(k, normalize_declaration(p.reference, p.reference_context),
                                     normalize_declaration(p.candidate, p.candidate_context), p.reference_context,
                                     p.candidate_context) for k, p in unaligned.items()], lean) if unaligned else {}
    except PyshadowError:
        rewritten = {}
    for key, (cand2, rows) in rewritten.items():
        again.append(replace(unaligned[key], candidate=cand2))
        shown[key] = [(r.pair.reference, r.pair.candidate) for r in rows]
        presettled[key] = rows
    if not again:
        return {}
    second = skeleton_score(again, lean, recheck=False, **run)
    asked, out = [], {}
    for pair in again:
        w = second.get(pair.key)
        if w is None or not w.passed:
            continue
        v = verdicts[pair.key]
        v.undecided = shown[pair.key]  # as each statement writes its atom
        v.undecided_roles = [f"forward:{i}" for i, ok in enumerate(v.forward, start=1) if not ok]
        if not v.backward:
            v.undecided_roles.append("backward")
        if pair.key in presettled:
            v.messages["atom lemmas"] = settlement_message(presettled[pair.key])
            out[pair.key] = (unaligned[pair.key], presettled[pair.key])
            continue
        asked.append((pair.key, normalize_declaration(pair.candidate, pair.candidate_context),
                      pair.candidate_context, pair.reference_context, found[pair.key]))
    try:  # which lemma settles which pair, for the report (lemma_pairs.settle_atom_pairs): never a pass by itself
        settled = settle_atom_pairs(asked, lean) if asked else {}
    except PyshadowError as err:
        settled, reason = {}, str(err).splitlines()[0]
        for key, *_ in asked:
            verdicts[key].messages["atom lemmas"] = f"not asked: {reason}"
    for key, rows in settled.items():
        verdicts[key].messages["atom lemmas"] = settlement_message(rows)
        out[key] = (next(p for p in again if p.key == key), rows)
    return out


__all__ = ["SkeletonPair", "SkeletonVerdict", "SkeletonSearch", "skeleton_score", "skeleton_block", "skeleton_search",
           "rename", "canonical_binders", "render_term"]
