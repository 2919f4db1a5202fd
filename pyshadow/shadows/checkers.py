"""Checker theorems for a decomposition: canonical proof terms, and the tactic forms built from them.

Every checker has a **canonical proof term** — the plain projection path (forward) or constructor term (backward)
— built here from the path and the certificate alone. The same builder serves both tiers: the full tier states the
checker in the reference's own Lean, the kernel tier in an abstracted prelude file (``pyshadow.kernel``); only the
*head* (how the target is applied) and the statement printer differ.

The full tier's Lean layout — docstring, header, ``first | … | …`` — is in the templates ``templates/lean/``
(``forward.lean.j2``, ``backward.lean.j2``); this module computes the terms they are filled with.

Forward checker of a generated shadow, the three alternatives of docs/checker-idioms.md "Forward checker" [paper]:
1. ``exact <term>`` with the target applied to the reference's explicit arguments;
2. ``exact (let _hc := <target args>; <term over _hc>)``;
3. ``exact <term over (show FULL by apply TARGET <;> assumption)>`` — argument-agnostic; the ``show … by`` is
   parenthesised so its tactic block cannot swallow what follows (the delimited form the idioms note gives).

Forward checker of an expert/LLM shadow (``pyshadow.shadows.merge``): a consequence, not a projection, so there is
no term to project — the paper's pattern for non-structural sub-claims, with ``simpa using`` in place of the
projection (``simpa`` is core Lean: ``Lean.Elab.Tactic.Simpa``, syntax in ``Init/Tactics.lean``; it simplifies
goal and hypothesis alike, then closes the goal with the hypothesis up to defeq, so it subsumes ``exact``):
1. ``simpa using <target args>``;  2. ``(have _hc := <target args>; simpa using _hc)``;
3. ``simpa using (show FULL by apply TARGET <;> assumption)``.
Such a checker has no canonical term (``Checker.term == ""``); the kernel tier checks generated shadows only.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import jinja2

from ..paths import TEMPLATES_DIR
from ..syntax.ast import Binder, Declaration, Term, declaration_names
from ..syntax.render import render_binder, render_term
from .expert import CONSEQUENCE_KINDS
from .rules import CertIntro, CertLeaf, CertLet, CertPair, Decomposition, Shadow
from .types import EqualitySplit
from .universes import (  # noqa: F401 - re-exported: the checkers' universe names and pins live there
    UNIVERSE_HOLE, UniverseNamer, atom_idents, auto_bound_implicits, has_universe_hole, name_universes,
    universe_names, universe_occurrences, universe_parameters, with_auto_bound, _universe_namer,
)


# Certificate hypotheses are `hS_1`, `hS_2`, …; ``FreshNames`` never produces that prefix, so a lambda-bound name
# can never shadow one.
CERT_HYP = "hS_"


def certificate_prefix(names, count: int) -> str:
    """The certificate hypotheses' prefix: ``hS_`` unless the statement itself uses a name ``hS_i`` (then
    ``hShadow_``, ``hS1_`` …). ``FreshNames`` never produces names starting with ``hS``, so lambda-bound names
    cannot collide either."""
    for prefix in (CERT_HYP, "hShadow_", *(f"hS{k}_" for k in range(1, 1000))):
        if not any(f"{prefix}{i}" in names for i in range(1, count + 1)):
            return prefix
    raise ValueError("no free certificate hypothesis prefix")
# The argument-agnostic head of the third forward alternative: the target's full conclusion, obtained by letting
# unification apply the target. Parenthesised, so the tactic block of `show … by` cannot swallow what follows.
SHOW_HEAD = "(show {conclusion} by apply {target} <;> assumption)"

# ---------------------------------------------------------------------------------------------------------------
# Canonical proof terms (pure string builders, shared by both tiers)


def _paren(expr: str) -> str:
    """Parenthesise ``expr`` unless it is a single name or projection chain (no space outside brackets)."""
    depth = 0
    for ch in expr:
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        elif ch == " " and depth == 0:
            return f"({expr})"
    return expr


# How a lambda binds a name of each binder kind. Lean introduces `{}`/`⦃⦄`/`[]` binders of an expected ∀ itself
# (the implicit lambda feature), so an unannotated `fun k_1 =>` would bind the *next* argument; the annotation
# makes the lambda bind exactly that binder. `{x}` against an instance binder `[C α]` elaborates (Lean only
# checks the binder is not explicit), and the bound name is a local instance since its type is a class.
LAMBDA_BINDERS = {"(": "{}", "{": "{{{}}}", "⦃": "⦃{}⦄", "[": "{{{}}}"}


def lambda_binder(name: str, bracket: str) -> str:
    """``x_1``, ``{k_1}``, ``⦃k_1⦄`` or ``{inst_1}``: one lambda binder of the given kind."""
    return LAMBDA_BINDERS.get(bracket, "{}").format(name)


def lambda_binders(names, brackets) -> str:
    return " ".join(lambda_binder(n, brackets[i] if i < len(brackets) else "(") for i, n in enumerate(names))


def forward_term(shadow: Shadow, head: str) -> str:
    """Proof of the shadow from ``head`` (a proof of the target's conclusion under the checker's binders).

    ``head`` is ``@target a₁ … aₙ`` (every argument positional) or a term of the conclusion's type (``_hc``, the
    ``show … by`` form). Entering a ∀ binds each variable with its own annotation (``lambda_binder``) and passes
    it: positionally while the term is still the ``@``-application (``@target n k_1``, which takes every argument
    explicitly); after a projection an explicit variable positionally and a non-explicit one by name,
    ``(k := k_1)`` — Lean would otherwise instantiate it itself and give ``k_1`` to the next explicit argument. An
    anonymous instance binder is not passed at all: the lambda-bound instance is found by instance resolution.
    """
    expr = head
    explicit_mode = head.startswith("@")  # still the @-application: every argument is positional
    applied = True  # ``expr`` is an application (or an atom) that takes more arguments without parentheses
    lambdas: list[str] = []
    for step in shadow.path:
        if step.kind in ("left", "right", "mp", "mpr"):
            field = {"left": "1", "right": "2"}.get(step.kind, step.kind)
            # `@target.mp` would read as the constant `target.mp`: an @-term is always parenthesised
            expr = f"({expr}).{field}" if expr.startswith("@") and _paren(expr) == expr else f"{_paren(expr)}.{field}"
            explicit_mode, applied = False, True
        elif step.kind == "intro":
            for i, name in enumerate(step.names):
                bracket = step.bracket(i)
                lambdas.append(lambda_binder(name, bracket))
                if explicit_mode or bracket == "(":
                    argument = name
                elif step.original(i):
                    argument = f"({step.original(i)} := {name})"
                else:
                    continue
                expr = f"{expr if applied else _paren(expr)} {argument}"
                applied = True
        elif step.kind in ("le", "ge"):
            split: EqualitySplit = step.split  # type: ignore[assignment]
            expr = (split.le if step.kind == "le" else split.ge).format(h=expr)
            explicit_mode, applied = False, False
        # "let": definitional, nothing to apply
    return f"fun {' '.join(lambdas)} => {expr}" if lambdas else expr


def certificate_term(decomposition: Decomposition, leaf_head) -> str:
    """Proof of the target's conclusion from the shadow hypotheses.

    ``leaf_head(i, intro_names)`` returns the proof of shadow ``i`` at a point where ``intro_names`` are bound
    (e.g. ``@h_1 n h x_1``). Lambdas bind each name with its binder kind (``lambda_binder``).
    """

    def go(node, bound: tuple[str, ...]) -> str:
        if isinstance(node, CertLeaf):
            return leaf_head(node.index, bound)
        if isinstance(node, CertLet):
            return go(node.body, bound)
        if isinstance(node, CertIntro):
            return f"fun {lambda_binders(node.names, node.brackets)} => {go(node.body, bound + node.names)}"
        if isinstance(node, CertPair):
            left, right = go(node.left, bound), go(node.right, bound)
            if node.kind in ("and", "iff"):
                return f"⟨{left}, {right}⟩"
            return f"{node.split.antisymm} ({left}) ({right})"
        raise TypeError(node)

    return go(decomposition.certificate, ())


# ---------------------------------------------------------------------------------------------------------------
# The full tier: checkers stated in the reference's own Lean


@dataclass(frozen=True)
class Checker:
    """One named checker theorem: ``text`` is its Lean source, ``term`` its canonical proof term."""

    name: str
    kind: str  # "forward" | "backward"
    statement: str
    term: str
    text: str
    shadow_index: int | None = None
    hypotheses: str = ""  # a certificate's shadow hypotheses `(hS_1 : ∀ …, S₁) …`, for checks built on it
    # The statement's parts, for stating it elsewhere (pyshadow.score.full: the shadow statements module): the
    # header binders as written, the names a proof `intro`s in their order, and a certificate's hypotheses one by one
    binders: str = ""
    arguments: tuple[str, ...] = ()
    hypothesis_list: tuple[tuple[str, str], ...] = ()  # (name, type)


def checker_prefix(problem_id: str) -> str:
    """``shadow_<problem>``: a stable identifier prefix, so a message traces back to its problem."""
    safe = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in problem_id)
    return f"shadow_{safe.strip('_') or 'problem'}"


def named_binders(binders: tuple[Binder, ...]) -> tuple[Binder, ...]:
    """Every binder gets a name the checkers can pass explicitly.

    Anonymous instance binders become ``inst_1`` …, ``_`` becomes ``anon_1`` …, and a name bound twice (real
    statements do this: ``(h₀ : 0 < n) (h₀ : … = 1994)``) keeps its last binding — the one later types see — while
    the earlier one is renamed ``h₀_shadowed_1``; renaming does not change the statement's meaning.
    """
    last_index = {n: i for i, b in enumerate(binders) for n in b.names}
    out, k = [], 0
    for i, b in enumerate(binders):
        names = list(b.names)
        if b.is_instance and not names:
            k += 1
            names = [f"inst_{k}"]
        for j, n in enumerate(names):
            if n == "_":
                k += 1
                names[j] = f"anon_{k}"
            elif last_index.get(n, i) != i or names.count(n) > 1 and names.index(n) != j:
                k += 1
                names[j] = f"{n}_shadowed_{k}"
        if tuple(names) != b.names:
            b = Binder(b.bracket, tuple(names), b.type, b.default, b.bound)
        out.append(b)
    return tuple(out)


def name_declaration_universes(decl: Declaration, dec: Decomposition
                               ) -> tuple[tuple[Binder, ...], Term, list[Term], tuple[str, ...]]:
    """Binders (named ``named_binders``), conclusion and shadow statements of one target with every universe hole
    named consistently, and the universe names to declare."""
    decl = with_auto_bound(decl)
    namer, explicit = _universe_namer(decl)
    binders = namer.binders(named_binders(decl.binders))
    conclusion = namer.term(decl.type)
    statements = [namer.term(s.statement) for s in dec.shadows]
    return binders, conclusion, statements, (*explicit, *namer.universes)


def explicit_arguments(binders: tuple[Binder, ...]) -> list[str]:
    return [n for b in binders if b.bracket == "(" for n in b.names]


def all_arguments(binders: tuple[Binder, ...]) -> list[str]:
    return [n for b in binders for n in b.names]


def _quantified(binders: tuple[Binder, ...]) -> str:
    """The target's binders as a ∀ prefix for a certificate hypothesis: variables implicit, hypotheses explicit."""
    parts = []
    for b in binders:
        if b.is_instance:
            parts.append(render_binder(b))
        elif b.bracket == "(" and _is_hypothesis(b):
            parts.append(render_binder(Binder("(", b.names, b.type)))
        else:
            parts.append(render_binder(Binder("{", b.names, b.type)))
    return " ".join(parts)


