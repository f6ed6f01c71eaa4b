"""tensorflow's FFTs: ``numpy.fft`` on ``tf.signal`` and the backend method list's
``fft_axes``/``ifft_axes``.

tf transforms the innermost axes only and normalises the "backward" way: the
adapters transpose the axis in, crop or pad to ``n``, and scale for numpy's other
``norm`` modes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import tensorflow as tf
from dispatch.translations._composed.fft import _complex_dtype
from dispatch.translations._keywords import no_out
from dispatch.translations.tensorflow._common import _axes, _dt, _real_dtype, _t
from dispatch.translations.tensorflow.devices import placed


def _complex_for(x: Any) -> Any:
    x = _t(x)
    if x.dtype.is_complex:
        return x
    return tf.cast(x, tf.complex64 if x.dtype in (tf.float32, tf.float16) else tf.complex128)


def _real_for(x: Any) -> Any:
    x = _t(x)
    if x.dtype.is_complex:
        raise TypeError("x must be a real sequence")
    return x if x.dtype in (tf.float32, tf.float64) else tf.cast(
        x, tf.float32 if x.dtype == tf.float16 else tf.float64)


def _fit(x: Any, n: int | None, axis: int) -> Any:
    """Crop or zero-pad ``x`` to length ``n`` along ``axis`` (numpy's ``n``/``s``)."""
    if n is None:
        return x
    have = x.shape[axis]
    if have is None:
        have = int(tf.shape(x)[axis])
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    if n < have:
        idx = [slice(None)] * x.shape.rank
        idx[axis] = slice(0, n)
        return x[tuple(idx)]
    if n > have:
        pad = [[0, 0]] * x.shape.rank
        pad[axis] = [0, n - have]
        return tf.pad(x, pad)
    return x


def _scale(x: Any, n: Any, norm: str | None, inverse: bool) -> Any:
    norm = norm or "backward"
    if norm not in ("backward", "ortho", "forward"):
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')
    # tf's transforms are "backward" normalised (1/n on the inverse)
    if norm == "backward":
        return x
    n = tf.cast(n, _real_dtype(x.dtype))
    if norm == "ortho":
        n = tf.sqrt(n)
    return x * tf.cast(n if inverse else 1 / n, x.dtype)


def _last(fn: Callable, x: Any, axis: int) -> Any:
    """Apply the innermost-axis transform ``fn`` along ``axis``."""
    nd = x.shape.rank
    axis = axis % nd
    if axis == nd - 1:
        return fn(x)
    perm = list(range(nd))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return tf.transpose(fn(tf.transpose(x, perm)), perm)


def _c2c(forward: bool) -> Callable:
    tf_fn = tf.signal.fft if forward else tf.signal.ifft
    name = "fft.fft" if forward else "fft.ifft"

    def fft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
            out: None = None) -> Any:
        no_out(name, "tensorflow", out)
        x = _fit(_complex_for(a), n, axis)
        r = _last(tf_fn, x, axis)
        return _scale(r, tf.shape(x)[axis], norm, not forward)

    return fft


def _fftn_axes(x: Any, s: Any, axes: Any) -> tuple[list, list]:
    nd = x.shape.rank
    if axes is None:
        axes = list(range(nd)) if s is None else list(range(nd - len(s), nd))
    axes = [a % nd for a in axes]
    s = [None] * len(axes) if s is None else list(s)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    return axes, s


def _c2cn(forward: bool) -> Callable:
    fn = _c2c(forward)
    name = "fft.fftn" if forward else "fft.ifftn"

    def fftn(a: Any, s: Any = None, axes: Any = None, norm: str | None = None,
             out: None = None) -> Any:
        no_out(name, "tensorflow", out)
        x = _complex_for(a)
        axes_, s_ = _fftn_axes(x, s, axes)
        for ax, n in zip(axes_[::-1], s_[::-1], strict=True):
            x = fn(x, n, ax, norm)
        return x

    return fftn


def _rfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
          out: None = None) -> Any:
    no_out("fft.rfft", "tensorflow", out)
    x = _fit(_real_for(a), n, axis)
    m = tf.shape(x)[axis]
    r = _last(lambda y: tf.signal.rfft(y, [m]), x, axis)
    return _scale(r, m, norm, False)


