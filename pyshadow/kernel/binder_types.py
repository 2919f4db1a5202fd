"""The type Lean gives a bound variable written without one, read off its uses — only where elaboration fixes it.

``∃ a b, P m = a * b`` (``P : ℤ → Polynomial ℤ``), ``{n | Nat.gcd n 2021 = 1}`` and ``fun n => Real.sqrt (n + 1)``
bind variables whose type Lean's unifier assigns from a use. Reading those types lets ``∃ a b, …`` and
``∃ (a : Polynomial ℤ) (b : Polynomial ℤ), …`` become the same statement. A wrong guess would equate two statements
Lean reads differently, so a use counts only where Lean's elaborator surely gives the variable that type, and the
answer is None unless every use that fixes a type fixes the same one:

- **application** ``g … x …`` where ``g`` has a known arrow type (a statement variable, or a constant in
  ``SIGNATURES``): the argument is elaborated against the domain, so an unknown-typed ``x`` — alone or as a leaf of
  an arithmetic tree in that argument — gets the domain (``binop%`` starts its maximum type at the expected type:
  ``analyze`` in leanprover/lean4 src/Lean/Elab/Extra.lean; a leaf of unknown type is unified with it in
  ``applyCoe``).
- **arithmetic and relations without an expected type**: ``+ - * / %`` are ``binop%``, ``^`` is ``rightact%`` (its
  base is a leaf, its exponent is not), prefix ``-`` is ``unop%`` (src/Init/Notation.lean), ``= < ≤ > ≥`` and
  ``≠`` are ``binrel%`` (src/Init/Notation.lean, src/Init/Core.lean): the leaves of both sides form one tree whose
  maximum type is the join of the known leaf types, and an unknown leaf is unified with it. Read only when every
  leaf is the variable, a numeral, or of a type known here, and the known types agree (no coercion decides).
  ``a ∣ b`` (``Dvd.dvd : α → α → Prop``, plain application) is read the same way.
- **membership** ``x ∈ s`` with ``s : Set T`` / ``Finset T`` / ``List T`` / ``Multiset T``: ``Membership``'s element
  type is an ``outParam`` fixed by the collection (src/Init/Prelude.lean ``class Membership (α : outParam …) (γ …)``).
- **ascription** ``(x : T)``: ``x`` is elaborated against ``T`` and its unknown type is unified with it.

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
    "Real.pi": "ℝ",  # Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean `protected noncomputable def pi : ℝ`
}
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
_RELATIONS = ("=", "≠", "<", "≤", ">", "≥", "∣")
_COLLECTIONS = ("Set", "Finset", "List", "Multiset")
_OPAQUE = object()  # a leaf whose type Lean may know but this module does not


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


def _arrow(type_: str) -> tuple[list[tm.Node], tm.Node] | None:
    node = tm.read_term(type_)
    if node is None:
        return None
    if isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text == "Matrix" and len(node.args) == 3:
        # Mathlib/Data/Matrix/Defs.lean: `def Matrix (m : Type u) (n : Type u') (α : Type v) := m → n → α`, so
        # `M i j` elaborates with `i : m`, `j : n` (the definition unfolds to the function type).
        return [node.args[0], node.args[1]], node.args[2]
    domains = []
    while isinstance(node, tm.Binary) and node.op == "→":
        domains.append(node.left)
        node = node.right
    return domains, node


class BinderTypes:
    """Reads the types of untyped bound variables; ``types`` maps statement variables to their type's text."""

    def __init__(self, types: dict[str, str], unknown: frozenset[str] = frozenset()):
        self.types = types
        self.unknown = unknown  # other untyped bound variables: leaves whose type is a metavariable, as `name`'s

    def infer(self, name: str, body: tm.Node) -> str | None:
        """The type the uses of ``name`` in ``body`` fix (``decide``); None when none does or they differ."""
        return decide(self.evidence(name, body))

    def evidence(self, name: str, body: tm.Node) -> set[tuple[str, bool]]:
        """Every type a use of ``name`` in ``body`` fixes, with whether the use is *strong*: the variable itself
        elaborated against a known type (a direct argument, a membership, an ascription) — it is typed there,
        whatever the order. A *weak* use is a leaf of an arithmetic tree: it takes the tree's maximum type only
        if nothing typed it before (every leaf of a tree is elaborated before the tree is analysed, and a
        variable typed elsewhere is coerced instead)."""
        found: set[tuple[str, bool]] = set()
        self._uses(name, body, found)
        return found

    # -- evidence ------------------------------------------------------------------------------------------------
    def _uses(self, name: str, node: tm.Node, found: set[str]) -> None:
        if isinstance(node, (tm.Lambda, tm.Quantifier, tm.SetBuilder, tm.BigOperator)) and node.binder.name == name:
            for child in tm._children(node)[:-1]:  # binder type/bound are outside the shadowing binder
                self._uses(name, child, found)
            return
        if isinstance(node, tm.App):
            sig = self.signature(node.fn)
            if sig is not None:
                domains, _ = sig
                for k, arg in enumerate(node.args[:len(domains)]):
                    if self._leaf_of_tree(name, arg):
                        found.add((type_text(domains[k]), _is(arg, name)))
        elif isinstance(node, tm.Binary) and node.op in _RELATIONS:
            leaves = self.leaves(node.left) + self.leaves(node.right)
            if any(isinstance(x, tm.Name) and x.text == name for x in leaves):
                known = self._join(name, leaves)
                if known is not None:
                    found.add((known, False))
        elif isinstance(node, tm.Binary) and node.op in ("∈", "∉") and _is(node.left, name):
            element = self.element_type(node.right)
            if element is not None:
                found.add((element, True))
        elif isinstance(node, tm.Ascription) and _is(node.expr, name):
            found.add((type_text(node.type), True))
        for child in tm._children(node):
            self._uses(name, child, found)

    def _leaf_of_tree(self, name: str, node: tm.Node) -> bool:
        return any(_is(x, name) for x in self.leaves(node))

    def leaves(self, node: tm.Node) -> list[tm.Node]:
        """The leaves of the ``binop%`` tree rooted at ``node`` (parentheses are already gone in the tree)."""
        if isinstance(node, tm.Binary) and node.op in ARITHMETIC:
            return self.leaves(node.left) + self.leaves(node.right)
        if isinstance(node, tm.Binary) and node.op == "^":
            return self.leaves(node.left)
        if isinstance(node, tm.Prefix) and node.op == "-":
            return self.leaves(node.arg)
        return [node]

    def _join(self, name: str, leaves: list[tm.Node]) -> str | None:
        """The tree's maximum type when every leaf other than ``name`` is a numeral or of a known type, and those
        types agree; None otherwise."""
        types: set[str] = set()
        for leaf in leaves:
            if _is(leaf, name) or is_numeral(leaf) or (isinstance(leaf, tm.Name) and leaf.text in self.unknown):
                continue
            t = self.type_of(leaf)
            if t is None:
                return None
            types.add(t)
        return types.pop() if len(types) == 1 else None

    # -- types of terms ------------------------------------------------------------------------------------------
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


