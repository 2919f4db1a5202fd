namespace Divisibility

theorem dvd_add_of_dvd {a b c : Nat} (hb : a ∣ b) (hc : a ∣ c) : a ∣ b + c :=
  Nat.dvd_add hb hc

theorem dvd_trans_of_dvd {a b c : Nat} : a ∣ b → b ∣ c → a ∣ c :=
  fun hab hbc => Nat.dvd_trans hab hbc

theorem dvd_mul_of_self {a b : Nat} : a ∣ a * b :=
  Nat.dvd_mul_right a b

end Divisibility
