"""paddle: ``numpy.fft`` on tensors.

``paddle.fft`` has numpy's names and keywords (``n``/``s``, ``axis``/``axes``,
``norm``), but transforms integers in float32 (numpy: float64), makes float32
frequencies and shifts with a ``roll`` that refuses numpy's tuples of axes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import paddle
from dispatch.translations.paddle.creation import _on
from dispatch.translations.paddle.shape import _roll
from paddle import Tensor

from dispatch.engine import merge_tables

_COMPLEX = {paddle.float32: "complex64", paddle.float16: "complex64"}


def _transform(fn: Callable) -> Callable:
    n_d = fn.__name__ in ("fft2", "ifft2", "fftn", "ifftn")

    def transform(a: Any, *args: Any, **kwargs: Any) -> Tensor:
        if not isinstance(a, Tensor):
            a = paddle.to_tensor(np.asarray(a))
        if not (a.is_floating_point() or a.is_complex()):
            a = a.astype("float64")
        if n_d and _no_axes(args, kwargs):
            # numpy transforms over no axis: the input's values (paddle refuses axes=())
            return a.clone() if a.is_complex() else a.astype(_COMPLEX.get(a.dtype, "complex128"))
        for key in ("s", "axes"):
            if isinstance(kwargs.get(key), tuple):
                kwargs[key] = list(kwargs[key])
        args = tuple(list(x) if isinstance(x, tuple) else x for x in args)
        return fn(a, *args, **kwargs)

    transform.__name__ = transform.__qualname__ = "_" + fn.__name__
    return transform


def _no_axes(args: tuple, kwargs: dict) -> bool:
    """Whether a call of an n-D transform (a, s, axes, norm) names no axis, s unset."""
    s = kwargs.get("s", args[0] if args else None)
    axes = kwargs.get("axes", args[1] if len(args) > 1 else None)
    return s is None and isinstance(axes, (tuple, list)) and not axes


def _fftfreq(n: int, d: float = 1.0, *, device: Any = None) -> Tensor:
    return _on(paddle.fft.fftfreq(int(n), d, dtype="float64"), device)


def _rfftfreq(n: int, d: float = 1.0, *, device: Any = None) -> Tensor:
    return _on(paddle.fft.rfftfreq(int(n), d, dtype="float64"), device)


def _shift(sign: int) -> Callable:
    def shift(x: Tensor, axes: Any = None) -> Tensor:
        if axes is None:
            axes = tuple(range(x.ndim))
        elif not isinstance(axes, (tuple, list)):
            axes = (axes,)
        shifts = [sign * (x.shape[ax] // 2) if sign > 0 else -(x.shape[ax] // 2)
                  for ax in axes]
        return _roll(x, tuple(shifts), tuple(axes)) if axes else x.clone()

    return shift


_TRANSFORMS = {
    f"fft.{name}": _transform(getattr(paddle.fft, name))
    for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2",
                 "irfft2", "fftn", "ifftn", "rfftn", "irfftn")
}
TABLE = merge_tables(
    _TRANSFORMS,
    {
        "fft.fftfreq": _fftfreq,
        "fft.rfftfreq": _rfftfreq,
        "fft.fftshift": _shift(1),
        "fft.ifftshift": _shift(-1),
    },
    names=("transforms", "helpers"),
)
