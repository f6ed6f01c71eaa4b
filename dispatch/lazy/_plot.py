"""Pictures of lazy graphs and of their computation history (matplotlib).

Figures are drawn with matplotlib's Agg canvas, without pyplot, so they work
on a machine without a display and leave pyplot's state alone. Each function
writes its figure to ``filename`` (default: a PNG named after the plot in the
current directory) and returns ``(figure, axes, path)``.
"""

from __future__ import annotations

import collections
import os
from typing import Any, NamedTuple

from dispatch.lazy._array import _NODATA, fn_name
from dispatch.lazy._graph import (
    history_size_footprint,
    history_stats,
    label,
    roots_of,
    toposort,
)


class Plot(NamedTuple):
    figure: Any
    axes: Any
    path: str | None


def _figure(figsize: tuple[float, float]) -> tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def _save(fig: Any, ax: Any, filename: Any, default: str, dpi: int) -> Plot:
    path = os.fspath(filename) if filename is not None else default
    if path:
        fig.savefig(path, dpi=dpi, bbox_inches="tight")
    return Plot(fig, ax, path or None)


def _colors(names: list[str]) -> dict[str, Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab20"]
    ops = [n for n in dict.fromkeys(names) if n != "None"]
    out = {n: cmap(i % 20) for i, n in enumerate(ops)}
    out["None"] = (0.6, 0.6, 0.6, 1.0)
    return out


def plot_graph(
    lz: Any,
    filename: Any = None,
    *,
    variables: Any = None,
    figsize: tuple[float, float] | None = None,
    show_labels: bool | None = None,
    dpi: int = 100,
) -> Plot:
    """Draw the graph of ``lz``: one column per depth, leaves on the left.

    Nodes are coloured by function name; leaves holding data are grey circles,
    variables (and the nodes in ``variables``) squares, outputs larger.

    Parameters
    ----------
    lz : LazyArray or pytree of LazyArray
    filename : str or path, optional
        Where to write the PNG; default ``"lazy_graph.png"``; ``""`` writes nothing.
    variables : LazyArray or pytree, optional
        Nodes to mark as inputs.
    show_labels : bool, optional
        Write function names next to nodes (default: when there are at most 60).

    Returns
    -------
    Plot
        ``(figure, axes, path)``.
    """
    from matplotlib.collections import LineCollection

    roots = roots_of(lz)
    order = toposort(roots)
    var = set(roots_of(variables)) if variables is not None else set()
    depth: dict = {}
    for n in order:
        depth[n] = 1 + max((depth[d] for d in n._deps), default=-1)
    layers: dict[int, list] = collections.defaultdict(list)
    for n in order:
        layers[depth[n]].append(n)
    pos = {}
    for d, nodes in layers.items():
        k = len(nodes)
        for i, n in enumerate(nodes):
            pos[n] = (d, (i - (k - 1) / 2))
    width = max(layers, default=0) + 1
    height = max((len(v) for v in layers.values()), default=1)
    if figsize is None:
        figsize = (min(4 + 0.8 * width, 40), min(3 + 0.35 * height, 40))
    fig, ax = _figure(figsize)
    segs = [(pos[d], pos[n]) for n in order for d in n._deps]
    ax.add_collection(LineCollection(segs, colors=(0.5, 0.5, 0.5, 0.5), linewidths=0.8,
                                     zorder=1))
    names = [str(fn_name(n._fn)) for n in order]
    colors = _colors(names)
    out_set = set(roots)
    for kind, marker in (("leaf", "o"), ("var", "s"), ("op", "o")):
        pts = [n for n in order if _kind(n, var) == kind]
        if not pts:
            continue
        ax.scatter(
            [pos[n][0] for n in pts], [pos[n][1] for n in pts],
            c=[colors[str(fn_name(n._fn))] for n in pts], marker=marker,
            s=[90 if n in out_set else 40 for n in pts], edgecolors="black",
            linewidths=0.5, zorder=2,
        )
    if show_labels is None:
        show_labels = len(order) <= 60
    if show_labels:
        for n in order:
            ax.annotate(label(n), pos[n], xytext=(4, 4), textcoords="offset points",
                        fontsize=7)
    from matplotlib.lines import Line2D

    top = collections.Counter(x for x in names if x != "None").most_common(12)
    handles = [Line2D([], [], marker="o", linestyle="", color=colors[n], label=f"{n} ({c})")
               for n, c in top]
    if handles:
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1),
                  frameon=False)
    ax.set_xlabel("depth")
    ax.set_yticks([])
    ax.set_title(f"lazy graph: {len(order)} nodes")
    ax.autoscale()
    ax.margins(0.05)
    return _save(fig, ax, filename, "lazy_graph.png", dpi)


def _kind(n: Any, var: set) -> str:
    if n in var or (n._fn is None and n._data is _NODATA):
        return "var"
    return "leaf" if n._fn is None else "op"


def plot_history_size_footprint(lz: Any, filename: Any = None, *,
                                include_inputs: bool = True, log: bool = False,
                                figsize: tuple[float, float] = (8, 3), dpi: int = 100) -> Plot:
    """Elements alive after each step of the computation (see history_size_footprint)."""
    fp = history_size_footprint(lz, include_inputs)
    fig, ax = _figure(figsize)
    ax.fill_between(range(len(fp)), fp, step="mid", alpha=0.5)
    ax.plot(range(len(fp)), fp, drawstyle="steps-mid", linewidth=0.8)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("elements alive")
    ax.set_title(f"peak {max(fp, default=0)} elements")
    return _save(fig, ax, filename, "lazy_history_size_footprint.png", dpi)


def plot_history_functions(lz: Any, filename: Any = None, *, log: bool = True,
                           figsize: tuple[float, float] = (8, 4), dpi: int = 100) -> Plot:
    """Each computation step as a point: step number against output size, coloured
    by function."""
    order = [n for n in toposort(roots_of(lz)) if n._fn is not None]
    names = [str(fn_name(n._fn)) for n in order]
    colors = _colors(names)
    fig, ax = _figure(figsize)
    for name in dict.fromkeys(names):
        steps = [i for i, n in enumerate(order) if n._fn == name]
        sizes = [max(_size(order[i]), 1) for i in steps]
        ax.scatter(steps, sizes, s=10, color=colors[name], label=name)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("output size")
    if len(colors) <= 21:
        ax.legend(fontsize=7, frameon=False, markerscale=2, loc="best")
    return _save(fig, ax, filename, "lazy_history_functions.png", dpi)


def plot_history_stats(lz: Any, fn: Any = "count", filename: Any = None, *,
                       top: int = 20, figsize: tuple[float, float] = (6, 4),
                       dpi: int = 100) -> Plot:
    """A bar per function name of ``history_stats(lz, fn)`` (the ``top`` largest)."""
    stats = history_stats(lz, fn)
    items = sorted(((k, v) for k, v in stats.items() if k != "None"), key=lambda kv: kv[1])
    items = items[-top:]
    fig, ax = _figure(figsize)
    colors = _colors([k for k, _ in items])
    ax.barh([k for k, _ in items], [v for _, v in items], color=[colors[k] for k, _ in items])
    ax.set_xlabel(fn if isinstance(fn, str) else getattr(fn, "__name__", "statistic"))
    return _save(fig, ax, filename, "lazy_history_stats.png", dpi)


def _size(n: Any) -> int:
    s = n._shape
    if s is None:
        return 0
    out = 1
    for d in s:
        out *= d
    return out
