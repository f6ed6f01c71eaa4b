"""Copying and pickling lazy graphs: node by node, whatever the depth, keeping
shared nodes shared."""

from __future__ import annotations

import copy
import pickle
import sys

import numpy as np
import pytest

from dispatch import do, lazy

DEEP = 50_000


def _chain(n: int, leaf: lazy.LazyArray) -> lazy.LazyArray:
    y = leaf
    for i in range(n):
        y = do("add", y, float(i % 7)) if i % 2 else do("multiply", y, 1.0)
    return y


def _expected(n: int) -> np.ndarray:
    return np.ones(3) + sum(float(i % 7) for i in range(n) if i % 2)


def _leaf_below(node: lazy.LazyArray) -> lazy.LazyArray:
    while node.deps:
        node = node.deps[0]
    return node


@pytest.mark.parametrize(
    "roundtrip",
    [
        copy.deepcopy,
        lambda g: pickle.loads(pickle.dumps(g)),
        lambda g: pickle.loads(pickle.dumps(g, protocol=2)),
    ],
    ids=["deepcopy", "pickle", "pickle-protocol-2"],
)
def test_deep_chain_roundtrips(roundtrip):
    """A 50,000-node chain (50 times Python's recursion limit) copies and pickles."""
    assert sys.getrecursionlimit() * 10 < DEEP
    x = lazy.array(np.ones(3))
    y = _chain(DEEP, x)
    z = roundtrip(y)
    assert z is not y
    assert (z.shape, z.dtype, z.depth, z.fn_name) == (y.shape, y.dtype, y.depth, y.fn_name)
    leaf = _leaf_below(z)
    assert leaf is not x
    np.testing.assert_array_equal(leaf.compute(), x.compute())
    np.testing.assert_allclose(z.compute(), _expected(DEEP))
    # the original is untouched and computes the same
    assert _leaf_below(y) is x
    np.testing.assert_allclose(y.compute(), _expected(DEEP))


@pytest.mark.parametrize(
    "roundtrip",
    [copy.deepcopy, lambda g: pickle.loads(pickle.dumps(g))],
    ids=["deepcopy", "pickle"],
)
def test_shared_nodes_stay_shared(roundtrip):
    """A diamond keeps one node for its shared part, also across objects copied
    together (``(y, x)``): the copied y's leaf is the copied x."""
    x = lazy.array(np.arange(3.0))
    s = do("sin", x)
    y = do("add", do("exp", s), do("cos", s))
    y2, x2, s2 = roundtrip((y, x, s))
    a, b = y2.deps
    assert a.deps[0] is b.deps[0] is s2
    assert s2.deps[0] is x2
    np.testing.assert_allclose(
        y2.compute(), np.exp(np.sin(np.arange(3.0))) + np.cos(np.sin(np.arange(3.0)))
    )


def test_pickled_twice_and_reloaded():
    """A loaded graph pickles again; two separate loads are separate graphs."""
    x = lazy.array(np.ones(2))
    y = do("exp", x)
    data = pickle.dumps(y)
    y1, y2 = pickle.loads(data), pickle.loads(data)
    assert y1 is not y2
    assert y1.deps[0] is not y2.deps[0]
    y3 = pickle.loads(pickle.dumps(y1))
    np.testing.assert_allclose(y3.compute(), np.exp(np.ones(2)))


def test_variables_and_computed_values_roundtrip():
    v = lazy.Variable((2, 3), "float32")
    y = do("sum", do("sin", v), axis=0)
    for z in (copy.deepcopy(y), pickle.loads(pickle.dumps(y))):
        assert z.shape == (3,)
        assert z.dtype == "float32"
        assert _leaf_below(z).is_variable
    x = lazy.array(np.ones(2))
    w = do("exp", x)
    w.compute()
    for z in (copy.deepcopy(w), pickle.loads(pickle.dumps(w))):
        np.testing.assert_allclose(z.compute(), np.exp(np.ones(2)))


def test_deepcopy_copies_the_data_and_copy_shares_it():
    data = np.ones(3)
    x = lazy.array(data)
    y = do("exp", x)
    z = copy.deepcopy(y)
    assert z.deps[0].compute() is not data
    c = copy.copy(y)
    assert c is not y
    assert c.deps[0] is x
    np.testing.assert_allclose(c.compute(), np.exp(data))


def test_torch_leaves_pickle():
    torch = pytest.importorskip("torch")
    x = lazy.array(torch.arange(3.0))
    y = do("exp", x)
    z = pickle.loads(pickle.dumps(y))
    assert z.backend == "torch"
    out = z.compute()
    assert isinstance(out, torch.Tensor)
    np.testing.assert_allclose(out.numpy(), np.exp(np.arange(3.0)), rtol=1e-6)
