"""``do`` (``dispatch/_do.py``): every argument of a sequence call decides, on a warm
cache too; a failed call with ``like=`` says it mixed libraries only where it did."""

from __future__ import annotations

import numpy as np
import pytest

import dispatch
from dispatch import _registry as reg
from dispatch import do


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def _twice(calls):
    """Every call, then every call again on the now warm cache: the second results."""
    for fn in calls:
        fn()
    return [fn() for fn in calls]


@pytest.mark.parametrize("torch_first", [False, True], ids=["numpy-first", "torch-first"])
def test_a_positional_array_beside_a_sequence_decides(torch, torch_first):
    """``cho_solve((c, lower), b)``: the array given by position beside the sequence
    takes part as much as the sequence's elements, whichever call the cache met first."""
    pytest.importorskip("scipy.linalg")
    reg.clear_caches()
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    c, b = np.linalg.cholesky(a), np.array([1.0, 2.0])
    calls = [
        lambda: do("scipy.linalg.cho_solve", (c, True), b),
        lambda: do("scipy.linalg.cho_solve", (c, True), torch.tensor(b)),
    ]
    if torch_first:
        calls.reverse()
    outs = _twice(calls)
    if torch_first:
        outs.reverse()
    assert type(outs[0]) is np.ndarray
    assert type(outs[1]) is torch.Tensor
    for out in outs:
        np.testing.assert_allclose(np.asarray(out), np.linalg.solve(a, b))


def test_a_failed_call_on_numpy_by_like_keeps_its_own_error(torch):
    """``like="numpy"`` with another library's array: numpy takes it through
    ``__array__``, so a failure is numpy's own error, not a mixed-libraries one; on
    another backend the same call is said to mix libraries."""
    jnp = pytest.importorskip("jax.numpy")
    not_square = torch.ones(2, 3, dtype=torch.float64)
    with pytest.raises(np.linalg.LinAlgError) as info:
        do("linalg.inv", not_square, like="numpy")
    assert not isinstance(info.value, dispatch.MixedBackendError)
    with pytest.raises(dispatch.MixedBackendError, match="arrays of 'torch' were passed"):
        do("linalg.inv", not_square, like=jnp.ones(1))
