theorem int_lt_iff_sub_pos (a b : Int) : b > a ↔ b - a > 0 := by
  omega
