"""Which context declarations two statements share (``pyshadow.elab.statements.shared_declarations``): one
constant for both only where the same text means the same constant in both files (red team 5, shared/01)."""

from __future__ import annotations

from pyshadow.elab.context import read_context
from pyshadow.elab.statements import shared_declarations

DEF = "def f (x : ℕ) : ℝ := sqrt x"


def _shared(a: str, b: str) -> list[str]:
    return shared_declarations(read_context(a).commands, read_context(b).commands)


def test_the_same_text_under_other_opens_that_could_name_its_identifiers_is_not_shared():
    # `sqrt` is `Nat.sqrt` under `open Nat` and `Real.sqrt` under `open Real` (both in the environment)
    assert _shared(f"open Nat\n{DEF}", f"open Real\n{DEF}") == []
    assert len(_shared(f"open Real\n{DEF}", f"open Real\n{DEF}")) == 1


def test_an_open_inside_a_closed_namespace_is_not_the_top_level_open():
    assert _shared(f"namespace A\nopen Real\nend A\n{DEF}", f"open Real\n{DEF}") == []


def test_opens_that_name_nothing_the_text_uses_do_not_keep_it_apart():
    plain = "def g (n : ℕ) : ℕ := n + 1"
    assert len(_shared(f"open BigOperators\n{plain}", plain)) == 1
    # a symbol a scoped notation could give keeps it apart
    assert _shared(f"open Real\ndef h : ℝ := π", "def h : ℝ := π") == []
