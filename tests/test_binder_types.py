"""Untyped bound variables typed from their uses (pyshadow/kernel/binder_types.py) — only where Lean's elaborator
surely assigns that type; every negative row is a case where Lean elaborates the two sides differently (or where
this module cannot know that it does not), so equating them would pass a changed statement.

Cases written from Lean's rules (src/Lean/Elab/Extra.lean ``analyze``/``applyCoe``; src/Init/Notation.lean), not
from the development pairs.
"""

from __future__ import annotations

import pytest

from pyshadow.kernel.keys import term_key
from pyshadow.kernel.opens import opened_namespaces
from pyshadow.kernel.binder_order import infer, infer_group
from pyshadow.kernel.definitions import normalize_declaration
from pyshadow.syntax import terms as tm
from pyshadow.syntax.parser import parse_declaration

TYPES = {"f": "ℕ → ℝ", "g": "ℝ → ℝ", "P": "ℤ → Polynomial ℤ", "S": "Set ℕ", "T": "Finset ℤ", "n": "ℕ",
         "R": "Set (Fin 2 → ℝ)", "M": "Matrix (Fin 2) (Fin 3) ℝ", "r": "ℝ"}


@pytest.mark.parametrize("name,body,expected", [
    ("x", "f x = 1", "ℕ"),  # argument of a statement variable of arrow type
    ("x", "g (x + 1) = 0", "ℝ"),  # leaf of a binop% tree elaborated against the domain
    ("x", "Nat.gcd x 12 = 1", "ℕ"),  # SIGNATURES
    ("x", "Real.sqrt (2 * x - 1) < 3", "ℝ"),
    ("x", "x ∈ S", "ℕ"),  # Membership's element type is an outParam of the collection's
    ("x", "x ∉ T", "ℤ"),
    ("x", "x + r = 2", "ℝ"),  # binrel%: the known leaf fixes the maximum type
    ("x", "-x ^ 2 < r", "ℝ"),  # `^`'s base and prefix `-` are leaves of the tree
    ("x", "(x : ℝ) = 2", "ℝ"),  # ascription of an unknown-typed variable unifies
    ("i", "M i 0 = 1", "Fin 2"),  # Matrix m n α unfolds to m → n → α
    ("x", "Int.natAbs x = n", "ℤ"),
    # negatives: nothing fixes the type, or uses disagree, or a coercion may decide
    ("x", "x + 1 = 5", None),  # only numerals: Lean's default instance (ℕ) — not read here
    ("x", "f x = 1 ∧ g x = 1", None),  # two uses disagree (one of them is a coercion)
    ("x", "x + n = r", "ℝ"),  # known leaves ℕ and ℝ: `analyze` keeps ℝ (ℕ coerces to it, `hasCoe`)
    ("x", "x + n = r ∧ f x = 1", None),  # the first use fixes ℝ, a later strong one ℕ: order decides, not read
    ("x", "f x = 1 ∧ x + r = 2", "ℕ"),  # strong use first: the later tree coerces (`↑x + r`) in either reading
    ("x", "x + n = 0 ∧ g x = 0", None),  # issue 21: Lean gives ℕ (first use) and `g ↑x`; never ℝ
    ("x", "s x = 0 ∧ x + r = 0", None),  # `s` unknown here: its domain fixes x first, to a type not known here
    ("n", "f n < 1 / (n + r)", "ℕ"),  # one tree: its leaf `f n` is elaborated before the tree's analysis
    ("x", "x.1 = 2 ∧ x ∈ S", "ℕ"),  # field notation on an unknown type is postponed: fixes nothing
    ("n", "2 ^ f n = 4", "ℕ"),  # an exponent is elaborated as a leaf of its own (`rightact%`)
    ("x", "x ^ 2 + r = 0", "ℝ"),  # … the base is in the tree
    ("x", "abs x < r", "ℝ"),  # `abs x : α` with `α` x's type: unified with the maximum
    ("x", "abs x < r ∧ f x = 0", None),  # … first, then a strong ℕ: order decides
    ("x", "g (abs x) = 0", "ℝ"),
    ("n", "Odd n → P n = 0", "ℤ"),
    ("x", "(x, 1) = (2, 3) ∧ x ∈ S", "ℕ"),  # a pair's components (`Prod.mk`) are not fixed by the pair  # `Odd (a : α)`: its argument's type is a type variable, fixed by `P`  # the expected type ℝ assigns `abs`'s type variable, then x
    ("x", "g (abs x) = 0 ∧ f x = 1", None),  # … then a strong ℕ
    ("n", "S = Set.Icc 1 n ∧ g n = 0", None),  # `Set ?α` unified with `Set ℕ` by the tree: fixed first, not here
    ("x", "x = Real.pi", "ℝ"),  # Real.pi : ℝ
    ("x", "x = Foo.bar", None),  # a leaf of a type this module does not know
    ("x", "2 ^ x = 8", None),  # an exponent is not a leaf of the tree
    ("x", "h x = 1", None),  # unknown function
    ("x", "∀ x : ℝ, g x = 0", None),  # rebound: the inner x is another variable
])
def test_inferred_type(name, body, expected):
    assert infer(name, tm.read_term(body), TYPES) == expected


