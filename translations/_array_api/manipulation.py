"""Manipulation, searching, sets, sorting and statistics."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dispatch.translations._array_api._core import (
    FACTORIES,
    Space,
    _axis,
    _member,
    _sum_dtype,
)

# ---- manipulation -------------------------------------------------------------


@_member("concat")
def _concat(space: Space) -> Callable:
    f, ravel = space.fn("concatenate"), space.fn("ravel")

    def concat(arrays: Sequence[Any], /, *, axis: int | None = 0) -> Any:
        """The array API's ``concat``: arrays joined along ``axis`` (flattened for None)."""
        arrays = space.promoted(*arrays)
        if axis is None:
            return f([ravel(a) for a in arrays], axis=0)
        return f(list(arrays), axis=axis)

    return concat


@_member("stack")
def _stack(space: Space) -> Callable:
    f = space.fn("stack")

    def stack(arrays: Sequence[Any], /, *, axis: int = 0) -> Any:
        """The array API's ``stack``: arrays joined along a new ``axis``."""
        return f(list(space.promoted(*arrays)), axis=axis)

    return stack


@_member("unstack")
def _unstack(space: Space) -> Callable:
    f = space.fn("unstack")

    def unstack(x: Any, /, *, axis: int = 0) -> tuple:
        """The array API's ``unstack``: the slices of ``x`` along ``axis``."""
        return tuple(f(x, axis=axis))

    return unstack


@_member("broadcast_arrays")
def _broadcast_arrays(space: Space) -> Callable:
    f = space.fn("broadcast_arrays")

    def broadcast_arrays(*arrays: Any) -> tuple:
        """The array API's ``broadcast_arrays``: a tuple of arrays of one shape (a
        list before 2025.12)."""
        return tuple(f(*arrays))

    return broadcast_arrays


@_member("broadcast_shapes")
def _broadcast_shapes(space: Space) -> Callable:
    def broadcast_shapes(*shapes: tuple) -> tuple:
        """The array API's ``broadcast_shapes`` (2025.12): the shape that arrays of
        ``shapes`` broadcast to; ValueError for shapes that do not broadcast. A
        dimension of unknown size (None) stays unknown."""
        ndim = max((len(s) for s in shapes), default=0)
        out: list = []
        for i in range(-ndim, 0):
            size: Any = 1
            for s in shapes:
                d = s[i] if -i <= len(s) else 1
                if d is None:
                    size = None if size in (1, None) else size
                elif d != 1:
                    if size not in (1, None) and size != d:
                        raise ValueError(
                            f"broadcast_shapes: shapes {shapes} do not broadcast "
                            f"(axis {i}: {size} against {d})"
                        )
                    size = d
            out.append(size)
        return tuple(out)

    return broadcast_shapes


