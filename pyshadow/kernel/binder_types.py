"""The types of terms as far as they are surely known without Lean: what binder typing and cast reading rest on.

``BinderTypes.type_of`` gives a term's type when it is fixed by what is written — a statement variable's declared
type, a constant with a fixed signature (``SIGNATURES``), an ascription, an application of either, a ``binop%``
tree whose leaves have known types on one coercion chain (``tree_type``), a collection's element type. Which uses
of an untyped bound variable fix its type, and in which order Lean elaborates them, is ``binder_order.py``.

- **application** ``g … x …`` where ``g`` has a known arrow type: the argument is elaborated against the domain
  (``binop%`` starts its maximum type at the expected type: ``analyze`` in leanprover/lean4
  src/Lean/Elab/Extra.lean). ``Matrix m n α`` and ``Set α`` are definitions whose body is a function type
  (``FUNCTION_TYPE_DEFINITIONS``): ``elabAppArgs`` unfolds the function's type to a ``∀`` (``whnf``), so ``M i j``
  and ``s a`` are applications with those domains.
- **arithmetic and relations**: ``+ - * / %`` are ``binop%``, ``^`` is ``rightact%`` (its base is a leaf, its
  exponent is not), prefix ``-`` is ``unop%`` (src/Init/Notation.lean), ``= < ≤ > ≥`` and ``≠`` are ``binrel%``
  (src/Init/Notation.lean, src/Init/Core.lean): the leaves of both sides form one tree whose maximum type is the
  join of the leaf types along the coercion chain ℕ → ℤ → ℚ → ℝ → ℂ.
- **membership** ``x ∈ s`` with ``s : Set T`` / ``Finset T`` / ``List T`` / ``Multiset T``: ``Membership``'s element
  type is an ``outParam`` fixed by the collection (src/Init/Prelude.lean ``class Membership (α : outParam …) (γ …)``).

A set-builder's binder can also take its type from the other side of an equation (``R = {p | …}`` with
``R : Set T``): ``expected_element_type``.
"""

from __future__ import annotations

from ..syntax import terms as tm