def test_a_group_is_typed_by_its_members_together():
    body = tm.read_term("P m = a * b")
    assert infer_group(("a", "b"), [body], TYPES) == {"a": "Polynomial ℤ", "b": "Polynomial ℤ"}
    # `y` is fixed to ℝ first, so `x + y = n` has leaves ℝ and ℕ: the maximum ℝ, never ℕ.
    pieces = [tm.read_term("Real.sqrt y = 1"), tm.read_term("x + y = n")]
    assert infer_group(("x", "y"), pieces, TYPES) == {"x": "ℝ", "y": "ℝ"}
    # the other order: `x + y = n` first fixes both to ℕ (Lean then coerces `Real.sqrt ↑y`): x is ℕ; y's later
    # use would fix ℝ, so y is left open — never ℝ.
    pieces = [tm.read_term("x + y = n"), tm.read_term("Real.sqrt y = 1")]
    assert infer_group(("x", "y"), pieces, TYPES) == {"x": "ℕ"}


@pytest.mark.parametrize("a,b,ctx,same", [
    ("{x | Nat.gcd x 10 = 1}", "{x : ℕ | Nat.gcd x 10 = 1}", "", True),
    ("{x | Nat.gcd x 10 = 1}", "{x : ℤ | Nat.gcd x 10 = 1}", "", False),
    ("∃ a b, P m = a * b", "∃ (a : Polynomial ℤ) (b : Polynomial ℤ), P m = a * b", "", True),
    ("∃ a b, P m = a * b", "∃ (a : ℤ) (b : ℤ), P m = a * b", "", False),
    ("∃ x, x + 1 = 5", "∃ x : ℕ, x + 1 = 5", "", False),  # defaulting is not read: conservative, not equal
    ("∃ x, x + 1 = 5", "∃ x : ℝ, x + 1 = 5", "", False),
    ("Tendsto (fun n => Real.sqrt n) atTop (𝓝 0)", "Tendsto (fun n : ℝ => Real.sqrt n) atTop (𝓝 0)", "open Filter",
     True),
    ("Tendsto (fun n => sqrt n) atTop (𝓝 0)", "Tendsto (fun n : ℝ => Real.sqrt n) atTop (𝓝 0)", "open Filter Real",
     True),
    ("Tendsto (fun n => Real.sqrt n) atTop (𝓝 0)", "Tendsto (fun n : ℕ => Real.sqrt n) atTop (𝓝 0)", "open Filter",
     False),
    # A callee with a concrete domain gives a `fun` its binder type: `Finset.sum (range 3) (fun i => √i)` has
    # `i : ℕ` and `√↑i` — the body's ℝ must not be read into the binder.
    ("Finset.sum (Finset.range 3) (fun i => Real.sqrt i)", "Finset.sum (Finset.range 3) (fun i : ℝ => Real.sqrt i)",
     "", False),
    ("(x : Nat)", "(x : ℕ)", "", True),  # `ℕ` is Mathlib's notation for `Nat`
    ("Real.sqrt x", "Real.sqrt x", "", True),
    ("Nat.succ n", "ℕ.succ n", "", False),  # only the bare type name is respelled
    ("f^[n] x", "Nat.iterate f n x", "", True),  # Mathlib/Logic/Function/Iterate.lean `f^[n]`
    ("f^[n] x", "f ^ [n] x", "", False),  # `^ [` with a space is `HPow` of a list literal
    ("volume s", "MeasureTheory.volume s", "open MeasureTheory", True),
])
def test_keys_with_inferred_binders(a, b, ctx, same):
    opens = opened_namespaces(ctx)
    ka = term_key(a, opens, {k: "" for k in TYPES}, TYPES)
    kb = term_key(b, opens, {k: "" for k in TYPES}, TYPES)
    assert (ka == kb) is same, (ka, kb)


