"""Shapes and dtypes of calls no rule covers, found by running them abstractly:
``jax.eval_shape`` for jax leaves, torch's ``meta`` device for torch leaves, and
otherwise numpy's implementation on zero-strided placeholders of the right shape
(only the output is allocated).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from dispatch.lazy._shapes_common import _LAZY, _NODATA, _WEAK, ShapeError, _find_lazy, dtype_name


def abstract(name: str, args: tuple, kwargs: dict, backend: str | None = None) -> Any:
    """Shape and dtype of a call found by running it on placeholder inputs.

    jax leaves use ``jax.eval_shape`` and torch leaves the ``meta`` device, which
    allocate nothing; otherwise numpy's implementation runs on zero-strided views
    of the right shape (only the output is allocated).
    """
    lazies = _find_lazy(args, kwargs)
    if backend is None:
        backend = _backend_of(lazies)
    if backend == "jax":
        try:
            return _abstract_jax(name, args, kwargs)
        except Exception:
            pass
    if backend == "torch":
        try:
            return _abstract_torch(name, args, kwargs)
        except Exception:
            pass
    return _abstract_numpy(name, args, kwargs)


def _backend_of(lazies: list) -> str:
    from dispatch import _registry as reg

    best, p = "numpy", -1e9
    for a in lazies:
        b = a._backend
        q = reg.priority(b) if b else -1
        if q > p:
            best, p = b, q
    return best


def _substitute(obj: Any, f: Callable[[Any], Any]) -> Any:
    if type(obj) is _LAZY[0]:
        return f(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_substitute(o, f) for o in obj)
    if isinstance(obj, slice):
        return obj
    return obj


def _result(out: Any, to: Callable[[Any], tuple]) -> Any:
    if isinstance(out, (list, tuple)):
        return [_result(o, to) for o in out]
    return to(out)


def _abstract_numpy(name: str, args: tuple, kwargs: dict) -> Any:
    from dispatch._resolve import resolve

    fn = resolve("numpy", name) if name != "getitem" else operator.getitem
    last: Exception | None = None
    for fill in (0, 1):

        def proto(a: Any, fill: int = fill) -> Any:
            if a._data is not _NODATA[0] and isinstance(a._data, np.ndarray):
                return a._data
            dt = a._dtype if a._dtype else "float64"
            try:
                base = np.full((), fill, dtype=dt)
            except TypeError:
                base = np.full((), fill, dtype="float32")
            return np.broadcast_to(base, a._shape)

        try:
            with np.errstate(all="ignore"):
                out = fn(*_substitute(args, proto), **_substitute(kwargs, proto))
            return _result(out, lambda o: (tuple(map(int, np.shape(o))), _out_dtype(o)))
        except Exception as err:
            last = err
    raise ShapeError(
        f"cannot infer the shape of {name!r} on lazy arrays: running numpy's implementation "
        f"on placeholders failed ({type(last).__name__}: {last}). Register a rule with "
        "dispatch.lazy.register_shape_rule."
    ) from last


def _out_dtype(o: Any) -> str:
    if isinstance(o, _WEAK):
        return np.asarray(o).dtype.name if not isinstance(o, bool) else "bool"
    return dtype_name(getattr(o, "dtype", np.asarray(o).dtype))


def _abstract_jax(name: str, args: tuple, kwargs: dict) -> Any:
    import jax

    from dispatch import do

    lz: list = []

    def mark(a: Any) -> Any:
        lz.append(a)
        return len(lz) - 1

    a_tpl = _substitute(args, lambda a: _Slot(mark(a)))
    k_tpl = _substitute(kwargs, lambda a: _Slot(mark(a)))
    specs = [jax.ShapeDtypeStruct(a._shape, a._dtype) for a in lz]

    def run(*xs: Any) -> Any:
        fill = lambda o: xs[o.i] if isinstance(o, _Slot) else o
        a = _fill(a_tpl, fill)
        k = {key: _fill(v, fill) for key, v in k_tpl.items()}
        return do(name, *a, **k) if name != "getitem" else a[0][a[1]]

    out = jax.eval_shape(run, *specs)
    return _result(out, lambda o: (tuple(o.shape), dtype_name(o.dtype)))


def _abstract_torch(name: str, args: tuple, kwargs: dict) -> Any:
    import torch

    from dispatch import do

    def meta(a: Any) -> Any:
        return torch.empty(a._shape, dtype=getattr(torch, a._dtype), device="meta")

    a = _substitute(args, meta)
    k = _substitute(kwargs, meta)
    out = do(name, *a, **k) if name != "getitem" else a[0][a[1]]
    return _result(out, lambda o: (tuple(o.shape), dtype_name(o.dtype)))


class _Slot:
    __slots__ = ("i",)

    def __init__(self, i: int):
        self.i = i


def _fill(obj: Any, f: Callable[[Any], Any]) -> Any:
    if isinstance(obj, _Slot):
        return f(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_fill(o, f) for o in obj)
    return obj