def _is_hypothesis(b: Binder) -> bool:
    from ..syntax.ast import is_proposition

    return is_proposition(b)


@dataclass(frozen=True)
class CheckerSet:
    """The checkers of one target and the universe names their file must declare."""

    checkers: tuple[Checker, ...]
    universes: tuple[str, ...]

    @property
    def forward(self) -> tuple[Checker, ...]:
        return tuple(c for c in self.checkers if c.kind == "forward")

    @property
    def backward(self) -> Checker | None:
        return next((c for c in self.checkers if c.kind == "backward"), None)


def full_tier_checkers(problem_id: str, target: str, decl: Declaration, dec: Decomposition) -> CheckerSet:
    """Forward checkers and the backward certificate of one target, in tactic form (full toolchain).

    ``target`` is the fully qualified name by which the checkers refer to the declaration under test. ``dec`` may
    carry expert/LLM shadows merged in by ``pyshadow.shadows.merge`` (after the generated ones): each gets a forward
    checker of the consequence form; the certificate is built from the generated shadows alone.
    """
    prefix = checker_prefix(problem_id)
    binders, conclusion_term, statements, universes = name_declaration_universes(decl, dec)
    binder_text = " ".join(render_binder(b) for b in binders)
    conclusion = render_term(conclusion_term)
    head = target_head(target, binders)
    show_head = SHOW_HEAD.format(conclusion=conclusion, target=target)
    checkers: list[Checker] = []
    for i, shadow in enumerate(dec.shadows, start=1):
        name = f"{prefix}_{i}"
        statement = render_term(statements[i - 1])
        context = {"name": name, "binders": binder_text, "statement": statement, "head": head}
        if is_consequence(shadow):
            # No path, so no projection to write: the checker simplifies the target's statement into the shadow.
            term = ""
            context.update(form="consequence", show_head=show_head,
                           doc=f"Shadow {i}: {shadow.kind} consequence ({shadow.provenance})")
        else:
            term = forward_term(shadow, head)
            context.update(form="projection", direct=term, via_let=forward_term(shadow, "_hc"),
                           via_show=forward_term(shadow, show_head), nonempty=statement.startswith("Nonempty "),
                           doc=f"Shadow {i}: {shadow.kind} `{shadow.path_text}`")
        checkers.append(Checker(name, "forward", statement, term, render_lean("forward", context), i - 1,
                                binders=binder_text, arguments=tuple(all_arguments(binders))))
    if not dec.residual:
        hyp = certificate_prefix(declaration_names(decl), len(dec.shadows))
        checkers.append(_full_certificate(prefix, binders, binder_text, conclusion, dec, statements, hyp))
    return CheckerSet(tuple(checkers), universes)


