"""The skeleton search: a small goal-directed prover that proposes proof terms over a statement's abstraction.

Intro ∀/→, split ∧/↔/= on the goal, project ∧/↔ facts, apply ∀/→ facts whose conclusion matches (variables matched
by name, else by abstract type), turn an equality into ``le_of_eq``/``ge_of_eq``, take ∨/∃ facts apart. Goals and
facts are compared by their printed abstract keys (``Prover.key``). The search only proposes terms; Lean decides
(``pyshadow.kernel.skeleton`` states the checks with them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import islice, product

from .abstraction import Printer, Scope
from .prelude import PRELUDE_AXIOMS
from .alpha import canonical_binders, rename, rename_binders_apart
from ..syntax.ast import AND, IFF, IMP, OR, Atom, Binder, BinOp, Let, Not, Quant, Rel, Term, is_proposition
from ..syntax.names import FreshNames

MAX_DEPTH = 6
SATURATION_ROUNDS = 4
MAX_VARIABLE_CHOICES = 32  # choices of variables tried for one rule against one goal (``Prover.instantiate``)



@dataclass(frozen=True)
class Param:
    kind: str  # "var" | "prop"
    name: str
    tree: Term | None  # the binder's type (var) or the premise (prop)
    type_key: str = ""
    instance: bool = False  # an instance binder read as a hypothesis: a bare name is passed unparenthesised


@dataclass(frozen=True)
class Fact:
    term: str  # Lean term proving it
    tree: Term


@dataclass(frozen=True)
class Rule:
    """A function fact: ``head`` applied to ``params`` proves ``conclusion``."""

    head: str
    params: tuple[Param, ...]
    conclusion: Term


@dataclass
class Context:
    scope: Scope
    facts: list[Fact]
    rules: list[Rule]
    eliminated: frozenset[str] = frozenset()  # ∨/∃ facts already taken apart on this branch


@dataclass(frozen=True)
class _False:
    """The goal ``False`` a negation leaves after its intro (``¬A`` is ``A → False`` in the kernel tier)."""


FALSE = _False()

# Core's eliminators, stated as Lean core states them (src/Init/Core.lean `Or.elim`, `Exists.elim`) and proved here
# from the recursors the prelude's `inductive Or`/`Exists` generate — theorems, not axioms, so nothing is assumed.
ELIMINATORS = """theorem Or.elim {a b c : Prop} (h : Or a b) (left : a → c) (right : b → c) : c :=
  Or.rec (motive := fun _ => c) left right h
theorem Exists.elim {α : Sort u} {p : α → Prop} {b : Prop} (h₁ : Exists (fun x => p x))
    (h₂ : ∀ (a : α), p a → b) : b :=
  Exists.rec (motive := fun _ => b) h₂ h₁
