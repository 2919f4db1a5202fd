"""Two statements Lean elaborates to the same proposition: a kernel-checked equivalence by definitional unfolding.

For a pair (reference, candidate) each side is printed as ``def stmt : Prop := ∀ <binders>, <type>`` in its own
context (``pyshadow.elab.statements``), and Lean is asked for ``theorem same : Iff A.stmt B.stmt :=
Iff.intro (fun h => @h) (fun h => @h)``. Lean accepts exactly when the two elaborated propositions are
definitionally equal in the signature environment — bound names, casts the elaborator inserts, ascriptions it
already fixes, `x ∈ Set.Icc a b` against `a ≤ x ∧ x ≤ b`, `x ∈ {2}` against `x = 2` — and the kernel re-checks
the proof. The environment's definitions are Mathlib's own and everything else is an axiom, so an equality Lean
finds here also holds in Mathlib; the converse does not: a pair Lean does not prove equal is *no decision*, never a
failure (hypotheses in another order, a lemma away, a constant the environment lacks).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..lean.toolchain import LeanExecutable
from ..syntax.ast import Declaration
from ..syntax.parser import ParseError, parse_declaration
from ..syntax.render import render_term
from .elaborate import BATCH_TIMEOUT_S, StatementInput, processes, run_block_chunks
from .statements import LeanStatement, lean_statement, scoped_block
from .translate import Untranslatable

# `@h`: `h` without its leading implicit arguments instantiated (src/Lean/Elab/App.lean, explicit mode), so a
# statement whose first binder is implicit (`∀ {x : ℤ}, …`, an auto-bound name) meets the other as it is
PROOF = "Iff.intro (fun h => @h) (fun h => @h)"


@dataclass(frozen=True)
class Equivalence:
    """Lean's answer for one pair."""

    key: str
    status: str  # equal | not_shown | unelaborated
    reason: str = ""  # for not_shown/unelaborated: Lean's first error, or why a side was not printed

    @property
    def equal(self) -> bool:
        return self.status == "equal"


def _printed(item: StatementInput) -> tuple[LeanStatement, Declaration]:
    decl = parse_declaration(item.statement)
    return lean_statement(decl, item.context), decl


