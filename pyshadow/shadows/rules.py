"""Deterministic decomposition rules: a conclusion → its shadow set and the tree that rebuilds it.

Each rule below is complete by construction — the shadows it emits are implied by the term (forward) and jointly
imply it (backward) — and the ``Certificate`` node it returns is exactly that backward proof:

| conclusion            | shadows                          | certificate                          |
| --------------------- | -------------------------------- | ------------------------------------ |
| ``A ∧ B``             | shadows of A via ``.1``, B ``.2`` | ``⟨cA, cB⟩`` (And.intro)            |
| ``A ↔ B``             | ``A → B`` ``.mp``, ``B → A`` ``.mpr`` | ``⟨cmp, cmpr⟩`` (Iff.intro)     |
| ``a = b`` ordered     | ``a ≤ b``, ``b ≤ a``              | ``le_antisymm c₁ c₂``               |
| ``s = t`` sets        | ``s ⊆ t``, ``t ⊆ s``              | ``Set.Subset.antisymm c₁ c₂`` (``Finset.…``) |
| ``∀ x, P`` / ``H → P`` | shadows of P, re-wrapped         | ``fun x => cP`` / ``fun h => cP``   |
| ``let x := v; P``     | shadows of P, re-wrapped          | ``cP`` (the let is definitional)    |
| anything else         | the identity shadow (the term)    | the shadow itself                    |

A shadow is stated under the target's own binders and hypotheses; its conclusion re-wraps every ∀/→/let the rule
passed through, so ``∀ x ∈ s, A x ∧ B x`` yields ``∀ x ∈ s, A x`` and ``∀ x ∈ s, B x``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..syntax.ast import AND, IFF, IMP, Binder, BinOp, Declaration, Let, Quant, Rel, Term, declaration_names
from ..syntax.names import FreshNames as _FreshNames
from ..syntax.render import render_term
from .types import EqualitySplit, TypeEnv, equality_split


@dataclass(frozen=True)
class Step:
    """One step of a path from the conclusion's root to a shadow.

    ``kind``: ``left``/``right`` (∧ projections ``.1``/``.2``), ``mp``/``mpr`` (↔ directions), ``intro``
    (entering ∀ binders or an → hypothesis: ``names`` are the bound names, ``hyp`` marks an → premise),
    ``let`` (entering a let), ``le``/``ge`` (an equality's two inequalities, with the lemmas in ``split``).

    For ``intro``, ``brackets`` holds each name's binder kind (``(`` explicit, ``{`` implicit, ``⦃`` strict implicit,
    ``[`` instance) and ``originals`` the name the binder has in the statement (``""`` for an anonymous instance or
    an → premise): Lean introduces a non-explicit binder itself (implicit lambda), so a checker must bind it with
    the same annotation and pass it by name, never positionally.
    """

    kind: str
    names: tuple[str, ...] = ()
    split: EqualitySplit | None = None
    brackets: tuple[str, ...] = ()
    originals: tuple[str, ...] = ()

    def bracket(self, i: int) -> str:
        """The binder kind of ``names[i]`` (explicit when not recorded)."""
        return self.brackets[i] if i < len(self.brackets) else "("

    def original(self, i: int) -> str:
        return self.originals[i] if i < len(self.originals) else ""

    @property
    def label(self) -> str:
        if self.kind == "left":
            return ".1"
        if self.kind == "right":
            return ".2"
        if self.kind in ("mp", "mpr"):
            return f".{self.kind}"
        if self.kind == "intro":
            return "∀" + ",".join(self.names)
        if self.kind == "let":
            return "let"
        return "." + (self.split.relation_names[0 if self.kind == "le" else 1] if self.split else self.kind)


@dataclass(frozen=True)
class Frame:
    """A ∀ / → / let that a shadow was found under; re-applied to state the shadow."""

    kind: str  # "forall" | "imp" | "let"
    node: Term  # the Quant / BinOp(→) / Let whose body the path entered

    def wrap(self, body: Term) -> Term:
        n = self.node
        if isinstance(n, Quant):
            return Quant(n.kind, n.binders, body)
        if isinstance(n, BinOp):
            return BinOp(IMP, n.left, body)
        if isinstance(n, Let):
            return replace(n, body=body)
        raise TypeError(n)


@dataclass(frozen=True)
class Shadow:
    """One sub-statement S_i of the target: ``statement`` is its conclusion under the target's binders."""

    kind: str  # conjunct | iff_mp | iff_mpr | le | ge | identity | expert | llm
    path: tuple[Step, ...]
    statement: Term
    leaf: Term  # the sub-term the path reaches, before re-wrapping
    provenance: str = "generated"

    @property
    def path_text(self) -> str:
        return "".join(s.label for s in self.path) or "id"


# Certificate nodes: how the target is rebuilt from its shadows.
@dataclass(frozen=True)
class CertLeaf:
    index: int  # position in the shadow list


@dataclass(frozen=True)
class CertPair:
    kind: str  # "and" | "iff" | "antisymm"
    left: object
    right: object
    split: EqualitySplit | None = None


@dataclass(frozen=True)
class CertIntro:
    names: tuple[str, ...]  # lambda-bound names, in order
    body: object
    brackets: tuple[str, ...] = ()  # each name's binder kind (``Step.brackets``)


@dataclass(frozen=True)
class CertLet:
    body: object  # a let in the conclusion: definitional, nothing to build


@dataclass
class Decomposition:
    shadows: list[Shadow]
    certificate: object
    residual: bool  # True when only the identity shadow exists (the LLM may refine it)

    @property
    def status(self) -> str:
        return "atomic" if self.residual else "decomposed"


@dataclass
class _Ctx:
    env: TypeEnv
    fresh: "FreshNames"
    mathlib: bool
    shadows: list[Shadow] = field(default_factory=list)


class FreshNames(_FreshNames):
    """Names for lambda-bound variables that cannot clash with any identifier of the declaration (``h_1``, ``x_2``:
    one counter across hints; never ``inst…``/``hS…``, which instance and certificate names use)."""

    def __init__(self, taken: set[str]):
        super().__init__(taken, template="{base}_{n}", shared_counter=True)

    def __call__(self, hint: str) -> str:
        base = hint if hint.isidentifier() and hint != "_" and not hint.startswith(("inst", "hS")) else "a"
        return super().__call__(base)


def uncheckable_reason(decl: Declaration) -> str | None:
    """Why a declaration cannot have checkers (``None`` when it can): they need a name to apply and a type."""
    if decl.keyword == "example" or not decl.name:
        return f"an anonymous `{decl.keyword}` cannot be referred to by checkers"
    if decl.type is None:
        return f"`{decl.name}` has no stated type to decompose"
    return None


def decompose(decl: Declaration, *, mathlib: bool = True, env: TypeEnv | None = None) -> Decomposition:
    """The shadow set of ``decl``'s conclusion and the certificate tree that rebuilds it."""
    if decl.type is None:
        raise ValueError(f"{decl.name}: a declaration without a type has no conclusion to decompose")
    env = env if env is not None else TypeEnv.from_binders(decl.binders)
    ctx = _Ctx(env, FreshNames(set(declaration_names(decl))), mathlib)
    cert = _go(decl.type, (), (), ctx)
    residual = len(ctx.shadows) == 1 and ctx.shadows[0].kind == "identity"
    return Decomposition(ctx.shadows, cert, residual)


def _go(term: Term, path: tuple[Step, ...], frames: tuple[Frame, ...], ctx: _Ctx):
    if isinstance(term, BinOp) and term.op == AND:
        left = _go(term.left, path + (Step("left"),), frames, ctx)
        right = _go(term.right, path + (Step("right"),), frames, ctx)
        return CertPair("and", left, right)
    if isinstance(term, BinOp) and term.op == IFF:
        # A ↔ B  ≡  (A → B) ∧ (B → A): each direction is decomposed as an implication.
        mp = _go(BinOp(IMP, term.left, term.right), path + (Step("mp"),), frames, ctx)
        mpr = _go(BinOp(IMP, term.right, term.left), path + (Step("mpr"),), frames, ctx)
        return CertPair("iff", mp, mpr)
    if isinstance(term, BinOp) and term.op == IMP and _decomposes(term.right, ctx):
        name = ctx.fresh("h")
        body = _go(term.right, path + (Step("intro", (name,)),), frames + (Frame("imp", term),), ctx)
        return CertIntro((name,), body)
    if isinstance(term, Quant) and term.kind == "∀" and _decomposes(term.body, ctx.with_binders(term.binders)):
        names, brackets, originals = intro_binders(term.binders, ctx.fresh)
        inner = _Ctx(ctx.env.extend(term.binders), ctx.fresh, ctx.mathlib, ctx.shadows)
        step = Step("intro", names, brackets=brackets, originals=originals)
        body = _go(term.body, path + (step,), frames + (Frame("forall", term),), inner)
        return CertIntro(names, body, brackets)
    if isinstance(term, Let) and _decomposes(term.body, ctx.with_let(term)):
        inner = ctx.with_let(term)
        return CertLet(_go(term.body, path + (Step("let"),), frames + (Frame("let", term),), inner))
    if isinstance(term, Rel) and term.op == "=":
        split = equality_split(term, ctx.env, mathlib=ctx.mathlib)
        if split is not None:
            le = _leaf(Rel(split.relation, term.left, term.right), path + (Step("le", split=split),), frames,
                       ctx, "le")
            ge = _leaf(Rel(split.relation, term.right, term.left), path + (Step("ge", split=split),), frames,
                       ctx, "ge")
            return CertPair("antisymm", le, ge, split)
    kind = _leaf_kind(path)
    return _leaf(term, path, frames, ctx, kind)


def _leaf_kind(path: tuple[Step, ...]) -> str:
    for step in reversed(path):
        if step.kind in ("left", "right"):
            return "conjunct"
        if step.kind in ("mp", "mpr"):
            return f"iff_{step.kind}"
    return "identity"


def _leaf(term: Term, path, frames, ctx: _Ctx, kind: str) -> CertLeaf:
    statement = term
    for frame in reversed(frames):
        statement = frame.wrap(statement)
    ctx.shadows.append(Shadow(kind, path, statement, term))
    return CertLeaf(len(ctx.shadows) - 1)


def _decomposes(term: Term, ctx) -> bool:
    """Whether a rule applies somewhere under ``term`` (else a ∀/→ around it is kept whole in one shadow)."""
    if isinstance(term, BinOp):
        if term.op in (AND, IFF):
            return True
        return term.op == IMP and _decomposes(term.right, ctx)
    if isinstance(term, Quant):
        return term.kind == "∀" and _decomposes(term.body, ctx.with_binders(term.binders))
    if isinstance(term, Let):
        return _decomposes(term.body, ctx.with_let(term))
    if isinstance(term, Rel) and term.op == "=":
        return equality_split(term, ctx.env, mathlib=ctx.mathlib) is not None
    return False


def _with_binders(self: _Ctx, binders: tuple[Binder, ...]) -> _Ctx:
    return _Ctx(self.env.extend(binders), self.fresh, self.mathlib, self.shadows)


def _with_let(self: _Ctx, let: Let) -> _Ctx:
    declared = render_term(let.type) if let.type is not None and not let.binders else None
    value = let.value if not let.binders else None
    env = self.env.bind_let(let.name, declared, value) if let.name.isidentifier() else self.env
    return _Ctx(env, self.fresh, self.mathlib, self.shadows)


_Ctx.with_binders = _with_binders  # type: ignore[attr-defined]
_Ctx.with_let = _with_let  # type: ignore[attr-defined]


def intro_names(binders: tuple[Binder, ...], fresh: FreshNames) -> tuple[str, ...]:
    """Lambda names for entering ∀ binders: one per bound name, plus one per bounded-binder hypothesis."""
    return intro_binders(binders, fresh)[0]


def intro_binders(binders: tuple[Binder, ...], fresh: FreshNames
                  ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``intro_names`` with each name's binder kind and its name in the statement (see ``Step``).

    A bounded binder ``∀ x ∈ s,`` is ``∀ x, x ∈ s → …``: its hypothesis is explicit whatever the binder's kind.
    """
    names: list[str] = []
    brackets: list[str] = []
    originals: list[str] = []
    for b in binders:
        bracket = "(" if b.bracket in ("(", "") else b.bracket
        for n in b.names or ("inst",):
            names.append(fresh(n))
            brackets.append(bracket)
            originals.append(n if b.names else "")
            if b.bound is not None:
                names.append(fresh("h"))
                brackets.append("(")
                originals.append("")
    return tuple(names), tuple(brackets), tuple(originals)


def recompose(decomposition: Decomposition) -> Term:
    """Rebuild the conclusion from the shadows' statements by following the certificate.

    This inverts every rule — peel the ∀/→/let each shadow was re-wrapped in, then put ∧, ↔ and = back together —
    and raises ``ValueError`` when the shadows do not fit the certificate. Comparing the result with the original
    conclusion is the structural completeness test.
    """
    views = {i: s.statement for i, s in enumerate(decomposition.shadows)}
    return _rebuild(decomposition.certificate, views)


def _leaves(node) -> list[int]:
    if isinstance(node, CertLeaf):
        return [node.index]
    if isinstance(node, CertPair):
        return _leaves(node.left) + _leaves(node.right)
    return _leaves(node.body)


def _rebuild(node, views: dict[int, Term]) -> Term:
    if isinstance(node, CertLeaf):
        return views[node.index]
    if isinstance(node, (CertIntro, CertLet)):
        indices = _leaves(node.body)
        frame = views[indices[0]]
        for i in indices:
            v = views[i]
            if not _same_frame(v, frame):
                raise ValueError(f"shadow {i} does not share the frame {type(frame).__name__}")
            views[i] = v.right if isinstance(v, BinOp) else v.body
        return Frame("frame", frame).wrap(_rebuild(node.body, views))
    if isinstance(node, CertPair):
        left = _rebuild(node.left, views)
        right = _rebuild(node.right, views)
        if node.kind == "and":
            return BinOp(AND, left, right)
        if node.kind == "iff":
            if not (isinstance(left, BinOp) and isinstance(right, BinOp) and left.op == right.op == IMP
                    and left.left == right.right and left.right == right.left):
                raise ValueError("iff directions do not mirror each other")
            return BinOp(IFF, left.left, left.right)
        if not (isinstance(left, Rel) and isinstance(right, Rel) and left.left == right.right
                and left.right == right.left):
            raise ValueError("inequalities do not mirror each other")
        return Rel("=", left.left, left.right)
    raise TypeError(node)


def _same_frame(v: Term, frame: Term) -> bool:
    if isinstance(frame, Quant):
        return isinstance(v, Quant) and v.kind == frame.kind and v.binders == frame.binders
    if isinstance(frame, BinOp):
        return isinstance(v, BinOp) and v.op == IMP and v.left == frame.left
    if isinstance(frame, Let):
        return isinstance(v, Let) and replace(v, body=frame.body) == frame
    return False
