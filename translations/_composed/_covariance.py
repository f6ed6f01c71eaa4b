"""numpy's ``cov`` and ``corrcoef``, written with ``do`` for the libraries whose own
differ or are missing (tensorflow and pydata sparse have none; torch's take neither
``y``, ``rowvar``, ``bias`` nor ``ddof``). Their tables name these functions; numpy,
jax and dask keep their own.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from dispatch.engine import do, infer_backend, is_array


def _weights(w: Any, name: str, n: int, like: Any) -> Any:
    w = do("asarray", w, like=like)
    if tuple(do("shape", w)) != (n,):
        raise ValueError(f"cov: {name} must be 1-d with one weight per observation ({n}), "
                         f"got shape {tuple(do('shape', w))}")
    return w


def _float_array(x: Any) -> bool:
    """Whether ``x`` (weights: an array, a sequence, or None) holds inexact numbers."""
    if x is None:
        return False
    dt = np.dtype(do("get_dtype_name", x)) if is_array(x) else np.asarray(x).dtype
    return dt.kind in "fc"


def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: Any = None,
        fweights: Any = None, aweights: Any = None, *, dtype: Any = None) -> Any:
    """numpy's ``cov``, written with ``do`` for the libraries that have none: the
    covariance of the variables in the rows of ``m`` (columns when ``rowvar`` is
    False), and of ``y``'s, in float64 or wider as numpy's (``dtype`` to choose).

    Examples
    --------
    >>> import numpy as np
    >>> cov(np.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    if do("ndim", m) > 2:
        raise ValueError("cov: m has more than 2 dimensions")

    def rows(a: Any) -> Any:
        a = do("atleast_2d", a)
        observations_first = not rowvar and do("shape", a)[0] != 1
        return do("transpose", a) if observations_first else a

    x = rows(m)
    if y is not None:
        if do("ndim", y) > 2:
            raise ValueError("cov: y has more than 2 dimensions")
        x = do("concatenate", [x, rows(y)], axis=0)
    kinds = [np.dtype(do("get_dtype_name", a)) for a in (m, y) if a is not None]
    if dtype is not None:
        wide = np.dtype(dtype)
    elif all(k.kind in "biu" for k in kinds) and not _float_array(aweights):
        # integers (alone: float weights make numpy's float64 a float input's) become
        # the library's default float, as every int -> float function (numpy's
        # float64, torch's float32)
        wide = np.dtype(do("get_dtype_name", do("zeros", 0, like=infer_backend(x))))
    else:
        wide = np.result_type(*kinds, np.float64)
    x = do("astype", x, wide.name)
    n = tuple(do("shape", x))[1]
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        f = _weights(fweights, "fweights", n, x)
        if do("get_dtype_name", f)[:3] not in ("int", "uin"):
            raise TypeError("cov: fweights must be integers")
        if bool(do("any", f < 0)):
            raise ValueError("cov: fweights cannot be negative")
        w = do("astype", f, "float64")
    if aweights is not None:
        a = _weights(aweights, "aweights", n, x)
        if bool(do("any", a < 0)):
            raise ValueError("cov: aweights cannot be negative")
        a = do("astype", a, "float64")
        w = a if w is None else w * a
    # the weights are real (numpy's float64); their sums are read as Python floats,
    # which every library divides its arrays by (complex ones included)
    if w is None:
        avg = do("mean", x, axis=1, keepdims=True)
        fact = float(n - ddof)
    else:
        w_sum = float(do("sum", w))
        ww = do("astype", w, wide.name)
        avg = do("sum", x * ww, axis=1, keepdims=True) / w_sum
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * float(do("sum", w * a)) / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    x = x - avg
    xw = x if w is None else x * ww
    c = do("matmul", x, do("conj", do("transpose", xw))) / fact
    return do("squeeze", c)


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> Any:
    """numpy's ``corrcoef`` (Pearson's coefficients from :func:`cov`), written with
    ``do`` for the libraries that have none; the real parts are clipped to [-1, 1].

    Examples
    --------
    >>> import numpy as np
    >>> corrcoef(np.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if do("ndim", c) == 0:
        return c / c  # numpy: nan for a constant, 1 otherwise
    std = do("astype", do("sqrt", do("real", do("diagonal", c))), do("get_dtype_name", c))
    c = c / std[:, None] / std[None, :]
    if not do("iscomplexobj", c):
        return do("clip", c, -1, 1)
    name = do("get_dtype_name", c)
    re, im = (do("astype", do("clip", part, -1, 1), name) for part in (do("real", c),
                                                                     do("imag", c)))
    return re + im * do("asarray", 1j, dtype=name, like=c)

