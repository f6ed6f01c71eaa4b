"""numpy.fft functions that some libraries lack, written once with ``do``:
``fft.hfft`` and ``fft.ihfft``, through the library's ``fft.irfft`` and
``fft.rfft`` exactly as numpy defines them (a conjugate and the opposite
normalization direction)."""

from __future__ import annotations

from typing import Any

from dispatch.engine import composed, do

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
