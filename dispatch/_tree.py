"""Minimal pytrees over lists, tuples and dicts, with arrays as default leaves."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["tree_flatten", "tree_iter", "tree_map", "tree_unflatten"]

_BRANCHES = (list, tuple, dict)


def _leafy(is_leaf: Callable[[Any], bool] | None) -> Callable[[Any], bool]:
    if is_leaf is not None:
        return is_leaf
    from dispatch._helpers import is_array

    return is_array


def tree_map(f: Callable, tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """Apply ``f`` to every leaf of a nested list/tuple/dict, keeping the structure.

    Objects that are neither branches nor leaves are returned unchanged.

    Examples
    --------
    >>> import numpy as np
    >>> tree_map(lambda x: 2 * x, {"a": [np.ones(1), 3]})
    {'a': [array([2.]), 3]}
    """
    leaf = _leafy(is_leaf)

    def go(t: Any) -> Any:
        if leaf(t):
            return f(t)
        if isinstance(t, dict):
            return type(t)((k, go(v)) for k, v in t.items())
        if isinstance(t, (list, tuple)):
            out = [go(v) for v in t]
            return type(t)(*out) if hasattr(t, "_fields") else type(t)(out)
        return t

    return go(tree)


def tree_iter(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> Iterator[Any]:
    """Yield the leaves of ``tree`` depth first.

    Examples
    --------
    >>> import numpy as np
    >>> len(list(tree_iter([np.ones(1), (np.ones(2), "x")])))
    2
    """
    leaf = _leafy(is_leaf)
    stack = [tree]
    while stack:
        t = stack.pop()
        if leaf(t):
            yield t
        elif isinstance(t, dict):
            stack.extend(reversed(list(t.values())))
        elif isinstance(t, (list, tuple)):
            stack.extend(reversed(t))


def tree_flatten(
    tree: Any, is_leaf: Callable[[Any], bool] | None = None, get_ref: bool = False
) -> Any:
    """Return the leaves of ``tree`` as a list, and with ``get_ref`` a reference
    tree for :func:`tree_unflatten`.

    Examples
    --------
    >>> import numpy as np
    >>> leaves, ref = tree_flatten({"a": np.ones(1), "b": [np.zeros(1)]}, get_ref=True)
    >>> tree_unflatten([2 * v for v in leaves], ref)
    {'a': array([2.]), 'b': [array([0.])]}
    """
    leaves = list(tree_iter(tree, is_leaf))
    if not get_ref:
        return leaves
    leaf = _leafy(is_leaf)
    return leaves, tree_map(lambda _: _LEAF, tree, is_leaf=leaf)


class _Leaf:
    __slots__ = ()

    def __repr__(self) -> str:
        return "*"


_LEAF = _Leaf()


def tree_unflatten(leaves: list, ref: Any) -> Any:
    """Put ``leaves`` back into the structure ``ref`` from :func:`tree_flatten`."""
    it = iter(leaves)
    return tree_map(lambda _: next(it), ref, is_leaf=lambda t: t is _LEAF)
