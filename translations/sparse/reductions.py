"""pydata sparse: reductions (sums, means, moments, extremes, cumulative sums).

pydata's own reductions take the array API's keywords: the adapters give them
numpy's (``ddof``, ``initial``, ``where=`` through the masked composition of
``translations/_composed/reductions.py``), numpy's dtypes and axes. Cumulative
sums and products fill every position: they are computed on the dense values
(``densified``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sparse
from dispatch.translations._composed._moment_dtypes import in_dtype
from dispatch.translations._composed.reductions import ddof_of, mask_kw, masked
from dispatch.translations._keywords import no_out
from dispatch.translations.sparse._common import densified, sp

from dispatch.engine import merge_tables


def _reduction(name: str) -> Any:
    fn = getattr(sparse, name)

    def reduce(
        a: Any,
        axis: Any = None,
        dtype: Any = None,
        out: Any = None,
        keepdims: bool = False,
        initial: Any = None,
        where: Any = None,
    ) -> Any:
        no_out(name, "sparse", out)
        if where is not None:  # pydata's reductions take no mask
            kw = {} if initial is None else {"initial": initial}
            return masked(name, a, axis, dtype, out, keepdims, where=where, **kw)
        if initial is not None:  # sums and products only: numpy's mean has no initial
            r = reduce(a, axis, dtype, out, keepdims)
            return r + initial if name.endswith("sum") else r * initial
        # sparse's functions take keywords only (the array API signature)
        kw = {} if dtype is None else {"dtype": dtype}
        return fn(sp(a), axis=axis, keepdims=keepdims, **kw)

    reduce.__name__ = reduce.__qualname__ = f"_{name}"
    return reduce


def _nanmean(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    *,
    where: Any = None,
) -> Any:
    no_out("nanmean", "sparse", out)
    if where is not None:
        return masked("nanmean", a, axis, dtype, out, keepdims, where=where)
    a = sp(a)
    kw = {} if dtype is None else {"dtype": dtype}
    r = sparse.nanmean(a, axis=axis, keepdims=keepdims, **kw)
    # pydata's nanmean along an axis computes float32 and complex64 in double width,
    # whether they are the input's dtype or the one asked for
    want = a.dtype if dtype is None else np.dtype(dtype)
    if want.kind in "fc" and r.dtype != want:
        r = r.astype(want)
    return r


_FOLD = {"max": np.maximum, "min": np.minimum, "nanmax": np.fmax, "nanmin": np.fmin}


def _minmax(name: str) -> Any:
    fn = getattr(sparse, name)

    def reduce(
        a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *,
        initial: Any = None, where: Any = True,
    ) -> Any:
        # numpy's max/min (initial=, where=) and all/any (where=)
        no_out(name, "sparse", out)
        if initial is not None and name not in _FOLD:
            raise TypeError(f"{name}() got an unexpected keyword argument 'initial'")
        if where is not True:  # pydata's reductions take no mask
            kw = {} if initial is None else {"initial": initial}
            return masked(name, a, axis, out, keepdims, where=where, **kw)
        r = fn(sp(a), axis=axis, keepdims=keepdims)
        # sparse's reductions take no ``initial``: numpy folds it into the result
        return r if initial is None else _FOLD[name](r, initial)

    reduce.__name__ = reduce.__qualname__ = f"_{name}"
    return reduce


def _arg_extreme(name: str) -> Any:
    fn = getattr(sparse, name)

    def arg(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Any:
        no_out(name, "sparse", out)
        a = sp(a)
        if a.dtype.kind in "fc":
            # pydata orders a stored -0.0 below the fill value 0.0, numpy ties them
            # (first index wins): adding 0.0 turns -0.0 into 0.0 and nothing else
            a = a + a.dtype.type(0)
        if a.ndim == 0:  # pydata refuses 0-d arrays; numpy answers index 0
            return fn(a.reshape((1,)), axis=None)
        if axis is None or keepdims:
            return fn(a, axis=axis, keepdims=keepdims)
        # pydata squeezes every length-1 axis of the result (argmax of a (1, 1) array
        # over axis 0 is 0-d); numpy removes the reduced axis only
        out = fn(a, axis=axis, keepdims=True)
        ax = axis % a.ndim
        return out.reshape(a.shape[:ax] + a.shape[ax + 1:])

    arg.__name__ = arg.__qualname__ = f"_{name}"
    return arg


def _spread(name: str) -> Any:
    fn = getattr(sparse, name)

    def spread(
        a: Any,
        axis: Any = None,
        dtype: Any = None,
        out: Any = None,
        ddof: float = 0,
        keepdims: bool = False,
        *,
        where: Any = True,
        mean: Any = None,
        correction: Any = None,
    ) -> Any:
        no_out(name, "sparse", out)
        if correction is not None:  # the array API's name of numpy's ddof
            ddof = ddof_of(ddof, correction)
        if where is not True or mean is not None:  # pydata's take no mask, nor mean=
            kw = mask_kw(None if where is True else where, mean)
            return masked(name, a, axis, dtype, None, ddof, keepdims, **kw)
        # numpy's ``ddof`` is the array API's ``correction``
        a = sp(a)
        if dtype is not None:
            a = a.astype(dtype)
        return fn(a, axis=axis, correction=ddof, keepdims=keepdims)

    spread.__name__ = spread.__qualname__ = f"_{name}"
    return spread


def _count_nonzero(a: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return sparse.sum(sp(a) != 0, axis=axis, keepdims=keepdims).astype(np.intp)


def _ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Any:
    no_out("ptp", "sparse", out)
    a = sp(a)
    return sparse.max(a, axis=axis, keepdims=keepdims) - sparse.min(a, axis=axis, keepdims=keepdims)


TABLE = merge_tables(
    {
        "sum": _reduction("sum"),
        "prod": _reduction("prod"),
        # numpy's integer, boolean and complex dtype= of the moments: _composed
        "mean": in_dtype("mean", _reduction("mean")),
        "nansum": _reduction("nansum"),
        "nanprod": _reduction("nanprod"),
        "nanmean": in_dtype("nanmean", _nanmean),
        "std": in_dtype("std", _spread("std")),
        "var": in_dtype("var", _spread("var")),
        "max": _minmax("max"),
        "min": _minmax("min"),
        "amax": _minmax("max"),
        "amin": _minmax("min"),
        "nanmax": _minmax("nanmax"),
        "nanmin": _minmax("nanmin"),
        "argmax": _arg_extreme("argmax"),
        "argmin": _arg_extreme("argmin"),
        "any": _minmax("any"),
        "all": _minmax("all"),
        "count_nonzero": _count_nonzero,
        "ptp": _ptp,
        # "average": the composed one (translations/_composed/reductions.py)
    },
    # dense by nature: computed on the dense values (see densified)
    {n: densified(getattr(np, n)) for n in ("cumsum", "cumprod", "nancumsum")},
    names=("reductions", "cumulative"),
)
