"""Mathlib's one-sided and punctured neighbourhood filters (Mathlib/Topology/Defs/Filter.lean, ``𝓝[>] x`` …) read
as the notation applied to its point and printed as what it expands to, ``nhdsWithin x (Set.Ioi x)``, only under
``open Topology`` (the notation is scoped); each spelling has a mutation partner that must not pass."""

from __future__ import annotations

import pytest

from lean_claims import assert_lean_decides
from pyshadow.elab.translate import Scope, Untranslatable, to_lean
from pyshadow.syntax import terms as tm

TOPOLOGY = Scope(opens=frozenset({"Topology"}))


def test_the_notation_is_printed_as_it_expands_and_only_where_it_is_open():
    assert to_lean(tm.read_term("𝓝[>] 0"), TOPOLOGY) == "nhdsWithin 0 (Set.Ioi 0)"
    assert to_lean(tm.read_term("𝓝[≠] a"), TOPOLOGY) == "nhdsWithin a (Compl.compl (Singleton.singleton a))"
    with pytest.raises(Untranslatable, match="open Topology"):
        to_lean(tm.read_term("𝓝[>] 0"))
    assert tm.read_term("𝓝 [>] 0") is None  # with a space, `[>]` is no list Lean reads


@pytest.mark.kernel
@pytest.mark.parametrize("kind,interval,other", [(">", "Ioi", "Ici"), ("≤", "Iic", "Iio")])
def test_lean_decides_the_neighbourhood_notation(kernel_lean_exe, kind, interval, other):
    context = "open Filter Topology"
    assert_lean_decides(f"theorem t (f : ℝ → ℝ) : Tendsto f (𝓝[{kind}] 0) (𝓝 0)",
                        f"theorem t (f : ℝ → ℝ) : Tendsto f (nhdsWithin 0 (Set.{interval} 0)) (𝓝 0)",
                        [f"theorem t (f : ℝ → ℝ) : Tendsto f (nhdsWithin 0 (Set.{other} 0)) (𝓝 0)",
                         f"theorem t (f : ℝ → ℝ) : Tendsto f (𝓝[{kind}] 1) (𝓝 0)"], context)
