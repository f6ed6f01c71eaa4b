"""The lazy internals that libraries written against autoray reach for.

``autoray.lazy.core`` maps here under the import swap of docs/migrating.md: the
sharing cache (:func:`lazy_cache`, :func:`currently_sharing`,
:func:`get_sharing_cache`), node helpers (:func:`ensure_lazy`,
:func:`find_lazy`, :func:`is_lazy_array`) and the lazy classes and functions
of :mod:`dispatch.lazy`.

Examples
--------
>>> import numpy as np
>>> from dispatch import do, lazy
>>> from dispatch.lazy import core
>>> calls = []
>>> @core.lazy_cache("double")
... def double(x):
...     calls.append(1)
...     return 2 * x
>>> x = lazy.array(np.ones(2))
>>> with lazy.shared_intermediates():
...     a, b = double(x), double(x)
>>> a is b, len(calls)
(True, 1)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from dispatch.lazy import _record
from dispatch.lazy._array import LazyArray, Variable, array
from dispatch.lazy._graph import ascend, compute, descend
from dispatch.lazy._record import shared_intermediates
from dispatch.lazy._source import Function, get_source

__all__ = [
    "Function",
    "LazyArray",
    "Variable",
    "array",
    "ascend",
    "compute",
    "currently_sharing",
    "descend",
    "ensure_lazy",
    "find_lazy",
    "get_sharing_cache",
    "get_source",
    "hash_args_kwargs",
    "is_lazy_array",
    "lazy_cache",
    "shared_intermediates",
]


def is_lazy_array(x: Any) -> bool:
    """Whether ``x`` is a :class:`LazyArray`."""
    return isinstance(x, LazyArray)


def ensure_lazy(x: Any) -> LazyArray:
    """``x`` itself if lazy, else a lazy leaf holding it."""
    return x if isinstance(x, LazyArray) else LazyArray.from_data(x)


def find_lazy(x: Any) -> Iterator[LazyArray]:
    """The lazy arrays in ``x`` and in its nested lists, tuples and dicts."""
    stack = [x]
    while stack:
        v = stack.pop()
        if isinstance(v, LazyArray):
            yield v
        elif isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            stack.extend(reversed(list(v.values())))


def currently_sharing() -> bool:
    """Whether a :func:`shared_intermediates` block is active here."""
    return _record.sharing_cache() is not None


def get_sharing_cache() -> dict:
    """The cache of the innermost active :func:`shared_intermediates` block."""
    cache = _record.sharing_cache()
    if cache is None:
        raise RuntimeError("get_sharing_cache(): no shared_intermediates() block is active")
    return cache


def _key_part(x: Any) -> Any:
    if hasattr(x, "shape"):
        return ("id", id(x))
    if isinstance(x, list):
        return ("list", *map(_key_part, x))
    if isinstance(x, float):  # 0.0 and -0.0, 1 and 1.0 and True are different calls
        return (float, x.hex())
    return (type(x), x)


def hash_args_kwargs(fn_name: str, *args: Any, **kwargs: Any) -> tuple:
    """The sharing key of ``fn_name(*args, **kwargs)``: arrays by identity, the
    rest by type and value."""
    return (
        fn_name,
        tuple(map(_key_part, args)),
        tuple(sorted((k, _key_part(v)) for k, v in kwargs.items())),
    )


def lazy_cache(fn_name: str, hasher: Callable | None = None) -> Callable[[Callable], Callable]:
    """Make a function's calls shared inside :func:`shared_intermediates` blocks.

    Parameters
    ----------
    fn_name : str
        The function's name in the sharing cache.
    hasher : callable, optional
        ``hasher(fn_name, *args, **kwargs)`` -> a hashable key (default:
        :func:`hash_args_kwargs`).
    """
    key_of = hash_args_kwargs if hasher is None else hasher

    def deco(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def cached(*args: Any, **kwargs: Any) -> Any:
            cache = _record.sharing_cache()
            if cache is None:
                return fn(*args, **kwargs)
            key = key_of(fn_name, *args, **kwargs)
            try:
                return cache[key]
            except KeyError:
                out = cache[key] = fn(*args, **kwargs)
                return out

        return cached

    return deco
