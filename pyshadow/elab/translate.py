"""Surface notation to the syntax a prelude-mode Lean knows: a statement printed for Lean's own elaborator.

Without ``Init`` the binary has no ``+``, ``∧`` or ``∃`` notation, but it has the elaborators those notations expand
to: ``binop%``/``binrel%``/``unop%``/``rightact%`` (src/Lean/Elab/Extra.lean), ``fun``/``∀``/``→``, ascriptions and
anonymous constructors. ``to_lean`` prints a term tree of ``pyshadow.syntax.terms`` as exactly what the notation's
declaration expands to, so the real elaborator — with the signature environment of ``PyshadowEnv`` — inserts the
coercions and fixes the binder types itself. Each row of the tables cites the declaration it mirrors.

A notation not in the tables is not guessed at: ``Untranslatable`` says which, and the statement is left to the
rest of the kernel tier (undecided by elaboration, never a pass).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..syntax import terms as tm
from ..syntax.brackets import balanced


class Untranslatable(ValueError):
    """The term uses notation this translator does not print; the message names it."""


# src/Init/Notation.lean: `macro_rules | `($x + $y) => `(binop% HAdd.hAdd $x $y)` and its siblings;
# `macro_rules | `($x ^ $y) => `(rightact% HPow.hPow $x $y)`; `macro_rules | `($x ≤ $y) => `(binrel% LE.le $x $y)`…
# src/Init/Core.lean: `macro_rules | `($x ≠ $y) => `(binrel% Ne $x $y)`.
ELABORATOR_OPS: dict[str, str] = {
    "+": "binop% HAdd.hAdd", "-": "binop% HSub.hSub", "*": "binop% HMul.hMul", "/": "binop% HDiv.hDiv",
    "%": "binop% HMod.hMod", "^": "rightact% HPow.hPow",
    "=": "binrel% Eq", "≤": "binrel% LE.le", "<": "binrel% LT.lt", "≥": "binrel% GE.ge", ">": "binrel% GT.gt",
    "≠": "binrel% Ne",
    # Mathlib/Algebra/Group/Defs.lean: `infixr:73 " • " => HSMul.hSMul` with
    # `macro_rules | `($x • $y) => `(leftact% HSMul.hSMul $x $y)`
    "•": "leftact% HSMul.hSMul",
}
# Plain `infix`/`notation` declarations (an application of the constant, no elaborator helper):
# src/Init/Notation.lean `infixr:35 " ∧ " => And`, `infixr:30 " ∨ " => Or`; src/Init/Core.lean
# `infix:20 " ↔ " => Iff`, `infix:50 " ⊆ " => Subset` (`HasSubset.Subset`), `infix:50 " ⊂ " => SSubset`,
# `infixl:65 " ∪ " => Union.union`, `infixl:70 " ∩ " => Inter.inter`, `infix:70 " \\ " => SDiff.sdiff`;
# src/Init/Prelude.lean `infix:50 " ∣ " => Dvd.dvd`; src/Init/Prelude.lean `infixr:90 " ∘ " => Function.comp`.
# src/Init/Core.lean `infixr:35 " × " => Prod`; Mathlib/Data/Set/Defs.lean (namespace Set)
# `infixl:80 " '' " => image`, `infixl:80 " ⁻¹' " => preimage`. (Mathlib/Order/Notation.lean's `⊔`/`⊓`,
# `macro_rules | `($a ⊔ $b) => `(Max.max $a $b)`, wait for the lattice instances the environment lacks.)
APPLICATION_OPS: dict[str, str] = {
    "∧": "And", "∨": "Or", "↔": "Iff", "⊆": "HasSubset.Subset", "⊂": "HasSSubset.SSubset",
    "∪": "Union.union", "∩": "Inter.inter", "\\": "SDiff.sdiff", "∣": "Dvd.dvd", "∘": "Function.comp",
    "×": "Prod", "''": "Set.image", "⁻¹'": "Set.preimage",
    # Mathlib/Logic/Equiv/Defs.lean `infixl:25 " ≃ " => Equiv`; Mathlib/Algebra/Group/Equiv/Defs.lean
    # `infixl:25 " ≃* " => MulEquiv` (`≃+`, `≃+*` wait for AddEquiv and RingEquiv in the environment)
    "≃": "Equiv", "≃*": "MulEquiv",
}
# Mathlib's notations for the number types (Mathlib/Data/Nat/Notation.lean `notation "ℕ" => Nat`,
# Mathlib/Data/Int/Notation.lean, Mathlib/Data/Rat/Init.lean, Mathlib/Data/Real/Basic.lean,
# Mathlib/Data/Complex/Basic.lean, Mathlib/Data/NNReal/Defs.lean `ℝ≥0`, Mathlib/Data/PNat/Notation.lean `ℕ+`).
TYPE_NOTATION: dict[str, str] = {
    "ℕ": "Nat", "ℤ": "Int", "ℚ": "Rat", "ℝ": "Real", "ℂ": "Complex", "ℝ≥0": "NNReal", "ℕ+": "PNat",
    "ℕ∞": "ENat",  # Mathlib/Data/ENat/Defs.lean `notation "ℕ∞" => ENat`
}
# Closed notations: Mathlib/Algebra/Order/Group/Unbundled/Abs.lean `|a|` (`abs`, resolved where the macro is
# declared — hygiene — so `_root_.abs` even under `open Complex`), Mathlib/Analysis/Normed/Group/
# Basic.lean `‖e‖` (`Norm.norm`), Mathlib/Order/Floor/Defs.lean `⌊a⌋` `⌈a⌉` `⌊a⌋₊` `⌈a⌉₊`.
ENCLOSED: dict[tuple[str, str], str] = {
    ("|", "|"): "_root_.abs", ("‖", "‖"): "Norm.norm", ("⌊", "⌋"): "Int.floor", ("⌈", "⌉"): "Int.ceil",
    ("⌊", "⌋₊"): "Nat.floor", ("⌈", "⌉₊"): "Nat.ceil",
}
# Mathlib/Data/Real/Sqrt.lean `prefix:100 "√" => Real.sqrt`; src/Init/Notation.lean `notation:max "¬" p:40 => Not p`
# and `macro_rules | `(- $x) => `(unop% Neg.neg $x)`.
PREFIX: dict[str, str] = {"√": "Real.sqrt", "¬": "Not", "-": "unop% Neg.neg"}
# Mathlib/Algebra/Group/Defs.lean `postfix:max "⁻¹" => Inv.inv`; Mathlib/Order/Notation.lean
# `postfix:1024 "ᶜ" => compl` (`export Compl (compl)`).
POSTFIX: dict[str, str] = {"⁻¹": "Inv.inv", "ᶜ": "Compl.compl"}
# Mathlib/Data/Int/ModEq.lean `notation:50 a " ≡ " b " [ZMOD " n "]" => Int.ModEq n a b`, Mathlib/Data/Nat/ModEq.lean.
MODEQ: dict[str, str] = {"MOD": "Nat.ModEq", "ZMOD": "Int.ModEq"}
# Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean: `∑ x ∈ s, f` is `Finset.sum s (fun x ↦ f)`, `∑ x, f` is
# `Finset.sum Finset.univ (fun x ↦ f)`, `∑ x ∈ s with p, f` filters `s` by `p` first.
BIG_OPERATORS: dict[str, str] = {"∑": "Finset.sum", "∏": "Finset.prod"}
# Mathlib/Order/SetNotation.lean: `notation3 "⋃ " (...)", " r:60:(scoped f => iUnion f) => r` (and `⋂`, `iInter`):
# `⋃ i, s i` is `Set.iUnion fun i => s i`; a bounded binder is the extended binder `⋃ i, ⋃ (_ : i ∈ t), s i`
# (the file's delaborator prints that shape back as `⋃ i ∈ t, s i`).
SET_OPERATORS: dict[str, str] = {"⋃": "Set.iUnion", "⋂": "Set.iInter"}
# Mathlib/Topology/Defs/Filter.lean: `scoped[Topology] notation3 "𝓝[>] " x:100 => nhdsWithin x (Set.Ioi x)`, and
# `𝓝[<]` (`Set.Iio x`), `𝓝[≥]` (`Set.Ici x`), `𝓝[≤]` (`Set.Iic x`), `𝓝[≠]` (`{x}ᶜ`): the point written twice, as
# the notation expands it.
NEIGHBOURHOODS_WITHIN: dict[str, str] = {
    "𝓝[>]": "Set.Ioi {0}", "𝓝[<]": "Set.Iio {0}", "𝓝[≥]": "Set.Ici {0}", "𝓝[≤]": "Set.Iic {0}",
    "𝓝[≠]": "Compl.compl (Singleton.singleton {0})",
}
# Mathlib/Topology/Algebra/InfiniteSum/Defs.lean: `notation3 "∑' "(...)", "r:67:(scoped f => tsum f (unconditional _))
# => r`: the unconditional sum over an unbounded binder.
INFINITE_OPERATORS: dict[str, str] = {"∑'": "tsum"}


@dataclass(frozen=True)
class Scope:
    """What the notation of a statement's file depends on: its ``open`` namespaces (scoped notation)."""

    opens: frozenset[str] = frozenset()
    typed: frozenset[str] = frozenset()  # the names bound outside the term with a written type (header binders)


