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


# ---------------------------------------------------------------- derivatives

# The names whose autograd primitive has no derivative (or takes fewer arguments than
# numpy's) are written in translations/autograd/ from operations autograd differentiates;
# each derivative is checked here against finite differences (autograd's check_grads).
# The values are checked against numpy by the smoke walk and the property tests.
rng = np.random.default_rng(7)
M = rng.standard_normal((4, 4))
SPD = M @ M.T + 4 * np.eye(4)
V = rng.standard_normal(6)
P = rng.uniform(0.5, 2.0, 6)
TALL = rng.standard_normal((5, 3))
RHS = rng.standard_normal((5, 2))
IDX = np.array([0, 2, 2, 1, 0, 3])


def _flat(parts):
    import autograd.numpy as anp

    return anp.concatenate([anp.ravel(p) for p in parts])


def _seeded(name, *args, **kwargs):
    do("random.seed", 3, like="autograd")
    return do(name, *args, **kwargs)


GRADIENTS = {
    "cbrt": (lambda x: do("cbrt", x), V),
    "copysign": (lambda x: do("copysign", x, -V), V),
    "float_power": (lambda x: do("float_power", x, 1.5), P),
    "fmod": (lambda x: do("fmod", x, 0.7), V),
    "fmod|divisor": (lambda y: do("fmod", 3 * V, y), P),
    "heaviside|x2": (lambda y: do("heaviside", np.array([0.0, 1.0, -1.0, 0.0, 2.0, 0.0]), y), V),
    "ldexp": (lambda x: do("ldexp", x, np.array([1, -2, 3, 0, 1, 2])), V),
    "nextafter": (lambda x: do("nextafter", x, np.inf), V),
    "positive": (lambda x: do("positive", x), V),
    "nan_to_num": (lambda x: do("nan_to_num", x, nan=2.0, posinf=1.0), V),
    "cumsum|dtype": (lambda x: do("cumsum", x, dtype="float64"), V),
    "clip": (lambda x: do("clip", x, -0.5, 0.5), V),
    "clip|bound": (lambda lo: do("clip", V, lo, 1.0), P - 1.0),
    "cumprod": (lambda x: do("cumprod", x, axis=1), M),
    "nansum": (lambda x: do("nansum", x, axis=0), M),
    "nanmean": (lambda x: do("nanmean", x, axis=1), M),
    "ptp": (lambda x: do("ptp", x, axis=1), M),
    "median": (lambda x: do("median", x, axis=0), M),
    "vdot": (lambda x: do("vdot", x, V), V),
    "cov": (lambda x: do("cov", x), M),
    "cov|aweights": (lambda w: do("cov", M, aweights=w), P[:4]),
    "corrcoef": (lambda x: do("corrcoef", x), M),
    "bincount|weights": (lambda w: do("bincount", IDX, w), V),
    "sort|axis 0": (lambda x: do("sort", x, axis=0), M),
    "take_along_axis": (lambda x: do("take_along_axis", x, np.argsort(M, 0), 0), M),
    "select": (lambda x: do("select", [M > 0.5, M < -0.5], [x, 2 * x], 0.0), M),
    "unique": (lambda x: do("unique", x), M),
    "split": (lambda x: _flat(do("split", x, 2, axis=1)), M),
    "broadcast_to": (lambda x: do("broadcast_to", x, (3, 6)), V),
    "broadcast_arrays": (lambda x: _flat(do("broadcast_arrays", x, M[:, :1])), M[0]),
    "meshgrid": (lambda x: _flat(do("meshgrid", x, V[:3])), V[:4]),
    "dstack": (lambda x: do("dstack", [x, 2 * x]), M),
    "diagflat": (lambda x: do("diagflat", x, 1), V[:3]),
    "concatenate|axis None": (lambda x: do("concatenate", [x, M], axis=None), M),
    "rot90": (lambda x: do("rot90", x, 3, axes=(1, 0)), M),
    "diagonal": (lambda x: do("diagonal", x, 1), M),
    "diagonal|axes": (lambda x: do("diagonal", x, -1, 2, 0), rng.standard_normal((3, 2, 4))),
    "diag|wide": (lambda x: do("diag", x, -1), M[:3]),
    "diag|vector": (lambda x: do("diag", x, 2), V[:3]),
    "where|broadcast": (lambda x: do("where", M > 0, x, 2.0 * M), V[:4]),
    "copysign|broadcast": (lambda x: do("copysign", x, M), V[:4]),
    "trace|axes": (lambda x: do("trace", x, 0, 1, 2), rng.standard_normal((2, 3, 3))),
    "pad|reflect": (lambda x: do("pad", x, ((1, 2), (2, 1)), mode="reflect"), M),
    "pad|constant": (lambda c: do("pad", M, 1, constant_values=c), 0.5),
    "linalg.eigvals": (lambda x: do("real", do("linalg.eigvals", x + x.T)), M),
    "linalg.eigvalsh": (lambda x: do("linalg.eigvalsh", x + x.T), M),
    "linalg.lstsq": (lambda x: do("linalg.lstsq", x, RHS, rcond=None)[0], TALL),
    "linalg.lstsq|b": (lambda b: do("linalg.lstsq", TALL, b, rcond=None)[0], RHS),
    "linalg.matrix_power": (lambda x: do("linalg.matrix_power", x, 5), M / 2),
    "linalg.matrix_power|negative": (lambda x: do("linalg.matrix_power", x, -2), SPD),
    "linalg.multi_dot": (lambda x: do("linalg.multi_dot", [x, M, x]), M),
    "linalg.qr": (lambda x: _flat(do("linalg.qr", x)), TALL),
    "linalg.qr|wide": (lambda x: _flat(do("linalg.qr", x)), TALL.T),
    "linalg.qr|r": (lambda x: do("linalg.qr", x, mode="r"), TALL),
    "linalg.norm|1": (lambda x: do("linalg.norm", x, 1), V),
    "linalg.norm|inf": (lambda x: do("linalg.norm", x, np.inf), V),
    "linalg.norm|3": (lambda x: do("linalg.norm", x, 3), V),
    "linalg.norm|matrix 1": (lambda x: do("linalg.norm", x, 1), M),
    "linalg.norm|matrix -inf": (lambda x: do("linalg.norm", x, -np.inf), M),
    "linalg.norm|nuc": (lambda x: do("linalg.norm", x, "nuc"), M),
    "scipy.linalg.lu": (lambda x: _flat(do("scipy.linalg.lu", x)[1:]), M),
    "scipy.linalg.lu|permute_l": (lambda x: _flat(do("scipy.linalg.lu", x, permute_l=True)), M),
    "scipy.linalg.lu_factor": (lambda x: do("scipy.linalg.lu_factor", x)[0], M),
    "scipy.linalg.cho_factor": (
        lambda x: do("triu", do("scipy.linalg.cho_factor", x @ x.T + np.eye(4))[0]), M),
    "scipy.linalg.cho_solve": (
        lambda b: do("scipy.linalg.cho_solve", (np.linalg.cholesky(SPD), True), b), RHS[:4]),
    "scipy.linalg.cho_solve|c": (
        lambda c: do("scipy.linalg.cho_solve", (c, True), RHS[:4]), np.linalg.cholesky(SPD)),
    "scipy.linalg.expm": (lambda x: do("scipy.linalg.expm", x), M / 4),
    "scipy.linalg.expm|squared": (lambda x: do("scipy.linalg.expm", x), 4 * M),
    "scipy.special.softmax": (lambda x: do("scipy.special.softmax", x, axis=1), M),
    "scipy.special.log_softmax": (lambda x: do("scipy.special.log_softmax", x), V),
    "scipy.special.xlogy": (lambda y: do("scipy.special.xlogy", V, y), P),
    "scipy.special.gammainc|x": (lambda x: do("scipy.special.gammainc", P, x), P),
    "scipy.special.zeta|q": (lambda q: do("scipy.special.zeta", 3.0, q), P),
    "scipy.special.k0": (lambda x: do("scipy.special.k0", x), P),
    "scipy.special.k1": (lambda x: do("scipy.special.k1", x), P),
    "scipy.special.k0e": (lambda x: do("scipy.special.k0e", x), P),
    "scipy.special.k1e": (lambda x: do("scipy.special.k1e", x), P),
    "scipy.special.i0e": (lambda x: do("scipy.special.i0e", x), V),
    "scipy.special.i1e": (lambda x: do("scipy.special.i1e", x), V),
    "scipy.special.i1e|zero": (lambda x: do("scipy.special.i1e", x), np.array([0.0, -1.5])),
    "scipy.special.ndtri": (lambda x: do("scipy.special.ndtri", x), P / 2.5),
    "linalg.expm": (lambda x: do("linalg.expm", x), M / 4),
    "linalg.lu": (lambda x: _flat(do("linalg.lu", x)[1:]), M),
    "linalg.householder_product": (
        lambda h: do("linalg.householder_product", h, np.array([1.2, 0.7, 1.5])), TALL),
    "linalg.householder_product|tau": (
        lambda t: do("linalg.householder_product", TALL, t), np.array([1.2, 0.7, 1.5])),
    "fft.rfft|odd": (lambda x: do("fft.rfft", x[:5]), V),
    "fft.irfft|odd": (lambda c: do("fft.irfft", c, 5), V[:3] + 1j * V[3:]),
    "fft.hfft|odd": (lambda c: do("fft.hfft", c, 5, norm="ortho"), V[:3] + 1j * V[3:]),
    "fft.ihfft|odd": (lambda x: do("fft.ihfft", x[:5]), V),
    "fft.rfftn|odd": (lambda x: do("fft.rfftn", x[:, :3]), M),
    "fft.irfftn|odd": (lambda c: do("fft.irfftn", c, (4, 5), (0, 1)), M[:, :3] + 1j * M[:, 1:]),
    "random.permuted": (lambda x: _seeded("random.permuted", x, axis=1), M),
    "random.choice": (lambda x: _seeded("random.choice", x, 4), V),
}


