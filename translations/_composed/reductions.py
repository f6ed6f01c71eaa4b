"""NaN-skipping reductions, ``average`` and ``trapezoid``, numpy's, written once
with ``do``.

Each follows numpy's own recipe: NaN entries are replaced by the identity of
the reduction (0 for sums, 1 for products, -inf/+inf for maxima/minima), the
plain reduction runs, and the slices that held nothing but NaN are handled as
numpy does (``nanmax``/``nanmin`` give NaN with a ``RuntimeWarning``,
``nanargmax``/``nanargmin`` raise ``ValueError``, ``nanvar``/``nanstd`` give
NaN with a ``RuntimeWarning`` where the degrees of freedom are not positive).
Integer and boolean inputs hold no NaN: they go straight to the plain
reduction.

``where=`` (numpy's mask of the elements that take part) is :func:`masked`,
which the tables of libraries without a native ``where=`` call from their
adapters, only when a mask is given. ``out=`` is refused. Warnings and the errors that
depend on values (all-NaN slices of ``nanargmax``, weights summing to zero in
``average``) read the values, so they are skipped while tracing for jit, where
the result is what numpy's would be without the check (the NaN result stays).
"""

from __future__ import annotations

import inspect
import math
import warnings
from typing import Any

import numpy as np
from dispatch.translations._composed._moment_dtypes import in_dtypes

from dispatch.engine import composed, do, infer_backend, is_array

# ---------------------------------------------------------------- helpers


def _no_out(out: Any = None, where: Any = None) -> None:
    if out is not None:
        raise TypeError("out= is not supported: the result is returned as a new array")
    if where is not None:
        raise TypeError("where= is not supported by this composed reduction")


def _dt(x: Any) -> np.dtype:
    return do("dtype_of", x)


def default_float(x: Any) -> np.dtype:
    """The float a library gives integers (and arrays made without a dtype): its
    default, numpy's float64 on numpy (docs/vocabulary.md, dtypes)."""
    return _dt(do("zeros", 0, like=infer_backend(x)))


# numpy's promotion of dtypes one of which at least is inexact, in plain Python (a
# trace of torch.compile runs numpy's functions as tensor operations): the widest
# float precision (in bytes) that each dtype needs, complex if one of them is
_PRECISION = {
    "bool": 0, "int8": 2, "uint8": 2, "int16": 4, "uint16": 4,
    "int32": 8, "uint32": 8, "int64": 8, "uint64": 8,
    "float16": 2, "float32": 4, "float64": 8, "complex64": 4, "complex128": 8,
}
_INEXACT = {
    (2, False): "float16", (4, False): "float32", (8, False): "float64",
    (2, True): "complex64", (4, True): "complex64", (8, True): "complex128",
}
_REAL_PART = {"complex64": "float32", "complex128": "float64"}


def result_dtype_name(*dtypes: Any) -> str:
    """numpy's ``result_type(*dtypes).name`` of numpy dtypes or dtype names.

    Dtypes the plain-Python rule knows (booleans, integers, float16 to float64,
    complex64 and complex128, one inexact at least) need no numpy call, so that the
    rule runs inside torch.compile; others (bfloat16, long doubles, integers only)
    ask numpy."""
    names = [d if isinstance(d, str) else d.name for d in dtypes]
    bytes_, is_complex, inexact = 0, False, False
    for name in names:
        need = _PRECISION.get(name)
        if need is None:
            return np.result_type(*dtypes).name
        bytes_ = max(bytes_, need)
        is_complex = is_complex or name.startswith("complex")
        inexact = inexact or name.startswith(("float", "complex"))
    if not inexact:
        return np.result_type(*dtypes).name
    return _INEXACT[bytes_, is_complex]


def real_dtype_name(name: str) -> str:
    """The dtype name of the real part of dtype ``name`` (itself for real dtypes)."""
    if name.startswith("complex"):
        return _REAL_PART.get(name) or np.finfo(np.dtype(name)).dtype.name
    return name


def _inexact(x: Any) -> bool:
    return _dt(x).kind in "fc"


def _readable(x: Any) -> bool:
    """Whether the values of ``x`` can be read now (not while tracing)."""
    return bool(do("is_available", x))


def _any_true(mask: Any) -> bool:
    """Host answer to ``any(mask)`` (only called where the values are readable)."""
    return bool(np.any(np.asarray(do("to_numpy", do("any", mask)))))


