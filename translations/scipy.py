"""scipy: numpy names on ``scipy.sparse`` matrices and arrays.

``scipy.sparse`` formats (csr, csc, coo, ...; the ``*_matrix`` and the
``*_array`` classes alike) are 2-D containers whose unstored entries are zero.
So this table is small: conversion, shape, products, sums and reductions,
transposes and reshapes, elementwise functions that keep zeros (``sin``,
``sqrt``, ``abs``...: the matrix methods, or the function applied to the
stored values), and linear algebra where ``scipy.sparse.linalg`` does real
sparse work (``spsolve``, ``splu``, ``inv``, ``expm``, ``norm``,
``spsolve_triangular``). What would fill every entry (``exp``, ``cos``,
``ones``, FFTs, dense decompositions) is ``unsupported``: use the ``sparse``
backend (pydata sparse, which keeps a fill value) or convert with
``to_numpy``.

numpy semantics hold also for the ``*_matrix`` classes: ``multiply`` is
elementwise (``*`` is a matrix product there), and reductions give numpy
arrays of numpy's shape (not ``numpy.matrix``). Dense operands (numpy arrays)
are used as they are: a product with a dense vector is dense, as in scipy.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import scipy.sparse as ss
import scipy.sparse.linalg as ssl
import scipy.special as sc
from dispatch.translations import _safety, _superlu
from dispatch.translations._keywords import (
    NO_VALUE,
    array_shape,
    check_finite,
    check_order,
    host_device,
    no_out,
    reshape_shape,
)

from dispatch.engine import merge_tables, unsupported

TYPES = ("scipy.sparse",)
MODULES = {"": "scipy.sparse"}
# what a name may reach (docs/safety.md)
SUBMODULES = ("scipy.sparse.linalg", "scipy.sparse.csgraph")
CAPABILITY_MODULES = _safety.SCIPY_CAPABILITY
REFUSED = _safety.SCIPY_REFUSED
CONVERT_CONSTANTS = False  # scipy.sparse mixes with dense numpy operands itself
# host matrices used with numpy operands: scipy decides over numpy arrays, and an
# array library (torch, dask...) decides over scipy.sparse matrices, as over numpy
# constants (the composed solvers take them as operators next to torch vectors)
PRIORITY = -0.5

issparse = ss.issparse


def _names(words: str) -> list[str]:
    return words.split()


# ---------------------------------------------------------------- conversion


def _asarray(x: Any, dtype: Any = None, order: Any = None, *, device: Any = None,
             copy: bool | None = None) -> Any:
    # a sparse matrix is coordinates and values: no memory order to lay out (numpy's
    # answer without the order is the same matrix), and it lives in host memory
    check_order(order)
    host_device("asarray", "scipy", device)
    if issparse(x):
        if dtype is None or x.dtype == np.dtype(dtype):
            return x.copy() if copy else x
        return x.astype(dtype)
    x = np.asarray(x, dtype=dtype, copy=copy)
    # csr for matrices; scipy's sparse arrays are 1-D only in coo (and dok) form
    return ss.csr_array(x) if x.ndim == 2 else ss.coo_array(x)


def _array(x: Any, dtype: Any = None, *, copy: bool = True, order: str = "K",
           subok: bool = False, ndmin: int = 0, ndmax: int = 0) -> Any:
    # scipy.sparse has no array subclasses of its own to keep (subok changes nothing)
    return array_shape(_asarray(x, dtype, copy=bool(copy) or None), x, order, ndmin, ndmax)


def _from_numpy(x: Any) -> Any:
    return _asarray(x)


def _to_numpy(x: Any) -> np.ndarray:
    return x.toarray() if issparse(x) else np.asarray(x)


def _astype(x: Any, dtype: Any, copy: bool = True) -> Any:
    return x.astype(np.dtype(dtype), copy=copy)


def _to_device(x: Any, device: Any = None) -> Any:
    if device not in (None, "cpu"):
        raise ValueError(f"scipy.sparse matrices live on the CPU; cannot move to {device!r}")
    return x


def _dense(r: Any) -> Any:
    """A reduction result as numpy gives it: no numpy.matrix, no sparse container."""
    if issparse(r):
        r = r.toarray()
    return np.asarray(r) if isinstance(r, np.matrix) else r


def _reduced(x: Any, r: Any, axis: Any, keepdims: bool) -> Any:
    """``r`` (scipy's reduction of ``x`` along ``axis``) in numpy's shape."""
    r = _dense(r)
    if axis is None:
        out = np.asarray(r).reshape(())
        return out.reshape((1,) * x.ndim) if keepdims else out[()]
    ax = axis % x.ndim
    shape = [s for i, s in enumerate(x.shape) if i != ax]
    out = np.asarray(r).reshape(shape)
    return np.expand_dims(out, ax) if keepdims else out


def _one_axis(axis: Any, ndim: int) -> Any:
    if isinstance(axis, tuple):
        if len(axis) == 0:
            raise NotImplementedError("reductions over no axis on scipy.sparse")
        if sorted(a % ndim for a in axis) == list(range(ndim)):
            return None
        if len(axis) == 1:
            return axis[0]
        raise NotImplementedError("scipy.sparse reduces over one axis or all of them")
    return axis


# ---------------------------------------------------------------- reductions


def _sum(
    a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False
) -> Any:
    no_out("sum", "scipy", out)
    axis = _one_axis(axis, a.ndim)
    return _reduced(a, a.sum(axis=axis, dtype=dtype), axis, keepdims)


def _mean(
    a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False
) -> Any:
    no_out("mean", "scipy", out)
    axis = _one_axis(axis, a.ndim)
    return _reduced(a, a.mean(axis=axis, dtype=dtype), axis, keepdims)


def _reducer(method: str, name: str | None = None) -> Any:
    name = name or method

    def reduce(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Any:
        no_out(name, "scipy", out)
        ax = _one_axis(axis, a.ndim)
        return _reduced(a, getattr(a, method)(axis=ax), ax, keepdims)

    reduce.__name__ = reduce.__qualname__ = f"_{method}"
    return reduce


def _count_nonzero(a: Any, axis: Any = None, keepdims: bool = False) -> Any:
    axis = _one_axis(axis, a.ndim)
    # scipy counts stored entries that are nonzero; as numpy, an intp count
    return _reduced(a, a.count_nonzero(axis=axis), axis, keepdims).astype(np.intp)


def _moment(root: bool) -> Any:
    """numpy's ``var`` (``std`` with ``root``) of a scipy.sparse matrix."""

    def moment(
        a: Any,
        axis: Any = None,
        dtype: Any = None,
        out: Any = None,
        ddof: int = 0,
        keepdims: bool = False,
    ) -> Any:
        # E[|x|^2] - |E[x]|^2 from sparse sums (unstored entries count as zeros)
        no_out("std" if root else "var", "scipy", out)
        axis = _one_axis(axis, a.ndim)
        n = a.shape[axis] if axis is not None else np.prod(a.shape)
        mean = _reduced(a, a.mean(axis=axis), axis, True)
        sq = abs(a).power(2) if a.dtype.kind == "c" else a.power(2)
        msq = _reduced(a, sq.mean(axis=axis), axis, True)
        var = (msq - abs(mean) ** 2) * n / (n - ddof)
        var = np.maximum(var, 0)
        if not keepdims:
            var = var.reshape(()) if axis is None else np.squeeze(var, axis)
        var = var if dtype is None else var.astype(dtype)
        return np.sqrt(var) if root else var

    moment.__name__ = moment.__qualname__ = "_std" if root else "_var"
    return moment


def _trace(
    a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None
) -> Any:
    no_out("trace", "scipy", out)
    if (axis1 % 2, axis2 % 2) == (1, 0):
        a = a.T
    out_ = a.trace(offset=offset)
    return out_ if dtype is None else np.asarray(out_, dtype=dtype)[()]


def _diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> np.ndarray:
    if (axis1 % 2, axis2 % 2) == (1, 0):
        a = a.T
    return a.diagonal(k=offset)


def _nonzero(a: Any) -> tuple:
    # scipy lists csc entries column by column: numpy's order is row-major
    rows, cols = a.nonzero()
    order = np.lexsort((cols, rows))
    return rows[order].astype(np.intp), cols[order].astype(np.intp)


# ---------------------------------------------------------------- shape and products


def _transpose(a: Any, axes: Any = None) -> Any:
    if axes is not None and tuple(ax % a.ndim for ax in axes) == tuple(range(a.ndim)):
        return a.copy()
    return a.transpose()


def _reshape(a: Any, /, shape: Any = NO_VALUE, order: str = "C", *, newshape: Any = NO_VALUE,
             copy: bool | None = None) -> Any:
    shape = reshape_shape(shape, newshape)
    check_order(order)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if len(shape) == 1 and not isinstance(a, ss.sparray):
        raise ValueError("scipy.sparse matrices (the *_matrix classes) are 2-D; use *_array")
    if len(shape) == 1:
        a = ss.coo_array(a)
    return a.reshape(shape, order=order, copy=bool(copy))


def _ravel(a: Any, order: str = "C") -> Any:
    return _reshape(a, (-1,), order=order)


def _matmul(a: Any, b: Any) -> Any:
    # the @ operator is the matrix product for the *_matrix and *_array classes alike
    return _dense_if_matrix(operator.matmul(a, b))


def _dot(a: Any, b: Any) -> Any:
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return _multiply(a, b)
    return _matmul(a, b)


def _dense_if_matrix(r: Any) -> Any:
    return np.asarray(r) if isinstance(r, np.matrix) else r


def _multiply(a: Any, b: Any) -> Any:
    # elementwise (``*`` is a matrix product on the *_matrix classes)
    if issparse(a):
        return _dense_if_matrix(a.multiply(b))
    if issparse(b):
        return _dense_if_matrix(b.multiply(a))
    return np.multiply(a, b)


def _add(a: Any, b: Any) -> Any:
    if (np.ndim(a) == 0 and a != 0) or (np.ndim(b) == 0 and b != 0):
        raise NotImplementedError(
            "adding a nonzero scalar to a scipy.sparse matrix fills every entry; "
            "use the 'sparse' backend or to_numpy"
        )
    return _dense_if_matrix(a + b)


def _subtract(a: Any, b: Any) -> Any:
    return _add(a, -b)


def _divide(a: Any, b: Any) -> Any:
    # only division by a scalar keeps the zeros
    if not issparse(a) or np.ndim(b) != 0:
        raise NotImplementedError(
            "scipy.sparse divides a sparse matrix by a scalar only (other quotients are dense)"
        )
    return a / b


def _kron(a: Any, b: Any) -> Any:
    return ss.kron(a, b, format="csr")


def _zeros(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Any:
    check_order(order)
    host_device("zeros", "scipy", device)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    dtype = dtype or float
    return ss.csr_array(shape, dtype=dtype) if len(shape) == 2 else ss.coo_array(shape, dtype=dtype)


def _zeros_like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True,
                shape: Any = None, *, device: Any = None) -> Any:
    check_order(order)  # scipy.sparse containers have no memory order: numpy's check only
    return _zeros(a.shape if shape is None else shape, dtype or a.dtype, device=device)


def _eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, order: str = "C", *,
         device: Any = None) -> Any:
    check_order(order)
    host_device("eye", "scipy", device)
    return ss.eye_array(N, M, k=k, dtype=dtype or float, format="csr")


