"""Names resolved as Lean resolves them, in an atom's term tree: ``Resolver`` rewrites it — notations to their
constants, short names under opens, dot notation on typed receivers, untyped binders typed where a use fixes the
type (``binder_order``), casts Lean inserts anyway dropped (``casts``) — before the tree is printed as the atom's key
(``keys``).

Names are resolved only where Lean elaborates both spellings to the *same constant*:

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
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..syntax import terms as tm
from . import binder_order, casts
from .binder_types import INTERVALS, TYPE_SPELLING, BinderTypes, type_text
from .dot_notation import DOT_FUNCTIONS, DOT_RECEIVER_INDEX, result_namespace, type_namespace
from .notations import (BINREL, FLIPPED, FLOOR_CEIL, MOD_EQ, POLYNOMIAL_X, SCOPED_NOTATIONS, SET_FUNCTIONS,
                        as_big_operator, cdot_function, filter_predicate, polynomial_rings)
from .opens import PARTIAL, SCOPED
from .short_names import SHORT_NAMES

# A name Lean may auto-bind when not relaxed: one letter, then digits, subscripts, `_` or `'`
# (src/Lean/Elab/AutoBound.lean `isValidAutoBoundImplicitName`) — here the capital and Greek ones, which Mathlib
# also spells constants with (`Complex.I`, `Polynomial.X`, `Polynomial.C`); lowercase Latin ones are read as
# auto-bound variables (kernel/autobound.py).
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
            if (node.open, node.close) in FLOOR_CEIL:
                return tm.App(tm.Name(FLOOR_CEIL[(node.open, node.close)]), (inner,))
            return tm.Enclosed(node.open, inner, node.close)
        if isinstance(node, tm.Binary):
            if node.op in ("=", "≠"):
                node = tm.Binary(node.op, self._typed_set_builder(node.left, node.right),
                                 self._typed_set_builder(node.right, node.left))
            left, right = r(node.left, bound), r(node.right, bound)
            if node.op == "∉":
                return tm.Prefix("¬", tm.Binary("∈", left, right))
            if node.op in SET_FUNCTIONS:
                return tm.App(tm.Name(SET_FUNCTIONS[node.op]), (left, right))
            if node.op == "∈":
                right = self._interval_at(right, BinderTypes(self.types).type_of(left))
            if node.op in BINREL:  # no expected type for either side: `{x ∈ s | p}` over a Finset is a filter
                left, right = self._plain_relation(self._finset_builder(left), self._finset_builder(right))
            if node.op in FLIPPED:  # `a > b` is `GT.gt a b := LT.lt b a`, reducible (src/Init/Prelude.lean)
                return tm.Binary(FLIPPED[node.op], right, left)
            return tm.Binary(node.op, left, right)
        if isinstance(node, tm.App) and "Polynomial" in self.opens and POLYNOMIAL_X in node.args:
            node = polynomial_rings(node)
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
            return as_big_operator(filter_predicate(self._finset_arguments(casts.plain_arguments(dotted, BinderTypes(self.types)))))
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
            return r(cdot_function(node), bound)
        if isinstance(node, tm.Collection):
            return tm.Collection(node.open, tuple(r(x, bound) for x in node.items))
        if isinstance(node, tm.Projection):
            dotted = self._dot_call(node, (), bound)
            return dotted if dotted is not None else tm.Projection(r(node.expr, bound), node.field)
        if isinstance(node, tm.ModEq):
            left, right, modulus = r(node.left, bound), r(node.right, bound), r(node.modulus, bound)
            if node.kind in MOD_EQ:
                return tm.App(tm.Name(MOD_EQ[node.kind]), (modulus, left, right))
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
        if not (known.startswith("Finset ") or result_namespace(collection) == "Finset"):
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
                ns = type_namespace(self.types[root])
            elif root in self.variables:
                ns = self.variables[root]
            else:
                return None
            receiver = tm.Name(root)
        elif isinstance(fn, tm.Projection):
            receiver, field = self._finset_builder(self.resolve(fn.expr, bound)), fn.field
            ns = result_namespace(receiver)
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


_FINSET_ARGUMENT = {"Finset.card": 0, "Finset.sum": 0, "Finset.prod": 0, "Finset.filter": 1}


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
