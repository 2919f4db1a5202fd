prelude
import PyshadowEnv.Functions
/-! # pyshadow's signature environment: the lemma table

Real Mathlib (and Lean core) iff/eq lemmas that restate one statement's content in another API, each an `axiom`
named as in Mathlib, with Mathlib's statement in the comment above it (then its file) and the same binders —
implicit, explicit and instance — except where the environment's stand-in for a class has fewer parameters (the
note says which). The statement is written in the builtin syntax a statement is printed in
(`pyshadow.elab.translate`: `binrel%`, `binop%`), so Lean elaborates both to the same terms. The kernel tier proves
an atom pair equal by one of them (`pyshadow.elab.atom_lemmas`); the full tier, with real Mathlib, finds the same
names as theorems. `pyshadow.elab.lemmas.lemma_table()` reads this file back: it is the one place the table lives.

The logic a congruence step needs beyond `PyshadowEnv.Proofs` (which has `Eq.symm`) comes first: `propext` and
`funext` are axioms (as `propext` is in Lean; `funext` is a theorem of Lean's, from `Quot.sound`, restated so
here), while `congrArg`, `Eq.mp`, `Eq.mpr`, `Iff.symm` and `rfl` are proved.
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u v
noncomputable section

-- src/Init/Prelude.lean
@[reducible] def rfl {α : Sort u} {a : α} : Eq a a := Eq.refl
-- src/Init/Prelude.lean
theorem congrArg {α : Sort u} {β : Sort v} {a₁ a₂ : α} (f : α → β) (h : Eq a₁ a₂) : Eq (f a₁) (f a₂) :=
  Eq.rec (motive := fun x _ => Eq (f a₁) (f x)) Eq.refl h
-- src/Init/Prelude.lean
def Eq.mp {α β : Sort u} (h : Eq α β) (a : α) : β := Eq.rec (motive := fun x _ => x) a h
-- src/Init/Prelude.lean
def Eq.mpr {α β : Sort u} (h : Eq α β) (b : β) : α := Eq.mp (Eq.symm h) b
-- src/Init/Core.lean
theorem Iff.symm {a b : Prop} (h : Iff a b) : Iff b a := Iff.intro h.mpr h.mp
-- src/Init/Core.lean
axiom propext {a b : Prop} : Iff a b → Eq a b
-- src/Init/Core.lean (a theorem there, proved from `Quot.sound`)
axiom funext {α : Sort u} {β : α → Sort v} {f g : (x : α) → β x} (h : ∀ x, Eq (f x) (g x)) : Eq f g

-- src/Init/Prelude.lean (`theorem Eq.trans {α : Sort u} {a b c : α} (h₁ : Eq a b) (h₂ : Eq b c) : Eq a c`)
theorem Eq.trans {α : Sort u} {a b c : α} (h₁ : Eq a b) (h₂ : Eq b c) : Eq a c :=
  Eq.rec (motive := fun x _ => Eq a x) h₁ h₂

-- Mathlib/Data/Set/Defs.lean: `theorem ext {a b : Set α} (h : ∀ (x : α), x ∈ a ↔ x ∈ b) : a = b` (in
-- `namespace Set`; proved there from `funext` and `propext`). A set a hypothesis defines by membership
-- (`∀ n, n ∈ S ↔ P n`) is the set-builder set by it (`pyshadow.kernel.reading_check`).
axiom Set.ext {α : Type u} {a b : Set α} (h : ∀ (x : α), Iff (Membership.mem a x) (Membership.mem b x)) : Eq a b

-- Order and grouping of sums and products (`pyshadow.elab.ac` chains them). Mathlib states `mul_comm` over
-- `CommMagma` and `mul_left_comm` over `CommSemigroup`; the environment's classes carry no laws and have no
-- `CommMagma`, so `CommSemigroup` (which extends it in Mathlib) stands for it: an instance exists for the same types.
-- Mathlib/Algebra/Group/Defs.lean: `theorem mul_assoc : ∀ a b c : G, a * b * c = a * (b * c)` ([Semigroup G];
-- `add_assoc` by `to_additive`, [AddSemigroup G])
axiom mul_assoc {G : Type u} [Semigroup G] (a b c : G) :
  binrel% Eq (binop% HMul.hMul (binop% HMul.hMul a b) c) (binop% HMul.hMul a (binop% HMul.hMul b c))
