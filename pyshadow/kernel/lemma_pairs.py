"""Lean's answer on the atom pairs the kernel tier cannot judge: definitionally equal, equal by one table lemma.

``settle_atom_pairs`` asks Lean about each undecided atom pair (``pyshadow.kernel.undecided``) through
``pyshadow.elab.atom_lemmas``: the reference atom read over the candidate's variables against the candidate atom,
both over the candidate's header binders, each printed in its own file's context — definitionally equal, equal by
one lemma of the table (``pyshadow.elab.lemmas``), or not shown. The answer names the lemma for the report; it does
not make the verdict a pass (the atoms are elaborated alone, not in their statements).

``lemma_rewrites`` finds what the Python alignment leaves out: a subterm pair at the same place that differs at a
relation or a connective (``Even n`` against ``n % 2 = 0``, ``2 ∣ m`` against ``m % 2 = 0``) — kept only where a
table lemma's constants are named and Lean proves the pair equal; the candidate with that subterm written as the
reference's is what the skeleton is then run on (undecided at best, naming the lemma).

``replaced_candidates`` goes one step further where every pair is settled: Lean proves the candidate, as written,
equivalent to ``cand'`` — the candidate with each such subterm written as the reference's
(``pyshadow.elab.congruence``). ``lemma_upgrade`` then has ``pyshadow.kernel.lean_check`` check the skeleton's
terms for (reference, ``cand'``) against the elaborated statements: an undecided verdict passes only when Lean
proves both — candidate ⇔ ``cand'`` by congruence over the atom proofs, and the reference against ``cand'`` — and
the verdict names the lemmas (``messages["atom lemmas"]``, ``lean_reason``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from ..errors import PyshadowError
from ..elab.ac import ac_equal
from ..elab.atom_lemmas import AtomDecision, AtomPairQuery, atom_binders, decide_atom_pairs, might_apply
from ..elab.congruence import Congruence, CongruenceItem, Replacement, congruence
from ..syntax.ast import Atom, BinOp, Declaration, Let, Not, Quant, Rel, Term, is_proposition, walk
from ..syntax.parser import ParseError, parse_declaration
from ..syntax.render import render_term
from .alpha import rename
from .definitions import normalize_declaration
from .subterms import differing_subterms, rewritten
from .undecided import AtomPair, read_over


@dataclass(frozen=True)
class AtomSettlement:
    """What Lean said about one undecided atom pair (``decision`` is ``None`` when it was not asked, ``reason``)."""

    pair: AtomPair
    decision: AtomDecision | None
    reason: str = ""
    binders: tuple[str, ...] = ()  # the candidate's header binders the query typed the atoms' variables with

    def describe(self) -> str:
        what = f"`{self.pair.candidate}` as `{self.pair.read_as}`"
        if self.decision is None:
            return f"{what}: not asked ({self.reason})"
        if self.decision.equal:
            return f"{what}: equal {self.decision.by}"
        if self.decision.status == "unsupported":
            return f"{what}: no decision ({self.decision.reason})"
        return f"{what}: not shown ({self.decision.reason})"


def settle_atom_pairs(items: Sequence[tuple[str, Declaration, str, str, Sequence[AtomPair]]], lean
                      ) -> dict[str, list[AtomSettlement]]:
    """For each ``(key, candidate, candidate context, reference context, atom pairs)`` — the candidate as the
    skeleton reads it (normalised), whose header binders type the atoms' variables — Lean's answer per atom pair,
    by key; one Lean process for all of them."""
    out: dict[str, list[AtomSettlement]] = {}
    queries: list[AtomPairQuery] = []
    slots: list[tuple[str, int]] = []
    for key, cand, cand_ctx, ref_ctx, pairs in items:
        out[key] = []
        for p in [q for p in pairs for q in _finer(p, ref_ctx, cand_ctx)]:
            binders = atom_binders(cand, [p.read_as, p.candidate], cand_ctx)
            if isinstance(binders, str):
                out[key].append(AtomSettlement(p, None, binders))
                continue
            slots.append((key, len(out[key])))
            out[key].append(AtomSettlement(p, None, binders=binders))
            queries.append(AtomPairQuery(f"{key}#{len(queries)}", p.read_as, p.candidate, binders, ref_ctx, cand_ctx))
    if queries:
        for (key, i), decision in zip(slots, decide_atom_pairs(queries, lean)):
            out[key][i] = replace(out[key][i], decision=decision)
    return out


def _finer(pair: AtomPair, ref_ctx: str, cand_ctx: str) -> list[AtomPair]:
    """``pair`` as the several subterm pairs where its atoms differ, when a lemma (or order and grouping) applies
    to each (``subterms``: ``√(log 6 / log 2 + …)`` against ``√(logb 2 6 + …)``); else ``pair`` itself."""
    inner = differing_subterms(pair.read_as, pair.candidate)
    if inner and all(might_apply(p, q, ref_ctx, cand_ctx) for p, q in inner):
        return [AtomPair(p, q, p) for p, q in inner]
    return [pair]


def settlement_message(settled: Sequence[AtomSettlement]) -> str:
    """One line for a verdict's messages: how Lean settled each atom pair, alone (no pass by itself)."""
    return "; ".join(s.describe() for s in settled) + " (Lean, each atom alone: no pass by itself)"


