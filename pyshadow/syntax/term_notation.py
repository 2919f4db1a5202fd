"""Lean's notation table for the term reader: precedences, operators, spellings and reserved tokens.

Both the reader (``pyshadow.syntax.term_reader``) and the printer (``pyshadow.syntax.term_printer``) take every
binding power from here, so a tree prints back to the text it was read from.

Precedences (a Pratt parser's binding powers) are Lean's, each from the declaration that makes it so:

- Lean core ``src/Init/Notation.lean`` (leanprover/lean4 @ 00298d03): ``infixr:90 " ∘ "``, ``infixr:35 " × "``,
  ``infix:50 " ∣ "``, ``infixl:65 " + "``/``" - "``/``" ++ "``, ``infixl:70 " * "``/``" / "``/``" % "``,
  ``infixr:80 " ^ "``, ``prefix:75 "-"``, ``postfix:max "⁻¹"``, ``infixr:73 " • "``, ``infix:50`` for
  ``≤ < ≥ > = == <= >=``, ``infixr:35 " ∧ "``/``/\\``, ``infixr:30 " ∨ "``/``\\/``, ``notation:max "¬" p:40``,
  ``infixl:35 " && "``, ``infixl:30 " || "``, ``notation:50 a:50 " ∈ " b:50``, ``notation:50 a:50 " ∉ " b:50``,
  ``infixr:67 " :: "``, ``syntax:min term " <| " term:min``, ``syntax:min term " |> " term:min1``;
  ``if … then … else`` (``termIfThenElse``, else-branch a full term), ``fun`` (maxPrec leading, body a full term).
- Lean core ``src/Init/Core.lean``: ``infix:50 " ≠ " => Ne``, ``infix:20 " ↔ "``/``" <-> "`` (Iff),
  ``infix:50 " ⊆ "``/``" ⊂ "``/``" ⊇ "``/``" ⊃ "``, ``infixl:65 " ∪ "``, ``infixl:70 " ∩ "``, ``infix:70 " \\ "``
  (sdiff), ``infix:50 " ≈ "``; ``→`` is the built-in arrow, ``term:25 → term:25`` right-associative
  (``src/Lean/Parser/Term.lean``: ``trailing_parser:25 unicodeSymbol " → " " -> " >> termParser 25``).
- Lean core ``src/Init/Coe.lean``: ``syntax:1024 (name := coeNotation) "↑" term:1024``.
- Lean core ``src/Lean/Parser/Term.lean``: application is ``trailing_parser:leadPrec:maxPrec many1 argArg`` (the
  function at maxPrec, each argument at maxPrec); ``∀``/``∃``/``fun`` bodies are full terms; type ascription
  ``(e : T)`` and anonymous constructors ``⟨a, b⟩`` are bracketed.
- Mathlib ``Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean``:
  ``syntax (name := bigsum) "∑ " bigOpBinders ("with " term)? ", " term:67 : term`` (and ``∏``), and the deprecated
  ``syntax (name := bigsumin) "∑ " extBinder " in " term ", " term:67`` which elaborates as ``∑ x ∈ s, r`` — so a
  big operator's body is read at precedence 67: ``∏ k ∈ s, 2^k + 3^k`` is ``(∏ k ∈ s, 2^k) + 3^k``.
- Mathlib ``Mathlib/Topology/Algebra/InfiniteSum/Defs.lean``: ``notation3 "∑' "(...)", "r:67:(scoped f => tsum f)``
  (and ``∏'``).
- Mathlib ``Mathlib/Order/SetNotation.lean``: ``notation3 "⋃ "(...)", "r:60:(scoped f => iUnion f)``, ``⋂`` alike;
  ``Mathlib/Order/CompleteLattice/Defs.lean`` (``Mathlib/Order/Notation.lean``): ``⨆``/``⨅`` bodies at 60.
- Mathlib ``Mathlib/Data/Nat/Factorial/Basic.lean``: ``scoped notation:10000 n "!" => Nat.factorial n``.
- Mathlib ``Mathlib/Algebra/Order/Group/Unbundled/Abs.lean``: ``macro:max atomic("|" noWs) a:term noWs "|" : term``
  (``abs``); ``Mathlib/Analysis/Normed/Group/Basic.lean``: ``‖e‖`` (``norm``); ``Mathlib/Order/Floor/Defs.lean``:
  ``⌊a⌋``, ``⌈a⌉``, ``⌊a⌋₊``, ``⌈a⌉₊`` (all closed, max precedence).
- Mathlib ``Mathlib/Data/Real/Sqrt.lean``: ``prefix:max "√" => Real.sqrt`` (its docstring: ``√x⁻¹`` is
  ``√(x⁻¹)``).
- Mathlib ``Mathlib/Data/Set/Defs.lean``: ``infixl:80 " ⁻¹' " => preimage``, ``infixl:80 " '' " => image``,
  set-builder ``{x | p x}`` / ``{x : α | p x}`` / ``{x ∈ s | p x}`` (``binderPred``).
- Mathlib ``Mathlib/Order/Notation.lean``: ``postfix:1024 "ᶜ" => compl``, ``infixl:100 " ∆ "``;
  ``infixl:68 " ⊔ "``, ``infixl:69 " ⊓ "``, ``notation "⊤"``/``"⊥"``; ``Mathlib/Data/SProd.lean``:
  ``infixr:82 " ×ˢ "``; ``Mathlib/Logic/Equiv/Defs.lean``: ``infixl:25 " ≃ "``;
  ``Mathlib/Algebra/Group/Equiv/Defs.lean``: ``infixl:25 " ≃* "``/``" ≃+ "``; ``Mathlib/Algebra/Quotient.lean``:
  ``infixl:35 " ⧸ "``; ``Mathlib/Algebra/Group/Units/Defs.lean``: ``postfix:1024 "ˣ" => Units``.
- Mathlib ``Mathlib/Data/Int/ModEq.lean``: ``notation:50 a " ≡ " b " [ZMOD " n "]"``,
  ``Mathlib/Data/Nat/ModEq.lean`` ``[MOD n]`` — read as one ternary relation.

"""

