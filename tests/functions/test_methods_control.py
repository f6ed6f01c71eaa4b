"""Control-flow and calling methods of the backend method list on every backend:
while_loop (with max_iter checkpoints), vectorized_call, numpy_call, call,
block_until_ready, stop_gradient_tree, jit_compile (numpy's pass-through)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close, to_backend, to_np

from dispatch import UnsupportedError, do, infer_backend


def collatz_step(go, x, n):
    """One step for every entry still going; stops entries that reached 1."""
    nxt = do("where", do("equal", do("mod", x, 2), 0), x // 2, 3 * x + 1)
    x = do("where", go, nxt, x)
    n = n + do("astype", go, "int64")
    return x != 1, x, n


X0 = np.array([6, 7, 1, 27])
STEPS = np.array([8, 16, 0, 111])


def start(backend):
    x = to_backend(X0, backend)
    return (x != 1, x, to_backend(np.zeros(4, "int64"), backend))


def test_while_loop_runs_to_the_end(backend):
    go, x, n = do("while_loop", collatz_step, start(backend))
    assert infer_backend(x) == backend
    assert_close(to_np(n), STEPS)
    assert_close(to_np(x), np.ones(4, "int64"))
    assert not to_np(go).any()


def test_while_loop_max_iter(backend):
    _, _, n = do("while_loop", collatz_step, start(backend), 10)
    assert_close(to_np(n), np.minimum(STEPS, 10))


def test_while_loop_checkpoints(backend):
    go, x, n = do("while_loop", collatz_step, start(backend), [0, 5, 20, 200, 300])
    n = to_np(n)
    assert n.shape == (5, 4)
    ref = np.minimum(STEPS[None], np.array([0, 5, 20, 200, 300])[:, None])
    assert_close(n, ref)
    assert to_np(x).shape == (5, 4)
    assert to_np(go).shape == (5, 4)


def test_while_loop_not_started(backend):
    x = to_backend(np.arange(3.0), backend)
    go = to_backend(np.zeros(3, bool), backend)
    out = do("while_loop", lambda g, v: (g, v + 1), (go, x), 5)
    assert_close(to_np(out[1]), np.arange(3.0))


def test_vectorized_call_broadcasts_batch(backend):
    a = np.arange(12.0).reshape(3, 4)
    b = np.ones((1, 4))
    out = do("vectorized_call", lambda u, v: do("sum", u * v), *to_backend((a, b), backend))
    assert_close(to_np(out), a.sum(-1))


def test_vectorized_call_several_outputs_and_aux(backend):
    a = np.arange(6.0).reshape(3, 2)
    out = do("vectorized_call", lambda u, scale: (u * scale, do("sum", u)),
             to_backend(a, backend), scale=2.0)
    assert isinstance(out, tuple)
    assert_close(to_np(out[0]), 2 * a)
    assert_close(to_np(out[1]), a.sum(-1))


def test_vectorized_call_output_dtypes(backend):
    a = np.arange(6.0).reshape(3, 2)
    out = do("vectorized_call", lambda u: do("sum", u), to_backend(a, backend),
             output_dtypes="float32")
    assert do("dtype_of", out) == np.dtype("float32")


def test_numpy_call(backend):
    x = to_backend(np.array([3.0, 1.0, 2.0]), backend)
    out = do("numpy_call", np.sort, (3,), "float64", x)
    assert infer_backend(out) == backend
    assert_close(to_np(out), np.array([1.0, 2.0, 3.0]))


def test_numpy_call_several_outputs(backend):
    x = to_backend(np.array([3.0, 1.0, 2.0]), backend)

    def f(v, offset):
        assert isinstance(v, np.ndarray)
        return v + offset, np.argsort(v)

    s, i = do("numpy_call", f, ((3,), (3,)), ("float32", "int64"), x, offset=1.0)
    assert_close(to_np(s), np.array([4.0, 2.0, 3.0], "float32"))
    assert_close(to_np(i), np.array([1, 2, 0]))


def test_call_and_block_until_ready(backend):
    x = to_backend(np.arange(3.0), backend)
    out = do("call", lambda a, b: a + b, x, x)
    assert_close(to_np(out), 2 * np.arange(3.0))
    tree = {"a": out, "b": [x, 2]}
    assert do("block_until_ready", tree) is tree


def test_stop_gradient_tree(backend):
    tree = to_backend((np.ones(2), {"k": [np.arange(3)]}), backend)
    out = do("stop_gradient_tree", tree)
    assert isinstance(out, tuple)
    assert isinstance(out[1]["k"], list)
    assert_close(to_np(out[1]["k"][0]), np.arange(3))


def test_jit_compile_numpy_is_pass_through():
    def f(x):
        return x * 2

    assert do("jit_compile", f, like="numpy") is f


@pytest.mark.parametrize("name", ["jacobian", "hessian", "custom_gradient", "jit_compile_grad"])
def test_numpy_has_no_autodiff(name):
    with pytest.raises(UnsupportedError, match="automatic differentiation"):
        do(name, lambda x: x, like="numpy")


@pytest.mark.parametrize("like", ["dask", "sparse", "numpy"])
def test_gradient_of_a_function_without_autodiff_says_so(like):
    """The keywords of the function gradient (wrt=, get_output=) reach the array
    gradient on libraries without autodiff: the refusal must still be the clear one."""
    pytest.importorskip(like)
    with pytest.raises(UnsupportedError, match="automatic differentiation"):
        do("gradient", lambda x: x, like=like, wrt=(0,))
    with pytest.raises(UnsupportedError, match="automatic differentiation"):
        do("gradient", lambda x: x, like=like, wrt=0, get_output=True)


def test_gradient_of_an_array_refuses_function_keywords():
    dask = pytest.importorskip("dask.array")
    with pytest.raises(TypeError, match=r"'wrt'.*gradient of a function"):
        do("gradient", dask.ones(3), wrt=0)
