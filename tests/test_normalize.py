"""Atom and type keys of the kernel tier: harmless spellings fold, meaningful differences do not."""

import pytest

from pyshadow.kernel.normalize import atom_key, type_key


@pytest.mark.parametrize("a, b", [
    ("(x + 1)", "x + 1"),
    ("f  (x)\n  y", "f (x) y"),
    ("fun x ↦ x ^ 2", "fun x => x ^ 2"),
    ("λ x => x", "fun x => x"),
    ("∑ i in Finset.range n, f i", "∑ i ∈ Finset.range n, f i"),
    ("∏ p in s.filter (fun q => q ∈ t), p", "∏ p ∈ s.filter (fun q => q ∈ t), p"),
])
def test_same_term_same_key(a, b):
    assert atom_key(a) == atom_key(b)


@pytest.mark.parametrize("a, b", [
    ("x + 1", "x - 1"),
    ("(x + 1) * 2", "x + 1 * 2"),
    ('"a in b"', '"a ∈ b"'),  # strings are never rewritten
    ("∀ x in s, p x", "∀ x ∈ s, p x"),  # only big operators take `in`
])
def test_different_terms_different_keys(a, b):
    assert atom_key(a) != atom_key(b)


def test_sort_universes_fold():
    assert {type_key(t) for t in ("Type*", "Type u", "Type _", "Type u_1")} == {"Type"}
    assert type_key("Sort*") == "Sort" and type_key("Type u → Type u") != "Type"
