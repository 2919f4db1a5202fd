"""Figures for reports (optional: ``pip install 'pyshadow-lean[plots]'``; the text report never needs
matplotlib).

- ``plot_pass_rates``: compile (or statement elaborated), SA-Pass_soft and SA-Pass per system, one panel per
  level, Wilson 95% whiskers, legend and title outside the panels (readable from 2 to 50 systems and more);
- ``plot_agreement``: agreement with human labels per metric, with Wilson 95% whiskers.

Each figure is written as PNG and SVG, byte-identical across reruns: the Agg backend, a fixed SVG hash salt (the
ids of clip paths and glyphs), no creation date, no software version in the metadata.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

PLOTS_EXTRA_HINT = "plots need matplotlib: pip install 'pyshadow-lean[plots]' (the text report is written without it)"
_SVG_METADATA = {"Date": None, "Creator": None}
_PNG_METADATA = {"Software": None}


def matplotlib_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    matplotlib.rcParams["svg.hashsalt"] = "pyshadow"
    matplotlib.rcParams["svg.fonttype"] = "path"  # glyphs as paths: the SVG does not depend on installed fonts
    import matplotlib.pyplot as plt

    return plt


def _save(fig, stem: Path) -> list[Path]:
    stem.parent.mkdir(parents=True, exist_ok=True)
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    fig.savefig(png, dpi=120, metadata=_PNG_METADATA)
    fig.savefig(svg, metadata=_SVG_METADATA)
    return [png, svg]


@dataclass(frozen=True)
class PassCounts:
    """One bar group of ``plot_pass_rates``: a system's candidates on one level (``"All"`` for every level)."""

    system: str
    level: str
    n: int
    compiled: int
    soft: float  # the sum of SA-Pass_soft over the n candidates
    passed: int


PANEL_WIDTH_IN = 3.2  # one level's panel
MAX_COLUMNS = 3  # panels per row: the width stays bounded however many levels or systems there are
ROW_HEIGHT_IN = 0.3  # one system in a panel (three bars)
LABEL_CHARS = 32  # longer system names are cut with "…" (the tables carry them whole)


def _label(name: str) -> str:
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1] + "…"


def plot_pass_rates(counts: Sequence[PassCounts], stem: Path, *, compile_name: str = "Compile",
                    sa_name: str = "SA-Pass") -> list[Path]:
    """``pass_rates_figure`` written as PNG and SVG."""
    plt = _pyplot()
    fig = pass_rates_figure(counts, compile_name=compile_name, sa_name=sa_name)
    paths = _save(fig, stem)
    plt.close(fig)
    return paths


def pass_rates_figure(counts: Sequence[PassCounts], *, compile_name: str = "Compile", sa_name: str = "SA-Pass"):
    """Horizontal grouped bars, one panel per level ("All" first), one bar group per system: compile, SA-Pass_soft
    and SA-Pass in percent, with Wilson 95% whiskers on compile and SA-Pass (SA-Pass_soft is a mean of fractions,
    not a proportion: no interval). The title sits above the panels and the legend below them, outside every axes; the width
    is bounded (at most ``MAX_COLUMNS`` panels a row), the height grows with the systems."""
    from .stats import wilson_interval

    plt = _pyplot()
    levels = list(dict.fromkeys(c.level for c in counts))
    panels = (["All"] if "All" in levels else []) + [lv for lv in levels if lv != "All"]
    systems = list(dict.fromkeys(c.system for c in counts))
    cell = {(c.system, c.level): c for c in counts}
    ncols = min(len(panels), MAX_COLUMNS) or 1
    nrows = -(-len(panels) // ncols) or 1
    label_in = 0.09 * max((len(_label(s)) for s in systems), default=4) + 0.3
    width = max(6.5, ncols * PANEL_WIDTH_IN + label_in)
    panel_h = ROW_HEIGHT_IN * len(systems) + 0.9
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, nrows * panel_h + 1.1), squeeze=False,
                             layout="constrained")
    bar = 0.27
    series = ((compile_name, "compiled", True), (f"{sa_name}_soft", "soft", False), (sa_name, "passed", True))
    ys = list(range(len(systems)))[::-1]
    for index, ax in enumerate(axes.flat):
        if index >= len(panels):
            ax.set_visible(False)
            continue
        level = panels[index]
        for offset, (label, attr, interval) in zip((bar, 0.0, -bar), series):
            pos, vals, lo, hi = [], [], [], []
            for y, system in zip(ys, systems):
                c = cell.get((system, level))
                if c is None or not c.n:
                    continue
                value = getattr(c, attr) / c.n
                pos.append(y + offset)
                vals.append(100 * value)
                ci = wilson_interval(getattr(c, attr), c.n) if interval else None
                lo.append(100 * (value - ci[0]) if ci else 0.0)
                hi.append(100 * (ci[1] - value) if ci else 0.0)
            ax.barh(pos, vals, bar, label=label, xerr=[lo, hi] if interval else None,
                    error_kw={"elinewidth": 0.8, "capsize": 1.5, "ecolor": "0.25"})
        ax.set_yticks(ys, [_label(s) for s in systems] if index % ncols == 0 else [""] * len(systems),
                      fontsize=8)
        ax.set_ylim(-0.6, len(systems) - 0.4)
        ax.set_xlim(0, 100)
        ax.set_title(f"Level {level}" if level != "All" else "All levels", fontsize=9)
        ax.grid(axis="x", linewidth=0.4, alpha=0.5)
        ax.set_xlabel("% of candidates", fontsize=8)
        ax.tick_params(axis="x", labelsize=8)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=3, frameon=False, fontsize=8)
    fig.suptitle(f"{compile_name}, {sa_name}_soft and {sa_name} per system and level\n"
                 "(whiskers: Wilson 95% intervals)", fontsize=10)
    return fig


def plot_agreement(rows: Sequence[tuple[str, float | None, tuple[float, float] | None]], stem: Path) -> list[Path]:
    """Agreement per metric (a dot) with its Wilson 95% interval (whiskers); undefined metrics are left out."""
    plt = _pyplot()
    shown = [(name, value, ci) for name, value, ci in rows if value is not None and ci is not None]
    fig, ax = plt.subplots(figsize=(6.0, 0.45 * len(shown) + 1.2))
    ys = list(range(len(shown)))[::-1]
    for y, (name, value, ci) in zip(ys, shown):
        ax.errorbar([value], [y], xerr=[[value - ci[0]], [ci[1] - value]], fmt="o", capsize=3, color="tab:blue")
    ax.set_yticks(ys, [name for name, _, _ in shown])
    ax.set_xlim(0, 1)
    ax.set_xlabel("agreement with human labels (Wilson 95% CI)")
    fig.tight_layout()
    paths = _save(fig, stem)
    plt.close(fig)
    return paths
