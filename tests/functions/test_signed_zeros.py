"""Signed zeros of the element-wise functions are numpy's on every library.

numpy keeps the sign of a zero where IEEE 754 does (``negative(0.0)`` is ``-0.0``,
``cbrt(-0.0)`` is ``-0.0``) and gives ``+0.0`` where its own definition does
(``sign(-0.0)``); ``spacing(-0.0)`` is the smallest positive number. A value test with
a tolerance cannot see a wrong sign (``-0.0 == 0.0``), and the sign shows later:
``1 / x``, ``arctan2``, ``copysign``. Each unary name of the vocabulary is called on
``[-0.0, +0.0]`` in float64 and float32, and where numpy's result is a zero its sign
bit must be numpy's. Complex zeros are not held here: their signs follow C99's branch
cuts, which jax, tensorflow, mlx and paddle compute otherwise in about twenty names
(docs/testing.md).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import to_np, usable_backends
from dispatch.translations._vocabulary import ELEMENTWISE_UNARY

from dispatch import UnknownFunctionError, UnsupportedError, do

BACKENDS = usable_backends(vocabulary=True)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_zero_result_has_numpys_sign(backend, dtype):
    host = np.array([-0.0, 0.0], dtype=dtype)
    wrong = []
    for name in ELEMENTWISE_UNARY:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                want = np.asarray(getattr(np, name)(host))
            except (AttributeError, TypeError):
                continue  # not a numpy function of floats
            try:
                got = np.asarray(to_np(do(name, do("asarray", host, like=backend))))
            except (UnknownFunctionError, UnsupportedError) as err:
                if backend in str(err):
                    continue  # a gap of the library, reported by the coverage walk
                raise
        zero = want == 0
        if not np.array_equal(np.signbit(got[zero]), np.signbit(want[zero])):
            wrong.append(f"{name}: {got.tolist()} where numpy gives {want.tolist()}")
    assert not wrong, f"{backend} {dtype}: " + "; ".join(wrong)