from __future__ import annotations

MAX_PREC = 1024  # maxPrec (src/Init/Prelude.lean: `macro "max" : prec => `(prec| 1024)`)
ARG_PREC = 1023  # argPrec
LEAD_PREC = 1022  # leadPrec
MIN_PREC = 10  # minPrec

# Each entry: (precedence, least precedence of the left operand, precedence the right operand is read at).
# infixl:p is `syntax:p term:p op term:(p+1)`, infixr:p is `term:(p+1) op term:p`, infix:p is `term:(p+1) op
# term:(p+1)` (Lean's `Lean.Elab.Command.expandMixfix`).
INFIX: dict[str, tuple[int, int, int]] = {}


def _infixl(p: int, *ops: str) -> None:
    for op in ops:
        INFIX[op] = (p, p, p + 1)


def _infixr(p: int, *ops: str) -> None:
    for op in ops:
        INFIX[op] = (p, p + 1, p)


def _infix(p: int, *ops: str) -> None:
    for op in ops:
        INFIX[op] = (p, p + 1, p + 1)


_infixr(90, "∘")
_infixr(35, "×", "∧", "/\\")
_infixr(30, "∨", "\\/", "⊕")
_infix(50, "∣", "≤", "<", "≥", ">", "=", "==", "<=", ">=", "≠", "!=", "⊆", "⊂", "⊇", "⊃", "≈", "∈", "∉")
_infixl(65, "+", "-", "++", "∪")
_infixl(70, "*", "/", "%", "∩", "\\")
_infixr(80, "^")
_infixr(73, "•")
_infixl(35, "&&")
_infixl(30, "||")
_infixr(67, "::")
_infix(20, "↔", "<->")
_infixr(25, "→", "->")
_infixl(80, "⁻¹'", "''")
_infixr(82, "×ˢ")
_infixl(100, "∆")
_infixl(25, "≃", "≃*", "≃+", "≃+*")
_infixl(35, "⧸")
_infixl(69, "⊓")
_infixl(68, "⊔")
# `f <| x` (syntax:min term " <| " term:min) and `x |> f` (syntax:min term " |> " term:min1): both are application.
INFIX["<|"] = (MIN_PREC, 0, MIN_PREC)
INFIX["$"] = (MIN_PREC, 0, MIN_PREC)
INFIX["|>"] = (MIN_PREC, 0, MIN_PREC + 1)

# (precedence of the notation, precedence its argument is read at)
PREFIX: dict[str, tuple[int, int]] = {
    "-": (75, 75), "¬": (MAX_PREC, 40), "↑": (MAX_PREC, MAX_PREC), "⇑": (MAX_PREC, MAX_PREC),
    "↥": (MAX_PREC, MAX_PREC), "√": (MAX_PREC, MAX_PREC), "!": (MAX_PREC, 40), "~~~": (100, 100),
}
POSTFIX = {"⁻¹": MAX_PREC, "ᶜ": MAX_PREC, "ˣ": MAX_PREC, "!": 10000}
# Constants written as symbols: `∅` (Init/Core.lean `notation "∅" => EmptyCollection.emptyCollection`), `⊤`/`⊥`
# (Mathlib/Order/Notation.lean `notation "⊤" => Top.top`, `notation "⊥" => Bot.bot`), `∠`
# (Mathlib/Geometry/Euclidean/Angle/Unoriented/Affine.lean `scoped notation "∠" => EuclideanGeometry.angle`).
SYMBOL_CONSTANTS = frozenset({"∅", "⊤", "⊥", "∠"})

ENCLOSED = {"‖": "‖", "⌊": ("⌋", "⌋₊"), "⌈": ("⌉", "⌉₊")}

# Big operators and their body precedence.
BIG_OPERATORS = {"∑": 67, "∏": 67, "∑'": 67, "∏'": 67, "⋃": 60, "⋂": 60, "⨆": 60, "⨅": 60}

# One spelling per token (ASCII and Unicode alternatives of the same syntax, each pair from the declarations above).
SPELLING = {"->": "→", "<->": "↔", "/\\": "∧", "\\/": "∨", "<=": "≤", ">=": "≥", "!=": "≠", "λ": "fun", "↦": "=>",
            "$": "<|"}

MODEQ_OPENERS = frozenset({"[ZMOD", "[MOD", "[PMOD", "[SMOD"})
KEYWORDS = frozenset({"fun", "forall", "exists", "if", "then", "else", "let", "have", "show", "from", "by", "match",
                      "with", "do", "at", "in", "calc", "where", "suffices", "open", "Type", "Sort", "Prop"})
CLOSERS = MODEQ_OPENERS | frozenset({")", "]", "}", "⟩", ",", "|", "‖", "⌋", "⌉", "⌋₊", "⌉₊", ":", ":=", "=>", "↦", "then", "else",
                      "with", "in"})
