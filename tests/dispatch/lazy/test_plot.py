"""Plots of lazy graphs are written to files, without a display."""

from __future__ import annotations

import time

import numpy as np
import pytest

from dispatch import do, lazy

pytest.importorskip("matplotlib")


def _graph():
    x = lazy.Variable((4, 4))
    c = lazy.array(np.eye(4))
    y = do("matmul", x, c)
    for _ in range(5):
        y = do("tanh", y) + x
    return x, do("sum", y, axis=0)


def test_plot_graph_writes_a_png(tmp_path):
    x, y = _graph()
    plot = lazy.plot_graph(y, tmp_path / "graph.png", variables=x)
    assert plot.path == str(tmp_path / "graph.png")
    data = (tmp_path / "graph.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert plot.figure.axes == [plot.axes]
    # methods on the node do the same
    assert y.plot_graph(tmp_path / "g2.png").path.endswith("g2.png")


def test_plot_graph_default_file_in_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, y = _graph()
    plot = lazy.plot_graph(y)
    assert (tmp_path / "lazy_graph.png").exists()
    assert plot.path == "lazy_graph.png"
    assert lazy.plot_graph(y, "").path is None  # "" draws without writing


@pytest.mark.parametrize(
    "fn", ["plot_history_size_footprint", "plot_history_functions", "plot_history_stats"]
)
def test_history_plots(tmp_path, fn):
    _, y = _graph()
    plot = getattr(lazy, fn)(y, filename=tmp_path / "h.png")
    assert (tmp_path / "h.png").stat().st_size > 1000
    assert plot.axes.get_xlabel()


def test_plot_large_graph_quickly(tmp_path):
    x = lazy.Variable((2,))
    y = x
    for i in range(2000):
        y = do("sin", y) + x if i % 3 else y * 2.0
    start = time.perf_counter()
    plot = lazy.plot_graph(y, tmp_path / "big.png")
    elapsed = time.perf_counter() - start
    assert plot.path == str(tmp_path / "big.png")
    assert (tmp_path / "big.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert plot.figure.axes == [plot.axes]
    # quickly: a layout quadratic in the ~3300 nodes takes minutes; this takes seconds
    assert elapsed < 60, f"plotting a 2000-step graph took {elapsed:.1f} s"