def _warn(mask: Any, message: str) -> None:
    if _readable(mask) and _any_true(mask):
        warnings.warn(message, RuntimeWarning, stacklevel=4)


def _real_name(dt: np.dtype) -> str:
    return np.empty(0, dt).real.dtype.name if dt.kind == "c" else dt.name


def _filled(a: Any, mask: Any, value: float) -> Any:
    return do("where", mask, do("full_like", a, value), a)


# ---------------------------------------------------------------- where=

# the value a masked-out element takes: the identity of the reduction
_IDENTITY = {"sum": 0, "nansum": 0, "prod": 1, "nanprod": 1, "all": 1, "any": 0}
# maxima and minima have no identity: numpy needs ``initial``, which takes part
_FOLD = {
    "max": "maximum",
    "amax": "maximum",
    "min": "minimum",
    "amin": "minimum",
    "nanmax": "fmax",
    "nanmin": "fmin",
}
_MOMENTS = ("mean", "nanmean", "var", "nanvar", "std", "nanstd")


def masked(name: str, a: Any, *args: Any, **kwargs: Any) -> Any:
    """numpy's ``name(a, ..., where=mask)`` from the library's reduction without ``where=``.

    Arguments bind as numpy's ``name`` binds them. Masked-out elements become the
    reduction's identity (sums, products, ``all``, ``any``) or ``initial``
    (maxima and minima, which need it, as in numpy); means, variances and standard
    deviations divide by the count of the elements that take part (also leaving out
    NaN for the ``nan*`` names). Tables call this only when ``where`` is given, so
    that a call without a mask pays nothing.
    """
    bound = inspect.signature(getattr(np, name)).bind(a, *args, **kwargs)
    p = {k: v for k, v in bound.arguments.items() if v is not np._NoValue}
    where, out = p.pop("where", True), p.pop("out", None)
    if out is not None:
        raise TypeError(f"{name}(out=...) is not supported: the result is a new array")
    a = p.pop("a")
    axis, keepdims = p.pop("axis", None), bool(p.pop("keepdims", False))
    if name in _MOMENTS and "correction" in p:
        p["ddof"] = ddof_of(p.get("ddof", 0), p.pop("correction"))
    if where is True:
        if "mean" not in p:
            return do(name, a, axis=axis, keepdims=keepdims, **p)
        # numpy 2's mean= is read by the recipe below: a mask that keeps every element
        where = do("ones_like", a, dtype="bool")
    lib = infer_backend(a)
    if not is_array(where) or infer_backend(where) != lib:
        where = do("asarray", np.asarray(do("to_numpy", where), dtype=bool), like=lib)
    mask = do("broadcast_to", do("astype", where, "bool"), tuple(do("shape", a)))
    if name in _IDENTITY:
        x = do("where", mask, a, do("full_like", a, _IDENTITY[name]))
        return do(name, x, axis=axis, keepdims=keepdims, **p)
    if name in _FOLD:
        return _masked_extreme(name, a, mask, axis, keepdims, p.get("initial"))
    if name in _MOMENTS:
        return _masked_moment(name, a, mask, axis, keepdims, p)
    raise TypeError(f"{name}() got an unexpected keyword argument 'where'")


def ddof_of(ddof: Any, correction: Any) -> Any:
    """The ``ddof`` of numpy 2's ``correction=`` (its array API name); numpy refuses both."""
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def mask_kw(where: Any, mean: Any) -> dict[str, Any]:
    """The keywords of :func:`masked` for a moment: those given (None is not given)."""
    kw = {} if where is None else {"where": where}
    if mean is not None:
        kw["mean"] = mean
    return kw


