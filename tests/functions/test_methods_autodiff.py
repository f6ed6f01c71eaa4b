"""The backend method list's derivatives (``gradient`` of a function, ``jacobian``,
``hessian``, ``custom_gradient``, ``jit_compile_grad``) and jax's ``vjp`` and ``jvp``
on every library with automatic differentiation, autograd included, each compared
with the analytic derivative computed with numpy.

autograd is not a ``backend`` of the generic tests (outside a trace its arrays are
numpy's), so the libraries are listed here: autograd's inputs are numpy arrays, and
``like="autograd"`` names the library that differentiates. The libraries' own quirks
(traced graphs, variables, nested transforms) are in ``tests/translations``.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from conftest import to_np

from dispatch import do

rng = np.random.default_rng(41)
X = rng.standard_normal(3)
Y = rng.standard_normal(3)
A = rng.standard_normal((3, 2))  # a batch of three entries
B = rng.standard_normal((3, 4))


def _importable(lib: str) -> bool:
    try:
        importlib.import_module({"mlx": "mlx.core"}.get(lib, lib))
    except ImportError:
        return False
    return True


LIBRARIES = [lib for lib in ("torch", "jax", "tensorflow", "mlx", "paddle", "autograd")
             if _importable(lib)]
# mlx's float64 sin and cos are accurate to float32 level (docs/vocabulary.md, "mlx")
RTOL = {"mlx": 1e-6}


def arr(x: np.ndarray, lib: str):
    """``x`` as the library's input (autograd takes numpy arrays as they are)."""
    return np.array(x) if lib == "autograd" else do("asarray", np.array(x), like=lib)


def close(actual, expected, lib: str) -> None:
    rtol = RTOL.get(lib, 1e-12)
    np.testing.assert_allclose(to_np(actual), expected, rtol=rtol, atol=rtol)


def f_two(x, y):
    """A scalar with an auxiliary output."""
    return do("sum", do("sin", x) * y**2), x * 2.0


@pytest.mark.parametrize("lib", LIBRARIES)
def test_jacobian_of_a_scalar_with_an_auxiliary_output(lib):
    jac = do("jacobian", f_two, wrt=(0, 1), get_output=True, like=lib)
    (value, twice), (gx, gy) = jac(arr(X, lib), arr(Y, lib))
    close(value, np.sum(np.sin(X) * Y**2), lib)
    close(twice, 2 * X, lib)
    close(gx, np.cos(X) * Y**2, lib)
    close(gy, 2 * np.sin(X) * Y, lib)
    only = do("jacobian", f_two, wrt=1, get_output=False, like=lib)(arr(X, lib), arr(Y, lib))
    close(only, 2 * np.sin(X) * Y, lib)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_jacobian_of_a_vector_function(lib):
    jac = do("jacobian", lambda a: a[:2] * a[1:] ** 2, wrt=0, get_output=False, like=lib)
    expected = np.zeros((2, 3))
    for i in range(2):
        expected[i, i] = X[i + 1] ** 2
        expected[i, i + 1] = 2 * X[i] * X[i + 1]
    close(jac(arr(X, lib)), expected, lib)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_gradient_of_a_function_and_of_integers(lib):
    (g,) = do("gradient", lambda a: do("sum", a**3), like=lib)(arr(X, lib))
    close(g, 3 * X**2, lib)
    value, g = do("gradient", lambda a: do("sum", a * a), wrt=0, get_output=True,
                  like=lib)(arr(np.array([1, 2]), lib))
    assert to_np(g).dtype.kind == "f", "integers are differentiated as floats"
    close(g, [2.0, 4.0], lib)
    close(value, 5.0, lib)


def loss(a, b):
    return (do("sum", do("sin", a), axis=-1) * do("sum", b**2, axis=-1)
            + do("sum", a, axis=-1) ** 3)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_hessian_per_batch_entry(lib):
    out, (gx, gy), ((hxx, hxy), (hyx, hyy)) = do("hessian", loss, wrt=(0, 1), like=lib)(
        arr(A, lib), arr(B, lib))
    sa, sb, total = np.sin(A).sum(-1), (B**2).sum(-1), A.sum(-1)
    close(out, sa * sb + total**3, lib)
    close(gx, np.cos(A) * sb[:, None] + 3 * total[:, None] ** 2, lib)
    close(gy, 2 * sa[:, None] * B, lib)
    close(hxx, (-np.sin(A) * sb[:, None])[:, :, None] * np.eye(2)
          + 6 * total[:, None, None], lib)
    close(hxy, 2 * np.cos(A)[:, :, None] * B[:, None, :], lib)
    close(hyx, 2 * B[:, :, None] * np.cos(A)[:, None, :], lib)
    close(hyy, 2 * sa[:, None, None] * np.eye(4), lib)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_custom_gradient_replaces_the_derivative(lib):
    f = do("custom_gradient", lambda u: u * 3.0, lambda x, y, dy: dy * 7.0, like=lib)
    close(f(arr(X, lib)), 3 * X, lib)
    (g,) = do("gradient", lambda u: do("sum", f(u)), like=lib)(arr(X, lib))
    close(g, np.full(3, 7.0), lib)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_vjp_and_jvp(lib):
    out, vjp_fn = do("vjp", lambda x, y: do("sin", x) * y, arr(X, lib), arr(Y, lib), like=lib)
    close(out, np.sin(X) * Y, lib)
    gx, gy = vjp_fn(arr(np.ones(3) * 0.5, lib))
    close(gx, np.cos(X) * Y * 0.5, lib)
    close(gy, np.sin(X) * 0.5, lib)
    out, tangent = do("jvp", lambda x: do("sin", x) * 2.0, (arr(X, lib),), (arr(Y, lib),),
                      like=lib)
    close(out, 2 * np.sin(X), lib)
    close(tangent, 2 * np.cos(X) * Y, lib)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_jit_compile_grad(lib):
    grad = do("jit_compile_grad", lambda u: do("sum", do("sin", u)), wrt=0, get_output=False,
              like=lib)
    # torch's jit_compile runs a signature's first call eagerly and traces the second;
    # paddle's too, but its translation of paddle.grad takes some 20 s: its first call
    # only (tests/functions/test_backend_jit.py compiles on paddle)
    for _ in range(1 if lib == "paddle" else 2):
        close(grad(arr(X, lib)), np.cos(X), lib)
