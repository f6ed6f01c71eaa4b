"""numpy's power-series polynomial functions (``numpy.poly*``, ``roots``, ``vander``),
written once with ``do``.

Coefficients run from the highest power down, as numpy's: ``p[0] * x**n + ... + p[n]``.
Results are arrays (numpy's ``poly1d`` objects are not reproduced). ``polyval`` is
Horner's rule, ``polymul`` a ``convolve``, ``polyfit`` a least-squares solve
(``linalg.lstsq``) on the column-scaled Vandermonde matrix, ``roots`` the
eigenvalues of the companion matrix and ``poly`` repeated multiplication by
``(x - r)``. Where numpy's result shape depends on the values (``polymul`` and
``polydiv`` drop leading zeros, ``roots`` strips zero coefficients, ``poly``
returns real coefficients for conjugate roots) the values are read on the host:
those four run eagerly only.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from dispatch.translations._composed._common import _dtype, _host
from dispatch.translations._composed.reductions import default_float, result_dtype_name

from dispatch.engine import backend_of_type, composed, do, is_array


def _arr(x: Any, like: Any = None) -> Any:
    """``x`` as an array of the library of ``like`` (numpy arrays and sequences are
    constants: converted), else as it is or as numpy's."""
    if like is None:
        return x if is_array(x) else do("asarray", x)
    if is_array(x) and backend_of_type(type(x)) == backend_of_type(type(like)):
        return x
    return do("asarray", _host(x) if is_array(x) else np.asarray(x), like=like)


def _ref(*xs: Any) -> Any:
    """The first array among ``xs`` that is not numpy's (else numpy's, else None)."""
    arrays = [x for x in xs if is_array(x)]
    for x in arrays:
        if not isinstance(x, (np.ndarray, np.generic)):
            return x
    return arrays[0] if arrays else None


def _vec(x: Any, like: Any) -> Any:
    """numpy's ``atleast_1d`` of one argument."""
    x = _arr(x, like)
    return do("reshape", x, (1,)) if do("ndim", x) == 0 else x


def _as(x: Any, name: str) -> Any:
    return x if _dtype(x) == name else do("astype", x, name)


def _float(x: Any) -> Any:
    """``x + 0.0`` as numpy computes it: integers and booleans become floats (float64 on
    numpy, the library's default float elsewhere: docs/vocabulary.md, dtypes)."""
    name = _dtype(x)
    if name.startswith(("float", "complex", "bfloat")):
        return x
    return do("astype", x, default_float(x).name)


def _pad_front(x: Any, n: int) -> Any:
    if n <= 0:
        return x
    return do("concatenate", [do("zeros", (n,), dtype=_dtype(x), like=x), x])


def _trim_front(x: Any) -> Any:
    """numpy's ``poly1d(x).coeffs``: leading zeros dropped, ``[0]`` if none is left."""
    host = _host(x)
    if host.ndim > 1:
        raise ValueError("Polynomial must be 1d only.")
    nonzero = np.flatnonzero(host)
    if nonzero.size == 0:
        return do("zeros", (1,), dtype=_dtype(x), like=x)
    return x[int(nonzero[0]) :]


def _pair(a1: Any, a2: Any) -> tuple[Any, Any]:
    like = _ref(a1, a2)
    a1, a2 = _vec(a1, like), _vec(a2, like)
    dt = result_dtype_name(_dtype(a1), _dtype(a2))
    n1, n2 = do("shape", a1)[0], do("shape", a2)[0]
    return _pad_front(_as(a1, dt), n2 - n1), _pad_front(_as(a2, dt), n1 - n2)


@composed("polyadd")
def polyadd(a1: Any, a2: Any) -> Any:
    """The sum of two polynomials, numpy's ``polyadd``: the shorter coefficient array
    padded with leading zeros.

    Examples
    --------
    >>> import numpy as np
    >>> do("polyadd", np.array([1.0, 2.0]), np.array([9.0, 5.0, 4.0]))
    array([9., 6., 6.])
    """
    a1, a2 = _pair(a1, a2)
    return a1 + a2


@composed("polysub")
def polysub(a1: Any, a2: Any) -> Any:
    """The difference ``a1 - a2`` of two polynomials, numpy's ``polysub``.

    Examples
    --------
    >>> import numpy as np
    >>> do("polysub", np.array([2.0, 10.0, -2.0]), np.array([3.0, 10.0, -4.0]))
    array([-1.,  0.,  2.])
    """
    a1, a2 = _pair(a1, a2)
    return a1 - a2


