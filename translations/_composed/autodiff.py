"""numpy's ``gradient`` of an array, written once with ``do``: central
differences inside, one-sided ones at the boundaries.

``gradient`` shares its name with the backend method list's gradient of a
function, which the libraries with automatic differentiation hold in their own
``autodiff`` modules (jax's and tensorflow's call this one for arrays); given a
function, the composed version raises the error that says which libraries
differentiate. Coordinate arrays given as spacings are read on the host.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._adapters import no_autodiff
from dispatch.translations._composed._common import _first_array, _host
from dispatch.translations._composed.reductions import _axis_tuple, _dt, default_float

from dispatch.engine import composed, do, is_array


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
    the library's default float (numpy's float64).

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
        # numpy's float64 from integers: the library's default float (docs/vocabulary.md)
        dt = default_float(f)
        f = do("astype", f, dt.name)
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
