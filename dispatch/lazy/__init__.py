"""Lazy arrays: record ``do`` calls as a graph, know shapes before computing,
compute iteratively, write the graph as Python, compile it, trace linear maps.

Importing this module registers the ``"lazy"`` backend: ``do(name, x, ...)``
with any :class:`LazyArray` among the arguments records a node instead of
computing, whatever the name. Arrays of other libraries in the same call
become constant leaves of the graph.

>>> import numpy as np
>>> from dispatch import do, lazy
>>> x = lazy.Variable((2, 3))
>>> y = do("tanh", do("matmul", x, do("transpose", x)))
>>> y.shape
(2, 2)
>>> f = lazy.Function(x, y)
>>> f(np.zeros((2, 3)))
array([[0., 0.],
       [0., 0.]])
"""

from __future__ import annotations

from typing import Any

from dispatch._registry import register_backend as _register_backend
from dispatch.lazy._array import LazyArray, Variable, array, shared_intermediates
from dispatch.lazy._graph import (
    ascend,
    compute,
    descend,
    history_fn_frequencies,
    history_max_size,
    history_num_nodes,
    history_peak_size,
    history_size_footprint,
    history_stats,
    history_total_size,
    show,
    to_nx_digraph,
)
from dispatch.lazy._jit import autojit, jit_function
from dispatch.lazy._linear import LinearTracer, NonLinearError, matrix_from_function
from dispatch.lazy._plot import (
    plot_graph,
    plot_history_functions,
    plot_history_size_footprint,
    plot_history_stats,
)
from dispatch.lazy._shapes import ShapeError, register_shape_rule
from dispatch.lazy._source import Function, get_source

__all__ = [
    "Function",
    "LazyArray",
    "LinearTracer",
    "NonLinearError",
    "ShapeError",
    "Variable",
    "array",
    "ascend",
    "autojit",
    "compute",
    "descend",
    "get_source",
    "history_fn_frequencies",
    "history_max_size",
    "history_num_nodes",
    "history_peak_size",
    "history_size_footprint",
    "history_stats",
    "history_total_size",
    "jit_function",
    "matrix_from_function",
    "plot_graph",
    "plot_history_functions",
    "plot_history_size_footprint",
    "plot_history_stats",
    "register_shape_rule",
    "shared_intermediates",
    "show",
    "to_nx_digraph",
]



def _resolve(name: str) -> Any:
    """Every name records a node, except the few answered from the node itself."""
    from dispatch.lazy import _ops

    fn = _ops.__dict__.get(name) if "." not in name else None
    if callable(fn) and not isinstance(fn, type) and getattr(fn, "__module__", "") == _ops.__name__:
        return fn
    return _ops._recorder(name)


def _register() -> None:
    _register_backend(LazyArray, "lazy", module="dispatch.lazy._ops", priority=1, resolver=_resolve)
    _register_backend(LinearTracer, "linear", module="dispatch.lazy._linear_ops", priority=2)


_register()
