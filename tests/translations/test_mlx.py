"""mlx's own quirks that no shared test covers: the lean common calls of the hot
adapters (a sum of the array alone, a binary function of two arrays of one dtype) keep
numpy's dtypes on every dtype and pair of dtypes."""

from __future__ import annotations

import numpy as np
import pytest

from dispatch import do

mx = pytest.importorskip("mlx.core")

# mlx's dtypes that numpy has (mlx has no complex128)
DTYPES = ("bool uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float32 float64 "
          "complex64").split()
NO_COMPLEX128 = "mlx has no complex128"


def _host(dtype: str, shape: tuple[int, ...], modulus: int, shift: int = 0) -> np.ndarray:
    return (np.arange(int(np.prod(shape))).reshape(shape) % modulus + shift).astype(dtype)


def _mlx(a: np.ndarray):
    """An mlx array of ``a``'s dtype (``mx.array`` makes float32 of float64 data)."""
    x = do("asarray", a, like="mlx")
    assert x.itemsize == a.itemsize
    return x


def _same(got, expected: np.ndarray) -> None:
    assert isinstance(got, mx.array), type(got)
    out = do("to_numpy", got)
    assert out.dtype == expected.dtype, (out.dtype, expected.dtype)
    assert out.shape == expected.shape
    np.testing.assert_allclose(out, expected, rtol=1e-3)


@pytest.mark.parametrize("name", ["sum", "prod"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(2, 3), (0, 3), ()])
def test_reduction_of_the_array_alone_keeps_numpys_dtype(name, dtype, shape):
    # the common call goes to mlx's kernel for the wide dtypes (8-byte items, or a float
    # or complex dtype); narrow integers and booleans accumulate in int64 / uint64
    a = _host(dtype, shape, 3, shift=1)
    x = _mlx(a)
    for args in ((), (None,), (None, None, None, False)):
        _same(do(name, x, *args), getattr(np, name)(a, *args))
    _same(do(name, x, keepdims=True), getattr(np, name)(a, keepdims=True))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "minimum"])
@pytest.mark.parametrize("first", DTYPES)
def test_binary_of_two_arrays_promotes_as_numpy(name, first):
    # one dtype: mlx's kernel as it is; two: numpy's promotion, or mlx's refusal where
    # numpy's result is complex128
    a = _host(first, (2, 3), 3)
    for second in DTYPES:
        b = _host(second, (2, 3), 2, shift=1)
        if name == "subtract" and "bool" in (first, second):
            continue  # numpy refuses to subtract booleans
        with np.errstate(all="ignore"):
            expected = getattr(np, name)(a, b)
        if expected.dtype == np.complex128:
            with pytest.raises(TypeError, match=NO_COMPLEX128):
                do(name, _mlx(a), _mlx(b))
            continue
        _same(do(name, _mlx(a), _mlx(b)), expected)