def numpy_moment(name: str, fn: Any) -> Any:
    """``fn``, a library's ``name`` (``var``, ``std``, ``nanvar`` or ``nanstd``) taking
    numpy's arguments up to ``where=`` by their names, with numpy 2's ``mean=`` (the
    masked recipe reads it) and ``correction=`` (``ddof`` by its array API name).

    ``where=`` is passed on only when given: ``fn`` reads it (or calls :func:`masked`).

    Examples
    --------
    >>> import numpy as np
    >>> def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):  # no mean=
    ...     return np.var(a, axis, dtype, out, ddof, keepdims)
    >>> numpy_moment("var", var)(np.array([1.0, 3.0]), mean=0.0, correction=1)
    np.float64(10.0)
    """

    def moment(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0,
               keepdims: bool = False, *, where: Any = None, mean: Any = None,
               correction: Any = None) -> Any:
        if correction is not None:
            ddof = ddof_of(ddof, correction)
        if mean is not None:
            return masked(name, a, axis, dtype, out, ddof, keepdims, **mask_kw(where, mean))
        return fn(a, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                  **mask_kw(where, None))

    moment.__name__ = moment.__qualname__ = name
    moment.__doc__ = fn.__doc__
    moment.__wrapped__ = fn  # type: ignore[attr-defined]
    return moment


def _masked_extreme(name: str, a: Any, mask: Any, axis: Any, keepdims: bool, initial: Any) -> Any:
    if initial is None:
        raise ValueError(
            f"reduction operation '{_FOLD[name]}' does not have an identity, "
            "so to use a where mask one has to specify 'initial'"
        )
    dt = _dt(a)
    if math.prod(do("shape", a)) == 0:
        # nothing to reduce (libraries refuse the maximum of nothing): numpy's
        # answer is ``initial`` in every slice
        shape = tuple(do("shape", do("any", a, axis=axis, keepdims=keepdims)))
        return do("full", shape, initial, dtype=dt.name, like=a)
    x = do("where", mask, a, do("full_like", a, initial))
    r = do(name, x, axis=axis, keepdims=keepdims)
    return do(_FOLD[name], r, do("full_like", r, initial))


def _masked_mean(x: Any, ok: Any, axis: Any, keepdims: bool) -> Any:
    s = do("sum", do("where", ok, x, do("zeros_like", x)), axis=axis, keepdims=keepdims)
    n = do("sum", ok, axis=axis, keepdims=keepdims)
    if _inexact(s):
        n = do("astype", n, _dt(s).name)
    # integers: the float of true_divide, the library's own width (docs/vocabulary.md)
    return do("true_divide", s, n)


def _masked_moment(name: str, a: Any, mask: Any, axis: Any, keepdims: bool, p: dict) -> Any:
    dt = _dt(a)
    ok = mask
    if name.startswith("nan") and dt.kind in "fc":
        ok = do("logical_and", ok, do("logical_not", do("isnan", a)))
    dtype = p.get("dtype")
    x = a if dtype is None else do("astype", a, np.dtype(dtype).name)
    back = None
    if _dt(x) == np.float16 and name == "mean":
        # numpy's mean accumulates float16 in float32 and rounds the result back (its
        # var, std and nan* functions compute in float16 throughout)
        x, back = do("astype", x, "float32"), "float16"
    if name in ("mean", "nanmean"):
        r = _masked_mean(x, ok, axis, keepdims)
    else:
        mu = p.get("mean")
        if mu is None:
            mu = _masked_mean(x, ok, axis, True)
        if not _inexact(x):  # integers: the deviations in the mean's float
            x = do("astype", x, _dt(mu).name)
        d = do("where", ok, x - mu, do("zeros_like", x - mu))
        sq = do("real", d * do("conj", d)) if _dt(d).kind == "c" else d * d
        s = do("sum", sq, axis=axis, keepdims=keepdims)
        ddof = p.get("ddof", 0)
        n = do("astype", do("sum", ok, axis=axis, keepdims=keepdims), _dt(s).name)
        r = s / do("maximum", n - ddof, do("zeros_like", n))
        if name.endswith("std"):
            r = do("sqrt", r)
    return r if back is None else do("astype", r, back)


# ---------------------------------------------------------------- nanmax / nanmin


def _nan_extreme(name: str, fill: float) -> Any:
    def extreme(
        a: Any,
        axis: Any = None,
        out: Any = None,
        keepdims: bool = False,
        initial: Any = None,
        where: Any = None,
    ) -> Any:
        if where is not None:
            return masked(
                f"nan{name}", a, axis, out, keepdims=keepdims, initial=initial, where=where
            )
        _no_out(out)
        fold = "maximum" if name == "max" else "minimum"
        if not _inexact(a):
            r = do(name, a, axis=axis, keepdims=keepdims)
            return r if initial is None else do(fold, r, initial)
        nan = do("isnan", a)
        r = do(name, _filled(a, nan, fill), axis=axis, keepdims=keepdims)
        if initial is not None:
            # numpy's fmax/fmin reduce from ``initial``: no slice is all-NaN then
            return do(fold, r, initial)
        allnan = do("all", nan, axis=axis, keepdims=keepdims)
        _warn(allnan, "All-NaN slice encountered")
        return _filled(r, allnan, math.nan)

    return extreme


