theorem prop_contrapositive (p q : Prop) (hpq : p → q) (hnq : ¬q) : ¬p :=
  fun hp => hnq (hpq hp)
