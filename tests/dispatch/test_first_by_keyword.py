"""numpy's first parameter given by keyword (``stack(arrays=...)``, ``sum(a=...)``).

Tables take numpy's arguments in numpy's order but name the first one their library's
way (torch's ``stack(tensors)``, ``linalg.inv(A)``, ``diag(input)``, dask's
``stack(seq)``, a composed fallback's positional-only ``x``). ``do`` passes that one by
position in calls made of keywords alone; every name of every library is walked by the
``all_keywords`` call form of the function tests (tests/conftest.py). Here: the rule
itself, and that positional calls do not pay for it.
"""

from __future__ import annotations

import numpy as np
import pytest

from dispatch import _do as engine
from dispatch import clear_caches, do

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def _cold():
    clear_caches()
    yield
    clear_caches()


def test_the_first_argument_by_numpys_keyword_on_a_library_that_names_it_otherwise():
    x = np.arange(6.0).reshape(2, 3)
    t = torch.asarray(x)
    got = do("stack", arrays=[t, t], axis=1)
    assert type(got) is torch.Tensor
    np.testing.assert_array_equal(got.numpy(), np.stack([x, x], axis=1))
    # a numpy constant beside the tensor is converted, by keyword as by position
    mixed = do("stack", arrays=[t, np.ones((2, 3))])
    assert type(mixed) is torch.Tensor
    np.testing.assert_array_equal(mixed.numpy(), np.stack([x, np.ones((2, 3))]))
    inv = do("linalg.inv", a=torch.eye(2, dtype=torch.float64) * 2)
    np.testing.assert_array_equal(inv.numpy(), np.eye(2) / 2)
    # the first argument a numpy constant, a later keyword the tensor that decides
    b = do("broadcast_to", array=np.ones(3), shape=(2, 3))
    assert b.shape == (2, 3)


def test_a_keyword_only_call_is_numpys_call_with_the_first_by_position():
    x = np.arange(6.0).reshape(2, 3)
    t = torch.asarray(x)
    for name, first, rest in [
        ("sum", "a", {"axis": 0}),
        ("diag", "v", {}),
        ("unique_values", "x", {}),
        ("transpose", "a", {"axes": (1, 0)}),
    ]:
        want = getattr(np, name)(x, **rest)
        got = do(name, **{first: t}, **rest)
        np.testing.assert_array_equal(got.numpy(), want)
        assert engine._first_parameter(name) == first


def test_positional_calls_keep_the_tables_function_itself():
    t = torch.ones(3)
    for _ in range(2):  # a name is cached from its second call on where it was unknown
        do("sum", t)
        do("sum", t, axis=0)  # a keyword, but the first argument by position
    assert engine._C1["sum"][torch.Tensor].__name__ != "by_position"
    assert engine._CALLS[("sum", torch.Tensor, "axis", int)].__name__ != "by_position"


def test_the_mover_is_only_for_calls_that_give_numpys_first_parameter():
    t = torch.ones(2, 3)
    do("sum", a=t, axis=0)
    assert engine._CALLS[("sum", "a", torch.Tensor, "axis", int)].__name__ == "by_position"
    # keywords alone, the first not among them: numpy's error, not a guess
    with pytest.raises(TypeError):
        do("sum", axis=0)


def test_a_name_numpy_lacks_is_left_alone_and_not_remembered():
    assert engine._first_parameter("no_such_function_anywhere") is None
    assert "no_such_function_anywhere" not in engine._FIRST
    # ufuncs have no signature: nothing to move (numpy refuses x1= itself)
    assert engine._first_parameter("add") is None
