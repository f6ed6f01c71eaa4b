"""autograd: conversions and dtypes. A box wraps a numpy array: its dtypes are
numpy's, its device the host, and ``to_numpy`` leaves the trace behind."""

from __future__ import annotations

from typing import Any

import numpy as np
from autograd.tracer import getval

from dispatch.engine import unsupported


def _to_numpy(x: Any) -> np.ndarray:
    """The value inside a box (and inside nested boxes), as a numpy array.

    >>> _to_numpy(np.arange(2))
    array([0, 1])
    """
    return np.asarray(getval(x))


def _to_device(x: Any, device: Any) -> Any:
    if str(device).lower() != "cpu":
        raise ValueError(f"autograd computes on the host ('cpu') only, not on {device!r}")
    return x


def _astype(x: Any, dtype: Any, **kwargs: Any) -> Any:
    # a box casts with autograd's own astype (recorded); a numpy array with numpy's
    return x.astype(np.dtype(dtype), **kwargs)


def _complex(real: Any, imag: Any) -> Any:
    """autoray's ``complex(real, imag)``, written with arithmetic autograd records.

    >>> _complex(np.array([1.0]), np.array([2.0]))
    array([1.+2.j])
    """
    return real + 1j * imag


TABLE = {
    "complex": _complex,
    "to_numpy": _to_numpy,
    "from_numpy": np.asarray,
    "to_backend_dtype": np.dtype,
    "astype": _astype,
    "to_device": _to_device,
    "get_device": lambda x: "cpu",
    "from_dlpack": unsupported("autograd's arrays are numpy's: use numpy.from_dlpack"),
}