def replaced_candidates(items: Sequence[tuple[str, Declaration, Declaration, str, Sequence[AtomSettlement]]], lean
                        ) -> dict[str, tuple[Declaration, Congruence]]:
    """For each ``(key, candidate as written, candidate as read, candidate context, settlements)`` whose every atom
    pair Lean proved equal: ``cand'`` and Lean's congruence answer for candidate ⇔ ``cand'``, by key.

    The settlements' atoms are the read candidate's (``normalize_declaration``), so ``cand'`` and the holed copy
    are built from it; the congruence is stated with the candidate *as written*, so the kernel also checks that
    the reading is the written statement up to unfolding (a reading that is not — a substituted variable — makes
    it fail). The replacement is read in the candidate's context, so each pair is asked again there first (one Lean
    process), then the congruences (one more)."""
    asked: list[tuple[str, Declaration, Declaration, str, list[AtomPairQuery]]] = []
    queries: list[AtomPairQuery] = []
    for key, written, read, ctx, settled in items:
        if not settled or not all(s.decision is not None and s.decision.equal for s in settled):
            continue
        own = [_in_candidate_context(s, ctx, f"{key}#{k}") for k, s in enumerate(settled)]
        asked.append((key, written, read, ctx, own))
        queries.extend(own)
    if not queries:
        return {}
    answers = {d.key: d for d in decide_atom_pairs(queries, lean)}
    built: list[tuple[CongruenceItem, Declaration]] = []
    for key, written, read, ctx, own in asked:
        if not all(answers[q.key].equal for q in own):
            continue
        reps = tuple(Replacement(q, answers[q.key].proof, f"pyshadowA{k}") for k, q in enumerate(own))
        holed = _with_terms(read, {q.candidate: f"({r.hole} {' '.join(_names(q.binders))})".replace(" )", ")")
                                   for q, r in zip(own, reps)})
        cand2 = _with_terms(read, {q.candidate: q.reference for q in own})
        if holed is None or cand2 is None:
            continue
        built.append((CongruenceItem(key, written, holed, cand2, ctx, reps), cand2))
    results = congruence([item for item, _ in built], lean) if built else []
    return {item.key: (cand2, res) for (item, cand2), res in zip(built, results)}


def _in_candidate_context(settled: AtomSettlement, context: str, key: str) -> AtomPairQuery:
    """The settled pair asked again with the replacement read in the candidate's ``context``."""
    p = settled.pair
    return AtomPairQuery(key, p.read_as, p.candidate, settled.binders, context, context)


def _names(binders: Sequence[str]) -> list[str]:
    """The explicit binders' names, which a hole is applied to (implicit and instance arguments are Lean's)."""
    return [b.strip("()").split(":", 1)[0].strip() for b in binders if b.startswith("(")]


