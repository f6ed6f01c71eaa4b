"""FFTs written once with ``do``.

numpy.fft functions that some libraries lack: ``fft.hfft`` and ``fft.ihfft``,
through the library's ``fft.irfft`` and ``fft.rfft`` exactly as numpy defines
them (a conjugate and the opposite normalization direction).

The backend method list's FFT over given axes, renamed because numpy owns the
list's names:

=====================================  ===============  ===================================
list method                            ``do`` name      why renamed
=====================================  ===============  ===================================
``fft(x, axes)``                       ``fft_axes``     ``fft`` is numpy's module
``ifft(k, axes)``                      ``ifft_axes``    ``fft.ifft`` is numpy's 1-D one
=====================================  ===============  ===================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from dispatch.engine import composed, do, get_precision

# numpy's _swap_direction: the Hermitian transforms run the real ones backwards
_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _swap(norm: Any) -> str:
    if norm not in _SWAP:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')
    return _SWAP[norm]


def _no_out(out: Any) -> None:
    if out is not None:
        raise TypeError("out= is not supported: the result is returned as a new array")


@composed("fft.hfft")
def hfft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    """FFT of a signal with Hermitian symmetry (a real spectrum), numpy's
    ``fft.hfft``: ``irfft(conj(a), n, axis)`` with the normalization direction
    swapped. ``n`` defaults to ``2 * (a.shape[axis] - 1)``.

    Examples
    --------
    >>> import numpy as np
    >>> do("fft.hfft", np.array([1.0, 2.0, 3.0]))
    array([ 8., -2.,  0., -2.])
    """
    _no_out(out)
    new_norm = _swap(norm)
    if n is None:
        n = (do("shape", a)[axis] - 1) * 2
    return do("fft.irfft", do("conj", a), n, axis, norm=new_norm)


@composed("fft.ihfft")
def ihfft(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
    """Inverse FFT of a real signal to its Hermitian half spectrum, numpy's
    ``fft.ihfft``: ``conj(rfft(a, n, axis))`` with the normalization direction
    swapped.

    Examples
    --------
    >>> import numpy as np
    >>> do("fft.ihfft", np.array([8.0, -2.0, 0.0, -2.0]))
    array([1.-0.j, 2.-0.j, 3.-0.j])
    """
    _no_out(out)
    new_norm = _swap(norm)
    if n is None:
        n = do("shape", a)[axis]
    return do("conj", do("fft.rfft", a, n, axis, norm=new_norm))


# ---------------------------------------------------------------- fft


def _complex_dtype(x: Any) -> np.dtype:
    """Complex dtype for the FFT of ``x``: the current precision when one is set,
    else the width matching ``x`` (float32 -> complex64, float64 -> complex128)."""
    dt = do("dtype_of", x)
    if get_precision() is not None:
        return do("complex_type")
    if dt.kind == "c":
        return dt
    if dt.kind == "f":
        return np.dtype("complex128" if dt.itemsize >= 8 else "complex64")
    return do("complex_type")


@composed("fft_axes")
def fft_axes(x: Any, axes: Sequence[int]) -> Any:
    """n-dimensional FFT over ``axes``, as complex (the list's ``fft``).

    The result keeps a complex dtype of the input's width (numpy's ``fftn``
    always returns complex128). With empty ``axes``, ``x`` as complex.

    Examples
    --------
    >>> import numpy as np
    >>> do("fft_axes", np.ones((2, 2), "float32"), (0,))
    array([[2.+0.j, 2.+0.j],
           [0.+0.j, 0.+0.j]], dtype=complex64)
    """
    target = _complex_dtype(x)
    x = do("cast", x, target)
    if not axes:
        return x
    return do("cast", do("fft.fftn", x, axes=tuple(axes)), target)


@composed("ifft_axes")
def ifft_axes(k: Any, axes: Sequence[int]) -> Any:
    """n-dimensional inverse FFT over ``axes`` (the list's ``ifft``).

    Examples
    --------
    >>> import numpy as np
    >>> do("ifft_axes", np.array([2.0, 0.0]), (0,))
    array([1.+0.j, 1.+0.j])
    """
    target = _complex_dtype(k)
    k = do("cast", k, target)
    if not axes:
        return k
    return do("cast", do("fft.ifftn", k, axes=tuple(axes)), target)
