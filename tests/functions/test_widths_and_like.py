"""Float widths of created arrays, and what a random draw takes from ``like=``.

README's width rule: a float made without a dtype from Python numbers has the
library's default width (that of ``zeros``); an input with a dtype keeps numpy's
result dtype (float32 endpoints give float32). Random draws of floats made for an
example array take its dtype when it is a real float, and its device.
"""

from __future__ import annotations

import numpy as np
import pytest

import dispatch
from dispatch import do
from tests.conftest import to_backend

# every creation routine that makes floats out of Python numbers, no dtype given
FROM_PYTHON = {
    "array": lambda b: do("array", [1.0, 2.0], like=b),
    "array nested": lambda b: do("array", [[1.0, 2.0], [3.0, 4.0]], like=b),
    "array of a tuple": lambda b: do("array", (0.5, 1), like=b),
    "asarray": lambda b: do("asarray", [1.0, 2.0], like=b),
    "asarray of a float": lambda b: do("asarray", 1.5, like=b),
    "full": lambda b: do("full", 2, 1.5, like=b),
    "arange": lambda b: do("arange", 0.0, 3.0, like=b),
    "arange of a float step": lambda b: do("arange", 0, 3, 0.5, like=b),
    "linspace": lambda b: do("linspace", 0, 1, 5, like=b),
    "logspace": lambda b: do("logspace", 0, 1, 5, like=b),
    "geomspace": lambda b: do("geomspace", 1, 2, 5, like=b),
    "zeros": lambda b: do("zeros", 2, like=b),
    "ones": lambda b: do("ones", 2, like=b),
    "empty": lambda b: do("empty", 2, like=b),
    "eye": lambda b: do("eye", 2, like=b),
    "identity": lambda b: do("identity", 2, like=b),
    "tri": lambda b: do("tri", 2, like=b),
}


def _default_width(backend: str) -> str:
    return dispatch.get_dtype_name(do("zeros", 1, like=backend))


# torch's conversions of Python data read it as numpy does (float64): composed code
# converts Python floats on their way into float64 computations (insert's values), and
# a float32 reading there rounded them; the width rule holds for torch's creation from
# shapes, fills and ranges. mlx's conversions read Python data so too, for the same
# reason (its complex Python data is then complex128, which mlx lacks: refused with its
# MISSING_DTYPES reason)
AS_NUMPY_READS = {
    (b, c)
    for b in ("torch", "mlx")
    for c in ("array", "array nested", "array of a tuple", "asarray", "asarray of a float")
}


@pytest.mark.parametrize("case", sorted(FROM_PYTHON))
def test_floats_from_python_numbers_have_the_library_width(backend, case):
    out = FROM_PYTHON[case](backend)
    assert dispatch.infer_backend(out) == backend
    want = "float64" if (backend, case) in AS_NUMPY_READS else _default_width(backend)
    assert dispatch.get_dtype_name(out) == want, case


def test_complex_from_python_numbers_follow_the_float_width(backend):
    out = do("asarray", [1j, 2.0], like=backend)
    width = "float64" if (backend, "asarray") in AS_NUMPY_READS else _default_width(backend)
    want = {"float32": "complex64", "float64": "complex128"}[width]
    assert dispatch.get_dtype_name(out) == want


def test_numpy_data_keeps_its_width(backend):
    if backend == "jax":
        pytest.skip("jax holds no float64 without 64-bit mode")
    out = do("asarray", np.ones(2), like=backend)
    assert dispatch.get_dtype_name(out) == "float64"


@pytest.mark.parametrize("name", ["linspace", "logspace"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_endpoints_with_a_dtype_give_numpys_dtype(backend, name, dtype):
    if backend == "jax" and dtype == "float64":
        pytest.skip("jax holds no float64 without 64-bit mode")
    start, stop = np.asarray(0.0, dtype), np.asarray(1.0, dtype)
    want = getattr(np, name)(start, stop, 5).dtype.name
    out = do(name, to_backend(start, backend), to_backend(stop, backend), 5)
    assert dispatch.get_dtype_name(out) == want
    # one endpoint a Python number: it is weak, the other's width stays
    out = do(name, to_backend(start, backend), 1.0, 5)
    assert dispatch.get_dtype_name(out) == want


DRAWS = ["random.normal", "random.uniform", "random.random", "random.standard_normal"]


def _widths(backend: str) -> list[str]:
    return ["float32"] if backend == "jax" else ["float32", "float64"]


@pytest.mark.parametrize("name", DRAWS)
def test_a_draw_for_an_array_takes_its_float_dtype(backend, name):
    for width in _widths(backend):
        like = to_backend(np.ones(3, width), backend)
        out = do(name, size=(2, 2), like=like)
        assert dispatch.infer_backend(out) == backend
        assert dispatch.get_dtype_name(out) == width, (name, width)
        assert dispatch.shape(out) == (2, 2)


@pytest.mark.parametrize("name", DRAWS)
def test_a_draw_for_an_integer_array_has_the_library_float(backend, name):
    like = to_backend(np.arange(3), backend)
    out = do(name, size=(2,), like=like)
    assert dispatch.get_dtype_name(out) == _default_width(backend)


def test_a_namespaces_generator_draws_in_the_arrays_dtype(backend):
    """quimb's randomized SVD: ``xp = get_namespace(x)``,
    ``xp.random.default_rng(seed).normal(size=...)``, then ``x @ omega``."""
    for width in _widths(backend):
        x = to_backend(np.arange(12.0).reshape(4, 3).astype(width), backend)
        rng = dispatch.get_namespace(x).random.default_rng(7)
        omega = rng.normal(size=(3, 2))
        y = do("matmul", x, omega)
        assert dispatch.shape(y) == (4, 2)
        if backend in ("numpy", "dask", "sparse"):
            # numpy's Generator.normal has no dtype: numpy's float64 stays
            assert dispatch.get_dtype_name(omega) in (width, "float64")
        else:
            assert dispatch.get_dtype_name(omega) == width
            assert dispatch.get_dtype_name(rng.random(size=(2,))) == width
