"""fft_axes, ifft_axes, conv and grid_sample of the backend method list on every
backend, against numpy.fft, scipy.signal.correlate, a direct-sum reference and
scipy.ndimage.map_coordinates."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import scipy.ndimage
import scipy.signal
from conftest import assert_close, known_gap, to_backend, to_np

from dispatch import UnsupportedError, do

rng = np.random.default_rng(17)


def call(backend, name, *args, **kwargs):
    try:
        return do(name, *to_backend(args, backend), **kwargs)
    except UnsupportedError as err:
        if known_gap(backend, name) is None:
            raise  # a name the implementation calls is refused: a failure, not a gap
        pytest.xfail(str(err))  # the name's own unsupported entry


# ---------------------------------------------------------------- fft

X = rng.standard_normal((2, 4, 6))


@pytest.mark.parametrize("axes", [(0,), (1, 2), (0, 1, 2), ()])
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_fft_axes_roundtrip(backend, axes, dtype):
    x = X.astype(dtype)
    k = call(backend, "fft_axes", x, axes)
    expected = np.fft.fftn(x, axes=axes) if axes else x.astype(complex)
    cdt = "complex64" if dtype == "float32" else "complex128"
    assert_close(to_np(k), expected.astype(cdt))
    back = do("ifft_axes", k, axes)
    assert_close(to_np(back), x.astype(cdt))


def test_fft_axes_int_input(backend):
    k = call(backend, "fft_axes", np.arange(4), (0,))
    assert_close(to_np(k), np.fft.fft(np.arange(4)).astype("complex64"))


# ---------------------------------------------------------------- conv


def ref_conv(value, kernel, strides=1, out_sizes=None, transpose=False, zero_padding=True):
    """Direct sums over positions and kernel offsets (see ``conv``'s Notes)."""
    d = value.ndim - 2
    strides = (strides,) * d if isinstance(strides, int) else tuple(strides)
    n, k = value.shape[2:], kernel.shape[3:]
    p = [kk // 2 if zero_padding else 0 for kk in k]
    if out_sizes is None:
        if transpose:
            out_sizes = [nn * s if zero_padding else (nn - 1) * s + kk
                         for nn, s, kk in zip(n, strides, k, strict=True)]
        else:
            out_sizes = [math.ceil(nn / s) if zero_padding else max((nn - kk) // s + 1, 0)
                         for nn, s, kk in zip(n, strides, k, strict=True)]
    batch = max(value.shape[0], kernel.shape[0])
    out = np.zeros((batch, kernel.shape[1], *out_sizes), np.result_type(value, kernel))
    for b in range(batch):
        v, w = value[min(b, value.shape[0] - 1)], kernel[min(b, kernel.shape[0] - 1)]
        for m in itertools.product(*map(range, k)):
            wm = w[(slice(None), slice(None), *m)]  # (out, in)
            for pos in itertools.product(*map(range, n if transpose else out_sizes)):
                if transpose:
                    y = [x * s + mm - pp for x, s, mm, pp in zip(pos, strides, m, p, strict=True)]
                    if all(0 <= yy < L for yy, L in zip(y, out_sizes, strict=True)):
                        out[(b, slice(None), *y)] += wm @ v[(slice(None), *pos)]
                else:
                    x = [y * s + mm - pp for y, s, mm, pp in zip(pos, strides, m, p, strict=True)]
                    if all(0 <= xx < nn for xx, nn in zip(x, n, strict=True)):
                        out[(b, slice(None), *pos)] += wm @ v[(slice(None), *x)]
    return out


V1 = rng.standard_normal((2, 3, 7))
K1 = rng.standard_normal((1, 2, 3, 3))
K1_EVEN = rng.standard_normal((2, 2, 3, 4))
V2 = rng.standard_normal((1, 2, 5, 6))
K2 = rng.standard_normal((1, 3, 2, 3, 2))

CONV = [
    (V1, K1, {}),
    (V1, K1, {"zero_padding": False}),
    (V1, K1_EVEN, {}),
    (V1, K1, {"strides": 2}),
    (V1, K1_EVEN, {"strides": 3, "zero_padding": False}),
    (V1, K1, {"out_sizes": (9,)}),
    (V1, K1, {"transpose": True}),
    (V1, K1_EVEN, {"transpose": True, "strides": 2}),
    (V1, K1, {"transpose": True, "strides": 2, "zero_padding": False}),
    (V2, K2, {}),
    (V2, K2, {"strides": (2, 1), "zero_padding": False}),
    (V2, K2, {"transpose": True, "strides": (1, 2)}),
    (V2.astype("float32"), K2.astype("float32"), {}),
    (rng.integers(-3, 4, (1, 2, 6)), rng.integers(-2, 3, (1, 2, 2, 3)), {}),
    (np.zeros((1, 3, 0)), K1, {}),
]


@pytest.mark.parametrize(("value", "kernel", "kw"), CONV, ids=[str(i) for i in range(len(CONV))])
def test_conv_matches_direct_sum(backend, value, kernel, kw):
    out = call(backend, "conv", value, kernel, **kw)
    assert_close(to_np(out), ref_conv(value, kernel, **kw))


def test_conv_same_matches_scipy_correlate(backend):
    v, k = V1[:1, :1], K1_EVEN[:1, :1, :1]
    out = to_np(call(backend, "conv", v, k))[0, 0]
    assert_close(out, scipy.signal.correlate(v[0, 0], k[0, 0, 0], mode="same"))


def test_conv_transpose_is_adjoint(backend):
    g = rng.standard_normal((2, 2, 4))  # gradient of the strided conv's output
    fwd = to_np(call(backend, "conv", V1, K1, strides=2))
    # adjoint of the forward map: <conv(v), g> == <v, conv_T(g)> with the kernel's channels swapped
    kt = np.swapaxes(K1, 1, 2)
    back = to_np(call(backend, "conv", g, kt, strides=2, transpose=True, out_sizes=(7,)))
    np.testing.assert_allclose(np.sum(fwd * g), np.sum(V1 * back), rtol=1e-10)


# ---------------------------------------------------------------- grid_sample

SCIPY_MODES = {"zeros": "grid-constant", "boundary": "nearest", "undefined": "nearest",
               "periodic": "grid-wrap", "symmetric": "reflect", "reflect": "mirror"}


def ref_grid_sample(grid, coords, mode):
    batch = max(grid.shape[0], coords.shape[0])
    out = []
    for b in range(batch):
        g, c = grid[min(b, grid.shape[0] - 1)], coords[min(b, coords.shape[0] - 1)]
        pts = np.moveaxis(c, -1, 0)
        out.append(np.stack([
            scipy.ndimage.map_coordinates(g[..., ch], pts, order=1, mode=SCIPY_MODES[mode])
            for ch in range(g.shape[-1])
        ], -1))
    return np.stack(out)


GRID2 = rng.standard_normal((2, 4, 5, 3))
COORDS2 = rng.uniform(-3.0, 8.0, (1, 7, 2))
GRID1 = rng.standard_normal((1, 6, 1))
COORDS1 = rng.uniform(-8.0, 14.0, (3, 4, 5, 1))


@pytest.mark.parametrize("mode", list(SCIPY_MODES))
def test_grid_sample_2d(backend, mode):
    out = call(backend, "grid_sample", GRID2, COORDS2, mode)
    assert_close(to_np(out), ref_grid_sample(GRID2, COORDS2, mode))


@pytest.mark.parametrize("mode", ["zeros", "periodic", "symmetric", "reflect"])
def test_grid_sample_1d_batch_broadcast(backend, mode):
    out = call(backend, "grid_sample", GRID1, COORDS1, mode)
    assert to_np(out).shape == (3, 4, 5, 1)
    assert_close(to_np(out), ref_grid_sample(GRID1, COORDS1, mode))


def test_grid_sample_int_grid_and_exact_points(backend):
    grid = np.arange(12).reshape(1, 3, 4, 1)
    pts = np.array([[[0.0, 0.0], [2.0, 3.0], [1.0, 1.5]]])
    out = to_np(call(backend, "grid_sample", grid, pts, "boundary"))
    assert_close(out[0, :, 0], np.array([0.0, 11.0, 5.5]), dtype="kind")


def test_grid_sample_rejects_unknown_mode():
    with pytest.raises(ValueError, match="extrapolation"):
        do("grid_sample", GRID1, COORDS1, "clamp")
