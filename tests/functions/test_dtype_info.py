"""``finfo`` and ``iinfo`` answer numpy's question on every backend, however the dtype
is given: a name, numpy's dtype, the library's own dtype object, or an array.

Before the composed ones (translations/_composed/dtypes.py) they failed on every
library but numpy: torch's and mlx's take their own dtype objects only, jax's lies in
ml_dtypes (outside the library, so refused), dask, pydata sparse and autograd have
none, tensorflow had ``finfo`` of a name only. quimb's decompositions on jax call
``xp.finfo(s.dtype).eps`` through the autoray face and lost 10 tests to it.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import missing_dtype_skips, to_backend, usable_backends

from dispatch import do

FLOATS = ("float16", "float32", "float64", "complex64", "complex128")
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool")
FIELDS = {"finfo": ("bits", "eps", "max", "min", "tiny", "resolution", "dtype"),
          "iinfo": ("bits", "max", "min", "dtype")}


def _ways(name: str, backend: str):
    """The dtype ``name`` as a name, numpy's dtype, the library's dtype and an array."""
    yield "name", name
    yield "numpy dtype", np.dtype(name)
    with missing_dtype_skips(backend):
        x = to_backend(np.zeros(2, name), backend)
    yield "library dtype", getattr(x, "dtype", np.dtype(name))
    yield "array", x


@pytest.mark.parametrize("backend", usable_backends(vocabulary=True))
@pytest.mark.parametrize("which", ["finfo", "iinfo"])
def test_info_is_numpys_however_the_dtype_is_given(which: str, backend: str) -> None:
    reference = getattr(np, which)
    checked = 0
    for name in FLOATS if which == "finfo" else INTS[:-1]:
        want = reference(name)
        try:
            ways = list(_ways(name, backend))
        except pytest.skip.Exception:
            continue  # the library stores no such dtype (paddle's uint32)
        for how, given in ways:
            got = do(which, given, like=backend)
            for field in FIELDS[which]:
                assert getattr(got, field) == getattr(want, field), (
                    f"{which}({name} as {how}) on {backend}: {field} {getattr(got, field)!r}, "
                    f"numpy {getattr(want, field)!r}"
                )
            checked += 1
    assert checked >= 8, f"{which} on {backend}: {checked} checked"


@pytest.mark.parametrize("backend", usable_backends(vocabulary=True))
def test_info_of_the_wrong_kind_is_numpys_value_error(backend: str) -> None:
    with pytest.raises(ValueError, match=r"not inexact|Invalid integer"):
        do("finfo", "int32", like=backend)
    with pytest.raises(ValueError, match="Invalid integer"):
        do("iinfo", "float32", like=backend)
