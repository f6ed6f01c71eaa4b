"""Lazy graphs under the libraries' own compilers, and autojit."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from dispatch import do, lazy

C = np.linspace(0.1, 1.0, 9).reshape(3, 3)


def model(x, w):
    # exp(C) and its sum depend on numpy constants only: folded at trace time
    scale = do("sum", do("exp", C), axis=0)
    h = do("tanh", do("matmul", x, w) * scale)
    return {"out": h + 1.0, "norm": do("sum", h * h)}


X = np.random.default_rng(0).random((2, 3))
W = np.random.default_rng(1).random((3, 3))


def _check(res, to_np):
    ref = model(X, W)
    np.testing.assert_allclose(to_np(res["out"]), ref["out"], rtol=1e-6)
    np.testing.assert_allclose(to_np(res["norm"]), ref["norm"], rtol=1e-6)


def _traced_source(f):
    (func,) = f.functions.values()
    return func.get_source()


def test_numpy_only_calls_run_eagerly():
    f = lazy.autojit(model)
    _check(f(X, W), np.asarray)
    assert not f.cache


def test_autojit_jax():
    jax = pytest.importorskip("jax")
    pytest.importorskip("dispatch.translations.jax")
    jnp = jax.numpy
    f = lazy.autojit(model)
    res = f(jnp.asarray(X), jnp.asarray(W))
    _check(res, np.asarray)
    assert isinstance(res["out"], jax.Array)
    src = _traced_source(f)
    assert "exp" not in src
    assert "matmul" in src
    f(jnp.asarray(X) + 1, jnp.asarray(W))
    assert len(f.cache) == 1  # same shapes and dtypes: no new trace
    f(jnp.asarray(X[:1]), jnp.asarray(W))
    assert len(f.cache) == 2


def test_autojit_torch_trace():
    torch = pytest.importorskip("torch")
    f = lazy.autojit(model, mode="trace")
    res = f(torch.as_tensor(X), torch.as_tensor(W))
    assert isinstance(res["out"], torch.Tensor)
    _check(res, lambda t: t.numpy())
    assert "exp" not in _traced_source(f)


def test_autojit_torch_compile():
    torch = pytest.importorskip("torch")
    # aot_eager: torch.compile's graph capture without inductor's C++ build
    f = lazy.autojit(model, mode="compile", torch_backend="aot_eager")
    _check(f(torch.as_tensor(X), torch.as_tensor(W)), lambda t: t.numpy())


def test_autojit_tensorflow():
    tf = pytest.importorskip("tensorflow")
    pytest.importorskip("dispatch.translations.tensorflow")
    f = lazy.autojit(model)
    res = f(tf.constant(X), tf.constant(W))
    assert isinstance(res["out"], tf.Tensor)
    _check(res, lambda t: t.numpy())
    assert "exp" not in _traced_source(f)


def test_numpy_arguments_are_constants_compared_by_value():
    torch = pytest.importorskip("torch")

    @lazy.autojit(mode="trace")
    def f(x, c):
        return x * do("sum", c)

    t = torch.ones(2, dtype=torch.float64)
    c = np.ones(3)
    np.testing.assert_allclose(f(t, c).numpy(), [3.0, 3.0])
    assert "sum" not in _traced_source(f)  # folded
    c2 = c.copy()
    c2[0] = 5.0
    np.testing.assert_allclose(f(t, c2).numpy(), [7.0, 7.0])  # new value: traced again
    assert len(f.cache) == 2
    np.testing.assert_allclose(f(t, c.copy()).numpy(), [3.0, 3.0])  # same value: cached
    assert len(f.cache) == 2


def test_function_jit_on_numpy_returns_the_function():
    x = lazy.Variable((2,))
    func = lazy.Function(x, do("exp", x))
    assert func.jit() is func


# ---------------------------------------------------------------- bound code (_bind)


def _torch_function():
    x = lazy.Variable((2, 3), backend="torch")
    w = lazy.Variable((3, 3), backend="torch")
    return lazy.Function([x, w], model(x, w))


def test_bound_code_calls_the_callables_do_takes():
    torch = pytest.importorskip("torch")
    from dispatch.lazy._bind import bind

    f = _torch_function()
    args = (torch.as_tensor(X), torch.as_tensor(W))
    bound = bind(f, args)
    sites = {k: v for k, v in bound.__globals__.items() if k.startswith("_s")}
    assert len(sites) == len(re.findall(r"\b[a-z_]+\(", f.get_source())) - 1  # not the def
    assert all(not isinstance(v, functools.partial) for v in sites.values())
    # the numpy constant (the folded scale) is converted once, not on every call
    assert [type(v) for k, v in bound.__globals__.items() if k.startswith("_c")] == [
        torch.Tensor]
    for got, ref in zip(bound(*args), f.flat(*args), strict=True):
        assert torch.equal(got, ref)


def test_bound_code_converts_numpy_operands_once():
    torch = pytest.importorskip("torch")
    from dispatch.lazy._bind import bind

    x = lazy.Variable((2, 3), backend="torch")
    mask = np.array([[True, False, True], [False, True, False]])
    f = lazy.Function(x, do("where", mask, do("sin", x), 0.0))
    t = torch.arange(6.0, dtype=torch.float64).reshape(2, 3)
    bound = bind(f, (t,))
    assert [type(v) for k, v in bound.__globals__.items() if k.startswith("_c")] == [
        torch.Tensor]
    assert torch.equal(bound(t), torch.where(torch.as_tensor(mask), torch.sin(t), 0.0))


def test_torch_compile_sees_one_graph_without_breaks():
    torch = pytest.importorskip("torch")
    from dispatch.lazy._bind import bind

    f = _torch_function()
    args = (torch.as_tensor(X), torch.as_tensor(W))
    explained = torch._dynamo.explain(bind(f, args))(*args)
    assert explained.graph_count == 1
    assert explained.graph_break_count == 0


def test_autojit_torch_compile_calls_again_without_recompiling():
    torch = pytest.importorskip("torch")
    f = lazy.autojit(model, mode="compile", torch_backend="eager")
    t, w = torch.as_tensor(X), torch.as_tensor(W)
    _check(f(t, w), lambda r: r.numpy())
    torch._dynamo.reset()
    counts = torch._dynamo.utils.counters
    counts.clear()
    f(t + 1, w)
    f(t + 2, w)
    assert counts["stats"]["unique_graphs"] <= 1  # compiled once (after the reset), not per call
