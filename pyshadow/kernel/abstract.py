"""The kernel tier: a reference statement abstracted into a prelude-mode Lean file that real Lean can check.

The prelude-only ``lean`` has no ``Init`` (``prelude``); what it *can* check is the logic of the generated checkers.
So each statement is abstracted (``abstraction``: opaque constants for its types and atoms, the prelude's own
connectives), the reference itself is an axiom ``ref`` (a name the statement does not use), and every forward
checker is stated in its canonical proof-term form and the backward certificate in term form, exactly as
``pyshadow.shadows.checkers`` builds them, and Lean accepts or rejects each one (with ``mutants``, wrong terms it
must reject too).

The block is the full tier's *twin* (``Printer(twin=True)``): binder kinds are kept — ``{}``, ``⦃⦄``, and ``[]`` as an
instance of an opaque class (``class κ1 (x1 : Type u_1) : Prop``) — in the header and in the conclusion's ∀; a
variable whose type is a sort keeps it with its universe (``{α : Type u_1}``, ``{X : τ1 → Type u_2}``), universe
holes named as the full tier names them, declared with ``universe``, and ``autoImplicit`` off as in checker files.
The target is applied as the full tier applies it (``target_head``: ``@ref`` with every argument), so the term
checked here is the full tier's first ``exact`` alternative with atoms abstracted, and Lean's implicit-lambda and
universe behaviour is reproduced (tests/test_kernel_twin.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..shadows.checkers import all_arguments, certificate_prefix, certificate_term, forward_term
from ..shadows.checkers import name_declaration_universes, target_head
from ..shadows.rules import Decomposition
from ..syntax.ast import Declaration, declaration_names
from .abstraction import Abstraction, Printer, Scope
from .mutants import distinct_pairs, follow, mutate_path
from .prelude import PRELUDE, PRELUDE_AXIOMS, PRELUDE_UNIVERSES  # noqa: F401 (PRELUDE: read by scoring.py)


@dataclass
class KernelBlock:
    """One statement's abstracted Lean: its text and the names of the checkers it declares."""

    key: str
    namespace: str
    text: str
    checkers: dict[str, str]  # full checker name → role ("forward:1", "backward", "mutant:…")
    expect: dict[str, bool]  # full checker name → should Lean accept it
    axioms: frozenset[str]
    terms: dict[str, str] = field(default_factory=dict)  # full checker name → the proof term Lean checks


