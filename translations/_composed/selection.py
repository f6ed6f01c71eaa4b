"""Selection, differences and membership, numpy's, written once with ``do``:
``choose``, ``compress``, ``ediff1d``, ``gradient``, ``isin`` and
``matrix_transpose``.

Limits, each stated in its docstring: ``compress`` and ``choose`` with
``mode='raise'`` read values (the length of ``compress``'s result depends on
the condition; ``choose`` checks its indices), so ``compress`` is eager only;
``gradient`` reads coordinate arrays given as spacings on the host.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._adapters import no_autodiff
from dispatch.translations._composed.reductions import _axis_tuple, _dt, _readable

from dispatch.engine import composed, do, is_array

# ---------------------------------------------------------------- helpers


def _host(x: Any) -> np.ndarray:
    return np.asarray(do("to_numpy", x))


def _on(x: Any, like: Any) -> Any:
    """``x`` as an array of the library of ``like`` (arrays pass unchanged)."""
    return x if is_array(x) else do("asarray", np.asarray(x), like=like)


def _first_array(*xs: Any) -> Any:
    for x in xs:
        if is_array(x) and not isinstance(x, (np.ndarray, np.generic)):
            return x
    for x in xs:
        if is_array(x):
            return x
    return None


# ---------------------------------------------------------------- choose


@composed("choose")
def choose(a: Any, choices: Any, out: Any = None, mode: str = "raise") -> Any:
    """Pick, for each index in ``a``, the element of that choice array,
    numpy's ``choose``: ``out[i] = choices[a[i]][i]`` after broadcasting ``a``
    with every choice.

    ``mode``: 'raise' (an index outside ``[0, len(choices))`` raises
    ``ValueError``, read from the values; skipped while tracing), 'wrap'
    (modulo) or 'clip'. ``choices`` is a sequence of arrays (or scalars), or an
    array whose first axis indexes the choices. The result has the promoted
    dtype of the choices.

    Examples
    --------
    >>> import numpy as np
    >>> do("choose", np.array([0, 2, 1]), [np.zeros(3), np.ones(3), np.full(3, 7.0)])
    array([0., 7., 1.])
    >>> do("choose", np.array([3, -1]), [np.array([1, 2]), np.array([10, 20])], mode="clip")
    array([10,  2])
    """
    if out is not None:
        raise TypeError("out= is not supported: the result is returned as a new array")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    like = _first_array(a, choices, *(choices if isinstance(choices, (list, tuple)) else ()))
    if is_array(choices):
        choices = [choices[i] for i in range(do("shape", choices)[0])]
    choices = [_on(c, like) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    idx = do("astype", _on(a, like), "int64")
    if mode == "wrap":
        idx = do("mod", idx, n)
    elif mode == "clip":
        idx = do("clip", idx, 0, n - 1)
    elif _readable(idx):
        bad = (idx < 0) | (idx >= n)
        if bool(np.any(_host(bad))):
            raise ValueError("invalid entry in choice array")
    arrays = do("broadcast_arrays", idx, *choices)
    stacked = do("stack", list(arrays[1:]), axis=0)
    picked = do("take_along_axis", stacked, do("expand_dims", arrays[0], 0), axis=0)
    return picked[0]


# ---------------------------------------------------------------- compress


@composed("compress")
def compress(condition: Any, a: Any, axis: Any = None, out: Any = None) -> Any:
    """The slices of ``a`` along ``axis`` where ``condition`` is true, numpy's
    ``compress`` (``axis=None``: of the flattened array).

    ``condition`` is 1-D (cast to bool); a shorter one counts as false past its
    end, a true entry past the end of ``a`` raises ``IndexError`` (as numpy).
    Eager only: the result's length depends on the values of ``condition``.

    Examples
    --------
    >>> import numpy as np
    >>> do("compress", np.array([True, False, True]), np.arange(6.0).reshape(3, 2), axis=0)
    array([[0., 1.],
           [4., 5.]])
    """
    if out is not None:
        raise TypeError("out= is not supported: the result is returned as a new array")
    like = _first_array(a, condition)
    cond = _on(condition, like)
    a = _on(a, like)
    if len(do("shape", cond)) != 1:
        raise ValueError("condition must be a 1-d array")
    if axis is None:
        a, axis = do("reshape", a, (-1,)), 0
    length = do("shape", a)[axis]
    (idx,) = do("nonzero", cond)
    if _readable(idx) and do("shape", idx)[0] and int(_host(idx)[-1]) >= length:
        raise IndexError(
            f"index {int(_host(idx)[-1])} is out of bounds for axis {axis} with size {length}"
        )
    return do("take", a, idx, axis=axis)


# ---------------------------------------------------------------- ediff1d


def _extra(value: Any, like: Any, dtype: np.dtype, name: str) -> Any:
    if is_array(value) and not isinstance(value, (np.ndarray, np.generic)):
        src = _dt(value)
        arr = do("reshape", value, (-1,))
    else:
        host = np.asanyarray(value).ravel()
        src = host.dtype
        arr = do("asarray", host, like=like)
    if not np.can_cast(src, dtype, casting="same_kind"):
        raise TypeError(
            f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule."
        )
    return do("astype", arr, dtype.name)


@composed("ediff1d")
def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Any:
    """Differences between consecutive elements of the flattened array, numpy's
    ``ediff1d``, with ``to_begin`` and ``to_end`` (scalars or arrays, cast to
    ``ary``'s dtype under numpy's 'same_kind' rule) around them.

    Examples
    --------
    >>> import numpy as np
    >>> do("ediff1d", np.array([1, 2, 4, 7]), to_begin=-99, to_end=np.array([88, 99]))
    array([-99,   1,   2,   3,  88,  99])
    """
    flat = do("reshape", ary, (-1,))
    dtype = _dt(flat)
    parts = [flat[1:] - flat[:-1]]
    if to_begin is not None:
        parts.insert(0, _extra(to_begin, flat, dtype, "to_begin"))
    if to_end is not None:
        parts.append(_extra(to_end, flat, dtype, "to_end"))
    if len(parts) == 1:
        return do("astype", parts[0], dtype.name)
    return do("concatenate", parts, axis=0)


# ---------------------------------------------------------------- matrix_transpose


@composed("matrix_transpose")
def matrix_transpose(x: Any, /) -> Any:
    """Swap the last two axes, numpy's ``matrix_transpose`` (the array API's).

    Examples
    --------
    >>> import numpy as np
    >>> do("matrix_transpose", np.arange(6).reshape(1, 2, 3)).shape
    (1, 3, 2)
    """
    if len(do("shape", x)) < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return do("swapaxes", x, -1, -2)


# ---------------------------------------------------------------- isin


@composed("isin")
def isin(
    element: Any,
    test_elements: Any,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    kind: Any = None,
) -> Any:
    """Whether each element of ``element`` is in ``test_elements``, numpy's
    ``isin`` (``invert=True`` negates), with the shape of ``element``.

    Sort-based: ``test_elements`` is sorted and searched, O((n + m) log m);
    complex and boolean values are compared pairwise instead (O(n m) memory).
    NaN is never found (NaN != NaN, as numpy). ``kind`` is accepted and ignored
    (numpy's 'table' is an optimisation for integers, same result).

    Examples
    --------
    >>> import numpy as np
    >>> do("isin", np.array([[1, 5], [3, 8]]), np.array([3, 1, 4]))
    array([[ True, False],
           [ True, False]])
    >>> do("isin", np.array([1.0, 2.0]), [2.0], invert=True)
    array([ True, False])
    """
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None or 'sort' or 'table'.")
    like = _first_array(element, test_elements)
    e, t = _on(element, like), _on(test_elements, like)
    rt = np.result_type(_dt(e), _dt(t))
    e, t = do("astype", e, rt.name), do("astype", do("reshape", t, (-1,)), rt.name)
    shape = tuple(do("shape", e))
    flat = do("reshape", e, (-1,))
    m = do("shape", t)[0]
    if m == 0:
        found = do("zeros_like", flat) != 0
    elif rt.kind in "cb":
        found = do("any", do("expand_dims", flat, -1) == t, axis=-1)
    else:
        ts = do("sort", t)
        pos = do("minimum", do("searchsorted", ts, flat, side="left"), m - 1)
        found = do("take", ts, pos) == flat
    found = do("reshape", found, shape)
    return do("logical_not", found) if invert else found


# ---------------------------------------------------------------- gradient


def _spacings(varargs: Sequence[Any], f_shape: tuple[int, ...], axes: tuple[int, ...]) -> list:
    """Per axis: a float (uniform spacing) or a float64 numpy array of the
    coordinate differences, as numpy's ``gradient`` reads its ``varargs``."""
    n, k = len(varargs), len(axes)
    if n == 0:
        return [1.0] * k
    if n == 1 and np.ndim(_host(varargs[0]) if is_array(varargs[0]) else varargs[0]) == 0:
        return [_scalar(varargs[0])] * k
    if n != k:
        raise TypeError("invalid number of arguments")
    out: list = []
    for spacing, ax in zip(varargs, axes, strict=True):
        coords = _host(spacing) if is_array(spacing) else np.asanyarray(spacing)
        if coords.ndim == 0:
            out.append(_scalar(coords))
            continue
        if coords.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(coords) != f_shape[ax]:
            raise ValueError(
                "when 1d, distances must match the length of the corresponding dimension"
            )
        if np.issubdtype(coords.dtype, np.integer):
            coords = coords.astype(np.float64)
        diffs = np.diff(coords)
        out.append(float(diffs[0]) if diffs.size and (diffs == diffs[0]).all() else diffs)
    return out


def _scalar(x: Any) -> Any:
    value = _host(x) if is_array(x) else np.asarray(x)
    return complex(value) if value.dtype.kind == "c" else float(value)


def _along(f: Any, ax: int, start: int | None, stop: int | None) -> Any:
    index = [slice(None)] * len(do("shape", f))
    index[ax] = slice(start, stop)
    return f[tuple(index)]


def _coef(values: Any, f: Any, ax: int, dtype: np.dtype) -> Any:
    """A coefficient for slices of ``f`` along ``ax``: a scalar, or a 1-D host
    array moved to ``f``'s library and shaped to broadcast along ``ax``."""
    if np.ndim(values) == 0:
        return values
    shape = [1] * len(do("shape", f))
    shape[ax] = -1
    return do("asarray", np.asarray(values).astype(dtype).reshape(shape), like=f)


def _gradient_axis(f: Any, ax: int, dx: Any, edge_order: int, dtype: np.dtype) -> Any:
    def s(start: int | None, stop: int | None) -> Any:
        return _along(f, ax, start, stop)

    def c(values: Any) -> Any:
        return _coef(values, f, ax, dtype)

    uniform = np.ndim(dx) == 0
    if uniform:
        interior = (s(2, None) - s(None, -2)) / (2.0 * dx)
    else:
        dx1, dx2 = dx[:-1], dx[1:]
        a = -dx2 / (dx1 * (dx1 + dx2))
        b = (dx2 - dx1) / (dx1 * dx2)
        cc = dx1 / (dx2 * (dx1 + dx2))
        interior = c(a) * s(None, -2) + c(b) * s(1, -1) + c(cc) * s(2, None)
    if edge_order == 1:
        d0 = dx if uniform else float(dx[0])
        dn = dx if uniform else float(dx[-1])
        first = (s(1, 2) - s(0, 1)) / d0
        last = (s(-1, None) - s(-2, -1)) / dn
    else:
        if uniform:
            a0, b0, c0 = -1.5 / dx, 2.0 / dx, -0.5 / dx
            an, bn, cn = 0.5 / dx, -2.0 / dx, 1.5 / dx
        else:
            dx1, dx2 = dx[0], dx[1]
            a0 = -(2.0 * dx1 + dx2) / (dx1 * (dx1 + dx2))
            b0 = (dx1 + dx2) / (dx1 * dx2)
            c0 = -dx1 / (dx2 * (dx1 + dx2))
            dx1, dx2 = dx[-2], dx[-1]
            an = dx2 / (dx1 * (dx1 + dx2))
            bn = -(dx2 + dx1) / (dx1 * dx2)
            cn = (2.0 * dx2 + dx1) / (dx2 * (dx1 + dx2))
        a0, b0, c0, an, bn, cn = (float(v) for v in (a0, b0, c0, an, bn, cn))
        first = a0 * s(0, 1) + b0 * s(1, 2) + c0 * s(2, 3)
        last = an * s(-3, -2) + bn * s(-2, -1) + cn * s(-1, None)
    parts = [first, interior, last]
    return do("astype", do("concatenate", parts, axis=ax), dtype.name)


@composed("gradient")
def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1,
             **autodiff: Any) -> Any:
    """Gradient of an N-dimensional array by central differences, numpy's
    ``gradient``: second-order accurate inside, first- or second-order
    (``edge_order``) one-sided differences at the boundaries.

    ``varargs``: nothing (spacing 1), one scalar spacing for every axis, or one
    scalar or 1-D coordinate array per axis (non-uniform spacing; coordinate
    arrays are read on the host). ``axis``: None (all axes), an int or a tuple.
    Returns one array for one axis, else a tuple (as numpy); integers give
    float64.

    ``gradient`` of a Python function is the backend method list's autodiff
    gradient, which only libraries with automatic differentiation have: on
    numpy, dask and pydata sparse (and without ``like=`` when the default
    backend is numpy) it raises ``UnsupportedError`` saying to pass
    ``like='torch'``, ``'jax'`` or ``'tensorflow'``.

    Examples
    --------
    >>> import numpy as np
    >>> do("gradient", np.array([1.0, 2.0, 4.0, 7.0, 11.0]))
    array([1. , 1.5, 2.5, 3.5, 4. ])
    >>> do("gradient", np.array([1.0, 4.0, 9.0]), np.array([0.0, 1.0, 3.0]))
    array([3.        , 2.83333333, 2.5       ])
    """
    if callable(f) and not is_array(f):
        raise no_autodiff(f)
    if autodiff:  # wrt=, get_output= belong to the gradient of a function
        raise TypeError(
            f"gradient of an array got unexpected keyword argument(s) "
            f"{', '.join(map(repr, autodiff))}: 'wrt' and 'get_output' are for the gradient "
            "of a function, on a library with automatic differentiation (like='torch', "
            "'jax' or 'tensorflow')"
        )
    if not is_array(f):
        f = do("asarray", np.asarray(f), like=_first_array(*varargs))
    shape = tuple(do("shape", f))
    nd = len(shape)
    axes = _axis_tuple(axis, nd, "duplicate value in 'axis'")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    dt = _dt(f)
    if dt.kind not in "fc":
        dt = np.dtype("float64")
        f = do("astype", f, "float64")
    spacings = _spacings(varargs, shape, axes)
    out = []
    for ax, dx in zip(axes, spacings, strict=True):
        if shape[ax] < edge_order + 1:
            raise ValueError(
                "Shape of array too small to calculate a numerical gradient, "
                "at least (edge_order + 1) elements are required."
            )
        out.append(_gradient_axis(f, ax, dx, edge_order, dt))
    return out[0] if len(axes) == 1 else tuple(out)