"""


class Prover:
    def __init__(self, printer: Printer):
        self.pr = printer
        self.fresh = FreshNames(template="{base}_sk{n}", shared_counter=True)  # h_sk1, x_sk2 …
        # Printed keys by (node identity, scope): the search compares the same facts against many goals. The node
        # is kept in the value so its id cannot be reused by another object while the entry lives.
        self._keys: dict[tuple[int, tuple], tuple[Term, str]] = {}

    def key(self, term: Term, scope: Scope) -> str:
        if term is FALSE:
            return self.pr.q("False")
        memo = (id(term), tuple(scope.entries))
        hit = self._keys.get(memo)
        if hit is not None and hit[0] is term:
            return hit[1]
        printed = self.pr.prop(canonical_binders(term), scope)
        self._keys[memo] = (term, printed)
        return printed

    def name(self, hint: str = "h") -> str:
        return self.fresh(hint)

    def type_key(self, b: Binder, scope: Scope) -> str:
        return self.pr._binder_type(b, scope)[0]

    # -- facts -----------------------------------------------------------------------------------------------
    def add_fact(self, ctx: Context, term: str, tree: Term) -> None:
        """Add a fact and everything projections give (∧ → .1 .2, ↔ → .mp .mpr); ∀/→ facts become rules."""
        if isinstance(tree, BinOp) and tree.op == AND:
            self.add_fact(ctx, f"({term}).1", tree.left)
            self.add_fact(ctx, f"({term}).2", tree.right)
        elif isinstance(tree, BinOp) and tree.op == IFF:
            self.add_fact(ctx, f"({term}).mp", BinOp(IMP, tree.left, tree.right))
            self.add_fact(ctx, f"({term}).mpr", BinOp(IMP, tree.right, tree.left))
        if _is_rule(tree):
            params, concl = self.peel(tree, ctx.scope, negation=True)
            ctx.rules.append(Rule(f"({term})", params, concl))
        ctx.facts.append(Fact(term, tree))

    def peel(self, tree: Term, scope: Scope, negation: bool = False) -> tuple[tuple[Param, ...], Term]:
        """The ∀/→ parameters of ``tree`` and its conclusion; with ``negation``, a ``tree`` that is itself ``¬A``
        (or ``≠``/``∉``) peels to the parameter ``A`` and the conclusion ``False``."""
        params: list[Param] = []
        while True:
            if isinstance(tree, Quant) and tree.kind == "∀":
                # An inner binder named like an outer parameter (`∀ x y, P x y → ∀ x y : A, Q x y`) is renamed
                # apart: parameters are instantiated by name, and the two `x` are different arguments.
                tree = rename_binders_apart(tree, {p.name for p in params if p.kind == "var"}, self.name)
                for b in tree.binders:
                    for n in b.names or ("_",):
                        if b.type is not None and not b.is_instance and is_proposition(b):
                            params.append(Param("prop", n, b.type))
                        else:
                            params.append(Param("var", n, b.type, self.type_key(b, scope)))
                            scope = scope.bind(n, params[-1].type_key)
                        if b.bound is not None:
                            params.append(Param("prop", "_", Rel(b.bound[0], Atom(n, (n,)), b.bound[1])))
                tree = tree.body
            elif isinstance(tree, BinOp) and tree.op == IMP:
                params.append(Param("prop", "_", tree.left))
                tree = tree.right
            elif negation and not params and _negated(tree) is not None:
                # `¬A`, `a ≠ b`, `a ∉ s` are `A → False` (Init/Prelude.lean `Not`, Init/Core.lean `Ne`, `∉`).
                params.append(Param("prop", "_", _negated(tree)))
                return tuple(params), FALSE
            else:
                return tuple(params), tree

    def instantiate(self, rule: Rule, ctx: Context, depth: int, goal_key: str | None = None
                    ) -> tuple[str, Term] | None:
        """Apply a rule in ``ctx``: variables by name (else by abstract type), premises by search.

        With ``goal_key`` (the rule is applied to prove that goal), when the default choice of variables does not
        give the goal, other choices of in-scope variables of the same abstract types are tried (at most
        ``MAX_VARIABLE_CHOICES``): an α-renamed statement binds its variables under other names, so the by-name
        choice can pick the wrong one (``∀ y, R x y`` read where the candidate says ``∀ x, R y x``)."""
        entries = ctx.scope.entries
        in_scope = set(entries)
        var_params = [p for p in rule.params if p.kind == "var"]
        claimed = {q.name for q in var_params if (q.name, q.type_key) in in_scope}
        default: list[str | None] = []
        used: set[str] = set()
        for p in var_params:
            chosen = next((n for n, t in reversed(entries) if n == p.name != "_" and t == p.type_key), None)
            if chosen is None:
                # By abstract type, skipping names another parameter will take by name (same name, same type).
                chosen = next((n for n, t in entries if t == p.type_key and n not in used and n not in claimed
                               and n != "_"), None)
            if chosen is not None:
                used.add(chosen)
            default.append(chosen)
        combos: list[tuple[str, ...]] = [tuple(default)] if None not in default else []
        if goal_key is not None and var_params and (not combos or self._key_of(rule, combos[0], ctx) != goal_key):
            bound = ctx.scope
            for p in var_params:
                bound = bound.bind(p.name, p.type_key)
            if _shape(self.key(rule.conclusion, bound)) != _shape(goal_key):
                return None  # no choice of variables changes anything but variable names
            options = [list(dict.fromkeys(n for n, t in reversed(entries) if t == p.type_key and n != "_"))
                       for p in var_params]
            combos = list(islice((c for c in product(*options) if c not in combos), MAX_VARIABLE_CHOICES))
        for combo in combos:
            mapping = {p.name: c for p, c in zip(var_params, combo) if c != p.name}
            conclusion = rename(rule.conclusion, mapping)
            if goal_key is not None and self.key(conclusion, ctx.scope) != goal_key:
                continue
            args: list[str] = []
            chosen_vars = iter(combo)
            for p in rule.params:
                if p.kind == "var":
                    args.append(next(chosen_vars))
                    continue
                proof = self.prove(rename(p.tree, mapping), ctx, depth + 1, use_rules=False)
                if proof is None:
                    break
                args.append(proof if p.instance and proof.isidentifier() else f"({proof})")
            else:
                term = f"{rule.head} {' '.join(args)}" if args else rule.head
                return term, conclusion
        return None

    def _key_of(self, rule: Rule, combo: tuple[str, ...], ctx: Context) -> str:
        """The printed conclusion of ``rule`` with its variables as ``combo``."""
        var_params = [p for p in rule.params if p.kind == "var"]
        mapping = {p.name: c for p, c in zip(var_params, combo) if c != p.name}
        return self.key(rename(rule.conclusion, mapping) if mapping else rule.conclusion, ctx.scope)

    def saturate(self, ctx: Context, depth: int) -> None:
        """Apply every rule that fully instantiates here, adding its conclusion (and projections) as facts —
        to a fixpoint (bounded), since a conclusion can itself be a rule (a candidate whose ∀ moved inward)."""
        done: set[str] = set()
        for _ in range(SATURATION_ROUNDS):
            added = False
            for rule in list(ctx.rules):
                if rule.head in done:
                    continue
                got = self.instantiate(rule, ctx, depth)
                if got is not None:
                    done.add(rule.head)
                    term, concl = got
                    if not any(f.term == term for f in ctx.facts):
                        self.add_fact(ctx, term, concl)
                        added = True
            if not added:
                return

    # -- goals -----------------------------------------------------------------------------------------------
    def prove(self, goal: Term, ctx: Context, depth: int = 0, use_rules: bool = True) -> str | None:
        if depth > MAX_DEPTH:
            return None
        goal_key = self.key(goal, ctx.scope)
        for f in ctx.facts:
            if self.key(f.tree, ctx.scope) == goal_key:
                return f.term
        if isinstance(goal, BinOp) and goal.op == AND:
            # Splitting a conjunction costs no depth: thirteen bundled hypotheses are still one step.
            a = self.prove(goal.left, ctx, depth, use_rules)
            b = a and self.prove(goal.right, ctx, depth, use_rules)
            return f"⟨{a}, {b}⟩" if a and b else None
        if isinstance(goal, BinOp) and goal.op == IFF:
            a = self.prove(BinOp(IMP, goal.left, goal.right), ctx, depth, use_rules)
            b = a and self.prove(BinOp(IMP, goal.right, goal.left), ctx, depth, use_rules)
            return f"⟨{a}, {b}⟩" if a and b else None
        if (isinstance(goal, BinOp) and goal.op == IMP) or (isinstance(goal, Quant) and goal.kind == "∀"):
            return self._intro(goal, ctx, depth, use_rules)
        if isinstance(goal, BinOp) and goal.op == OR:
            for side, ctor in ((goal.left, "Or.inl"), (goal.right, "Or.inr")):
                proof = self.prove(side, ctx, depth + 1, use_rules)
                if proof is not None:
                    return f"{ctor} ({proof})"
        if isinstance(goal, Quant) and goal.kind == "∃":
            proof = self._exists_intro(goal, ctx, depth, use_rules) or self._exists_congruence(goal, ctx, depth,
                                                                                               use_rules)
            if proof is not None:
                return proof
        if isinstance(goal, Let):
            return self._let(goal, ctx, depth, use_rules)
        if isinstance(goal, Rel) and goal.op in ("≤", "⊆"):
            eq_lemmas = ("le_of_eq", "ge_of_eq") if goal.op == "≤" else ("subset_of_eq", "superset_of_eq")
            for lemma, eq in ((eq_lemmas[0], Rel("=", goal.left, goal.right)),
                              (eq_lemmas[1], Rel("=", goal.right, goal.left))):
                k = self.key(eq, ctx.scope)
                for f in ctx.facts:
                    if self.key(f.tree, ctx.scope) == k:
                        return f"{lemma} ({f.term})"
        if isinstance(goal, Rel) and goal.op == "=":
            for rel, lemma in (("≤", "le_antisymm"), ("⊆", "subset_antisymm")):
                a = self.prove(Rel(rel, goal.left, goal.right), ctx, depth + 1, use_rules)
                b = a and self.prove(Rel(rel, goal.right, goal.left), ctx, depth + 1, use_rules)
                if a and b:
                    return f"{lemma} ({a}) ({b})"
        for rule in ctx.rules:
            # Without rules (a premise's proof) a ∀ fact without premises still applies: it costs no search, and
            # is how a hypothesis reaches a variable bound under it (`∀ x', R x x'` from `h : ∀ y, R x y`).
            if not use_rules and any(p.kind != "var" for p in rule.params):
                continue
            got = self.instantiate(rule, ctx, depth, goal_key)
            if got is not None and self.key(got[1], ctx.scope) == goal_key:
                return got[0]
        if _negated(goal) is not None:
            # `¬A`: assume `A`, prove `False` (after the direct routes, so a matching fact or rule is used as is).
            return self._intro(goal, ctx, depth, use_rules, negation=True)
        if use_rules and depth < MAX_DEPTH - 1:
            return self._eliminate(goal, ctx, depth)
        return None

    # -- ∃ and ∨ (intuitionistic: introduction with a witness in scope, elimination into the goal) -------------
    def _first_binder(self, q: Quant, scope: Scope) -> tuple[str, str, Term] | None:
        """``∃ x y, P`` as (x, x's abstract type, ``∃ y, P``) — a bounded ``∃ x > 0, P`` as ``x > 0 ∧ P``, as the
        printer states it; None for a proposition binder."""
        b = q.binders[0]
        if b.type is not None and not b.is_instance and is_proposition(b):
            return None
        names = b.names or ("_",)
        name = names[0]
        ty = self.type_key(b, scope)
        rest_binders = ((replace(b, names=names[1:]),) if len(names) > 1 else ()) + q.binders[1:]
        rest: Term = Quant(q.kind, rest_binders, q.body) if rest_binders else q.body
        if b.bound is not None:
            rest = BinOp(AND, Rel(b.bound[0], Atom(name, (name,)), b.bound[1]), rest)
        return name, ty, rest

    def _exists_intro(self, goal: Quant, ctx: Context, depth: int, use_rules: bool) -> str | None:
        first = self._first_binder(goal, ctx.scope)
        if first is None:
            return None
        name, ty, rest = first
        for var, t in reversed(ctx.scope.entries):
            if t != ty:
                continue
            proof = self.prove(rename(rest, {name: var}) if var != name else rest, ctx, depth + 1, use_rules)
            if proof is not None:
                return f"Exists.intro {var} ({proof})"
        return None

    def _exists_congruence(self, goal: Quant, ctx: Context, depth: int, use_rules: bool) -> str | None:
        """``∃ x, Q x`` from a fact ``∃ x, P x`` (witness of the same abstract type) when ``P x ⊢ Q x``:
        ``Exists.elim fact (fun x hx => Exists.intro x …)`` (Lean core src/Init/Core.lean ``Exists.elim``; the
        prelude proves it from ``Exists.rec``, ``ELIMINATORS``). Goal-directed and one ∃ deep, so it is allowed in a
        premise's proof too (where the general ``_eliminate`` is not): a hypothesis ``∀ ε > 0, ∃ N, ∀ n ≥ N, …`` then
        meets its ``∀ ε, ε > 0 → ∃ N, ∀ n, n ≥ N → …`` spelling under the ∃."""
        first = self._first_binder(goal, ctx.scope)
        if first is None:
            return None
        name, ty, rest = first
        taken = {n for n, _ in ctx.scope.entries}
        for f in list(ctx.facts):
            if f.term in ctx.eliminated or not (isinstance(f.tree, Quant) and f.tree.kind == "∃"):
                continue
            fact_first = self._first_binder(f.tree, ctx.scope)
            if fact_first is None or fact_first[1] != ty:
                continue
            fact_name, _, fact_rest = fact_first
            var = fact_name if fact_name not in taken and fact_name != "_" else self.name("w")
            h = self.name()
            inner = Context(ctx.scope.bind(var, ty), list(ctx.facts), list(ctx.rules), ctx.eliminated | {f.term})
            self.add_fact(inner, h, rename(fact_rest, {fact_name: var}) if var != fact_name else fact_rest)
            self.saturate(inner, depth + 1)
            proof = self.prove(rename(rest, {name: var}) if var != name else rest, inner, depth + 1, use_rules)
            if proof is not None:
                return f"Exists.elim ({f.term}) (fun {var} {h} => Exists.intro {var} ({proof}))"
        return None

    def _eliminate(self, goal: Term, ctx: Context, depth: int) -> str | None:
        """Take apart one ∨ or ∃ fact and prove ``goal`` in every case (``Or.elim`` / ``Exists.elim``)."""
        for f in list(ctx.facts):
            if f.term in ctx.eliminated:
                continue
            done = ctx.eliminated | {f.term}
            if isinstance(f.tree, BinOp) and f.tree.op == OR:
                branches = []
                for side in (f.tree.left, f.tree.right):
                    h = self.name()
                    inner = Context(ctx.scope, list(ctx.facts), list(ctx.rules), done)
                    self.add_fact(inner, h, side)
                    self.saturate(inner, depth + 1)
                    proof = self.prove(goal, inner, depth + 1)
                    if proof is None:
                        break
                    branches.append(f"(fun {h} => {proof})")
                if len(branches) == 2:
                    return f"Or.elim ({f.term}) {branches[0]} {branches[1]}"
            elif isinstance(f.tree, Quant) and f.tree.kind == "∃":
                first = self._first_binder(f.tree, ctx.scope)
                if first is None:
                    continue
                name, ty, rest = first
                taken = {n for n, _ in ctx.scope.entries}
                var = name if name not in taken and name != "_" else self.name("w")
                if var != name:
                    rest = rename(rest, {name: var})
                h = self.name()
                inner = Context(ctx.scope.bind(var, ty), list(ctx.facts), list(ctx.rules), done)
                self.add_fact(inner, h, rest)
                self.saturate(inner, depth + 1)
                proof = self.prove(goal, inner, depth + 1)
                if proof is not None:
                    return f"Exists.elim ({f.term}) (fun {var} {h} => {proof})"
        return None

    def _let(self, goal: Let, ctx: Context, depth: int, use_rules: bool) -> str | None:
        """A ``let x := v; P`` goal: bind ``x`` as the printer does, open the same let in facts, prove ``P``, and
        wrap the proof in the same ``let`` (a let-bound variable unfolds definitionally, so facts still fit)."""
        head = self.pr.prop(replace(goal, body=Atom("True")), ctx.scope)  # declares the let's type and value
        binding = head[1 : head.index(";")]  # "let x : τ := v"
        name = goal.name if goal.name.isidentifier() else "_"
        ty = binding.split(" : ", 1)[1].split(" := ", 1)[0]
        inner = Context(ctx.scope.bind(name, ty) if name != "_" else ctx.scope, [], list(ctx.rules))
        for f in ctx.facts:
            if isinstance(f.tree, Let) and _same_let_head(f.tree, goal):
                self.add_fact(inner, f.term, f.tree.body)
            else:
                inner.facts.append(f)
        self.saturate(inner, depth + 1)
        proof = self.prove(goal.body, inner, depth + 1, use_rules)
        return f"{binding}; {proof}" if proof else None

    def _intro(self, goal: Term, ctx: Context, depth: int, use_rules: bool, negation: bool = False) -> str | None:
        params, body = self.peel(goal, ctx.scope, negation)
        inner = Context(ctx.scope, list(ctx.facts), list(ctx.rules), ctx.eliminated)
        names: list[str] = []
        # A variable is bound under the name the term gives it: an anonymous one under its fresh name (a scope
        # entry `_` would let a rule take `_` as its argument), and one named like a variable already in scope under
        # a fresh name too — the facts mention the outer variable by name, and would be read as the inner one.
        apart: dict[str, str] = {}
        for p in params:
            if p.kind == "var":
                name = p.name
                if name == "_" or any(n == name for n, _ in inner.scope.entries):
                    name = self.name("a" if name == "_" else name)
                    if p.name != "_":
                        apart[p.name] = name
                elif p.name in apart:
                    del apart[p.name]
                inner.scope = inner.scope.bind(name, p.type_key)
                names.append(name)
            else:
                n = self.name()
                names.append(n)
                self.add_fact(inner, n, rename(p.tree, apart))
        self.saturate(inner, depth + 1)
        proof = self.prove(rename(body, apart), inner, depth + 1, use_rules)
        return f"fun {' '.join(names)} => {proof}" if proof else None


_NAME_TOKEN = re.compile(r"[^\s(),:]+")
_FIXED_TOKENS = frozenset(PRELUDE_AXIOMS) | {"And", "Or", "Iff", "Exists", "False", "Eq", "∀", "→", "fun", "=>",
                                             "let", ":=", ";"}


@lru_cache(maxsize=65536)
def _shape(key: str) -> str:
    """A printed proposition with every name that is not an abstract constant or a connective blurred: two keys
    that differ only in variable names have the same shape (a cheap necessary test before trying variables)."""
    return _NAME_TOKEN.sub(lambda m: m.group(0) if m.group(0) in _FIXED_TOKENS or _is_constant(m.group(0)) else "_",
                           key)


def _is_constant(token: str) -> bool:
    """An abstract constant's name (``τ3``, ``P2``, ``t5``, ``κ1``; ``_root_.``-qualified prelude names)."""
    return token.startswith("_root_.") or (token[:1] in "τPtκ" and token[1:].isdigit())


def _same_let_head(a: Let, b: Let) -> bool:
    return replace(a, body=b.body) == b


def _is_rule(tree: Term) -> bool:
    return (isinstance(tree, Quant) and tree.kind == "∀") or (isinstance(tree, BinOp) and tree.op == IMP) or (
        _negated(tree) is not None)


def _negated(tree: Term) -> Term | None:
    """``A`` when ``tree`` is ``¬A``, ``a ≠ b`` (``A`` is ``a = b``) or ``a ∉ s`` (``a ∈ s``); else None."""
    if isinstance(tree, Not):
        return tree.arg
    if isinstance(tree, Rel) and tree.op in ("≠", "∉"):
        return Rel({"≠": "=", "∉": "∈"}[tree.op], tree.left, tree.right)
    return None
