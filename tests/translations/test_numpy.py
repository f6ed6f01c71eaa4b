"""The numpy backend: where numpy's own function departs from numpy's documentation."""

from __future__ import annotations

import numpy as np
import pytest

from dispatch import do

Z = np.arange(6.0).reshape(2, 3) + 1j * np.arange(6.0).reshape(2, 3) ** 2

# name, input, the positional arguments that precede out=
FFT_OUT = [
    ("fft.ifft2", Z, (None, (-2, -1), None)),
    ("fft.irfft2", Z, (None, (-2, -1), None)),
    ("fft.hfft", Z[0], (None, -1, None)),
]


@pytest.mark.parametrize(("name", "a", "before"), FFT_OUT, ids=[c[0] for c in FFT_OUT])
@pytest.mark.parametrize("positional", [False, True], ids=["keyword", "positional"])
def test_fft_out_is_written(name: str, a: np.ndarray, before: tuple, positional: bool) -> None:
    # numpy 2.4's ifft2, irfft2 and hfft return a new array and leave out= as it was
    expected = do(name, a)
    out = np.full_like(expected, 7)
    got = do(name, a, *before, out) if positional else do(name, a, out=out)
    assert got is out
    np.testing.assert_allclose(out, expected)


@pytest.mark.parametrize("name", ["fft.ifft2", "fft.irfft2"])
def test_fft_out_keeps_numpys_checks(name: str) -> None:
    expected = do(name, Z)
    with pytest.raises(ValueError, match="wrong shape"):
        do(name, Z, out=np.zeros((1, *expected.shape), expected.dtype))
    if expected.dtype.kind == "c":  # complex into real: numpy's same_kind refusal
        with pytest.raises(TypeError):
            do(name, Z, out=np.zeros(expected.shape))
    narrow = np.zeros(expected.shape, np.complex64 if expected.dtype.kind == "c" else
                      np.float32)
    np.testing.assert_allclose(do(name, Z, out=narrow), expected, rtol=1e-5)
