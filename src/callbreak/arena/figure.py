"""A blank matplotlib figure for the arena's report plots (``report``, ``value_lost``).

matplotlib is imported when the first figure is made, with the Agg backend (files only,
no window), so neither ``import callbreak`` nor a run without ``--report`` pays for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def new_figure() -> Figure:
    """An 8 × 4.5 inch figure at 100 dpi with a constrained layout: every plot's size."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=(8, 4.5), dpi=100, layout="constrained")
