"""Binary ufuncs with a boolean operand, and shifts by any count, as numpy computes them.

numpy runs one inner loop per combination of operand dtypes. A boolean operand of a
function without a boolean loop is computed in the loop numpy picks for it (two
booleans: int8 for ``floor_divide``, ``power``, ``remainder`` and the shifts; beside
an integer or float array: that array's dtype; beside a Python int: int64), and some
combinations are refused (``bool - bool``, ``gcd`` of booleans, ``ldexp`` with a float
exponent). The walk: every binary ufunc of the vocabulary, a boolean array or Python
bool beside every kind of operand, on every library, against numpy.

Its first run found 805 differences: paddle refused every Python bool (383); torch
refused booleans in subtraction, division, remainders, shifts, powers and matmul (an
integer divided by False raised ZeroDivisionError); mlx and jax computed booleans in
bool, uint8 or int32 where numpy's loop is int8, mlx computed ``bool - bool`` and
``gcd`` of floats, jax's integer division by False gave -1 and -2, tensorflow had no
int8 ``fmod``, autograd's ``copysign`` of a boolean raised. The shifts by a count
outside [0, bits) differed on mlx and tensorflow (numpy: 0, or -1 for a negative
value shifted right).

Float widths: a float result of operands without a float dtype has the library's own
width (README's width rule: float32 on torch, mlx and paddle); jax's floats of int32
and narrower integers, booleans included, are float32 in 64-bit mode too (jax's rule,
docs/vocabulary.md). The values are then compared with numpy's in that width.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import BOXED_BACKENDS, to_backend, usable_backends

import dispatch
from dispatch import do
from dispatch._resolve import known_names

BACKENDS = usable_backends(vocabulary=True)

BINARY = sorted(
    n for n in known_names()
    if isinstance(getattr(np, n, None), np.ufunc) and getattr(np, n).nin == 2
    and getattr(np, n).nout == 1
)

FIRST = {
    "bool": np.array([True, False, True, False]),
    "int64": np.array([3, -2, 5, 0]),
    "int32": np.array([3, -2, 5, 0], np.int32),
    "float32": np.array([1.5, -2.0, 0.5, 3.0], np.float32),
    "float64": np.array([1.5, -2.0, 0.5, 3.0]),
    "pybool": True,
    "pyint": 2,
    "pyfloat": 1.5,
}
SECOND = {
    "bool": np.array([True, True, False, False]),
    "int64": np.array([2, 3, -1, 4]),
    "int32": np.array([2, 3, -1, 4], np.int32),
    "float32": np.array([2.0, 0.5, -1.5, 1.0], np.float32),
    "float64": np.array([2.0, 0.5, -1.5, 1.0]),
    "pybool": False,
    "pyint": 3,
    "pyfloat": 2.5,
}
PAIRS = [(p, q) for p in FIRST for q in SECOND
         if "bool" in (p, q) or ("pybool" in (p, q) and not (p[:2] == q[:2] == "py"))]


def _float_widths(backend: str) -> set:
    """The widths a float made of operands without a float dtype may have."""
    default = np.asarray(dispatch.to_numpy(do("zeros", 1, like=backend))).dtype
    return {default, np.dtype("float32")} if backend == "jax" else {default}


def _has_float_dtype(*operands) -> bool:
    return any(getattr(a, "dtype", np.dtype(int)).kind in "fc" for a in operands)


def _numpy(name: str, *operands, dtype=None):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dtype is not None:
            operands = [np.asarray(a).astype(dtype) for a in operands]
        return np.asarray(getattr(np, name)(*operands))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", BINARY)
def test_boolean_operands_are_numpys(name: str, backend: str) -> None:
    widths = _float_widths(backend)
    problems = []
    for p, q in PAIRS:
        x, y = FIRST[p], SECOND[q]
        try:
            want = _numpy(name, x, y)
        except (TypeError, ValueError) as err:
            want = err
        args = [a if p_.startswith("py") else to_backend(a, backend)
                for a, p_ in ((x, p), (y, q))]
        try:
            got = np.asarray(dispatch.to_numpy(do(name, *args)))  # dask: computed here
        except (TypeError, ValueError) as err:
            if not isinstance(want, Exception):
                problems.append(f"{p}, {q}: raises {type(err).__name__}: {err}")
            continue
        if isinstance(want, Exception):
            problems.append(f"{p}, {q}: gives {got.dtype} where numpy raises {want}")
            continue
        if got.dtype != want.dtype:
            if not (want.dtype.kind == got.dtype.kind == "f" and got.dtype in widths
                    and not _has_float_dtype(x, y)):
                problems.append(f"{p}, {q}: dtype {got.dtype}, numpy's {want.dtype}")
                continue
            want = _numpy(name, x, y, dtype=got.dtype)  # numpy's values in that width
        if want.dtype.kind == "b" or want.dtype.kind in "iu":
            same = np.array_equal(got, want)
        else:
            rtol = {2: 1e-3, 4: 1e-6}.get(want.dtype.itemsize, 1e-12)
            same = np.allclose(got, want, rtol=rtol, atol=0, equal_nan=True)
        if not same:
            problems.append(f"{p}, {q}: {got} where numpy gives {want}")
    assert not problems, f"{name} on {backend}:\n" + "\n".join(problems)


SHIFT_DTYPES = ["int8", "int32", "int64", "uint8"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["left_shift", "right_shift"])
@pytest.mark.parametrize("dtype", SHIFT_DTYPES)
def test_shifts_by_any_count_are_numpys(name: str, dtype: str, backend: str) -> None:
    """A count outside [0, bits): numpy's left shift gives 0, its right shift the
    value's sign (0 or -1); hardware shifts by the count modulo the width."""
    bits = 8 * np.dtype(dtype).itemsize
    counts = [0, 1, bits - 1, bits, bits + 1, 2 * bits + 1]
    if np.dtype(dtype).kind == "i":
        counts += [-1, -bits]
    values = np.array([5, 1, 3, 100], dtype)
    if np.dtype(dtype).kind == "i":
        values[1] = -7
    x = np.repeat(values, len(counts)).astype(dtype)
    c = np.tile(np.array(counts), len(values)).astype(dtype)
    want = _numpy(name, x, c)
    got = do(name, to_backend(x, backend), to_backend(c, backend))
    if backend not in BOXED_BACKENDS:
        assert dispatch.infer_backend(got) == backend
    got = np.asarray(dispatch.to_numpy(got))
    assert got.dtype == want.dtype
    bad = got != want
    assert not bad.any(), f"{x[bad]} shifted by {c[bad]}: {got[bad]}, numpy's {want[bad]}"