def kernel_block(key: str, namespace: str, decl: Declaration, dec: Decomposition, *, mutants: bool = False
                 ) -> KernelBlock:
    """The prelude-mode block for one statement: abstract constants, the reference axiom, every checker.

    The full tier's twin: the binders, conclusion and shadows with their universe holes named as the full tier
    names them (``name_declaration_universes``), the same head (``target_head``) and the same proof terms.
    """
    binders, conclusion_term, statements, universes = name_declaration_universes(decl, dec)
    taken = statement_names(replace(decl, binders=binders))
    a = Abstraction(taken)
    ref = next(n for n in ("ref", *(f"ref{k}" for k in range(1, len(taken) + 2))) if n not in taken)
    pr = Printer(a, twin=True)
    groups, scope = pr.binders(binders, Scope())
    binder_text = " ".join(groups)
    conclusion = pr.prop(conclusion_term, scope)
    args = all_arguments(binders)
    head = target_head(ref, binders)
    body: list[str] = [f"axiom {ref} {binder_text} : {conclusion}".replace("  ", " ")]
    checkers: dict[str, str] = {}
    expect: dict[str, bool] = {}
    terms: dict[str, str] = {}

    def theorem(name: str, header: str, prop: str, term: str, role: str, accept: bool) -> None:
        body.append(f"theorem {name} {header} :\n    {prop} :=\n  {term}".replace("  :", " :"))
        body.append(f"#print axioms {name}")
        checkers[f"{namespace}.{name}"] = role
        expect[f"{namespace}.{name}"] = accept
        terms[f"{namespace}.{name}"] = term

    shadow_props = [pr.prop(statement, scope) for statement in statements]
    # The axiom's universe parameters, in Lean's order (the `universe` commands' order, used ones only).
    ref_levels = [u for u in ("u", *universes) if u in _universes_in(binder_text + " " + conclusion)]
    heads = [_pinned(head, ref, ref_levels, binder_text + " " + p) for p in shadow_props]
    for i, shadow in enumerate(dec.shadows, start=1):
        theorem(f"fwd_{i}", binder_text, shadow_props[i - 1], forward_term(shadow, heads[i - 1]), f"forward:{i}",
                True)
    if not dec.residual:
        quantified, _ = pr.binders(binders, Scope(), implicit_variables=True)
        hyp = certificate_prefix(taken, len(shadow_props))
        hyps = [f"({hyp}{i} : ∀ {' '.join(quantified)}, {p})" if quantified else f"({hyp}{i} : {p})"
                for i, p in enumerate(shadow_props, start=1)]

        def leaf(index: int, bound: tuple[str, ...], order=None) -> str:
            j = order[index] if order else index
            return " ".join([f"@{hyp}{j + 1}", *args, *bound])

        header = " ".join([binder_text, *hyps])
        theorem("complete", header, conclusion, certificate_term(dec, leaf), "backward", True)
        if mutants:
            for mi, (i, j) in enumerate(distinct_pairs(shadow_props), start=1):
                order = list(range(len(dec.shadows)))
                order[i], order[j] = j, i
                term = certificate_term(dec, lambda idx, bound, o=order: leaf(idx, bound, o))
                theorem(f"mutant_complete_{mi}", header, conclusion, term, f"mutant:backward:{i + 1}<->{j + 1}",
                        False)
    if mutants:
        for i, shadow in enumerate(dec.shadows, start=1):
            mutated = mutate_path(shadow)
            if mutated is None:
                continue
            reached = follow(conclusion_term, mutated.path)
            if reached is not None and pr.prop(reached, scope) == shadow_props[i - 1]:
                continue  # the wrong path happens to prove the same abstract statement: not a mutant
            theorem(f"mutant_fwd_{i}", binder_text, shadow_props[i - 1], forward_term(mutated, heads[i - 1]),
                    f"mutant:forward:{i}", False)
    # As the full tier's checker files: declared universes, and no auto-bound implicit (a name must resolve).
    header = [f"namespace {namespace}", "set_option autoImplicit false"]
    declared = [u for u in universes if u not in PRELUDE_UNIVERSES]
    if declared:
        header.append(f"universe {' '.join(declared)}")
    text = "\n".join([*header, *a.declarations, *body, f"end {namespace}", ""])
    allowed = PRELUDE_AXIOMS | {f"{namespace}.{n}" for n in a.axioms} | {f"{namespace}.{ref}"}
    return KernelBlock(key, namespace, text, checkers, expect, frozenset(allowed), terms)


_LEVEL = re.compile(r"\b(?:Type|Sort)\s*(\([^()]*\)|[^\s()]+)")


def _universes_in(text: str) -> set[str]:
    """The universe names the ``Type …``/``Sort …`` of ``text`` mention."""
    return {name for level in _LEVEL.findall(text) for name in re.findall(r"[^\W\d][\w']*", level)
            if name not in ("max", "imax")}


def _pinned(head: str, ref: str, levels: list[str], text: str) -> str:
    """``head`` (``@ref a₁ …``) with the axiom's universes given explicitly when the checker's statement ``text``
    does not mention them all: a level only the axiom's type mentions (``(∀ S : Type u_1, …) ∧ ∃ S : Type u_2, …``
    projected to its first conjunct) is otherwise a universe metavariable nothing assigns, which Lean rejects
    ("contains universe level metavariables"); it is pinned to ``0`` (the axiom holds at every level). Lean orders
    a declaration's universe parameters as the ``universe`` commands declared them (``sortDeclLevelParams``,
    leanprover/lean4 src/Lean/Elab/DeclUtil.lean)."""
    used = _universes_in(text)
    if all(u in used for u in levels):
        return head
    pins = ", ".join(u if u in used else "0" for u in levels)
    return head.replace(f"@{ref}", f"@{ref}.{{{pins}}}", 1)


def statement_names(decl: Declaration) -> frozenset[str]:
    """Every name a statement binds or mentions (``pyshadow.syntax.ast.declaration_names``)."""
    return declaration_names(decl)
