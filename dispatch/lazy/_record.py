"""Recording ``do`` calls on lazy arrays as nodes.

:func:`recorder` gives the function that ``do(name, ...)`` calls when a lazy
array is among the arguments (also for operators and methods of
:class:`~dispatch.lazy.LazyArray`): a fast path for elementwise calls without
keywords, and :func:`record`, the general path, which wraps arrays of other
libraries as constant leaves, finds the shape and dtype (``_shapes``), and
computes at once a data-dependent call on a graph without variables.
:func:`shared_intermediates` makes identical calls return the same node.
"""

from __future__ import annotations

import contextlib
import contextvars
import struct
from collections.abc import Iterator
from typing import Any

import numpy as np

from dispatch.lazy._array import _NODATA, _WEAK, LazyArray, _is_foreign_array, _leaf, _node
from dispatch.lazy._shapes import ShapeError, broadcast, eval_dtype, infer

_INERT = frozenset(
    {int, float, complex, bool, str, type(None), slice, type(Ellipsis), np.dtype, type}
)
# contexts of shared_intermediates: a stack of dicts, the innermost in use. A context
# variable: a block in one thread (or asyncio task) shares nothing with another
_SHARED: contextvars.ContextVar[tuple[dict, ...]] = contextvars.ContextVar(
    "dispatch_lazy_shared", default=()
)


# ---------------------------------------------------------------- recording


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

    fold = _FOLDS.get(name)
    if fold is not None:

        def folding(*args: Any, **kwargs: Any) -> Any:
            found = fold(args, kwargs)
            if type(found) is LazyArray:
                return found
            return record(name, *(found or (args, kwargs)))

        folding.__name__ = folding.__qualname__ = name
        return folding

    def rec(*args: Any, **kwargs: Any) -> Any:
        return record(name, args, kwargs)

    rec.__name__ = rec.__qualname__ = name
    return rec


def _pending(x: Any, name: str) -> bool:
    """``x`` is an uncomputed ``name`` node with positional arguments only."""
    return type(x) is LazyArray and x._fn == name and x._kwargs is None and x._data is _NODATA


def _fold_transpose(args: tuple, kwargs: dict) -> Any:
    """``transpose(transpose(x, a), b)`` is one node ``transpose(x, a[b])``: chains of
    permutations (einsum and tensordot rewrites make them) stay one node deep."""
    if kwargs or len(args) != 2 or not _pending(args[0], "transpose") or len(args[0]._args) != 2:
        return None
    inner, outer = args[0]._args[1], args[1]
    if not isinstance(inner, (tuple, list)) or not isinstance(outer, (tuple, list)):
        return None
    return (args[0]._args[0], tuple(inner[i] for i in outer)), {}


def _fold_reshape(args: tuple, kwargs: dict) -> Any:
    """``reshape(reshape(x, s), t)`` is one node ``reshape(x, t)`` (C order both)."""
    if kwargs or len(args) != 2 or not _pending(args[0], "reshape"):
        return None
    return (args[0]._args[0], args[1]), {}


def _swapaxes_noop(args: tuple, kwargs: dict) -> Any:
    """``swapaxes(x, i, i)`` is ``x`` itself: no node."""
    if kwargs or len(args) != 3 or type(args[0]) is not LazyArray or args[0]._shape is None:
        return None
    n = len(args[0]._shape)
    i, j = args[1], args[2]
    if isinstance(i, int) and isinstance(j, int) and -n <= i < n and i % n == j % n:
        return args[0]
    return None


# rewrites made while recording: an equal graph with fewer nodes
_FOLDS = {"transpose": _fold_transpose, "reshape": _fold_reshape, "swapaxes": _swapaxes_noop}


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


_RECORDERS: dict[str, Any] = {}


def recorder(name: str) -> Any:
    """The (cached) function recording calls of ``name`` on lazy arrays."""
    try:
        return _RECORDERS[name]
    except KeyError:
        fn = _RECORDERS[name] = make_recorder(name)
        return fn




__all__ = ["record", "recorder", "shared_intermediates", "sharing_cache"]