# A term of a binder type, for a binder no part of the statement uses: the numeral `0` of a number type (its
# `OfNat` instance, PyshadowEnv/Numbers.lean), a type of a universe (`PyshadowEnv.someType`, as Prelude's `PUnit`).
# Lean checks it.
_NUMBER_TYPES = frozenset({"ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "Nat", "Int", "Rat", "Real", "Complex"})


def _witness(type_text: str) -> str | None:
    text = type_text.strip()
    if text in _NUMBER_TYPES:
        return "0"
    if text.split(maxsplit=1)[:1] in (["Type"], ["Type*"], ["Sort"], ["Sort*"]):
        return "PyshadowEnv.someType"
    return None


def _header(stmt: LeanStatement, decl: Declaration) -> list[tuple[str, str, str]] | None:
    """The statement's binders as ``(name, bracket, type)``, one per name, in order; ``None`` when a binder is
    anonymous, an instance or strict-implicit one, or a ``variable`` joins the header (its names are not here)."""
    if len(stmt.binders) != len(decl.binders):
        return None
    out = []
    for b in decl.binders:
        if b.bracket not in ("(", "{") or not b.names or b.type is None or b.default is not None \
                or any(n == "_" for n in b.names):
            return None
        out += [(n, b.bracket, render_term(b.type)) for n in b.names]
    return out


def _direction(source: list[tuple[str, str, str]], target: list[tuple[str, str, str]]) -> str | None:
    """``fun <target's binders> => @h <source's arguments>``: each source binder the target has is passed as
    it (by name, else by written type), one the target lacks gets a witness of its type (so its statement must
    not mention it for Lean to accept). A proposal only: Lean accepts the term or the pair stays undecided."""
    names = {n for n, _, _ in target}
    # a binder the target names otherwise: the first of its unnamed ones with the same written type
    spare = [(n, typ) for n, _, typ in target if n not in {m for m, _, _ in source}]
    args = []
    for name, _, typ in source:
        if name in names:
            args.append(name)
            continue
        same = next((k for k, (_, t) in enumerate(spare) if t == typ), None)
        args.append(spare.pop(same)[0] if same is not None else _witness(typ))
        if args[-1] is None:
            return None
    binders = " ".join(f"{{{n}}}" if br == "{" else f"({n})" for n, br, _ in target)
    lam = f"fun {binders} => " if binders else ""
    return f"(fun pyshadow_h => {lam}@pyshadow_h {' '.join(args)})"


def _by_binders(a: tuple[LeanStatement, Declaration], b: tuple[LeanStatement, Declaration]) -> str | None:
    """A proof of ``Iff A B`` that passes each statement's binders to the other by name — hypotheses in another
    order, a binder one side leaves out that no part of it uses — or ``None`` when the headers are alike (the
    definitional proof covers them) or a binder is not one this can name."""
    ha, hb = _header(*a), _header(*b)
    if ha is None or hb is None or [n for n, _, _ in ha] == [n for n, _, _ in hb]:
        return None
    mp, mpr = _direction(ha, hb), _direction(hb, ha)
    return f"Iff.intro {mp} {mpr}" if mp and mpr else None


def definitional_equivalence(pairs: Sequence[tuple[str, StatementInput, StatementInput]], lean: LeanExecutable, *,
                             cache_root: Path | None = None, timeout_s: float = BATCH_TIMEOUT_S,
                             n_jobs: int = -1) -> list[Equivalence]:
    """One ``Equivalence`` per ``(key, reference, candidate)``, in order; the batch split over ``n_jobs`` Lean
    processes (all cores when not positive)."""
    out: dict[int, Equivalence] = {}
    groups: list[list[tuple[int, str]]] = []  # per pair: its block, then its binder-passing proof's
    for i, (key, ref, cand) in enumerate(pairs):
        try:
            (a, da), (b, db) = _printed(ref), _printed(cand)
        except (ParseError, Untranslatable) as err:
            out[i] = Equivalence(key, "unelaborated", f"not printed for Lean: {str(err).splitlines()[0]}")
            continue
        alternative = _by_binders((a, da), (b, db))
        if len(a.universes) != len(b.universes) and alternative is None:
            out[i] = Equivalence(key, "not_shown", "the statements have different numbers of universes")
            continue
        (text_a, name_a), (text_b, name_b) = (scoped_block(f"P{i}.A", a, a.prop_definition),
                                              scoped_block(f"P{i}.B", b, b.prop_definition))
        if len(a.universes) == len(b.universes):  # one universe list for both, positionally
            levels = f".{{{', '.join(a.universes)}}}" if a.universes else ""
            params, name_a, name_b = levels, name_a + levels, name_b + levels
        else:  # apart: a universe only one side has is its own
            ua, ub = [f"a_{u}" for u in a.universes], [f"b_{u}" for u in b.universes]
            params = f".{{{', '.join(ua + ub)}}}"
            name_a += f".{{{', '.join(ua)}}}" if ua else ""
            name_b += f".{{{', '.join(ub)}}}" if ub else ""
        proofs = [PROOF] if len(a.universes) == len(b.universes) else []
        proofs += [alternative] if alternative else []
        group = [(i, "\n".join([text_a, text_b, f"theorem P{i}.same{params} : Iff {name_a} {name_b} := {proofs[0]}"]))]
        if len(proofs) > 1:  # the second proof in a block of its own: the first one's error is not its
            group.append((-1 - i, f"theorem P{i}.by_binders{params} : Iff {name_a} {name_b} := {proofs[1]}"))
        groups.append(group)  # a pair's blocks stay in one chunk: the second proof names the first's statements
    n = processes(n_jobs, len(groups))
    size = -(-len(groups) // n) if groups else 1
    chunks = [[b for g in groups[k:k + size] for b in g] for k in range(0, len(groups), size)]
    for chunk, (result, errors) in zip(chunks, run_block_chunks(chunks, lean, cache_root=cache_root,
                                                                 timeout_s=timeout_s)):
        for i, _ in chunk:
            if i < 0:
                continue
            key = pairs[i][0]
            alternative = any(j == -1 - i for j, _ in chunk)
            if result.status != "ok":
                out[i] = Equivalence(key, "unelaborated", f"Lean did not finish: {result.detail}")
            elif i not in errors or (alternative and -1 - i not in errors):
                out[i] = Equivalence(key, "equal")
            else:
                side_error = "Iff" not in errors[i] and "same" not in errors[i]
                status = "unelaborated" if side_error and "Type mismatch" not in errors[i] else "not_shown"
                out[i] = Equivalence(key, status, errors[i].splitlines()[0])
    return [out[i] for i in range(len(pairs))]