@composed("nanmax")
def nanmax(
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = None,
    where: Any = None,
) -> Any:
    """Maximum ignoring NaN, numpy's ``nanmax``.

    An all-NaN slice gives NaN and a ``RuntimeWarning`` (as numpy). ``axis``
    may be an int, a tuple or None; ``initial`` takes part in the maximum (an
    all-NaN slice then gives ``initial``).

    Examples
    --------
    >>> import numpy as np
    >>> do("nanmax", np.array([[1.0, np.nan], [np.nan, 4.0]]), axis=0)
    array([1., 4.])
    """
    return _nan_extreme("max", -math.inf)(a, axis, out, keepdims, initial, where)


@composed("nanmin")
def nanmin(
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = None,
    where: Any = None,
) -> Any:
    """Minimum ignoring NaN, numpy's ``nanmin``.

    An all-NaN slice gives NaN and a ``RuntimeWarning`` (as numpy).

    Examples
    --------
    >>> import numpy as np
    >>> do("nanmin", np.array([[1.0, np.nan], [np.nan, 4.0]]), axis=1, keepdims=True)
    array([[1.],
           [4.]])
    """
    return _nan_extreme("min", math.inf)(a, axis, out, keepdims, initial, where)


# ---------------------------------------------------------------- nanargmax / nanargmin


