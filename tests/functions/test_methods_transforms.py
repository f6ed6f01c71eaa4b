"""jax.lax's control flow (cond, switch, fori_loop, scan, map, associative_scan) and
jax's transforms (grad, value_and_grad, vjp, jvp, checkpoint) on every backend.

Every result is compared with a numpy reference written here: a Python ``if`` or
loop for the control flow, an analytic derivative of a float64 function for the
transforms. Libraries without autodiff mark the transforms ``unsupported`` (strict
xfails through the ``name`` parameter); their ``checkpoint`` is a pass-through. Bad
input raises a typed error naming the function, with dispatch's note naming the
backend.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close, known_gap, to_backend, to_np

from dispatch import UnsupportedError, do, infer_backend

rng = np.random.default_rng(19)
X = rng.standard_normal(5)
M = rng.standard_normal((4, 3))
N = rng.standard_normal((4, 3))

CONTROL = ("cond", "switch", "fori_loop", "scan", "map", "associative_scan")
AUTODIFF = ("grad", "value_and_grad", "vjp", "jvp", "checkpoint")


def B(a, backend):
    return to_backend(np.asarray(a), backend)


# ---------------------------------------------------------------- control flow


@pytest.mark.parametrize("pred", [True, False])
@pytest.mark.parametrize("as_array", [True, False])
def test_cond(backend, pred, as_array):
    x, y = to_backend((M, N), backend)
    p = B(pred, backend) if as_array else pred
    out = do("cond", p, lambda u, v: u * v + 1.0, lambda u, v: u - v, x, y)
    assert infer_backend(out) == backend
    assert_close(to_np(out), M * N + 1.0 if pred else M - N)


def test_cond_tree_operands_and_outputs(backend):
    x = to_backend(M, backend)
    out = do("cond", B(np.sum(M) > 100, backend), lambda d: (d["a"], [d["a"] * 2]),
             lambda d: (d["a"] * 3, [d["a"] - 1]), {"a": x})
    assert isinstance(out, tuple)
    assert isinstance(out[1], list)
    assert_close(to_np(out[0]), 3 * M)
    assert_close(to_np(out[1][0]), M - 1)


BRANCHES = [lambda u: u + 1.0, lambda u: u * 2.0, lambda u: -u]


@pytest.mark.parametrize("index", [-3, 0, 1, 2, 7])
@pytest.mark.parametrize("as_array", [True, False])
def test_switch_clamps_like_jax(backend, index, as_array):
    x = to_backend(M, backend)
    i = B(np.int64(index), backend) if as_array else index
    out = do("switch", i, BRANCHES, x)
    expected = BRANCHES[min(max(index, 0), 2)](M)
    assert_close(to_np(out), expected)


def test_fori_loop(backend):
    x = to_backend(X, backend)
    out = do("fori_loop", 2, 6, lambda i, v: v * 0.5 + i, x)
    ref = X.copy()
    for i in range(2, 6):
        ref = ref * 0.5 + i
    assert infer_backend(out) == backend
    assert_close(to_np(out), ref)


def test_fori_loop_tree_carry_and_empty_range(backend):
    x, m = to_backend((X, M), backend)
    out = do("fori_loop", 0, 3, lambda i, c: {"s": c["s"] + c["m"][0, 0], "m": c["m"] * 2.0},
             {"s": x, "m": m})
    ref_s, ref_m = X.copy(), M.copy()
    for _ in range(3):
        ref_s, ref_m = ref_s + ref_m[0, 0], ref_m * 2.0
    assert_close(to_np(out["s"]), ref_s)
    assert_close(to_np(out["m"]), ref_m)
    same = do("fori_loop", 4, 4, lambda i, v: v + 1.0, x)
    assert_close(to_np(same), X)


def scan_reference(f, init, xs, reverse=False):
    carry, ys = init, [None] * len(xs)
    for i in (range(len(xs) - 1, -1, -1) if reverse else range(len(xs))):
        carry, ys[i] = f(carry, xs[i])
    return carry, np.stack(ys)


@pytest.mark.parametrize("reverse", [False, True])
def test_scan(backend, reverse):
    init, xs = to_backend((M[0], N), backend)

    def f(c, r):
        return c * 0.5 + r, do("sum", c * r)

    carry, ys = do("scan", f, init, xs, reverse=reverse)
    ref_c, ref_y = scan_reference(lambda c, r: (c * 0.5 + r, np.sum(c * r)), M[0], N, reverse)
    assert infer_backend(carry) == backend
    assert_close(to_np(carry), ref_c)
    assert_close(to_np(ys), ref_y)


def test_scan_trees_and_length(backend):
    init, xs = to_backend(((M[0], X[:1]), {"a": N, "b": M}), backend)

    def f(c, x):
        s, t = c
        return (s + x["a"], t * 2.0), {"p": s * x["b"], "q": [t]}

    (s, t), ys = do("scan", f, init, xs)
    ref_s, ref_t, ps, qs = M[0].copy(), X[:1].copy(), [], []
    for i in range(4):
        ps.append(ref_s * M[i])
        qs.append(ref_t)
        ref_s, ref_t = ref_s + N[i], ref_t * 2.0
    assert_close(to_np(s), ref_s)
    assert_close(to_np(t), ref_t)
    assert_close(to_np(ys["p"]), np.stack(ps))
    assert_close(to_np(ys["q"][0]), np.stack(qs))
    # no xs: length steps with x None
    c, ys = do("scan", lambda c, x: (c + 1.0, c * 2.0), to_backend(X, backend), None, length=3)
    assert_close(to_np(c), X + 3)
    assert_close(to_np(ys), np.stack([X * 2, (X + 1) * 2, (X + 2) * 2]))


def test_map(backend):
    out = do("map", lambda r: (do("sum", r * r), do("flip", r)), to_backend(M, backend))
    assert_close(to_np(out[0]), np.array([np.sum(r * r) for r in M]))
    assert_close(to_np(out[1]), M[:, ::-1])


def sequential_prefix(fn, elems, reverse=False):
    order = range(len(elems) - 1, -1, -1) if reverse else range(len(elems))
    out, acc = [None] * len(elems), None
    for i in order:
        acc = elems[i] if acc is None else fn(acc, elems[i])
        out[i] = acc
    return out


@pytest.mark.parametrize("reverse", [False, True])
def test_associative_scan_sum_and_axis(backend, reverse):
    x = to_backend(M, backend)
    out = do("associative_scan", lambda a, b: a + b, x, reverse=reverse, axis=1)
    ref = np.stack(sequential_prefix(np.add, list(M.T), reverse), axis=1)
    assert_close(to_np(out), ref)


def test_associative_scan_linear_recurrence(backend):
    """h[i] = a[i] * h[i-1] + b[i]: the affine maps compose associatively (a tree)."""
    a = np.abs(rng.standard_normal(11))
    b = rng.standard_normal(11)

    def compose(p, q):  # apply p, then q
        return (p[0] * q[0], p[1] * q[0] + q[1])

    out = do("associative_scan", compose, to_backend((a, b), backend))
    ref = sequential_prefix(compose, list(zip(a, b, strict=True)))
    assert_close(to_np(out[0]), np.array([r[0] for r in ref]))
    assert_close(to_np(out[1]), np.array([r[1] for r in ref]))


# ---------------------------------------------------------------- autodiff


def f_scalar(x):
    """sum(sin(x) * x), written with do: its gradient is sin(x) + x cos(x)."""
    return do("sum", do("sin", x) * x)


def df(x):
    return np.sin(x) + x * np.cos(x)


@pytest.mark.parametrize("name", ["grad"])
def test_grad(backend, name):
    x, y = to_backend((X, 2 * X), backend)
    g = do("grad", f_scalar, like=backend)(x)
    assert infer_backend(g) == backend
    assert_close(to_np(g), df(X))
    ga, gb = do("grad", lambda a, b: do("sum", a * b * b), argnums=(0, 1), like=backend)(x, y)
    assert_close(to_np(ga), (2 * X) ** 2)
    assert_close(to_np(gb), 2 * X * 2 * X)
    gb = do("grad", lambda a, b: do("sum", a * b * b), argnums=1, like=backend)(x, y)
    assert_close(to_np(gb), 2 * X * 2 * X)
    g, aux = do("grad", lambda a: (f_scalar(a), a * 2.0), has_aux=True, like=backend)(x)
    assert_close(to_np(g), df(X))
    assert_close(to_np(aux), 2 * X)


@pytest.mark.parametrize("name", ["value_and_grad"])
def test_value_and_grad(backend, name):
    x = to_backend(X, backend)
    value, g = do("value_and_grad", f_scalar, like=backend)(x)
    assert_close(to_np(value), np.sum(np.sin(X) * X))
    assert_close(to_np(g), df(X))
    (value, aux), g = do("value_and_grad", lambda a: (f_scalar(a), a[0]), has_aux=True,
                         like=backend)(x)
    assert_close(to_np(value), np.sum(np.sin(X) * X))
    assert_close(to_np(aux), X[0])
    assert_close(to_np(g), df(X))


@pytest.mark.parametrize("name", ["vjp"])
def test_vjp(backend, name):
    x, y, ct = to_backend((X, 2 * X, X[::-1].copy()), backend)
    out, vjp_fn = do("vjp", lambda a, b: do("sin", a) * b, x, y)
    assert_close(to_np(out), np.sin(X) * 2 * X)
    ga, gb = vjp_fn(ct)
    assert_close(to_np(ga), X[::-1] * np.cos(X) * 2 * X)
    assert_close(to_np(gb), X[::-1] * np.sin(X))
    again = vjp_fn(ct)  # a vjp_fn may be called more than once
    assert_close(to_np(again[0]), to_np(ga))


@pytest.mark.parametrize("name", ["jvp"])
def test_jvp(backend, name):
    x, y, tx, ty = to_backend((X, 2 * X, np.ones(5), X[::-1].copy()), backend)
    out, t = do("jvp", lambda a, b: do("sin", a) * b, (x, y), (tx, ty))
    assert_close(to_np(out), np.sin(X) * 2 * X)
    assert_close(to_np(t), np.cos(X) * 2 * X + np.sin(X) * X[::-1])


@pytest.mark.parametrize("name", ["checkpoint"])
def test_checkpoint(backend, name):
    x = to_backend(X, backend)
    f = do("checkpoint", f_scalar, like=backend)
    assert_close(to_np(f(x)), np.sum(np.sin(X) * X))
    if known_gap(backend, "grad") is None:
        assert_close(to_np(do("grad", f, like=backend)(x)), df(X))
    else:
        assert f is f_scalar  # no autodiff: no backward pass to save memory in


def test_transforms_without_autodiff_say_so():
    for name in ("grad", "value_and_grad", "vjp", "jvp"):
        with pytest.raises(UnsupportedError, match=f"'{name}'.*'numpy'.*automatic differ"):
            do(name, f_scalar, like="numpy")
        with pytest.raises(UnsupportedError, match="automatic differentiation"):
            do(name, f_scalar)  # the default backend, numpy, decides


# ---------------------------------------------------------------- bad input


def _notes(err: BaseException) -> str:
    return str(err) + " ".join(getattr(err, "__notes__", []))


def _raises(exc, call, name: str, backend: str, says: str):
    with pytest.raises(exc) as info:
        call()
    text = _notes(info.value)
    assert name in text, text
    assert f"'{backend}'" in text, text
    assert says in text, text


@pytest.mark.parametrize("name", CONTROL)
def test_control_flow_refuses_a_non_callable(backend, name):
    x = to_backend(M, backend)
    calls = {
        "cond": lambda: do("cond", True, 3, lambda u: u, x),
        "switch": lambda: do("switch", 1, [lambda u: u, "not a function"], x),
        "fori_loop": lambda: do("fori_loop", 0, 2, None, x),
        "scan": lambda: do("scan", x, x, x),
        "map": lambda: do("map", 2.0, x),
        "associative_scan": lambda: do("associative_scan", [1], x),
    }
    _raises(TypeError, calls[name], name, backend, "must be callable")


@pytest.mark.parametrize("transform", AUTODIFF)  # not "name": the refusals are checked
def test_transforms_refuse_a_non_callable(backend, transform):
    name = transform
    x = to_backend(X, backend)
    calls = {
        "grad": lambda: do("grad", 3, like=backend),
        "value_and_grad": lambda: do("value_and_grad", x, like=backend),
        "vjp": lambda: do("vjp", "sin", x),
        "jvp": lambda: do("jvp", None, (x,), (x,)),
        "checkpoint": lambda: do("checkpoint", 1.5, like=backend),
    }
    if known_gap(backend, name):
        _raises(UnsupportedError, calls[name], name, backend, "automatic differentiation")
    else:
        _raises(TypeError, calls[name], name, backend, "must be callable")


@pytest.mark.parametrize("index", [1.0, True, "1", np.array([1])])
def test_switch_refuses_a_non_integer_index(backend, index):
    x = to_backend(M, backend)
    _raises(TypeError, lambda: do("switch", index, BRANCHES, x), "switch", backend,
            "index must be")
    if isinstance(index, (np.ndarray, float)):
        arr = B(np.asarray(index, dtype=float), backend)
        _raises(TypeError, lambda: do("switch", arr, BRANCHES, x), "switch", backend,
                "index must be")


def test_switch_refuses_empty_or_non_sequence_branches(backend):
    x = to_backend(M, backend)
    _raises(ValueError, lambda: do("switch", 0, [], x), "switch", backend, "non-empty")
    _raises(TypeError, lambda: do("switch", 0, BRANCHES[0], x), "switch", backend,
            "sequence of callables")


def test_loops_refuse_a_carry_of_another_structure(backend):
    x = to_backend(X, backend)
    _raises(TypeError, lambda: do("fori_loop", 0, 3, lambda i, v: (v, v), x), "fori_loop",
            backend, "same structure")
    _raises(TypeError, lambda: do("scan", lambda c, r: ((c, c), r), x, x), "scan", backend,
            "same structure")
    _raises(TypeError, lambda: do("scan", lambda c, r: c, x, x), "scan", backend,
            "pair (carry, y)")


def test_jvp_refuses_unpaired_primals(backend):
    if known_gap(backend, "jvp"):
        pytest.skip(f"{backend} has no autodiff")
    x = to_backend(X, backend)
    _raises(TypeError, lambda: do("jvp", f_scalar, x, x), "jvp", backend,
            "tuples or lists")
    _raises(ValueError, lambda: do("jvp", f_scalar, (x, x), (x,)), "jvp", backend,
            "2 primals but 1 tangents")


# ---------------------------------------------------------------- inside the compilers


def transforms(x):
    """grad, value_and_grad, vjp, jvp and a checkpoint, written with do."""
    g = do("grad", f_scalar, like=x)(x)
    value, g2 = do("value_and_grad", do("checkpoint", f_scalar, like=x), like=x)(x)
    _, vjp_fn = do("vjp", lambda a: do("sin", a), x)
    (ct,) = vjp_fn(x)
    _, t = do("jvp", lambda a: do("sin", a) * a, (x,), (x,))
    return g, value, g2, ct, t


def transforms_reference(x):
    return df(x), np.sum(np.sin(x) * x), df(x), x * np.cos(x), (np.cos(x) * x + np.sin(x)) * x


@pytest.mark.parametrize("compiler", ["jax", "tensorflow", "torch"])
def test_transforms_inside_the_compilers(compiler):
    """jax.jit, tf.function and torch.compile(fullgraph=True) trace the transforms."""
    pytest.importorskip(compiler)
    x = to_backend(X, compiler)
    if compiler == "jax":
        import jax

        out = jax.jit(transforms)(x)
    elif compiler == "tensorflow":
        import tensorflow as tf

        out = tf.function(transforms)(x)
    else:
        import torch

        torch._dynamo.reset()
        out = torch.compile(transforms, fullgraph=True, backend="eager")(x)
    assert_close([to_np(o) for o in out], list(transforms_reference(X)))


def test_scan_of_length_zero(backend):
    """jax infers the outputs of an empty scan from a trace; the Python loops and
    tf.scan have no step to take them from, and say so."""
    init, xs = to_backend((np.zeros(3), np.zeros((0, 3))), backend)
    if backend == "jax":
        _, ys = do("scan", lambda c, x: (c + x, c * x), init, xs)
        assert to_np(ys).shape == (0, 3)
        return
    _raises(ValueError, lambda: do("scan", lambda c, x: (c + x, c * x), init, xs), "scan",
            backend, "length 0")


@pytest.mark.parametrize("compiler", ["jax", "tensorflow", "torch"])
def test_fori_loop_with_traced_bounds_inside_the_compilers(compiler):
    """A bound that is an array of the library: a loop of the library inside the
    compiler (lax.fori_loop, tf.while_loop, torch's while_loop operator)."""
    pytest.importorskip(compiler)
    x, n = to_backend((X, np.array(4)), compiler)

    def f(v, k):
        return do("fori_loop", 1, k, lambda i, w: w * 0.5 + do("sin", w), v)

    ref = X.copy()
    for _ in range(1, 4):
        ref = ref * 0.5 + np.sin(ref)
    if compiler == "jax":
        import jax

        out = jax.jit(f)(x, n)
    elif compiler == "tensorflow":
        import tensorflow as tf

        out = tf.function(f)(x, n)
    else:
        import torch

        torch._dynamo.reset()
        out = torch.compile(f, fullgraph=True, backend="eager")(x, n)
    assert_close(to_np(out), ref)
