"""The full tier's extra alternative: the skeleton search's term, de-abstracted, as one more ``exact`` line.

The printing itself (real names, lemmas, lets and binder kinds for the search's abstract terms) is
``pyshadow.kernel.concrete``, which the kernel tier also checks against the elaborated statements
(``pyshadow.kernel.lean_check``). This module adds what only the full tier needs: the undecided re-check's terms
for roles the plain search leaves empty (``skeleton_alternatives``), the ``first | …`` line that carries a term
(``exact_line``), and the textual round trip back to the abstract text (``reabstract``) the tests check.

**No full toolchain has checked this Lean text** (none can be installed on the development machines): the kernel
tier checks the abstract printing; that the concrete one elaborates is reasoned from the sources cited in
``pyshadow.kernel.concrete``.
"""

from __future__ import annotations

from dataclasses import replace

from ..kernel import proof_terms as pt
from ..kernel.prelude import PRELUDE_AXIOMS
from ..kernel.concrete import (LEMMAS, NONEMPTY_INTRO, ConcreteNames, SkeletonAlternatives, candidate_lambda,
                               concrete_terms, name_printer, walk_terms, written_pair)
from ..kernel.skeleton import SkeletonPair, SkeletonSearch, skeleton_search
from ..kernel.scoring import undecided_aliases
from ..syntax.ast import Let, Quant

# The comment on the full tier's extra alternative: where the term came from.
ALTERNATIVE_COMMENT = "-- the skeleton search's term (kernel tier), de-abstracted"


def skeleton_alternatives(pair: SkeletonPair, *, head: str) -> SkeletonAlternatives:
    """Search the pair and print its terms for the full tier (the candidate applied as ``head``).

    Where the search finds no term because atoms differ only in ways the kernel tier cannot judge
    (``pyshadow.kernel.undecided``: ``Complex.abs z`` vs ``‖z‖``, casts placed elsewhere), it is run again with
    those atoms read as one — the kernel tier's *undecided* re-check — and its terms fill the missing roles: in the
    full tier ``exact`` then decides, by definitional unfolding, whether the atoms agree."""
    search = skeleton_search(pair)
    found = concrete_terms(search, head)
    n = len(search.shadows)
    if len(found.forward) == n and found.backward is not None:
        return found
    aliases = undecided_aliases(pair)
    if not aliases:
        return found
    again = concrete_terms(skeleton_search(replace(pair, aliases=aliases)), head)
    forward = {**again.forward, **found.forward}
    backward = found.backward if found.backward is not None else again.backward
    missing = {f"forward:{i}" for i in range(1, n + 1) if i not in forward} | ({"backward"} if backward is None else set())
    return SkeletonAlternatives(forward, backward, {r: w for r, w in found.why.items() if r in missing})


def exact_line(term: str) -> str:
    """The one extra line of a ``first | …`` block; a ``let`` term is parenthesised so no ``;`` is read as a
    tactic separator."""
    shown = f"({term})" if term.startswith(("let ", "have ")) else term
    return f"  | exact {shown} {ALTERNATIVE_COMMENT}"


def with_forward_alternative(checker_text: str, term: str | None) -> str:
    """A forward checker's text (ending in its last ``| exact …`` alternative) with the skeleton's term added."""
    if term is None or not checker_text.rstrip().splitlines()[-1].lstrip().startswith("| "):
        return checker_text
    return checker_text.rstrip("\n") + "\n" + exact_line(term)


# ---------------------------------------------------------------------------------------------------------------
# Back to the abstract text (the round trip)


def reabstract(concrete: str, search: SkeletonSearch, names: ConcreteNames, *, backward: bool = False) -> str:
    """The abstract text of a concrete term: real names, lemmas and lets replaced by the search's constants,
    binder kinds dropped (and, with ``backward``, the ``fun <candidate binders> =>`` wrapper removed)."""
    if backward:
        wrapper = candidate_lambda(written_pair(search)[1])
        if not concrete.startswith(wrapper):
            raise ValueError("the backward term does not start with the candidate's binders")
        concrete = concrete[len(wrapper):]
    lemmas = LEMMAS[names.mathlib]
    spelled = {(split.antisymm if which == "antisymm" else split.le.split(" ", 1)[0]): abstract
               for abstract, (split, which) in lemmas.items() if which != "ge"}
    ge = {abstract: split for abstract, (split, which) in lemmas.items() if which == "ge"}

    def classify(text: str) -> str:
        if text == names.candidate:
            return pt.CANDIDATE
        if text.startswith(names.certificate_prefix) and text[len(names.certificate_prefix):].isdigit():
            return pt.CERTIFICATE
        if text in spelled or text in PRELUDE_AXIOMS:
            return pt.LEMMA
        return pt.LOCAL

    tree = pt.parse_proof_term(concrete, classify)

    name = name_printer(search.candidate_axiom, search.certificate_prefix, lambda text: spelled.get(text, text))

    ge_prefix = {abstract: split.ge.split("{h}")[0] for abstract, split in ge.items()}
    ge_suffix = {abstract: split.ge.split("{h}")[1] for abstract, split in ge.items()}

    def app(a: pt.App) -> str | None:
        if names.candidate_data and isinstance(a.fn, pt.Name) and a.fn.text == NONEMPTY_INTRO and len(a.args) == 1:
            inner = a.args[0].inner if isinstance(a.args[0], pt.Paren) else a.args[0]
            return go(inner)  # `Nonempty.intro (@Cand a…)` is the search's `@cand a…`
        # A lemma whose spelling is a template (`Nat.le_of_eq (Eq.symm (h))`): printed, then matched back.
        text = pt.print_term(a, lambda n: f"@{n.text}" if n.explicit else n.text)
        for abstract in ge:
            pre, post = ge_prefix[abstract], ge_suffix[abstract]
            if pre != f"{abstract} (" and text.startswith(pre) and text.endswith(post):
                inner = pt.parse_proof_term(text[len(pre):len(text) - len(post)], classify)
                return f"{abstract} ({go(inner)})"
        return None

    scope_names = _scope_names(search)

    def let(node: pt.LetIn) -> tuple[str, str | None, str]:
        ty, const = names.let_constants.get((node.name, node.value), (None, None))
        if ty is None or const is None or names.let_types.get(ty) != node.type:
            raise ValueError(f"the let {node.name} does not map back to the abstraction")
        # the variables the value's key mentions, as the abstraction applies its constant to them
        args = [i for i in names.let_idents.get(const, ()) if i in scope_names]
        return "let", ty, f"({const} {' '.join(args)})" if args else const

    def lam(node: pt.Lam) -> tuple[str, ...]:
        return tuple(pt.binder_name(b) for b in node.binders)

    def go(t: pt.ProofTerm) -> str:
        return pt.print_term(t, name, app, let, lam)

    return go(tree)


def _scope_names(search: SkeletonSearch) -> set[str]:
    names = {n for d in (search.reference, search.candidate) for b in d.binders for n in b.names}
    terms = [search.reference.type, search.candidate.type]
    for q in walk_terms(terms, Quant):
        names |= {n for b in q.binders for n in b.names}
    names |= {let.name for let in walk_terms(terms, Let)}
    return names


__all__ = ["ALTERNATIVE_COMMENT", "exact_line", "reabstract", "skeleton_alternatives", "with_forward_alternative"]
