"""Lean proves a candidate equivalent to the candidate with proved atoms replaced — and nothing it should not.

Every proved congruence has mutation partners that Lean must reject: ``cand'`` with another value than the
proved replacement, a claimed atom the proof does not fit, a holed statement that is not the candidate.
"""

from __future__ import annotations

import pytest

from pyshadow.elab.atom_lemmas import AtomPairQuery, decide_atom_pairs
from pyshadow.elab.congruence import CongruenceItem, Replacement, congruence
from pyshadow.kernel.definitions import normalize_declaration
from pyshadow.kernel.lemma_pairs import replaced_candidates, settle_atom_pairs
from pyshadow.kernel.undecided import aligned_atom_pairs
from pyshadow.syntax.parser import parse_declaration as P
from pyshadow.syntax.render import render_term

pytestmark = pytest.mark.kernel
CAND = "theorem t (x : ℝ) (h : 0 ≤ x) : x ^ (1 / 2 : ℝ) = 2"
HOLED = "theorem t (x : ℝ) (h : 0 ≤ x) : pyshadowA0 x = 2"


def test_congruence_and_its_mutation_partners(kernel_lean_exe):
    q = AtomPairQuery("a", "Real.sqrt x", "x ^ (1 / 2 : ℝ)", ("(x : ℝ)",))
    other = AtomPairQuery("b", "Real.sqrt x", "x ^ (1 / 3 : ℝ)", ("(x : ℝ)",))
    (d,) = decide_atom_pairs([q], kernel_lean_exe)
    assert d.lemma == "Real.sqrt_eq_rpow"

    def item(key, cand, holed, replaced, query):
        return CongruenceItem(key, P(cand), P(holed), P(replaced), "", (Replacement(query, d.proof, "pyshadowA0"),))

    results = congruence([
        item("ok", CAND, HOLED, "theorem t (x : ℝ) (h : 0 ≤ x) : Real.sqrt x = 2", q),
        item("other value", CAND, HOLED, "theorem t (x : ℝ) (h : 0 ≤ x) : Real.sqrt x = 3", q),
        item("other atom", CAND.replace("1 / 2", "1 / 3"), HOLED, "theorem t (x : ℝ) (h : 0 ≤ x) : Real.sqrt x = 2",
             other),
        item("other statement", CAND, HOLED.replace("0 ≤ x", "0 < x"),
             "theorem t (x : ℝ) (h : 0 < x) : Real.sqrt x = 2", q),
    ], kernel_lean_exe)
    assert [r.proved for r in results] == [True, False, False, False], results


def test_replaced_candidates_only_where_every_atom_pair_is_proved(kernel_lean_exe):
    cases = {
        "logb": ("theorem t (x : ℝ) (h : 1 < x) : Real.log x / Real.log 2 > 0 ∧ x > 1",
                 "theorem t (y : ℝ) (h : 1 < y) : Real.logb 2 y > 0 ∧ y > 1"),
        "mutant": ("theorem t (x : ℝ) (h : 1 < x) : Real.log x / Real.log 2 > 0 ∧ x > 1",
                   "theorem t (y : ℝ) (h : 1 < y) : Real.logb 3 y > 0 ∧ y > 1"),
    }
    items = []
    for key, (a, b) in cases.items():
        cand = normalize_declaration(P(b))
        items.append((key, cand, "", "", aligned_atom_pairs(normalize_declaration(P(a)), cand)))
    settled = settle_atom_pairs(items, kernel_lean_exe)
    out = replaced_candidates([(k, P(cases[k][1]), normalize_declaration(P(cases[k][1])), "", v)
                               for k, v in settled.items()], kernel_lean_exe)
    assert set(out) == {"logb"}
    cand2, proved = out["logb"]
    assert proved.proved, proved
    assert render_term(cand2.type) == "Real.log y / Real.log 2 > 0 ∧ y > 1"
