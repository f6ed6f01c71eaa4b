"""autograd: numpy's reductions whose autograd primitive has no derivative (``cumprod``,
``nansum``, ``nanmean``, ``ptp``, ``median``, ``vdot``, ``cov``, ``corrcoef``,
``bincount`` with weights).

Each gives numpy's value (:func:`~._common.exact`) with the derivative of a formula
autograd differentiates: the running products one slice at a time, sums with the
nans taken out, ``max - min``, the median as the 0.5 quantile (the mean of the middle
pair), a sum of products, numpy's own formula of ``cov``; ``corrcoef`` is the shared
one written with ``do``, from ``cov``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from autograd import numpy as anp
from autograd.extend import defvjp, primitive
from autograd.tracer import Box, getval
from dispatch.translations._composed._covariance import corrcoef
from dispatch.translations._composed._moment_dtypes import in_dtype
from dispatch.translations._composed.reductions import numpy_moment

from dispatch.engine import do

from ._common import exact, values, where


def _no_out(name: str, out: Any) -> None:
    if out is not None:
        raise TypeError(f"{name}(out=...) writes into an array: autograd records pure functions")


def _cumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    """numpy's ``cumprod``, differentiated through the running products along ``axis``.

    >>> _cumprod(np.array([[1.0, 2.0], [3.0, 4.0]]), axis=1)
    array([[ 1.,  2.],
           [ 3., 12.]])
    """
    _no_out("cumprod", out)
    value = np.cumprod(getval(a), axis=axis, dtype=dtype)
    if axis is None:
        a, axis = anp.ravel(a), 0
    moved = anp.moveaxis(a, axis, 0)
    if getval(moved).shape[0] == 0:
        return exact(value, a)
    running = [moved[0]]
    for i in range(1, getval(moved).shape[0]):
        running.append(running[-1] * moved[i])
    return exact(value, anp.moveaxis(anp.stack(running), 0, axis))


def _nan_free(a: Any) -> Any:
    return where(np.isnan(getval(a)), 0.0, a)


def _nansum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
            keepdims: bool = False, **kwargs: Any) -> Any:
    _no_out("nansum", out)
    value = np.nansum(getval(a), axis=axis, dtype=dtype, keepdims=keepdims, **kwargs)
    return exact(value, anp.sum(_nan_free(a), axis=axis, keepdims=keepdims))


def _nanmean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
             keepdims: bool = False, **kwargs: Any) -> Any:
    _no_out("nanmean", out)
    v = getval(a)
    value = np.nanmean(v, axis=axis, dtype=dtype, keepdims=keepdims, **kwargs)
    count = np.sum(~np.isnan(v), axis=axis, keepdims=keepdims)
    return exact(value, anp.sum(_nan_free(a), axis=axis, keepdims=keepdims) / count)


def _ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Any:
    _no_out("ptp", out)
    value = np.ptp(getval(a), axis=axis, keepdims=keepdims)
    return exact(value, anp.max(a, axis=axis, keepdims=keepdims)
                 - anp.min(a, axis=axis, keepdims=keepdims))


def _median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
            keepdims: bool = False) -> Any:
    _no_out("median", out)
    value = np.median(getval(a), axis=axis, keepdims=keepdims)
    return exact(value, do("quantile", a, 0.5, axis=axis, keepdims=keepdims))


# counts weighted by a box: the weights' derivative is a gather of the cotangent at
# each weight's bin (autograd's own bincount has no derivative)
_weighted_bincount = primitive(lambda weights, x, minlength: np.bincount(x, weights, minlength))
defvjp(_weighted_bincount, lambda ans, weights, x, minlength: lambda g: g[x])


def _bincount(x: Any, weights: Any = None, minlength: int = 0) -> Any:
    """numpy's ``bincount``: integer counts (no derivative), or sums of weights, which
    are differentiable in the weights.

    >>> _bincount(np.array([0, 2, 2]), np.array([0.5, 1.0, 2.0]))
    array([0.5, 0. , 3. ])
    """
    x = np.asarray(getval(x))
    if not isinstance(weights, Box):
        return np.bincount(x, getval(weights), minlength)
    if np.ndim(getval(weights)) != 1 or x.ndim != 1:
        np.bincount(x, getval(weights), minlength)  # numpy's error for these shapes
    return _weighted_bincount(weights, x, minlength)


def _vdot(a: Any, b: Any) -> Any:
    """numpy's ``vdot``: the flattened ``conj(a) . b``.

    >>> _vdot(np.array([1j, 2.0]), np.array([1.0, 1.0]))
    np.complex128(2-1j)
    """
    value = np.vdot(getval(a), getval(b))
    return exact(value, anp.sum(anp.conj(anp.ravel(a)) * anp.ravel(b)))


def _cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: Any = None,
         fweights: Any = None, aweights: Any = None, *, dtype: Any = None) -> Any:
    """numpy's ``cov``, differentiated through numpy's own formula (in the data and in
    ``aweights``; ``fweights`` are integers)."""
    value = np.cov(getval(m), values(y), rowvar, bias, ddof, values(fweights),
                   values(aweights), dtype=dtype)

    def rows(a: Any) -> Any:
        a = anp.atleast_2d(a)
        return anp.transpose(a) if not rowvar and np.shape(getval(a))[0] != 1 else a

    x = rows(m) if y is None else anp.concatenate([rows(m), rows(y)], axis=0)
    x = x.astype(value.dtype) if getval(x).dtype != value.dtype else x
    n = np.shape(getval(x))[1]
    ddof = (0 if bias else 1) if ddof is None else ddof
    w = None if fweights is None else np.asarray(values(fweights), dtype=float)
    if aweights is not None:
        w = aweights if w is None else w * aweights
    if w is None:
        avg, fact = anp.mean(x, axis=1), n - ddof
    else:
        w_sum = anp.sum(w)
        avg = anp.sum(x * w, axis=1) / w_sum
        fact = w_sum if ddof == 0 else w_sum - ddof if aweights is None else (
            w_sum - ddof * anp.sum(w * aweights) / w_sum)
    if getval(fact) <= 0:
        fact = 0.0  # numpy warns (above) and divides by zero
    x = x - avg[:, None]
    xw = x if w is None else x * w
    with np.errstate(divide="ignore", invalid="ignore"):
        return exact(value, anp.squeeze(anp.dot(x, anp.conj(anp.transpose(xw))) / fact))


TABLE = {
    # autograd's var and std pass numpy 2's mean= on to numpy with a box in it
    # numpy's integer, boolean and complex dtype= of the moments: translations/_composed
    "var": in_dtype("var", numpy_moment("var", anp.var)),
    "std": in_dtype("std", numpy_moment("std", anp.std)),
    "cumprod": _cumprod,
    "nansum": _nansum,
    "nanmean": in_dtype("nanmean", _nanmean),
    "ptp": _ptp,
    "median": _median,
    "vdot": _vdot,
    "bincount": _bincount,
    "cov": _cov,
    "corrcoef": corrcoef,
}