def _nan_arg(name: str, fill: float) -> Any:
    def arg(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Any:
        _no_out(out)
        if not _inexact(a):
            return do(name, a, axis=axis, keepdims=keepdims)
        nan = do("isnan", a)
        if _readable(nan) and _any_true(do("all", nan, axis=axis)):
            raise ValueError("All-NaN slice encountered")
        return do(name, _filled(a, nan, fill), axis=axis, keepdims=keepdims)

    return arg


@composed("nanargmax")
def nanargmax(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Any:
    """Index of the maximum ignoring NaN, numpy's ``nanargmax``.

    An all-NaN slice raises ``ValueError`` (read from the values; while tracing
    for jit the check is skipped and such a slice gives index 0).

    Examples
    --------
    >>> import numpy as np
    >>> do("nanargmax", np.array([np.nan, 3.0, 7.0, np.nan]))
    np.int64(2)
    """
    return _nan_arg("argmax", -math.inf)(a, axis, out, keepdims=keepdims)


@composed("nanargmin")
def nanargmin(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Any:
    """Index of the minimum ignoring NaN, numpy's ``nanargmin``.

    An all-NaN slice raises ``ValueError`` (read from the values; skipped while
    tracing for jit).

    Examples
    --------
    >>> import numpy as np
    >>> do("nanargmin", np.array([[np.nan, 3.0], [2.0, np.nan]]), axis=1)
    array([1, 0])
    """
    return _nan_arg("argmin", math.inf)(a, axis, out, keepdims=keepdims)


# ---------------------------------------------------------------- nancumsum / nanprod


@composed("nancumsum")
def nancumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    """Cumulative sum treating NaN as zero, numpy's ``nancumsum``.

    Examples
    --------
    >>> import numpy as np
    >>> do("nancumsum", np.array([1.0, np.nan, 2.0]))
    array([1., 1., 3.])
    """
    _no_out(out)
    if _inexact(a):
        a = _filled(a, do("isnan", a), 0)
    return do("cumsum", a, axis=axis, dtype=dtype)


@composed("nancumprod")
def nancumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    """Cumulative product treating NaN as one, numpy's ``nancumprod``.

    Examples
    --------
    >>> import numpy as np
    >>> do("nancumprod", np.array([[2.0, np.nan], [-3.0, 4.0]]), axis=1)
    array([[  2.,   2.],
           [ -3., -12.]])
    """
    _no_out(out)
    if _inexact(a):
        a = _filled(a, do("isnan", a), 1)
    return do("cumprod", a, axis=axis, dtype=dtype)


# ---------------------------------------------------------------- cumulative_sum / _prod


def _cumulative(
    plain: str, identity: int, x: Any, axis: Any, dtype: Any, out: Any, include_initial: bool
) -> Any:
    _no_out(out)
    ndim = do("ndim", x)
    if axis is None:
        if ndim > 1:
            raise ValueError(
                f"cumulative_{plain[3:]}: for arrays which have more than one dimension "
                f"axis is required, got an array of {ndim} dimensions"
            )
        axis = 0
    if ndim == 0:  # numpy takes a 0-d array as one element
        x = do("reshape", x, (1,))
    r = do(plain, x, axis=axis, dtype=dtype)
    if include_initial:
        shape = list(do("shape", r))
        shape[axis] = 1
        first = do("full", tuple(shape), identity, dtype=_dt(r), like=r)
        r = do("concatenate", [first, r], axis=axis)
    return r


@composed("cumulative_sum")
def cumulative_sum(
    x: Any,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    include_initial: bool = False,
) -> Any:
    """Cumulative sum along ``axis``, numpy 2's ``cumulative_sum``.

    ``axis`` may be left out only for arrays of at most one dimension (a 0-d
    array is one element). With ``include_initial`` the result starts with the
    sum's identity (0), one longer along ``axis``.

    Examples
    --------
    >>> import numpy as np
    >>> do("cumulative_sum", np.array([[1, -2], [3, 4]]), axis=1, include_initial=True)
    array([[ 0,  1, -1],
           [ 0,  3,  7]])
    """
    return _cumulative("cumsum", 0, x, axis, dtype, out, include_initial)


@composed("cumulative_prod")
def cumulative_prod(
    x: Any,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    include_initial: bool = False,
) -> Any:
    """Cumulative product along ``axis``, numpy 2's ``cumulative_prod``.

    ``axis`` may be left out only for arrays of at most one dimension (a 0-d
    array is one element). With ``include_initial`` the result starts with the
    product's identity (1), one longer along ``axis``.

    Examples
    --------
    >>> import numpy as np
    >>> do("cumulative_prod", np.array([[1.0, -2.0], [3.0, 4.0]]), axis=0)
    array([[ 1., -2.],
           [ 3., -8.]])
    """
    return _cumulative("cumprod", 1, x, axis, dtype, out, include_initial)


@composed("nanprod")
def nanprod(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = None,
    where: Any = None,
) -> Any:
    """Product treating NaN as one, numpy's ``nanprod``.

    Examples
    --------
    >>> import numpy as np
    >>> do("nanprod", np.array([[2.0, np.nan], [3.0, 4.0]]), axis=0)
    array([6., 4.])
    """
    if where is not None:
        return masked("nanprod", a, axis, dtype, out, keepdims, initial=initial, where=where)
    _no_out(out)
    if _inexact(a):
        a = _filled(a, do("isnan", a), 1)
    kw = {} if initial is None else {"initial": initial}
    return do("prod", a, axis=axis, dtype=dtype, keepdims=keepdims, **kw)


# ---------------------------------------------------------------- nanvar / nanstd


@composed("nanvar")
@in_dtypes("nanvar")
def nanvar(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: float = 0,
    keepdims: bool = False,
    *,
    where: Any = None,
    mean: Any = None,
    correction: Any = None,
) -> Any:
    """Variance ignoring NaN, numpy's ``nanvar`` (``ddof``/``correction``,
    ``dtype``, ``keepdims``, axis tuples; complex input gives a real result).

    A slice whose count of non-NaN values is at most ``ddof`` gives NaN and a
    ``RuntimeWarning`` (as numpy). ``mean=`` (numpy 2's mean given by the caller)
    takes the masked recipe, with every element kept.

    Examples
    --------
    >>> import numpy as np
    >>> do("nanvar", np.array([[1.0, np.nan, 3.0], [2.0, 2.0, np.nan]]), axis=1)
    array([1., 0.])
    """
    if correction is not None:
        ddof = ddof_of(ddof, correction)
    if where is not None or mean is not None:
        return masked("nanvar", a, axis, dtype, out, ddof, keepdims, **mask_kw(where, mean))
    _no_out(out)
    if not _inexact(a):
        return do("var", a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)
    ok = do("logical_not", do("isnan", a))
    x = do("where", ok, a, do("zeros_like", a))
    if dtype is not None:
        x = do("astype", x, np.dtype(dtype).name)
    real = _real_name(_dt(x))
    cnt = do("sum", do("astype", ok, real), axis=axis, keepdims=True)
    avg = do("sum", x, axis=axis, keepdims=True) / do("maximum", cnt, 1)
    d = do("where", ok, x - avg, do("zeros_like", x))
    sq = do("real", d * do("conj", d)) if _dt(d).kind == "c" else d * d
    s = do("sum", sq, axis=axis, keepdims=keepdims)
    dof = cnt - ddof
    if not keepdims:
        dof = do("reshape", dof, tuple(do("shape", s)))
    bad = dof <= 0
    _warn(bad, "Degrees of freedom <= 0 for slice.")
    return _filled(s / do("where", bad, do("ones_like", dof), dof), bad, math.nan)


@composed("nanstd")
@in_dtypes("nanstd")
def nanstd(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: float = 0,
    keepdims: bool = False,
    *,
    where: Any = None,
    mean: Any = None,
    correction: Any = None,
) -> Any:
    """Standard deviation ignoring NaN, numpy's ``nanstd``: the square root of
    ``nanvar`` (same arguments and NaN rules).

    Examples
    --------
    >>> import numpy as np
    >>> do("nanstd", np.array([1.0, np.nan, 3.0]))
    np.float64(1.0)
    """
    if correction is not None:
        ddof = ddof_of(ddof, correction)
    if where is not None or mean is not None:
        return masked("nanstd", a, axis, dtype, out, ddof, keepdims, **mask_kw(where, mean))
    _no_out(out)
    return do("sqrt", do("nanvar", a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims))


# ---------------------------------------------------------------- average


def _axis_tuple(axis: Any, ndim: int, repeated: str = "repeated axis") -> tuple[int, ...]:
    """``axis`` (None, an int or a sequence) as non-negative axes, checked as numpy
    does; ``repeated`` is the message of the function's own numpy counterpart."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = []
    for ax in axes:
        if not -ndim <= ax < ndim:
            raise np.exceptions.AxisError(int(ax), ndim)
        out.append(int(ax) % ndim)
    if len(set(out)) != len(out):
        raise ValueError(repeated)
    return tuple(out)


@composed("average")
def average(
    a: Any,
    axis: Any = None,
    weights: Any = None,
    returned: bool = False,
    *,
    keepdims: bool = False,
) -> Any:
    """Weighted average, numpy's ``average``.

    Without ``weights`` it is ``mean``. With them the dtype is numpy's (the
    promotion of ``a`` and ``weights``, float64 at least for integers); 1-D
    (or lower-rank) ``weights`` apply along ``axis`` (int or tuple). With
    ``returned=True`` the result is ``(average, sum_of_weights)``, the sum
    broadcast to the shape of the average. Weights summing to zero raise
    ``ZeroDivisionError`` (read from the values; skipped while tracing).

    Examples
    --------
    >>> import numpy as np
    >>> do("average", np.array([[1.0, 2.0], [3.0, 4.0]]), axis=1, weights=np.array([3, 1]))
    array([1.25, 3.25])
    >>> do("average", np.arange(4.0), returned=True)
    (np.float64(1.5), np.float64(4.0))
    """
    if weights is None:
        avg = do("mean", a, axis=axis, keepdims=keepdims)
        if not returned:
            return avg
        total = math.prod(do("shape", a))
        count = total // max(math.prod(do("shape", avg)), 1)
        return avg, do("full_like", avg, count)
    if not is_array(weights):
        weights = do("asarray", np.asarray(weights), like=a)
    if not is_array(a):
        a = do("asarray", np.asarray(a), like=weights)
    # a numpy array beside a library's (a backend that takes numpy constants as they
    # are): the library's, so that the sum of weights is one of its arrays too
    if isinstance(weights, np.ndarray) and not isinstance(a, np.ndarray):
        weights = do("asarray", weights, like=a)
    elif isinstance(a, np.ndarray) and not isinstance(weights, np.ndarray):
        a = do("asarray", a, like=weights)
    at, wt = _dt(a), _dt(weights)
    # integers average in the library's default float (numpy's float64 on numpy)
    if at.kind in "biu" and wt.kind in "biu":
        rt = default_float(a).name
    else:
        rt = result_dtype_name(at, wt, *(["float64"] if at.kind in "biu" else []))
    x, w = do("astype", a, rt), do("astype", weights, rt)
    ashape, wshape = tuple(do("shape", x)), tuple(do("shape", w))
    if ashape != wshape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        axes = _axis_tuple(axis, len(ashape))
        if wshape != tuple(ashape[ax] for ax in axes):
            raise ValueError(
                "Shape of weights must be consistent with shape of a along specified axis."
            )
        w = do("transpose", w, tuple(sorted(range(len(axes)), key=lambda i: axes[i])))
        w = do("reshape", w, tuple(s if ax in axes else 1 for ax, s in enumerate(ashape)))
    scl = do("sum", w, axis=axis, keepdims=keepdims)
    if _readable(scl) and _any_true(scl == 0):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    avg = do("sum", x * w, axis=axis, keepdims=keepdims) / scl
    if not returned:
        return avg
    shape = tuple(do("shape", avg))
    if tuple(do("shape", scl)) != shape:
        scl = do("copy", do("broadcast_to", scl, shape))
    return avg, scl


@composed("psnr")
def psnr(x1: Any, x2: Any, max_val: Any) -> Any:
    """Peak signal-to-noise ratio in decibels (keras.ops.psnr):
    ``20 log10(max_val) - 10 log10(mean((x1 - x2)**2))`` over all elements.

    ``x1`` and ``x2`` must have the same shape (``ValueError``); floats keep numpy's
    result dtype of the two, integers are computed in ``float_type()``; identical
    inputs give ``inf``.

    Examples
    --------
    >>> import numpy as np
    >>> do("psnr", np.array([0.0, 1.0]), np.array([0.1, 0.9]), 1.0)
    np.float64(20.0)
    """
    s1, s2 = tuple(do("shape", x1)), tuple(do("shape", x2))
    if s1 != s2:
        raise ValueError(f"psnr: x1 and x2 must have the same shape; got {s1} and {s2}")
    d1, d2 = _dt(x1), _dt(x2)
    if "c" in (d1.kind, d2.kind):
        raise TypeError("psnr takes real numbers; got a complex input")
    floats = [d for d in (d1, d2) if d.kind == "f"]
    dt = np.result_type(*floats) if floats else do("float_type")
    diff = do("astype", x1, dt) - do("astype", x2, dt)
    mse = do("mean", diff * diff)
    top = 20.0 * (math.log10(max_val) if isinstance(max_val, int | float)
                  else do("log10", do("astype", max_val, dt)))
    return top - 10.0 * do("log10", mse)


# ---------------------------------------------------------------- trapezoid


@composed("trapezoid")
def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, numpy's
    ``trapezoid``: the sample points are ``x`` (1-d along ``axis``, or of ``y``'s
    shape) or spaced ``dx`` apart; numpy's recipe ``sum(d * (y[1:] + y[:-1]) / 2.0)``,
    so integers give float64 and float32 stays float32 (with ``dx`` a Python float).

    Examples
    --------
    >>> import numpy as np
    >>> do("trapezoid", np.array([1.0, 2.0, 4.0]), x=np.array([0.0, 1.0, 3.0]))
    np.float64(7.5)
    >>> do("trapezoid", np.array([[0, 2, 4], [1, 1, 1]]), axis=1)
    array([4., 2.])
    """
    shape = tuple(int(n) for n in do("shape", y))
    nd = len(shape)
    if not -nd <= axis < nd:
        raise np.exceptions.AxisError(axis, nd)
    axis %= nd
    if x is None:
        d = dx
    else:
        x = x if is_array(x) else do("asarray", np.asarray(x), like=y)
        xshape = tuple(int(n) for n in do("shape", x))
        if len(xshape) == 1:
            if xshape[0] != shape[axis]:
                raise ValueError(f"trapezoid: x has {xshape[0]} sample points, y has "
                                 f"{shape[axis]} along axis {axis}")
            d = do("reshape", do("diff", x), tuple(
                xshape[0] - 1 if k == axis else 1 for k in range(nd)))
        else:
            d = do("diff", x, axis=axis)
    upper = tuple(slice(1, None) if k == axis else slice(None) for k in range(nd))
    lower = tuple(slice(None, -1) if k == axis else slice(None) for k in range(nd))
    pairs = do("add", y[upper], y[lower])
    return do("sum", do("divide", do("multiply", d, pairs), 2.0), axis=axis)
