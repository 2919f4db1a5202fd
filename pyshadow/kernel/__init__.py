"""The kernel tier: checking the logic of generated checkers with the prelude-only Lean 4.35 kernel."""
