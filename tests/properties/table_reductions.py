"""Reductions, cumulative and order statistics: axis None/int/negative/tuple, keepdims."""

from __future__ import annotations

from typing import Any

import numpy as np

from .spec import Call, Prop
from .strategies import ALL, FLOAT, INT, NUMERIC, REAL, Drawer


def reduce(dtypes=NUMERIC, *, tuples: bool = True, empty: bool = True, extra=None, **values):
    """An array, then ``axis``/``keepdims``; ``extra(d, x)`` adds keywords.
    ``empty=False``: no zero-length axis (numpy refuses max of nothing)."""

    def build(d: Drawer) -> Call:
        dt = d.dtype(dtypes)
        x = d.array(dt, d.shape(min_side=0 if empty else 1), **values)
        kwargs = d.reduction_kwargs(x.ndim, tuples=tuples)
        if extra is not None:
            kwargs.update(extra(d, x))
        return (x,), kwargs

    return build


def cumulative(dtypes=NUMERIC, **values):
    """``axis`` None (flattened) or an int."""

    def build(d: Drawer) -> Call:
        x = d.array(d.dtype(dtypes), **values)
        kwargs = {"axis": d.axis(x.ndim, tuples=False)} if d.boolean() else {}
        return (x,), kwargs

    return build


def _ddof(d: Drawer, x: np.ndarray) -> dict[str, Any]:
    return {"ddof": d.integer(0, 1)} if d.boolean() else {}


def _quantile(scale: float):
    """q a scalar or a 1-d array; ``method`` numpy's default or a few others."""

    def extra(d: Drawer, x: np.ndarray) -> dict[str, Any]:
        kw: dict[str, Any] = {}
        if d.boolean():
            kw["method"] = d.choice(["linear", "lower", "higher", "nearest", "midpoint"])
        return kw

    def build_q(d: Drawer, dtype: np.dtype) -> Any:
        # a Python float or an array of x's dtype: numpy widens float32 data to float64
        # for a float64 q (a list is one), where the libraries keep their data's width
        qs = [0.0, 0.1, 0.25, 0.5, 0.9, 1.0]
        if d.boolean():
            return d.choice(qs) * scale
        return np.asarray([d.choice(qs) * scale for _ in range(d.integer(1, 3))], dtype=dtype)

    def build(d: Drawer, nan: bool) -> Call:
        (x,), kw = reduce(FLOAT, tuples=True, empty=False, special=nan, exact=True, extra=extra)(d)
        if nan:  # nan only, no infinities (nan-functions skip nan, not inf)
            x = np.where(np.isinf(x), np.nan, x).astype(x.dtype)
        return (x, build_q(d, x.dtype)), kw

    return build


EXACT = {"exact": True}
NAN = {"exact": True, "special": True}


def _no_inf(build):
    """nan-reductions skip nan; infinities would only test inf arithmetic."""

    def wrapped(d: Drawer) -> Call:
        (x, *rest), kw = build(d)
        if x.dtype.kind in "fc":
            x = np.where(np.isinf(x), np.nan, x).astype(x.dtype)
        return (x, *rest), kw

    return wrapped


PROPS: dict[str, Prop] = {}
for _name in ("sum", "mean"):
    PROPS[_name] = Prop(reduce(ALL, **EXACT))
PROPS["prod"] = Prop(reduce(ALL, lo=-2, hi=2, exact=True))
for _name in ("std", "var"):
    PROPS[_name] = Prop(reduce(NUMERIC, extra=_ddof, **EXACT))
for _name in ("max", "min", "amax", "amin"):
    PROPS[_name] = Prop(reduce((*REAL, "bool"), empty=False, **EXACT))
    PROPS[_name + "|nan"] = Prop(reduce(FLOAT, empty=False, **NAN))
PROPS["ptp"] = Prop(reduce(REAL, empty=False, **EXACT))
for _name in ("argmax", "argmin"):
    PROPS[_name] = Prop(
        lambda d: (
            lambda x: ((x,), {"axis": d.axis(x.ndim, tuples=False)} if d.boolean() else {})
        )(d.array(d.dtype((*REAL, "bool")), d.shape(min_side=1), lo=-3, hi=3, exact=True))
    )
for _name in ("any", "all"):
    PROPS[_name] = Prop(reduce(ALL, lo=-1, hi=1, exact=True))
PROPS["count_nonzero"] = Prop(reduce(ALL, lo=-1, hi=1, exact=True))
PROPS["cumsum"] = Prop(cumulative(ALL, **EXACT))
PROPS["cumprod"] = Prop(cumulative(NUMERIC, lo=-2, hi=2, exact=True))


def _cumulative_new(dtypes=NUMERIC, **values):
    """numpy 2's ``cumulative_*``: ``axis`` required above one dimension, and
    ``include_initial`` drawn."""

    def build(d: Drawer) -> Call:
        x = d.array(d.dtype(dtypes), **values)
        kwargs: dict[str, Any] = {}
        if x.ndim > 1 or (x.ndim == 1 and d.boolean()):
            kwargs["axis"] = d.axis(x.ndim, none=False, tuples=False)
        if d.boolean():
            kwargs["include_initial"] = True
        return (x,), kwargs

    return build