def _identity(n: int, dtype: Any = None) -> Any:
    return ss.eye_array(n, dtype=dtype or float, format="csr")


# ---------------------------------------------------------------- elementwise


def _method(name: str) -> Any:
    def apply(x: Any) -> Any:
        return getattr(x, name)()

    apply.__name__ = apply.__qualname__ = f"_{name}"
    return apply


def _on_data(fn: Any) -> Any:
    """``fn`` (with fn(0) == 0) on the stored values of a sparse matrix."""

    def apply(x: Any) -> Any:
        y = x.tocsr(copy=True)
        y.sum_duplicates()  # f(a + b) is not f(a) + f(b)
        y.data = fn(y.data)
        return y

    apply.__name__ = apply.__qualname__ = f"_{getattr(fn, '__name__', 'fn')}"
    return apply


def _power(x: Any, p: Any) -> Any:
    if np.ndim(p) != 0 or (np.real(p) <= 0):
        raise NotImplementedError(
            "scipy.sparse raises to a positive scalar power only (others do not keep zeros)"
        )
    return x.power(p)


def _maximum(a: Any, b: Any) -> Any:
    return _dense_if_matrix(a.maximum(b) if issparse(a) else b.maximum(a))


def _minimum(a: Any, b: Any) -> Any:
    return _dense_if_matrix(a.minimum(b) if issparse(a) else b.minimum(a))


