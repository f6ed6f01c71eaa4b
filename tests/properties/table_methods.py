"""Pure names of the backend method list (docs/methods.md) with a numpy reference."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.linalg
import scipy.special as sc
from hypothesis import strategies as st

from .spec import Call, Prop
from .strategies import ALL, COMPLEX, FLOAT, INEXACT, INT, NUMERIC, Drawer
from .table_elementwise import PROPS as ELEMENTWISE
from .table_linalg import PROPS as LINALG

PROPS: dict[str, Prop] = {}


def _x(d: Drawer, dtypes=ALL, min_dims: int = 0, **values: Any) -> np.ndarray:
    values.setdefault("exact", True)
    return d.array(d.dtype(dtypes), d.shape(min_dims=min_dims), **values)


PROPS["flatten"] = Prop(lambda d: ((_x(d),), {}), ref=np.ravel)
PROPS["ndims"] = Prop(lambda d: ((_x(d),), {}), ref=np.ndim)
PROPS["staticshape"] = Prop(lambda d: ((_x(d),), {}), ref=np.shape)
PROPS["stop_gradient"] = Prop(lambda d: ((_x(d),), {}), ref=lambda x: x)
PROPS["around"] = Prop(ELEMENTWISE["round"].build, ref=np.round)
PROPS["cast"] = Prop(lambda d: ((_x(d), d.dtype(ALL)), {}), ref=lambda x, dt: x.astype(dt))
# the list's casts: floats at the default precision (float32), complex64
PROPS["to_float"] = Prop(lambda d: ((_x(d, (*NUMERIC[:4], "bool")),), {}),
                         ref=lambda x: x.astype(np.float32))
PROPS["to_complex"] = Prop(lambda d: ((_x(d, NUMERIC[:4]),), {}),
                           ref=lambda x: x.astype(np.complex64))
PROPS["to_int32"] = Prop(lambda d: ((_x(d, (*NUMERIC[:4], "bool")),), {}),
                         ref=lambda x: x.astype(np.int32))
PROPS["to_int64"] = Prop(lambda d: ((_x(d, (*NUMERIC[:4], "bool")),), {}),
                         ref=lambda x: x.astype(np.int64))
PROPS["flip_axes"] = Prop(
    lambda d: (lambda x: ((x, tuple(d(st.lists(st.integers(0, x.ndim - 1), unique=True)))
                           if x.ndim else ()), {}))(_x(d)),
    ref=lambda x, axes: np.flip(x, axes) if axes != () else x,
)


def _expand_n(d: Drawer) -> Call:
    x = _x(d)
    return (x, d.integer(-x.ndim - 1, x.ndim), d.integer(0, 2)), {}


def _expand_n_ref(a: np.ndarray, axis: int, number: int) -> np.ndarray:
    pos = axis if axis >= 0 else a.ndim + axis + 1
    return a.reshape(a.shape[:pos] + (1,) * number + a.shape[pos:])


PROPS["expand_dims_n"] = Prop(_expand_n, ref=_expand_n_ref)


def _diagonal(d: Drawer) -> Call:
    x = d.array(d.dtype(NUMERIC), (d.integer(1, 2), d.integer(1, 4), d.integer(1, 4),
                                    d.integer(1, 2)), exact=True)
    return (x, d.integer(-2, 2)), {}


PROPS["get_diagonal"] = Prop(
    _diagonal, ref=lambda m, offset: np.moveaxis(np.diagonal(m, offset, 1, 2), -1, 1)
)


def _factorial(d: Drawer) -> Call:
    dt = d.dtype(FLOAT + INT)
    if dt.kind == "i":
        return (d.array(dt, d.shape(max_dims=2), lo=0, hi=12),), {}
    return (d.array(dt, d.shape(max_dims=2), lo=0, hi=8),), {}


def _factorial_ref(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "i":
        return np.vectorize(math.factorial, otypes=[x.dtype])(x)
    return sc.gamma(x + 1).astype(x.dtype)


PROPS["factorial"] = Prop(_factorial, ref=_factorial_ref)


def _quantile_last(d: Drawer) -> Call:
    x = d.array(d.dtype(FLOAT + INT), d.shape(min_dims=1, min_side=1), exact=True)
    qs = [0.0, 0.1, 0.25, 0.5, 0.9, 1.0]
    q: Any = d.choice(qs) if d.boolean() else [d.choice(qs) for _ in range(d.integer(1, 3))]
    return (x, q), {}


PROPS["quantile_last"] = Prop(
    _quantile_last,
    ref=lambda x, q: np.quantile(x, q, axis=-1).astype(x.dtype if x.dtype.kind == "f"
                                                       else np.float64),
)


def _fft_axes(d: Drawer) -> Call:
    x = d.array(d.dtype(INEXACT), d.shape(min_dims=1, min_side=1), exact=True)
    axes = tuple(sorted(d(st.lists(st.integers(0, x.ndim - 1), max_size=x.ndim, unique=True))))
    return (x, axes), {}


def _complex_of(x: np.ndarray) -> np.dtype:
    return np.dtype(np.complex64 if x.dtype in (np.float32, np.complex64) else np.complex128)


PROPS["fft_axes"] = Prop(
    _fft_axes,
    ref=lambda x, axes: (np.fft.fftn(x, axes=axes) if axes else x).astype(_complex_of(x)),
)
PROPS["ifft_axes"] = Prop(
    _fft_axes,
    ref=lambda x, axes: (np.fft.ifftn(x, axes=axes) if axes else x).astype(_complex_of(x)),
)
PROPS["svd"] = Prop(LINALG["linalg.svd"].build, check=LINALG["linalg.svd"].check)
PROPS["eig"] = Prop(LINALG["linalg.eig"].build, check=LINALG["linalg.eig"].check)
PROPS["eigvals"] = Prop(LINALG["linalg.eigvals"].build, check=LINALG["linalg.eigvals"].check)


def _householder(d: Drawer) -> Call:
    dt = d.dtype(FLOAT + COMPLEX)
    n = d.integer(1, 3)
    a = d.matrix(dt, n + d.integer(0, 2), ())[:, :n]
    (qr, tau), _ = scipy.linalg.qr(a, mode="raw")
    return (np.ascontiguousarray(qr).astype(dt), tau.astype(dt)), {}


def _householder_ref(qr: np.ndarray, tau: np.ndarray) -> np.ndarray:
    from scipy.linalg import lapack

    fn = {"f": lapack.sorgqr, "d": lapack.dorgqr, "F": lapack.cungqr, "D": lapack.zungqr}
    q, _, _info = fn[qr.dtype.char](qr, tau)
    return q


PROPS["linalg.householder_product"] = Prop(_householder, ref=_householder_ref)
