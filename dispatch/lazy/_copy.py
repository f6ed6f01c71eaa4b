"""Copies and pickles of lazy graphs, node by node in topological order.

The default protocols recurse once per node along the graph's edges, so a chain
of a few thousand nodes hit the recursion limit; here a graph is walked with an
explicit stack (:func:`graph_order`). A pickle is a flat tuple of node records
(:func:`records`, read back by :func:`rebuild`); each node carries a token, so
that nodes shared by several graphs pickled together are shared again once loaded.
"""

from __future__ import annotations

import weakref
from typing import Any

from dispatch.lazy import _shapes
from dispatch.lazy._array import _NODATA, LazyArray


def graph_order(root: LazyArray) -> list[LazyArray]:
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


def records(root: LazyArray) -> tuple:
    """The graph below ``root`` as a flat tuple of node records, root last."""
    order = graph_order(root)
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


def rebuild(records: tuple) -> LazyArray:
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
