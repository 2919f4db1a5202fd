prelude
import PyshadowEnv.Core
/-! # pyshadow's signature environment: the proof vocabulary of the skeleton's terms

The core eliminators and lemmas the skeleton search's proof terms name (`pyshadow.kernel.search`), so that Lean can
check those terms against the elaborated statements (`pyshadow.kernel.lean_check`). `Or.elim` and `Exists.elim`
are proved from the recursors, as the kernel tier's own prelude proves them; `Eq.symm` and `False.elim` likewise.
-/
set_option genCtorIdx false
set_option genInjectivity false
set_option genSizeOf false
set_option autoImplicit false
universe u v

-- src/Init/Prelude.lean (`theorem Eq.symm {α : Sort u} {a b : α} (h : Eq a b) : Eq b a`)
theorem Eq.symm {α : Sort u} {a b : α} (h : Eq a b) : Eq b a :=
  Eq.rec (motive := fun x _ => Eq x a) (@Eq.refl α a) h
-- src/Init/Prelude.lean (`def False.elim {C : Sort u} (h : False) : C`)
def False.elim {C : Sort u} (h : False) : C := False.rec (motive := fun _ => C) h
-- src/Init/Prelude.lean (`theorem absurd {a : Prop} {b : Sort v} (h₁ : a) (h₂ : Not a) : b`)
theorem absurd {a : Prop} {b : Prop} (h₁ : a) (h₂ : Not a) : b := False.elim (h₂ h₁)
-- src/Init/Core.lean (`theorem Or.elim {c : Prop} (h : Or a b) (left : a → c) (right : b → c) : c`)
theorem Or.elim {a b c : Prop} (h : Or a b) (left : a → c) (right : b → c) : c :=
  Or.rec (motive := fun _ => c) left right h
-- src/Init/Core.lean (`theorem Exists.elim {α : Sort u} {p : α → Prop} {b : Prop} (h₁ : Exists (fun x => p x))
-- (h₂ : ∀ (a : α), p a → b) : b`)
theorem Exists.elim {α : Sort u} {p : α → Prop} {b : Prop} (h₁ : Exists (fun x => p x))
    (h₂ : ∀ (a : α), p a → b) : b :=
  Exists.rec (motive := fun _ => b) h₂ h₁
