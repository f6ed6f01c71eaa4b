"""Shape rules of reductions (``axis``/``keepdims``), arg-reductions, cumulative
functions, ``average`` and quantiles.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from dispatch.lazy._shapes_abstract import abstract
from dispatch.lazy._shapes_common import (
    _LAZY,
    _NODATA,
    Rule,
    Shape,
    _arg,
    _reduced,
    dtype_of,
    eval_dtype,
    norm_axis,
    promote,
    shape_of,
)

RULES: dict[str, Rule] = {}





_REDUCTION_KW = frozenset({"axis", "keepdims", "dtype", "ddof"})


def _reduction(name: str, axis_pos: int = 1) -> Rule:
    def rule(args: tuple, kwargs: dict) -> tuple:
        x = args[0]
        if len(args) > axis_pos + 1 or not _REDUCTION_KW.issuperset(kwargs):
            return abstract(name, args, kwargs)
        axis = args[axis_pos] if len(args) > axis_pos else kwargs.get("axis")
        keepdims = bool(kwargs.get("keepdims", False))
        shape = shape_of(x)
        out = _reduced(shape, axis, keepdims)
        kw = {k: v for k, v in kwargs.items() if k not in ("axis", "keepdims")}
        if any(type(v) is _LAZY[0] for v in kw.values()):
            return abstract(name, args, kwargs)
        d = dtype_of(x)
        return out, eval_dtype(name, (d,), (), kw, ndim=1)

    return rule


for _n in [
    "sum", "prod", "mean", "std", "var", "max", "min", "amax", "amin", "any", "all",
    "median", "ptp", "nansum", "nanmean", "nanmax", "nanmin", "nanprod", "nanstd",
    "nanvar", "nanmedian", "scipy.special.logsumexp",
]:
    RULES[_n] = _reduction(_n)


def _arg_reduction(name: str) -> Rule:
    def rule(args: tuple, kwargs: dict) -> tuple:
        shape = shape_of(args[0])
        axis = _arg(args, kwargs, 1, "axis")
        keepdims = bool(kwargs.get("keepdims", False))
        if axis is None:
            return ((1,) * len(shape) if keepdims else ()), "int64"
        return _reduced(shape, operator.index(axis), keepdims), "int64"

    return rule


for _n in ("argmax", "argmin", "nanargmax", "nanargmin"):
    RULES[_n] = _arg_reduction(_n)


def _count_nonzero(args: tuple, kwargs: dict) -> tuple:
    shape = shape_of(args[0])
    axis = _arg(args, kwargs, 1, "axis")
    keepdims = bool(kwargs.get("keepdims", False))
    if axis is None and not keepdims:
        return (), "int64"
    return _reduced(shape, axis, keepdims), "int64"


RULES["count_nonzero"] = _count_nonzero


def _cumulative(name: str) -> Rule:
    def rule(args: tuple, kwargs: dict) -> tuple:
        x = args[0]
        axis = _arg(args, kwargs, 1, "axis")
        shape = shape_of(x)
        if axis is None:
            out: Shape = (math.prod(shape),)
        else:
            norm_axis(operator.index(axis), len(shape))
            out = shape
        kw = {k: v for k, v in kwargs.items() if k != "axis"}
        return out, eval_dtype(name, (dtype_of(x),), (), kw)

    return rule


for _n in ("cumsum", "cumprod", "nancumsum", "nancumprod"):
    RULES[_n] = _cumulative(_n)


def _average(args: tuple, kwargs: dict) -> tuple:
    if kwargs.get("returned") or len(args) > 2:
        return abstract("average", args, kwargs)
    x = args[0]
    axis = _arg(args, kwargs, 1, "axis")
    w = kwargs.get("weights")
    d = promote(dtype_of(x), dtype_of(w)) if w is not None else dtype_of(x)
    return _reduced(shape_of(x), axis, bool(kwargs.get("keepdims", False))), eval_dtype(
        "mean", (d,)
    )


RULES["average"] = _average


def _quantile(name: str) -> Rule:
    def rule(args: tuple, kwargs: dict) -> tuple:
        if len(args) > 3:
            return abstract(name, args, kwargs)
        x, q = args[0], args[1]
        axis = _arg(args, kwargs, 2, "axis")
        lazy_q = type(q) is _LAZY[0]
        if (lazy_q and q._data is _NODATA[0]) or not {"axis", "keepdims"}.issuperset(kwargs):
            return abstract(name, args, kwargs)
        out = shape_of(q) + _reduced(shape_of(x), axis, bool(kwargs.get("keepdims", False)))
        qd = q._data if lazy_q else q
        return out, eval_dtype(name, (dtype_of(x),), (np.asarray(qd).ravel()[:1],))

    return rule


for _n in ("quantile", "percentile", "nanquantile", "nanpercentile"):
    RULES[_n] = _quantile(_n)
