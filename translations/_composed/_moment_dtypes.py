"""numpy's ``mean``, ``var`` and ``std`` (and their ``nan`` versions) in an integer,
boolean or complex ``dtype=``, written once with ``do``.

numpy accumulates in the dtype asked for and casts each step's result to it:
``mean([1, 2, 2, 2], dtype=int32)`` is the int32 sum 7 over 4, cast back to int32,
so 1; ``var(..., dtype=int32)`` subtracts that truncated mean and sums the squares
in int32; ``var`` of a real array in a complex dtype is complex. Libraries compute
these in a float and return the float (mlx's ``mean(x, dtype=int32)`` was 1.75 in
float32), or drop the imaginary dtype (torch's ``var`` in complex64 was float32):
a silent wrong result. A table wraps its entry with :func:`in_dtype`, which sends
those calls here and every other call to the entry as it is.

The steps are numpy's own (``numpy/_core/_methods.py``): the sum in ``dtype``, a
true division by the count, a cast to ``dtype`` (truncation toward zero for
integers, nonzero for booleans); for ``var``, the deviations from that mean
squared (times the conjugate for complex input) and summed in ``dtype``. ``std``
in an integer or boolean dtype is numpy's too: the square root of a 0-d variance
cast back, and numpy's TypeError for an array of them (it cannot write a square
root into an integer array). The ``nan`` versions refuse an integer or boolean
dtype for inexact input, as numpy does, and ignore NaNs otherwise.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from typing import Any

from dispatch.translations._composed.dtypes import as_numpy_dtype

from dispatch.engine import UnsupportedError, do

# numpy's kinds that libraries do not honour in these dtypes: bool, integers, complex
_EXACT_KINDS = frozenset("biuc")
_KIND: dict[Any, str] = {}


def dtype_kind(dtype: Any) -> str:
    """numpy's kind letter of a dtype given any way :func:`as_numpy_dtype` reads
    (``"int32"``, numpy's, ``torch.int32``, ``mx.int32``...), remembered per dtype:
    every moment call with ``dtype=`` asks it."""
    try:
        return _KIND[dtype]
    except (KeyError, TypeError):
        pass
    try:
        kind = as_numpy_dtype(dtype).kind
    except TypeError:
        kind = "?"  # not a dtype numpy can name: the library's own path decides
    with contextlib.suppress(TypeError):  # unhashable: not remembered
        _KIND[dtype] = kind
    return kind


def in_dtype(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``, a table's ``name`` (``mean``, ``var``, ``std``, ``nanmean``, ``nanvar``
    or ``nanstd``, with numpy's signature), sending a call with an integer, boolean or
    complex ``dtype=`` to numpy's steps above. Any other call reaches ``fn`` unchanged.

    Examples
    --------
    >>> import numpy as np
    >>> mean = in_dtype("mean", lambda a, axis=None, dtype=None, *r, **k: "the table's")
    >>> mean(np.array([1, 2, 2, 2]))
    "the table's"
    >>> r = mean(np.array([1, 2, 2, 2]), dtype="int32")  # 7 // 4 in int32, not 1.75
    >>> int(r), r.dtype
    (1, dtype('int32'))
    """
    steps = _STEPS[name]

    def reduction(a: Any, axis: Any = None, dtype: Any = None, *args: Any, **kwargs: Any) -> Any:
        if dtype is None or not _composed_here(dtype, a):
            return fn(a, axis, dtype, *args, **kwargs)
        return steps(name, a, axis, dtype, *args, **kwargs)

    # named as ``fn``: the reference finds a composed entry at the top of its module
    reduction.__name__ = name
    reduction.__qualname__ = getattr(fn, "__qualname__", name)
    reduction.__module__ = getattr(fn, "__module__", __name__)
    reduction.__doc__ = fn.__doc__
    reduction.__wrapped__ = fn  # type: ignore[attr-defined]
    return reduction


def _composed_here(dtype: Any, a: Any) -> bool:
    """An integer, boolean or complex ``dtype``, or a real one for complex input (numpy
    then sums the squared moduli in it; libraries keep the input's width or refuse)."""
    kind = dtype_kind(dtype)
    return kind in _EXACT_KINDS or (kind == "f" and _kind_of(a) == "c")


def _kind_of(a: Any) -> str:
    return str(do("dtype_of", a).kind)


def in_dtypes(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """:func:`in_dtype` as a decorator, for a composed function."""
    return lambda fn: in_dtype(name, fn)


def _no_out(name: str, dtype: Any, out: Any) -> None:
    if out is not None:
        raise UnsupportedError(
            f"{name} with dtype={dtype} and out=: numpy's steps in that dtype are "
            f"composed here and write no out= array; assign the result instead"
        )


def _count(a: Any, axis: Any, keepdims: bool, where: Any) -> Any:
    """The number of elements each result reduces: a Python int, or an integer array
    with ``where=``."""
    shape = tuple(do("shape", a))
    if where is not None and where is not True:
        mask = do("broadcast_to", do("asarray", where, like=a), shape)
        return do("sum", mask, axis=axis, dtype="int64", keepdims=keepdims)
    if axis is None:
        return math.prod(shape)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return math.prod(shape[i] for i in axes)


def _where(where: Any) -> dict[str, Any]:
    return {} if where is None or where is True else {"where": where}


def _mean_steps(name: str, a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
                keepdims: bool = False, *, where: Any = None) -> Any:
    _no_out(name, dtype, out)
    kind = _kind_of(a)
    if name == "nanmean" and kind in "fc":
        _inexact_dtype(name, dtype)
        where = _not_nan(a, where)
    # a complex array summed in a real dtype: every table's sum keeps the real parts, as
    # numpy's unsafe cast does
    total = do("sum", a, axis=axis, dtype=dtype, keepdims=keepdims, **_where(where))
    return do("astype", do("true_divide", total, _count(a, axis, keepdims, where)), dtype)


def _var_steps(name: str, a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
               ddof: Any = 0, keepdims: bool = False, *, where: Any = None, mean: Any = None,
               correction: Any = None) -> Any:
    # a module-level import would be circular: reductions wraps its nan moments here
    from dispatch.translations._composed.reductions import ddof_of

    _no_out(name, dtype, out)
    if correction is not None:
        ddof = ddof_of(ddof, correction)
    kind = _kind_of(a)
    if name in ("nanvar", "nanstd") and kind in "fc":
        _inexact_dtype(name, dtype)
        where = _not_nan(a, where)
    w = _where(where)
    if mean is None:
        total = do("sum", a, axis=axis, dtype=dtype, keepdims=True, **w)
        mean = do("astype", do("true_divide", total, _count(a, axis, True, where)), dtype)
    if kind == "b" and dtype_kind(dtype) == "b":  # numpy's bool - bool
        raise TypeError(
            f"{name}: numpy boolean subtract, the `-` operator, is not supported (the "
            f"deviations of booleans from a boolean mean); ask for a numeric dtype"
        )
    # numpy's bool - number: the booleans as that number's 0 and 1 (torch refuses a
    # boolean operand of a subtraction)
    if kind == "b":
        a = do("astype", a, dtype)
    elif dtype_kind(dtype) == "b":
        mean = do("astype", mean, do("dtype_of", a))
    x = do("subtract", a, mean)
    if kind in "fiu":
        x = do("multiply", x, x)
    elif _kind_of(x) == "c":
        x = do("real", do("multiply", x, do("conjugate", x)))
    else:
        x = do("multiply", x, do("conjugate", x))
    total = do("sum", x, axis=axis, dtype=dtype, keepdims=keepdims, **w)
    dof = _count(a, axis, keepdims, where)
    dof = max(dof - ddof, 0) if isinstance(dof, int) else do("maximum", dof - ddof, 0)
    var = do("astype", do("true_divide", total, dof), dtype)
    if name not in ("std", "nanstd"):
        return var
    root = do("sqrt", var)
    if dtype_kind(dtype) in "fc":
        return root
    if do("ndim", var) != 0 or keepdims:  # numpy's sqrt(var, out=var) in that dtype
        raise TypeError(
            f"{name}: numpy cannot write the square root of an array of variances into "
            f"dtype {dtype} (ufunc 'sqrt' output cannot be cast with casting rule "
            f"'same_kind'); ask for a float dtype"
        )
    return do("astype", root, dtype)


def _inexact_dtype(name: str, dtype: Any) -> None:
    if dtype_kind(dtype) not in "fc":
        raise TypeError(f"{name}: If a is inexact, then dtype must be inexact (got {dtype})")


def _not_nan(a: Any, where: Any) -> Any:
    ok = do("logical_not", do("isnan", a))
    return ok if where is None or where is True else do("logical_and", ok, where)


_STEPS: dict[str, Callable[..., Any]] = {
    "mean": _mean_steps,
    "nanmean": _mean_steps,
    "var": _var_steps,
    "nanvar": _var_steps,
    "std": _var_steps,
    "nanstd": _var_steps,
}
