"""The pass-rate figure stays readable from 2 to 50 systems: the legend and the titles lie outside every panel and
inside the figure, the width is bounded, system labels do not overlap, and the whiskers are Wilson intervals."""

from __future__ import annotations

import struct

import pytest

from pyshadow.score.plots import MAX_COLUMNS, PANEL_WIDTH_IN, PassCounts, pass_rates_figure, plot_pass_rates
from pyshadow.score.stats import wilson_interval

pytest.importorskip("matplotlib")  # in the [test] extra: CI checks the plots


def _counts(systems: int, levels=("L1", "L2", "L3", "L4")) -> list[PassCounts]:
    out = []
    for s in range(systems):
        name = f"system-{s:02d}" + ("-with-a-rather-long-model-name-v2" if s % 7 == 0 else "")
        for i, level in enumerate(("All", *levels)):
            n = 20 + s + i
            out.append(PassCounts(name, level, n, n - s % 5, (n - s % 5) * 0.8, (n - s % 5) // 2))
    return out


def _overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _inside(inner, outer, slack=1.0) -> bool:
    return (inner.x0 >= outer.x0 - slack and inner.y0 >= outer.y0 - slack and inner.x1 <= outer.x1 + slack
            and inner.y1 <= outer.y1 + slack)


@pytest.mark.parametrize("systems", [2, 50])
def test_legend_and_titles_are_outside_the_panels_and_whole(systems):
    import matplotlib.pyplot as plt

    fig = pass_rates_figure(_counts(systems), compile_name="Compile", sa_name="SA-Pass")
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        page = fig.bbox
        axes = [ax for ax in fig.axes if ax.get_visible()]
        assert len(axes) == 5  # All + four levels, one panel each
        assert [ax.get_title() for ax in axes] == ["All levels", "Level L1", "Level L2", "Level L3", "Level L4"]
        legend = fig.legends[0].get_window_extent(renderer)
        title = fig._suptitle.get_window_extent(renderer)
        assert _inside(legend, page) and _inside(title, page)
        for ax in axes:
            box = ax.get_window_extent(renderer)
            assert not _overlap(legend, box) and not _overlap(title, box)
            assert _inside(ax.title.get_window_extent(renderer), page)
            labels = [t.get_window_extent(renderer) for t in ax.get_yticklabels() if t.get_text()]
            assert all(_inside(b, page) for b in labels)
            assert not any(_overlap(a, b) for a, b in zip(labels, labels[1:])), "system labels overlap"
        width_in = fig.get_figwidth()
        assert width_in <= MAX_COLUMNS * PANEL_WIDTH_IN + 4, width_in  # bounded however many systems
    finally:
        plt.close(fig)


def test_width_is_bounded_at_50_systems_and_the_whiskers_are_wilson(tmp_path):
    import matplotlib.pyplot as plt

    png = plot_pass_rates(_counts(50), tmp_path / "fig")[0]
    width, height = struct.unpack(">II", png.read_bytes()[16:24])
    assert width <= 120 * (MAX_COLUMNS * PANEL_WIDTH_IN + 4) and height > width  # it grows down, not across
    counts = [PassCounts("only", "All", 10, 7, 5.0, 3)]
    fig = pass_rates_figure(counts)
    try:
        ax = fig.axes[0]
        # the SA-Pass whisker (the third series, drawn lowest) spans the Wilson interval of 3/10
        segments = [seg for coll in ax.collections for seg in coll.get_segments()]
        spans = sorted((round(min(s[:, 0]), 6), round(max(s[:, 0]), 6)) for s in segments)
        lo, hi = wilson_interval(3, 10)
        assert (round(100 * lo, 6), round(100 * hi, 6)) in spans
        lo, hi = wilson_interval(7, 10)
        assert (round(100 * lo, 6), round(100 * hi, 6)) in spans
    finally:
        plt.close(fig)
