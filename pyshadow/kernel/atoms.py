"""Atoms compared as terms: a declaration's opaque atoms rewritten to their canonical keys, names resolved as Lean
resolves them.

The kernel tier abstracts every atom into an opaque constant keyed by its text, so two statements share a constant
exactly when their atoms have the same key. ``canonical_atoms`` rewrites every atom of a declaration (binder
types, binder bounds, quantifier binders, ``let`` values, the conclusion) to the canonical print of its term tree
(``pyshadow.syntax.terms``): spacing, redundant parentheses, ASCII/Unicode spellings and bound-variable names no
longer matter, and parentheses Lean needs still do.

Before printing, names are resolved — only where Lean elaborates both spellings to the *same constant*:

===========================  ===================  ===========================================================
written                       read as              what makes them one constant
===========================  ===================  ===========================================================
``√x``                        ``Real.sqrt x``      Mathlib/Data/Real/Sqrt.lean: ``prefix:max "√" => Real.sqrt``
``|x|``                       ``abs x``            Mathlib/Algebra/Order/Group/Unbundled/Abs.lean:
                                                   ``macro:max atomic("|" noWs) a:term noWs "|" : term => `(abs $a)``
``n !``                       ``Nat.factorial n``  Mathlib/Data/Nat/Factorial/Basic.lean:
                                                   ``scoped notation:10000 n "!" => Nat.factorial n``
``‖x‖``                       ``norm x``           Mathlib/Analysis/Normed/Group/Basic.lean (``Norm`` class):
                                                   ``notation "‖" e "‖" => norm e``
``π``, ``∠``, ``𝓝``             ``Real.pi`` …        scoped notations, under their ``open`` (``SCOPED_NOTATIONS``):
                                                   ``scoped notation "π" => Real.pi`` (namespace ``Real``) …
``x ∉ s``                     ``¬x ∈ s``           Lean core src/Init/Notation.lean:
                                                   ``notation:50 a:50 " ∉ " b:50 => ¬ (a ∈ b)``
``a ≠ b``                     ``a ≠ b``            (kept: ``Ne a b`` is its own constant, ``¬ a = b`` unfolds to it
                                                   only by δ; the skeleton search handles the pair logically)
``f`` under ``open N``        ``N.f``              Lean name resolution: with exactly one opened namespace (and
                                                   no root declaration) defining ``f`` among ``SHORT_NAMES``
``x.f a`` (x : T)             ``N.f x a``          generalized field notation: ``x : T`` with ``T``'s head
                                                   namespace ``N``, for ``f`` in ``DOT_FUNCTIONS[N]``; ``x`` goes to
                                                   the first explicit ``N``-typed argument (``DOT_RECEIVER_INDEX``)
``(g a).f b``                 ``N.f (g a) b``      the same, when ``g a``'s result type has head ``N``
                                                   (``RESULT_NAMESPACES``; ``{x | p}`` is a ``Set``)
``∑ x in s, f``               ``∑ x ∈ s, f``       Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean (``bigsumin``
                                                   elaborates ``∑ x ∈ s, r``)
``Nat`` ``Int`` ``Real`` …    ``ℕ`` ``ℤ`` ``ℝ`` …  Mathlib/Data/Nat/Notation.lean ``notation "ℕ" => Nat`` and the
                                                   same for ℤ ℚ ℝ ℂ (``binder_types.TYPE_SPELLING``)
``f^[n]``                     ``Nat.iterate f n``  Mathlib/Logic/Function/Iterate.lean (read by syntax/terms.py)
``volume`` (open MeasureTh.)  ``MeasureTheory.…``  ``export MeasureSpace (volume)`` (MeasureSpaceDef.lean)
``f '' s``, ``f ⁻¹' s``       ``Set.image f s`` …  Mathlib/Data/Set/Defs.lean ``infixl:80 " '' " => image`` (and
                                                   ``preimage``) in ``namespace Set``
===========================  ===================  ===========================================================

Untyped binders (``∃ a b, P m = a * b``, ``{n | Nat.gcd n 7 = 1}``, ``(x) (h : x ∈ l)``, ``fun n => √n`` under
``Tendsto``) get the type the first use that fixes it gives — ``binder_order.py`` says which uses count and in which
order; casts Lean inserts anyway are dropped (``casts.py``: only at leaves); a header binder of type
ℕ/ℤ/ℚ/ℝ/ℂ or a universe that nothing mentions is dropped (``∀ n : ℕ, P`` is ``P``: the type is inhabited).

One logical reading is folded the same way: an equation whose side is syntactically a proposition
(``p x = ∃ n, …``) is ``↔`` (Lean core ``eq_iff_iff``, by ``propext``). This step is not re-checked by the kernel
tier (its abstraction has no ``Prop``-valued equality to state it on).

``definitions.py`` then folds two readings backed by Lean-checked schemas: ``false``/``true`` in Prop position as
``False``/``True``, and a variable fixed by a hypothesis ``(v : T) (h : v = e)`` substituted by ``e``.

Nothing merely provably equal is folded (``Complex.abs z`` and ``‖z‖`` stay apart, so do ``x⁻¹`` and ``1 / x``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from ..syntax import terms as tm
from ..syntax import lexer as lx
from ..syntax.render import render_term
from ..syntax.ast import IFF, Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term, atoms
from . import binder_order, casts
from .opens import PARTIAL, SCOPED, in_namespace, opened_namespaces  # noqa: F401 (opened_namespaces: read by others)
from .binder_types import INTERVALS, TYPE_SPELLING, BinderTypes, is_numeral, type_text
from .short_names import SHORT_NAMES

# Scoped notations for a constant, as (namespace, constant): the symbol denotes the constant under `open N` /
# `open scoped N` (elsewhere it is not Mathlib's notation and stays a symbol). Mathlib/Analysis/SpecialFunctions/
# Trigonometric/Basic.lean `scoped notation "π" => Real.pi` (namespace Real); Mathlib/Topology/Defs/Filter.lean
# `scoped[Topology] notation "𝓝" => nhds`; Mathlib/Geometry/Euclidean/Angle/Unoriented/Affine.lean
# `scoped notation "∠" => EuclideanGeometry.angle` (namespace EuclideanGeometry).
SCOPED_NOTATIONS: dict[str, tuple[str, str]] = {"π": ("Real", "Real.pi"), "𝓝": ("Topology", "nhds"),
                                                "∠": ("EuclideanGeometry", "EuclideanGeometry.angle")}

# Generalized field notation `x.f args` ↦ `N.f x args` for a variable `x` whose type's head is namespace `N`, only
# for functions whose first explicit argument of type `N` is known (Lean's rule; the first explicit argument unless
# DOT_RECEIVER_INDEX below says otherwise), each from the Mathlib file named in SHORT_NAMES' comments or
# Mathlib/Data/Finset/Card.lean (`Finset.card`), Mathlib/Data/Set/Card.lean (`Set.ncard`), Mathlib/Algebra/GCDMonoid
# /Nat.lean / Init (`Nat.gcd`, `Nat.lcm`), Mathlib/Data/Int/GCD.lean (`Int.gcd`), Init/Data/Int/Basic.lean
# (`Int.natAbs`, `Int.toNat`).
DOT_FUNCTIONS: dict[str, frozenset[str]] = {
    "Nat": frozenset({"Prime", "gcd", "lcm", "factorial", "choose", "succ", "pred", "divisors", "properDivisors",
                      "totient", "sqrt", "digits", "primeFactors", "Coprime", "ModEq"}),
    "Int": frozenset({"natAbs", "toNat", "gcd", "lcm", "emod", "ediv", "sign", "ModEq"}),
    "Finset": frozenset({"card", "sum", "prod", "filter", "image", "Nonempty", "max'", "min'"}),
    "Set": frozenset({"ncard", "encard", "Finite", "Infinite", "Nonempty", "toFinset"}),
    "Real": frozenset({"sqrt", "log", "exp", "cos", "sin"}),
    # Lean core src/Init/Data/List/Basic.lean: `List.sum`, `List.prod` (Mathlib), `List.length` take the list first
    "List": frozenset({"sum", "prod", "length"}),
}
# Lean's generalized field notation puts the receiver at the first *explicit* argument whose type head is the
# namespace (leanprover/lean4 src/Lean/Elab/App.lean, `addLValArg`: "finds the parameter with a type of the form
# `(baseName ...)`"; if it is explicit and `args` is big enough, `e` is inserted there). For the functions above that
# take another explicit argument first, the receiver's index among the explicit arguments:
# Mathlib/Data/Finset/Filter.lean `variable (p : α → Prop) [DecidablePred p]` … `def filter (s : Finset α)`, and
# Mathlib/Data/Finset/Image.lean `def image (f : α → β) (s : Finset α) : Finset β`.
DOT_RECEIVER_INDEX: dict[str, int] = {"Finset.filter": 1, "Finset.image": 1}
# A receiver that is not a variable but an application whose head has a known result type, as
# (namespace of the result type's head, number of explicit arguments that make the application complete):
# Mathlib/Data/Finset/Range.lean `def range (n : ℕ) : Finset ℕ`; Mathlib/NumberTheory/Divisors.lean
# `variable (n : ℕ)` … `def divisors : Finset ℕ`; `Finset.filter p s : Finset α` (above). A plain set-builder
# `{x | p}` / `{x : T | p}` is `setOf fun x ↦ p : Set _` (Mathlib/Data/Set/Defs.lean `macro_rules`).
RESULT_NAMESPACES: dict[str, tuple[str, int]] = {"Finset.range": ("Finset", 1), "Nat.divisors": ("Finset", 1),
                                                 "Finset.filter": ("Finset", 2),
                                                 # Mathlib/Order/Interval/Finset/Defs.lean `def Icc (a b : α) :
                                                 # Finset α` (and Ico, Ioc, Ioo)
                                                 # Mathlib/Data/Nat/Digits.lean `def digits : ℕ → ℕ → List ℕ`
                                                 "Nat.digits": ("List", 2),
                                                 "Finset.Icc": ("Finset", 2), "Finset.Ico": ("Finset", 2),
                                                 "Finset.Ioc": ("Finset", 2), "Finset.Ioo": ("Finset", 2)}
# Binder types whose head names a namespace for dot notation.
TYPE_NAMESPACES = {"ℕ": "Nat", "Nat": "Nat", "ℤ": "Int", "Int": "Int", "ℝ": "Real", "Real": "Real",
                   "Finset": "Finset", "Set": "Set"}

# A name Lean may auto-bind when not relaxed: one letter, then digits, subscripts, `_` or `'`
# (src/Lean/Elab/AutoBound.lean `isValidAutoBoundImplicitName`) — here the capital and Greek ones, which Mathlib
# also spells constants with (`Complex.I`, `Polynomial.X`, `Polynomial.C`); lowercase Latin ones are read as
# auto-bound variables (kernel/definitions.py, 3.).
_ONE_LETTER = re.compile(r"^[A-Zα-ωΑ-Ω][0-9₀-₉_']*$")


class Resolver:
    """Rewrites term trees: notations to their constants, short names under opens, dot notation on typed binders."""

    def __init__(self, opens: frozenset[str], variables: dict[str, str], types: dict[str, str] | None = None):
        self.opens = opens
        self.variables = variables  # statement-level variable → namespace of its type ("" when unknown)
        self.types = types or {}  # statement-level variable → its type's text (for binder-type inference)

    def resolve(self, node: tm.Node, bound: frozenset[str] = frozenset()) -> tm.Node:
        r = self.resolve
        if isinstance(node, tm.Name):
            return self._name(node.text, bound)
        if isinstance(node, tm.Prefix):
            arg = r(node.arg, bound)
            if node.op == "√":
                return tm.App(tm.Name("Real.sqrt"), (arg,))
            return tm.Prefix(node.op, arg)
        if isinstance(node, tm.Postfix):
            arg = r(node.arg, bound)
            if node.op == "!":
                return tm.App(tm.Name("Nat.factorial"), (arg,))
            return tm.Postfix(node.op, arg)
        if isinstance(node, tm.Enclosed):
            inner = r(node.inner, bound)
            if node.open == "|":
                return tm.App(tm.Name("abs"), (inner,))
            if node.open == "‖":
                return tm.App(tm.Name("norm"), (inner,))
            if (node.open, node.close) in _FLOOR_CEIL:
                return tm.App(tm.Name(_FLOOR_CEIL[(node.open, node.close)]), (inner,))
            return tm.Enclosed(node.open, inner, node.close)
        if isinstance(node, tm.Binary):
            if node.op in ("=", "≠"):
                node = tm.Binary(node.op, self._typed_set_builder(node.left, node.right),
                                 self._typed_set_builder(node.right, node.left))
            left, right = r(node.left, bound), r(node.right, bound)
            if node.op == "∉":
                return tm.Prefix("¬", tm.Binary("∈", left, right))
            if node.op in _SET_FUNCTIONS:
                return tm.App(tm.Name(_SET_FUNCTIONS[node.op]), (left, right))
            if node.op == "∈":
                right = self._interval_at(right, BinderTypes(self.types).type_of(left))
            if node.op in _BINREL:  # no expected type for either side: `{x ∈ s | p}` over a Finset is a filter
                left, right = self._plain_relation(self._finset_builder(left), self._finset_builder(right))
            if node.op in _FLIPPED:  # `a > b` is `GT.gt a b := LT.lt b a`, reducible (src/Init/Prelude.lean)
                return tm.Binary(_FLIPPED[node.op], right, left)
            return tm.Binary(node.op, left, right)
        if isinstance(node, tm.App) and "Polynomial" in self.opens and _POLYNOMIAL_X in node.args:
            node = _polynomial_rings(node)
            if not isinstance(node, tm.App):
                return r(node, bound)
        if isinstance(node, tm.App):
            if isinstance(node.fn, tm.Name) and node.args \
                    and self._name(node.fn.text, bound) in _POLYMORPHIC_FUNCTION_NAMES:
                node = tm.App(node.fn, (self._typed_lambda(node.args[0]),) + node.args[1:])
            args = tuple(r(a, bound) for a in node.args)
            dotted = self._dot_call(node.fn, args, bound)
            if dotted is None:
                fn = r(node.fn, bound)
                dotted = tm.App(fn.fn, fn.args + args) if isinstance(fn, tm.App) else tm.App(fn, args)
            return _as_big_operator(_filter_predicate(self._finset_arguments(casts.plain_arguments(dotted, BinderTypes(self.types)))))
        if isinstance(node, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)):
            if isinstance(node, (tm.SetBuilder, tm.Quantifier)):
                # `{f | p f}` elaborates `f`'s type from its uses, as `∀ x, q x = 1` does: read it off.
                node = self._typed_binders(node)
            b = node.binder
            binder = tm.Binder(b.name, r(b.type, bound) if b.type is not None else None,
                               (b.bound[0], r(b.bound[1], bound)) if b.bound is not None else None, b.bracket)
            inner = bound | {b.name}
            body_resolver = self._binding(b.name, b.type)
            if isinstance(node, tm.BigOperator):
                filt = body_resolver.resolve(node.filter, inner) if node.filter is not None else None
                return tm.BigOperator(node.op, binder, body_resolver.resolve(node.body, inner), filt)
            return replace(node, binder=binder, body=body_resolver.resolve(node.body, inner))
        if isinstance(node, tm.IfThenElse):
            inner = bound | {node.hyp} if node.hyp else bound
            return tm.IfThenElse(node.hyp, r(node.cond, bound), r(node.then, inner), r(node.orelse, inner))
        if isinstance(node, tm.Ascription):
            ty = r(node.type, bound)
            return tm.Ascription(self._against(r(node.expr, bound), ty), ty)
        if isinstance(node, (tm.Anonymous,)):
            return tm.Anonymous(tuple(r(x, bound) for x in node.items))
        if isinstance(node, tm.Collection) and node.open == "(·":
            return r(_cdot_function(node), bound)
        if isinstance(node, tm.Collection):
            return tm.Collection(node.open, tuple(r(x, bound) for x in node.items))
        if isinstance(node, tm.Projection):
            dotted = self._dot_call(node, (), bound)
            return dotted if dotted is not None else tm.Projection(r(node.expr, bound), node.field)
        if isinstance(node, tm.ModEq):
            left, right, modulus = r(node.left, bound), r(node.right, bound), r(node.modulus, bound)
            if node.kind in _MOD_EQ:
                return tm.App(tm.Name(_MOD_EQ[node.kind]), (modulus, left, right))
            return tm.ModEq(node.kind, left, right, modulus)
        return node

    def _finset_builder(self, node: tm.Node) -> tm.Node:
        """``{x ∈ s | p}`` as ``Finset.filter (fun x => p) s`` when ``s`` is known to be a ``Finset`` — what
        Mathlib's ``elabFinsetBuilderSep`` (Mathlib/Data/Finset/Filter.lean) elaborates it to unless the expected
        type is a ``Set``. Callers use it only where the expected type is none or a ``Finset``."""
        if not (isinstance(node, tm.SetBuilder) and node.binder.bound is not None and node.binder.bound[0] == "∈"):
            return node  # (a binder type here is the collection's element type, set by `_typed_binders`)
        collection = node.binder.bound[1]
        known = BinderTypes(self.types).type_of(collection) or ""
        if not (known.startswith("Finset ") or _result_namespace(collection) == "Finset"):
            return node
        return tm.App(tm.Name("Finset.filter"), (tm.Lambda(tm.Binder(node.binder.name), node.body), collection))

    def _finset_arguments(self, app: tm.App) -> tm.App:
        """The ``Finset`` arguments of ``Finset.card/sum/prod/filter`` read by ``_finset_builder`` (their expected
        type is a ``Finset``)."""
        index = _FINSET_ARGUMENT.get(app.fn.text) if isinstance(app.fn, tm.Name) else None
        if index is None or index >= len(app.args):
            return app
        converted = self._finset_builder(app.args[index])
        if converted is app.args[index]:
            return app
        return tm.App(app.fn, app.args[:index] + (converted,) + app.args[index + 1:])

    def _against(self, expr: tm.Node, ty: tm.Node) -> tm.Node:
        """``expr`` of ``(expr : ty)`` without the casts its elaboration against ``ty`` inserts anyway
        (``casts.strip_casts`` with ``ty`` as the tree's starting maximum); a ``fun (x : A) => b`` against ``A → B``
        has ``b`` read against ``B``."""
        if isinstance(expr, tm.Lambda) and isinstance(ty, tm.Binary) and ty.op == "→":
            inner = self._binding(expr.binder.name, expr.binder.type)
            return replace(expr, body=inner._against(expr.body, ty.right))
        return casts.strip_casts(expr, type_text(ty), BinderTypes(self.types), expected=True)

    def _interval_at(self, collection: tm.Node, element: str | None) -> tm.Node:
        return casts.interval_at(collection, element, BinderTypes(self.types), INTERVALS)

    def _plain_relation(self, left: tm.Node, right: tm.Node) -> tuple[tm.Node, tm.Node]:
        return casts.plain_relation(left, right, BinderTypes(self.types))

    def _binding(self, name: str, type_: tm.Node | None) -> "Resolver":
        """The resolver for a binder's body: ``name`` typed when its binder is (for inference in the body), and no
        longer the statement variable it may shadow."""
        types = dict(self.types)
        if type_ is not None and not isinstance(type_, tm.Opaque):
            types[name] = tm.render(type_)
        else:
            types.pop(name, None)
        if types == self.types:
            return self
        return Resolver(self.opens, self.variables, types)

    def _typed_binders(self, node: tm.Quantifier | tm.SetBuilder) -> tm.Node:
        """``node`` with its untyped binder — and those of the same-kind quantifiers directly inside it (``∃ a b,``
        is one group) — typed where their uses fix it (``binder_types.infer_group``)."""
        chain = [node]
        while isinstance(node, tm.Quantifier) and isinstance(chain[-1].body, tm.Quantifier) \
                and chain[-1].body.kind == node.kind:
            chain.append(chain[-1].body)
        names = tuple(q.binder.name for q in chain if q.binder.type is None and q.binder.bound is None)
        bounded = {q.binder.name: BinderTypes(self.types).element_type(self.resolve(q.binder.bound[1]))
                   for q in chain if q.binder.type is None and q.binder.bound is not None and q.binder.bound[0] == "∈"}
        bounded = {k: v for k, v in bounded.items() if v is not None}
        if not names and not bounded:
            return node
        inner = self
        for q in chain:
            inner = inner._binding(q.binder.name, q.binder.type)
        body = inner.resolve(chain[-1].body, frozenset(q.binder.name for q in chain))  # `sqrt` read as `Real.sqrt`
        got = {**binder_order.infer_group(names, [body], self.types), **bounded} if names else bounded
        if not got:
            return node
        out = chain[-1]
        for q in reversed(chain):
            b = q.binder
            if b.type is None and b.name in got:
                b = replace(b, type=tm.read_or_opaque(got[b.name]))
            out = replace(q, binder=b, body=out if q is not chain[-1] else q.body)
        return out

    def _typed_set_builder(self, node: tm.Node, other: tm.Node) -> tm.Node:
        """``{p | q}`` typed ``{p : T | q}`` when the other side of the equation is a ``Set T`` and the body does not
        say otherwise (``BinderTypes.expected_element_type``)."""
        if not (isinstance(node, tm.SetBuilder) and node.binder.type is None and node.binder.bound is None):
            return node
        typing = BinderTypes(self.types)
        expected = typing.expected_element_type(other)
        body = self._binding(node.binder.name, None).resolve(node.body, frozenset({node.binder.name}))
        from_body = binder_order.infer(node.binder.name, body, self.types)
        if expected is None or from_body not in (None, expected):
            return node
        return replace(node, binder=replace(node.binder, type=tm.read_or_opaque(expected)))

    def _typed_lambda(self, node: tm.Node) -> tm.Node:
        """``fun x => b`` with ``x`` typed from ``b`` (only where the callee leaves the domain open)."""
        if not (isinstance(node, tm.Lambda) and node.binder.type is None and node.binder.bound is None):
            return node
        body = self._binding(node.binder.name, None).resolve(node.body, frozenset({node.binder.name}))
        inferred = infer_binder_type(node.binder.name, body, self.types)
        if inferred is None:
            return node
        return replace(node, binder=replace(node.binder, type=tm.read_or_opaque(inferred)))

    def _name(self, text: str, bound: frozenset[str]) -> tm.Node:
        if text.startswith("@") or text in bound or text in self.variables:
            return tm.Name(text)
        if text in SCOPED_NOTATIONS and {SCOPED_NOTATIONS[text][0], SCOPED_NOTATIONS[text][0] + SCOPED} & self.opens:
            return tm.Name(SCOPED_NOTATIONS[text][1])
        if text in TYPE_SPELLING:  # `Nat` and its Mathlib notation `ℕ` are one constant (binder_types.py)
            return tm.Name(TYPE_SPELLING[text])
        if "." in text:
            root, field = text.split(".", 1)
            if root in self.variables and root not in bound and "." not in field:
                ns = self.variables[root]
                if ns and field in DOT_FUNCTIONS.get(ns, ()) and not DOT_RECEIVER_INDEX.get(f"{ns}.{field}"):
                    return tm.App(tm.Name(f"{ns}.{field}"), (tm.Name(root),))
            return tm.Name(text)
        owners = SHORT_NAMES.get(text)
        if owners is None and self.opens and _ONE_LETTER.match(text):
            # A one-letter name no table knows is what the file makes it: a constant of an open namespace
            # (`I` is `Complex.I` under `open Complex`, `X` is `Polynomial.X` …) or, with none, an auto-bound
            # variable (src/Lean/Elab/AutoBound.lean). Keyed with the namespaces open, so two statements read it as
            # one only under the same opens.
            return tm.Name(f"«{text} under {' '.join(sorted(self.opens))}»")
        if owners is None or "" in owners:
            return tm.Name(text)
        hits = owners & self.opens
        partial = {o + PARTIAL for o in owners} & self.opens
        if len(hits) == 1 and not partial:
            return tm.Name(f"{next(iter(hits))}.{text}")
        if hits or partial:  # ambiguous (Lean picks by type) or partly open: one constant only under these opens
            return tm.Name(f"«{text} under {' '.join(sorted(hits | partial))}»")
        return tm.Name(text)


    def _dot_call(self, fn: tm.Node, args: tuple[tm.Node, ...], bound: frozenset[str]) -> tm.Node | None:
        """``recv.f args`` as ``N.f …`` with ``recv`` at its explicit position (``addLValArg``), when ``recv`` is a
        statement variable of known type namespace ``N`` or an application whose result type's namespace is ``N``
        (``RESULT_NAMESPACES``, plain set-builders); None when Lean's reading is not known here."""
        if isinstance(fn, tm.Name) and "." in fn.text and not fn.text.startswith("@"):
            root, field = fn.text.split(".", 1)
            if "." in field:
                return None
            if root in bound:  # a bound variable whose binder is typed (``_binding`` keeps its type)
                if root not in self.types:
                    return None
                ns = _type_namespace(self.types[root])
            elif root in self.variables:
                ns = self.variables[root]
            else:
                return None
            receiver = tm.Name(root)
        elif isinstance(fn, tm.Projection):
            receiver, field = self._finset_builder(self.resolve(fn.expr, bound)), fn.field
            ns = _result_namespace(receiver)
            if not ns and isinstance(receiver, tm.SetBuilder) and receiver.binder.bound is not None \
                    and (BinderTypes(self.types).type_of(receiver.binder.bound[1]) or "").startswith("Set "):
                ns = "Set"  # `{x ∈ S | p}` over a Set `S` is `Set.sep`, a Set
        else:
            return None
        full = f"{ns}.{field}"
        if not ns or field not in DOT_FUNCTIONS.get(ns, ()):
            return None
        index = DOT_RECEIVER_INDEX.get(full, 0)
        if index > len(args):  # a partial application (`s.filter` alone): Lean builds a λ, not read here
            return None
        return tm.App(tm.Name(full), args[:index] + (receiver,) + args[index:])


# Mathlib/Algebra/Order/Floor.lean: `notation "⌊" a "⌋" => Int.floor a`, `"⌈" a "⌉" => Int.ceil a`,
# `"⌊" a "⌋₊" => Nat.floor a`, `"⌈" a "⌉₊" => Nat.ceil a`.
_FLOOR_CEIL = {("⌊", "⌋"): "Int.floor", ("⌈", "⌉"): "Int.ceil", ("⌊", "⌋₊"): "Nat.floor", ("⌈", "⌉₊"): "Nat.ceil"}
# `a ≡ b [MOD n]` is `Nat.ModEq n a b` (Mathlib/Data/Nat/Defs.lean `notation:50 a " ≡ " b " [MOD " n "]"`), `[ZMOD n]`
# `Int.ModEq n a b` (Mathlib/Data/Int/ModEq.lean), `[PMOD p]` `AddCommGroup.ModEq p a b` (Mathlib/Algebra/ModEq.lean),
# `[SMOD U]` `SModEq U a b` (Mathlib/LinearAlgebra/SModEq.lean).
_MOD_EQ = {"MOD": "Nat.ModEq", "ZMOD": "Int.ModEq", "PMOD": "AddCommGroup.ModEq", "SMOD": "SModEq"}
# Mathlib/Data/Set/Defs.lean, in `namespace Set`: `infixl:80 " '' " => image`, `infixl:80 " ⁻¹' " => preimage`.
_SET_FUNCTIONS = {"''": "Set.image", "⁻¹'": "Set.preimage"}
_FINSET_ARGUMENT = {"Finset.card": 0, "Finset.sum": 0, "Finset.prod": 0, "Finset.filter": 1}
_FLIPPED = {">": "<", "≥": "≤"}  # inside an atom, as the printer reads a relation of the tree (``abstract``)
_BINREL = ("=", "≠", "<", "≤", ">", "≥")  # `binrel%` (src/Init/Notation.lean, src/Init/Core.lean)
# `∑ x ∈ s, f x` is notation for `Finset.sum s (fun x ↦ f x)` (Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean)
_BIG_OPERATORS = {"Finset.sum": "∑", "Finset.prod": "∏"}


def _as_big_operator(node: tm.Node) -> tm.Node:
    """``Finset.sum s (fun x => b)`` as ``∑ x ∈ s, b`` — one term, two spellings; ``Finset.sum s f`` as
    ``∑ x ∈ s, f x`` (its η-expansion, definitionally equal: Lean's kernel has η)."""
    if not (isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text in _BIG_OPERATORS
            and len(node.args) == 2):
        return node
    s, f = node.args
    op = _BIG_OPERATORS[node.fn.text]
    if isinstance(f, tm.Lambda):
        if f.binder.type is not None or f.binder.bound is not None:
            return node
        return tm.BigOperator(op, tm.Binder(f.binder.name, None, ("∈", s)), f.body)
    if isinstance(f, tm.Name) and not is_numeral(f):
        x = "x✝η"  # no source text spells it; the canonical print renames bound variables anyway
        return tm.BigOperator(op, tm.Binder(x, None, ("∈", s)), tm.App(f, (tm.Name(x),)))
    return node


# Mathlib/Algebra/Polynomial/Basic.lean: `scoped[Polynomial] notation:9000 R "[X]" => Polynomial R` — under
# `open Polynomial`, `[X]` is one token (so `ℚ[X]` and `ℚ [X]` alike), applied to the term before it.
_POLYNOMIAL_X = tm.Collection("[", (tm.Name("X"),))


def _polynomial_rings(app: tm.App) -> tm.Node:
    """``R[X]`` inside an application (read as ``R`` applied to the list ``[X]``) as ``Polynomial R``."""
    fn, args = app.fn, list(app.args)
    out: list[tm.Node] = []
    for a in args:
        if a == _POLYNOMIAL_X:
            if out:
                out[-1] = tm.App(tm.Name("Polynomial"), (out[-1],))
            else:
                fn = tm.App(tm.Name("Polynomial"), (fn,))
        else:
            out.append(a)
    return tm.App(fn, tuple(out)) if out else fn


def _cdot_function(node: tm.Collection) -> tm.Node:
    """``(· + 1)`` as ``fun x => x + 1``, one binder per ``·`` from left to right — what Lean's cdot notation expands
    to (src/Lean/Elab/BuiltinNotation.lean ``expandCDot?``); a nested ``(· …)`` keeps its own ``·``."""
    names: list[str] = []

    def fill(n: tm.Node) -> tm.Node:
        if isinstance(n, tm.Name) and n.text == "·":
            names.append(f"x✝·{len(names) + 1}")  # no source text spells it; keys rename bound variables
            return tm.Name(names[-1])
        return tm.map_children(n, fill)

    body = fill(node.items[0])
    for name in reversed(names):
        body = tm.Lambda(tm.Binder(name), body)
    return body


def _filter_predicate(node: tm.Node) -> tm.Node:
    """``Finset.filter p s`` with a bare ``p`` as ``Finset.filter (fun x => p x) s`` (η; Lean's kernel has
    definitional η), the form ``{x ∈ s | p x}`` and ``s.filter (fun x => p x)`` elaborate to."""
    if not (isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text == "Finset.filter"
            and len(node.args) == 2 and isinstance(node.args[0], tm.Name) and not is_numeral(node.args[0])):
        return node
    x = "x✝η"
    return tm.App(node.fn, (tm.Lambda(tm.Binder(x), tm.App(node.args[0], (tm.Name(x),))), node.args[1]))


def _result_namespace(node: tm.Node) -> str:
    """The namespace of the head of ``node``'s type, when its head constant fixes it (``RESULT_NAMESPACES``)."""
    if isinstance(node, tm.SetBuilder) and node.binder.bound is None:
        return "Set"
    if isinstance(node, tm.Ascription):  # `(180 : ℕ).gcd 168`
        return _type_namespace(tm.render(node.type))
    if isinstance(node, tm.App) and isinstance(node.fn, tm.Name):
        known = RESULT_NAMESPACES.get(node.fn.text)
        if known is not None and known[1] == len(node.args):
            return known[0]
    return ""


def _type_namespace(type_text: str) -> str:
    head = type_text.strip().lstrip("(").split(" ", 1)[0]
    return TYPE_NAMESPACES.get(head, "")


def infer_binder_type(name: str, body: tm.Node, types: dict[str, str]) -> str | None:
    """The type Lean's elaborator gives an untyped bound ``name`` from its uses in ``body`` (``binder_types``), with
    ``types`` the statement variables' type texts; None when no use fixes it or uses disagree."""
    return binder_order.infer(name, body, types)


# Functions whose first explicit argument is a function `f : α → β` with `α` an implicit type variable: a `fun x => …`
# passed there gets its binder's type from its body (the first use that fixes it), not from the callee.
# Mathlib/Order/Filter/Defs.lean `def Tendsto (f : α → β) (l₁ : Filter α) (l₂ : Filter β)`; Mathlib/Logic/Function/
# Defs.lean `def Injective (f : α → β) : Prop` (and `Surjective`, `Bijective`); Mathlib/Order/Monotone/Defs.lean
# `def Monotone (f : α → β) : Prop` (and `Antitone`, `StrictMono`, `StrictAnti`); Mathlib/Topology/Defs/Basic.lean
# `structure Continuous (f : X → Y) : Prop`. Matched after name resolution (`Tendsto` under `open Filter`).
POLYMORPHIC_FUNCTION_ARGUMENT = frozenset({"Filter.Tendsto", "Function.Injective", "Function.Surjective",
                                           "Function.Bijective", "Monotone", "Antitone", "StrictMono", "StrictAnti",
                                           "Continuous"})
_POLYMORPHIC_FUNCTION_NAMES = frozenset(tm.Name(n) for n in POLYMORPHIC_FUNCTION_ARGUMENT)


@lru_cache(maxsize=65536)
def _key(text: str, opens: frozenset[str], variables: tuple[tuple[str, str], ...],
         types: tuple[tuple[str, str], ...]) -> str:
    node = tm.read_term(text)
    if node is None:
        return tm.canonical(text)
    node = Resolver(opens, dict(variables), dict(types)).resolve(node)
    return tm.canonical_node(node)


def term_key(text: str, opens: frozenset[str] = frozenset(), variables: dict[str, str] | None = None,
             types: dict[str, str] | None = None) -> str:
    """The canonical key of an atom's text under ``opens``, with ``variables`` (name → type namespace) in scope
    and ``types`` (name → type text) for binder-type inference."""
    return _key(text, opens, tuple(sorted((variables or {}).items())), tuple(sorted((types or {}).items())))


@dataclass(frozen=True)
class _Scope:
    opens: frozenset[str]
    variables: dict[str, str]  # name → namespace of its type ("" unknown)
    types: dict[str, str]  # name → canonical type text

    def bind(self, names, type_text: str | None) -> "_Scope":
        variables, types = dict(self.variables), dict(self.types)
        for n in names:
            variables[n] = _type_namespace(type_text) if type_text else ""
            if type_text:
                types[n] = type_text
            else:
                types.pop(n, None)
        return _Scope(self.opens, variables, types)


def canonical_atoms(decl: Declaration, context: str = "") -> Declaration:
    """``decl`` with every atom's text replaced by its canonical key (see the module docstring), and untyped
    quantifier binders typed where a use fixes their type (``∀ x, f x = 1`` with ``f : ℝ → ℝ``). The skeleton
    reads statements through ``definitions.normalize_declaration``, which folds definitions after this step."""
    # `theorem Real.t` is elaborated inside `namespace Real` (src/Lean/Elab/Declaration.lean): its names resolve there
    # (inside `namespace Foo` it is Foo.Real.t, in namespace Foo.Real: not read)
    parts = decl.name.split(".") if decl.name and "«" not in decl.name and not in_namespace(context) else []
    named = frozenset(".".join(parts[:k]) for k in range(1, len(parts)))
    scope = _Scope(opened_namespaces(context, decl.preamble) | named, {}, {})
    binders = []
    header = decl.binders
    for i, b in enumerate(header):
        nb = _binder(b, scope)
        if nb.type is None and b.names and b.bound is None and b.bracket in ("(", "{", "⦃"):
            # `theorem t (l : List ℕ) (x) (h : x ∈ l)`: the header binder's type is fixed by later uses, as a ∀'s
            inferred = binder_order.infer_in_header(b.names, header[i + 1:], decl.type, scope.types,
                                                    _resolver(scope).resolve)
            if inferred is not None:
                nb = replace(nb, type=Atom(inferred, key_idents(inferred)))
        binders.append(nb)
        scope = scope.bind(b.names, _type_text(nb.type))
    type_ = _term(decl.type, scope) if decl.type is not None else None
    return _shared_universes(replace(decl, binders=_drop_unused_inhabited(tuple(binders), type_), type=type_))


# `Type u` and `Sort u` with a universe variable, `Type 1` with a literal level: the keys fold the level away
# (``normalize.type_key``: `Type*`, `Type u`, `Type` are one key), which is right for a level used once — each such
# level is a fresh universe — but not for one that several binders share: `(α β : Type u)` states only the case of
# one universe for both, `(α : Type u) (β : Type v)` every pair. Those, and the levels other than 0, are kept.
# `Type _` and `Type*` are elaborated once per binder name — a fresh universe each — so they never share.
_LEVELLED = re.compile(r"^(Type|Sort)\s+((?!_\b)[^\W\d]\w*|\d+)$")


def _shared_universes(decl: Declaration) -> Declaration:
    """``decl`` with every sort whose universe variable two binders share keyed as that shared universe (numbered by
    first use), and every sort of a literal level other than 0 keyed with it, so that neither folds into ``Type``."""
    uses: dict[str, int] = {}

    def count(t: Term | None, k: int) -> None:
        if isinstance(t, Atom) and (m := _LEVELLED.match(t.text)):
            uses[m.group(2)] = uses.get(m.group(2), 0) + k
        elif isinstance(t, Quant):
            for b in t.binders:
                count(b.type, len(b.names) or 1)
            count(t.body, 1)
        elif isinstance(t, (BinOp, Rel)):
            count(t.left, 1)
            count(t.right, 1)
        elif isinstance(t, Not):
            count(t.arg, 1)

    for b in decl.binders:
        count(b.type, len(b.names) or 1)
    count(decl.type, 1)
    shared = [u for u, n in uses.items() if n > 1 and not u.isdigit()]
    if not shared and not any(u.isdigit() and u != "0" for u in uses):
        return decl

    def key(t: Term | None) -> Term | None:
        if isinstance(t, Atom) and (m := _LEVELLED.match(t.text)):
            level = m.group(2)
            if level in shared:
                return replace(t, text=f"«{m.group(1)} shared universe {shared.index(level) + 1}»")
            return replace(t, text=f"«{t.text}»") if level.isdigit() and level != "0" else t
        if isinstance(t, Quant):
            return Quant(t.kind, tuple(replace(b, type=key(b.type)) for b in t.binders), key(t.body))
        if isinstance(t, (BinOp, Rel)):
            return replace(t, left=key(t.left), right=key(t.right))
        if isinstance(t, Not):
            return Not(key(t.arg))
        return t

    return replace(decl, binders=tuple(replace(b, type=key(b.type)) for b in decl.binders), type=key(decl.type))


# An unused binder of an inhabited type is dropped: `∀ x : T, P` is `P` when `P` does not mention `x` and `T` has an
# inhabitant — forward `h t`, backward `fun _ => h`, both constructive. Inhabited here: the number types (Mathlib's
# `Nat`, `Int`, `Rat`, `Real`, `Complex` are `Zero` instances: `0`) and every universe (`Type*`, `Sort u`: `PUnit`).
INHABITED_TYPES = frozenset({"ℕ", "ℤ", "ℚ", "ℝ", "ℂ"})
_SORT = re.compile(r"^(Type|Sort)(\*|\s+\S+|\s*\{[^}]*\})?$")


def _inhabited(t: Term | None) -> bool:
    return isinstance(t, Atom) and (t.text in INHABITED_TYPES or bool(_SORT.match(t.text.strip())))


def _drop_unused_inhabited(binders: tuple[Binder, ...], type_: Term | None) -> tuple[Binder, ...]:
    """The (already keyed) binders without those of an inhabited type that nothing else mentions (``theorem t
    (n : ℕ) : Tendsto (fun n => …) …``: the outer ``n`` is unused — a bound ``n`` inside is another variable, and
    keys rename bound variables, so their idents never show it; ``{R : Type*}`` that no other binder mentions)."""
    out = list(binders)
    for i in range(len(out) - 1, -1, -1):
        b = out[i]
        if not (b.bracket in ("(", "{", "⦃") and b.names and b.default is None and b.bound is None
                and _inhabited(b.type)):
            continue
        others = out[:i] + out[i + 1:]  # earlier ones too: a binder used before its declaration is not unused
        later = [*(x.type for x in others), *(x.bound[1] for x in others if x.bound), type_]
        mentioned = {ident for t in later if t is not None for a in atoms(t)
                     for ident in (a.idents or key_idents(a.text))}  # an instance binder is one atom, unindexed
        if not mentioned.intersection(b.names):
            del out[i]
    return tuple(out)


def _atom(a: Atom, scope: _Scope) -> Atom:
    key = term_key(a.text, scope.opens, scope.variables, scope.types)
    if key == a.text:
        return a
    return Atom(key, key_idents(key), a.open_right)


_BOUND_NAME = re.compile(r"x✝\d+")


def key_idents(key: str) -> tuple[str, ...]:
    """The identifier roots a key mentions, in order of first appearance (canonical bound names excluded)."""
    text = _BOUND_NAME.sub(" ", key)
    return tuple(dict.fromkeys(lx.ident_root(t.text) for t in lx.code_tokens(text) if t.kind == lx.IDENT))


def _binder(b: Binder, scope: _Scope) -> Binder:
    if b.is_instance and b.type is not None and not isinstance(b.type, Atom):
        # An instance binder's type is one class term (`[∀ i, TopologicalSpace (X i)]`, `[Π i, …]`): keyed whole,
        # so its spellings meet whatever structure the statement reader gave it.
        b = replace(b, type=Atom(render_term(b.type), ()))
    t = _term(b.type, scope) if b.type is not None else None
    bound = (b.bound[0], _term(b.bound[1], scope)) if b.bound is not None else None
    return replace(b, type=t, bound=bound)


def _term(t: Term, scope: _Scope) -> Term:
    if isinstance(t, Atom):
        return _atom(t, scope)
    if isinstance(t, Not):
        return Not(_term(t.arg, scope))
    if isinstance(t, Rel) and t.op == "=" and any(_logical(x) or _prop_valued(x, scope) for x in (t.left, t.right)):
        # An equation between propositions is read as `↔`: Lean core's `eq_iff_iff {p q : Prop} : (p = q) ↔
        # (p ↔ q)` (src/Init/Core.lean, by `propext`, which is no classical axiom). Only where one side is
        # syntactically a proposition, so the equation is surely one between Props.
        return BinOp(IFF, _term(t.left, scope), _term(t.right, scope))
    if isinstance(t, Rel) and t.op in ("=", "≠") and isinstance(t.left, Atom) and isinstance(t.right, Atom):
        t = replace(t, left=_typed_side(t.left, t.right, scope), right=_typed_side(t.right, t.left, scope))
    if isinstance(t, Rel) and t.op in (*_BINREL, "∈") and isinstance(t.left, Atom) and isinstance(t.right, Atom):
        t = _plain_sides(t, scope)
    if isinstance(t, (BinOp, Rel)):
        return replace(t, left=_term(t.left, scope), right=_term(t.right, scope))
    if isinstance(t, Quant):
        binders = []
        inner = scope
        for b in t.binders:
            nb = _binder(b, inner)
            if nb.type is None and b.names and b.bound is None:
                inferred = binder_order.infer_in_term(b.names, t.body, inner.types, _resolver(inner).resolve)
                if inferred is not None:
                    nb = replace(nb, type=Atom(inferred, key_idents(inferred)))
            elif nb.type is None and b.names and b.bound is not None:
                # `∀ x ∈ l,`: x's type is l's element type; `∀ ε > 0,`: read off the bound and the body
                inferred = _bound_element_type(b.bound[1], inner) if b.bound[0] == "∈" else \
                    binder_order.infer_in_term(b.names, t.body, inner.types, _resolver(inner).resolve,
                                               binder_order.bound_pieces(b))
                if inferred is not None:
                    nb = replace(nb, type=Atom(inferred, key_idents(inferred)))
            binders.append(nb)
            inner = inner.bind(b.names, _type_text(nb.type))
        return Quant(t.kind, tuple(binders), _term(t.body, inner))
    if isinstance(t, Let):
        inner = scope.bind((t.name,), None) if t.name else scope
        return replace(t, value=_atom(t.value, scope),
                       type=_term(t.type, scope) if t.type is not None else None,
                       body=_term(t.body, inner))
    return t


def _typed_side(side: Atom, other: Atom, scope: _Scope) -> Atom:
    """``{p | q}`` as ``{p : T | q}`` when the equation's other side is a ``Set T`` (``Resolver._typed_set_builder``;
    the two sides are separate atoms here, one ``binrel%`` tree in Lean)."""
    node, other_node = tm.read_term(side.text), tm.read_term(other.text)
    if not isinstance(node, tm.SetBuilder) or other_node is None:
        return side
    typed = _resolver(scope)._typed_set_builder(node, other_node)
    if typed is node:
        return side
    text = tm.render(typed)
    return Atom(text, key_idents(text), side.open_right)


def _plain_sides(t: Rel, scope: _Scope) -> Rel:
    """``Resolver._plain_relation`` (and ``_finset_builder``: a side has no expected type) for a relation whose
    sides are two atoms (one ``binrel%`` tree in Lean)."""
    left, right = tm.read_term(t.left.text), tm.read_term(t.right.text)
    if left is None or right is None:
        return t
    resolver = _resolver(scope)
    left, right = resolver.resolve(left), resolver.resolve(right)
    if t.op == "∈":
        new_left, new_right = left, resolver._interval_at(right, BinderTypes(scope.types).type_of(left))
    else:
        new_left, new_right = resolver._plain_relation(resolver._finset_builder(left),
                                                       resolver._finset_builder(right))
    if new_left is left and new_right is right:
        return t
    left_text, right_text = tm.render(new_left), tm.render(new_right)
    return replace(t, left=Atom(left_text, key_idents(left_text), t.left.open_right),
                   right=Atom(right_text, key_idents(right_text), t.right.open_right))


def recheck_casts(node: tm.Node, types: dict[str, str] | None = None) -> tm.Node:
    """``node`` — a tree already read by ``Resolver`` into which ``definitions.py`` substituted a value — read
    again, so casts the substitution made redundant (``(fun (x : ℕ) => 1 / ((x : ℝ) + 1) : ℕ → ℝ)``, ``(a - 5 :
    ℕ) < 3`` with ``a : ℕ``) go as they would have had the statement been written so; ``types``: the statement
    variables' types. The names in it are resolved already; reading is idempotent."""
    return Resolver(frozenset(), {}, dict(types or {})).resolve(node)


def recheck_relation(t: Rel, types: dict[str, str] | None = None) -> Rel:
    """A relation between two atoms into which a value was substituted, its casts read again as one ``binrel%``
    tree (``_plain_sides``; ``recheck_casts`` reads each atom alone)."""
    if t.op not in (*_BINREL, "∈") or not (isinstance(t.left, Atom) and isinstance(t.right, Atom)):
        return t
    return _plain_sides(t, _Scope(frozenset(), {}, dict(types or {})))


def _resolver(scope: _Scope) -> Resolver:
    return Resolver(scope.opens, scope.variables, scope.types)


def _logical(t: Term) -> bool:
    return isinstance(t, (Quant, BinOp, Not, Rel, Let))


def _prop_valued(t: Term, scope: _Scope) -> bool:
    """An atom ``v a₁ … aₖ`` (or ``v``) where the variable ``v``'s declared type is ``A₁ → … → Aₖ → Prop``."""
    if not isinstance(t, Atom):
        return False
    node = tm.read_term(t.text)
    head, n_args = (node.fn, len(node.args)) if isinstance(node, tm.App) else (node, 0)
    if not isinstance(head, tm.Name) or head.text not in scope.types:
        return False
    ty = tm.read_term(scope.types[head.text])
    for _ in range(n_args):
        if not (isinstance(ty, tm.Binary) and ty.op == "→"):
            return False
        ty = ty.right
    return isinstance(ty, tm.Name) and ty.text == "Prop"


def _type_text(t: Term | None) -> str | None:
    if t is None:
        return None
    return t.text if isinstance(t, Atom) else render_term(t)


def _bound_element_type(collection: Term, scope: _Scope) -> str | None:
    node = tm.read_term(_type_text(collection) or "")
    return BinderTypes(scope.types).element_type(_resolver(scope).resolve(node)) if node is not None else None