def target_head(target: str, binders: tuple[Binder, ...]) -> str:
    """``@target a₁ … aₙ``: the target applied to every binder of the statement, by position.

    Both tiers' first alternative. Every argument is given (instances by their ``named_binders`` name), so nothing
    is left to unification or instance search: the term elaborates for the reference whatever its binder kinds,
    and ``@`` carries on into the conclusion's own ∀ binders (``@target n k_1`` for ``∀ {k}, …``).
    """
    return " ".join([f"@{target}", *all_arguments(binders)])


def _full_certificate(prefix, binders, binder_text, conclusion, dec: Decomposition, statements, hyp: str) -> Checker:
    # Only the generated shadows become hypotheses: they come first in ``dec.shadows`` and the certificate tree
    # indexes exactly them. Expert and LLM shadows add forward checks; they never enter (or weaken) completeness.
    quantified = _quantified(binders)
    hyps, hypothesis_list = [], []
    for i, shadow in enumerate(dec.shadows, start=1):
        if is_consequence(shadow):
            continue
        prop = render_term(statements[i - 1])
        hypothesis_list.append((f"{hyp}{i}", f"∀ {quantified}, {prop}" if quantified else prop))
        hyps.append(f"({hyp}{i} : {hypothesis_list[-1][1]})")
    args = all_arguments(binders)

    def leaf(index: int, bound: tuple[str, ...]) -> str:
        return " ".join([f"@{hyp}{index + 1}", *args, *bound])

    term = certificate_term(dec, leaf)
    name = f"{prefix}_complete"
    context = {"doc": "Backward completeness certificate", "name": name, "binders": " ".join([binder_text, *hyps]).strip(),
               "statement": conclusion, "term": term}
    return Checker(name, "backward", conclusion, term, render_lean("backward", context), hypotheses=" ".join(hyps),
                   binders=context["binders"], arguments=(*args, *(n for n, _ in hypothesis_list)),
                   hypothesis_list=tuple(hypothesis_list))