@pytest.mark.parametrize("key", sorted(GRADIENTS))
def test_derivatives_of_the_written_names_match_finite_differences(key):
    from autograd.test_util import check_grads

    f, x = GRADIENTS[key]
    check_grads(f, modes=["rev"], order=1)(x)


@pytest.mark.parametrize(("call", "what"), [
    (lambda a: do("scipy.special.gammainc", a, P), "gammainc has no derivative with respect to a"),
    (lambda x: do("linalg.qr", x, mode="complete")[0], "columns of Q past"),
    (lambda x: do("linalg.qr", x, mode="raw")[0], "Householder reflectors"),
])
def test_what_has_no_derivative_raises_when_a_gradient_asks(call, what):
    """The value is numpy's; only a gradient that needs the missing derivative fails."""
    x = P if "gammainc" in what else TALL
    np.testing.assert_array_equal(getval(call(box(x))), call(x))
    with pytest.raises(NotImplementedError, match=what):
        autograd.grad(lambda v: do("sum", do("real", call(v))))(x)


def test_pad_modes_that_compute_new_values_are_refused_on_a_box():
    with pytest.raises(NotImplementedError, match="pad\\(mode='mean'\\)"):
        do("pad", box(M), 1, mode="mean")
    np.testing.assert_array_equal(do("pad", M, 1, mode="mean"), np.pad(M, 1, mode="mean"))


