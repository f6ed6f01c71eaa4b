"""The lazy array node and the recording of ``do`` calls into nodes.

A :class:`LazyArray` is one node ``(fn_name, args, kwargs)`` of a graph. Its
arguments hold other nodes, constants (Python scalars, strings, slices...) and
constant leaves (arrays of any library, wrapped in a leaf node on first use).
Its shape and dtype are known when it is made (see ``_shapes``), and its
backend is the library of its leaves (the highest priority one: a torch leaf
wins over numpy constants), which is where :func:`compute` runs it.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import operator
import struct
import weakref
from collections.abc import Iterator
from typing import Any

import numpy as np

from dispatch.lazy import _shapes
from dispatch.lazy._shapes import ShapeError, broadcast, eval_dtype, infer

_NODATA = object()  # the value of a node that is not computed (or a Variable)
_shapes._NODATA.append(_NODATA)
_WEAK = (int, float, complex, bool)
_INERT = frozenset(
    {int, float, complex, bool, str, type(None), slice, type(Ellipsis), np.dtype, type}
)
# contexts of shared_intermediates: a stack of dicts, the innermost in use. A context
# variable: a block in one thread (or asyncio task) shares nothing with another
_SHARED: contextvars.ContextVar[tuple[dict, ...]] = contextvars.ContextVar(
    "dispatch_lazy_shared", default=()
)


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
    # set on first pickling only (see _records); never read before
    _token: _Token | None
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
        self._fn = fn_name
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
        return self._fn

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
        return _rec("transpose")(self)

    @property
    def H(self) -> LazyArray:
        return _rec("transpose")(_rec("conj")(self))

    @property
    def real(self) -> LazyArray:
        return _rec("real")(self)

    @property
    def imag(self) -> LazyArray:
        return _rec("imag")(self)

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
        if self._fn is None:
            kind = "variable" if self._data is _NODATA else "leaf"
        else:
            kind = f"fn={self._fn}"
        return (
            f"<LazyArray({kind}, shape={self._shape}, dtype={self._dtype}, "
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
        return _rec("getitem")(self, key)

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
        for node in _graph_order(self):
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
        return (_rebuild, (_records(self),))

    def reshape(self, *shape: Any, **kwargs: Any) -> LazyArray:
        if len(shape) == 1:
            shape = shape[0]
        return _rec("reshape")(self, shape, **kwargs)

    def transpose(self, *axes: Any) -> LazyArray:
        perm: Any = axes
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            perm = axes[0]
        return _rec("transpose")(self, perm or None)

    def astype(self, dtype: Any, **kwargs: Any) -> LazyArray:
        return _rec("astype")(self, dtype, **kwargs)

    def conj(self) -> LazyArray:
        return _rec("conj")(self)

    def ravel(self) -> LazyArray:
        return _rec("ravel")(self)

    flatten = ravel

    def squeeze(self, axis: Any = None) -> LazyArray:
        return _rec("squeeze")(self, axis)

    def sum(self, axis: Any = None, **kwargs: Any) -> LazyArray:
        return _rec("sum")(self, axis, **kwargs)

    def mean(self, axis: Any = None, **kwargs: Any) -> LazyArray:
        return _rec("mean")(self, axis, **kwargs)

    def max(self, axis: Any = None, **kwargs: Any) -> LazyArray:
        return _rec("max")(self, axis, **kwargs)

    def min(self, axis: Any = None, **kwargs: Any) -> LazyArray:
        return _rec("min")(self, axis, **kwargs)

    def clip(self, a_min: Any = None, a_max: Any = None) -> LazyArray:
        return _rec("clip")(self, a_min, a_max)


_FIELDS = ("_fn", "_args", "_kwargs", "_shape", "_dtype", "_backend", "_data", "_deps", "_depth")


def _graph_order(root: LazyArray) -> list[LazyArray]:
    """Every node below ``root`` (itself included), each after its dependencies;
    iterative, so that the depth of the graph does not matter."""
    order: list[LazyArray] = []
    seen = {id(root)}
    stack = [(root, iter(_children(root)))]
    while stack:
        node, it = stack[-1]
        for child in it:
            if id(child) not in seen:
                seen.add(id(child))
                stack.append((child, iter(_children(child))))
                break
        else:
            stack.pop()
            order.append(node)
    return order


def _children(node: LazyArray) -> tuple:
    # deps normally hold every lazy argument; ``to(..., deps=...)`` may say less
    found = _shapes._find_lazy(node._args, node._kwargs or {})
    return (*node._deps, *found) if found else node._deps


class _Token:
    """Pickled with each node, so that nodes shared by several pickled graphs (one
    ``pickle.dumps((y, x))``) are one node again after loading: the first graph to
    load records its node on the token, the others find it there."""

    __slots__ = ("__weakref__", "node")

    def __init__(self) -> None:
        self.node: Any = None

    def __reduce__(self) -> tuple:
        return (_Token, ())  # never the loaded node (a weak reference) itself


class _Ref:
    """Stands for the ``i``-th node of a pickled graph inside arguments."""

    __slots__ = ("i",)

    def __init__(self, i: int):
        self.i = i

    def __reduce__(self) -> tuple:
        return (_Ref, (self.i,))


def _encode(obj: Any, index: dict) -> Any:
    if type(obj) is LazyArray:
        return _Ref(index[id(obj)])
    if isinstance(obj, (list, tuple)) and not hasattr(obj, "_fields"):
        return type(obj)(_encode(o, index) for o in obj)
    if type(obj) is dict:
        return {k: _encode(v, index) for k, v in obj.items()}
    return obj


def _decode(obj: Any, nodes: list) -> Any:
    if type(obj) is _Ref:
        return nodes[obj.i]
    if isinstance(obj, (list, tuple)) and not hasattr(obj, "_fields"):
        return type(obj)(_decode(o, nodes) for o in obj)
    if type(obj) is dict:
        return {k: _decode(v, nodes) for k, v in obj.items()}
    return obj


def _records(root: LazyArray) -> tuple:
    """The graph below ``root`` as a flat tuple of node records, root last."""
    order = _graph_order(root)
    index = {id(n): i for i, n in enumerate(order)}
    out = []
    for n in order:
        token = getattr(n, "_token", None)
        if token is None:
            token = n._token = _Token()
        has_data = n._data is not _NODATA
        args, kwargs = _encode(n._args, index), _encode(n._kwargs, index)
        data = n._data if has_data else None
        deps = tuple(index[id(d)] for d in n._deps)
        fields = (n._fn, args, kwargs, n._shape, n._dtype, n._backend, has_data, data, deps)
        out.append((token, *fields, n._depth))
    return tuple(out)


def _rebuild(records: tuple) -> LazyArray:
    """Unpickle a graph written by :meth:`LazyArray.__reduce__`."""
    nodes: list[LazyArray] = []
    for token, fn, args, kwargs, shape, dtype, backend, has_data, data, deps, depth in records:
        known = token.node() if token.node is not None else None
        if known is not None:  # loaded already, with another graph of the same pickle
            nodes.append(known)
            continue
        n = object.__new__(LazyArray)
        n._fn = fn
        n._args = _decode(args, nodes)
        n._kwargs = _decode(kwargs, nodes)
        n._shape = shape
        n._dtype = dtype
        n._backend = backend
        n._data = data if has_data else _NODATA
        n._deps = tuple(nodes[i] for i in deps)
        n._depth = depth
        n._token = token
        token.node = weakref.ref(n)
        nodes.append(n)
    return nodes[-1]


def _binop(name: str, reflected: bool = False) -> Any:
    box: list = []

    def op(self: LazyArray, other: Any) -> Any:
        t = type(other)
        if not (t is LazyArray or t in _WEAK or isinstance(other, np.generic)) and (
            not _is_foreign_array(other) or _outranked(other)
        ):
            return NotImplemented
        if not box:
            box.append(recorder(name))
        return box[0](other, self) if reflected else box[0](self, other)

    op.__name__ = f"__{'r' if reflected else ''}{name}__"
    return op


def _unop(name: str) -> Any:
    def op(self: LazyArray) -> LazyArray:
        return recorder(name)(self)

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


_RECORDERS: dict[str, Any] = {}


def recorder(name: str) -> Any:
    """The (cached) function recording calls of ``name`` on lazy arrays."""
    try:
        return _RECORDERS[name]
    except KeyError:
        fn = _RECORDERS[name] = make_recorder(name)
        return fn


_rec = recorder


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
    <LazyArray(leaf, shape=(2, 3), dtype=float64, backend='numpy')>
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


# ---------------------------------------------------------------- recording


def _node(fn: str, args: tuple, kwargs: dict | None, shape: Any, dtype: Any,
          backend: str, deps: tuple, depth: int) -> LazyArray:
    n = object.__new__(LazyArray)
    n._fn = fn
    n._args = args
    n._kwargs = kwargs
    n._shape = shape
    n._dtype = dtype
    n._backend = backend
    n._data = _NODATA
    n._deps = deps
    n._depth = depth
    return n


_PRIORITY: dict[str, float] = {}


def _priority(b: str) -> float:
    try:
        return _PRIORITY[b]
    except KeyError:
        from dispatch import _registry as reg

        try:
            p = reg.priority(b)
        except Exception:
            p = 0
        _PRIORITY[b] = p
        return p


def _backend(deps: tuple) -> str:
    b = deps[0]._backend
    for d in deps[1:]:
        c = d._backend
        if c != b and _priority(c) > _priority(b):
            b = c
    return b


def _wrap(a: Any, deps: list) -> Any:
    """Replace foreign arrays in ``a`` by constant leaves, collecting lazy deps."""
    t = type(a)
    if t is LazyArray:
        deps.append(a)
        return a
    if t in _INERT:
        return a
    if t is list or t is tuple:
        out = [_wrap(e, deps) for e in a]
        if all(x is y for x, y in zip(out, a, strict=False)):
            return a
        return t(out)
    if _is_foreign_array(a):
        shared = _SHARED.get()
        if shared:
            cache = shared[-1]
            key = ("<leaf>", id(a))
            hit = cache.get(key)
            if hit is not None and hit._data is a:
                deps.append(hit)
                return hit
            leaf = cache[key] = _leaf(a)
        else:
            leaf = _leaf(a)
        deps.append(leaf)
        return leaf
    return a


def record(name: str, args: tuple, kwargs: dict) -> Any:
    """Record ``do(name, *args, **kwargs)`` as a node (the general path)."""
    like = kwargs.get("like") if kwargs else None
    if type(like) is LazyArray:
        # creation with like=<lazy>: the example gives the library and the dtype
        from dispatch.translations._vocabulary import CREATION

        kwargs = {**kwargs, "like": like._backend}
        if name in CREATION and kwargs.get("dtype") is None and like._dtype:
            from dispatch import do

            kwargs["dtype"] = do("to_backend_dtype", like._dtype, like=like._backend)
    found: list = []
    args = tuple(_wrap(a, found) for a in args)
    if kwargs:
        kwargs = {k: _wrap(v, found) for k, v in kwargs.items()}
    if not found:
        # nothing lazy (creation with like=<lazy>): compute now, keep as a constant
        return _constant(name, args, kwargs)
    deps = tuple(dict.fromkeys(found)) if len(found) > 1 else tuple(found)
    shared = _SHARED.get()
    key = None
    if shared:
        key = _share_key(name, args, kwargs)
        if key is not None:
            hit = shared[-1].get(key)
            if hit is not None:
                return hit
    try:
        res = infer(name, args, kwargs)
    except ShapeError:
        if _has_variables(deps):
            raise
        return _eager(name, args, kwargs)
    backend = _backend(deps)
    depth = 1 + max(d._depth for d in deps)
    if isinstance(res, list):
        parent = _node(name, args, kwargs or None, None, None, backend, deps, depth)
        out: Any = tuple(
            _node("getitem", (parent, i), None, s, d, backend, (parent,), depth + 1)
            for i, (s, d) in enumerate(res)
        )
    else:
        out = _node(name, args, kwargs or None, res[0], res[1], backend, deps, depth)
    if key is not None:
        shared[-1][key] = out
    return out


def _constant(name: str, args: tuple, kwargs: dict) -> Any:
    from dispatch import do

    return _as_leaves(do(name, *args, **kwargs))


def _as_leaves(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_as_leaves(v) for v in value)
    if type(value) is LazyArray or not _is_foreign_array(value):
        return value
    return _leaf(value)


def _eager(name: str, args: tuple, kwargs: dict) -> Any:
    """A data-dependent call on a graph without variables: compute it now."""
    from dispatch.lazy._graph import evaluate, node_function

    values = evaluate([list(args), kwargs])
    return _as_leaves(node_function(name)(*values[0], **values[1]))


def _has_variables(deps: tuple) -> bool:
    from dispatch.lazy._graph import ascend

    return any(n._fn is None and n._data is _NODATA for n in ascend(list(deps)))


def _share_key(name: str, args: tuple, kwargs: dict) -> Any:
    try:
        key = (name, _hk(args), _hk(kwargs) if kwargs else None)
        hash(key)
    except TypeError:
        return None
    return key


def _hk(obj: Any) -> Any:
    """A key equal only for arguments that give the same call: by type, and floats by
    their bits (``0.0 == -0.0``, ``1 == 1.0 == True`` and ``nan != nan`` in Python)."""
    t = type(obj)
    if t is LazyArray:
        return ("L", id(obj))
    if t is float:
        return ("f", struct.pack("<d", obj))
    if t is complex:
        return ("c", struct.pack("<dd", obj.real, obj.imag))
    if isinstance(obj, np.generic):
        return ("g", obj.dtype.str, obj.tobytes())
    if t is tuple or t is list:
        return (t.__name__, *(_hk(o) for o in obj))
    if t is dict:
        return ("d", *sorted((_hk(k), _hk(v)) for k, v in obj.items()))
    if t is slice:
        return ("s", _hk(obj.start), _hk(obj.stop), _hk(obj.step))
    return (t, obj)


def sharing_cache() -> dict | None:
    """The cache of the innermost active :func:`shared_intermediates` block, or None."""
    shared = _SHARED.get()
    return shared[-1] if shared else None


@contextlib.contextmanager
def shared_intermediates(cache: dict | None = None) -> Iterator[dict]:
    """Within the block, identical lazy calls return the same node.

    A call is identical when the function name, the lazy arguments (by
    identity), constant arrays (by identity) and every other argument (by value)
    match. Nodes are kept alive until the block exits and the yielded cache is
    released; pass the cache to a later block to resume sharing.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> x = lazy.array(np.ones(3))
    >>> with lazy.shared_intermediates() as cache:
    ...     a = do("sin", x)
    ...     b = do("sin", x)
    >>> a is b
    True
    """
    cache = {} if cache is None else cache
    token = _SHARED.set((*_SHARED.get(), cache))
    try:
        yield cache
    finally:
        _SHARED.reset(token)


# ---------------------------------------------------------------- fast recorders


def make_recorder(name: str) -> Any:
    """The function ``do(name, ...)`` calls on lazy arrays (fast paths for
    elementwise calls without keywords)."""
    from dispatch.translations import _vocabulary as vocabulary

    if name in _UNARY_NAMES or name in vocabulary.ELEMENTWISE_UNARY:
        return _unary_recorder(name)
    if name in vocabulary.ELEMENTWISE_BINARY:
        return _binary_recorder(name)

    def rec(*args: Any, **kwargs: Any) -> Any:
        return record(name, args, kwargs)

    rec.__name__ = rec.__qualname__ = name
    return rec


_UNARY_NAMES = frozenset({"negative", "positive", "abs", "conj"})


def _unary_recorder(name: str) -> Any:
    dts: dict = {}

    def rec(x: Any, *args: Any, **kwargs: Any) -> Any:
        if type(x) is LazyArray and not args and not kwargs and not _SHARED.get():
            d = x._dtype
            try:
                dt = dts[d]
            except KeyError:
                dt = dts[d] = eval_dtype(name, (d,))
            t = (x,)  # one tuple serves as arguments and dependencies
            return _node(name, t, None, x._shape, dt, x._backend, t, x._depth + 1)
        return record(name, (x, *args), kwargs)

    rec.__name__ = rec.__qualname__ = name
    return rec


def _binary_recorder(name: str) -> Any:
    dts: dict = {}

    def rec(a: Any, b: Any, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs and not _SHARED.get():
            ta = type(a)
            tb = type(b)
            if ta is LazyArray:
                if tb is LazyArray:
                    sa = a._shape
                    sb = b._shape
                    shape = sa if sa == sb else broadcast(sa, sb)
                    key = (a._dtype, b._dtype)
                    try:
                        dt = dts[key]
                    except KeyError:
                        dt = dts[key] = eval_dtype(name, key)
                    args = (a, b)
                    if a is b:
                        deps: tuple = (a,)
                        depth = a._depth + 1
                    else:
                        deps = args
                        depth = 1 + (a._depth if a._depth > b._depth else b._depth)
                    ba = a._backend
                    bb = b._backend
                    if ba != bb and _priority(bb) > _priority(ba):
                        ba = bb
                    return _node(name, args, None, shape, dt, ba, deps, depth)
                if tb in _WEAK:
                    key = (a._dtype, tb)
                    try:
                        dt = dts[key]
                    except KeyError:
                        dt = dts[key] = eval_dtype(name, key)
                    return _node(name, (a, b), None, a._shape, dt, a._backend, (a,),
                                 a._depth + 1)
            elif tb is LazyArray and ta in _WEAK:
                key = (ta, b._dtype)
                try:
                    dt = dts[key]
                except KeyError:
                    dt = dts[key] = eval_dtype(name, key)
                return _node(name, (a, b), None, b._shape, dt, b._backend, (b,), b._depth + 1)
        return record(name, (a, b, *args), kwargs)

    rec.__name__ = rec.__qualname__ = name
    return rec


def is_lazy(x: Any) -> bool:
    return type(x) is LazyArray


_shapes._LAZY.append(LazyArray)
__all__ = ["LazyArray", "Variable", "array", "record", "shared_intermediates"]
