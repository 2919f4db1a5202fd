"""The one fresh-name generator (``pyshadow.syntax.names``) in the numbering schemes its users rely on."""

from pyshadow.syntax.names import FreshNames


def test_per_base_numbering_skips_taken_names():
    fresh = FreshNames({"P1", "t2"})
    assert [fresh("P"), fresh("P"), fresh("t"), fresh("t"), fresh("P")] == ["P2", "P3", "t1", "t3", "P4"]
    assert {"P2", "P3", "t1", "t3", "P4"} <= fresh.taken


def test_bare_first_then_numbers():
    fresh = FreshNames({"h", "h2"}, bare_first=True)
    assert [fresh("h"), fresh("x"), fresh("x"), fresh("h")] == ["h3", "x", "x2", "h4"]


def test_shared_counter_never_repeats_a_number():
    fresh = FreshNames({"a_2"}, template="{base}_{n}", shared_counter=True)
    assert [fresh("h"), fresh("a"), fresh("x")] == ["h_1", "a_3", "x_4"]
    skeleton = FreshNames(template="{base}_sk{n}", shared_counter=True)
    assert [skeleton("h"), skeleton("h"), skeleton("x")] == ["h_sk1", "h_sk2", "x_sk3"]