def _with_terms(decl: Declaration, texts: dict[str, str]) -> Declaration | None:
    """``decl`` with every subterm whose text is a key of ``texts`` written as the mapped text (read as a term,
    as the parser reads a statement); ``None`` when one key is no subterm of ``decl`` or a text does not parse."""
    seen: set[str] = set()
    try:
        mapping = {k: parse_declaration(f"theorem _r : {v}").type for k, v in texts.items()}
    except ParseError:
        return None

    def term(t: Term) -> Term:
        text = render_term(t)
        if text in mapping:
            seen.add(text)
            return mapping[text]
        if isinstance(t, Atom):  # a subterm inside the atom (``subterms.differing_subterms``)
            inside = rewritten(text, {k: texts[k] for k in mapping})
            if inside is not None:
                try:
                    new = parse_declaration(f"theorem _r : {inside[0]}").type
                except ParseError:
                    return t
                seen.update(inside[1])
                return new
            return t
        if isinstance(t, Not):
            return Not(term(t.arg))
        if isinstance(t, (BinOp, Rel)):
            return replace(t, left=term(t.left), right=term(t.right))
        if isinstance(t, Quant):
            return Quant(t.kind, tuple(replace(b, type=term(b.type) if b.type is not None else None,
                                               bound=(b.bound[0], term(b.bound[1])) if b.bound else None)
                                       for b in t.binders), term(t.body))
        if isinstance(t, Let):
            return replace(t, value=term(t.value), type=term(t.type) if t.type is not None else None,
                           body=term(t.body))
        return t

    binders = []
    taken = set(decl.variables()) | {n for b in decl.binders for n in b.names}
    for k, b in enumerate(decl.binders):
        new = term(b.type) if b.type is not None else None
        if b.is_instance and new is not None and new != b.type:  # no longer a class, perhaps: an explicit binder
            # a hypothesis-style name (`syntax.ast.is_proposition` reads an opaque type under it as a hypothesis)
            fresh = next(f"h_inst{j}" for j in range(k, k + len(taken) + 1) if f"h_inst{j}" not in taken)
            b = replace(b, bracket="(", names=b.names or (fresh,))
        binders.append(replace(b, type=new))
    out = replace(decl, binders=tuple(binders), type=term(decl.type) if decl.type is not None else None)
    return out if seen == set(mapping) else None


def lemma_rewrites(items: Sequence[tuple[str, Declaration, Declaration, str, str]], lean
                   ) -> dict[str, tuple[Declaration, list[AtomSettlement]]]:
    """For each ``(key, reference, candidate, reference context, candidate context)`` (both as the skeleton reads
    them): the subterm pairs at the same place that differ and name a table lemma's constants, asked of Lean (one
    process); where Lean proves every such pair of a candidate equal, the candidate with those subterms written as
    the reference's, and the settlements, by key."""
    found: dict[str, tuple[Declaration, str, list[AtomPair]]] = {}
    for key, ref, cand, ref_ctx, cand_ctx in items:
        raw: list[tuple[Term, Term]] = []
        if ref.type is not None and cand.type is not None:
            _differing(ref.type, cand.type, raw)
        ref_scope, cand_scope = frozenset(ref.variables()), frozenset(cand.variables())
        raw.extend(_hypothesis_pairs(ref, cand, ref_scope, cand_scope))
        pairs = []
        for a, b in raw:
            ta, tb = render_term(a), render_term(b)
            read_as = read_over(Atom(ta), ref_scope, Atom(tb), cand_scope)
            if read_as is None:
                continue
            # the subterms where two atoms differ, when a lemma (or order and grouping) applies to each; else the
            # whole pair (two atoms that differ at their head are one such subterm pair)
            inner = differing_subterms(read_as, tb) if isinstance(a, Atom) and isinstance(b, Atom) else None
            if inner and all(might_apply(p, q, ref_ctx, cand_ctx) for p, q in inner):
                pairs.extend(AtomPair(p, q, p) for p, q in inner)
            elif might_apply(read_as, tb, ref_ctx, cand_ctx):
                pairs.append(AtomPair(ta, tb, read_as))
        if pairs:
            found[key] = (cand, cand_ctx, list(dict.fromkeys(pairs)))
    if not found:
        return {}
    refs = {key: ref_ctx for key, _, _, ref_ctx, _ in items}
    settled = settle_atom_pairs([(k, cand, ctx, refs[k], ps) for k, (cand, ctx, ps) in found.items()], lean)
    out = {}
    for key, rows in settled.items():
        if rows and all(r.decision is not None and r.decision.equal for r in rows):
            cand2 = _with_terms(found[key][0], {r.pair.candidate: r.pair.read_as for r in rows})
            if cand2 is not None:
                out[key] = (cand2, rows)
    return out


