"""``autoray.lazy.draw``: the plots of a lazy graph (:mod:`dispatch.lazy`'s)."""

from dispatch.lazy import (
    plot_graph,
    plot_history_functions,
    plot_history_size_footprint,
    plot_history_stats,
)

__all__ = (
    "plot_graph",
    "plot_history_functions",
    "plot_history_size_footprint",
    "plot_history_stats",
)