# Constants with a fixed arrow type (no implicit type argument), as written in Mathlib/Lean core:
#   Real.sqrt — Mathlib/Data/Real/Sqrt.lean `noncomputable def sqrt (x : ℝ) : ℝ`;
#   Real.log — Mathlib/Analysis/SpecialFunctions/Log/Basic.lean `noncomputable def log (x : ℝ) : ℝ`;
#   Real.logb — Mathlib/Analysis/SpecialFunctions/Log/Base.lean `noncomputable def logb (b x : ℝ) : ℝ`;
#   Real.exp/cos/sin/tan — Mathlib/Data/Complex/Exponential.lean (`nonrec def exp (x : ℝ) : ℝ`, …);
#   Real.arctan — Mathlib/Analysis/SpecialFunctions/Trigonometric/Arctan.lean `def arctan (x : ℝ) : ℝ`;
#   Nat.gcd/lcm — src/Init/Data/Nat/Gcd.lean, src/Init/Data/Nat/Lcm.lean; Nat.sqrt — Mathlib/Data/Nat/Defs (core
#   `Nat.sqrt (n : ℕ) : ℕ`); Nat.factorial — Mathlib/Data/Nat/Factorial/Basic.lean `def factorial : ℕ → ℕ`;
#   Nat.choose — Mathlib/Data/Nat/Choose/Basic.lean `def choose : ℕ → ℕ → ℕ`; Nat.totient —
#   Mathlib/Data/Nat/Totient.lean `def totient (n : ℕ) : ℕ`; Nat.Prime — Mathlib/Data/Nat/Prime/Defs.lean
#   `def Prime (p : ℕ) : Prop`; Nat.divisors — Mathlib/NumberTheory/Divisors.lean `def divisors : Finset ℕ`
#   (`variable (n : ℕ)`); Nat.digits — Mathlib/Data/Nat/Digits.lean `def digits : ℕ → ℕ → List ℕ`;
#   Finset.range — Mathlib/Data/Finset/Range.lean `def range (n : ℕ) : Finset ℕ`;
#   Int.natAbs/toNat — src/Init/Data/Int/Basic.lean; Int.gcd — src/Init/Data/Int/Gcd.lean `def gcd (m n : ℤ) : ℕ`.
SIGNATURES: dict[str, str] = {
    "Real.sqrt": "ℝ → ℝ", "Real.log": "ℝ → ℝ", "Real.logb": "ℝ → ℝ → ℝ", "Real.exp": "ℝ → ℝ",
    "Real.cos": "ℝ → ℝ", "Real.sin": "ℝ → ℝ", "Real.tan": "ℝ → ℝ", "Real.arctan": "ℝ → ℝ",
    "Nat.gcd": "ℕ → ℕ → ℕ", "Nat.lcm": "ℕ → ℕ → ℕ", "Nat.sqrt": "ℕ → ℕ", "Nat.factorial": "ℕ → ℕ",
    "Nat.choose": "ℕ → ℕ → ℕ", "Nat.totient": "ℕ → ℕ", "Nat.Prime": "ℕ → Prop", "Nat.divisors": "ℕ → Finset ℕ",
    "Nat.digits": "ℕ → ℕ → List ℕ", "Finset.range": "ℕ → Finset ℕ",
    "Int.natAbs": "ℤ → ℕ", "Int.toNat": "ℤ → ℕ", "Int.gcd": "ℤ → ℤ → ℕ",
    "Irrational": "ℝ → Prop",  # Mathlib/Data/Real/Irrational.lean `def Irrational (x : ℝ)`
    "Real.pi": "ℝ",  # Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean `protected noncomputable def pi : ℝ`
}
# Functions of a polymorphic argument whose result type is fixed (Mathlib/Algebra/Order/Floor/Defs.lean:
# `def Int.floor : α → ℤ`, `def Int.ceil : α → ℤ`, `def Nat.floor : α → ℕ`, `def Nat.ceil : α → ℕ`): the argument
# is elaborated without a known expected type, the application has the result type.
# Likewise Mathlib/Algebra/Group/Even.lean `def Even [Add α] (a : α) : Prop`, Mathlib/Algebra/Ring/Parity.lean
# `def Odd [Semiring α] (a : α) : Prop`, Mathlib/GroupTheory/OrderOfElement.lean `noncomputable def orderOf (x : G) : ℕ`.
RESULT_TYPES: dict[str, str] = {"Int.floor": "ℤ", "Int.ceil": "ℤ", "Nat.floor": "ℕ", "Nat.ceil": "ℕ",
                                "Even": "Prop", "Odd": "Prop", "orderOf": "ℕ"}
# Core type names and the Mathlib notations for the same constants (Mathlib/Data/Nat/Notation.lean `notation "ℕ"
# => Nat`, Mathlib/Data/Int/Notation.lean, Mathlib/Data/Rat/Init.lean, Mathlib/Data/Real/Basic.lean,
# Mathlib/Data/Complex/Basic.lean): one spelling, so `Nat` and `ℕ` compare equal.
TYPE_SPELLING = {"Nat": "ℕ", "Int": "ℤ", "Rat": "ℚ", "Real": "ℝ", "Complex": "ℂ"}

# Number types in coercion order (Mathlib: `Nat.cast`, `Int.cast`, `Rat.cast`, `Complex.ofReal` coercions).
NUMBER_CHAIN = ("ℕ", "ℤ", "ℚ", "ℝ", "ℂ")
# Interval constructors: the collection they build and their explicit arity (all arguments of the element type).
INTERVALS = {**{f"Set.{k}": ("Set", 2) for k in ("Icc", "Ico", "Ioc", "Ioo")},
             **{f"Set.{k}": ("Set", 1) for k in ("Ici", "Iic", "Ioi", "Iio")},
             **{f"Finset.{k}": ("Finset", 2) for k in ("Icc", "Ico", "Ioc", "Ioo")}}
ARITHMETIC = ("+", "-", "*", "/", "%")  # `binop%` operators (src/Init/Notation.lean)
_COLLECTIONS = ("Set", "Finset", "List", "Multiset")


def type_text(node: tm.Node) -> str:
    """The one spelling of a type: ``Nat`` and ``ℕ`` print alike."""
    return tm.render(_spell(node))