@pytest.mark.parametrize("a,b,same", [
    ("theorem t (R : Set (Fin 2 → ℝ)) (h : R = {p | p 0 = 1}) : True",
     "theorem t (R : Set (Fin 2 → ℝ)) (h : R = {p : Fin 2 → ℝ | p 0 = 1}) : True", True),
    # The set's body fixes another type than the equation's other side: not typed (Lean would reject it anyway).
    ("theorem t (R : Set ℕ) (h : R = {p | Real.sqrt p = 1}) : True",
     "theorem t (R : Set ℕ) (h : R = {p : ℕ | Real.sqrt p = 1}) : True", False),
    ("theorem t (P : ℤ → Polynomial ℤ) : ∃ a b, P 0 = a * b",
     "theorem t (P : ℤ → Polynomial ℤ) : ∃ a b : Polynomial ℤ, P 0 = a * b", True),
    # A header binder without a type takes it from a later binder, as a ∀'s does from its body.
    ("theorem t (l : List ℕ) (x) (h : x ∈ l) : x ≤ x * x", "theorem t (l : List ℕ) (x : ℕ) (h : x ∈ l) : x ≤ x * x",
     True),
    ("theorem t (l : List ℕ) (x) (h : x ∈ l) : x ≤ x * x", "theorem t (l : List ℕ) (x : ℤ) (h : x ∈ l) : x ≤ x * x",
     False),
    # An unused binder of an inhabited type is dropped (∀ n : ℕ, P ↔ P); an unused hypothesis never is.
    ("theorem t (n : ℕ) : ∀ m : ℕ, m = m", "theorem t : ∀ m : ℕ, m = m", True),
    ("theorem t (n : ℕ) (h : n > 0) : True", "theorem t (n : ℕ) : True", False),
    ("theorem t (s : Set ℕ) : True", "theorem t : True", False),  # not in the inhabited-type list
    ("theorem t (n : ℕ) : Tendsto (fun n => Real.sqrt n) atTop (𝓝 0)",
     "theorem t : Tendsto (fun n : ℝ => Real.sqrt n) atTop (𝓝 0)", True),
])
def test_declarations_with_inferred_binders(a, b, same):
    da = normalize_declaration(parse_declaration(a), "open Filter")
    db = normalize_declaration(parse_declaration(b), "open Filter")
    assert (da == db) is same, (da, db)


# ---------------------------------------------------------------------------------------------------------------
# Numeral ascriptions that do not change the elaboration, big-operator applications, dot notation on ascriptions


