"""The lazy array node: :class:`LazyArray`, its leaves and its Python protocol.

A :class:`LazyArray` is one node ``(fn_name, args, kwargs)`` of a graph. Its
arguments hold other nodes, constants (Python scalars, strings, slices...) and
constant leaves (arrays of any library, wrapped in a leaf node on first use).
Its shape and dtype are known when it is made (see ``_shapes``), and its
backend is the library of its leaves (the highest priority one: a torch leaf
wins over numpy constants), which is where :func:`compute` runs it.

Calls on nodes are recorded by ``_record`` (``do``, operators and methods all
go through its recorders); graphs are copied and pickled by ``_copy``.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Iterator
from typing import Any

import numpy as np

from dispatch.lazy import _shapes

_NODATA = object()  # the value of a node that is not computed (or a Variable)
_shapes._NODATA.append(_NODATA)
_WEAK = (int, float, complex, bool)


class LazyArray:
    """A node of a lazy computational graph: ``fn_name(*args, **kwargs)``.

    Made by :func:`array`, :func:`Variable`, or by calling ``do`` on lazy
    arrays. Shape and dtype are known before anything is computed.

    Parameters
    ----------
    backend : str
        The library that computes the node (that of its leaves).
    fn_name : str or None
        The ``do`` name; None for a leaf.
    args, kwargs
        Arguments; may hold other lazy arrays, also inside lists and tuples.
    shape : tuple of int
    dtype : str
        numpy-style dtype name.
    deps : tuple of LazyArray, optional
        The lazy arrays among the arguments (found when omitted).

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> x = lazy.array(np.arange(6.0).reshape(2, 3))
    >>> y = do("sum", do("sin", x) * 2, axis=0)
    >>> y.shape, y.dtype
    ((3,), 'float64')
    >>> y.compute().shape
    (3,)
    """

    __slots__ = (
        "__weakref__",
        "_args",
        "_backend",
        "_data",
        "_deps",
        "_depth",
        "_dtype",
        "_fn",
        "_kwargs",
        "_shape",
        "_token",
    )
    # set on first pickling only (see _copy.records); never read before
    _token: _copy._Token | None
    # numpy defers to our reflected operators: ``ndarray + lazy`` is lazy
    __array_ufunc__ = None

    def __init__(
        self,
        backend: str,
        fn_name: str | None,
        args: tuple = (),
        kwargs: dict | None = None,
        shape: tuple[int, ...] = (),
        dtype: str = "float64",
        deps: tuple | None = None,
    ):
        if deps is None:
            deps = tuple(_shapes._find_lazy(tuple(args), dict(kwargs or {})))
            deps = tuple(dict.fromkeys(deps))
        self._fn = _op(fn_name)
        self._args = tuple(args)
        self._kwargs = dict(kwargs) if kwargs else None
        self._shape = tuple(shape) if shape is not None else None
        self._dtype = dtype
        self._backend = backend
        self._data = _NODATA
        self._deps = deps
        self._depth = 1 + max((d._depth for d in deps), default=-1) if deps else 0

    # ---------------------------------------------------------------- constructors

    @classmethod
    def from_data(cls, data: Any) -> LazyArray:
        """A leaf holding a concrete array (of any library)."""
        if type(data) is LazyArray:
            return data
        return _leaf(data)

    @classmethod
    def from_shape(cls, shape: Any, backend: str = "numpy", dtype: Any = "float64") -> LazyArray:
        """A placeholder leaf with a shape and dtype but no data (see :func:`Variable`)."""
        return Variable(shape, dtype, backend)

    def to(
        self,
        fn: Any,
        args: tuple | None = None,
        kwargs: dict | None = None,
        backend: str | None = None,
        shape: tuple | None = None,
        dtype: str | None = None,
        deps: tuple | None = None,
    ) -> LazyArray:
        """A new node computing ``fn(*args, **kwargs)``; by default with this node's
        backend, shape and dtype, and this node as argument and only dependency.

        ``fn`` is a ``do`` name, or any callable (``operator.getitem`` is recorded
        as indexing). A node with a callable computes by calling it; in generated
        source the callable is a bound constant.

        Examples
        --------
        >>> import numpy as np, operator
        >>> from dispatch import lazy
        >>> x = lazy.array(np.arange(3.0))
        >>> y = x.to(np.cumsum)
        >>> y.to(operator.getitem, (y, 2), shape=()).compute()
        np.float64(3.0)
        """
        if fn is operator.getitem:
            fn = "getitem"
        elif not isinstance(fn, str) and not callable(fn):
            raise TypeError(
                f"LazyArray.to(fn={fn!r}): fn is a do name such as 'sum' or a callable"
            )
        return LazyArray(
            self._backend if backend is None else backend,
            fn,
            (self,) if args is None else args,
            kwargs,
            self._shape if shape is None else shape,
            self._dtype if dtype is None else dtype,
            (self,) if deps is None and args is None else deps,
        )

    # ---------------------------------------------------------------- properties

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self._shape:
            n *= d
        return n

    @property
    def dtype(self) -> str:
        """numpy-style dtype name, e.g. ``'float32'``."""
        return self._dtype

    @property
    def backend(self) -> str:
        return self._backend

    @property
    def fn_name(self) -> str | None:
        """The name of the function computing this node (None for a leaf or variable):
        a ``do`` name, or the ``__name__`` of a callable (a client's wrapper made with
        ``functools.wraps`` keeps the name it wraps)."""
        return fn_name(self._fn)

    @property
    def fn(self) -> Any:
        """A callable computing this node from concrete arguments (``do`` bound to the name)."""
        from dispatch.lazy._graph import node_function

        return None if self._fn is None else node_function(self._fn)

    @property
    def args(self) -> tuple:
        return self._args

    @property
    def kwargs(self) -> dict:
        return self._kwargs or {}

    @property
    def deps(self) -> tuple:
        return self._deps

    @property
    def depth(self) -> int:
        """Longest distance to a leaf."""
        return self._depth

    @property
    def is_variable(self) -> bool:
        """A placeholder leaf without data."""
        return self._fn is None and self._data is _NODATA

    @property
    def T(self) -> LazyArray:
        return _record.recorder("transpose")(self)

    @property
    def H(self) -> LazyArray:
        return _record.recorder("transpose")(_record.recorder("conj")(self))

    @property
    def real(self) -> LazyArray:
        return _record.recorder("real")(self)

    @property
    def imag(self) -> LazyArray:
        return _record.recorder("imag")(self)

    # ---------------------------------------------------------------- graph methods

    def compute(self) -> Any:
        """Compute this node (iteratively), store and return its value."""
        from dispatch.lazy._graph import compute

        return compute(self)

    def ascend(self) -> Iterator[LazyArray]:
        from dispatch.lazy._graph import ascend

        return ascend(self)

    def descend(self) -> Iterator[LazyArray]:
        from dispatch.lazy._graph import descend

        return descend(self)

    def get_source(self, params: dict | None = None) -> str:
        from dispatch.lazy._source import get_source

        return get_source(self, params)

    def get_function(self, variables: Any, fold_constants: bool = True) -> Any:
        from dispatch.lazy._source import Function

        return Function(variables, self, fold_constants=fold_constants)

    def show(self, filler: str = " ", max_lines: int | None = None,
             max_depth: int | None = None) -> None:
        from dispatch.lazy._graph import show

        show(self, filler=filler, max_lines=max_lines, max_depth=max_depth)

    def history_num_nodes(self) -> int:
        from dispatch.lazy._graph import history_num_nodes

        return history_num_nodes(self)

    def history_max_size(self) -> int:
        from dispatch.lazy._graph import history_max_size

        return history_max_size(self)

    def history_size_footprint(self, include_inputs: bool = True) -> list[int]:
        from dispatch.lazy._graph import history_size_footprint

        return history_size_footprint(self, include_inputs)

    def history_peak_size(self, include_inputs: bool = True) -> int:
        from dispatch.lazy._graph import history_peak_size

        return history_peak_size(self, include_inputs)

    def history_total_size(self) -> int:
        from dispatch.lazy._graph import history_total_size

        return history_total_size(self)

    def history_fn_frequencies(self) -> dict[str, int]:
        from dispatch.lazy._graph import history_fn_frequencies

        return history_fn_frequencies(self)

    def history_stats(self, fn: Any = "count") -> dict[str, int]:
        from dispatch.lazy._graph import history_stats

        return history_stats(self, fn)

    def to_nx_digraph(self, variables: Any = None) -> Any:
        from dispatch.lazy._graph import to_nx_digraph

        return to_nx_digraph(self, variables)

    def plot_graph(self, filename: Any = None, **kwargs: Any) -> Any:
        from dispatch.lazy._plot import plot_graph

        return plot_graph(self, filename, **kwargs)

    def plot_history_size_footprint(self, filename: Any = None, **kwargs: Any) -> Any:
        from dispatch.lazy._plot import plot_history_size_footprint

        return plot_history_size_footprint(self, filename, **kwargs)

    def plot_history_functions(self, filename: Any = None, **kwargs: Any) -> Any:
        from dispatch.lazy._plot import plot_history_functions

        return plot_history_functions(self, filename, **kwargs)

    def plot_history_stats(self, fn: Any = "count", filename: Any = None,
                           **kwargs: Any) -> Any:
        from dispatch.lazy._plot import plot_history_stats

        return plot_history_stats(self, fn, filename, **kwargs)

    # ---------------------------------------------------------------- python protocol

    def __repr__(self) -> str:
        # autoray's form, which its clients compare as text: the function's name (None
        # for a leaf or a variable), the shape and the backend
        return (
            f"<LazyArray(fn={fn_name(self._fn)}, shape={self._shape}, "
            f"backend={self._backend!r})>"
        )

    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self) -> Iterator[LazyArray]:
        for i in range(len(self)):
            yield self[i]

    def __bool__(self) -> bool:
        raise TypeError(
            "the truth value of a lazy array is not known before computing it; "
            "call .compute() first"
        )

    def __getitem__(self, key: Any) -> LazyArray:
        return _record.recorder("getitem")(self, key)

    # ---------------------------------------------------------------- copy and pickle
    # A graph is copied and pickled node by node in topological order, never by
    # recursion along its edges (the default protocol recurses once per node, so a
    # chain of a few thousand nodes hit the recursion limit).

    def __copy__(self) -> LazyArray:
        """A new node with the same function, arguments, dependencies and data."""
        n = object.__new__(LazyArray)
        for slot in _FIELDS:
            setattr(n, slot, getattr(self, slot))
        return n

    def __deepcopy__(self, memo: dict) -> LazyArray:
        """Copy the whole graph below this node, sharing nodes as the original does
        (also with other objects copied in the same ``deepcopy`` call)."""
        for node in _copy.graph_order(self):
            if id(node) in memo:
                continue
            n = object.__new__(LazyArray)
            memo[id(node)] = n
            n._fn = node._fn
            # the dependencies are in ``memo`` already: copying the arguments finds
            # them there instead of recursing into them
            n._args = copy.deepcopy(node._args, memo)
            n._kwargs = copy.deepcopy(node._kwargs, memo)
            n._shape = node._shape
            n._dtype = node._dtype
            n._backend = node._backend
            n._data = node._data if node._data is _NODATA else copy.deepcopy(node._data, memo)
            n._deps = tuple(memo[id(d)] for d in node._deps)
            n._depth = node._depth
        return memo[id(self)]

    def __reduce__(self) -> tuple:
        return (_copy.rebuild, (_copy.records(self),))

    def reshape(self, *shape: Any, **kwargs: Any) -> LazyArray:
        if len(shape) == 1:
            shape = shape[0]
        return _record.recorder("reshape")(self, shape, **kwargs)

    def transpose(self, *axes: Any) -> LazyArray:
        perm: Any = axes
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            perm = axes[0]
        return _record.recorder("transpose")(self, perm or None)

    def astype(self, dtype: Any, **kwargs: Any) -> LazyArray:
        return _record.recorder("astype")(self, dtype, **kwargs)

    def conj(self) -> LazyArray:
        return _record.recorder("conj")(self)

    def ravel(self) -> LazyArray:
        return _record.recorder("ravel")(self)

    flatten = ravel

    def squeeze(self, axis: Any = None) -> LazyArray:
        return _record.recorder("squeeze")(self, axis)

    def sum(self, axis: Any = None, **kwargs: Any) -> LazyArray:
        return _record.recorder("sum")(self, axis, **kwargs)

    def mean(self, axis: Any = None, **kwargs: Any) -> LazyArray:
        return _record.recorder("mean")(self, axis, **kwargs)

    def max(self, axis: Any = None, **kwargs: Any) -> LazyArray:
        return _record.recorder("max")(self, axis, **kwargs)

    def min(self, axis: Any = None, **kwargs: Any) -> LazyArray:
        return _record.recorder("min")(self, axis, **kwargs)

    def clip(self, a_min: Any = None, a_max: Any = None) -> LazyArray:
        return _record.recorder("clip")(self, a_min, a_max)


_FIELDS = ("_fn", "_args", "_kwargs", "_shape", "_dtype", "_backend", "_data", "_deps", "_depth")


def _binop(name: str, reflected: bool = False) -> Any:
    box: list = []

    def op(self: LazyArray, other: Any) -> Any:
        t = type(other)
        if not (t is LazyArray or t in _WEAK or isinstance(other, np.generic)) and (
            not _is_foreign_array(other) or _outranked(other)
        ):
            return NotImplemented
        if not box:
            box.append(_record.recorder(name))
        return box[0](other, self) if reflected else box[0](self, other)

    op.__name__ = f"__{'r' if reflected else ''}{name}__"
    return op


def _unop(name: str) -> Any:
    def op(self: LazyArray) -> LazyArray:
        return _record.recorder(name)(self)

    return op


for _dunder, _name in (
    ("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "divide"),
    ("floordiv", "floor_divide"), ("mod", "mod"), ("pow", "power"), ("matmul", "matmul"),
    ("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor"),
):
    setattr(LazyArray, f"__{_dunder}__", _binop(_name))
    setattr(LazyArray, f"__r{_dunder}__", _binop(_name, reflected=True))
for _dunder, _name in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"),
                       ("ge", "greater_equal")):
    setattr(LazyArray, f"__{_dunder}__", _binop(_name))
for _dunder, _name in (("neg", "negative"), ("pos", "positive"), ("abs", "abs"),
                       ("invert", "invert")):
    setattr(LazyArray, f"__{_dunder}__", _unop(_name))


def _outranked(other: Any) -> bool:
    """Another tracer type (e.g. the linear tracer) that should handle the operator."""
    from dispatch._infer import backend_of_type

    b = backend_of_type(type(other))
    if b is None or b == "lazy":
        return False
    from dispatch import _registry as reg

    return reg.priority(b) > reg.priority("lazy")


# ---------------------------------------------------------------- leaves


def _is_foreign_array(a: Any) -> bool:
    return (
        hasattr(a, "shape") and hasattr(a, "dtype") and not isinstance(a, (np.generic, type))
        and type(a) is not LazyArray
    )


def _backend_of_data(data: Any) -> str:
    from dispatch._infer import backend_of_type

    return backend_of_type(type(data)) or "numpy"


def _leaf(data: Any) -> LazyArray:
    n = object.__new__(LazyArray)
    n._fn = None
    n._args = ()
    n._kwargs = None
    if isinstance(data, _WEAK):
        n._shape = ()
        n._dtype = np.asarray(data).dtype.name if type(data) is not bool else "bool"
    else:
        n._shape = tuple(map(int, data.shape))
        n._dtype = _shapes.dtype_name(data.dtype)
    n._backend = _backend_of_data(data)
    n._data = data
    n._deps = ()
    n._depth = 0
    return n


def array(x: Any) -> LazyArray:
    """Wrap a concrete array (of any library) as a lazy leaf.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import lazy
    >>> lazy.array(np.ones((2, 3)))
    <LazyArray(fn=None, shape=(2, 3), backend='numpy')>
    """
    if type(x) is LazyArray:
        return x
    if isinstance(x, (list, tuple)):
        x = np.asarray(x)
    return _leaf(x)


def Variable(shape: Any, dtype: Any = "float64", backend: str = "numpy") -> LazyArray:
    """A placeholder leaf: shape, dtype and backend but no data.

    Graphs built on variables can be planned (shapes, sizes, costs) and turned
    into a :class:`Function`, but not computed directly.

    Parameters
    ----------
    shape : tuple of int
    dtype : str or dtype, default "float64"
    backend : str, default "numpy"
        The library whose arrays will be fed in.

    Examples
    --------
    >>> from dispatch import do, lazy
    >>> x = lazy.Variable((3, 4))
    >>> do("matmul", x, do("transpose", x)).shape
    (3, 3)
    """
    n = object.__new__(LazyArray)
    n._fn = None
    n._args = ()
    n._kwargs = None
    n._shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(map(int, shape))
    n._dtype = _shapes.dtype_name(dtype)
    n._backend = backend
    n._data = _NODATA
    n._deps = ()
    n._depth = 0
    return n


def _node(fn: str, args: tuple, kwargs: dict | None, shape: Any, dtype: Any,
          backend: str, deps: tuple, depth: int) -> LazyArray:
    n = object.__new__(LazyArray)
    n._fn = _op(fn)
    n._args = args
    n._kwargs = kwargs
    n._shape = shape
    n._dtype = dtype
    n._backend = backend
    n._data = _NODATA
    n._deps = deps
    n._depth = depth
    return n


class _Op(str):
    """A node's function name that can also be called on concrete arguments.

    autoray's nodes hold their function, and its clients wrap it (a check around
    ``node._fn``): the name compares, hashes and prints as the plain name.
    """

    __slots__ = ()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from dispatch.lazy._graph import node_function

        return node_function(str(self))(*args, **kwargs)

    @property
    def __name__(self) -> str:  # type: ignore[override]  # what functools.wraps copies
        return str(self)


def fn_name(fn: Any) -> str | None:
    """The name a node's function prints and counts as: the name itself, or a
    callable's ``__name__`` (its ``str`` where it has none)."""
    if fn is None or isinstance(fn, str):
        return None if fn is None else str(fn)
    return getattr(fn, "__name__", None) or str(fn)


_OPS: dict[str, _Op] = {}


def _op(fn: Any) -> Any:
    """The callable name of ``fn`` (one per name), or ``fn`` itself (None, a callable)."""
    if type(fn) is not str:
        return fn
    try:
        return _OPS[fn]
    except KeyError:
        return _OPS.setdefault(fn, _Op(fn))


def is_lazy(x: Any) -> bool:
    return type(x) is LazyArray


_shapes._LAZY.append(LazyArray)
__all__ = ["LazyArray", "Variable", "array"]


# pickles written before graphs were copied and pickled by ``_copy`` name these here
_MOVED = {"_rebuild": "rebuild", "_Token": "_Token", "_Ref": "_Ref"}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        return getattr(_copy, _MOVED[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# recording and copying build on the node and are used only at call time: imported
# last, so that either may be imported first
from dispatch.lazy import _copy, _record  # noqa: E402