@composed("polymul")
def polymul(a1: Any, a2: Any) -> Any:
    """The product of two polynomials, numpy's ``polymul``: ``convolve`` of their
    coefficients, leading zeros dropped first (as numpy's ``poly1d`` does: eager only).

    Examples
    --------
    >>> import numpy as np
    >>> do("polymul", np.array([1.0, 2.0, 3.0]), np.array([9.0, 5.0, 1.0]))
    array([ 9., 23., 38., 17.,  3.])
    """
    like = _ref(a1, a2)
    a1, a2 = _trim_front(_vec(a1, like)), _trim_front(_vec(a2, like))
    return do("convolve", a1, a2)


@composed("polydiv")
def polydiv(u: Any, v: Any) -> tuple[Any, Any]:
    """Quotient and remainder of polynomial division, numpy's ``polydiv``: long
    division, the remainder's leading (near-)zeros dropped as numpy does (eager only).

    Examples
    --------
    >>> import numpy as np
    >>> do("polydiv", np.array([3.0, 5.0, 2.0]), np.array([2.0, 1.0]))
    (array([1.5 , 1.75]), array([0.25]))
    """
    like = _ref(u, v)
    u, v = _float(_vec(u, like)), _float(_vec(v, like))
    dt = result_dtype_name(_dtype(u), _dtype(v))
    u, v = _as(u, dt), _as(v, dt)
    m, n = do("shape", u)[0] - 1, do("shape", v)[0] - 1
    scale = 1.0 / v[0]
    r = u - 0.0  # a new array, as numpy's copy (-0.0 stays -0.0)
    quotient = []
    for k in range(m - n + 1):
        d = scale * r[k]
        quotient.append(d)
        r = r - d * _pad_front(do("concatenate", [v, do("zeros", (m - n - k,), dtype=dt,
                                                          like=v)]), k)
    q = do("stack", quotient) if quotient else do("zeros", (1,), dtype=dt, like=u)
    host = _host(r)
    start = 0
    while start < host.shape[0] - 1 and np.allclose(host[start], 0, rtol=1e-14):
        start += 1
    return q, r[start:]


@composed("polyder")
def polyder(p: Any, m: int = 1) -> Any:
    """The ``m``-th derivative of a polynomial, numpy's ``polyder`` (integer
    coefficients stay integers).

    Examples
    --------
    >>> import numpy as np
    >>> do("polyder", np.array([1.0, 1.0, 1.0, 1.0]), 2)
    array([6., 2.])
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = _arr(p)
    for _ in range(m):
        n = do("shape", p)[0] - 1
        dt = result_dtype_name(_dtype(p), "int64")  # numpy: times an int64 arange
        p = _as(p[:-1], dt) * _as(do("arange", n, 0, -1, like=p), dt)
    return p


@composed("polyint")
def polyint(p: Any, m: int = 1, k: Any = None) -> Any:
    """The ``m``-th antiderivative of a polynomial, numpy's ``polyint``: ``k`` holds
    the integration constants (a scalar for all, or ``m`` values, highest order first).

    Examples
    --------
    >>> import numpy as np
    >>> do("polyint", np.array([3.0, 2.0, 1.0]))
    array([1., 1., 1., 0.])
    >>> do("polyint", np.array([6.0, 2.0]), 2, [1.0, 5.0])
    array([1., 1., 1., 5.])
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    p = _arr(p)
    ks = np.zeros(m, float) if k is None else _host(k) if is_array(k) else np.asarray(k)
    ks = np.atleast_1d(ks)
    if len(ks) == 1 and m > 1:
        ks = ks[0] * np.ones(m, float)
    if len(ks) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    # numpy divides by an int64 arange: float64 (integers: the library's default float)
    dt = _dtype(_float(p[:0]))
    dt = result_dtype_name(dt, "float64") if dt == _dtype(p) else dt
    if np.iscomplexobj(ks):  # the constants are Python-like numbers: only their kind
        dt = result_dtype_name(dt, "complex64")
    for i in range(m):
        n = do("shape", p)[0]
        y = _as(p, dt) / _as(do("arange", n, 0, -1, like=p), dt)
        p = do("concatenate", [y, do("asarray", np.asarray([ks[i]]), dtype=dt, like=y)])
    return p


