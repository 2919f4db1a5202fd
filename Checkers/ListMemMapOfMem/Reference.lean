namespace PyShadow.Checkers.ListMemMapOfMem

/-!
# Images of members are members of the image

Reference formalization of the pyshadow problem `list_mem_map_of_mem` (core Lean 4 only, no Mathlib).
-/

/-- Mapping a list keeps the images of its members. -/
theorem list_mem_map_of_mem {α β : Type} (f : α → β) (l : List α) : ∀ x ∈ l, f x ∈ l.map f :=
  fun x hx => List.mem_map.mpr ⟨x, hx, rfl⟩

end PyShadow.Checkers.ListMemMapOfMem