def _spell(node: tm.Node) -> tm.Node:
    if isinstance(node, tm.Name):
        return tm.Name(TYPE_SPELLING.get(node.text, node.text))
    if isinstance(node, tm.App):
        return tm.App(_spell(node.fn), tuple(_spell(a) for a in node.args))
    if isinstance(node, tm.Binary):
        return tm.Binary(node.op, _spell(node.left), _spell(node.right))
    return node


# Type definitions whose body is a function type, as (arity, the body): `elabAppArgs` unfolds a function's type to a
# `∀` (`whnf`), so an application of a variable of such a type elaborates its arguments against these domains.
#   Mathlib/Data/Matrix/Defs.lean `def Matrix (m : Type u) (n : Type u') (α : Type v) : Type max u u' v := m → n → α`
#   Mathlib/Data/Set/Defs.lean `def Set (α : Type u) := α → Prop` (applied as such: Mathlib/Data/Set/Basic.lean
#   `theorem mem_def {a : α} {s : Set α} : a ∈ s ↔ s a := Iff.rfl`)
FUNCTION_TYPE_DEFINITIONS = {
    "Matrix": (3, lambda a: tm.Binary("→", a[0], tm.Binary("→", a[1], a[2]))),
    "Set": (1, lambda a: tm.Binary("→", a[0], tm.Name("Prop"))),
}


def _arrow(type_: str) -> tuple[list[tm.Node], tm.Node] | None:
    node = tm.read_term(type_)
    if node is None:
        return None
    if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text in FUNCTION_TYPE_DEFINITIONS:
        arity, unfold = FUNCTION_TYPE_DEFINITIONS[node.fn.text]
        if len(node.args) == arity:
            node = unfold(node.args)
    domains = []
    while isinstance(node, tm.Binary) and node.op == "→":
        domains.append(node.left)
        node = node.right
    return domains, node