@composed("polyval")
def polyval(p: Any, x: Any) -> Any:
    """The polynomial with coefficients ``p`` at ``x``, numpy's ``polyval``, by
    Horner's rule (``len(p)`` multiply-adds); the dtype is numpy's promotion of both.

    Examples
    --------
    >>> import numpy as np
    >>> do("polyval", np.array([3.0, 0.0, 1.0]), np.array([5.0, -1.0]))
    array([76.,  4.])
    """
    like = _ref(p, x)
    p, x = _arr(p, like), _arr(x, like)
    n = do("shape", p)[0]
    dt = _dtype(x) if n == 0 else result_dtype_name(_dtype(p), _dtype(x))
    x = _as(x, dt)
    if n == 0:
        return do("zeros_like", x)
    p = _as(p, dt)
    y = do("zeros_like", x) + p[0]
    for i in range(1, n):
        y = y * x + p[i]
    return y


@composed("vander")
def vander(x: Any, N: int | None = None, increasing: bool = False) -> Any:
    """The Vandermonde matrix of a vector, numpy's ``vander``: columns ``x**(N-1)``
    down to ``x**0`` (up with ``increasing``).

    Examples
    --------
    >>> import numpy as np
    >>> do("vander", np.array([1, 2, 3]), 3)
    array([[1, 1, 1],
           [4, 2, 1],
           [9, 3, 1]])
    """
    x = _arr(x)
    if do("ndim", x) != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = do("shape", x)[0] if N is None else int(N)
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    dt = np.promote_types(_dtype(x), np.int64).name  # numpy: floats widen to 64 bits too
    x = _as(x, dt)
    cols = [do("ones_like", x)] if n else []
    for _ in range(1, n):
        cols.append(cols[-1] * x)
    if not cols:
        return do("zeros", (do("shape", x)[0], 0), dtype=dt, like=x)
    if not increasing:
        cols = cols[::-1]
    return do("stack", cols, axis=1)


def _rank(rank: Any) -> int | None:
    """The rank as a Python int, None while tracing (the values are unknown)."""
    if not is_array(rank):
        return int(rank)
    return int(_host(rank)) if do("is_available", rank) else None


@composed("polyfit")
def polyfit(
    x: Any, y: Any, deg: int, rcond: Any = None, full: bool = False, w: Any = None,
    cov: Any = False,
) -> Any:
    """The least-squares polynomial fit of degree ``deg``, numpy's ``polyfit``:
    ``linalg.lstsq`` on the Vandermonde matrix with its columns scaled to unit norm,
    weights ``w`` applied to the rows; ``full`` returns (coefficients, residuals,
    rank, singular values, rcond), ``cov`` the coefficients' covariance (scaled by
    the residuals unless ``cov='unscaled'``). The rank warning is raised eagerly only.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([0.0, 1.0, 2.0, 3.0])
    >>> np.round(do("polyfit", x, 2 * x**2 - x + 1, 2), 8)
    array([ 2., -1.,  1.])
    """
    order = int(deg) + 1
    like = _ref(x, y, w)
    x, y = _float(_arr(x, like)), _float(_arr(y, like))
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if do("ndim", x) != 1:
        raise TypeError("expected 1D vector for x")
    if do("size", x) == 0:
        raise TypeError("expected non-empty vector for x")
    if do("ndim", y) < 1 or do("ndim", y) > 2:
        raise TypeError("expected 1D or 2D array for y")
    if do("shape", x)[0] != do("shape", y)[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = do("shape", x)[0] * float(np.finfo(np.dtype(_dtype(x))).eps)
    dt = result_dtype_name(_dtype(x), _dtype(y))
    x, y = _as(x, dt), _as(y, dt)
    lhs, rhs = do("vander", x, order), y
    if w is not None:
        w = _float(_arr(w, like))
        if do("ndim", w) != 1:
            raise TypeError("expected a 1-d array for weights")
        if do("shape", w)[0] != do("shape", y)[0]:
            raise TypeError("expected w and y to have the same length")
        w = _as(w, dt)
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if do("ndim", rhs) == 2 else w)
    scale = do("sqrt", do("sum", lhs * lhs, axis=0))
    lhs = lhs / scale
    solved, resids, rank, s = do("linalg.lstsq", lhs, rhs, rcond=rcond)
    c = solved / (scale[:, None] if do("ndim", solved) == 2 else scale)
    if not full and _rank(rank) not in (None, order):
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if not (isinstance(cov, str) or cov):
        return c
    base = do("linalg.inv", do("matmul", do("transpose", lhs), lhs))
    base = base / do("outer", scale, scale)
    if cov == "unscaled":
        fac: Any = 1
    else:
        if do("shape", x)[0] <= order:
            raise ValueError("the number of data points must exceed order "
                             "to scale the covariance matrix")
        # lstsq's residuals, summed here: their shape is known on every library (dask's
        # lstsq gives them an unknown length)
        misfit = rhs - do("matmul", lhs, solved)
        fac = do("sum", misfit * misfit, axis=0) / (do("shape", x)[0] - order)
    if do("ndim", y) == 1:
        return c, base * fac
    return c, base[:, :, None] * fac


