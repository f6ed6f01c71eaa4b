"""numpy's two spellings of one function give one answer on every library.

numpy 2 spells several functions twice (``pow`` and ``power``, ``acos`` and
``arccos``, ``permute_dims`` and ``transpose``, ``true_divide`` and ``divide``...).
A table that routes one spelling through its adapter and leaves the other to the
library's own function of that name gives two answers. The walk: every such pair of
the vocabulary, on integer, negative integer, float32, float64 and boolean input, on
every library: the same dtype and the same bytes, or both refused.

Its first run found two: ``pow`` on torch and jax was the library's own (an integer
to a negative integer power gave 0 or garbage where ``power`` raises numpy's
ValueError), and jax's ``permute_dims`` required the axes numpy's takes as optional.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import to_backend, usable_backends

import dispatch
from dispatch import do
from dispatch._resolve import known_names

# the ufuncs numpy names twice (one object, or one loop under two names), and the
# functions it documents as aliases
SPELLINGS = [
    ("abs", "absolute"), ("bitwise_not", "invert"),
    ("conj", "conjugate"), ("divide", "true_divide"), ("mod", "remainder"),
    ("pow", "power"), ("acos", "arccos"), ("asin", "arcsin"), ("atan", "arctan"),
    ("atan2", "arctan2"), ("acosh", "arccosh"), ("asinh", "arcsinh"), ("atanh", "arctanh"),
    ("bitwise_left_shift", "left_shift"), ("bitwise_right_shift", "right_shift"),
    ("radians", "deg2rad"), ("degrees", "rad2deg"), ("round", "around"),
    ("permute_dims", "transpose"), ("concat", "concatenate"),
]
INPUTS = {
    "int64": np.array([3, -2, 5, 0]),
    "positive int64": np.array([3, 2, 5, 1]),
    "float32": np.array([1.5, -2.0, 0.5, 3.0], np.float32),
    "float64": np.array([0.5, -0.25, 0.75, 0.1]),
    "bool": np.array([True, False, True, True]),
}


def test_the_pairs_are_numpys_aliases():
    names = set(known_names())
    for a, b in SPELLINGS:
        assert a in names or b in names, (a, b)
        fa, fb = getattr(np, a), getattr(np, b)
        assert fa is fb or getattr(fa, "types", None) == getattr(fb, "types", 0) or (
            fa.__doc__ and b in fa.__doc__), (a, b)


def _answer(name: str, args: list):
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out = do(name, *args)
        return [(np.asarray(v).dtype, np.asarray(v).tobytes())
                for v in map(dispatch.to_numpy, out if isinstance(out, tuple) else (out,))]
    except Exception as err:  # the refusal is half of the answer
        return type(err).__name__


@pytest.mark.parametrize("backend", usable_backends(vocabulary=True))
@pytest.mark.parametrize(("alias", "name"), SPELLINGS)
def test_both_spellings_give_one_answer(alias: str, name: str, backend: str) -> None:
    # concatenate: one sequence argument
    arity = 0 if name == "concatenate" else getattr(getattr(np, name), "nin", 1)
    differ = []
    for kind, x in INPUTS.items():
        a = to_backend(x, backend)
        args = [[a, a]] if arity == 0 else [a] * arity
        got = _answer(alias, args), _answer(name, args)
        if got[0] != got[1]:
            differ.append(f"{kind}: {alias} {str(got[0])[:80]}, {name} {str(got[1])[:80]}")
    assert not differ, "\n".join(differ)