def _irfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
           out: None = None) -> Any:
    no_out("fft.irfft", "tensorflow", out)
    x = _complex_for(a)
    if n is None:
        n = 2 * (x.shape[axis] - 1)
    x = _fit(x, n // 2 + 1, axis)
    r = _last(lambda y: tf.signal.irfft(y, [n]), x, axis)
    return _scale(r, n, norm, True)


def _rfftn(a: Any, s: Any = None, axes: Any = None, norm: str | None = None,
           out: None = None) -> Any:
    no_out("fft.rfftn", "tensorflow", out)
    x = _real_for(a)
    axes_, s_ = _fftn_axes(x, s, axes)
    x = _rfft(x, s_[-1], axes_[-1], norm)
    fn = _c2c(True)
    for ax, n in zip(axes_[-2::-1], s_[-2::-1], strict=True):
        x = fn(x, n, ax, norm)
    return x


def _irfftn(a: Any, s: Any = None, axes: Any = None, norm: str | None = None,
            out: None = None) -> Any:
    no_out("fft.irfftn", "tensorflow", out)
    x = _complex_for(a)
    axes_, s_ = _fftn_axes(x, s, axes)
    fn = _c2c(False)
    for ax, n in zip(axes_[-2::-1], s_[-2::-1], strict=True):
        x = fn(x, n, ax, norm)
    return _irfft(x, s_[-1], axes_[-1], norm)


def _fft2(fn: Callable, name: str) -> Callable:
    def fft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: str | None = None,
             out: None = None) -> Any:
        no_out(name, "tensorflow", out)
        return fn(a, s, axes, norm)

    return fft2


def _fftfreq(n: int, d: float = 1.0, device: Any = None, dtype: Any = None) -> Any:
    k = tf.constant(np.fft.fftfreq(n, d), _dt(dtype) or tf.float64)
    return k if device is None else placed("fft.fftfreq", k, device)


def _rfftfreq(n: int, d: float = 1.0, device: Any = None, dtype: Any = None) -> Any:
    k = tf.constant(np.fft.rfftfreq(n, d), _dt(dtype) or tf.float64)
    return k if device is None else placed("fft.rfftfreq", k, device)


def _shift(inverse: bool) -> Callable:
    def shift(x: Any, axes: Any = None) -> Any:
        x = _t(x)
        nd = x.shape.rank
        ax = _axes(axes, nd)
        if not ax:
            return x
        dims = tf.shape(x)
        shifts = [(-(dims[a] // 2) if inverse else dims[a] // 2) for a in ax]
        return tf.roll(x, shifts, list(ax))

    return shift


def _fft_axes_tf(x: Any, axes: Sequence[int], inverse: bool) -> Any:
    # the axes are moved to the end once and transformed three at a time (fft3d), where
    # fft.fftn transforms one axis at a time, transposing around each
    x = _t(x)
    target = tf.as_dtype(_complex_dtype(x))
    x = x if x.dtype == target else tf.cast(x, target)
    if not axes:
        return x
    nd = x.shape.rank
    axes = sorted({a % nd for a in axes})
    order = [a for a in range(nd) if a not in axes] + axes
    y = x if order == list(range(nd)) else tf.transpose(x, order)
    fns = ((tf.signal.ifft, tf.signal.ifft2d, tf.signal.ifft3d) if inverse
           else (tf.signal.fft, tf.signal.fft2d, tf.signal.fft3d))
    k, left = len(axes), len(axes)
    while left:
        c = min(left, 3)
        y = fns[c - 1](y)
        left -= c
        if left:  # bring the next axes to the end: rotate the last k axes by c
            rot = list(range(nd - k)) + [nd - c + i for i in range(c)] + list(range(nd - k, nd - c))
            y = tf.transpose(y, rot)
            order = [order[i] for i in rot]
    return tf.transpose(y, np.argsort(order).tolist()) if order != list(range(nd)) else y


def _fft_axes(x: Any, axes: Sequence[int]) -> Any:
    return _fft_axes_tf(x, axes, inverse=False)


def _ifft_axes(k: Any, axes: Sequence[int]) -> Any:
    return _fft_axes_tf(k, axes, inverse=True)


TABLE = {
    "fft.fft": _c2c(True),
    "fft.ifft": _c2c(False),
    "fft.fftn": _c2cn(True),
    "fft.ifftn": _c2cn(False),
    "fft.fft2": _fft2(_c2cn(True), "fft.fft2"),
    "fft.ifft2": _fft2(_c2cn(False), "fft.ifft2"),
    "fft.rfft": _rfft,
    "fft.irfft": _irfft,
    "fft.rfftn": _rfftn,
    "fft.irfftn": _irfftn,
    "fft.rfft2": _fft2(_rfftn, "fft.rfft2"),
    "fft.irfft2": _fft2(_irfftn, "fft.irfft2"),
    "fft.fftfreq": _fftfreq,
    "fft.rfftfreq": _rfftfreq,
    "fft.fftshift": _shift(False),
    "fft.ifftshift": _shift(True),
    # the backend method list
    "fft_axes": _fft_axes,
    "ifft_axes": _ifft_axes,
}
