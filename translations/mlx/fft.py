"""mlx: numpy's ``fft`` on ``mlx.core.fft``.

mlx transforms in complex64 only: it has no complex128. numpy transforms float64
data in complex128, so a float64 (or complex128) input is refused with that
reason instead of being rounded to single precision silently; float32 and
complex64 inputs run on mlx's kernels with numpy's arguments (``n``, ``axis``,
``s``, ``axes``, ``norm``). ``hfft`` and ``ihfft``, which mlx lacks, are written
with ``irfft`` and ``rfft`` as numpy defines them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mlx.core as mx
from dispatch.translations._keywords import no_out
from dispatch.translations.mlx._common import NO_COMPLEX128
from dispatch.translations.mlx.devices import _asarray, check_device

from dispatch.engine import merge_tables

_SINGLE = (mx.float32, mx.float16, mx.bfloat16, mx.complex64)


def _single(name: str, a: Any) -> Any:
    a = a if isinstance(a, mx.array) else _asarray(a)
    if a.dtype in (mx.float16, mx.bfloat16):
        return a.astype(mx.float32)
    if a.dtype == mx.float64:
        raise TypeError(f"{name}: numpy transforms float64 data in complex128, and "
                        f"{NO_COMPLEX128}; cast to float32 for a complex64 transform")
    if a.dtype not in _SINGLE:
        return a.astype(mx.float32)  # integers and booleans: mlx's default float
    return a


def _one(name: str, fn: Callable) -> Callable:
    def transform(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None
                  ) -> Any:
        no_out(name, "mlx", out)
        return fn(_single(name, a), n, axis, norm or "backward")

    transform.__name__ = name.rpartition(".")[2]
    return transform


def _many(name: str, fn: Callable, default_axes: Any = None) -> Callable:
    def transform(a: Any, s: Any = None, axes: Any = default_axes, norm: Any = None,
                  out: Any = None) -> Any:
        no_out(name, "mlx", out)
        a = _single(name, a)
        axes = None if axes is None else list(axes)
        return fn(a, None if s is None else list(s), axes, norm or "backward")

    transform.__name__ = name.rpartition(".")[2]
    return transform


def _hfft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    # numpy: hfft(a, n) = irfft(conj(a), n) scaled as a forward transform
    no_out("fft.hfft", "mlx", out)
    a = _single("fft.hfft", a)
    m = n if n is not None else 2 * (a.shape[axis] - 1)
    inverse = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[
        norm or "backward"]
    return mx.fft.irfft(mx.conjugate(a), m, axis, inverse)


def _ihfft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    no_out("fft.ihfft", "mlx", out)
    a = _single("fft.ihfft", a)
    m = n if n is not None else a.shape[axis]
    inverse = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[
        norm or "backward"]
    return mx.conjugate(mx.fft.rfft(a, m, axis, inverse))


def _freq(name: str, fn: Callable) -> Callable:
    def freq(n: int, d: float = 1.0, *, device: Any = None) -> Any:
        check_device(name, device)
        return fn(int(n), float(d))

    return freq


TABLE = merge_tables(
    {f"fft.{n}": _one(f"fft.{n}", getattr(mx.fft, n)) for n in ("fft", "ifft", "rfft", "irfft")},
    {f"fft.{n}": _many(f"fft.{n}", getattr(mx.fft, n))
     for n in ("fftn", "ifftn", "rfftn", "irfftn")},
    {f"fft.{n}": _many(f"fft.{n}", getattr(mx.fft, n), (-2, -1))
     for n in ("fft2", "ifft2", "rfft2", "irfft2")},
    {
        "fft.hfft": _hfft,
        "fft.ihfft": _ihfft,
        "fft.fftfreq": _freq("fft.fftfreq", mx.fft.fftfreq),
        "fft.rfftfreq": _freq("fft.rfftfreq", mx.fft.rfftfreq),
    },
    names=("one axis", "n axes", "two axes", "hermitian and frequencies"),
)