# ---------------------------------------------------------------- the method list's transforms


def _f(x, y):
    return do("sin", x) * y + x**2


def test_vjp_gives_one_cotangent_per_primal_with_the_derivatives_values():
    x, y = np.array([0.5, 1.0]), np.array([2.0, -1.0])
    out, vjp_fn = do("vjp", _f, x, y, like="autograd")
    np.testing.assert_allclose(out, np.sin(x) * y + x**2)
    ct = np.array([1.0, 3.0])
    dx, dy = vjp_fn(ct)
    np.testing.assert_allclose(dx, ct * (np.cos(x) * y + 2 * x))
    np.testing.assert_allclose(dy, ct * np.sin(x))
    out, vjp_fn, aux = do("vjp", lambda a, b: (_f(a, b), {"n": do("sum", a)}), x, y,
                          has_aux=True, like="autograd")
    assert float(aux["n"]) == 1.5
    assert not hasattr(aux["n"], "_value")  # the auxiliary output leaves the trace
    np.testing.assert_allclose(vjp_fn(ct)[1], ct * np.sin(x))


def test_vjp_of_integer_primals_differentiates_them_as_floats():
    out, vjp_fn = do("vjp", lambda a: a * 2.0, np.array([1, 2]), like="autograd")
    np.testing.assert_allclose(out, [2.0, 4.0])
    (g,) = vjp_fn(np.ones(2))
    np.testing.assert_allclose(g, [2.0, 2.0])