@composed("roots")
def roots(p: Any) -> Any:
    """The roots of a polynomial, numpy's ``roots``: the eigenvalues
    (``linalg.eigvals``) of the companion matrix, leading and trailing zero
    coefficients stripped first (trailing ones are roots at 0). Eager only: which
    coefficients are zero decides the shape.

    Examples
    --------
    >>> import numpy as np
    >>> np.sort(do("roots", np.array([1.0, -3.0, 2.0])))
    array([1., 2.])
    """
    p = _vec(p, None)
    if do("ndim", p) != 1:
        raise ValueError("Input must be a rank-1 array.")
    nonzero = np.flatnonzero(_host(p))
    if nonzero.size == 0:
        return do("zeros", (0,), dtype="float64", like=p)
    trailing = do("shape", p)[0] - int(nonzero[-1]) - 1
    p = p[int(nonzero[0]) : int(nonzero[-1]) + 1]
    p = _float(p)
    dt = _dtype(p)
    n = do("shape", p)[0]
    if n > 1:
        top = (-p[1:] / p[0])[None, :]
        below = do("eye", n - 2, n - 1, dtype=dt, like=p)
        found = do("linalg.eigvals", do("concatenate", [top, below], axis=0))
        # real coefficients whose roots are all real give real roots (numpy 2.5's
        # eigvals is complex always; roots drops the zero imaginary parts)
        if np.dtype(dt).kind != "c" and np.dtype(_dtype(found)).kind == "c" and not bool(
                _host(do("any", do("not_equal", do("imag", found), 0)))):
            found = do("real", found)
    else:
        found = do("zeros", (0,), dtype="float64", like=p)
    if not trailing:
        return found
    return do("concatenate", [found, do("zeros", (trailing,), dtype=_dtype(found), like=found)])


@composed("poly")
def poly(seq_of_zeros: Any) -> Any:
    """The coefficients of the monic polynomial with the given roots, numpy's ``poly``
    (a square matrix: the roots are its eigenvalues): repeated multiplication by
    ``(x - r)``. Integer roots give float64; complex coefficients come back real
    when the roots are conjugate pairs, as numpy's (read on the host: eager only).

    Examples
    --------
    >>> import numpy as np
    >>> do("poly", np.array([1.0, 2.0]))
    array([ 1., -3.,  2.])
    >>> do("poly", np.array([1j, -1j]))
    array([1., 0., 1.])
    """
    z = _vec(seq_of_zeros, None)
    shape = do("shape", z)
    if len(shape) == 2 and shape[0] == shape[1] and shape[0] != 0:
        z = do("linalg.eigvals", z)
    elif len(shape) == 1:
        name = _dtype(z)
        if name == "float16":
            z = do("astype", z, "float64")  # numpy's mintypecode: 'e' is not kept
        z = _float(z)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    n = do("shape", z)[0]
    if n == 0:
        return 1.0
    dt = _dtype(z)
    a = do("ones", (1,), dtype=dt, like=z)
    for i in range(n):
        zero = do("zeros", (1,), dtype=dt, like=z)
        a = do("concatenate", [a, zero]) - z[i] * do("concatenate", [zero, a])
    if dt.startswith("complex"):
        r = _host(z).astype(complex)
        if np.all(np.sort(r) == np.sort(r.conjugate())):
            a = do("real", a)
    return a