def to_lean(node: tm.Node, scope: Scope = Scope(), universes: list[str] | None = None) -> str:
    """``node`` printed as builtin syntax; ``Untranslatable`` when it uses notation the tables do not cover.

    ``Type*``/``Sort*`` (Mathlib/Tactic/TypeStar.lean: a fresh universe each) print as ``Type u_k`` with the next
    name appended to ``universes`` when a list is given, else as ``Type _``.
    """
    return _Printer(scope, universes).term(node)


class _Printer:
    def __init__(self, scope: Scope, universes: list[str] | None):
        self.scope = scope
        self.universes = universes
        self.cdot = False  # inside `(… · …)`, whose `·` Lean's parenthesis elaborator turns into a `fun`
        self.bound: list[tuple[str, bool]] = []  # the term's own binders in scope: (name, has a written type)

    def term(self, node: tm.Node) -> str:
        method = getattr(self, "_" + type(node).__name__.lower(), None)
        if method is None:
            raise Untranslatable(f"{type(node).__name__} terms")
        return method(node)

    def leaf(self, node: tm.Node) -> str:
        """An operand of ``binop%``/``binrel%``, of an ascription or of a typed variable: where ``↑e`` is printed."""
        if isinstance(node, tm.Prefix) and node.op == "↑":
            return self._coe(node.arg)
        if isinstance(node, tm.Enclosed) and node.open == "answer(":
            # a leaf the operator tree elaborates alone (src/Lean/Elab/Extra.lean `toTree`), where `(e)` would be
            # part of the tree: `x = answer(n - 1)` and `x = (n - 1)` differ at `x : ℤ`, `n : ℕ`
            raise Untranslatable("`answer(e)` as an operand of an operator tree")
        return self.arg(node)

    def arg(self, node: tm.Node) -> str:
        text = self.term(node)
        return text if _is_atomic(text) else f"({text})"

    def _name(self, node: tm.Name) -> str:
        text = node.text
        if text in TYPE_NOTATION:
            return TYPE_NOTATION[text]
        if text == "π":  # Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean: `scoped notation "π" => Real.pi`
            # (outside `open Real` the token is an identifier: a variable of the statement, or unknown to Lean;
            # a binder named `π` — Lean's parser then reads the notation's token as that binder's name, and so do
            # its uses: `(π x : ℝ) (h : x = π / 2)` is about every real `π`)
            bound = any(name == "π" for name, _ in self.bound) or "π" in self.scope.typed
            return "Real.pi" if "Real" in self.scope.opens and not bound else "π"
        if text == "𝓝":  # Mathlib/Topology/Defs/Filter.lean: `scoped[Topology] notation "𝓝" => nhds`
            if "Topology" in self.scope.opens:
                return "nhds"
            raise Untranslatable("`𝓝` outside `open Topology`")
        if text in ("Type*", "Sort*"):  # Mathlib/Tactic/TypeStar.lean: a fresh universe per binder
            if self.universes is None:
                return text[:-1] + " _"
            self.universes.append(f"u_{len(self.universes) + 1}")
            return f"{text[:-1]} {self.universes[-1]}"
        if text[:1].isdigit():
            if not text.isdigit():
                raise Untranslatable(f"the literal `{text}`")
            return text
        if text == "∅":  # src/Init/Core.lean: `notation "∅" => EmptyCollection.emptyCollection`
            return "EmptyCollection.emptyCollection"
        if text in ("⊤", "⊥"):  # Mathlib/Order/Notation.lean: `notation "⊤" => Top.top`, `notation "⊥" => Bot.bot`
            return "Top.top" if text == "⊤" else "Bot.bot"
        if text == "·" and self.cdot:  # src/Lean/Parser/Term.lean `cdot`, expanded by the parentheses around it
            return "·"
        if text == "(↑)":  # printed only under a function type's ascription (`_ascription`)
            raise Untranslatable("`(↑)` without a function type")
        if text == "·" or text.startswith(("\"", "'")):
            raise Untranslatable(f"`{text}`")
        return text

    def _app(self, node: tm.App) -> str:
        if isinstance(node.fn, tm.Name) and node.fn.text in NEIGHBOURHOODS_WITHIN:
            if "Topology" not in self.scope.opens:
                raise Untranslatable(f"`{node.fn.text}` outside `open Topology`")
            point = self.arg(node.args[0])
            return f"nhdsWithin {point} ({NEIGHBOURHOODS_WITHIN[node.fn.text].format(point)})"
        # Mathlib/Algebra/Polynomial/Basic.lean: `scoped[Polynomial] notation:9000 R "[X]" => Polynomial R` (read as
        # `R` applied to the list `[X]`; only the single-argument shape `R[X]` is printed)
        if (len(node.args) == 1 and isinstance(node.args[0], tm.Collection) and node.args[0].open == "["
                and node.args[0].items == (tm.Name("X"),) and "Polynomial" in self.scope.opens):
            return f"Polynomial {self.arg(node.fn)}"
        if isinstance(node.fn, tm.Name) and "." not in node.fn.text and self._typed(node.fn.text):
            # a variable with a written type: each argument is elaborated against its known parameter type, so
            # `↑e` there is `(e :)` as in an operator tree (`elabCoe` postpones only for an unknown expected type)
            return " ".join([self.arg(node.fn), *(self.leaf(a) for a in node.args)])
        return " ".join([self.arg(node.fn), *(self.arg(a) for a in node.args)])

    def _binary(self, node: tm.Binary) -> str:
        if node.op in ELABORATOR_OPS:  # `↑e` is a leaf of the operator tree where `applyCoe` visits it
            left = self.leaf(node.left) if node.op != "•" else self.arg(node.left)
            right = self.leaf(node.right) if node.op != "^" else self._exponent(node.right)
            return f"{ELABORATOR_OPS[node.op]} {left} {right}"
        if node.op == "∣":
            return self._dvd(node.left, node.right)
        left, right = self.arg(node.left), self.arg(node.right)
        if node.op in APPLICATION_OPS:
            return f"{APPLICATION_OPS[node.op]} {left} {right}"
        if node.op == "→":
            return f"{left} → {right}"
        if node.op == "∈":  # src/Init/Notation.lean: `notation:50 a:50 " ∈ " b:50 => Membership.mem b a`
            return f"Membership.mem {right} {left}"
        if node.op == "∉":  # src/Init/Notation.lean: `notation:50 a:50 " ∉ " b:50 => ¬ (a ∈ b)`
            return f"Not (Membership.mem {right} {left})"
        raise Untranslatable(f"the operator `{node.op}`")

    def _exponent(self, node: tm.Node) -> str:
        """The exponent of ``^``, elaborated on its own by ``rightact%``: a bare numeral there has type ``?β`` until
        default instances run, and Mathlib's ``@[default_instance high] instance Monoid.Pow : Pow M ℕ``
        (Mathlib/Algebra/Group/Defs.lean; the environment's ``Monoid.Pow``, PyshadowEnv/Algebra.lean) makes it ℕ
        whatever the base. Printed ``(2 : Nat)``, which is that term, so Lean need not search the default instances
        (their search is exponential in the numerals one term holds). A base with no ``Monoid`` fails to elaborate
        either way."""
        if isinstance(node, tm.Name) and node.text.isdigit():
            return f"({node.text} : Nat)"
        return self.arg(node)

    def _dvd(self, left: tm.Node, right: tm.Node) -> str:
        """``a ∣ b`` is the plain application ``Dvd.dvd a b`` (src/Init/Prelude.lean ``infix:50 " ∣ " => Dvd.dvd``,
        ``Dvd.dvd {α} [Dvd α] : α → α → Prop``): the application elaborator gives ``a`` the expected type ``?α``,
        so ``↑e`` there postpones (``elabCoe``'s ``tryPostponeIfNoneOrMVar``) until ``b`` has fixed ``?α``, then
        coerces ``e`` — elaborated alone — to ``b``'s type: printed ``((e :) : type_of% b)`` (src/Lean/Parser/Term.lean
        ``type_of%``), only when ``e`` and ``b`` each fix their own type. ``↑e`` as ``b`` meets a known ``?α``."""
        if isinstance(left, tm.Prefix) and left.op == "↑":
            if isinstance(right, tm.Prefix) and right.op == "↑" or not _fixes_own_type(right, self._typed):
                raise Untranslatable("`↑` as the left side of `∣` whose right side does not fix its type")
            coerced, other = self._coe(left.arg), self.arg(right)  # `(e :)`, or a numeral `?α` types as it is
            if coerced.startswith("("):
                coerced = f"({coerced} : type_of% {other})"
            return f"Dvd.dvd {coerced} {other}"
        return f"Dvd.dvd {self.arg(left)} {self.leaf(right) if _fixes_own_type(left, self._typed) else self.arg(right)}"

    def _prefix(self, node: tm.Prefix) -> str:
        if node.op == "↑":
            raise Untranslatable("`↑` outside an operator tree or an ascription")
        if node.op == "-":
            return f"{PREFIX[node.op]} {self.leaf(node.arg)}"
        if node.op in PREFIX:
            return f"{PREFIX[node.op]} {self.arg(node.arg)}"
        raise Untranslatable(f"the prefix `{node.op}`")

    def _postfix(self, node: tm.Postfix) -> str:
        # Mathlib/Data/Nat/Factorial/Basic.lean: `scoped notation:10000 n "!" => Nat.factorial n` (namespace Nat)
        if node.op == "!" and "Nat" in self.scope.opens:
            return f"Nat.factorial {self.arg(node.arg)}"
        if node.op in POSTFIX:
            return f"{POSTFIX[node.op]} {self.arg(node.arg)}"
        raise Untranslatable(f"the postfix `{node.op}`")

    def _coe(self, operand: tm.Node) -> str:
        """``↑e``: src/Init/Coe.lean `syntax:1024 (name := coeNotation) "↑" term:1024`, elaborated by `elabCoe`
        (src/Lean/Elab/BuiltinNotation.lean): `e` without expected type, then `ensureHasType` — which inserts the
        coercion. Printed as the builtin `(e :)` (`elabTypeAscription`: `e` without expected type, synthesized, then
        `ensureHasType`), only as an operand of an operator tree whose `applyCoe` gives it the tree's type, under
        an ascription, or as an argument of a variable with a written type (its parameter type is known). The two differ only where synthesizing `e` alone fixes its type by a default instance
        (`↑2`: Lean unifies `2`'s type with the expected one, `(2 :)` makes it `ℕ`), so only an operand whose type
        its own variables and constants fix is printed. A numeral is the exception: `elabCoe` elaborates `2` with no
        expected type to `OfNat ?α 2` and `ensureHasType` unifies `?α` with the type the place gives it, so `↑2` is
        that type's `2` — the numeral printed alone, which the place elaborates the same way."""
        if isinstance(operand, tm.Name) and operand.text.isdigit():
            return operand.text
        if not _fixes_own_type(operand, self._typed):
            raise Untranslatable("`↑` of a term whose type a default instance or a later part would fix")
        return f"({self.term(operand)} :)"

    def _enclosed(self, node: tm.Enclosed) -> str:
        if node.open == "answer(":
            # FormalConjectures/Util/Answer.lean `answerElab`: `answer(e)` is `e` elaborated at the place's expected
            # type, under an `mdata` annotation the kernel ignores. `answer(sorry)` where a `Prop` is expected
            # elaborates to `True`, but it stands for an answer not yet given — a statement apart from one that
            # gives `True` — so it is not printed (the pair stays with the kernel tier's reading).
            if isinstance(node.inner, tm.Name) and node.inner.text == "sorry":
                raise Untranslatable("`answer(sorry)`: an answer not yet given")
            return f"({self.term(node.inner)})"
        head = ENCLOSED.get((node.open, node.close))
        if head is None:
            raise Untranslatable(f"`{node.open}…{node.close}`")
        return f"{head} {self.arg(node.inner)}"

    def _ascription(self, node: tm.Ascription) -> str:
        if node.expr == tm.Name("(↑)"):
            # Mathlib/Tactic/Coe.lean: `(↑)` at a non-dependent function type `A → B` is `fun x => ↑x` with the
            # coercion `mkCoe` inserts (η-reduced, which the kernel does not tell apart); `(x :)` at the expected `B`
            # inserts it the same way (`elabTypeAscription`, then `ensureHasType`). Only under an arrow ascription:
            # elsewhere the expected type may be unknown when Lean elaborates it
            if not (isinstance(node.type, tm.Binary) and node.type.op == "→"):
                raise Untranslatable("`(↑)` without a function type")
            return f"(fun x => (x :) : {self.term(node.type)})"
        return f"({self.leaf(node.expr)} : {self.term(node.type)})"

    def _anonymous(self, node: tm.Anonymous) -> str:
        return "⟨" + ", ".join(self.term(i) for i in node.items) + "⟩"

    def _collection(self, node: tm.Collection) -> str:
        if node.open == "{" and node.items:
            # src/Init/Core.lean (`{a, b, c}` syntax): `insert a (insert b (singleton c))`
            text = f"Singleton.singleton {self.arg(node.items[-1])}"
            for item in reversed(node.items[:-1]):
                text = f"Insert.insert {self.arg(item)} ({text})"
            return text
        if node.open == "(" and len(node.items) >= 2:
            # src/Init/Core.lean (the anonymous constructor notation for tuples): `(a, b)` is `Prod.mk a b`, and
            # `(a, b, c)` is `(a, (b, c))`
            text = self.arg(node.items[-1])
            for item in reversed(node.items[:-1]):
                text = f"Prod.mk {self.arg(item)} {text if _is_atomic(text) else f'({text})'}"
            return text
        if node.open == "(·" and len(node.items) == 1:
            # src/Lean/Elab/BuiltinNotation.lean (`expandCDot?`): `(· + 1)` is `fun x => x + 1`, one binder per `·`
            outer, self.cdot = self.cdot, True
            try:
                return f"({self.term(node.items[0])})"
            finally:
                self.cdot = outer
        if node.open == "[":  # src/Init/Prelude.lean (`[a, b]` syntax): `List.cons a (List.cons b List.nil)`
            text = "List.nil"
            for item in reversed(node.items):
                text = f"List.cons {self.arg(item)} {text if text == 'List.nil' else f'({text})'}"
            return text
        raise Untranslatable(f"the collection `{node.open}…`")

    def _projection(self, node: tm.Projection) -> str:
        return f"{self.arg(node.expr)}.{node.field}"

    def _binder(self, b: tm.Binder) -> str:
        if b.bound is not None or b.bracket not in ("", "{"):
            raise Untranslatable("a bounded or bracketed binder here")
        name = b.name
        if b.type is None:
            return name if b.bracket == "" else f"{{{name}}}"
        inner = f"{name} : {self.term(b.type)}"
        return f"({inner})" if b.bracket == "" else f"{{{inner}}}"

    def _under(self, b: tm.Binder, body: tm.Node) -> str:
        """``body`` printed with ``b`` in scope."""
        self.bound.append((b.name, b.type is not None))
        try:
            return self.term(body)
        finally:
            self.bound.pop()

    def _typed(self, name: str) -> bool:
        """Whether ``name`` is a variable with a written type, or a qualified constant (``Real.pi``)."""
        head = name.split(".")[0]
        for bound, typed in reversed(self.bound):
            if bound == head:
                return typed
        return head in self.scope.typed or ("." in name and not head[:1].islower())

    def _lambda(self, node: tm.Lambda) -> str:
        return f"fun {self._binder(node.binder)} => {self._under(node.binder, node.body)}"

    def _quantifier(self, node: tm.Quantifier) -> str:
        binder, body = self._binder(node.binder), self._under(node.binder, node.body)
        if node.kind == "∀":
            return f"∀ {binder}, {body}"
        if node.kind == "∃":  # src/Init/Core.lean (`∃ x, p` ↦ `Exists fun x => p`)
            return f"Exists fun {binder} => {body}"
        if node.kind == "∃!":  # Mathlib/Logic/ExistsUnique.lean: `∃! x, p` is `ExistsUnique fun x => p`
            return f"ExistsUnique fun {binder} => {body}"
        raise Untranslatable(f"the quantifier `{node.kind}`")

    def _bigoperator(self, node: tm.BigOperator) -> str:
        if node.op in SET_OPERATORS:
            return self._set_operator(node)
        if node.op in INFINITE_OPERATORS and not node.binder.bracket and node.binder.bound is None \
                and node.filter is None:
            binder = tm.Binder(node.binder.name, node.binder.type)
            return (f"{INFINITE_OPERATORS[node.op]} (fun {self._binder(binder)} => {self._under(binder, node.body)}) "
                    "(SummationFilter.unconditional _)")
        head = BIG_OPERATORS.get(node.op)
        b = node.binder
        if head is None or b.bracket:
            raise Untranslatable(f"the big operator `{node.op}`")
        binder = tm.Binder(b.name, b.type)
        if b.bound is None:
            domain = "Finset.univ"
        elif b.bound[0] == "∈":
            domain = self.arg(b.bound[1])
        else:
            raise Untranslatable(f"`{node.op}` over `{b.bound[0]}`")
        if b.type is None and b.bound is not None and _fixes_own_type(b.bound[1], self._typed):
            # `Finset.sum s fun x => …`: `s` is elaborated first and its own variables fix its type, so `x` has
            # that element type before the body is elaborated — as if it were written
            binder = tm.Binder(b.name, None)
            body_binder = tm.Binder(b.name, tm.Name("_"))
        else:
            body_binder = binder
        if node.filter is not None:
            domain = f"(Finset.filter (fun {self._binder(binder)} => {self._under(body_binder, node.filter)}) {domain})"
        return f"{head} {domain} fun {self._binder(binder)} => {self._under(body_binder, node.body)}"

    def _set_operator(self, node: tm.BigOperator) -> str:
        head, b = SET_OPERATORS[node.op], node.binder
        if b.bracket or node.filter is not None or (b.bound is not None and b.bound[0] != "∈"):
            raise Untranslatable(f"the big operator `{node.op}` over this binder")
        binder = tm.Binder(b.name, b.type)
        if b.bound is None:
            return f"{head} fun {self._binder(binder)} => {self._under(binder, node.body)}"
        bounded = tm.Binary("∈", tm.Name(b.name), b.bound[1])
        inner = f"{head} fun (_ : {self._under(binder, bounded)}) => {self._under(binder, node.body)}"
        return f"{head} fun {self._binder(binder)} => {inner}"

    def _setbuilder(self, node: tm.SetBuilder) -> str:
        # Mathlib/Data/Set/Defs.lean: `{x | p x}` is `setOf fun x => p x`; `{x ∈ s | p}` is ambiguous between
        # `Set` (`{x | x ∈ s ∧ p}`) and `Finset.filter` (Mathlib's `elabFinsetBuilderSep`): not printed.
        if node.binder.bound is not None:
            raise Untranslatable("a bounded set-builder")
        return f"setOf fun {self._binder(node.binder)} => {self._under(node.binder, node.body)}"

    def _modeq(self, node: tm.ModEq) -> str:
        head = MODEQ.get(node.kind)
        if head is None:
            raise Untranslatable(f"`[{node.kind} …]`")
        return f"{head} {self.arg(node.modulus)} {self.arg(node.left)} {self.arg(node.right)}"


