"""autograd: numpy's real FFTs of any length. autograd differentiates ``rfft`` and
``irfft`` of even lengths only ("Real FFT gradient for odd lengthed last axes is not
implemented"); here each is numpy's value (:func:`~._common.exact`) differentiated
through the complex transforms, which autograd differentiates at every length:
``rfft`` as the first half of ``fft``, ``irfft`` as the real part of the ``ifft`` of
the Hermitian spectrum, ``hfft``/``ihfft`` as numpy writes them from those two. The
complex transforms are autograd's own, with numpy's ``out=`` refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from autograd import numpy as anp
from autograd.tracer import getval

from ._common import exact

_SWAP = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


def _along(x: Any, axis: int, idx: Any) -> Any:
    return x[(slice(None),) * (axis % np.ndim(getval(x))) + (idx,)]


def _half(full: Any, axis: int, n: int) -> Any:
    """The first ``n // 2 + 1`` entries of ``full`` along ``axis``."""
    return _along(full, axis, slice(0, n // 2 + 1))


def _no_out(name: str, out: Any) -> None:
    if out is not None:
        raise TypeError(f"{name}(out=...) writes into an array: autograd records pure "
                        "functions")


def _one(name: str) -> Callable:
    """autograd's complex transform ``name`` along one axis. autograd's own passes
    ``out=`` on to numpy, which cannot write into a box (``fft.ifft2`` returned its
    result and left the box as it was): refused here."""
    fn = getattr(anp.fft, name)

    def transform(a: Any, n: Any = None, axis: int = -1, norm: Any = None,
                  out: Any = None) -> Any:
        _no_out(f"fft.{name}", out)
        return fn(a, n, axis, norm)

    transform.__name__ = name
    return transform


def _many(name: str, default_axes: Any) -> Callable:
    """autograd's complex transform ``name`` over several axes, ``out=`` refused (see
    :func:`_one`)."""
    fn = getattr(anp.fft, name)

    def transform(a: Any, s: Any = None, axes: Any = default_axes, norm: Any = None,
                  out: Any = None) -> Any:
        _no_out(f"fft.{name}", out)
        return fn(a, s, axes, norm)

    transform.__name__ = name
    return transform


def _rfft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    _no_out("fft.rfft", out)
    value = np.fft.rfft(getval(a), n, axis, norm)
    n = np.shape(getval(a))[axis] if n is None else n
    return exact(value, _half(anp.fft.fft(a, n, axis, norm), axis, n))


def _hermitian(c: Any, n: int, axis: int) -> Any:
    """The full spectrum of length ``n`` whose first ``n // 2 + 1`` entries are ``c``'s
    (cropped or zero-padded, as numpy's ``irfft`` reads them)."""
    h = n // 2 + 1
    m = np.shape(getval(c))[axis]
    if m >= h:
        c = _along(c, axis, slice(0, h))
    else:
        shape = list(np.shape(getval(c)))
        shape[axis] = h - m
        c = anp.concatenate([c, np.zeros(shape, np.result_type(getval(c)))], axis=axis)
    tail = n - np.arange(h, n)  # X[k] = conj(c[n - k]) past the middle
    return anp.concatenate([c, anp.conj(_along(c, axis, tail))], axis=axis)


def _irfft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    _no_out("fft.irfft", out)
    value = np.fft.irfft(getval(a), n, axis, norm)
    n = value.shape[axis]
    return exact(value, anp.real(anp.fft.ifft(_hermitian(a, n, axis), n, axis, norm)))


def _hfft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    _no_out("fft.hfft", out)
    value = np.fft.hfft(getval(a), n, axis, norm)
    return exact(value, _irfft(anp.conj(a), value.shape[axis], axis, _SWAP[norm]))


def _ihfft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    _no_out("fft.ihfft", out)
    value = np.fft.ihfft(getval(a), n, axis, norm)
    return exact(value, anp.conj(_rfft(a, n, axis, _SWAP[norm])))


def _axes(a: Any, s: Any, axes: Any) -> tuple[tuple, tuple | None]:
    # tuples: autograd's fftn takes no list of axes
    nd = np.ndim(getval(a))
    if axes is None:
        axes = list(range(nd - len(s), nd)) if s is not None else list(range(nd))
    return tuple(ax % nd for ax in axes), None if s is None else tuple(s)


def _rfftn(a: Any, s: Any = None, axes: Any = None, norm: Any = None, out: Any = None) -> Any:
    _no_out("fft.rfftn", out)
    value = np.fft.rfftn(getval(a), s, axes, norm)
    axes, s = _axes(a, s, axes)
    full = anp.fft.fftn(a, s, axes, norm)
    last = axes[-1]
    n = np.shape(getval(full))[last]
    return exact(value, _half(full, last, n))


def _rfft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: Any = None,
           out: Any = None) -> Any:
    return _rfftn(a, s, axes, norm, out)


def _irfftn(a: Any, s: Any = None, axes: Any = None, norm: Any = None,
            out: Any = None) -> Any:
    _no_out("fft.irfftn", out)
    value = np.fft.irfftn(getval(a), s, axes, norm)
    axes, _ = _axes(a, s, axes)
    x = a
    if len(axes) > 1:
        x = anp.fft.ifftn(a, tuple(value.shape[ax] for ax in axes[:-1]), axes[:-1], norm)
    return exact(value, _irfft(x, value.shape[axes[-1]], axes[-1], norm))


def _irfft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: Any = None,
            out: Any = None) -> Any:
    return _irfftn(a, s, axes, norm, out)


TABLE = {
    "fft.fft": _one("fft"),
    "fft.ifft": _one("ifft"),
    "fft.fft2": _many("fft2", (-2, -1)),
    "fft.ifft2": _many("ifft2", (-2, -1)),
    "fft.fftn": _many("fftn", None),
    "fft.ifftn": _many("ifftn", None),
    "fft.rfft": _rfft,
    "fft.irfft": _irfft,
    "fft.hfft": _hfft,
    "fft.ihfft": _ihfft,
    "fft.rfftn": _rfftn,
    "fft.rfft2": _rfft2,
    "fft.irfftn": _irfftn,
    "fft.irfft2": _irfft2,
}
