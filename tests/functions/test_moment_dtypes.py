"""``mean``, ``var``, ``std`` and their ``nan`` versions in any ``dtype=`` give numpy's
result on every backend: numpy's dtype (as the library stores it) and numpy's values,
or numpy's refusal.

numpy accumulates in the dtype asked for and casts each step to it, so
``mean([[1, 2, 2, 2], ...], dtype=int32)`` is 1, not 1.75, and ``var`` of a real array
in complex64 is complex64. Before the composed steps (translations/_composed/
_moment_dtypes.py) 42 of these 54 tests failed: mlx gave the float mean in float32 for
integer and boolean dtypes, paddle, tensorflow, sparse and jax the float variance for
integer ones, torch, paddle and sparse a real variance for a complex dtype, several
libraries refused calls numpy answers (torch's mean in an integer dtype, jax's std), and
dask and autograd answered where numpy refuses an integer dtype for a nan moment of
floats.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import missing_dtype, to_backend, to_np, usable_backends

from dispatch import UnsupportedError, do

NAMES = ("mean", "var", "std", "nanmean", "nanvar", "nanstd")
DTYPES = ("int32", "int64", "uint8", "bool", "complex64", "complex128", "float32")
INPUTS = {
    "int64": np.array([[1, 2, 2, 2], [3, 5, 7, 8]], dtype=np.int64),
    "float64": np.array([[1.25, 2.5, np.nan, 2.0], [3.5, 5.0, 7.25, 8.0]]),
    "bool": np.array([[True, False, True, True], [False, False, True, False]]),
    "complex128": np.array([[1 + 2j, 2 - 1j, 2j, 2], [3, 5 + 1j, 7, 8 - 3j]]),
}
CALLS = ({}, {"axis": 1}, {"axis": 1, "keepdims": True}, {"axis": 0, "ddof": 1})


def _numpy(name: str, a: np.ndarray, dtype: str, kw: dict) -> tuple[object, str | None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return np.asarray(getattr(np, name)(a, dtype=dtype, **kw)), None
        except Exception as err:  # numpy's refusal is the answer to match
            return None, f"{type(err).__name__}: {err}"


def _stored(backend: str, dtype: np.dtype) -> np.dtype:
    """``dtype`` as the library stores it (jax without x64 keeps int64 in int32)."""
    return np.asarray(to_np(to_backend(np.zeros(1, dtype), backend))).dtype


@pytest.mark.parametrize("backend", usable_backends(vocabulary=True))
@pytest.mark.parametrize("name", NAMES)
def test_a_moment_in_any_dtype_is_numpys(name: str, backend: str) -> None:
    checked = 0
    for label, a in INPUTS.items():
        if not name.startswith("nan") and label == "float64":  # NaN for the nan ones only
            a = np.nan_to_num(a)
        for dtype in DTYPES:
            for kw in CALLS:
                if "ddof" in kw and "var" not in name and "std" not in name:
                    continue
                want, refusal = _numpy(name, a, dtype, kw)
                where = f"{name}({label}, dtype={dtype}, {kw}) on {backend}"
                try:
                    x = to_backend(a, backend)
                except Exception as err:  # the library stores no such input dtype
                    stored: BaseException | None = err
                else:
                    stored = None
                if stored is not None:
                    assert missing_dtype(backend, stored), f"{where}: {stored!r}"
                    continue
                refused: BaseException | None = None
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        got = np.asarray(to_np(do(name, x, dtype=dtype, **kw)))
                except (TypeError, ValueError, UnsupportedError) as err:
                    refused = err
                if refused is not None:
                    # numpy refused too, or the library cannot hold numpy's dtype (an
                    # autograd box holds no integer or boolean: autograd refuses them)
                    assert refusal is not None or missing_dtype(backend, refused) or (
                        backend == "autograd" and "Can't differentiate" in str(refused)
                    ), f"{where}: refused ({refused!r}) where numpy gives {want!r}"
                    continue
                assert refusal is None, f"{where}: {got!r} where numpy refuses ({refusal})"
                assert isinstance(want, np.ndarray)
                assert got.dtype == _stored(backend, want.dtype), (
                    f"{where}: {got.dtype}, numpy {want.dtype}"
                )
                assert got.shape == want.shape, where
                np.testing.assert_allclose(got, want.astype(got.dtype), rtol=2e-6,
                                           equal_nan=True, err_msg=where)
                checked += 1
    # mlx stores no complex128, so a quarter of the calls cannot be made there
    assert checked > 20, f"{name} on {backend}: only {checked} calls compared"
