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
from ..syntax.parser import ParseError, parse_declaration
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


def _printed(item: StatementInput) -> LeanStatement:
    return lean_statement(parse_declaration(item.statement), item.context)


def definitional_equivalence(pairs: Sequence[tuple[str, StatementInput, StatementInput]], lean: LeanExecutable, *,
                             cache_root: Path | None = None, timeout_s: float = BATCH_TIMEOUT_S,
                             n_jobs: int = -1) -> list[Equivalence]:
    """One ``Equivalence`` per ``(key, reference, candidate)``, in order; the batch split over ``n_jobs`` Lean
    processes (all cores when not positive)."""
    out: dict[int, Equivalence] = {}
    blocks: list[tuple[int, str]] = []
    for i, (key, ref, cand) in enumerate(pairs):
        try:
            a, b = _printed(ref), _printed(cand)
        except (ParseError, Untranslatable) as err:
            out[i] = Equivalence(key, "unelaborated", f"not printed for Lean: {str(err).splitlines()[0]}")
            continue
        if len(a.universes) != len(b.universes):
            out[i] = Equivalence(key, "not_shown", "the statements have different numbers of universes")
            continue
        levels = f".{{{', '.join(a.universes)}}}" if a.universes else ""
        (text_a, name_a), (text_b, name_b) = (scoped_block(f"P{i}.A", a, a.prop_definition),
                                              scoped_block(f"P{i}.B", b, b.prop_definition))
        same = f"theorem P{i}.same{levels} : Iff {name_a}{levels} {name_b}{levels} := {PROOF}"
        blocks.append((i, "\n".join([text_a, text_b, same])))
    n = processes(n_jobs, len(blocks))
    size = -(-len(blocks) // n) if blocks else 1
    chunks = [blocks[k:k + size] for k in range(0, len(blocks), size)]
    for chunk, (result, errors) in zip(chunks, run_block_chunks(chunks, lean, cache_root=cache_root,
                                                                 timeout_s=timeout_s)):
        for i, _ in chunk:
            key = pairs[i][0]
            if result.status != "ok":
                out[i] = Equivalence(key, "unelaborated", f"Lean did not finish: {result.detail}")
            elif i in errors:
                side_error = "Iff" not in errors[i] and "same" not in errors[i]
                status = "unelaborated" if side_error and "Type mismatch" not in errors[i] else "not_shown"
                out[i] = Equivalence(key, status, errors[i].splitlines()[0])
            else:
                out[i] = Equivalence(key, "equal")
    return [out[i] for i in range(len(pairs))]