class BinderTypes:
    """The types of terms as far as they are surely known here; ``types`` maps variables to their type's text."""

    def __init__(self, types: dict[str, str]):
        self.types = types

    # -- types of terms ------------------------------------------------------------------------------------------
    def leaves(self, node: tm.Node) -> list[tm.Node]:
        """The leaves of the ``binop%`` tree rooted at ``node`` (parentheses are already gone in the tree)."""
        if isinstance(node, tm.Binary) and node.op in ARITHMETIC:
            return self.leaves(node.left) + self.leaves(node.right)
        if isinstance(node, tm.Binary) and node.op == "^":
            return self.leaves(node.left)
        if isinstance(node, tm.Prefix) and node.op == "-":
            return self.leaves(node.arg)
        return [node]

    def type_of(self, node: tm.Node) -> str | None:
        """The type of ``node`` when it is surely known here (statement variables, ``SIGNATURES``, ascriptions)."""
        if isinstance(node, tm.Name):
            t = self.types.get(node.text)
            if t is None and node.text in SIGNATURES and "→" not in SIGNATURES[node.text]:
                t = SIGNATURES[node.text]
            if t is not None:
                parsed = tm.read_term(t)
                return type_text(parsed) if parsed is not None else None
            return None
        if isinstance(node, tm.Ascription):
            return type_text(node.type)
        sig = self.signature(node.fn) if isinstance(node, tm.App) else None
        if sig is not None:
            domains, result = sig
            if len(node.args) > len(domains):
                return None
            rest = domains[len(node.args):]
            out = result
            for d in reversed(rest):
                out = tm.Binary("→", d, out)
            return type_text(out)
        if isinstance(node, tm.SetBuilder) and node.binder.type is not None and node.binder.bound is None:
            return type_text(tm.App(tm.Name("Set"), (node.binder.type,)))
        if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text in INTERVALS:
            # `Set.Icc a b : Set α` with `a b : α` (Mathlib/Order/Interval/Set/Defs.lean, …/Finset/Defs.lean)
            kind, arity = INTERVALS[node.fn.text]
            element = self.tree_type(list(node.args)) if len(node.args) == arity else None
            return f"{kind} {_wrapped(element)}" if element is not None else None
        if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text == "abs" and len(node.args) == 1:
            return self.type_of(node.args[0])  # `abs (a : α) : α`
        if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text in ("min", "max") \
                and len(node.args) == 2:  # `min (a b : α) : α` (src/Init/Prelude.lean `Min.min`): one tree's type
            return self.tree_type([leaf for arg in node.args for leaf in self.leaves(arg)])
        if isinstance(node, tm.Postfix) and node.op == "⁻¹":  # Mathlib `postfix:max "⁻¹" => Inv.inv` (α → α)
            return self.type_of(node.arg)
        if isinstance(node, tm.IfThenElse):  # `ite c (t e : α) : α` (src/Init/Prelude.lean)
            inner = BinderTypes({k: v for k, v in self.types.items() if k != node.hyp}) if node.hyp else self
            return inner.tree_type([leaf for arg in (node.then, node.orelse) for leaf in inner.leaves(arg)])
        if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text in RESULT_TYPES \
                and len(node.args) == 1:
            return RESULT_TYPES[node.fn.text]
        if isinstance(node, tm.BigOperator) and node.op in ("∑", "∏"):
            # `Finset.sum (s : Finset α) (f : α → β) : β` (Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean):
            # the body's type, when it is known without the bound variable's
            inner = {k: v for k, v in self.types.items() if k != node.binder.name}
            b = node.binder  # `∑ i ∈ s, f i`: `i` has `s`'s element type (Membership's outParam), `(i : T)` its own
            element = tm.render(b.type) if b.type is not None else \
                self.element_type(b.bound[1]) if b.bound is not None and b.bound[0] == "∈" else None
            if element is not None:
                inner[b.name] = element
            return BinderTypes(inner).type_of(node.body)
        if isinstance(node, tm.Enclosed) and node.open == "|":
            return self.type_of(node.inner)
        if isinstance(node, (tm.Binary, tm.Prefix)) and self.leaves(node) != [node]:
            return self.tree_type(self.leaves(node))
        return None

    def tree_type(self, leaves: list[tm.Node]) -> str | None:
        """The maximum type of a ``binop%`` tree with these leaves, when every leaf is a numeral or of a known
        type and those types are one type or lie on the coercion chain ℕ → ℤ → ℚ → ℝ → ℂ (``Nat.cast``,
        ``Int.cast``, ``Rat.cast``, ``Complex.ofReal``: each coerces to the next, so the maximum is the last)."""
        types: set[str] = set()
        for leaf in leaves:
            if is_numeral(leaf):
                continue
            t = self.type_of(leaf)
            if t is None:
                return None
            types.add(t)
        if len(types) == 1:
            return types.pop()
        if types and types <= set(NUMBER_CHAIN):
            return max(types, key=NUMBER_CHAIN.index)
        return None

    def signature(self, fn: tm.Node) -> tuple[list[tm.Node], tm.Node] | None:
        if not isinstance(fn, tm.Name):
            return None
        t = self.types.get(fn.text)
        if t is None:
            t = SIGNATURES.get(fn.text)
        if t is None:
            return None
        arrow = _arrow(t)
        if arrow is None or not arrow[0]:
            return None
        return arrow

    def element_type(self, collection: tm.Node) -> str | None:
        """``T`` when ``collection`` is known to be a ``Set T``/``Finset T``/``List T``/``Multiset T`` (the type of
        ``x`` in ``x ∈ collection`` and of a bounded binder ``∀ x ∈ collection,``)."""
        t = self.type_of(collection)
        node = tm.read_term(t) if t is not None else None
        if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text in _COLLECTIONS \
                and len(node.args) == 1:
            return type_text(node.args[0])
        return None

    def expected_element_type(self, other_side: tm.Node) -> str | None:
        """The element type ``T`` a set-builder on one side of ``=``/``≠`` takes from the other side's ``Set T``:
        ``binrel%`` elaborates both sides as leaves and unifies ``Set ?α`` with the known ``Set T``."""
        t = self.type_of(other_side)
        node = tm.read_term(t) if t is not None else None
        if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text == "Set" and len(node.args) == 1:
            return type_text(node.args[0])
        return None


def is_numeral(node: tm.Node) -> bool:
    """A numeric literal (its type is the elaborator's: `OfNat` at the tree's type, else ℕ)."""
    return isinstance(node, tm.Name) and node.text[:1].isdigit()


def _wrapped(type_: str) -> str:
    """A type as an argument: ``Set (Fin 2 → ℝ)``, ``Set ℝ``."""
    node = tm.read_term(type_)
    return type_ if isinstance(node, tm.Name) else f"({type_})"
