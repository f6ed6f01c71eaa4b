"""The lazy backend: recording, computing, traversal, source, Function, statistics."""

from __future__ import annotations

import gc
import pickle
import weakref

import numpy as np
import pytest

import dispatch
from dispatch import do, lazy


def test_lazy_arrays_win_over_every_other_library():
    torch = pytest.importorskip("torch")
    x = lazy.array(np.ones(3))
    t = torch.ones(3, dtype=torch.float64)
    for y in (do("add", t, x), do("add", x, t), do("stack", [np.ones(3), t, x])):
        assert isinstance(y, lazy.LazyArray)
    assert dispatch.infer_backend(x) == "lazy"
    # the torch leaf decides where the graph runs; numpy stays a constant
    y = do("multiply", lazy.array(t), np.full(3, 2.0))
    assert y.backend == "torch"
    out = y.compute()
    assert isinstance(out, torch.Tensor)
    np.testing.assert_allclose(out.numpy(), 2.0)


def test_any_name_records_a_node():
    x = lazy.array(np.linspace(0.1, 0.9, 4))
    y = do("scipy.special.erfinv", x)
    assert y.fn_name == "scipy.special.erfinv"
    import scipy.special

    np.testing.assert_allclose(y.compute(), scipy.special.erfinv(np.linspace(0.1, 0.9, 4)))


