"""Tests of the SA-Pass metrics (``pyshadow.score.metrics``) against hand-computed values."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from pyshadow.score.metrics import (
    CandidateScore,
    MixedTierError,
    ScoreRecord,
    aggregate,
    bucket,
    bwd,
    candidate_metrics,
    csv_columns,
    fwd,
    fwd_all,
    percent,
    render_csv,
    render_markdown,
    render_tables_markdown,
    sa_pass,
    sa_pass_soft,
    standard_tables,
    summarize,
)

# ---------------------------------------------------------------------------------------------------------------
# Per candidate


@pytest.mark.parametrize(
    "score, expected",
    [
        # compiled, forward, backward → (sa_pass, soft, fwd, bwd, fwd_all, bucket)
        (CandidateScore(True, [True, True, True], True), (True, Fraction(1), Fraction(1), 1, True, "both")),
        (
            CandidateScore(True, [True, False, True, False], True),
            (False, Fraction(3, 4), Fraction(1, 2), 1, False, "backward_only"),
        ),
        (CandidateScore(True, [True, True], False), (False, Fraction(1, 2), Fraction(1), 0, True, "forward_only")),
        (
            CandidateScore(True, [False, True, False], False),
            (False, Fraction(1, 6), Fraction(1, 3), 0, False, "neither"),
        ),
        (CandidateScore(True, [False], False), (False, Fraction(0), Fraction(0), 0, False, "neither")),
        # Not compiling: zero everywhere, whatever the check results say, and the bucket says so.
        (CandidateScore(False, [True, True], True), (False, Fraction(0), Fraction(0), 0, False, "not_compiled")),
        (CandidateScore(False, [], False), (False, Fraction(0), Fraction(0), 0, False, "not_compiled")),
        (CandidateScore(False, [True], True, audit_failed=True),
         (False, Fraction(0), Fraction(0), 0, False, "audit_failed")),
        # A target not declared: its own bucket, apart from a wrong meaning ("neither").
        (CandidateScore(True, [False], False, name_not_found=True),
         (False, Fraction(0), Fraction(0), 0, False, "name_not_found")),
        (CandidateScore(True, [False], True, skeleton=True, undecided=True),
         (False, Fraction(1, 2), Fraction(0), 1, False, "undecided")),
        # No forward checks: the forward fraction is vacuously 1.
        (CandidateScore(True, [], True), (True, Fraction(1), Fraction(1), 1, True, "both")),
        (CandidateScore(True, [], False), (False, Fraction(1, 2), Fraction(1), 0, True, "forward_only")),
    ],
)
def test_candidate_metrics_by_hand(score, expected):
    assert (sa_pass(score), sa_pass_soft(score), fwd(score), bwd(score), fwd_all(score), bucket(score)) == expected


def test_forward_is_stored_as_tuple_and_metrics_dict_is_json_ready():
    s = CandidateScore(True, [True, False], True, skeleton=True)
    assert s.forward == (True, False)
    assert candidate_metrics(s) == {
        "statement_elaborated": True, "skeleton": True, "sa_pass": False, "sa_pass_soft": 0.75, "fwd": 0.5, "bwd": 1.0,
        "fwd_all": False, "bucket": "backward_only", "undecided": False,
    }


def test_skeleton_tables_count_undecided_apart_and_never_as_passes():
    passed = CandidateScore(True, [True], True, skeleton=True)
    undecided = CandidateScore(True, [False], True, skeleton=True, undecided=True)
    failed = CandidateScore(True, [False], False, skeleton=True)
    table = aggregate([ScoreRecord(f"p{i}", "A", s) for i, s in enumerate((passed, undecided, failed))])
    row = table.rows[0]
    assert (row.n, row.undecided, row.sa_pass) == (3, 1, Fraction(1, 3))
    cells = dict(zip(csv_columns(table), render_csv(table).splitlines()[1].split(",")))
    assert (cells["undecided"], cells["neither"], cells["both"], cells["backward_only"]) == ("1", "1", "1", "0")
    full = aggregate([ScoreRecord("p", "A", CandidateScore(True, [True], True))])
    # a fixed schema: the full tier has the column too (always 0 there), under the same name
    assert csv_columns(full)[-5:] == ["undecided", "both", "backward_only", "forward_only", "neither"]
    assert len(csv_columns(full)) == len(csv_columns(table))


def all_scores(max_forward: int = 5):
    for compiled, backward in itertools.product((False, True), repeat=2):
        for n in range(max_forward + 1):
            for forward in itertools.product((False, True), repeat=n):
                yield CandidateScore(compiled, list(forward), backward)


def test_soft_is_one_iff_sa_pass_exhaustively():
    """Paper §3.3: SA-Pass_soft = 1 ⟺ SA-Pass = 1, over every outcome with up to 5 forward checks."""
    count = 0
    for s in all_scores():
        count += 1
        assert (sa_pass_soft(s) == 1) == sa_pass(s), s
        assert 0 <= sa_pass_soft(s) <= 1
        assert sa_pass(s) == (bucket(s) == "both")
        assert (bucket(s) == "not_compiled") == (not s.compiled)
    assert count == 4 * (2**6 - 1)


def test_soft_is_one_iff_sa_pass_property():
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies

    @hypothesis.given(st.booleans(), st.lists(st.booleans(), max_size=40), st.booleans())
    def check(compiled, forward, backward):
        s = CandidateScore(compiled, forward, backward)
        assert (sa_pass_soft(s) == 1) == sa_pass(s)

    check()


# ---------------------------------------------------------------------------------------------------------------
# Aggregation


def records():
    both = CandidateScore(True, [True, True], True)
    back = CandidateScore(True, [True, False], True)
    fwd_only = CandidateScore(True, [True], False)
    neither = CandidateScore(True, [False, False, False], False)
    failed = CandidateScore(False, [True], True)
    return [
        ScoreRecord("p1", "A", both, area="algebra", level="L1"),
        ScoreRecord("p2", "A", back, area="algebra", level="L2"),
        ScoreRecord("p3", "A", failed, area="geometry", level="L10"),
        ScoreRecord("p4", "A", neither, area=None, level="L2"),
        ScoreRecord("p1", "B", fwd_only, area="algebra", level="L1"),
        ScoreRecord("p2", "B", both, area="algebra", level="L2"),
    ]


def test_aggregate_by_system_by_hand():
    table = aggregate(records(), ("system",))
    a, b = table.rows
    assert a.key == ("A",) and (a.n, a.compiled) == (4, 3)
    assert a.compile_rate == Fraction(3, 4)
    assert a.sa_pass == Fraction(1, 4)
    # soft: both 1, back ½·½+½ = ¾, failed 0, neither 0 → (1 + ¾) / 4
    assert a.sa_pass_soft == Fraction(7, 16)
    assert a.fwd == Fraction(1 + Fraction(1, 2), 4)
    assert a.bwd == Fraction(2, 4)
    assert a.fwd_all == Fraction(1, 4)
    assert a.gap == Fraction(1, 2)
    assert (a.both, a.backward_only, a.forward_only, a.neither) == (1, 1, 0, 1)
    assert b.key == ("B",) and (b.n, b.compiled, b.sa_pass, b.sa_pass_soft) == (2, 2, Fraction(1, 2), Fraction(3, 4))
    assert (b.both, b.backward_only, b.forward_only, b.neither) == (1, 0, 1, 0)


def test_buckets_add_up_to_compiled():
    for table in standard_tables(records()):
        for row in table.rows:
            assert row.both + row.backward_only + row.forward_only + row.neither == row.compiled


def test_groups_sort_naturally_with_missing_last():
    assert [r.key for r in aggregate(records(), ("level",)).rows] == [("L1",), ("L2",), ("L10",)]
    assert [r.key for r in aggregate(records(), ("area",)).rows] == [("algebra",), ("geometry",), (None,)]
    assert [r.key for r in aggregate(records(), ("system", "level")).rows] == [
        ("A", "L1"), ("A", "L2"), ("A", "L10"), ("B", "L1"), ("B", "L2"),
    ]


def test_unknown_grouping_field():
    with pytest.raises(ValueError, match="cannot group by"):
        aggregate(records(), ("model",))


def test_summarize_empty_group_raises():
    with pytest.raises(ValueError):
        summarize([])


def test_paper_table7_buckets_and_gap():
    """Paper §6.3: 110 compiling outputs → 20 both, 20 backward only, 5 forward only, 65 neither."""
    scores = (
        [CandidateScore(True, [True], True)] * 20
        + [CandidateScore(True, [False], True)] * 20
        + [CandidateScore(True, [True], False)] * 5
        + [CandidateScore(True, [False], False)] * 65
        + [CandidateScore(False, [], False)] * 68
    )
    row = summarize(scores)
    counts = (row.n, row.compiled, row.both, row.backward_only, row.forward_only, row.neither)
    assert counts == (178, 110, 20, 20, 5, 65)
    assert percent(row.compile_rate) == "61.8" and percent(row.sa_pass) == "11.2" and percent(row.gap) == "50.6"


# ---------------------------------------------------------------------------------------------------------------
# Tiers and rendering


def test_mixing_skeleton_and_full_raises():
    mixed = records() + [ScoreRecord("p9", "C", CandidateScore(True, [True], True, skeleton=True))]
    with pytest.raises(MixedTierError):
        aggregate(mixed)
    full = aggregate(records())
    skel = aggregate([ScoreRecord("p9", "C", CandidateScore(True, [True], True, skeleton=True))])
    with pytest.raises(MixedTierError):
        render_tables_markdown([full, skel])


def test_titles_say_which_tier():
    assert aggregate(records(), ("system", "level")).title == "SA-Pass (full) by system × level"
    skel = aggregate([ScoreRecord("p", "S", CandidateScore(True, [], True, skeleton=True))], ("level",))
    assert skel.title == "Skeleton SA-Pass (kernel tier) by level"
    assert render_csv(skel).splitlines()[1].startswith("skeleton,")


@pytest.mark.parametrize(
    "value, digits, text",
    [
        (Fraction(1, 8), 1, "12.5"),
        (Fraction(1, 16), 1, "6.3"),  # 6.25 rounds half up
        (Fraction(1, 16), 2, "6.25"),
        (Fraction(2, 3), 1, "66.7"),
        (Fraction(1, 3), 0, "33"),
        (Fraction(1, 2000), 1, "0.1"),  # 0.05 rounds half up
        (Fraction(0), 1, "0.0"),
        (Fraction(1), 1, "100.0"),
        (Fraction(-1, 16), 1, "-6.3"),
    ],
)
def test_percent_rounds_half_up(value, digits, text):
    assert percent(value, digits) == text


def test_csv_columns_are_stable():
    table = aggregate(records(), ("system", "level"))
    assert csv_columns(table) == [
        "tier", "system", "level", "n", "compiled", "compile_pct", "sa_pass_pct", "sa_pass_soft_pct", "fwd_pct",
        "bwd_pct", "fwd_all_pct", "compile_minus_sa_pass_pts", "audit_failed", "not_compiled", "name_not_found",
        "undecided", "both", "backward_only", "forward_only", "neither",
    ]


def test_render_csv_by_hand():
    assert render_csv(aggregate(records(), ("system",))) == (
        "tier,system,n,compiled,compile_pct,sa_pass_pct,sa_pass_soft_pct,fwd_pct,bwd_pct,fwd_all_pct,"
        "compile_minus_sa_pass_pts,audit_failed,not_compiled,name_not_found,undecided,both,backward_only,"
        "forward_only,neither\n"
        "full,A,4,3,75.0,25.0,43.8,37.5,50.0,25.0,50.0,0,1,0,0,1,1,0,1\n"
        "full,B,2,2,100.0,50.0,75.0,100.0,50.0,100.0,50.0,0,0,0,0,1,0,1,0\n"
    )


def test_render_markdown_by_hand():
    text = render_markdown(aggregate(records(), ("area",)), digits=0)
    assert text.splitlines() == [
        "### SA-Pass (full) by area",
        "",
        "| Area | n | Compiled | Compile % | SA-Pass % | SA-Pass_soft % | Fwd % | Bwd % | Fwd_all % "
        "| Compile − SA-Pass (pts) | Audit failed | Not compiled | Name not found | Undecided | Both | Bwd only "
        "| Fwd only | Neither |",
        "| --- |" + " ---: |" * 17,
        "| algebra | 4 | 4 | 100 | 50 | 81 | 88 | 75 | 75 | 50 | 0 | 0 | 0 | 0 | 2 | 1 | 1 | 0 |",
        "| geometry | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 1 | 0 | 0 | 0 | 0 | 0 | 0 |",
        "| — | 1 | 1 | 100 | 0 | 0 | 0 | 0 | 0 | 100 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 1 |",
    ]


def test_markdown_escapes_pipes_in_names():
    table = aggregate([ScoreRecord("p", "a|b", CandidateScore(True, [True], True))])
    assert "| a\\|b |" in render_markdown(table)


def test_rendering_is_deterministic():
    tables = standard_tables(records())
    assert render_tables_markdown(tables) == render_tables_markdown(standard_tables(list(reversed(records()))))