@pytest.mark.parametrize("a,b,same", [
    ("theorem t (x : ℝ) (h : 3 * x + 2 = 11) : x = 3", "theorem t (x : ℝ) (h : (3 : ℝ) * x + 2 = (11 : ℝ)) : x = (3 : ℝ)",
     True),
    ("theorem t (x : ℕ) : x = 3", "theorem t (x : ℕ) : x = (3 : ℝ)", False),  # the tree's type becomes ℝ: ↑x = 3
    ("theorem t : 2 + 3 = 5", "theorem t : (2 : ℝ) + 3 = 5", False),  # numerals alone are ℕ, not ℝ
    ("theorem t : 2 + 3 = 5", "theorem t : (2 : ℕ) + 3 = 5", True),  # … so an ℕ ascription adds nothing
    ("theorem t : Real.sqrt 16 = 4", "theorem t : Real.sqrt (16 : ℝ) = (4 : ℝ)", True),  # known domain and type
    ("theorem t (f : ℕ → ℝ) : f 2 = 1", "theorem t (f : ℕ → ℝ) : f (2 : ℝ) = 1", False),  # not f's domain
    # ℕ and ℝ leaves: the maximum is ℝ with or without the ascription (`x + ↑y = 2` either way) …
    ("theorem t (x : ℝ) (y : ℕ) : x + y = 2", "theorem t (x : ℝ) (y : ℕ) : x + y = (2 : ℝ)", True),
    # … but not when the ascription is what makes it ℝ.
    ("theorem t (y : ℕ) : y + 1 = 2", "theorem t (y : ℕ) : y + 1 = (2 : ℝ)", False),
    ("theorem t : Nat.gcd 180 168 = 12", "theorem t : (180 : ℕ).gcd 168 = 12", True),
    ("theorem t : Nat.gcd 180 168 = 12", "theorem t : (180 : ℤ).gcd 168 = 12", False),  # Int.gcd
    ("theorem t : (∑ k in Finset.range 101, k) % 6 = 4", "theorem t : (Finset.sum (Finset.range 101) fun i => i) % 6 = 4",
     True),
    ("theorem t (f : ℕ → ℕ) : ∑ k in Finset.range 5, f k = 3", "theorem t (f : ℕ → ℕ) : Finset.sum (Finset.range 5) f = 3",
     True),  # η: `Finset.sum s f` is `∑ x ∈ s, f x` up to definitional η
    ("theorem t : (∑ k in Finset.range 101, k) % 6 = 4", "theorem t : (Finset.prod (Finset.range 101) fun i => i) % 6 = 4",
     False),
    ("theorem t : (∑ k in Finset.range 101, k) % 6 = 4", "theorem t : Finset.sum (Finset.range 101) (fun i => i % 6) = 4",
     False),
])
def test_spellings_of_one_elaborated_term(a, b, same):
    da, db = normalize_declaration(parse_declaration(a)), normalize_declaration(parse_declaration(b))
    assert (da == db) is same, (da, db)


@pytest.mark.parametrize("a,b,same", [
    # `(· ∣ 3)` is `fun x => x ∣ 3` (Lean's cdot expansion); one binder per `·`, left to right.
    ("Finset.filter (· ∣ 3) s", "Finset.filter (fun x => x ∣ 3) s", True),
    ("(· + ·)", "fun a b => a + b", True),
    ("(· - ·)", "fun a b => b - a", False),
    # `Finset.filter p s` is `Finset.filter (fun x => p x) s` up to η.
    ("(Finset.range 10).filter Nat.Prime", "Finset.filter (fun p => Nat.Prime p) (Finset.range 10)", True),
    # `{x ∈ s | p x}` over a Finset elaborates to `Finset.filter` unless a `Set` is expected (Mathlib
    # `elabFinsetBuilderSep`): as a dot receiver, a side of a relation, the argument of `Finset.card`.
    ("{x ∈ s | p x}.card", "(s.filter p).card", True),
    ("{x ∈ Finset.Icc 1 100 | x % 3 = 0}.card = 33", "(Finset.filter (· % 3 = 0) (Finset.Icc 1 100)).card = 33", True),
    ("Finset.card {x ∈ s | p x}", "Finset.card (Finset.filter p s)", True),
    ("Set.ncard {x ∈ s | p x}", "Set.ncard (Finset.filter p s)", False),  # a Set is expected: Set.sep
    ("g {x ∈ s | p x}", "g (Finset.filter p s)", False),  # unknown expected type: not read
    ("{x ∈ S | p x}.ncard", "Set.ncard {x ∈ S | p x}", True),  # over a Set it stays a set-builder
])
def test_finset_spellings(a, b, same):
    types = {"s": "Finset ℕ", "S": "Set ℕ", "g": "Finset ℕ → ℕ"}
    variables = {"s": "Finset", "S": "Set", "g": ""}
    assert (term_key(a, frozenset(), variables, types) == term_key(b, frozenset(), variables, types)) is same