@_member("isin")
def _isin(space: Space) -> Callable:
    f, asarray = space.fn("isin"), space.fn("asarray")

    def isin(x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
        """The array API's ``isin`` (2025.12): whether each element of ``x1`` is in
        ``x2`` (``invert`` negates); a Python int ``x1`` gives a 0-d array."""
        x1, x2 = space.promoted(x1, x2)
        if not hasattr(x1, "dtype"):
            x1 = asarray(x1, dtype=getattr(x2, "dtype", None))
        return f(x1, x2, invert=invert)

    return isin


def _simple(vocab: str, name: str, make: Callable[[Callable], Callable]) -> None:
    """Register ``name`` as ``make(<the vocabulary entry vocab>)``."""

    def factory(space: Space) -> Callable:
        fn = make(space.fn(vocab))
        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = fn.__doc__ or f"The array API's ``{name}`` (``do({vocab!r}, ...)``)."
        return fn

    FACTORIES[name] = factory


_simple("broadcast_to", "broadcast_to",
        lambda f: lambda x, /, shape: f(x, tuple(shape)))
_simple("expand_dims", "expand_dims", lambda f: lambda x, /, axis=0: f(x, axis))
_simple("flip", "flip", lambda f: lambda x, /, *, axis=None: f(x, axis=axis))
_simple("moveaxis", "moveaxis",
        lambda f: lambda x, source, destination, /: f(x, source, destination))
_simple("transpose", "permute_dims", lambda f: lambda x, /, axes: f(x, tuple(axes)))
_simple("roll", "roll", lambda f: lambda x, /, shift, *, axis=None: f(x, shift, axis=axis))
_simple("squeeze", "squeeze", lambda f: lambda x, /, axis: f(x, axis))
_simple("tile", "tile", lambda f: lambda x, repetitions, /: f(x, tuple(repetitions)))
_simple("take_along_axis", "take_along_axis",
        lambda f: lambda x, indices, /, *, axis=-1: f(x, indices, axis))


@_member("nonzero")
def _nonzero(space: Space) -> Callable:
    f = space.fn("nonzero")

    def nonzero(x: Any, /) -> tuple:
        """The array API's ``nonzero``: the indices of nonzero elements, per axis (a
        0-d array has no axes to index: ValueError)."""
        if len(x.shape) == 0:
            raise ValueError("nonzero: x is 0-d; the standard defines nonzero for 1 or more dims")
        return tuple(f(x))

    return nonzero


_simple("matrix_transpose", "matrix_transpose", lambda f: lambda x, /: f(x))


@_member("reshape")
def _reshape(space: Space) -> Callable:
    f = space.fn("reshape")

    def reshape(x: Any, /, shape: tuple, *, copy: bool | None = None) -> Any:
        """The array API's ``reshape`` (``copy=False`` raises where a copy is needed)."""
        return f(x, tuple(shape), copy=copy)

    return reshape


@_member("repeat")
def _repeat(space: Space) -> Callable:
    f = space.fn("repeat")

    def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        """The array API's ``repeat``: each element ``repeats`` times along ``axis``
        (of the flattened array for None)."""
        return f(x, repeats, axis=axis)

    return repeat


@_member("take")
def _take(space: Space) -> Callable:
    f = space.fn("take")

    def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        """The array API's ``take``: elements of ``x`` at ``indices`` along ``axis``."""
        return f(x, indices, axis=axis)

    return take


# ---- searching, sets, sorting --------------------------------------------------


def _reduce_member(vocab: str, name: str, dtype: bool = False) -> None:
    def factory(space: Space) -> Callable:
        f = space.fn(vocab)
        if dtype:
            def reduce(x: Any, /, *, axis: Any = None, dtype: Any = None,
                       keepdims: bool = False) -> Any:
                return f(x, axis=_axis(axis), dtype=_sum_dtype(space, x, dtype),
                         keepdims=keepdims)
        else:
            def reduce(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
                return f(x, axis=_axis(axis), keepdims=keepdims)

        reduce.__name__ = reduce.__qualname__ = name
        reduce.__doc__ = f"The array API's ``{name}``: ``do({vocab!r}, x, axis=, keepdims=)``."
        return reduce

    FACTORIES[name] = factory


for _n in ("max", "min", "mean", "all", "any", "argmax", "argmin", "count_nonzero"):
    _reduce_member(_n, _n)
for _n in ("sum", "prod"):
    _reduce_member(_n, _n, dtype=True)


def _spread_member(name: str) -> None:
    def factory(space: Space) -> Callable:
        f = space.fn(name)

        def spread(x: Any, /, *, axis: Any = None, correction: float = 0.0,
                   keepdims: bool = False) -> Any:
            return f(x, axis=_axis(axis), ddof=correction, keepdims=keepdims)

        spread.__name__ = spread.__qualname__ = name
        spread.__doc__ = (f"The array API's ``{name}``: ``correction`` is numpy's ``ddof``.")
        return spread

    FACTORIES[name] = factory


_spread_member("std")
_spread_member("var")


def _cumulative_member(name: str) -> None:
    def factory(space: Space) -> Callable:
        f = space.fn(name)

        def cumulative(x: Any, /, *, axis: int | None = None, dtype: Any = None,
                       include_initial: bool = False) -> Any:
            return f(x, axis=axis, dtype=_sum_dtype(space, x, dtype),
                     include_initial=include_initial)

        cumulative.__name__ = cumulative.__qualname__ = name
        cumulative.__doc__ = f"The array API's ``{name}`` (numpy 2's, the standard's dtype rule)."
        return cumulative

    FACTORIES[name] = factory


_cumulative_member("cumulative_sum")
_cumulative_member("cumulative_prod")


@_member("diff")
def _diff(space: Space) -> Callable:
    f = space.fn("diff")

    def diff(x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None,
             append: Any = None) -> Any:
        """The array API's ``diff``: ``n``-th differences along ``axis``."""
        kwargs = {}
        if prepend is not None:
            kwargs["prepend"] = prepend
        if append is not None:
            kwargs["append"] = append
        return f(x, n=n, axis=axis, **kwargs)

    return diff


@_member("searchsorted")
def _searchsorted(space: Space) -> Callable:
    f = space.fn("searchsorted")

    def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        """The array API's ``searchsorted``: insertion points of ``x2`` into sorted ``x1``."""
        return f(x1, x2, side=side, sorter=sorter)

    return searchsorted


@_member("where")
def _where(space: Space) -> Callable:
    f = space.fn("where")

    def where(condition: Any, x1: Any, x2: Any, /) -> Any:
        """The array API's ``where``: ``x1`` where ``condition``, ``x2`` elsewhere."""
        return f(condition, *space.promoted(x1, x2))

    return where


def _unique_member(name: str) -> None:
    FACTORIES[name] = lambda space: _named(space.fn(name), name)


def _named(f: Callable, name: str) -> Callable:
    def unique(x: Any, /) -> Any:
        return f(x)

    unique.__name__ = unique.__qualname__ = name
    unique.__doc__ = f"The array API's ``{name}`` (numpy 2's)."
    return unique


for _n in ("unique_all", "unique_counts", "unique_inverse"):
    _unique_member(_n)


@_member("unique_values")
def _unique_values(space: Space) -> Callable:
    f = space.fn("unique_values")
    if not space._lib.sorted_unique:
        f = _then(space.fn("sort"), f)

    def unique_values(x: Any, /) -> Any:
        """The array API's ``unique_values``, sorted on every library (the standard
        permits any order; array-api-compat, torch and array-api-strict sort, and
        code relies on it: class labels, ``searchsorted`` encodings)."""
        return f(x)

    return unique_values


def _then(g: Callable, f: Callable) -> Callable:
    return lambda x: g(f(x))


def _sorting_member(name: str) -> None:
    def factory(space: Space) -> Callable:
        f, flip = space.fn(name), space.fn("flip")

        def sorting(x: Any, /, *, axis: int = -1, descending: bool = False,
                    stable: bool = True) -> Any:
            if not descending:
                return f(x, axis=axis, stable=stable)
            # stable descending: sort the reversed array, reverse the result, so
            # that equal elements keep their order
            out = flip(f(flip(x, axis=axis), axis=axis, stable=stable), axis=axis)
            if name == "argsort":
                out = (x.shape[axis] - 1) - out
            return out

        sorting.__name__ = sorting.__qualname__ = name
        sorting.__doc__ = (f"The array API's ``{name}``: ``descending`` keeps equal elements "
                           "in their order when ``stable``.")
        return sorting

    FACTORIES[name] = factory


_sorting_member("sort")
_sorting_member("argsort")