def test_operators_and_methods():
    a = np.arange(6.0).reshape(2, 3) + 1
    x = lazy.array(a)
    exprs = [
        (lambda v: (v + 1) * 2 - v / 3, None),
        (lambda v: 1.0 - v, None),
        (lambda v: 2 ** v, None),
        (lambda v: -abs(v), None),
        (lambda v: v @ v.T, None),
        (lambda v: a @ v.T, None),
        (lambda v: v.reshape(3, 2).sum(axis=0), None),
        (lambda v: v.T.ravel()[::2], None),
        (lambda v: (v > 2) & (v < 5), None),
        (lambda v: v.astype("int32") // 2, None),
        (lambda v: np.ones(3) + v, None),
        (lambda v: v.mean(1), None),
        (lambda v: [r for r in v][1], None),
    ]
    for f, _ in exprs:
        lz = f(x)
        assert isinstance(lz, lazy.LazyArray)
        ref = f(a)
        assert lz.shape == np.shape(ref)
        assert lz.dtype == np.asarray(ref).dtype.name
        np.testing.assert_allclose(lz.compute(), ref)


def test_truth_value_is_an_error():
    with pytest.raises(TypeError, match="truth value"):
        bool(lazy.Variable((2,)))


def test_helpers_answer_without_computing():
    x = lazy.Variable((2, 3), "float32")
    assert dispatch.shape(x) == (2, 3)
    assert dispatch.ndim(x) == 2
    assert dispatch.size(x) == 6
    assert dispatch.get_dtype_name(x) == "float32"
    y = lazy.array(np.ones(2)) * 3
    np.testing.assert_allclose(dispatch.to_numpy(y), [3.0, 3.0])


def test_variable_and_from_shape():
    v = lazy.Variable((2, 3), "float32", backend="torch")
    assert (v.shape, v.dtype, v.backend, v.is_variable) == ((2, 3), "float32", "torch", True)
    w = lazy.LazyArray.from_shape((4,))
    assert w.shape == (4,)
    assert w.dtype == "float64"
    d = lazy.LazyArray.from_data(np.ones(2, dtype="int8"))
    assert d.dtype == "int8"
    assert not d.is_variable
    with pytest.raises(ValueError, match="Variable"):
        (v + 1).compute()


def _chain(x, n):
    for i in range(n):
        x = do("sin", x) if i % 2 else x + 1.0
    return x


def test_deep_graph_computes_without_recursion():
    n = 100_000
    x = lazy.array(np.zeros(2))
    y = _chain(x, n)
    assert y.depth == n
    assert y.history_num_nodes() == n + 1
    assert len(list(lazy.ascend(y))) == n + 1
    out = y.compute()
    np.testing.assert_allclose(out, _chain(np.zeros(2), n))
    del y
    gc.collect()


def test_compute_frees_intermediates():
    leaf = lazy.array(np.ones(4))
    a = do("sin", leaf)
    b = do("exp", a)
    c = b + 1
    ra, rb = weakref.ref(a), weakref.ref(b)
    del a, b
    c.compute()
    gc.collect()
    assert ra() is None
    assert rb() is None
    assert c.fn_name is None
    assert c.deps == ()


def test_compute_holds_few_intermediates_at_once():
    alive: list = []
    dispatch.register_function("numpy", "probe_double", lambda x: _probe(x, alive))
    try:
        y = lazy.array(np.ones(3))
        for _ in range(20):
            y = do("probe_double", y)
        y.compute()
    finally:
        dispatch.unregister_function("numpy", "probe_double")
    assert max(alive) <= 2


def _probe(x, alive, _refs=[]):  # noqa: B006
    out = x * 2
    _refs[:] = [r for r in _refs if r() is not None]
    alive.append(len(_refs))
    _refs.append(weakref.ref(out))
    return out


def test_compute_pytree_and_shared_nodes():
    x = lazy.array(np.arange(3.0))
    s = do("sin", x)
    out = lazy.compute({"a": s + 1, "b": [s * 2, s]})
    np.testing.assert_allclose(out["a"], np.sin(np.arange(3.0)) + 1)
    np.testing.assert_allclose(out["b"][1], np.sin(np.arange(3.0)))


def test_ascend_descend_orders():
    x = lazy.array(np.ones(2))
    a = do("sin", x)
    b = do("cos", x)
    c = a + b
    up = list(lazy.ascend(c))
    assert up[-1] is c
    assert up.index(x) < up.index(a)
    assert len(up) == 4
    down = list(lazy.descend(c))
    assert down[0] is c
    assert set(down) == set(up)


def test_show_and_get_source():
    x = lazy.Variable((3,))
    y = do("sum", do("sin", x) * 2.0, axis=0)
    src = lazy.get_source(y)
    assert src.splitlines() == [
        "x0 = do('sin', v0)",
        "x1 = do('multiply', x0, 2.0)",
        "x2 = do('sum', x1, axis=0)",
        "out = x2",
    ]
    params = {"v0": np.arange(3.0)}
    exec(lazy.get_source(y, params), params)
    np.testing.assert_allclose(params["out"], np.sum(np.sin(np.arange(3.0)) * 2))


def test_show_prints_a_tree(capsys):
    x = lazy.array(np.ones(2))
    lazy.show(do("add", do("sin", x), x))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["0", "add[2]"]
    assert "(line 2)" in lines[-1]


def test_source_of_subscripts_and_constants():
    x = lazy.Variable((4, 5))
    c = np.arange(5.0)
    y = x[1:, None, ::2] + c[::2]
    src = lazy.get_source(y)
    assert "v0[1:, None, ::2]" in src
    assert "c0" in src  # the numpy constant is a named parameter


def test_function_folds_constants():
    x = lazy.Variable((3,))
    c = lazy.array(np.arange(3.0))
    heavy = do("exp", do("sin", c)) * 2
    f = lazy.Function(x, x * heavy + do("cos", c))
    src = f.get_source()
    assert "sin" not in src
    assert "exp" not in src
    assert "cos" not in src
    # two calls are left, each bound to do: multiply by the folded constant, then add
    assert f.functions == {"multiply": "multiply", "add": "add"}
    assert src.count("(") == 3  # the def line and the two calls
    ref = np.ones(3) * np.exp(np.sin(np.arange(3.0))) * 2 + np.cos(np.arange(3.0))
    np.testing.assert_allclose(f(np.ones(3)), ref)
    g = lazy.Function(x, x * heavy + do("cos", c), fold_constants=False)
    assert "sin" in g.get_source()
    np.testing.assert_allclose(g(np.ones(3)), ref)


def test_function_pickles_and_takes_pytrees():
    a = lazy.Variable((2, 2))
    b = lazy.Variable((2,))
    out = {"y": do("matmul", a, b), "z": [do("tanh", b), a.T]}
    f = lazy.Function([a, b], out)
    g = pickle.loads(pickle.dumps(f))
    av, bv = np.arange(4.0).reshape(2, 2), np.array([1.0, -1.0])
    for h in (f, g):
        for res in (h(av, bv), h([av, bv])):
            np.testing.assert_allclose(res["y"], av @ bv)
            np.testing.assert_allclose(res["z"][0], np.tanh(bv))
            np.testing.assert_allclose(res["z"][1], av.T)
    with pytest.raises(TypeError):
        f(av)


def test_function_runs_on_other_libraries():
    torch = pytest.importorskip("torch")
    x = lazy.Variable((3,), backend="torch")
    f = lazy.Function(x, do("sum", do("sin", x) * np.arange(3.0)))
    t = torch.arange(3.0, dtype=torch.float64)
    res = f(t)
    assert isinstance(res, torch.Tensor)
    np.testing.assert_allclose(res.numpy(), np.sum(np.sin(np.arange(3.0)) * np.arange(3.0)))
    # and the same function accepts numpy arrays
    np.testing.assert_allclose(f(np.arange(3.0)), res.numpy())


def test_function_needs_every_variable():
    x, y = lazy.Variable((2,)), lazy.Variable((2,))
    with pytest.raises(ValueError, match="not among the inputs"):
        lazy.Function(x, x + y)


def test_function_of_a_deep_graph():
    x = lazy.Variable((2,))
    f = lazy.Function(x, _chain(x, 10_000))
    np.testing.assert_allclose(f(np.zeros(2)), _chain(np.zeros(2), 10_000))
    src = f.get_source()
    # every node is written once; a value read once, by the next call, is nested into
    # it, at most 8 calls deep
    assert src.count("sin(") + src.count("add(") == 10_000
    assert max(line.count("(") for line in src.splitlines()) <= 8
    # names are reused once values are dead, so the frame stays small
    assert "x1 =" not in src
    # a long source is compiled as parts of 100 statements that lazy_function calls
    assert src.count("\ndef _part") == 12
    assert src.startswith("def _part0(a0):")


def test_shared_intermediates_deduplicates():
    a = np.arange(4.0)
    x = lazy.array(a)
    with lazy.shared_intermediates() as cache:
        s1 = do("sin", x)
        s2 = do("sin", x)
        t1 = do("sum", s1 + a, axis=0)
        t2 = do("sum", s2 + a, axis=0)
        q1, _ = do("linalg.qr", do("reshape", x, (2, 2)))
        q2, _ = do("linalg.qr", do("reshape", x, (2, 2)))
    assert s1 is s2
    assert t1 is t2
    assert q1 is q2
    assert len(cache) >= 5
    total = do("add", t1, t2)
    # leaf, constant a (one leaf for one array), sin, add, sum, and the final add
    assert total.history_num_nodes() == 6
    assert do("sin", x) is not s1  # outside the block nothing is shared
    with lazy.shared_intermediates(cache):
        assert do("sin", x) is s1  # a cache resumes sharing


def test_history_statistics():
    x = lazy.array(np.ones((4, 4)))
    a = do("matmul", x, x)
    b = do("sum", a, axis=0)
    c = b * 2
    assert lazy.history_num_nodes(c) == 4
    assert c.history_max_size() == 16
    assert c.history_total_size() == 16 + 16 + 4 + 4
    assert c.history_fn_frequencies() == {"None": 1, "matmul": 1, "sum": 1, "multiply": 1}
    assert c.history_stats("count") == c.history_fn_frequencies()
    assert c.history_stats("sizeout") == {"None": 16, "matmul": 16, "sum": 4, "multiply": 4}
    assert c.history_stats("sizein") == {"None": 0, "matmul": 16, "sum": 16, "multiply": 4}
    fp = c.history_size_footprint()
    assert fp == [32, 20, 8]
    assert c.history_peak_size() == 32
    assert c.history_size_footprint(include_inputs=False) == [16, 20, 8]


def test_to_nx_digraph():
    nx = pytest.importorskip("networkx")
    x = lazy.Variable((3,))
    y = do("sin", x) + lazy.array(np.ones(3))
    g = lazy.to_nx_digraph(y)
    assert isinstance(g, nx.DiGraph)
    assert g.number_of_nodes() == 4
    assert g.number_of_edges() == 3
    assert nx.is_directed_acyclic_graph(g)
    attrs = [g.nodes[i] for i in nx.topological_sort(g)]
    assert attrs[-1]["fn"] == "add"
    assert sum(a["variable"] for a in attrs) == 1
    assert sum(a["constant"] for a in attrs) == 1


def test_error_inside_compute_names_the_node():
    x = lazy.array(np.array([[1.0, 2.0], [2.0, 4.0]]))
    y = do("linalg.inv", x)  # singular: fails only when computed
    with pytest.raises(np.linalg.LinAlgError) as info:
        y.compute()
    assert "linalg.inv" in "".join(getattr(info.value, "__notes__", []))


def test_unknown_names_fail_at_record_time():
    x = lazy.array(np.ones(3))
    with pytest.raises(dispatch.UnknownFunctionError, match="no_such_function"):
        do("no_such_function", x)


def test_register_shape_rule():
    dispatch.register_function("numpy", "outer_sum", lambda a, b: a[:, None] + b[None, :])
    try:
        lazy.register_shape_rule("outer_sum", lambda args, kw: (args[0].shape + args[1].shape,
                                                                "float64"))
        y = do("outer_sum", lazy.Variable((2,)), lazy.Variable((3,)))
        assert y.shape == (2, 3)
    finally:
        dispatch.unregister_function("numpy", "outer_sum")
        from dispatch.lazy._shapes import RULES

        RULES.pop("outer_sum", None)


# ---------------------------------------------------------------- folds while recording


@pytest.mark.parametrize(
    ("a", "b"), [((1, 0, 2), (1, 0, 2)), ((2, 0, 1), (1, 2, 0)), ((0, 2, 1), (2, 1, 0))]
)
def test_transpose_of_transpose_is_one_node(a, b):
    from dispatch import lazy

    x = np.arange(24.0).reshape(2, 3, 4)
    lx = lazy.array(x)
    l2 = do("transpose", do("transpose", lx, a), b)
    assert l2.deps == (lx,)
    assert l2.history_num_nodes() == 2
    np.testing.assert_array_equal(l2.compute(), np.transpose(np.transpose(x, a), b))


@pytest.mark.parametrize(("s", "t"), [((6, 4), (-1,)), ((4, 6), (2, 12)), ((24,), (3, 8))])
def test_reshape_of_reshape_is_one_node(s, t):
    from dispatch import lazy

    x = np.arange(24.0).reshape(2, 3, 4)
    lx = lazy.array(x)
    l2 = do("reshape", do("reshape", lx, s), t)
    assert l2.deps == (lx,)
    np.testing.assert_array_equal(l2.compute(), x.reshape(s).reshape(t))


@pytest.mark.parametrize(("i", "j", "same"), [(1, 1, True), (-1, 2, True), (0, 1, False)])
def test_swapaxes_of_an_axis_with_itself_is_the_array(i, j, same):
    from dispatch import lazy

    x = np.arange(24.0).reshape(2, 3, 4)
    lx = lazy.array(x)
    ly = do("swapaxes", lx, i, j)
    assert (ly is lx) is same
    np.testing.assert_array_equal(lazy.compute(ly), np.swapaxes(x, i, j))


def test_a_nodes_function_is_callable_and_wrappable():
    """autoray's clients wrap ``node._fn`` (a check around each step)."""
    from dispatch import lazy

    x = np.arange(6.0).reshape(2, 3)
    ly = do("sum", lazy.array(x), axis=0)
    assert ly._fn == "sum"
    assert str(ly._fn) == "sum"
    np.testing.assert_array_equal(ly._fn(x, axis=0), x.sum(axis=0))
    calls = []
    inner = ly._fn

    def checked(*args, **kwargs):
        calls.append(1)
        return inner(*args, **kwargs)

    ly._fn = checked
    np.testing.assert_array_equal(ly.compute(), x.sum(axis=0))
    assert calls == [1]


def test_a_wrapped_node_function_keeps_its_name_everywhere_it_is_named(capsys):
    """A client that wraps ``node._fn`` with ``functools.wraps`` (a check around each
    step) sees the same name wherever a node's function is named."""
    import functools

    x = lazy.array(np.arange(4.0))
    y = do("sin", x) + 1.0
    before = (repr(y), y.fn_name, lazy.history_fn_frequencies(y), lazy.history_stats(y))
    y.show()
    shown = capsys.readouterr().out
    inner = y._fn

    @functools.wraps(inner)
    def checked(*args, **kwargs):
        return inner(*args, **kwargs)

    y._fn = checked
    after = (repr(y), y.fn_name, lazy.history_fn_frequencies(y), lazy.history_stats(y))
    y.show()
    assert capsys.readouterr().out == shown
    assert after == before
    assert y.fn_name == "add"
    np.testing.assert_allclose(y.compute(), np.sin(np.arange(4.0)) + 1.0)