@pytest.mark.parametrize("a,b,same", [
    # A direct argument types a variable whatever the order; a tree leaf only takes the tree's maximum type when
    # nothing typed it (`s n` makes n : ℕ, so in `1 / (n + 1)` it is coerced: `1 / (↑n + 1)`).
    ("theorem t (s : ℕ → ℝ) (h : ∀ n, s n < 1 / (n + 1)) : True",
     "theorem t (s : ℕ → ℝ) (h : ∀ n : ℕ, s n < 1 / ((n : ℝ) + 1)) : True", True),
    ("theorem t (s : ℕ → ℝ) (h : ∀ n, s n < 1 / (n + 1)) : True",
     "theorem t (s : ℕ → ℝ) (h : ∀ n : ℕ, s n < 1 / (↑n + 1)) : True", True),
    # `↑(n + 1)` is not `↑n + 1`.
    ("theorem t (s : ℕ → ℝ) (h : ∀ n : ℕ, s n < 1 / (n + 1)) : True",
     "theorem t (s : ℕ → ℝ) (h : ∀ n : ℕ, s n < 1 / ((n + 1 : ℕ) : ℝ)) : True", False),
    # … nor in the `↑(…)` spelling: `coeNotation` elaborates the compound alone (truncated ℕ subtraction, floor
    # division), then casts it — a leaf of the outer tree (src/Lean/Elab/BuiltinNotation.lean `elabCoe`).
    ("theorem t (m : ℕ) (k : ℤ) : k = ↑(m - 2)", "theorem t (m : ℕ) (k : ℤ) : k = ↑m - 2", False),
    # issue 21's pair, through the substitution of `k` (definitions.py) — the cast of the compound survives it
    ("theorem t (m : ℕ) (k : ℤ) (h : k = ↑(m - 2)) : k < 5", "theorem t (m : ℕ) (k : ℤ) (h : k = ↑m - 2) : k < 5",
     False),
    ("theorem t (m : ℕ) (k : ℤ) (h : k = ↑m - 2) : k < 5", "theorem t (m : ℕ) (k : ℤ) (h : k = (m : ℤ) - 2) : k < 5",
     True),
    ("theorem t (m : ℕ) (k : ℤ) : k = ↑(m - 2)", "theorem t (m : ℕ) (k : ℤ) : k = m - 2", False),
    ("theorem t (a b : ℕ) (q : ℚ) : q = ↑(a / b)", "theorem t (a b : ℕ) (q : ℚ) : q = ↑a / ↑b", False),
    ("theorem t (m : ℕ) (f : ℤ → ℤ) : f ↑(m - 2) = 0", "theorem t (m : ℕ) (f : ℤ → ℤ) : f (m - 2) = 0", False),
    # A cast of a leaf is the coercion the tree inserts anyway; an ascription of a compound elaborates it at the
    # ascribed type; the cast of a compound has one reading whichever way it is spelled.
    ("theorem t (m : ℕ) (k : ℤ) : k = ↑m - 2", "theorem t (m : ℕ) (k : ℤ) : k = (m : ℤ) - 2", True),
    ("theorem t (m : ℕ) (k : ℤ) : k = ↑m - 2", "theorem t (m : ℕ) (k : ℤ) : k = (m - 2 : ℤ)", True),
    ("theorem t (m : ℕ) (k : ℤ) : k = ↑(m - 2)", "theorem t (m : ℕ) (k : ℤ) : k = ((m - 2 : ℕ) : ℤ)", True),
    ("theorem t (x : ℤ) (k : ℤ) : k = ↑(x - 2)", "theorem t (x : ℤ) (k : ℤ) : k = x - 2", True),  # no coercion
    # A cast that raises the tree's type is not dropped.
    ("theorem t (n : ℕ) : n / 2 = 3", "theorem t (n : ℕ) : (n : ℝ) / 2 = 3", False),
    # Membership fixes an interval's element type.
    ("theorem t (x : ℝ) (h : x ∈ Set.Icc (0 : ℝ) 1) : True", "theorem t (x : ℝ) (h : x ∈ Set.Icc 0 1) : True", True),
    ("theorem t (x : ℝ) (n : ℕ) (h : x ∈ Set.Icc (n : ℝ) 1) : True",
     "theorem t (x : ℝ) (n : ℕ) (h : x ∈ Set.Icc n 1) : True", False),
    ("theorem t (f : ℝ → ℝ) (S : Set ℝ) (h : f '' S = S) : f ⁻¹' S = S",
     "theorem t (f : ℝ → ℝ) (S : Set ℝ) (h : Set.image f S = S) : Set.preimage f S = S", True),
])
def test_casts_and_notations(a, b, same):
    da, db = normalize_declaration(parse_declaration(a)), normalize_declaration(parse_declaration(b))
    assert (da == db) is same, (da, db)


