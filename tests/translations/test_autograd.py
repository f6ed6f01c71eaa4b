"""autograd's table: boxes are autograd's arrays, gradients flow through ``do``."""

from __future__ import annotations

import subprocess
import sys
import types

import numpy as np
import pytest

import dispatch
from dispatch import do, infer_backend

autograd = pytest.importorskip("autograd")
from autograd.core import VJPNode  # noqa: E402
from autograd.tracer import getval, new_box  # noqa: E402

A = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 4.0]])


def box(x):
    """An ArrayBox at the root of a trace, as ``autograd.grad`` makes its argument."""
    return new_box(np.asarray(x), 0, VJPNode.new_root())


def test_gradients_flow_through_do():
    x = np.arange(3.0)
    g = autograd.grad(lambda v: do("sum", do("sin", v)))(x)
    np.testing.assert_allclose(g, np.cos(x))
    # numpy constants mixed in are constants of autograd's computation
    g = autograd.grad(lambda v: do("sum", do("multiply", v, np.array([1.0, 2.0, 3.0]))))(x)
    np.testing.assert_allclose(g, [1.0, 2.0, 3.0])


UNARY = "sin cos exp log sqrt abs tanh conj real sum mean std var max min cumsum trace".split()
UNARY += "transpose ravel diag triu tril flip linalg.inv linalg.det linalg.norm".split()
UNARY += "linalg.cholesky linalg.pinv fft.fft scipy.special.erf scipy.special.logsumexp".split()


@pytest.mark.parametrize("name", UNARY)
def test_a_box_stays_a_box_with_numpys_values(name):
    out = do(name, box(A))
    assert type(out).__name__ == "ArrayBox"
    assert infer_backend(out) == "autograd"
    reference = dispatch.get_lib_fn("numpy", name)(A)
    np.testing.assert_allclose(getval(out), reference, rtol=1e-12)


@pytest.mark.parametrize("name", "add subtract multiply divide matmul dot maximum kron".split())
def test_binary_names_on_boxes_and_constants(name):
    for args in [(box(A), box(A)), (box(A), A), (A, box(A))]:
        out = do(name, *args)
        assert infer_backend(out) == "autograd"
        np.testing.assert_allclose(getval(out), getattr(np, name)(A, A))


def test_names_autograd_has_no_derivative_for_go_through_indexing():
    idx = [2, 0]
    for name, args, ref in [
        ("flip", (box(A),), np.flip(A)),
        ("flip", (box(A), 1), np.flip(A, 1)),
        ("take", (box(A), idx, 1), np.take(A, idx, 1)),
        ("take", (box(A), [-1, 7], None, None, "wrap"), np.take(A, [-1, 7], mode="wrap")),
        ("copy", (box(A),), A),
    ]:
        out = do(name, *args)
        assert infer_backend(out) == "autograd"
        np.testing.assert_array_equal(getval(out), ref)
    g = autograd.grad(lambda v: do("sum", do("take", v, [0, 0, 2])))(np.arange(3.0))
    np.testing.assert_array_equal(g, [2.0, 0.0, 1.0])


def test_helpers_on_boxes():
    b = box(A.astype("float32"))
    assert dispatch.get_dtype_name(b) == "float32"
    assert dispatch.shape(b) == (3, 3)
    out = dispatch.to_numpy(b)
    assert type(out) is np.ndarray
    assert dispatch.astype(b, "float64").dtype == np.float64
    assert dispatch.to_backend_dtype("float64", like="autograd") is np.dtype("float64")
    assert dispatch.to_device(b, "cpu") is b
    assert type(do("stop_gradient", b)) is np.ndarray


def test_the_methods_derivatives():
    x = np.array([1.0, 2.0])
    jac = do("jacobian", lambda v: v**2, wrt=0, get_output=False, like="autograd")
    np.testing.assert_allclose(jac(x), np.diag(2 * x))
    (g,) = do("gradient", lambda v: do("sum", v**3), like="autograd")(x)
    np.testing.assert_allclose(g, 3 * x**2)
    h = do("hessian", lambda u, v: (u**2 * v).sum(-1), wrt=(0, 1), like="autograd")
    loss, grads, hess = h(np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]]))
    np.testing.assert_allclose(loss, [19.0])
    np.testing.assert_allclose(grads[0], [[6.0, 16.0]])
    np.testing.assert_allclose(hess[0][1], [[[2.0, 0.0], [0.0, 4.0]]])


def test_two_libraries_in_one_call_are_refused():
    torch = pytest.importorskip("torch")
    with pytest.raises(dispatch.MixedBackendError, match="autograd"):
        do("add", box(np.ones(2)), torch.ones(2))


def test_an_ndarray_subclass_wrapping_a_box():
    """pennylane's ``numpy.tensor``: an ndarray subclass of another library; inside
    ``autograd.grad`` the box wraps one."""
    mod = types.ModuleType("tensorlib_ag")

    class Tensor(np.ndarray):
        pass

    Tensor.__module__ = "tensorlib_ag"
    mod.Tensor = Tensor
    # as pennylane does: autograd boxes and differentiates the subclass
    from autograd.extend import VSpace
    from autograd.numpy.numpy_boxes import ArrayBox
    from autograd.numpy.numpy_vspaces import ArrayVSpace

    ArrayBox.register(Tensor)
    VSpace.register(Tensor, ArrayVSpace)
    sys.modules["tensorlib_ag"] = mod
    try:
        t = np.arange(3.0).view(Tensor)
        assert infer_backend(t) == "numpy"
        assert isinstance(do("sin", t), np.ndarray)
        np.testing.assert_allclose(dispatch.to_numpy(t), np.arange(3.0))

        def f(v):
            assert infer_backend(v) == "autograd"
            np.testing.assert_allclose(dispatch.to_numpy(v), np.arange(3.0))
            return do("sum", do("exp", v))

        np.testing.assert_allclose(autograd.grad(f)(t), np.exp(np.arange(3.0)))
    finally:
        del sys.modules["tensorlib_ag"]


@pytest.mark.parametrize("first", ["autograd", "dispatch"])
def test_boxes_are_autograds_whichever_module_is_imported_first(first):
    code = (
        f"import {first}\n"
        "import autograd, numpy as np\n"
        "from dispatch import do, infer_backend\n"
        "def f(x):\n"
        "    assert infer_backend(x) == 'autograd'\n"
        "    y = do('conj', x) * do('sum', x)\n"
        "    return do('real', do('sum', y))\n"
        "print(float(autograd.grad(f)(np.arange(3.0))[1]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert float(done.stdout) == 6.0  # d/dx1 of (x0+x1+x2)**2: 2 * 3
