"""Results never alias an input where numpy returns a copy.

Every ``test_inputs_not_mutated`` of ``tests/functions`` also checks aliasing
(see ``Case.run_not_mutated`` in ``conftest.py``). This file adds the calls
where a library is known to hand back its input, or a view of it, while numpy
copies: identity-like calls (``copy``, ``astype`` to the same dtype, ``tile``
by 1, zero padding, ``conj`` of a real array...). Each case also runs against
numpy's values, so an adapter that copies stays correct.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import (
    IMMUTABLE_BACKENDS,
    Case,
    _overlaps,
    case,
    memory_spans,
    params,
    to_backend,
)

from dispatch import do

rng = np.random.default_rng(55)
A = rng.standard_normal((3, 4))
AI = rng.integers(-5, 5, (3, 4))
AU = rng.integers(0, 9, (3, 4)).astype(np.uint8)
AC = A + 1j * rng.standard_normal((3, 4))
X = np.linspace(0.0, 1.0, 5)
SORTED = np.arange(6.0)

CASES = [
    # copies by contract
    case("copy", A),
    case("copy", AC),
    case("array", A),
    case("array", AI),
    case("asarray", A, copy=True),
    case("astype", A, "float64"),  # the same dtype: numpy still copies
    case("astype", AI, "int64"),
    case("astype", A, "float32"),
    case("reshape", A, (4, 3), copy=True),
    # identity-like elementwise calls
    case("positive", A),
    case("positive", AI),
    case("conj", A),  # real: numpy copies, torch returned the input
    case("conj", AC),  # complex: torch returned a lazy view of the input
    case("conjugate", AI),
    case("abs", AU),
    case("round", AI),
    case("floor", AI),
    case("nan_to_num", A),
    case("clip", A, -10.0, 10.0),
    case("maximum", A, A),
    # identity-like shape calls
    case("tile", A, 1),
    case("tile", A, (1, 1)),
    case("repeat", A, 1),
    case("repeat", A, 1, axis=0),
    case("pad", A, 0),
    case("concatenate", [A]),
    case("stack", [A]),
    case("hstack", [A]),
    case("triu", A, -5),
    case("tril", A, 5),
    case("sort", SORTED),
    case("where", A > 0, A, 0.0),
    case("diag", X),
    case("diagflat", A),
    case("meshgrid", X),
    case("unique", AI, return_inverse=True),
]


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_values(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_not_aliased(name, c, backend):
    c.run_not_mutated(backend)


def test_atleast_1d_of_a_list_is_one_new_array(backend):
    """numpy reads one list argument as one array; torch used to return the listed
    tensors themselves, jax and pydata sparse refused the list."""
    case("atleast_1d", [A, A]).run_not_mutated(backend)
    case("atleast_1d", [A, A]).run(backend)


# ---------------------------------------------------------------- the check itself


def test_check_catches_an_alias(backend):
    """A result that is a view of its input fails where numpy's reference copies."""
    if backend in IMMUTABLE_BACKENDS:
        pytest.skip(f"{backend} arrays are immutable: aliasing is not checked")
    # numpy's reference copies (np.copy); do('reshape') returns a view on every
    # mutable library, so the check must refuse it
    c = Case("reshape", (A, (4, 3)), {}, ref=lambda a, s: np.copy(a).reshape(s))
    with pytest.raises(AssertionError, match="shares memory with an input"):
        c.run_not_mutated(backend)


def test_memory_spans(backend):
    """Views overlap their base, copies do not: the check cannot pass an alias unseen."""
    if backend in IMMUTABLE_BACKENDS:
        pytest.skip(f"{backend} arrays are immutable: aliasing is not checked")
    x = to_backend(A, backend)
    assert memory_spans(x), f"no memory found for a {type(x).__name__}"
    assert _overlaps(memory_spans(do("reshape", x, (12,))), memory_spans(x))
    assert not _overlaps(memory_spans(do("copy", x)), memory_spans(x))


def test_memory_spans_across_libraries():
    """A torch tensor made on a numpy array's memory overlaps it (and a clone does not)."""
    torch = pytest.importorskip("torch")
    a = A.copy()
    t = torch.from_numpy(a)
    assert _overlaps(memory_spans(t), memory_spans(a))
    assert _overlaps(memory_spans(t[1:]), memory_spans(a))  # any view of the storage
    assert not _overlaps(memory_spans(t.clone()), memory_spans(a))
    assert not memory_spans(t[:0])  # no element, nothing shared