axiom add_assoc {G : Type u} [AddSemigroup G] (a b c : G) :
  binrel% Eq (binop% HAdd.hAdd (binop% HAdd.hAdd a b) c) (binop% HAdd.hAdd a (binop% HAdd.hAdd b c))
-- Mathlib/Algebra/Group/Defs.lean: `theorem mul_comm : ∀ a b : G, a * b = b * a` ([CommMagma G]; `add_comm`)
axiom mul_comm {G : Type u} [CommSemigroup G] (a b : G) : binrel% Eq (binop% HMul.hMul a b) (binop% HMul.hMul b a)
axiom add_comm {G : Type u} [AddCommSemigroup G] (a b : G) : binrel% Eq (binop% HAdd.hAdd a b) (binop% HAdd.hAdd b a)
-- Mathlib/Algebra/Group/Basic.lean: `theorem mul_left_comm (a b c : G) : a * (b * c) = b * (a * c)`
-- ([CommSemigroup G]; `add_left_comm`)
axiom mul_left_comm {G : Type u} [CommSemigroup G] (a b c : G) :
  binrel% Eq (binop% HMul.hMul a (binop% HMul.hMul b c)) (binop% HMul.hMul b (binop% HMul.hMul a c))
axiom add_left_comm {G : Type u} [AddCommSemigroup G] (a b c : G) :
  binrel% Eq (binop% HAdd.hAdd a (binop% HAdd.hAdd b c)) (binop% HAdd.hAdd b (binop% HAdd.hAdd a c))

/-! ## The table -/

-- theorem even_iff : Even n ↔ n % 2 = 0  (variable {m n : ℕ})
-- Mathlib/Algebra/Group/Nat/Even.lean
axiom Nat.even_iff {n : Nat} : Iff (Even n) (binrel% Eq (binop% HMod.hMod n 2) 0)
-- theorem odd_iff : Odd n ↔ n % 2 = 1  (variable {m n : ℕ})
-- Mathlib/Algebra/Ring/Parity.lean
axiom Nat.odd_iff {n : Nat} : Iff (Odd n) (binrel% Eq (binop% HMod.hMod n 2) 1)
-- theorem not_even_iff : ¬Even n ↔ n % 2 = 1  (variable {m n : ℕ})
-- Mathlib/Algebra/Group/Nat/Even.lean
axiom Nat.not_even_iff {n : Nat} : Iff (Not (Even n)) (binrel% Eq (binop% HMod.hMod n 2) 1)
-- theorem even_iff : Even n ↔ n % 2 = 0  (variable {m n : ℤ})
-- Mathlib/Algebra/Group/Int/Even.lean
axiom Int.even_iff {n : Int} : Iff (Even n) (binrel% Eq (binop% HMod.hMod n 2) 0)
-- theorem odd_iff : Odd n ↔ n % 2 = 1  (variable {m n : ℤ})
-- Mathlib/Algebra/Ring/Int/Parity.lean
axiom Int.odd_iff {n : Int} : Iff (Odd n) (binrel% Eq (binop% HMod.hMod n 2) 1)
-- theorem coprime_iff_gcd_eq_one : Coprime m n ↔ gcd m n = 1  (auto-bound {m n : Nat}; `.rfl` there and here)
-- src/Init/Data/Nat/Coprime.lean
axiom Nat.coprime_iff_gcd_eq_one {m n : Nat} : Iff (Nat.Coprime m n) (binrel% Eq (Nat.gcd m n) 1)
-- theorem modEq_zero_iff_dvd : a ≡ 0 [MOD n] ↔ n ∣ a  (variable {m n a b c d : ℕ})
-- Mathlib/Data/Nat/ModEq.lean
axiom Nat.modEq_zero_iff_dvd {n a : Nat} : Iff (Nat.ModEq n a 0) (Dvd.dvd n a)
-- theorem modEq_zero_iff_dvd : a ≡ 0 [ZMOD n] ↔ n ∣ a  (variable {m n a b c d : ℤ})
-- Mathlib/Data/Int/ModEq.lean
axiom Int.modEq_zero_iff_dvd {n a : Int} : Iff (Int.ModEq n a 0) (Dvd.dvd n a)
-- theorem dvd_iff_mod_eq_zero (m n : Nat) : m ∣ n ↔ n % m = 0  (as in the revision read, 1393e8e)
-- src/Init/Data/Nat/Dvd.lean
axiom Nat.dvd_iff_mod_eq_zero (m n : Nat) : Iff (Dvd.dvd m n) (binrel% Eq (binop% HMod.hMod n m) 0)
-- theorem dvd_iff_emod_eq_zero {a b : Int} : a ∣ b ↔ b % a = 0  (read in an earlier revision of the file,
-- src/Init/Data/Int/DivModLemmas.lean, since moved to) src/Init/Data/Int/DivMod/Lemmas.lean
axiom Int.dvd_iff_emod_eq_zero {a b : Int} : Iff (Dvd.dvd a b) (binrel% Eq (binop% HMod.hMod b a) 0)