def test_jvp_is_the_derivative_along_the_tangents():
    x, y = np.array([0.5, 1.0]), np.array([2.0, -1.0])
    tx, ty = np.array([1.0, 0.0]), np.array([0.5, 2.0])
    out, tangent = do("jvp", _f, (x, y), (tx, ty), like="autograd")
    np.testing.assert_allclose(out, np.sin(x) * y + x**2)
    np.testing.assert_allclose(tangent, (np.cos(x) * y + 2 * x) * tx + np.sin(x) * ty)
    out, tangent, aux = do("jvp", lambda a: (do("exp", a), "aux"), (x,), (tx,), has_aux=True,
                           like="autograd")
    np.testing.assert_allclose(tangent, np.exp(x) * tx)
    assert aux == "aux"
    with pytest.raises(ValueError, match="1 primals but 2 tangents"):
        do("jvp", _f, (x,), (tx, ty), like="autograd")


def test_checkpoint_keeps_values_and_derivatives():
    def g(x):
        return do("sum", do("sin", x) * x)

    x = np.array([1.0, 2.0])
    f = do("checkpoint", g, like="autograd")
    assert float(f(x)) == pytest.approx(float(g(x)))
    np.testing.assert_allclose(autograd.grad(f)(x), autograd.grad(g)(x))


def test_custom_gradient_is_used_by_autograd_and_none_is_zero():
    f = do("custom_gradient", lambda a, b: a * b,
           lambda xs, y, dy: (10.0 * dy, None), like="autograd")
    a, b = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    np.testing.assert_allclose(f(a, b), a * b)  # the values are f's
    ga, gb = autograd.grad(lambda p, q: do("sum", f(p, q)), argnum=(0, 1))(a, b)
    np.testing.assert_allclose(ga, [10.0, 10.0])
    np.testing.assert_allclose(gb, [0.0, 0.0])
    bad = do("custom_gradient", lambda a, b: a * b, lambda xs, y, dy: dy, like="autograd")
    with pytest.raises(ValueError, match="1 gradients for 2 inputs"):
        autograd.grad(lambda p: do("sum", bad(p, b)))(a)


def test_variable_is_refused_with_the_reason():
    with pytest.raises(dispatch.UnsupportedError, match="autograd has no variables"):
        do("variable", np.ones(2), like="autograd")


def test_control_flow_inside_a_gradient():
    """The composed cond, switch, fori_loop and scan run on boxes: autograd records
    the branch taken and every step, so gradients flow through them."""
    x = np.array([0.5, -1.0, 2.0])

    def f(v):
        v = do("cond", do("sum", v) > 0, lambda u: u * 3.0, lambda u: -u, v)
        v = do("switch", 1, [lambda u: u, lambda u: do("sin", u)], v)
        v = do("fori_loop", 0, 2, lambda i, u: u * u, v)
        carry, ys = do("scan", lambda c, r: (c + r, c * r), do("zeros_like", v), v[None])
        return do("sum", carry) + do("sum", ys)

    # cond takes 3v (sum 1.5 > 0), switch sin, fori_loop squares twice: sin(3v)^4
    np.testing.assert_allclose(autograd.grad(f)(x),
                               12 * np.sin(3 * x) ** 3 * np.cos(3 * x), rtol=1e-12)


def test_the_method_lists_host_answers():
    f = np.sin
    assert do("jit_compile", f, like="autograd") is f  # no compiler: a pass-through
    (cpu,) = do("list_devices", like="autograd")
    assert cpu.device_type == "CPU"
    assert do("is_module", object(), like="autograd") is False
    assert do("prefers_channels_last", like="autograd") is False
    for name in ("variable", "module"):
        with pytest.raises(dispatch.UnsupportedError, match=f"'{name}' is not supported on "
                           "backend 'autograd': autograd has no"):
            do(name, np.ones(2), like="autograd")


def test_writing_into_a_box_is_refused_naming_the_keyword():
    x = box([[1.0, np.nan], [0.5, 2.0]])
    with pytest.raises(dispatch.UnsupportedError, match="copy="):
        do("nan_to_num", x, copy=False)
    buf = box(np.zeros((2, 2), complex))
    with pytest.raises(TypeError, match=r"fft.ifft2\(out=\.\.\.\)"):
        do("fft.ifft2", x, out=buf)
    np.testing.assert_array_equal(getval(buf), np.zeros((2, 2)))