def _hypotheses(decl: Declaration) -> list[Term]:
    """The header hypotheses, each conjunction split into its conjuncts (``h : p ∧ q`` and ``hp : p`` ``hq : q`` state
    the same hypotheses; the skeleton treats them alike)."""
    out: list[Term] = []
    for b in decl.binders:
        # an instance binder is a hypothesis too (`[Fact p.Prime]`; the skeleton reads it so): Lean says which
        if b.type is None or not (b.is_instance or is_proposition(b)):
            continue
        stack = [b.type] * max(1, len(b.names))
        while stack:
            t = stack.pop(0)
            if isinstance(t, BinOp) and t.op == "∧":
                stack[:0] = [t.left, t.right]
            else:
                out.append(t)
    return out


def _hypothesis_pairs(ref: Declaration, cand: Declaration, ref_scope, cand_scope) -> list[tuple[Term, Term]]:
    """Hypothesis pairs to compare (conjunctions split): the hypotheses both state alike are set aside, then the
    rest position by position when both have as many left; else each candidate hypothesis with the one reference
    hypothesis it equals up to order and grouping (``ac``)."""
    def read(a: Term, b: Term) -> str | None:
        return read_over(Atom(render_term(a)), ref_scope, Atom(render_term(b)), cand_scope)

    rest_r, rest_c = list(_hypotheses(ref)), []
    for b in _hypotheses(cand):
        same = next((a for a in rest_r if read(a, b) == render_term(b)), None)
        if same is None:
            rest_c.append(b)
        else:
            rest_r.remove(same)
    out: list[tuple[Term, Term]] = []
    if len(rest_r) == len(rest_c):
        for a, b in zip(rest_r, rest_c):
            _differing(a, b, out)
        return out
    for b in rest_c:
        tb = render_term(b)
        found = [a for a in rest_r if (ra := read(a, b)) is not None and ac_equal(ra, tb)]
        if len(found) == 1:
            out.append((found[0], b))
    return out


def _differing(a: Term, b: Term, out: list[tuple[Term, Term]]) -> None:
    """The outermost subterm pairs where ``a`` and ``b`` differ in kind, relation, connective or atom text."""
    if a == b:
        return
    same_kind = type(a) is type(b)
    if same_kind and isinstance(a, Not):
        _differing(a.arg, b.arg, out)
    elif same_kind and isinstance(a, (BinOp, Rel)) and a.op == b.op:
        _differing(a.left, b.left, out)
        _differing(a.right, b.right, out)
    elif same_kind and isinstance(a, Quant) and a.kind == b.kind:
        if len(a.binders) == len(b.binders):
            _differing(_bound_as(a, b), b.body, out)
        else:  # `∀ (s) (h : P s), Q` is `∀ s, P s → Q`
            a2, b2 = _as_arrows(a), _as_arrows(b)
            if a2 != a or b2 != b:
                _differing(a2, b2, out)
    elif not isinstance(a, (Quant, Let)) and not isinstance(b, (Quant, Let)):
        out.append((a, b))


def _as_arrows(q: Quant) -> Term:
    """A ∀ whose binders after the first hypothesis binder are written as implications: ``∀ (s : Set X)
    (hs : s.Infinite), Q`` as ``∀ (s : Set X), s.Infinite → Q`` (one Π-type: a hypothesis binder's name is not
    part of the proposition); ``q`` itself when no binder after the first is a hypothesis."""
    if q.kind != "∀":
        return q
    for k, b in enumerate(q.binders):
        if k and b.type is not None and len(b.names) == 1 and b.bound is None and is_proposition(b):
            rest: Term = Quant("∀", q.binders[k + 1:], q.body) if q.binders[k + 1:] else q.body
            return Quant("∀", q.binders[:k], BinOp("→", b.type, _as_arrows(rest) if isinstance(rest, Quant)
                                                   else rest))
    return q