def test_bounded_binders_are_typed_from_their_bound_and_body():
    d = normalize_declaration(parse_declaration(
        "theorem t (a : ℕ → ℝ) (l : ℝ) (h : ∀ ε > 0, ∃ N, ∀ n ≥ N, |a n - l| < ε) : Tendsto a atTop (𝓝 l)"),
        "open Filter Topology")
    from pyshadow.syntax.render import render_declaration
    text = render_declaration(d)
    assert "∀ ε : ℝ > 0, ∃ N : ℕ, ∀ n : ℕ ≥ N" in text, text
    assert "nhds l" in text


@pytest.mark.parametrize("a,b,ctx,same", [
    ("Π i, X i", "∀ i, X i", "", True),  # Mathlib/Util/PiNotation.lean: a copy of ∀
    ("Π i : ι, X i", "∀ i : ι, Y i", "", False),
    ("ℚ[X]", "Polynomial ℚ", "open Polynomial", True),  # `[X]` is a scoped token: only under open Polynomial
    ("ℚ[X]", "Polynomial ℚ", "", False),
    ("X ^ 2 + C 1", "Polynomial.X ^ 2 + Polynomial.C 1", "open Polynomial", True),
    ("X ^ 2", "Polynomial.X ^ 2", "open Polynomial MvPolynomial", False),  # ambiguous: Lean picks by type
])
def test_polynomial_and_pi_notation(a, b, ctx, same):
    ka, kb = term_key(a, opened_namespaces(ctx)), term_key(b, opened_namespaces(ctx))
    assert (ka == kb) is same, (ka, kb)


def test_a_variable_named_X_is_not_polynomial_X():
    opens = opened_namespaces("open Polynomial")
    assert term_key("X ^ 2", opens, {"X": ""}) != term_key("Polynomial.X ^ 2", opens)


@pytest.mark.parametrize("text,hypothesis", [
    ("theorem t (E : Set ℝ) (hE : IsClosed E) : True", True),  # `h` + capital: a hypothesis
    ("theorem t (d n : ℕ) (hd : d ∣ n) : True", True),
    ("theorem t (G : Type*) [Group G] (hG : IsCyclic G) : True", True),
    ("theorem t (hx : ℝ) : hx = hx", False),  # a data type is never a proposition, whatever the name
    ("theorem t (hom : A →* B) : True", False),
])
def test_hypothesis_names(text, hypothesis):
    from pyshadow.syntax.ast import is_proposition
    d = parse_declaration(text)
    last = [b for b in d.binders if b.names][-1]
    assert is_proposition(last) is hypothesis


def test_a_substituted_value_of_the_variable_s_type_is_not_ascribed():
    from pyshadow.syntax.render import render_declaration
    d = normalize_declaration(parse_declaration(
        "theorem t (S : ℝ → Set (ℝ × ℝ)) (E : ℝ) (G : Set (ℝ × ℝ)) (h₂ : G = S E) : IsCompact G"))
    assert render_declaration(d).endswith(": IsCompact (S E)")
    d = normalize_declaration(parse_declaration("theorem t (y : ℝ) (h : y = 2 / 3) : y < 1"))
    assert "(2 / 3 : ℝ)" in render_declaration(d)  # numerals alone would be ℕ: the ascription stays


def test_an_instance_binder_type_is_one_class_term():
    a = normalize_declaration(parse_declaration(
        "theorem t {ι : Type*} {X : ι → Type*} [∀ i, TopologicalSpace (X i)] : True"))
    b = normalize_declaration(parse_declaration(
        "theorem t {ι : Type*} {X : ι → Type*} [Π i, TopologicalSpace (X i)] : True"))
    c = normalize_declaration(parse_declaration(
        "theorem t {ι : Type*} {X : ι → Type*} [∀ i, MetricSpace (X i)] : True"))
    key = lambda d: d.binders[2].type.text
    assert key(a) == key(b) and key(a) != key(c)


