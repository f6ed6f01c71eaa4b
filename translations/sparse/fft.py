"""pydata sparse: FFTs.

pydata sparse has none: the transform of a sparse array is dense by nature,
computed on the dense values and returned as a sparse array (``densified``).
The frequencies are numpy's, stored as a COO; the shifts are sparse rolls.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sparse
from dispatch.translations.sparse._common import densified, sp
from dispatch.translations.sparse.creation import _from_numpy_creation
from sparse import SparseArray

from dispatch.engine import merge_tables


def _shift(x: Any, axes: Any, direction: int) -> SparseArray:
    x = sp(x)
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, (int, np.integer)):
        axes = (axes,)
    shift = [direction * (x.shape[ax] // 2) for ax in axes]
    return sparse.roll(x, tuple(shift), axis=tuple(axes))


TABLE = merge_tables(
    {
        "fft.fftfreq": _from_numpy_creation(np.fft.fftfreq),
        "fft.rfftfreq": _from_numpy_creation(np.fft.rfftfreq),
        "fft.fftshift": lambda x, axes=None: _shift(x, axes, +1),
        "fft.ifftshift": lambda x, axes=None: _shift(x, axes, -1),
    },
    {
        f"fft.{n}": densified(getattr(np.fft, n), name=f"fft.{n}")
        for n in (
            "fft ifft fft2 ifft2 fftn ifftn rfft irfft rfft2 irfft2 rfftn irfftn hfft ihfft"
        ).split()
    },
    names=("fft", "transforms"),
)
