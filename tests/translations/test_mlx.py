"""mlx's own quirks that no shared test covers: the lean common calls of the hot
adapters (a sum of the array alone, a binary function of two arrays of one dtype) keep
numpy's dtypes on every dtype and pair of dtypes; its linear algebra factorizes
complex64 in eigh, eigvalsh, svd, eig and eigvals only (its other kernels refuse
complex), against numpy's results and dtypes; numpy's keywords that mlx's immutable,
single-layout, unified-memory arrays meet otherwise (device=, copy=, order=), and
jax's has_aux in jvp."""

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


rng = np.random.default_rng(5)
A = (rng.standard_normal((2, 4, 4)) + 1j * rng.standard_normal((2, 4, 4))).astype(np.complex64)
H = (A + np.swapaxes(A, -1, -2).conj()) / 2
TOL = {"rtol": 1e-4, "atol": 1e-4}


def host(x):
    return tuple(host(v) for v in x) if isinstance(x, tuple) else np.asarray(do("to_numpy", x))


def test_complex_hermitian_eigh_and_eigvalsh():
    w, v = host(do("linalg.eigh", mx.array(H)))
    ref_w, ref_v = np.linalg.eigh(H)
    assert (w.dtype, v.dtype) == (ref_w.dtype, ref_v.dtype)
    np.testing.assert_allclose(w, ref_w, **TOL)
    np.testing.assert_allclose(v @ (w[..., None] * np.swapaxes(v, -1, -2).conj()), H, **TOL)
    np.testing.assert_allclose(host(do("linalg.eigvalsh", mx.array(H))), ref_w, **TOL)


def test_complex_svd():
    u, s, vh = host(do("linalg.svd", mx.array(A), full_matrices=False))
    ref = np.linalg.svd(A, full_matrices=False)
    assert (u.dtype, s.dtype, vh.dtype) == tuple(r.dtype for r in ref)
    np.testing.assert_allclose(s, ref.S, **TOL)
    np.testing.assert_allclose(u @ (s[..., None] * vh), A, **TOL)
    np.testing.assert_allclose(host(do("linalg.svd", mx.array(A), compute_uv=False)), ref.S,
                               **TOL)


def test_complex_eig_and_eigvals():
    w, v = host(do("linalg.eig", mx.array(A[0])))
    assert (w.dtype, v.dtype) == (np.complex64, np.complex64)  # numpy's: complex stays
    np.testing.assert_allclose(A[0] @ v, v * w, **TOL)
    np.testing.assert_allclose(np.sort_complex(host(do("linalg.eigvals", mx.array(A[0])))),
                               np.sort_complex(np.linalg.eigvals(A[0])), **TOL)


@pytest.mark.parametrize("name", ["linalg.qr", "linalg.inv", "linalg.cholesky"])
def test_the_other_factorizations_refuse_complex_with_the_reason(name):
    with pytest.raises(NotImplementedError, match="its other linalg kernels refuse complex64"):
        do(name, mx.array(H))


def test_device_takes_mlxs_devices_and_refuses_any_other():
    cpu = do("list_devices", like="mlx")[0]
    for device in ("cpu", "cpu:0", "CPU", mx.cpu, mx.Device(mx.cpu), cpu):
        np.testing.assert_array_equal(do("to_numpy", do("zeros", 2, like="mlx",
                                                        device=device)), np.zeros(2))
    unknown = ["nowhere", "cpu:1", "cuda", 3] + ([] if mx.is_available(mx.gpu) else ["gpu"])
    for device in unknown:
        with pytest.raises(ValueError, match=r"do\('zeros'\) on backend 'mlx': device="):
            do("zeros", 2, like="mlx", device=device)
    with pytest.raises(ValueError, match="device="):
        do("to_device", mx.ones(2), "nowhere")


def test_copy_false_where_numpy_needs_a_copy_is_refused():
    x = _mlx(np.arange(6.0).reshape(2, 3))
    assert do("asarray", x, copy=False) is x
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        do("asarray", x, dtype="float32", copy=False)
    with pytest.raises(ValueError, match="Unable to avoid creating a copy"):
        do("reshape", x, (3, 2), order="F", copy=False)
    host = np.arange(6.0).reshape(2, 3)
    _same(do("reshape", x, (1, 2, 3), order="F", copy=False),
          np.reshape(host, (1, 2, 3), order="F", copy=False))
    _same(do("reshape", x, (3, 2), order="F"), np.reshape(host, (3, 2), order="F"))


def test_jvp_has_aux_returns_the_aux_as_jax():
    def f(v):
        return mx.sum(v**2), {"total": mx.sum(v)}

    out, tangent, aux = do("jvp", f, (mx.array([1.0, 2.0]),), (mx.array([1.0, 0.0]),),
                           has_aux=True)
    assert (out.item(), tangent.item(), aux["total"].item()) == (5.0, 2.0, 3.0)
