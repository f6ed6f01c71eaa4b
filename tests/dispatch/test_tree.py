"""Pytrees: structure kept, any depth, and a tree that contains itself refused."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from dispatch import tree_flatten, tree_iter, tree_map, tree_unflatten

P = collections.namedtuple("P", "x y")


def test_structure_and_leaves_kept():
    tree = {"a": [np.ones(1), 3, P(np.ones(2), "s")], "b": (np.zeros(1),), "c": "text"}
    out = tree_map(lambda v: 2 * v, tree)
    assert list(out) == ["a", "b", "c"]
    assert type(out["a"][2]) is P
    np.testing.assert_array_equal(out["a"][2].x, [2.0, 2.0])
    # not leaves: unchanged
    assert out["a"][1] == 3
    assert out["c"] == "text"
    leaves, ref = tree_flatten(tree, get_ref=True)
    assert len(leaves) == 3 == len(list(tree_iter(tree)))
    back = tree_unflatten([v + 1 for v in leaves], ref)
    np.testing.assert_array_equal(back["b"][0], [1.0])


def test_shared_subtree_is_not_a_cycle():
    s = [np.ones(1)]
    out = tree_map(lambda v: v + 1, [s, s, (s,)])
    assert [float(o[0][0]) if isinstance(o, list) else float(o[0][0][0]) for o in out] == [
        2.0,
        2.0,
        2.0,
    ]


def test_deeper_than_the_recursion_limit():
    deep: list = []
    cur = deep
    for _ in range(5000):
        nxt = [np.ones(1)]
        cur.append(nxt)
        cur = nxt
    assert len(list(tree_iter(deep))) == 5000
    out = tree_map(lambda v: v * 0, deep)
    assert len(tree_flatten(out)) == 5000


def _cyclic():
    a: list = [np.ones(1), [np.zeros(1)]]
    a[1].append(a)
    d: dict = {"k": [np.ones(1)]}
    d["k"].append(d)
    t: list = []
    tup = (t,)
    t.append(tup)
    return [(a, "tree[1][1]", "list"), (d, "tree['k'][1]", "dict"), (tup, "tree[0][0]", "tuple")]


@pytest.mark.parametrize(("tree", "path", "kind"), _cyclic(), ids=["list", "dict", "tuple"])
@pytest.mark.parametrize(
    "walk",
    [
        lambda t: tree_map(lambda v: v, t),
        lambda t: list(tree_iter(t)),
        tree_flatten,
        lambda t: tree_flatten(t, get_ref=True),
    ],
    ids=["tree_map", "tree_iter", "tree_flatten", "tree_flatten-ref"],
)
def test_tree_that_contains_itself_is_a_value_error(tree, path, kind, walk):
    with pytest.raises(ValueError, match="contains itself") as info:
        walk(tree)
    assert f"{path} is the {kind} tree" in str(info.value)
    assert "is_leaf" in str(info.value)  # how to fix the call


def test_cycle_below_a_leaf_is_not_walked():
    a: list = [np.ones(1)]
    a.append(a)
    out = tree_map(lambda v: "leaf", [a], is_leaf=lambda v: v is a)
    assert out == ["leaf"]
