"""The quantile machinery of ``_composed/statistics.py``: numpy's result dtype of a
quantile, the ``q`` values on the array's library, and one routine that serves
``quantile``, ``percentile``, their NaN-skipping versions and ``nanmedian``.

The reduced axes are moved last and flattened into one, sorted, and the order
statistics interpolated with numpy's formulas for the methods in ``_METHODS``.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
from dispatch.translations._composed._common import _host
from dispatch.translations._composed.reductions import _axis_tuple, _dt, _readable, default_float

from dispatch.engine import do, is_array

_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


# ---------------------------------------------------------------- helpers


def _result_dtype(a: Any, q: Any) -> np.dtype:
    """numpy's result dtype of a quantile of ``a`` at ``q``, with the library's
    default float for integers (numpy's float64 is numpy's: docs/vocabulary.md)."""
    a_dt = _dt(a)
    if a_dt.kind == "c":
        raise TypeError("a must be an array of real numbers")
    base = a_dt if a_dt.kind == "f" else default_float(a)
    if isinstance(q, (bool, int, float)):
        return base  # a Python number is weak: the data's dtype wins
    q_dt = _dt(q) if is_array(q) else np.asarray(q).dtype
    return np.result_type(base, q_dt if q_dt.kind == "f" else base)


def _q_values(q: Any, rt: np.dtype, like: Any, percent: bool) -> tuple[Any, tuple[int, ...]]:
    """``q`` (divided by 100 for percentiles) as a flat backend array of dtype
    ``rt``, and its shape; the range is checked where the values are readable."""
    what, top = ("Percentiles", 100) if percent else ("Quantiles", 1)
    if is_array(q) and not isinstance(q, (np.ndarray, np.generic)):
        shape = tuple(do("shape", q))
        if _readable(q):
            qh = _host(q)
            if not np.all((qh >= 0) & (qh <= top)):
                raise ValueError(f"{what} must be in the range [0, {top}]")
        qv = do("astype", do("reshape", q, (-1,)), rt.name)
        return (qv / 100 if percent else qv), shape
    qh = np.asarray(q, dtype=np.float64)
    if not np.all((qh >= 0) & (qh <= top)):
        raise ValueError(f"{what} must be in the range [0, {top}]")
    flat = (qh / 100 if percent else qh).reshape(-1).astype(rt)
    return do("asarray", flat, like=like), qh.shape


def _quantile(
    a: Any,
    q: Any,
    axis: Any,
    method: str,
    keepdims: bool,
    *,
    skip_nan: bool,
    percent: bool,
    extra: dict[str, Any],
) -> Any:
    """The quantile family: see the module docstring."""
    if extra.get("out") is not None:
        raise TypeError("out= is not supported: the result is returned as a new array")
    if extra.get("weights") is not None:
        raise NotImplementedError("weights= (numpy: method='inverted_cdf' only) is not composed")
    if extra.get("interpolation") is not None:
        raise TypeError("interpolation= was renamed method= in numpy; pass method=")
    if method not in _METHODS:
        raise NotImplementedError(
            f"method {method!r} is not composed; the composed quantiles know {_METHODS}"
        )
    if not is_array(a):
        a = do("asarray", np.asarray(a), like=q)
    rt = _result_dtype(a, q)
    x = do("astype", a, rt.name)
    shape = tuple(do("shape", x))
    axes = _axis_tuple(axis, len(shape), "duplicate value in 'axis'")
    keep = [d for d in range(len(shape)) if d not in axes]
    lead = tuple(shape[d] for d in keep)
    n = math.prod([shape[d] for d in axes])
    out_shape = tuple(1 if d in axes else s for d, s in enumerate(shape)) if keepdims else lead
    qv, q_shape = _q_values(q, rt, x, percent)
    nq = math.prod(q_shape)

    y = do("reshape", do("transpose", x, (*keep, *axes)), (*lead, n))
    if n == 0:
        if not skip_nan:
            raise IndexError("index -1 is out of bounds for axis 0 with size 0")
        empty = do("full", (*q_shape, *out_shape), math.nan, dtype=rt.name, like=x)
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        return empty
    nan_aware = rt.kind == "f"
    if nan_aware:
        nan = do("isnan", y)
    if skip_nan and nan_aware:
        # NaN sorts as +inf: the first ``count`` sorted values are the data
        y = do("where", nan, do("full_like", y, math.inf), y)
        count = do("sum", do("astype", do("logical_not", nan), rt.name), axis=-1, keepdims=True)
    else:
        count = n
    ys = do("sort", y, axis=-1)

    v0 = qv * (count - 1)  # numpy's virtual index, in the result dtype
    if method in ("lower", "higher", "nearest"):
        rounder = {"lower": "floor", "higher": "ceil", "nearest": "round"}[method]
        prev = nxt = do(rounder, v0)
        gamma = None
    else:
        virtual = v0 if method == "linear" else 0.5 * (do("floor", v0) + do("ceil", v0))
        prev = do("floor", virtual)
        gamma = virtual - prev
        if method == "midpoint":
            gamma = do("where", do("equal", gamma, 0), do("zeros_like", gamma),
                       do("full_like", gamma, 0.5))
        nxt = prev + 1
        top = count - 1
        above = virtual >= top
        prev = do("where", above, do("zeros_like", prev) + top, prev)
        nxt = do("where", above, do("zeros_like", nxt) + top, nxt)
        below = virtual < 0
        prev = do("where", below, do("zeros_like", prev), prev)
        nxt = do("where", below, do("zeros_like", nxt), nxt)
    target = (*lead, nq)

    def pick(index: Any) -> Any:
        index = do("clip", do("astype", index, "int64"), 0, n - 1)
        return do("take_along_axis", ys, do("broadcast_to", index, target), axis=-1)

    below_v = pick(prev)
    if gamma is None:
        r = below_v
    else:
        above_v = pick(nxt)
        gamma = do("broadcast_to", gamma, target)
        diff = above_v - below_v
        # numpy's _lerp: from the nearer end, so that gamma 1 gives the upper value exactly
        r = do("where", gamma >= 0.5, above_v - diff * (1 - gamma), below_v + diff * gamma)
    if nan_aware:
        if skip_nan:
            bad = count == 0
            if _readable(bad) and bool(np.any(_host(bad))):
                warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        else:
            bad = do("any", nan, axis=-1, keepdims=True)
        r = do("where", do("broadcast_to", bad, target), do("full_like", r, math.nan), r)
    r = do("moveaxis", r, -1, 0)
    return do("reshape", r, (*q_shape, *out_shape))
