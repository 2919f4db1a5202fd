"""A failing skeleton check says what the search could not match (issue 24, "messages that point"): the conjunct,
hypothesis or atom on each side, as each statement writes it, and the nearest piece of the other side."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyshadow.kernel.pairs import read_pairs
from pyshadow.kernel.skeleton import NOT_FOUND, SkeletonPair, skeleton_block
from pyshadow.kernel.scoring import skeleton_score
from pyshadow.syntax import parse_declaration

PREFIX = "no proof term found by the skeleton search: "


def unbuilt(ref: str, cand: str) -> dict[str, str]:
    pair = SkeletonPair("k", parse_declaration(ref), parse_declaration(cand), True)
    return skeleton_block(pair, "C0").unbuilt


def test_one_differing_atom_is_named_on_both_sides():
    got = unbuilt("theorem t (n : ℕ) : n + 1 ≤ 2 ^ n ∧ n < 2 ^ n", "theorem t (k : ℕ) : k + 2 ≤ 2 ^ k ∧ k < 2 ^ k")
    assert got == {
        "forward:1": PREFIX + "reference conjunct 1 `n + 1 ≤ 2 ^ n` matches no candidate atom; "
                              "nearest candidate conjunct 1 `k + 2 ≤ 2 ^ k`",
        "backward": PREFIX + "candidate conjunct 1 `k + 2 ≤ 2 ^ k` matches no reference atom; "
                             "nearest reference conjunct 1 `n + 1 ≤ 2 ^ n`",
    }  # conjunct 2 (`k < 2 ^ k`) matches: no message names it


def test_a_stronger_hypothesis_is_named():
    got = unbuilt("theorem t (n : ℕ) (h : 0 < n) : n + 1 ≤ 2 ^ n", "theorem t (k : ℕ) (hk : 1 < k) : k + 1 ≤ 2 ^ k")
    assert got["forward:1"] == PREFIX + ("candidate hypothesis `hk : 1 < k` is not implied by the reference's "
                                         "hypotheses; nearest reference hypothesis `h : 0 < n`")
    assert got["backward"] == PREFIX + ("reference hypothesis `h : 0 < n` is not implied by the candidate's "
                                        "hypotheses; nearest candidate hypothesis `hk : 1 < k`")


def test_a_missing_hypothesis_is_named():
    got = unbuilt("theorem t (n : ℕ) (h : 0 < n) (h2 : n < 5) : n + 1 ≤ 2 ^ n",
                  "theorem t (n : ℕ) (h : 0 < n) : n + 1 ≤ 2 ^ n")
    assert got == {"backward": PREFIX + "reference hypothesis `h2 : n < 5` is not implied by the candidate's "
                                        "hypotheses; nearest candidate hypothesis `h : 0 < n`"}
    assert "forward:1" not in got  # the weaker-hypothesis direction holds


def test_a_candidate_with_no_hypotheses():
    got = unbuilt("theorem t (n : ℕ) (h : 0 < n) : n + 1 ≤ 2 ^ n", "theorem t (n : ℕ) : n + 1 ≤ 2 ^ n")
    assert got["backward"] == PREFIX + ("reference hypothesis `h : 0 < n` is not implied by the candidate's "
                                        "hypotheses; the candidate has none")


def test_real_changed_pairs_get_pointing_messages():
    """On the development pairs every unbuilt check names a piece of one side (never the bare old message), and
    the piece is quoted as that side writes it."""
    messages = 0
    for p in read_pairs(Path(__file__).parent / "fixtures" / "pairs" / "dev_pairs.jsonl")[:150]:
        ref, cand = parse_declaration(p.a), parse_declaration(p.b)
        if cand.type is None:
            continue
        for role, text in skeleton_block(SkeletonPair(p.id, ref, cand, True, p.a_context, p.b_context),
                                         "C0").unbuilt.items():
            messages += 1
            assert text != NOT_FOUND and text.startswith(PREFIX), (p.id, role, text)
            quoted = text.split("`")[1]
            side = p.a if text[len(PREFIX):].startswith("reference") else p.b
            # the quoted piece is written by its side: its identifiers all occur in that statement
            words = {w for w in quoted.replace("(", " ").replace(")", " ").split() if w.isidentifier()}
            assert all(w in side for w in words), (p.id, role, quoted)
    assert messages > 30


@pytest.mark.kernel
def test_the_verdict_carries_the_message(kernel_lean_exe):
    pair = SkeletonPair("k", parse_declaration("theorem t (n : ℕ) : n + 1 ≤ 2 ^ n ∧ n < 2 ^ n"),
                        parse_declaration("theorem t (k : ℕ) : k + 2 ≤ 2 ^ k ∧ k < 2 ^ k"), True)
    v = skeleton_score([pair], kernel_lean_exe)["k"]
    assert v.forward == [False, True] and not v.backward
    assert "candidate conjunct 1 `k + 2 ≤ 2 ^ k` matches no reference atom" in v.messages["backward"]
