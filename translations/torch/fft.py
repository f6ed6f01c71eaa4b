"""torch: ``numpy.fft``, with torch.fft's own functions.

The 1-D transforms take numpy's ``axis`` natively; the n-D ones (and the shifts)
call ``axes`` ``dim``, renamed by :func:`alias`. ``fft.hfft`` and ``fft.ihfft``
are torch's. The backend method list's ``fft_axes`` is in :mod:`.signal`.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import Tensor

from dispatch.engine import alias


def _shift(fn: Any) -> Any:
    def shift(x: Tensor, axes: Any = None) -> Tensor:
        # torch takes an empty dim for "no shift given" and refuses it; numpy's
        # axes=() shifts no axis
        if axes.__class__ in (tuple, list) and not axes:
            return torch.clone(torch.as_tensor(x))
        return fn(x, dim=axes)

    shift.__name__ = shift.__qualname__ = "_" + fn.__name__
    return shift

TABLE = {
    # fft: 1-D transforms take numpy's ``axis`` natively; n-D ones call ``axes`` ``dim``
    "fft.fft": "fft.fft",
    "fft.ifft": "fft.ifft",
    "fft.rfft": "fft.rfft",
    "fft.irfft": "fft.irfft",
    "fft.hfft": "fft.hfft",
    "fft.ihfft": "fft.ihfft",
    "fft.fft2": alias("fft.fft2", axes="dim"),
    "fft.ifft2": alias("fft.ifft2", axes="dim"),
    "fft.rfft2": alias("fft.rfft2", axes="dim"),
    "fft.irfft2": alias("fft.irfft2", axes="dim"),
    "fft.fftn": alias("fft.fftn", axes="dim"),
    "fft.ifftn": alias("fft.ifftn", axes="dim"),
    "fft.rfftn": alias("fft.rfftn", axes="dim"),
    "fft.irfftn": alias("fft.irfftn", axes="dim"),
    "fft.fftfreq": "fft.fftfreq",
    "fft.rfftfreq": "fft.rfftfreq",
    "fft.fftshift": _shift(torch.fft.fftshift),
    "fft.ifftshift": _shift(torch.fft.ifftshift),
}