@pytest.mark.parametrize("a,b,same", [
    ("⌊x⌋", "Int.floor x", True),  # Mathlib/Algebra/Order/Floor.lean notations
    ("⌊x⌋₊", "Nat.floor x", True),
    ("⌊x⌋", "Nat.floor x", False),
    ("⌈x / 2⌉", "Int.ceil (x / 2)", True),
    ("a ≡ b [MOD n]", "Nat.ModEq n a b", True),
    ("a ≡ b [ZMOD n]", "Int.ModEq n a b", True),
    ("a ≡ b [MOD n]", "Nat.ModEq n b a", False),
    ("(Nat.digits 10 n).sum", "List.sum (Nat.digits 10 n)", True),  # Nat.digits returns a List
])
def test_floor_modeq_and_list_notations(a, b, same):
    assert (term_key(a) == term_key(b)) is same


@pytest.mark.parametrize("a,b,ctx,same", [
    # Scoped notations denote their constant under their `open` (notations.SCOPED_NOTATIONS); elsewhere ∠ is not
    # Mathlib's notation (projects declare their own `notation "∠" => …`) and stays a symbol.
    ("∠ A B C", "EuclideanGeometry.angle A B C", "open EuclideanGeometry", True),
    ("∠ A B C", "EuclideanGeometry.angle A C B", "open EuclideanGeometry", False),
    ("∠ A B C", "EuclideanGeometry.angle A B C", "", False),
    ("π / 2", "Real.pi / 2", "open Real", True),
    ("π / 2", "Real.pi / 3", "open Real", False),
    ("𝓝 0", "nhds 0", "open scoped Topology", True),
    # A `fun` passed where the callee's domain is a type variable is typed from its body, for every such callee
    # (resolver.POLYMORPHIC_FUNCTION_ARGUMENT), after name resolution.
    ("Injective (fun x => Real.sqrt x)", "Function.Injective (fun x : ℝ => Real.sqrt x)", "open Function", True),
    ("Injective (fun x => Real.sqrt x)", "Function.Injective (fun x : ℕ => Real.sqrt x)", "open Function", False),
    ("StrictMono (fun n => f n)", "StrictMono (fun n : ℕ => f n)", "", True),  # `f : ℕ → ℝ`
    ("StrictMono (fun n => f n)", "StrictMono (fun n : ℤ => f n)", "", False),
    # … but not where the callee fixes the domain itself (`Finset.sum (range 3) (fun i => √i)` has `i : ℕ`)
    ("Finset.sum (Finset.range 3) (fun i => Real.sqrt i)", "Finset.sum (Finset.range 3) (fun i : ℝ => Real.sqrt i)",
     "", False),
    # A variable whose type is a definition unfolding to a function type is applied at its domains.
    ("∃ x, S x", "∃ x : ℕ, S x", "", True),  # `S : Set ℕ`, `def Set α := α → Prop`
    ("∃ x, S x", "∃ x : ℤ, S x", "", False),
])
def test_notations_and_polymorphic_domains(a, b, ctx, same):
    opens = opened_namespaces(ctx)
    ka = term_key(a, opens, {k: "" for k in TYPES}, TYPES)
    kb = term_key(b, opens, {k: "" for k in TYPES}, TYPES)
    assert (ka == kb) is same, (ka, kb)


@pytest.mark.parametrize("a,b,same", [
    # One mechanism: an unused binder of an inhabited type — a number type or a universe — is dropped.
    ("theorem t {R : Type*} (n : ℤ) : n = n", "theorem t (n : ℤ) : n = n", True),
    ("theorem t (R : Type u) (n : ℤ) : n = n", "theorem t (n : ℤ) : n = n", True),
    ("theorem t {n : ℕ} : True", "theorem t : True", True),
    ("theorem t {R : Type*} [Ring R] : True", "theorem t : True", False),  # mentioned by the instance binder
    ("theorem t (R : Type*) (x : R) : x = x", "theorem t (x : R) : x = x", False),
    ("theorem t {α : Type*} [∀ a : α, Nonempty (Fin 2)] : True", "theorem t [∀ a : α, Nonempty (Fin 2)] : True",
     False),
    ("theorem t (p : Prop) : True", "theorem t : True", False),  # `Prop` is not in the list: kept
])
def test_unused_inhabited_binders(a, b, same):
    da, db = normalize_declaration(parse_declaration(a)), normalize_declaration(parse_declaration(b))
    assert (da == db) is same, (da, db)
