"""A candidate and the candidate with some atoms replaced, proved equivalent by Lean through congruence.

When Lean proves two atoms equal alone (``pyshadow.elab.atom_lemmas``: definitionally or by one table lemma), the
statement-level consequence still has to be Lean's: for the candidate ``cand`` (as the skeleton reads it) and
``cand'`` — the same declaration with each such candidate atom replaced by the reference atom read over the
candidate's variables, both in the candidate's context — Lean is asked for

    theorem same : Iff C.stmt C'.stmt := Iff.intro (fun h => Eq.mp E₁ (… (Eq.mp E₀ h))) (fun h => Eq.mpr E₀ (…))

where ``H.stmt (A₀ : ∀ vs, type_of% (atom₀ vs)) … : Prop`` is the candidate with atom ``k`` replaced by
``Aₖ vs`` (so ``H.stmt (fun vs => atomₖ …)`` is ``C.stmt`` and ``H.stmt (fun vs => replacementₖ …)`` is
``C'.stmt``, up to δ/β), and ``Eₖ := congrArg (fun A => H.stmt g₀ … A fₖ₊₁ …) (funext fun vs => Eq.symm pₖ)`` with
``pₖ`` the atom proof Lean already accepted. The kernel checks all of it: a hole whose type is not the atom's type
in the statement, a replacement that is not the proved atom, a proof that does not fit — each is Lean's error and
no decision. What Lean proves here is an equivalence of the candidate with ``cand'``, nothing about the reference:
``cand'`` is then compared with the reference (``pyshadow.kernel.lean_check``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..lean.toolchain import LeanExecutable
from ..syntax.ast import Declaration
from ..syntax.parser import ParseError
from .atom_lemmas import AtomPairQuery, printed_atom
from .elaborate import BATCH_TIMEOUT_S, run_blocks
from .statements import lean_statement, scoped_block
from .translate import Untranslatable


@dataclass(frozen=True)
class Replacement:
    """One atom replaced: the query Lean answered (``reference`` is the replacement, read in the candidate's
    context; ``candidate`` the atom) and the proof term of ``Eq (R.stmt vs) (C.stmt vs)`` it accepted."""

    query: AtomPairQuery
    proof: str
    hole: str  # the fresh name standing for the atom in ``holed``: `pyshadowA0`


@dataclass(frozen=True)
class CongruenceItem:
    key: str
    candidate: Declaration  # as the skeleton reads it
    holed: Declaration  # each replaced atom written `(pyshadowAk v…)`, over the query's binders in order
    replaced: Declaration  # cand': each replaced atom written as its replacement
    context: str
    replacements: tuple[Replacement, ...]


@dataclass(frozen=True)
class Congruence:
    key: str
    proved: bool
    reason: str = ""


def congruence(items: Sequence[CongruenceItem], lean: LeanExecutable, *, cache_root: Path | None = None,
               timeout_s: float = BATCH_TIMEOUT_S) -> list[Congruence]:
    """One ``Congruence`` per item, in order; one Lean process for all of them."""
    out: dict[int, Congruence] = {}
    blocks: list[tuple[int, str]] = []
    for i, item in enumerate(items):
        try:
            text = _block(i, item)
        except (Untranslatable, ParseError, ValueError) as err:
            out[i] = Congruence(item.key, False, f"not printed for Lean: {str(err).splitlines()[0]}")
            continue
        blocks.append((i, text))
    if blocks:
        result, errors = run_blocks(blocks, lean, cache_root=cache_root, timeout_s=timeout_s)
        for i, _ in blocks:
            key = items[i].key
            if result.status != "ok":
                out[i] = Congruence(key, False, f"Lean did not finish: {result.detail}")
            elif i in errors:
                out[i] = Congruence(key, False, errors[i].splitlines()[0])
            else:
                out[i] = Congruence(key, True)
    return [out[i] for i in range(len(items))]


def _block(i: int, item: CongruenceItem) -> str:
    if not item.replacements:
        raise ValueError("nothing replaced")
    cand = lean_statement(item.candidate, item.context)
    replaced = lean_statement(item.replaced, item.context)
    holed = lean_statement(item.holed, item.context)
    if not cand.universes == replaced.universes == holed.universes:
        raise Untranslatable("the statements have different universes")
    levels = cand._levels()
    parts: list[str] = []
    holes: list[str] = []
    fs: list[str] = []  # fun vs => atom_k
    gs: list[str] = []  # fun vs => replacement_k
    eqs: list[str] = []  # Eq f_k g_k
    for k, r in enumerate(item.replacements):
        q = r.query
        ref = printed_atom(q.reference, q.binders, item.context, f"CG{i}.R{k}")
        atom = printed_atom(q.candidate, q.binders, item.context, f"CG{i}.A{k}")
        parts += [ref.text, atom.text]
        if atom.levels not in ("", levels) or ref.levels != atom.levels:
            raise Untranslatable("an atom's universes are not the statement's")
        vs = " ".join(f"v{j}" for j in range(atom.arity))
        if vs:
            holes.append(f"({r.hole} : ∀ {' '.join(atom.binders)}, type_of% ({atom.name} "
                         f"{' '.join(_binder_names(atom.binders))}))")
            f = f"(fun {vs} => @{atom.name}{atom.levels} {vs})"
            g = f"(fun {vs} => @{ref.name}{ref.levels} {vs})"
            lam = "".join(f"funext fun v{j} => " for j in range(atom.arity))
        else:
            holes.append(f"({r.hole} : type_of% {atom.name})")
            f, g, lam = atom.name, ref.name, ""
        fs.append(f)
        gs.append(g)
        eqs.append(f"({lam}Eq.symm ({r.proof}) : Eq {f} {g})")
    body = ", ".join([*(f"∀ {b}" for b in holed.binders), holed.conclusion])
    holed_text, holed_name = scoped_block(f"CG{i}.H", holed,
                                          f"def stmt{levels} {' '.join(holes)} : Prop := {body}")
    holed_name += levels
    cand_text, cand_name = scoped_block(f"CG{i}.C", cand, cand.prop_definition)
    repl_text, repl_name = scoped_block(f"CG{i}.D", replaced, replaced.prop_definition)
    steps = []
    for k, eq in enumerate(eqs):
        args = [*gs[:k], "A", *fs[k + 1:]]
        steps.append(f"(congrArg (fun A => {holed_name} {' '.join(args)}) {eq})")
    # every application explicit (`@`): a statement with implicit binders (`∀ {X : Type u}, …`) is then passed as
    # it is, its implicit arguments neither instantiated nor abstracted again (Lean's implicit lambda)
    forward = "@h"
    for e in steps:
        forward = f"@Eq.mp _ _ {e} ({forward})"
    backward = "@h"
    for e in reversed(steps):
        backward = f"@Eq.mpr _ _ {e} ({backward})"
    same = (f"theorem CG{i}.same{levels} : Iff {cand_name}{levels} {repl_name}{levels} :=\n"
            f"  Iff.intro (fun h => no_implicit_lambda% ({forward})) (fun h => no_implicit_lambda% ({backward}))")
    return "\n".join([*parts, holed_text, cand_text, repl_text, same])


def _binder_names(binders: tuple[str, ...]) -> list[str]:
    """The explicit binders' names: `(x : Real)` → `x` (one name per group; implicit and instance arguments are
    Lean's to fill)."""
    return [b.strip("()").split(":", 1)[0].strip() for b in binders if b.startswith("(")]