def _is(node: tm.Node, name: str) -> bool:
    return isinstance(node, tm.Name) and node.text == name


def is_numeral(node: tm.Node) -> bool:
    """A numeric literal (its type is the elaborator's: `OfNat` at the tree's type, else ℕ)."""
    return isinstance(node, tm.Name) and node.text[:1].isdigit()


def _wrapped(type_: str) -> str:
    """A type as an argument: ``Set (Fin 2 → ℝ)``, ``Set ℝ``."""
    node = tm.read_term(type_)
    return type_ if isinstance(node, tm.Name) else f"({type_})"


def decide(found: set[tuple[str, bool]]) -> str | None:
    """The one type the strong uses fix, else the one type the weak uses fix; None when uses disagree."""
    strong = {t for t, is_strong in found if is_strong}
    candidates = strong or {t for t, _ in found}
    return next(iter(candidates)) if len(candidates) == 1 else None


def infer_group(names: tuple[str, ...], pieces: list[tm.Node], types: dict[str, str]) -> dict[str, str]:
    """Types for untyped bound ``names`` (``∃ a b, P m = a * b``) from their uses in ``pieces``. Each is first read
    with the others opaque; then those still unknown are read again with the typed ones known and the rest as
    metavariables (``binop%`` skips a leaf of unknown type). A name is typed only when its uses agree."""
    def run(typing: BinderTypes, todo) -> dict[str, str]:
        out = {}
        for name in todo:
            found: set[tuple[str, bool]] = set()
            for piece in pieces:
                found |= typing.evidence(name, piece)
            got = decide(found)
            if got is not None:
                out[name] = got
        return out

    first = run(BinderTypes(types), names)
    rest = tuple(n for n in names if n not in first)
    if not rest:
        return first
    second = run(BinderTypes({**types, **first}, frozenset(rest)), rest)
    return {**first, **second}