-- theorem mem_range : m ∈ range n ↔ m < n  (variable {n m l : ℕ})
-- Mathlib/Data/Finset/Range.lean
axiom Finset.mem_range {n m : Nat} : Iff (Membership.mem (Finset.range n) m) (binrel% LT.lt m n)
-- theorem mem_Icc : x ∈ Icc a b ↔ a ≤ x ∧ x ≤ b  (variable [Preorder α] [LocallyFiniteOrder α] {a b x : α};
-- here `[LE α]`/`[LT α]` stand for `[Preorder α]`, as in the environment's `Finset.Icc`)
-- Mathlib/Order/Interval/Finset/Defs.lean
axiom Finset.mem_Icc {α : Type u} [LE α] [LocallyFiniteOrder α] {a b x : α} :
  Iff (Membership.mem (Finset.Icc a b) x) (And (binrel% LE.le a x) (binrel% LE.le x b))
-- theorem mem_Ico : x ∈ Ico a b ↔ a ≤ x ∧ x < b
-- Mathlib/Order/Interval/Finset/Defs.lean
axiom Finset.mem_Ico {α : Type u} [LE α] [LT α] [LocallyFiniteOrder α] {a b x : α} :
  Iff (Membership.mem (Finset.Ico a b) x) (And (binrel% LE.le a x) (binrel% LT.lt x b))
-- theorem mem_Ioc : x ∈ Ioc a b ↔ a < x ∧ x ≤ b
-- Mathlib/Order/Interval/Finset/Defs.lean
axiom Finset.mem_Ioc {α : Type u} [LE α] [LT α] [LocallyFiniteOrder α] {a b x : α} :
  Iff (Membership.mem (Finset.Ioc a b) x) (And (binrel% LT.lt a x) (binrel% LE.le x b))
-- theorem mem_Ioo : x ∈ Ioo a b ↔ a < x ∧ x < b
-- Mathlib/Order/Interval/Finset/Defs.lean
axiom Finset.mem_Ioo {α : Type u} [LE α] [LT α] [LocallyFiniteOrder α] {a b x : α} :
  Iff (Membership.mem (Finset.Ioo a b) x) (And (binrel% LT.lt a x) (binrel% LT.lt x b))
-- theorem mem_filter {s : Finset α} {a : α} : a ∈ s.filter p ↔ a ∈ s ∧ p a  (variable {α : Type*}
-- (p q : α → Prop) [DecidablePred p], then `variable {p}`; the environment's `Finset.filter` takes no
-- `DecidablePred`)
-- Mathlib/Data/Finset/Filter.lean
axiom Finset.mem_filter {α : Type u} {p : α → Prop} {s : Finset α} {a : α} :
  Iff (Membership.mem (Finset.filter p s) a) (And (Membership.mem s a) (p a))

-- theorem finite_coe_iff {s : Set α} : Finite s ↔ s.Finite  (variable {α : Type u})
-- Mathlib/Data/Finite/Defs.lean
axiom Set.finite_coe_iff {α : Type u} {s : Set α} : Iff (_root_.Finite (Set.Elem s)) (Set.Finite s)
-- theorem infinite_coe_iff {s : Set α} : Infinite s ↔ s.Infinite
-- Mathlib/Data/Finite/Defs.lean
axiom Set.infinite_coe_iff {α : Type u} {s : Set α} : Iff (_root_.Infinite (Set.Elem s)) (Set.Infinite s)
-- theorem nonempty_iff_ne_empty : s.Nonempty ↔ s ≠ ∅  (variable {α : Type u} … {s … : Set α})
-- Mathlib/Data/Set/Basic.lean
axiom Set.nonempty_iff_ne_empty {α : Type u} {s : Set α} :
  Iff (Set.Nonempty s) (binrel% Ne s (EmptyCollection.emptyCollection))
-- theorem not_nonempty_iff_eq_empty : ¬s.Nonempty ↔ s = ∅
-- Mathlib/Data/Set/Basic.lean
axiom Set.not_nonempty_iff_eq_empty {α : Type u} {s : Set α} :
  Iff (Not (Set.Nonempty s)) (binrel% Eq s (EmptyCollection.emptyCollection))
-- theorem ncard_coe_finset (s : Finset α) : (s : Set α).ncard = s.card  (variable {α β : Type*})
-- Mathlib/Data/Set/Card.lean
axiom Set.ncard_coe_finset {α : Type u} (s : Finset α) : binrel% Eq (Set.ncard (s : Set α)) (Finset.card s)

-- theorem sqrt_eq_rpow (x : ℝ) : √x = x ^ (1 / (2 : ℝ))
-- Mathlib/Analysis/SpecialFunctions/Pow/Real.lean
axiom Real.sqrt_eq_rpow (x : Real) : binrel% Eq (Real.sqrt x) (rightact% HPow.hPow x (binop% HDiv.hDiv 1 (2 : Real)))
-- theorem rpow_natCast (x : ℝ) (n : ℕ) : x ^ (n : ℝ) = x ^ n
-- Mathlib/Analysis/SpecialFunctions/Pow/Real.lean
axiom Real.rpow_natCast (x : Real) (n : Nat) :
  binrel% Eq (rightact% HPow.hPow x (n : Real)) (rightact% HPow.hPow x n)
-- theorem rpow_two (x : ℝ) : x ^ (2 : ℝ) = x ^ 2
-- Mathlib/Analysis/SpecialFunctions/Pow/Real.lean
axiom Real.rpow_two (x : Real) : binrel% Eq (rightact% HPow.hPow x (2 : Real)) (rightact% HPow.hPow x 2)
-- theorem log_div_log : log x / log b = logb b x  (variable {b x y : ℝ})
-- Mathlib/Analysis/SpecialFunctions/Log/Base.lean
axiom Real.log_div_log {b x : Real} : binrel% Eq (binop% HDiv.hDiv (Real.log x) (Real.log b)) (Real.logb b x)
-- theorem one_div (a : G) : 1 / a = a⁻¹  (section DivInvMonoid: variable [DivInvMonoid G])
-- Mathlib/Algebra/Group/Defs.lean
axiom one_div {G : Type u} [DivInvMonoid G] (a : G) : binrel% Eq (binop% HDiv.hDiv 1 a) (Inv.inv a)
-- theorem fact_iff {p : Prop} : Fact p ↔ p
-- Mathlib/Logic/Basic.lean
axiom fact_iff {p : Prop} : Iff (Fact p) p
end
