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

from dispatch._registry import alias_backend as _alias_backend
from dispatch._registry import register_backend as _register_backend
from dispatch.lazy import core
from dispatch.lazy._array import LazyArray, Variable, array
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
from dispatch.lazy._linear import LinearTracer, NonLinearError
from dispatch.lazy._linear_trace import matrix_from_function
from dispatch.lazy._plot import (
    plot_graph,
    plot_history_functions,
    plot_history_size_footprint,
    plot_history_stats,
)
from dispatch.lazy._record import shared_intermediates
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
    "core",
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



# autoray.lazy's module-level functions (``lazy.stack``, ``lazy.linalg.qr``...): each
# records a node; arrays it returns are lazy even when no argument was
_FUNCTIONS = frozenset(
    """abs add all allclose angle any arccos arccosh arcsin arcsinh arctan arctanh argmax
    argmin argsort broadcast_to clip complex concatenate conj cos cosh count_nonzero cumsum
    diag diagonal einsum empty equal exp expand_dims eye flip floordivide identity imag kron
    log log2 log10 matmul max mean min moveaxis multiply ones permute_dims prod real reshape
    sign sin sinh sort split sqrt stack std sum swapaxes take take_along_axis tan tanh
    tensordot trace transpose truedivide var where zeros""".split()
)
_RENAMED = {"floordivide": "floor_divide", "truedivide": "true_divide"}


class _Submodule:
    """``lazy.linalg``: the lazy functions of a submodule."""

    def __init__(self, prefix: str):
        self._prefix = prefix

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return _lazy_function(f"{self._prefix}.{name}")


def _lazy_function(name: str) -> Any:
    from dispatch.lazy import _ops

    recorder = _ops._recorder(_RENAMED.get(name, name))

    def fn(*args: Any, **kwargs: Any) -> Any:
        return _as_lazy(recorder(*args, **kwargs))

    fn.__name__ = fn.__qualname__ = name.rsplit(".", 1)[-1]
    fn.__doc__ = f"Record ``do({name!r}, ...)`` as a lazy node."
    return fn


def _as_lazy(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_as_lazy(v) for v in value)
    if isinstance(value, LazyArray) or not hasattr(value, "shape"):
        return value
    return LazyArray.from_data(value)


def __getattr__(name: str) -> Any:
    if name == "linalg":
        return _Submodule("linalg")
    if name in _FUNCTIONS:
        return _lazy_function(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    _alias_backend("autoray.lazy", "lazy")  # the lazy backend's name in autoray's clients


_register()
