"""matrix_from_function: traced sparse matrices against dense Jacobians."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from dispatch import do, lazy

rng = np.random.default_rng(1)


def dense_jacobian(f, x, *args):
    """Columns f(e_j) - f(0): exact for an affine f."""
    x = np.asarray(x, dtype=float)
    f0 = np.asarray(f(np.zeros_like(x), *args), dtype=float)
    cols = []
    for j in range(x.size):
        e = np.zeros(x.size)
        e[j] = 1.0
        cols.append(np.asarray(f(e.reshape(x.shape), *args)).ravel() - f0.ravel())
    return np.stack(cols, axis=1), f0


def check(f, x, *args):
    m, b = lazy.matrix_from_function(f, x, *args)
    assert sp.issparse(m)
    j, f0 = dense_jacobian(f, x, *args)
    np.testing.assert_allclose(m.toarray(), j, atol=1e-12)
    np.testing.assert_allclose(b, f0, atol=1e-12)
    np.testing.assert_allclose((m @ np.ravel(x)).reshape(b.shape) + b, f(x, *args), atol=1e-12)
    return m, b


def lap1_zero(x):
    p = do("pad", x, 1)
    return p[:-2] - 2 * x + p[2:]


def lap1_periodic(x):
    return do("roll", x, 1) - 2 * x + do("roll", x, -1)


def lap2_zero(x):
    p = do("pad", x, 1)
    return p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * x


def lap2_periodic(x):
    return (do("roll", x, 1, axis=0) + do("roll", x, -1, axis=0) + do("roll", x, 1, axis=1)
            + do("roll", x, -1, axis=1) - 4 * x)


@pytest.mark.parametrize("f", [lap1_zero, lap1_periodic], ids=["zero", "periodic"])
def test_laplacian_1d(f):
    m, _ = check(f, rng.random(7))
    ref = sp.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(7, 7)).toarray()
    if f is lap1_periodic:
        ref[0, -1] = ref[-1, 0] = 1
    np.testing.assert_array_equal(m.toarray(), ref)


@pytest.mark.parametrize("f", [lap2_zero, lap2_periodic], ids=["zero", "periodic"])
def test_laplacian_2d(f):
    m, _ = check(f, rng.random((5, 4)))
    assert m.nnz == (5 * 4 * 5 if f is lap2_periodic else 5 * 4 * 5 - 2 * (5 + 4))


def test_laplacian_2d_matches_kron_construction():
    n = 16
    m, _ = lazy.matrix_from_function(lap2_zero, np.zeros((n, n)))
    d = sp.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(n, n))
    ref = sp.kron(d, sp.eye(n)) + sp.kron(sp.eye(n), d)
    assert abs(m - ref).max() == 0


def test_periodic_small_grid_sums_duplicate_entries():
    check(lap1_periodic, rng.random(2))  # roll by +1 and -1 hit the same column


def test_affine_offset_and_folded_numpy_constants():
    c = rng.random((3, 4))

    def f(x):
        w = do("exp", c) / do("sum", do("exp", c))  # constants only: folded while tracing
        return w * x + do("cos", c)

    m, b = check(f, rng.random((3, 4)))
    np.testing.assert_allclose(b, np.cos(c))
    np.testing.assert_allclose(m.diagonal(), (np.exp(c) / np.exp(c).sum()).ravel())


C34 = rng.random((3, 4))
MASK = rng.random((3, 4)) > 0.5
W42, W23, W2153, W422, W42B = (rng.random(s) for s in ((4, 2), (2, 3), (2, 1, 5, 3),
                                                       (4, 2, 2), (4, 2)))

OPS = {
    "scale-divide-negate": lambda x: -(x * 3.0) / 2 + x / np.arange(1.0, 5.0),
    "subtract-constants": lambda x: 1.0 - x - C34,
    "broadcast-add": lambda x: x[:, :1] + x[:1, :],
    "add-self": lambda x: x + x + 2 * x,
    "index-int-array": lambda x: x[np.array([2, 0, 0])],
    "index-bool-mask": lambda x: x[MASK],
    "index-mixed": lambda x: x[1:, [3, 0]][None, ..., ::-1],
    "reshape-transpose": lambda x: do("transpose", do("reshape", x, (2, 6))),
    "moveaxis-expand-squeeze": lambda x: do("squeeze", do("expand_dims", x, 0), 0).T,
    "concatenate": lambda x: do("concatenate", [x, C34, 2 * x], axis=1),
    "stack": lambda x: do("stack", [x, np.ones((3, 4))], axis=-1),
    "hstack-vstack": lambda x: do("vstack", [do("hstack", [x, x]), np.zeros((1, 8))]),
    "pad-constant": lambda x: do("pad", x, ((1, 0), (2, 1)), constant_values=7.0),
    "pad-edge": lambda x: do("pad", x, 2, mode="edge"),
    "pad-wrap": lambda x: do("pad", x, 1, mode="wrap"),
    "pad-reflect": lambda x: do("pad", x, 1, mode="reflect"),
    "roll-2d": lambda x: do("roll", x, (1, -2), axis=(0, 1)),
    "flip-tile-repeat": lambda x: do("repeat", do("tile", do("flip", x, 0), (1, 2)), 2, axis=0),
    "take": lambda x: do("take", x, np.array([3, 1]), axis=1),
    "tril-triu": lambda x: do("tril", x) + do("triu", x, 1),
    "diag": lambda x: do("diag", x[0, :3]) + do("diag", do("diag", x[:, :3])),
    "split": lambda x: do("split", x, 2, axis=1)[1],
    "sum": lambda x: do("sum", x, axis=0),
    "sum-all": lambda x: do("sum", x),
    "sum-keepdims": lambda x: do("sum", x, axis=1, keepdims=True) - x,
    "mean": lambda x: do("mean", x, axis=(0, 1)) + 1.0,
    "matmul-right": lambda x: do("matmul", x, W42),
    "matmul-left": lambda x: do("matmul", W23, x),
    "matmul-vector": lambda x: x @ np.arange(4.0),
    "matmul-batched": lambda x: do("matmul", W2153, x),
    "tensordot": lambda x: do("tensordot", C34, x, axes=([0, 1], [0, 1])),
    "tensordot-int": lambda x: do("tensordot", x, W422, axes=1),
    "einsum": lambda x: do("einsum", "ij,jk,i->ki", x, W42B, np.arange(3.0)),
    "einsum-trace": lambda x: do("einsum", "ii->", x[:, :3]),
    "dot": lambda x: do("dot", np.arange(3.0), x),
    "outer": lambda x: do("outer", x[0], np.arange(2.0)),
    "kron": lambda x: do("kron", np.eye(2), x),
    "trace": lambda x: do("trace", x) * 2,
    "where": lambda x: do("where", MASK, x, -x),
    "where-constant-branch": lambda x: do("where", MASK, 5.0, x),
    "astype": lambda x: do("astype", x, "float64"),
}


@pytest.mark.parametrize("name", list(OPS))
def test_linear_operations(name):
    check(OPS[name], rng.random((3, 4)))


@pytest.mark.parametrize(
    ("f", "match"),
    [
        (lambda x: do("sin", x), "'sin' is not a linear operation"),
        (lambda x: do("exp", x) + 1, "'exp' is not a linear operation"),
        (lambda x: x * x, "product of two traced arrays"),
        (lambda x: 1.0 / x, "dividing by a traced array"),
        (lambda x: x ** 2, "power"),
        (lambda x: do("where", x > 0, x, 0.0), "not"),
        (lambda x: do("linalg.norm", x), "'linalg.norm'"),
        (lambda x: do("cumsum", x), "not supported by the linear tracer"),
        (lambda x: np.asarray(x), "cannot be converted"),
    ],
)
def test_non_linear_operations_raise_naming_them(f, match):
    with pytest.raises(lazy.NonLinearError, match=match):
        lazy.matrix_from_function(f, np.zeros(4))


def test_constant_function():
    m, b = lazy.matrix_from_function(lambda x: np.arange(3.0), np.zeros(2))
    assert m.shape == (3, 2)
    assert m.nnz == 0
    np.testing.assert_allclose(b, np.arange(3.0))


def test_extra_arguments_are_constants():
    def f(x, a, scale=1.0):
        return a * x[:-1] * scale

    m, _ = lazy.matrix_from_function(f, np.zeros(3), np.array(2.0), scale=3.0)
    np.testing.assert_allclose(m.toarray(), [[6.0, 0, 0], [0, 6.0, 0]])


def test_torch_argument_gives_a_torch_sparse_matrix():
    torch = pytest.importorskip("torch")

    def f(x, a):
        return a * x[:-1]

    m, b = lazy.matrix_from_function(f, np.zeros(3), torch.tensor(2.0, dtype=torch.float64))
    assert isinstance(m, torch.Tensor)
    assert m.is_sparse
    np.testing.assert_allclose(m.to_dense().numpy(), [[2.0, 0, 0], [0, 2.0, 0]])
    assert isinstance(b, torch.Tensor)


def test_jax_argument_gives_a_bcoo_matrix():
    jnp = pytest.importorskip("jax.numpy")
    pytest.importorskip("dispatch.translations.jax")
    from jax.experimental import sparse as jsparse

    m, _b = lazy.matrix_from_function(lap1_zero, jnp.zeros(4))
    assert isinstance(m, jsparse.BCOO)
    j, _ = dense_jacobian(lap1_zero, np.zeros(4))
    np.testing.assert_allclose(np.asarray(m.todense()), j)


def test_tensorflow_argument_gives_a_sparse_tensor():
    tf = pytest.importorskip("tensorflow")
    pytest.importorskip("dispatch.translations.tensorflow")

    m, _ = lazy.matrix_from_function(lap1_periodic, tf.zeros(4, dtype=tf.float64))
    assert isinstance(m, tf.sparse.SparseTensor)
    j, _ = dense_jacobian(lap1_periodic, np.zeros(4))
    np.testing.assert_allclose(tf.sparse.to_dense(m).numpy(), j)


def test_large_stencil_is_fast_enough_to_use():
    m, _ = lazy.matrix_from_function(lap2_zero, np.zeros((256, 256)))
    assert m.shape == (256**2, 256**2)
    assert m.nnz == 5 * 256**2 - 4 * 256