# ---------------------------------------------------------------- linalg


def _finite(*arrays: Any) -> None:
    """scipy's ``check_finite``: the stored values of a sparse matrix are read."""
    check_finite(*(x.data if issparse(x) else np.asarray(x) for x in arrays))


def _csc(a: Any) -> Any:
    if a.ndim != 2:
        raise ValueError("a scipy.sparse linear system takes one 2-D matrix")
    a = ss.csc_array(a)
    return a.astype(np.float64) if a.dtype.kind in "biu" else a


def _solve(a: Any, b: Any) -> Any:
    x = ssl.spsolve(_csc(a), b.toarray() if issparse(b) else b)
    return np.asarray(x).reshape(np.shape(b))


def _inv(a: Any) -> Any:
    return ssl.inv(_csc(a))


def _expm(a: Any) -> Any:
    return ssl.expm(_csc(a))


def _slogdet(a: Any) -> tuple[Any, Any]:
    return _superlu.slogdet(_csc(a), a.dtype)


def _det(a: Any) -> Any:
    return _superlu.det(_csc(a), a.dtype)


def _lu(a: Any, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True,
        p_indices: bool = False) -> Any:
    # overwrite_a only allows scipy to write into ``a``: never done here
    if check_finite:
        _finite(a)
    lu = _superlu.factor(_csc(a), "linalg.lu")
    n = lu.shape[0]
    if p_indices:  # scipy's row indices: row i of P L U is row p[i] of L U
        return lu.perm_r.astype(np.int32), ss.csr_array(lu.L), ss.csr_array(lu.U)
    # SuperLU: Pr A = L U; numpy/scipy's convention A = P L U with P = Pr^T
    # (P[i, perm_r[i]] = 1)
    p = ss.csr_array((np.ones(n), (np.arange(n), lu.perm_r)), shape=(n, n))
    lo, up = ss.csr_array(lu.L), ss.csr_array(lu.U)
    return (p @ lo, up) if permute_l else (p, lo, up)


