"""The code a lazy.Function compiles: calls bound by name, values used once nested into
the next call, long graphs compiled in parts; and computing a graph, which calls the
callables of do's cache directly."""

from __future__ import annotations

import pickle
import random
import re

import numpy as np
import pytest

import dispatch
from dispatch import do, lazy


def _logged(log, name):
    def fn(*args):
        log.append(name)
        return args[0] + len(log)

    fn.__name__ = name
    return fn


def test_nested_calls_run_once_each_and_in_the_order_of_the_nodes():
    log: list = []
    x = lazy.Variable((2,))
    a = x.to(_logged(log, "a"))
    b = a.to(_logged(log, "b"))  # a is read once, by b, the next node: nested
    c = x.to(_logged(log, "c"))
    d = do("add", b, c)  # c is the node just before d: nested, and runs after b
    e = do("multiply", d, d)  # d is read twice: never written twice
    f = lazy.Function(x, e)
    src = f.get_source()
    assert len(re.findall(r"\b_f[0-9]+\(", src)) == 3
    assert src.count("add(") == 1
    assert src.count("multiply(") == 1
    out = f(np.zeros(2))
    assert log == ["a", "b", "c"]
    np.testing.assert_allclose(out, ((0 + 1 + 2) + (0 + 3)) ** 2 * np.ones(2))


def test_a_value_read_twice_by_the_next_call_is_not_nested():
    x = lazy.Variable((3,))
    s = do("sin", x)
    f = lazy.Function(x, do("multiply", s, s))
    assert f.get_source().count("sin(") == 1
    np.testing.assert_allclose(f(np.ones(3)), np.sin(np.ones(3)) ** 2)


def _random_graph(seed, n_nodes, n_inputs=3):
    rng = random.Random(seed)
    inputs = [lazy.Variable((4,)) for _ in range(n_inputs)]
    values = [np.random.default_rng(seed + i).random(4) for i in range(n_inputs)]
    nodes, refs = list(inputs), list(values)
    for _ in range(n_nodes):
        kind = rng.random()
        # mostly recent values, sometimes an old one: values live across many statements
        i = len(nodes) - 1 - min(int(rng.expovariate(0.3)), len(nodes) - 1)
        j = rng.randrange(len(nodes))
        if kind < 0.3:
            nodes.append(do("sin", nodes[i]))
            refs.append(np.sin(refs[i]))
        elif kind < 0.6:
            nodes.append(do("add", nodes[i], nodes[j]))
            refs.append(refs[i] + refs[j])
        elif kind < 0.8:
            nodes.append(do("multiply", nodes[i], 0.5))
            refs.append(refs[i] * 0.5)
        else:
            nodes.append(nodes[i][::-1])
            refs.append(refs[i][::-1])
    k = rng.sample(range(n_inputs, len(nodes)), 5)
    return inputs, values, [nodes[i] for i in k], [refs[i] for i in k]


@pytest.mark.parametrize("seed", range(6))
def test_long_random_graphs_compile_in_parts_and_compute_right(seed):
    inputs, values, outs, refs = _random_graph(seed, 3000)
    f = lazy.Function(inputs, outs)
    src = f.get_source()
    assert "def _part1(" in src  # long enough to be compiled in parts
    for got, ref in zip(f(*values), refs, strict=True):
        np.testing.assert_allclose(got, ref)
    # and through do (the code any library's inputs take)
    for got, ref in zip(f._generic_call()(*values), refs, strict=True):
        np.testing.assert_allclose(got, ref)
    g = pickle.loads(pickle.dumps(f))
    for got, ref in zip(g(*values), refs, strict=True):
        np.testing.assert_allclose(got, ref)


def test_an_output_used_inside_the_graph_and_an_input_as_output():
    x, y = lazy.Variable((2,)), lazy.Variable((2,))
    s = do("sin", x)
    f = lazy.Function([x, y], [s, do("add", s, y), y])
    a, b = np.ones(2), np.full(2, 2.0)
    res = f(a, b)
    np.testing.assert_allclose(res[0], np.sin(a))
    np.testing.assert_allclose(res[1], np.sin(a) + b)
    assert res[2] is b


def test_function_names_are_safe_identifiers():
    x = lazy.Variable((3,))

    def probe(v, **kwargs):
        return v * 2

    dispatch.register_function("numpy", "lazy_code_probe.x0", probe)
    try:
        y = do("lazy_code_probe.x0", do("sin", x))  # a dotted name; its tail a register
        z = do("add", y, x)
        f = lazy.Function(x, z)
        assert f.functions["lazy_code_probe_x0"] == "lazy_code_probe.x0"
        np.testing.assert_allclose(f(np.ones(3)), np.sin(np.ones(3)) * 2 + 1)
    finally:
        dispatch.unregister_function("numpy", "lazy_code_probe.x0")


def test_a_node_made_with_a_callable_compiles():
    x = lazy.Variable((3,))
    f = lazy.Function(x, x.to(np.cumsum) * 2.0)
    assert f.functions["_f0"] is np.cumsum
    np.testing.assert_allclose(f(np.ones(3)), [2.0, 4.0, 6.0])
    np.testing.assert_allclose(pickle.loads(pickle.dumps(f))(np.ones(3)), [2.0, 4.0, 6.0])


def test_a_function_pickled_with_do_calls_in_its_source_still_loads():
    # the state a Function had before its calls were named: source calling do(...)
    x = lazy.Variable((2,))
    f = lazy.Function(x, do("sin", x))
    state = f.__getstate__()
    del state["functions"]
    state["source"] = "def lazy_function(a0):\n    x0 = do('sin', a0)\n    return x0"
    g = object.__new__(lazy.Function)
    g.__setstate__(state)
    np.testing.assert_allclose(g(np.ones(2)), np.sin(np.ones(2)))


# ---------------------------------------------------------------- computing


def test_compute_follows_a_function_registered_after_do_cached_the_call():
    x = np.arange(3.0)
    do("sin", x)  # cached by do
    dispatch.register_function("numpy", "sin", lambda a: a + 100)
    try:
        np.testing.assert_allclose(do("sin", lazy.array(x)).compute(), x + 100)
    finally:
        dispatch.unregister_function("numpy", "sin")
    np.testing.assert_allclose(do("sin", lazy.array(x)).compute(), np.sin(x))


def test_a_failing_node_is_named_as_do_names_it():
    do("sqrt", np.ones(2))  # cached by do: compute calls the cached callable
    y = do("sqrt", lazy.array(-np.ones(2)))
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError) as info:
        y.compute()
    notes = info.value.__notes__
    assert notes[0] == "(raised inside dispatch.do('sqrt') on backend 'numpy')"
    assert notes[1].startswith("(while computing the lazy node <LazyArray(fn=sqrt")
