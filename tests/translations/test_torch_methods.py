"""The torch table's entries for the backend method list: native kernels against
numpy/scipy references and the composed fallbacks, derivatives against finite
differences, and every entry inside ``jit_compile`` (torch.jit.trace)."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from dispatch.translations import torch as ttable  # noqa: E402
from dispatch.translations.torch import control as tcontrol  # noqa: E402

from dispatch import do  # noqa: E402

rng = np.random.default_rng(11)
CUDA = torch.cuda.is_available()


def T(x, dtype=None):
    return torch.as_tensor(np.array(x), dtype=dtype)


def N(x):
    return do("to_numpy", x)


def jit(f):
    return do("jit_compile", f, like="torch")


def kinds(jf):
    """How each signature of a jit function runs: 'traced', 'eager' or 'pending'."""
    out = []
    for v in jf.traces.values():
        out.append("eager" if v is tcontrol._EAGER else "pending" if v is tcontrol._TRACE_NEXT
                   else "traced")
    return out


def run_jit(f, make_args, calls=4):
    """Call ``jit(f)`` on fresh arguments ``calls`` times against plain ``f``."""
    jf = jit(f)
    for _ in range(calls):
        args = make_args()
        expected = f(*args)
        got = jf(*args)
        for e, g in zip(_leaves(expected), _leaves(got), strict=True):
            torch.testing.assert_close(g, e)
    return jf


def _leaves(x):
    if isinstance(x, (tuple, list)):
        return [leaf for v in x for leaf in _leaves(v)]
    return [x]


# ---------------------------------------------------------------- references


def ref_scatter(base, indices, values, mode):
    batch = max(base.shape[0], indices.shape[0], values.shape[0])
    out = np.array(np.broadcast_to(base, (batch, *base.shape[1:])))
    vals = np.broadcast_to(values, (batch, indices.shape[1], base.shape[-1])).astype(base.dtype)
    for b in range(batch):
        idx = tuple(indices[min(b, indices.shape[0] - 1)].T)
        if mode == "update":
            out[b][idx] = vals[b]
        elif mode == "add":
            (np.logical_or if base.dtype == bool else np.add).at(out[b], idx, vals[b])
        else:
            (np.maximum if mode == "max" else np.minimum).at(out[b], idx, vals[b])
    return out


def ref_conv(value, kernel, strides=1, out_sizes=None, transpose=False, zero_padding=True):
    """out[b, o, y] = sum value[b, i, y * s + m - p] kernel[b, o, i, m], p = k // 2 (or 0);
    transposed: value[b, i, j] kernel[b, o, i, m] added at y = j * s + m - p."""
    d = value.ndim - 2
    s = (strides,) * d if np.ndim(strides) == 0 else tuple(strides)
    n, k = value.shape[2:], kernel.shape[3:]
    p = [kk // 2 if zero_padding else 0 for kk in k]
    sizes = list(zip(n, s, k, strict=True))
    if out_sizes is None and transpose:
        o = [i * st if zero_padding else (i - 1) * st + kk for i, st, kk in sizes]
    elif out_sizes is None:
        o = [-(-i // st) if zero_padding else (i - kk) // st + 1 for i, st, kk in sizes]
    else:
        o = list(out_sizes)
    batch = max(value.shape[0], kernel.shape[0])
    out = np.zeros((batch, kernel.shape[1], *o), np.result_type(value, kernel))
    for b in range(batch):
        v, w = value[min(b, value.shape[0] - 1)], kernel[min(b, kernel.shape[0] - 1)]
        for m in itertools.product(*(range(kk) for kk in k)):
            wm = w[(slice(None), slice(None), *m)]
            if not transpose:
                for y in itertools.product(*(range(oo) for oo in o)):
                    src = [yy * st + mm - pp for yy, st, mm, pp in zip(y, s, m, p, strict=True)]
                    if all(0 <= q < nn for q, nn in zip(src, n, strict=True)):
                        out[(b, slice(None), *y)] += wm @ v[(slice(None), *src)]
            else:
                for j in itertools.product(*(range(nn) for nn in n)):
                    y = [st * jj + mm - pp for st, jj, mm, pp in zip(s, j, m, p, strict=True)]
                    if all(0 <= q < oo for q, oo in zip(y, o, strict=True)):
                        out[(b, slice(None), *y)] += wm @ v[(slice(None), *j)]
    return out


SCIPY_MODES = {"zeros": "grid-constant", "boundary": "nearest", "undefined": "nearest",
               "periodic": "grid-wrap", "symmetric": "reflect", "reflect": "mirror"}


def ref_grid_sample(grid, coords, mode):
    from scipy.ndimage import map_coordinates

    batch = max(grid.shape[0], coords.shape[0])
    out = []
    for b in range(batch):
        g, c = grid[min(b, grid.shape[0] - 1)], coords[min(b, coords.shape[0] - 1)]
        pts = np.moveaxis(c, -1, 0).reshape(c.shape[-1], -1)
        chans = [map_coordinates(g[..., ch], pts, order=1, mode=SCIPY_MODES[mode])
                 for ch in range(g.shape[-1])]
        out.append(np.stack(chans, -1).reshape(*c.shape[:-1], g.shape[-1]))
    return np.stack(out)


def finite_difference(f, x, eps=1e-6):
    """d f / d x (f: array -> array) by central differences, f.shape + x.shape."""
    x = np.asarray(x, dtype=np.float64)
    cols = []
    for i in range(x.size):
        dx = np.zeros(x.size)
        dx[i] = eps
        dx = dx.reshape(x.shape)
        cols.append((np.asarray(f(x + dx)) - np.asarray(f(x - dx))) / (2 * eps))
    return np.moveaxis(np.array(cols), 0, -1).reshape(np.shape(f(x)) + x.shape)


# ---------------------------------------------------------------- resolution


@pytest.mark.parametrize(
    ("name", "topic", "kernel"),
    [("scatter_1d_scalar", "indexing", "_scatter_1d_scalar_torch"),
     ("bincount_fixed", "statistics", "_bincount_fixed_torch"),
     ("searchsorted_batched", "indexing", "_searchsorted_batched_torch"),
     ("conjugate_gradient", "solvers", "_conjugate_gradient_torch")],
)
def test_torch_kernels_are_the_table_entries(name, topic, kernel):
    import importlib

    module = importlib.import_module(f"dispatch.translations.torch.{topic}")
    assert ttable.TABLE[name] is getattr(module, kernel)


def test_every_new_entry_resolves():
    from dispatch import get_lib_fn

    for name in ("scatter", "gather", "histogram1d", "sparse_coo_tensor", "csr_matrix",
                 "conv", "grid_sample", "fft_axes", "jacobian", "hessian", "jit_compile",
                 "while_loop", "vectorized_call", "numpy_call", "list_devices", "to_dlpack",
                 "random_permutations", "seed", "random_uniform", "is_tensor"):
        assert callable(get_lib_fn("torch", name)), name


# ---------------------------------------------------------------- scatter, gather, counting

F = rng.standard_normal((2, 5, 3))
IDX = rng.integers(0, 5, (2, 7, 1))
VAL = rng.standard_normal((2, 7, 3))
GRID = rng.standard_normal((2, 4, 5, 2))
IDX2 = np.stack([rng.integers(0, 4, (1, 9)), rng.integers(0, 5, (1, 9))], -1)
IDX2[0, 3] = IDX2[0, 0]
VAL9 = rng.standard_normal((2, 9, 2))
SCATTER = [
    (F, IDX, VAL), (F.astype(np.float32), IDX, VAL.astype(np.float32)),
    (rng.integers(-9, 9, (2, 5, 3)), IDX, rng.integers(-20, 20, (2, 7, 3))),
    (F[:1], IDX, VAL[:, :, :1]), (F, IDX[:1], VAL[:1, :1]), (GRID, IDX2, VAL9),
    (GRID[:1], IDX2, np.ones((2, 1, 1))), (F, IDX[:, :0], VAL[:, :0]),
    (rng.standard_normal((1, 50, 1)), rng.integers(0, 50, (1, 80, 1)),
     rng.standard_normal((1, 80, 1))),  # the 1-D fast path
    (rng.random((2, 5, 3)) > 0.5, IDX, VAL > 0),
]


@pytest.mark.parametrize("mode", ["add", "max", "min"])
@pytest.mark.parametrize("k", range(len(SCATTER)))
def test_scatter_matches_numpy_and_keeps_inputs(mode, k):
    base, idx, vals = SCATTER[k]
    args = (T(base), T(idx), T(vals))
    before = [a.clone() for a in args]
    out = do("scatter", *args, mode)
    np.testing.assert_allclose(N(out), ref_scatter(base, idx, vals, mode), rtol=1e-6)
    assert out.dtype == args[0].dtype
    for a, b in zip(args, before, strict=True):
        assert torch.equal(a, b)


def test_scatter_update_and_errors():
    base, idx = F, np.array([[[4], [0], [2]]])
    out = do("scatter", T(base), T(idx), T(VAL[:1, :3]), "update")
    np.testing.assert_allclose(N(out), ref_scatter(base, idx, VAL[:1, :3], "update"))
    with pytest.raises(ValueError, match="mode"):
        do("scatter", T(base), T(idx), T(VAL[:1, :3]), "mul")
    with pytest.raises(ValueError, match="components"):
        do("scatter", T(base), T(np.concatenate([idx, idx], -1)), T(VAL[:1, :3]), "add")


def test_scatter_agrees_with_composed_fallback():
    from dispatch.translations._composed.indexing import scatter as composed_scatter

    for mode in ("add", "max", "min"):
        np.testing.assert_allclose(N(do("scatter", T(GRID), T(IDX2), T(VAL9), mode)),
                                   composed_scatter(GRID, IDX2, VAL9, mode))


def test_gather_takes_negative_indices_like_numpy():
    v = rng.standard_normal((3, 6, 2))
    for idx, axis in (([2, 0, 5], 1), ([-1, 0, -6], 1), ([1], -1), ([], 0)):
        out = do("gather", T(v), T(np.array(idx, dtype=np.int64)), axis)
        np.testing.assert_array_equal(N(out), np.take(v, np.array(idx, dtype=np.int64), axis))


def test_histogram1d_and_bincount_match_numpy():
    v = rng.standard_normal((3, 40))
    v[0, :3] = [-0.5, 0.5, 10.0]
    e = np.sort(rng.standard_normal((1, 6)), -1)
    v[1, 0] = e[0, -1]  # the closed last edge
    w = rng.random((3, 40))
    ref = np.stack([np.histogram(v[b], e[0], weights=w[b])[0] for b in range(3)])
    np.testing.assert_allclose(N(do("histogram1d", T(v), T(w), T(e))), ref)
    counts = do("histogram1d", T(v), None, T(e))
    assert counts.dtype == torch.int64
    np.testing.assert_array_equal(N(counts), [np.histogram(v[b], e[0])[0] for b in range(3)])
    x = np.array([0, 2, 2, 7, -1, 3])
    np.testing.assert_array_equal(N(do("bincount_fixed", T(x), None, 4)), [1, 0, 2, 1])
    np.testing.assert_allclose(N(do("bincount_fixed", T(x), T(np.arange(6.0)), 4)),
                               [0.0, 0.0, 3.0, 5.0])


def test_searchsorted_batched_matches_numpy():
    s = np.sort(rng.standard_normal((2, 3, 7)), -1)
    q = rng.standard_normal((1, 3, 4))
    for side in ("left", "right"):
        out = do("searchsorted_batched", T(s), T(q), side=side)
        assert out.dtype == torch.int32
        ref = [[np.searchsorted(s[b, r], q[0, r], side=side) for r in range(3)] for b in range(2)]
        np.testing.assert_array_equal(N(out), ref)


def test_unique_takes_numpy_flags():
    a = np.array([[3, 1, 3], [1, 1, 2], [3, 1, 3]])
    for kw in ({}, {"return_inverse": True, "return_counts": True},
               {"axis": 0, "return_inverse": True, "return_counts": True}):
        ref = np.unique(a, **kw)
        got = do("unique", T(a), **kw)
        ref, got = (ref, got) if isinstance(ref, tuple) else ((ref,), (got,))
        for r, g in zip(ref, got, strict=True):
            np.testing.assert_array_equal(N(g), r)


def test_copy_takes_only_mutable():
    x = T([1.0, 2.0])
    y = do("copy", x, only_mutable=True)
    assert torch.equal(x, y)
    assert y.data_ptr() != x.data_ptr()


# ---------------------------------------------------------------- sparse


def test_sparse_constructors_match_scipy():
    import scipy.sparse as sp

    dense = np.array([[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]])
    coo = sp.coo_matrix(dense)
    indices = np.stack([coo.row, coo.col], -1)
    csr, csc = sp.csr_matrix(dense), sp.csc_matrix(dense)
    made = {
        "coo": do("sparse_coo_tensor", T(indices), T(coo.data), (2, 3)),
        "csr": do("csr_matrix", T(csr.indices), T(csr.indptr), T(csr.data), (2, 3)),
        "csc": do("csc_matrix", T(csc.indptr), T(csc.indices), T(csc.data), (2, 3)),
    }
    for fmt, m in made.items():
        assert do("is_sparse", m)
        assert do("get_sparse_format", m) == fmt
        np.testing.assert_array_equal(N(m.to_dense()), dense)
        host = do("numpy", m)
        assert sp.issparse(host)
        assert host.format == fmt
        np.testing.assert_array_equal(host.toarray(), dense)
        assemble, parts = do("disassemble", m)
        np.testing.assert_array_equal(assemble("numpy", *[N(p) for p in parts]).toarray(), dense)
        np.testing.assert_array_equal(N(assemble("torch", *parts).to_dense()), dense)
    assert not do("is_sparse", T(dense))
    assert do("get_sparse_format", T(dense)) == "dense"
    # duplicates are summed, channels make a hybrid tensor
    dup = do("sparse_coo_tensor", T([[0, 1], [0, 1]]), T([1.0, 2.0]), (2, 2))
    np.testing.assert_array_equal(N(dup.to_dense()), [[0, 3.0], [0, 0]])
    hybrid = do("csr_matrix", T(csr.indices), T(csr.indptr), T(np.ones((3, 2))), (2, 3))
    assert tuple(hybrid.shape) == (2, 3, 2)


def test_batched_sparse_constructors_are_the_composed_tuples():
    ms = do("csr_matrix_batched", T([[1, 0]]), T([[0, 1, 2]]), T([[1.0, 2.0], [3.0, 4.0]]),
            (2, 2))
    assert len(ms) == 2
    np.testing.assert_array_equal(N(ms[1].to_dense()), [[0.0, 3.0], [4.0, 0.0]])


@pytest.mark.parametrize("fmt", ["dense", "coo", "csr", "csc"])
def test_mul_matrix_batched_vector(fmt):
    a = rng.standard_normal((5, 4))
    a[a < 0.3] = 0
    A = T(a)
    if fmt != "dense":
        A = {"coo": A.to_sparse_coo, "csr": A.to_sparse_csr, "csc": A.to_sparse_csc}[fmt]()
    for b in (rng.standard_normal((3, 4)), rng.standard_normal((1, 4)), rng.standard_normal(4)):
        out = do("mul_matrix_batched_vector", A, T(b))
        np.testing.assert_allclose(N(out), b @ a.T if b.ndim == 2 else a @ b, atol=1e-12)


# ---------------------------------------------------------------- fft, conv, grid_sample


def test_fft_axes_dtypes_and_values():
    x = rng.standard_normal((3, 4, 2))
    out = do("fft_axes", T(x), (0, 2))
    assert out.dtype == torch.complex128
    np.testing.assert_allclose(N(out), np.fft.fftn(x, axes=(0, 2)), atol=1e-12)
    np.testing.assert_allclose(N(do("ifft_axes", out, (0, 2))), x, atol=1e-12)
    assert do("fft_axes", T(x.astype(np.float32)), (1,)).dtype == torch.complex64
    assert do("fft_axes", T(np.arange(4)), ()).dtype == torch.complex64  # default precision
    from dispatch.translations._composed.fft import fft_axes

    assert np.dtype(N(do("fft_axes", T(np.arange(4)), (0,))).dtype) == fft_axes(
        np.arange(4), (0,)).dtype


CONV = [
    ((2, 3, 7), (1, 4, 3, 3), {}),
    ((2, 3, 7), (2, 4, 3, 2), {"strides": 2}),
    ((1, 2, 6, 5), (1, 3, 2, 3, 2), {"out_sizes": (4, 7)}),
    ((2, 2, 5), (1, 3, 2, 3), {"transpose": True, "strides": 2}),
    ((2, 2, 5, 4), (2, 3, 2, 2, 3), {"transpose": True, "strides": (2, 1), "out_sizes": (9, 5)}),
    ((2, 3, 7), (1, 4, 3, 3), {"zero_padding": False}),
    ((1, 2, 4, 4, 3), (1, 2, 2, 3, 3, 2), {}),
    ((2, 2, 5), (1, 3, 2, 3), {"transpose": True, "zero_padding": False}),
    ((1, 2, 6), (3, 2, 2, 4), {"strides": 3, "out_sizes": (3,)}),
    ((2, 1, 4), (1, 1, 1, 2), {"transpose": True, "strides": 3, "out_sizes": (14,)}),
]


@pytest.mark.parametrize(("vshape", "kshape", "kw"), CONV)
def test_conv_matches_reference(vshape, kshape, kw):
    v, k = rng.standard_normal(vshape), rng.standard_normal(kshape)
    out = do("conv", T(v), T(k), **kw)
    np.testing.assert_allclose(N(out), ref_conv(v, k, **kw), atol=1e-10)
    np.testing.assert_allclose(do("conv", v, k, **kw), N(out), atol=1e-10)  # composed


def test_conv_integers_and_empty_axes():
    v, k = rng.integers(-3, 3, (2, 3, 7)), rng.integers(-3, 3, (1, 2, 3, 3))
    out = do("conv", T(v), T(k))
    assert out.dtype == torch.int64
    np.testing.assert_array_equal(N(out), ref_conv(v, k))
    kf = rng.standard_normal((1, 2, 3, 3))
    assert tuple(do("conv", T(np.zeros((2, 3, 0))), T(kf)).shape) == (2, 2, 0)
    assert tuple(do("conv", T(np.zeros((2, 3, 0))), T(kf), out_sizes=(2,)).shape) == (2, 2, 2)
    assert tuple(do("conv", T(np.ones((2, 3, 4))), T(kf), zero_padding=False, strides=9,
                    out_sizes=(0,)).shape) == (2, 2, 0)


@pytest.mark.parametrize("mode", sorted(SCIPY_MODES))
@pytest.mark.parametrize("d", [1, 2, 3])
def test_grid_sample_matches_scipy(d, mode):
    g = rng.standard_normal((2, *(4, 5, 3)[:d], 2))
    c = rng.uniform(-9, 12, (1, 6, 2, d))
    out = do("grid_sample", T(g), T(c), mode)
    assert tuple(out.shape) == (2, 6, 2, 2)
    np.testing.assert_allclose(N(out), ref_grid_sample(g, c, mode), atol=1e-10)
    np.testing.assert_allclose(do("grid_sample", g, c, mode), N(out), atol=1e-10)  # composed


def test_grid_sample_dtypes_and_gradient():
    g = rng.standard_normal((1, 4, 3, 1))
    c = rng.uniform(0.1, 2.4, (1, 5, 2))
    out = do("grid_sample", T(g.astype(np.float32)), T(c.astype(np.float32)), "boundary")
    assert out.dtype == torch.float32
    f = lambda cc: do("grid_sample", T(g), cc, "boundary")
    jac = do("jacobian", f, wrt=0, get_output=False, like="torch")(T(c))
    fd = finite_difference(lambda cc: N(f(T(cc))), c)
    np.testing.assert_allclose(N(jac), fd, atol=1e-6)


# ---------------------------------------------------------------- autodiff


def f_two(x, y):
    return do("sum", do("sin", x) * y ** 2), x * 2


def test_jacobian_and_gradient_against_finite_differences():
    x, y = rng.standard_normal(3), rng.standard_normal(3)
    for name in ("jacobian", "jit_compile_grad"):
        g = do(name, f_two, wrt=(0, 1), get_output=True, like="torch")
        for scale in (1.0, 2.0, -1.0):  # several calls: traced graphs re-optimise
            (_, twice), (gx, gy) = g(T(x * scale), T(y))
            xs = x * scale
            np.testing.assert_allclose(N(twice), 2 * x * scale)
            np.testing.assert_allclose(
                N(gx), finite_difference(lambda a: N(f_two(T(a), T(y))[0]), xs), atol=1e-7)
            np.testing.assert_allclose(
                N(gy), finite_difference(lambda b, xs=xs: N(f_two(T(xs), T(b))[0]), y), atol=1e-7)
    grad = do("gradient", lambda a: (a ** 3).sum(), like="torch")(T(x))
    assert isinstance(grad, tuple)
    assert len(grad) == 1
    np.testing.assert_allclose(N(grad[0]), 3 * x ** 2)
    out, g1 = do("gradient", lambda a: (a ** 3).sum(), wrt=0, get_output=True, like="torch")(T(x))
    np.testing.assert_allclose(N(g1), 3 * x ** 2)
    np.testing.assert_allclose(N(out), (x ** 3).sum())


def test_jacobian_of_vector_function_and_int_argument():
    f = lambda a: a[:2] * a[1:] ** 2
    x = rng.standard_normal(3)
    for name in ("jacobian", "jit_compile_grad"):
        jac = do(name, f, wrt=0, get_output=False, like="torch")(T(x))
        assert tuple(jac.shape) == (2, 3)
        np.testing.assert_allclose(N(jac), finite_difference(lambda a: a[:2] * a[1:] ** 2, x),
                                   atol=1e-7)
    g = do("gradient", lambda a: (a * a).sum(), wrt=0, like="torch")(T([1, 2]))
    assert g.is_floating_point()
    np.testing.assert_allclose(N(g), [2.0, 4.0])


def loss_two(a, b):
    return (a ** 3).sum(-1) * b[:, 0] + (a[:, :1] * do("sin", b)).sum(-1)


@pytest.mark.parametrize("name", ["hessian", "jit_compile_hessian"])
def test_hessian_per_batch_entry_against_finite_differences(name):
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((4, 2))
    h = do(name, loss_two, wrt=(0, 1), get_output=True, get_gradient=True, like="torch")
    for _ in range(3):  # traced graphs re-optimise after the first calls
        out, grads, hess = h(T(a), T(b))
        np.testing.assert_allclose(N(out), N(loss_two(T(a), T(b))))
        args = (a, b)
        for i in range(2):
            def grad_i(z, i=i, args=args):
                full = list(args)
                full[i] = z
                return N(loss_two(T(full[0]), T(full[1]))).sum()

            np.testing.assert_allclose(N(grads[i]), finite_difference(grad_i, args[i]),
                                       atol=1e-6)
            for j in range(2):
                assert tuple(hess[i][j].shape) == (4, *args[i].shape[1:], *args[j].shape[1:])
                for e in range(4):  # entry e's Hessian block by differences of gradients
                    def g_ij(z, i=i, j=j, e=e, args=args):
                        full = [T(args[0]), T(args[1])]
                        full[j] = full[j].clone()
                        full[j][e] = T(z)
                        gi = torch.func.grad(lambda p, q: loss_two(p, q).sum(), argnums=i)(*full)
                        return N(gi[e])

                    np.testing.assert_allclose(N(hess[i][j][e]),
                                               finite_difference(g_ij, args[j][e]), atol=1e-6)
    single = do(name, loss_two, wrt=0, get_output=False, get_gradient=False, like="torch")
    (h00,) = single(T(a), T(b))
    assert tuple(h00.shape) == (4, 3, 3)


def test_custom_gradient_in_autograd_func_and_jit():
    seen = []

    def grad(x, y, dy):
        seen.append(1)
        return (dy * 100,)

    f = do("custom_gradient", lambda a: a * 2, grad, like="torch")
    x = T([1.0, 2.0])
    np.testing.assert_array_equal(N(f(x)), [2.0, 4.0])
    xr = x.clone().requires_grad_(True)
    (gx,) = torch.autograd.grad(f(xr).sum(), xr)
    np.testing.assert_array_equal(N(gx), [100.0, 100.0])
    np.testing.assert_array_equal(N(torch.func.grad(lambda a: f(a).sum())(x)), [100.0, 100.0])
    jg = do("jit_compile_grad", lambda a: f(a).sum(), wrt=0, get_output=False, like="torch")
    for _ in range(3):
        np.testing.assert_array_equal(N(jg(x)), [100.0, 100.0])
    assert seen

    def two(a, b):
        return a * b, a + b

    f2 = do("custom_gradient", two, lambda x, y, dy: (dy[0] * 0 + 1, dy[1] * 0 + 2), like="torch")
    a, b = T([1.0]).requires_grad_(True), T([3.0]).requires_grad_(True)
    p, s = f2(a, b)
    np.testing.assert_array_equal([N(t) for t in torch.autograd.grad((p + s).sum(), (a, b))],
                                  [[1.0], [2.0]])


def test_stop_gradient_detaches():
    x = T([1.0]).requires_grad_(True)
    assert not do("stop_gradient", x * 2).requires_grad


# ---------------------------------------------------------------- jit_compile


def make(*shapes, dtype=np.float64):
    return lambda: tuple(T(rng.standard_normal(s).astype(dtype)) for s in shapes)


JIT_CASES = {
    "scatter add": (lambda b, i, v: do("scatter", b, i, v, "add"),
                    lambda: (T(rng.standard_normal((2, 5, 3))), T(rng.integers(0, 5, (2, 7, 1))),
                             T(rng.standard_normal((2, 7, 3))))),
    "scatter max 1-D": (lambda b, i, v: do("scatter", b, i, v, "max"),
                        lambda: (T(rng.standard_normal((1, 50, 1))),
                                 T(rng.integers(0, 50, (1, 70, 1))),
                                 T(rng.standard_normal((1, 70, 1))))),
    "gather": (lambda v, i: do("gather", v, i, 1),  # negative indices too
               lambda: (T(rng.standard_normal((3, 6))), T(np.array([-1, 0, 5, -6])))),
    "histogram1d": (lambda v, w, e: do("histogram1d", v, w, e),
                    lambda: (T(rng.standard_normal((2, 30))), T(rng.random((2, 30))),
                             T(np.sort(rng.standard_normal((2, 5)), -1)))),
    "searchsorted": (lambda s, v: do("searchsorted_batched", s, v, side="right"),
                     lambda: (T(np.sort(rng.standard_normal((2, 6)), -1)),
                              T(rng.standard_normal((2, 3))))),
    "conv": (lambda v, k: do("conv", v, k, strides=2), make((2, 3, 8, 6), (1, 2, 3, 3, 3))),
    "conv transposed": (lambda v, k: do("conv", v, k, strides=2, transpose=True),
                        make((2, 3, 8), (2, 2, 3, 3))),
    "grid_sample": (lambda g, c: do("grid_sample", g, c, "periodic"),
                    lambda: (T(rng.standard_normal((2, 4, 5, 2))),
                             T(rng.uniform(-3, 8, (2, 7, 2))))),
    "fft": (lambda x: do("ifft_axes", do("fft_axes", x, (0, 1)) * 2, (1,)), make((4, 5))),
    "matrix batch": (lambda a, b: do("mul_matrix_batched_vector", a, b), make((4, 3), (5, 3))),
    "tuple output": (lambda x, y: (do("sum", x * y, axis=0), {"d": x - y}), make((3, 2), (3, 2))),
}
VALUE_DEPENDENT = {
    "python branch": (lambda x: x * 2 if x.sum() > 0 else x - 1, make((3,))),
    "item": (lambda x: x * x.max().item(), make((3,))),
    "numpy_call": (lambda x: do("numpy_call", np.cumsum, (3,), "float64", x) * 2, make((3,))),
    "while_loop": (lambda x: do("while_loop", lambda c, v: (v < 10, v + 1), (x < 10, x))[1],
                   lambda: (T(rng.integers(0, 5, 3)),)),
    "boolean mask": (lambda x: x[x > 0].sum() * x, make((5,))),
    "bincount": (lambda x, w: do("bincount_fixed", x, w, 6),
                 lambda: (T(rng.integers(-1, 8, 20)), T(rng.random(20)))),
}


@pytest.mark.parametrize("name", sorted(JIT_CASES))
def test_jit_compile_traces_and_matches_eager(name):
    f, make_args = JIT_CASES[name]
    jf = run_jit(f, make_args)
    assert kinds(jf) == ["traced"]


@pytest.mark.parametrize("name", sorted(VALUE_DEPENDENT))
def test_jit_compile_keeps_value_dependent_python_eager(name):
    f, make_args = VALUE_DEPENDENT[name]
    jf = run_jit(f, make_args, calls=6)
    assert kinds(jf) == ["eager"]


def test_jit_compile_retraces_per_signature_and_constants():
    calls = []

    def f(x, scale, flag=False):
        calls.append(1)
        return x * scale + (1 if flag else 0) + x.shape[0]

    jf = jit(f)
    for _ in range(3):
        torch.testing.assert_close(jf(T([1.0, 2.0]), 3.0), T([5.0, 8.0]))
    torch.testing.assert_close(jf(T([1.0, 2.0, 3.0]), 3.0, flag=True), T([7.0, 10.0, 13.0]))
    torch.testing.assert_close(jf(T([1.0, 2.0]), 4.0), T([6.0, 10.0]))
    torch.testing.assert_close(jf(np.array([1.0, 2.0]), 4.0), T([6.0, 10.0]))  # numpy input
    jf(T([1.0, 2.0]), 4.0)
    assert len(calls) == 2 + 1 + 2  # Python runs on a signature's first two calls only
    assert jf(T([1.0]), [1, 2][:1][0]).shape == (1,)
    assert do("jit_compile", jf, like="torch") is jf


def test_jit_compile_composes_with_autograd_and_torch_func():
    f = jit(lambda a: (do("sin", a) ** 2).sum())
    x = rng.standard_normal(4)
    expected = 2 * np.sin(x) * np.cos(x)
    for _ in range(3):
        xr = T(x).requires_grad_(True)
        (g,) = torch.autograd.grad(f(xr), xr)
        np.testing.assert_allclose(N(g), expected)
        np.testing.assert_allclose(N(do("gradient", f, wrt=0, like="torch")(T(x))), expected)
        np.testing.assert_allclose(N(torch.func.grad(f)(T(x))), expected)  # runs f eagerly
    # a jit function of a derivative: functorch does not trace, so it stays eager
    jg = jit(do("gradient", lambda a: (a ** 3).sum(), wrt=0, like="torch"))
    for _ in range(3):
        np.testing.assert_allclose(N(jg(T(x))), 3 * x ** 2)


def test_jit_compile_draws_fresh_random_numbers():
    jf = jit(lambda x: x + torch.rand(x.shape, dtype=x.dtype))
    draws = [jf(T(np.zeros(4))) for _ in range(4)]
    assert kinds(jf) == ["traced"]
    assert not torch.equal(draws[2], draws[3])
    # the list's random names follow seed() inside traced graphs too
    jn = jit(lambda x: x + do("random_normal", (3,), "float64", like="torch"))
    for _ in range(3):
        jn(T(np.zeros(3)))
    do("seed", 3, like="torch")
    first = [jn(T(np.zeros(3))) for _ in range(2)]
    do("seed", 3, like="torch")
    again = [jn(T(np.zeros(3))) for _ in range(2)]
    assert kinds(jn) == ["traced"]
    assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))


# ---------------------------------------------------------------- control flow, host calls


def test_while_loop_and_checkpoints_match_composed():
    from dispatch.translations._composed.control import while_loop

    def step(go, x):
        return x + 1 < 4, x + 1

    for max_iter in (None, 2, [0, 1, 3, 7]):
        ref = while_loop(step, (np.array([True, True]), np.array([0, 2])), max_iter)
        got = do("while_loop", step, (T([True, True]), T([0, 2])), max_iter)
        for r, g in zip(ref, got, strict=True):
            np.testing.assert_array_equal(N(g), r)
    x = T([1.0]).requires_grad_(True)
    _, out = do("while_loop", lambda c, v: (v < 3, v + 1), (T([True]), x * 1))
    assert not out.requires_grad


def test_vectorized_call_vmap_and_loop_fallback():
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((1, 3))
    out = do("vectorized_call", lambda u, v: (u * v).sum(), T(a), T(b))
    np.testing.assert_allclose(N(out), (a * b).sum(-1))
    # data-dependent Python: torch.vmap refuses, the composed loop runs it
    out = do("vectorized_call", lambda u: u * 2 if u.sum() > 0 else -u, T(a),
             output_dtypes="float32")
    assert out.dtype == torch.float32
    np.testing.assert_allclose(N(out), [r * 2 if r.sum() > 0 else -r for r in a], rtol=1e-6)
    pair = do("vectorized_call", lambda u, scale: (u * scale, u.sum()), T(a), scale=3.0)
    np.testing.assert_allclose(N(pair[0]), a * 3)
    np.testing.assert_allclose(N(pair[1]), a.sum(-1))


def test_numpy_call_and_is_available():
    x = T([1.0, 2.0, 3.0])
    out = do("numpy_call", np.cumsum, (3,), "float32", x)
    assert isinstance(out, torch.Tensor)
    assert out.dtype == torch.float32
    np.testing.assert_array_equal(N(out), [1.0, 3.0, 6.0])
    two = do("numpy_call", lambda a: (a + 1, a.sum()), ((3,), ()), ("float64", "float64"), x)
    np.testing.assert_array_equal(N(two[1]), 6.0)
    assert do("is_available", x)
    seen = []

    def probe(a):
        seen.append(do("is_available", a))
        return a

    torch.vmap(probe)(torch.ones(2, 3))
    torch.func.grad(lambda a: probe(a).sum())(torch.ones(2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.jit.trace(probe, (torch.ones(2),), check_trace=False)
    assert seen == [False, False, False]


def test_block_until_ready_returns_values():
    v = (T([1.0]), [T([2.0])])
    assert do("block_until_ready", v, like="torch") is v


# ---------------------------------------------------------------- random


def test_random_list_names_reproducible():
    do("seed", 5, like="torch")
    a = do("random_permutations", 3, 6, like="torch")
    u = do("random_uniform", (2, 3), 0, 4, "int32", like="torch")
    do("seed", 5, like="torch")
    assert torch.equal(a, do("random_permutations", 3, 6, like="torch"))
    assert torch.equal(u, do("random_uniform", (2, 3), 0, 4, "int32", like="torch"))
    assert sorted(N(a[1]).tolist()) == list(range(6))
    assert a.dtype == torch.int64
    assert u.dtype == torch.int32
    assert int(u.max()) < 4
    subsets = do("random_subsets", 5, 3, 4, False, like="torch")
    assert tuple(subsets.shape) == (4, 3)
    assert all(len(set(r)) == 3 for r in N(subsets).tolist())


# ---------------------------------------------------------------- devices, interop, modules


def test_devices():
    cpus = do("list_devices", "CPU", like="torch")
    assert len(cpus) == 1
    assert cpus[0].device_type == "CPU"
    assert cpus[0].backend == "torch"
    x = T([1.0])
    assert do("get_device", x) == cpus[0]
    assert do("get_default_device", like="torch") == cpus[0]
    assert do("set_default_device", "CPU", like="torch")
    assert do("set_default_device", cpus[0], like="torch")
    assert do("get_device_by_ref", torch.device("cpu"), like="torch") == cpus[0]
    assert do("allocate_on_device", x, cpus[0]).device.type == "cpu"
    if not CUDA:
        assert do("list_devices", "GPU", like="torch") == []
        with pytest.warns(RuntimeWarning):
            assert not do("set_default_device", "GPU", like="torch")
        assert do("get_peak_memory", like="torch") == 0
        assert do("get_peak_memory", cpus[0], like="torch") == 0
    do("reset_peak_memory", like="torch")
    assert torch.get_default_device().type == "cpu"


def test_dlpack_round_trip_and_external_arrays():
    x = T([1.0, 2.0])
    y = do("from_dlpack", do("to_dlpack", x), like="torch")  # a capsule names no library
    assert torch.equal(x, y)
    z = do("from_external_array_dlpack", np.array([3.0, 4.0]), like="torch")
    assert isinstance(z, torch.Tensor)
    np.testing.assert_array_equal(N(z), [3.0, 4.0])


def test_variable_module_and_identity():
    v = do("variable", np.array([1, 2]), like="torch")
    assert isinstance(v, torch.nn.Parameter)
    assert v.is_floating_point()
    assert v.requires_grad
    m = do("module", {"w": v}, lambda x: x * v, like="torch")
    # a Module subclass defined outside torch names no library: like= decides
    assert do("is_module", m, like="torch")
    assert not do("is_module", v)
    assert next(iter(m.parameters())) is v
    np.testing.assert_array_equal(N(m(T([2.0, 2.0]))), [2.0, 4.0])
    assert do("is_tensor", v, like="torch")
    assert do("is_tensor", 3.0, like="torch")
    assert not do("is_tensor", 3.0, True, like="torch")
    assert do("prefers_channels_last", like="torch") is False
    assert do("requires_fixed_shapes_when_tracing", like="torch") is False
