"""What every shape rule uses: the rule types, :class:`ShapeError`, shapes and
dtypes of arguments, axes, broadcasting, and dtypes found by running numpy's
implementation on one-element arrays (cached per combination of input dtypes).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

Shape = tuple[int, ...]
Rule = Callable[[tuple, dict], Any]

_WEAK = (bool, int, float, complex)
_LAZY: list[Any] = []  # LazyArray, filled in by _array (avoids an import cycle)
_NODATA: list[Any] = []  # the "no data" sentinel of _array


class ShapeError(ValueError):
    """The shape of a lazy call cannot be known before computing."""


# named where it was defined before the rules were split by topic (tracebacks, pickles)
ShapeError.__module__ = "dispatch.lazy._shapes"


# ---------------------------------------------------------------- helpers


def shape_of(a: Any) -> Shape:
    if type(a) is _LAZY[0]:
        return a._shape
    if isinstance(a, _WEAK):
        return ()
    return tuple(map(int, np.shape(a)))


def dtype_of(a: Any) -> Any:
    """The dtype name of an array, or the Python type of a weak scalar."""
    if type(a) is _LAZY[0]:
        return a._dtype
    t = type(a)
    if t in _WEAK:
        return t
    dt = getattr(a, "dtype", None)
    if dt is None:
        return np.asarray(a).dtype.name
    return dtype_name(dt)


def dtype_name(dt: Any) -> str:
    name = getattr(dt, "name", None)
    if isinstance(name, str):
        return name
    if isinstance(dt, str):
        return np.dtype(dt).name
    if (isinstance(dt, type) and dt in (*_WEAK, np.generic)) or (
        isinstance(dt, type) and issubclass(dt, np.generic)
    ):
        return np.dtype(dt).name
    return str(dt).rsplit(".", 1)[-1]  # torch.float32, tf.float32, ...


def norm_axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def norm_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (list, tuple)):
        out = tuple(norm_axis(operator.index(a), ndim) for a in axis)
        if len(set(out)) != len(out):
            raise ValueError("repeated axis")
        return out
    return (norm_axis(operator.index(axis), ndim),)


def broadcast(*shapes: Shape) -> Shape:
    first = shapes[0]
    if all(s == first for s in shapes):
        return first
    n = max(map(len, shapes))
    out = [1] * n
    for s in shapes:
        off = n - len(s)
        for i, d in enumerate(s):
            o = out[off + i]
            if o == 1:
                out[off + i] = d
            elif d != 1 and d != o:
                shown = " ".join(map(str, shapes))
                raise ValueError(f"shapes {shown} cannot be broadcast together")
    return tuple(out)


def _arg(args: tuple, kwargs: dict, pos: int, key: str, default: Any = None) -> Any:
    if len(args) > pos:
        return args[pos]
    return kwargs.get(key, default)


# ---------------------------------------------------------------- dtypes

_DTYPES: dict[tuple, str] = {}


def _proto(d: Any, ndim: int = 1) -> Any:
    if isinstance(d, type):
        return d(1)
    return np.ones((1,) * ndim, dtype=d)


def eval_dtype(name: str, dts: tuple, extra: tuple = (), kwargs: dict | None = None,
               ndim: int = 1) -> str:
    """dtype of ``name`` applied to arguments of dtypes ``dts``, by running numpy's
    implementation once on one-element arrays (cached)."""
    kw = kwargs or {}
    try:
        key = (name, dts, extra, tuple(kw.items()), ndim)
        hash(key)
    except TypeError:
        key = None
    if key is not None:
        try:
            return _DTYPES[key]
        except KeyError:
            pass
    from dispatch._resolve import resolve

    try:
        with np.errstate(all="ignore"):
            out = resolve("numpy", name)(*[_proto(d, ndim) for d in dts], *extra, **kw)
        res = np.asarray(out).dtype.name
    except Exception:
        # a dtype numpy lacks (bfloat16...) or an argument the probe cannot take:
        # fall back to the promotion of the array dtypes
        res = promote(*dts)
    if key is not None:
        _DTYPES[key] = res
    return res


def promote(*dts: Any) -> str:
    key = ("<promote>", dts)
    try:
        return _DTYPES[key]
    except KeyError:
        pass
    try:
        res = np.result_type(*[d(0) if isinstance(d, type) else np.dtype(d) for d in dts]).name
    except TypeError:
        res = next((d for d in dts if isinstance(d, str)), "float64")
    _DTYPES[key] = res
    return res


def real_dtype(dt: str) -> str:
    return {"complex64": "float32", "complex128": "float64", "complex256": "float128"}.get(dt, dt)


def linalg_dtype(dt: Any) -> str:
    """numpy.linalg computes ints and bools in float64, keeps float32/complex64."""
    if isinstance(dt, type):
        dt = np.dtype(dt).name
    if dt in ("float32", "float64", "complex64", "complex128"):
        return dt
    if dt == "float16":
        return "float32"
    return "float64"


def complex_dtype(dt: str) -> str:
    return {"float32": "complex64", "float64": "complex128"}.get(dt, dt)


def _same(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    return shape_of(x), dtype_of_array(x)


def dtype_of_array(x: Any) -> str:
    d = dtype_of(x)
    return d if isinstance(d, str) else np.dtype(d).name


def _as_shape(s: Any) -> Shape:
    if isinstance(s, (int, np.integer)):
        return (int(s),)
    return tuple(operator.index(d) for d in s)


def _reduced(shape: Shape, axis: Any, keepdims: bool) -> Shape:
    axes = norm_axes(axis, len(shape))
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _is_array(k: Any) -> bool:
    return type(k) is _LAZY[0] or (hasattr(k, "shape") and hasattr(k, "dtype")
                                   and not isinstance(k, np.generic))


def _host(k: Any) -> Any:
    if isinstance(k, np.ndarray):
        return k
    from dispatch import to_numpy

    return to_numpy(k)


def _find_lazy(args: tuple, kwargs: dict) -> list:
    out: list = []
    stack = [*args, *kwargs.values()]
    while stack:
        a = stack.pop()
        if type(a) is _LAZY[0]:
            out.append(a)
        elif isinstance(a, (list, tuple)):
            stack.extend(a)
    return out