# ---------------------------------------------------------------------------------------------------------------
# Templates: the Lean layout lives in ``templates/lean/`` (and ``templates/lakefile.toml.j2``)


def is_consequence(shadow: Shadow) -> bool:
    """An expert or LLM shadow: a consequence of the target with no projection path (``merge.CONSEQUENCE_KINDS``)."""
    return shadow.kind in CONSEQUENCE_KINDS


@functools.lru_cache(maxsize=1)
def template_environment() -> jinja2.Environment:
    """The one Jinja2 environment for generated Lean and Lake files, rooted at ``templates/``; built on first use.

    ``StrictUndefined``: a template asking for a value the caller did not pass is an error naming it. No
    autoescaping (the output is Lean, not HTML); block tags do not leave blank lines behind.
    """
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


@functools.lru_cache(maxsize=None)
def _template(name: str) -> jinja2.Template:
    return template_environment().get_template(name)


def render_template(name: str, context: Mapping[str, object]) -> str:
    """Render ``templates/<name>`` with ``context``."""
    return _template(name).render(context)


def render_lean(kind: str, context: Mapping[str, object]) -> str:
    """One checker theorem from ``templates/lean/<kind>.lean.j2``, without a trailing newline."""
    return render_template(f"lean/{kind}.lean.j2", context).rstrip("\n")
