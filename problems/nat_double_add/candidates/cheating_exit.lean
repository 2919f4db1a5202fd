namespace Doubling

def double (n : Nat) : Nat := n + n

theorem double_add (m n : Nat) : double (m + n) = double m + double n := by
  unfold double
  omega

end Doubling

#exit
