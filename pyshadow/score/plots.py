"""Figures for reports (optional: ``pip install 'pyshadow-lean[plots]'``; the text report never needs
matplotlib).

- ``plot_pass_rates``: compile (or statement elaborated) vs SA-Pass_soft vs SA-Pass per system, grouped bars;
- ``plot_agreement``: agreement with human labels per metric, with Wilson 95% whiskers.

Each figure is written as PNG and SVG, byte-identical across reruns: the Agg backend, a fixed SVG hash salt (the
ids of clip paths and glyphs), no creation date, no software version in the metadata.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def plot_pass_rates(chart: Sequence[tuple[str, float, float, float]], stem: Path, *, compile_name: str = "Compile",
                    sa_name: str = "SA-Pass") -> list[Path]:
    """Grouped bars per system: compile, SA-Pass_soft, SA-Pass (fractions, shown in percent)."""
    plt = _pyplot()
    width = 0.27
    fig, ax = plt.subplots(figsize=(max(5.0, 1.2 * len(chart) + 2), 3.6))
    xs = range(len(chart))
    for offset, (label, index) in zip((-width, 0.0, width),
                                      ((compile_name, 1), (f"{sa_name}_soft", 2), (sa_name, 3))):
        ax.bar([x + offset for x in xs], [100 * row[index] for row in chart], width, label=label)
    ax.set_xticks(list(xs), [row[0] for row in chart], rotation=20, ha="right")
    ax.set_ylabel("%")
    ax.set_ylim(0, 105)
    ax.legend(frameon=False, fontsize=8)
    ax.set_title(f"{compile_name} vs {sa_name}_soft vs {sa_name}")
    fig.tight_layout()
    paths = _save(fig, stem)
    plt.close(fig)
    return paths


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
