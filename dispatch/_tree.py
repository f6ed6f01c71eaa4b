"""Minimal pytrees over lists, tuples and dicts, with arrays as default leaves.

Every walk is iterative (a tree may be deeper than Python's recursion limit) and
refuses a tree that contains itself with a ValueError naming where.
"""

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


def _items(t: Any) -> list[tuple[Any, Any]]:
    return list(t.items()) if isinstance(t, dict) else list(enumerate(t))


def _cycle(where: str, path: str, ancestor: str, t: Any) -> ValueError:
    return ValueError(
        f"{where}: the tree contains itself: {path} is the {type(t).__name__} {ancestor} "
        "again. A tree must be finite: remove the cycle, or pass an is_leaf= that "
        "treats that object as a leaf."
    )


def tree_map(f: Callable, tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """Apply ``f`` to every leaf of a nested list/tuple/dict, keeping the structure.

    Objects that are neither branches nor leaves are returned unchanged.

    Raises
    ------
    ValueError
        The tree contains itself (a list that holds itself, at any depth).

    Examples
    --------
    >>> import numpy as np
    >>> tree_map(lambda x: 2 * x, {"a": [np.ones(1), 3]})
    {'a': [array([2.]), 3]}
    """
    leaf = _leafy(is_leaf)
    if leaf(tree):
        return f(tree)
    if not isinstance(tree, _BRANCHES):
        return tree
    # frames: [branch, its items, next item, results, path]
    stack: list[list] = [[tree, _items(tree), 0, [], "tree"]]
    active = {id(tree): "tree"}  # the branches on the current path
    while True:
        frame = stack[-1]
        t, items, i, out, path = frame
        if i < len(items):
            frame[2] = i + 1
            k, v = items[i]
            if leaf(v):
                out.append(f(v))
            elif isinstance(v, _BRANCHES):
                sub = f"{path}[{k!r}]"
                if id(v) in active:
                    raise _cycle("tree_map", sub, active[id(v)], v)
                active[id(v)] = sub
                stack.append([v, _items(v), 0, [], sub])
            else:
                out.append(v)
            continue
        stack.pop()
        del active[id(t)]
        if isinstance(t, dict):
            built = type(t)(zip(t.keys(), out, strict=True))
        else:
            built = type(t)(*out) if hasattr(t, "_fields") else type(t)(out)
        if not stack:
            return built
        stack[-1][3].append(built)


def tree_iter(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> Iterator[Any]:
    """Yield the leaves of ``tree`` depth first.

    Raises
    ------
    ValueError
        The tree contains itself.

    Examples
    --------
    >>> import numpy as np
    >>> len(list(tree_iter([np.ones(1), (np.ones(2), "x")])))
    2
    """
    leaf = _leafy(is_leaf)
    if leaf(tree):
        yield tree
        return
    if not isinstance(tree, _BRANCHES):
        return
    stack: list[list] = [[tree, _items(tree), 0, "tree"]]
    active = {id(tree): "tree"}
    while stack:
        frame = stack[-1]
        t, items, i, path = frame
        if i < len(items):
            frame[2] = i + 1
            k, v = items[i]
            if leaf(v):
                yield v
            elif isinstance(v, _BRANCHES):
                sub = f"{path}[{k!r}]"
                if id(v) in active:
                    raise _cycle("tree_iter", sub, active[id(v)], v)
                active[id(v)] = sub
                stack.append([v, _items(v), 0, sub])
            continue
        stack.pop()
        del active[id(t)]


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


def tree_unflatten(
    objs: Any, tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> Any:
    """Put the leaves ``objs`` back into the structure of ``tree``.

    ``tree`` is the reference tree of :func:`tree_flatten` (``get_ref=True``), or
    any tree whose leaves ``is_leaf`` picks out (then replaced in order).
    """
    it = iter(objs)
    leaf = (lambda t: t is _LEAF) if is_leaf is None else is_leaf
    return tree_map(lambda _: next(it), tree, is_leaf=leaf)
