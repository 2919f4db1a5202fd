namespace Doubling

def twice (n : Nat) : Nat := n + n

theorem double_add (m n : Nat) : twice (m + n) = twice m + twice n := by
  unfold twice
  omega

end Doubling