def _bound_as(a: Quant, b: Quant) -> Term:
    """``a``'s body with its bound names renamed to ``b``'s, position by position (the atoms under the two
    quantifiers are then over the same names, whatever each statement calls them); as written when the names do
    not correspond one to one or a new name is already free in the body."""
    names_a = [n for x in a.binders for n in x.names]
    names_b = [n for x in b.binders for n in x.names]
    mapping = {x: y for x, y in zip(names_a, names_b) if x != y}
    if len(names_a) != len(names_b) or not mapping or len(set(names_b)) != len(names_b):
        return a.body
    free = {i for t in [a.body] for node in walk(t) if isinstance(node, Atom) for i in node.idents}
    if free & set(mapping.values()):
        return a.body
    return rename(a.body, mapping)


def lemma_upgrade(pairs, verdicts: dict, settled: dict, lean, n_jobs: int = -1) -> None:
    """Undecided verdicts (``scoring._recheck_undecided``'s ``settled``: key → the pair re-checked and its atom
    pairs' settlements) whose every atom pair Lean proved equal pass when Lean proves the candidate ⇔ ``cand'``
    and accepts the skeleton's terms for (reference, ``cand'``); the others keep their verdict, with why."""
    from .lean_check import ACCEPTED, lean_check
    from .reading_check import plain
    from .skeleton import skeleton_search

    originals = {p.key: p for p in pairs}
    todo = {}
    for key, (used, rows) in settled.items():
        v = verdicts.get(key)
        original = originals.get(key)
        if v is None or v.passed or not v.undecided or original is None:
            continue
        if used.candidate != original.candidate:  # a reshaped reading of the candidate: not the written one
            continue
        if rows and all(r.decision is not None and r.decision.equal for r in rows):
            todo[key] = (original, rows)
    if not todo:
        return
    try:
        built = replaced_candidates([(k, p.candidate, normalize_declaration(p.candidate, p.candidate_context),
                                      p.candidate_context, rows) for k, (p, rows) in todo.items()], lean)
        items, why = [], {}
        for key, (cand2, proved) in built.items():
            if not proved.proved:
                why[key] = f"candidate ⇔ cand' not proved: {proved.reason}"
                continue
            # cand2 is read (`x✝1` bound names): as the text Lean elaborates, so the search reads it once more alike
            pair2 = replace(todo[key][0], candidate=plain(cand2), aliases=())
            items.append((pair2, skeleton_search(pair2)))
        checks = lean_check(items, lean, n_jobs=n_jobs) if items else {}
    except PyshadowError as err:
        for key in todo:
            verdicts[key].messages["atom lemmas"] += f"; no upgrade: {str(err).splitlines()[0]}"
        return
    for key in todo:
        v = verdicts[key]
        check = checks.get(key)
        by = "; ".join(f"`{r.pair.candidate}` as `{r.pair.read_as}` {r.decision.by}" for r in todo[key][1])
        # as every upgrade (``scoring._lean_disposes``): accepted against the written statements, never the read
        if check is not None and check.status == ACCEPTED and not check.read:
            v.forward, v.backward = [True] * len(v.forward), True
            v.undecided, v.undecided_roles = [], []
            v.messages = {"atom lemmas": f"{by}; Lean proves the candidate ⇔ cand' (congruence) and accepts the "
                                         f"terms for the reference against cand'"}
            v.lean, v.lean_reason = ACCEPTED, f"through cand': {by}"
        else:
            reason = why.get(key) or (f"reference vs cand': {check.status}: {check.reason}" if check is not None
                                      else "cand' not built")
            v.messages["atom lemmas"] = v.messages.get("atom lemmas", by) + f"; no upgrade: {reason}"