def _fixes_own_type(node: tm.Node, typed) -> bool:
    """Whether elaborating ``node`` alone gives it a type, with no default instance and no metavariable a later
    part of the statement would fix (`↑n` with `n` bound by `fun n =>` waits for `n`'s type; `(n :)` would not):
    a variable with a written type or a qualified constant, a projection or application of one, or an operator
    tree with such a leaf."""
    if isinstance(node, tm.Name):
        return typed(node.text)
    if isinstance(node, tm.Ascription):
        return True
    if isinstance(node, tm.Projection):
        return _fixes_own_type(node.expr, typed)
    if isinstance(node, tm.App):
        fn = node.fn  # a variable's (not a constant's) result type is fixed by the variable's
        return (any(_fixes_own_type(a, typed) for a in node.args)
                or (isinstance(fn, tm.Name) and "." not in fn.text and typed(fn.text))
                or (not isinstance(fn, tm.Name) and _fixes_own_type(fn, typed)))
    if isinstance(node, tm.Binary) and node.op in ("+", "-", "*", "/", "%"):
        return _fixes_own_type(node.left, typed) or _fixes_own_type(node.right, typed)
    if isinstance(node, tm.Postfix) and node.op == "!":
        return True
    if isinstance(node, tm.Prefix) and node.op == "-":
        return _fixes_own_type(node.arg, typed)
    if isinstance(node, tm.Enclosed):
        return _fixes_own_type(node.inner, typed)
    return False


def _is_atomic(text: str) -> bool:
    """A printed term that needs no parentheses as an argument: one identifier or literal, or bracketed whole."""
    if not text:
        return False
    if text[0] + text[-1] in ("()", "⟨⟩") and balanced(text[1:-1]):
        return True
    return all(not c.isspace() for c in text)