PROPS["cumulative_sum"] = Prop(_cumulative_new(ALL, **EXACT))
PROPS["cumulative_prod"] = Prop(_cumulative_new(NUMERIC, lo=-2, hi=2, exact=True))
PROPS["median"] = Prop(reduce(REAL, empty=False, **EXACT))
PROPS["average"] = Prop(
    lambda d: (
        lambda x: (
            (x,),
            {"axis": d.axis(x.ndim, tuples=False), "weights": d.array(x.dtype, x.shape, lo=0.25,
                                                                       hi=4, exact=True)}
            if d.boolean()
            else {},
        )
    )(d.array(d.dtype(FLOAT), d.shape(min_side=1), exact=True))
)
for _name in ("quantile", "percentile", "nanquantile", "nanpercentile"):
    _scale = 100.0 if "percentile" in _name else 1.0
    PROPS[_name] = Prop(
        (lambda b, nan: lambda d: b(d, nan))(_quantile(_scale), _name.startswith("nan"))
    )

# nan-reductions: drawn with nan (and numpy's all-nan answers: nan, or an error)
for _name in ("nansum", "nanmean", "nanprod"):
    PROPS[_name] = Prop(_no_inf(reduce(FLOAT + INT, lo=-2, hi=2, exact=True, special=True)))
for _name in ("nanmax", "nanmin", "nanmedian"):
    PROPS[_name] = Prop(_no_inf(reduce(FLOAT + INT, empty=False, **NAN)))
for _name in ("nanstd", "nanvar"):
    PROPS[_name] = Prop(_no_inf(reduce(FLOAT, extra=_ddof, **NAN)))
for _name in ("nanargmax", "nanargmin"):
    PROPS[_name] = Prop(
        _no_inf(
            lambda d: (
                lambda x: ((x,), {"axis": d.axis(x.ndim, tuples=False)} if d.boolean() else {})
            )(d.array(d.dtype(FLOAT), d.shape(min_side=1), lo=-3, hi=3, exact=True,
                      special=True))
        )
    )
PROPS["nancumsum"] = Prop(_no_inf(cumulative(FLOAT, **NAN)))
PROPS["nancumprod"] = Prop(_no_inf(cumulative(FLOAT, lo=-2, hi=2, exact=True, special=True)))


def _trapezoid(d: Drawer) -> Call:
    """``y`` with sample points ``x`` (1-d along ``axis`` or of ``y``'s shape) or ``dx``."""
    y = d.array(d.dtype(NUMERIC), d.shape(min_dims=1), lo=-4, hi=4)
    axis = d.integer(-y.ndim, y.ndim - 1)
    kw: dict[str, Any] = {"axis": axis} if axis != -1 or d.boolean() else {}
    pick = d.integer(0, 2)
    if pick == 1:
        kw["dx"] = d.choice([0.5, 1.0, 2.5])
    elif pick == 2:
        shape = (y.shape[axis],) if d.boolean() else y.shape
        kw["x"] = d.array(y.dtype if y.dtype.kind == "f" else np.dtype("float64"), shape,
                          lo=-4, hi=4)
    return (y,), kw


PROPS["trapezoid"] = Prop(_trapezoid)


def _cov(corr: bool):
    """Variables in rows (or columns, ``rowvar=False``) of a 1-d or 2-d ``m``, a second
    set ``y`` with as many observations, and (``cov`` only) ``bias``, ``ddof`` and
    integer or real weights per observation."""

    def build(d: Drawer) -> Call:
        dt = d.dtype(FLOAT + INT + ("complex128",))
        n = d.integer(2, 5)
        vars_ = d.integer(1, 3)
        rowvar = d.boolean()
        shape = (vars_, n) if rowvar else (n, vars_)
        one_d = d.boolean()
        m = d.array(dt, (n,) if one_d else shape, lo=-4, hi=4, exact=True)
        kw: dict[str, Any] = {} if rowvar and d.boolean() else {"rowvar": rowvar}
        args: tuple = (m,)
        if d.boolean():
            args = (m, d.array(dt, (n,) if one_d else shape, lo=-4, hi=4, exact=True))
        if corr:
            return args, kw
        if d.boolean():
            kw["bias"] = d.boolean()
        if d.boolean():
            kw["ddof"] = d.integer(0, 2)
        if d.boolean():
            kw["fweights"] = d.array(np.dtype("int64"), (n,), lo=0, hi=3)
        if d.boolean():
            kw["aweights"] = d.array(np.dtype("float64"), (n,), lo=0.25, hi=2, exact=True)
        return args, kw

    return build


PROPS["cov"] = Prop(_cov(False))
PROPS["corrcoef"] = Prop(_cov(True))