def _solve_triangular(
    a: Any, b: Any, trans: Any = 0, lower: bool = False, unit_diagonal: bool = False,
    overwrite_b: bool = False, check_finite: bool = True,
) -> Any:
    # overwrite_b only allows scipy to write into ``b``: never done here
    if check_finite:
        _finite(a, b)
    if trans in (1, "T"):
        a, lower = a.T, not lower
    elif trans in (2, "C"):
        a, lower = a.T.conj(), not lower
    m = ss.csr_array(_csc(a))
    rhs = b.toarray() if issparse(b) else np.asarray(b)
    return ssl.spsolve_triangular(m, rhs, lower=lower, unit_diagonal=unit_diagonal)


def _norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    if ord in (-2, "nuc"):
        raise NotImplementedError(
            f"linalg.norm(ord={ord!r}) needs all singular values; scipy.sparse.linalg.norm "
            "gives the largest only"
        )
    out = np.asarray(ssl.norm(x, ord=ord, axis=axis))
    if not keepdims:
        return out[()]
    if axis is None:
        return out.reshape((1,) * x.ndim)
    return np.expand_dims(out, axis)


_FILLS = "scipy.sparse has no fill value: {} would store every entry (use the 'sparse' backend)"
_DENSE = "scipy.sparse.linalg has no {} (computing it densely is not sparse work)"

