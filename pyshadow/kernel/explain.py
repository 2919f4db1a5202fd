"""Why a skeleton check failed, in the statements' own words: the conjunct, hypothesis or atom the search could not
match on each side, and the nearest thing the other side states.

Run only for a check the search found no term for (``skeleton.skeleton_block``). The search is asked again, piece
by piece, in the same context:

- forward (a reference shadow Sᵢ from the candidate): with the candidate's hypotheses granted, does Sᵢ follow
  from the candidate's conclusion? If so, the candidate's hypotheses are what is missing — the first one the
  reference's hypotheses do not give is named; if not, Sᵢ itself is (``reference conjunct 1 `n + 1 ≤ 2 ^ n` …``);
- backward (the candidate's conclusion from the reference's shadows): each shadow of the candidate's conclusion is
  tried alone; the first that fails is named (``candidate conjunct 1 `k + 2 ≤ 2 ^ k` matches no reference atom``),
  or — when it follows once the reference's hypotheses are granted — the reference hypothesis the candidate lacks.

Each message ends with the nearest statement of the other side (by text similarity, both read in the reference's
variable names). The pieces are printed as each statement writes them (the candidate with its own names). A
message is a diagnosis, never a verdict: Lean decides the checks.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from typing import Callable, Sequence

from ..shadows.rules import Shadow
from ..syntax.ast import Atom, Binder, Declaration, Not, Rel, Term, is_proposition
from ..syntax.render import render_term

_WORDS = {"conjunct": "conjunct", "identity": "conclusion", "iff_mp": "direction →", "iff_mpr": "direction ←",
          "le": "≤ half", "ge": "≥ half"}


class Piece:
    """One shadow or hypothesis of one side: how the search reads it, and how the statement writes it."""

    def __init__(self, label: str, read: Term, written: str):
        self.label, self.read, self.written = label, read, written

    def __str__(self) -> str:
        return f"{self.label} `{self.written}`"


def shadow_pieces(side: str, read: Sequence[Shadow], written: Sequence[Shadow]) -> list[Piece]:
    """A side's shadows as pieces (``reference conjunct 2``, numbered when there are several of a kind); the
    written text where both decompositions agree."""
    same = len(read) == len(written)
    words = [_WORDS.get(s.kind, "shadow") for s in read]
    totals, seen = Counter(words), Counter()
    out = []
    for i, (s, word) in enumerate(zip(read, words)):
        seen[word] += 1
        label = f"{side} {word}" + (f" {seen[word]}" if totals[word] > 1 else "")
        out.append(Piece(label, s.statement, render_term((written[i] if same else s).statement)))
    return out


def hypothesis_pieces(side: str, read: Declaration, written: Declaration) -> list[Piece]:
    """A side's hypotheses (proposition binders) as pieces, named as written."""
    def hyps(d: Declaration) -> list[tuple[str, Binder]]:
        return [(n, b) for b in d.binders if b.type is not None and not b.is_instance and is_proposition(b)
                for n in b.names]

    r, w = hyps(read), hyps(written)
    same = len(r) == len(w)
    return [Piece(f"{side} hypothesis", b.type,
                  f"{(w[i][0] if same else n)} : {render_term((w[i][1] if same else b).type)}")
            for i, (n, b) in enumerate(r)]


def nearest(piece: Piece, others: Sequence[Piece]) -> Piece | None:
    """The piece of ``others`` whose reading is textually closest to ``piece``'s."""
    if not others:
        return None
    text = render_term(piece.read)
    return max(others, key=lambda o: SequenceMatcher(None, text, render_term(o.read)).ratio())


def _what(piece: Piece) -> str:
    """"matches no … atom" for an atomic piece (a relation between atoms, an atom, their negation)."""
    t = piece.read.arg if isinstance(piece.read, Not) else piece.read
    return "matches no {} atom" if isinstance(t, (Atom, Rel)) else "follows from nothing the {} states"


def message(piece: Piece, other_side: str, others: Sequence[Piece]) -> str:
    near = nearest(piece, others)
    text = f"{piece} {_what(piece).format(other_side)}"
    return text + (f"; nearest {near}" if near is not None else "")


def _unimplied(hyps: Sequence[Piece], proves: Callable[[Term, bool], bool], other_hyps: Sequence[Piece],
               other: str) -> str | None:
    """The first of ``hyps`` the other side's hypotheses do not imply, said with its nearest there; None if all
    are implied."""
    for h in hyps:
        if not proves(h.read, False):
            near = nearest(h, other_hyps)
            return (f"{h} is not implied by the {other}'s hypotheses"
                    + (f"; nearest {near}" if near is not None else f"; the {other} has none"))
    return None


def explain_forward(shadow: Piece, proves: Callable[[Term, bool], bool], cand_shadows: Sequence[Piece],
                    cand_hyps: Sequence[Piece], ref_hyps: Sequence[Piece]) -> str:
    """Why reference shadow ``shadow`` could not be derived from the candidate. ``proves(goal, granted)`` runs the
    search in the forward context, with the candidate's hypotheses and conclusion granted as facts or not."""
    if proves(shadow.read, True) and (why := _unimplied(cand_hyps, proves, ref_hyps, "reference")):
        return why
    return message(shadow, "candidate", cand_shadows)


def explain_backward(cand_shadows: Sequence[Piece], proves: Callable[[Term, bool], bool],
                     ref_shadows: Sequence[Piece], ref_hyps: Sequence[Piece], cand_hyps: Sequence[Piece]) -> str:
    """Why the candidate's conclusion could not be derived from the reference's shadows. ``proves(goal, granted)``
    runs the search in the backward context, with the reference's hypotheses granted as facts or not."""
    for piece in cand_shadows:
        if proves(piece.read, False):
            continue
        if proves(piece.read, True) and (why := _unimplied(ref_hyps, proves, cand_hyps, "candidate")):
            return why
        return message(piece, "reference", ref_shadows)
    return "each piece of the candidate's conclusion follows alone, but not the whole (the shapes differ)"