TABLE = merge_tables(
    {
        # conversion and introspection
        "asarray": _asarray,
        "array": _array,
        "from_numpy": _from_numpy,
        "to_numpy": _to_numpy,
        "astype": _astype,
        "cast": _astype,
        "to_backend_dtype": np.dtype,
        "to_device": _to_device,
        "copy": lambda x: x.copy(),
        "stop_gradient": lambda x: x,
        # creation (zero-filled only)
        "zeros": _zeros,
        "zeros_like": _zeros_like,
        "empty": _zeros,
        "empty_like": _zeros_like,
        "eye": _eye,
        "identity": _identity,
        # reductions
        "sum": _sum,
        "mean": _mean,
        "var": _moment(root=False),
        "std": _moment(root=True),
        "max": _reducer("max"),
        "min": _reducer("min"),
        "amax": _reducer("max", "amax"),
        "amin": _reducer("min", "amin"),
        "argmax": _reducer("argmax"),
        "argmin": _reducer("argmin"),
        "count_nonzero": _count_nonzero,
        "trace": _trace,
        "diagonal": _diagonal,
        "nonzero": _nonzero,
        # shape and products
        "transpose": _transpose,
        "reshape": _reshape,
        "ravel": _ravel,
        "matmul": _matmul,
        "dot": _dot,
        "multiply": _multiply,
        "add": _add,
        "subtract": _subtract,
        "divide": _divide,
        "true_divide": _divide,
        "kron": _kron,
        "tril": lambda m, k=0: ss.tril(m, k=k, format="csr"),
        "triu": lambda m, k=0: ss.triu(m, k=k, format="csr"),
        "hstack": lambda tup: ss.hstack(list(tup), format="csr"),
        "vstack": lambda tup: ss.vstack(list(tup), format="csr"),
        "abs": abs,
        "absolute": abs,
        "negative": operator.neg,
        "positive": lambda x: x.copy(),
        "square": lambda x: x.power(2),
        "power": _power,
        "degrees": _method("rad2deg"),
        "radians": _method("deg2rad"),
        "fix": _method("trunc"),
        "real": lambda x: x.real,
        "imag": lambda x: x.imag,
        "maximum": _maximum,
        "minimum": _minimum,
        "cbrt": _on_data(np.cbrt),
        "scipy.special.erf": _on_data(sc.erf),
        "scipy.special.erfinv": _on_data(sc.erfinv),
        "scipy.special.erfc": unsupported(_FILLS.format("'erfc' (erfc(0) = 1)")),
        "scipy.special.expit": unsupported(_FILLS.format("'expit' (expit(0) = 0.5)")),
        # linalg: sparse algorithms of scipy.sparse.linalg
        "linalg.solve": _solve,
        "linalg.inv": _inv,
        "linalg.det": _det,
        "linalg.slogdet": _slogdet,
        "linalg.lu": _lu,
        "scipy.linalg.lu": _lu,
        "linalg.norm": _norm,
        "linalg.expm": _expm,
        "scipy.linalg.expm": _expm,
        "scipy.linalg.solve_triangular": _solve_triangular,
        "linalg.qr": unsupported(_DENSE.format("QR decomposition")),
        "linalg.svd": unsupported(_DENSE.format("full SVD (svds finds a few singular triplets)")),
        "linalg.eig": unsupported(_DENSE.format("full eigendecomposition (eigs finds a few)")),
        "linalg.eigvals": unsupported(_DENSE.format("full eigendecomposition (eigs finds a few)")),
        "linalg.eigh": unsupported(_DENSE.format("full eigendecomposition (eigsh finds a few)")),
        "linalg.eigvalsh": unsupported(
            _DENSE.format("full eigendecomposition (eigsh finds a few)")
        ),
        "linalg.cholesky": unsupported(_DENSE.format("Cholesky factorization")),
        "linalg.pinv": unsupported(_DENSE.format("pseudo-inverse (it needs a full SVD)")),
        "linalg.matrix_rank": unsupported(_DENSE.format("matrix rank (it needs a full SVD)")),
        "linalg.lstsq": unsupported(
            _DENSE.format("lstsq with numpy's rank and singular values (lsqr gives x only)")
        ),
    },
    # creation routines whose result has no zeros
    {
        n: unsupported(_FILLS.format(f"'{n}'"))
        for n in ("ones", "ones_like", "full", "full_like", "arange", "linspace", "meshgrid")
    },
    # elementwise functions with f(0) == 0: the sparse matrix methods
    {
        n: _method(n)
        for n in _names(
            "sin sinh tan tanh arcsin arcsinh arctan arctanh sqrt expm1 log1p floor ceil trunc "
            "rint sign deg2rad rad2deg conj conjugate"
        )
    },
    # elementwise functions with f(0) != 0: every entry would be stored
    {
        n: unsupported(_FILLS.format(f"'{n}' (f(0) != 0)"))
        for n in _names(
            "exp exp2 cos cosh log log2 log10 arccos arccosh reciprocal logical_not invert "
            "isnan isinf isfinite equal less_equal greater_equal"
        )
    },
    # no sparse algorithm, or results that fill every entry
    {
        f"fft.{n}": unsupported("scipy.sparse has no FFT (the transform fills every entry)")
        for n in _names("fft ifft fft2 ifft2 fftn ifftn rfft irfft rfftn irfftn")
    },
    {
        n: unsupported(f"scipy.sparse has no {n} (its matrices are not sorted or scanned)")
        for n in _names("sort argsort cumsum cumprod median searchsorted unique")
    },
    names=("scipy", "filling creation", "matrix methods", "filling functions", "fft", "scans"),
)
