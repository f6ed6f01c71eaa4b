"""Shared fixtures and helpers: one ``backend`` fixture over every shipped table.

Known gaps come from ``unsupported(...)`` entries in the tables and become
strict xfails, so a gap that starts working forces its entry out.

The function tests (``tests/functions/``) describe each call as a :class:`Case`:
the numpy/scipy reference runs on host arrays, the backend call runs on copies
moved with :func:`to_backend`, and results come back with :func:`to_np`.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import dispatch.translations as translations
import numpy as np
import pytest

from dispatch import do
from dispatch._errors import UnsupportedError
from dispatch.spec import Unsupported

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

BACKENDS = sorted(
    m.name for m in pkgutil.iter_modules(translations.__path__) if not m.name.startswith("_")
)
# the module to import to know a backend is usable
LIBRARY = {"dask": "dask.array", "cupy": "cupy"}
# backends whose arrays the generic function tests run on (scipy's arrays are
# scipy.sparse matrices, tested on their own)
ARRAY_BACKENDS = [b for b in BACKENDS if b != "scipy"]


def _usable(backend: str) -> bool:
    try:
        importlib.import_module(LIBRARY.get(backend, backend))
    except Exception:
        return False
    if backend == "cupy":
        import cupy

        try:
            return cupy.cuda.runtime.getDeviceCount() > 0
        except Exception:
            return False
    return True


def usable_backends() -> list[str]:
    """The array backends whose library is importable here."""
    return [b for b in ARRAY_BACKENDS if _usable(b)]


def pytest_configure(config):
    try:
        import jax

        jax.config.update("jax_enable_x64", True)  # compare float64 against numpy
    except ImportError:
        pass


def known_gap(backend: str, name: str | None) -> str | None:
    """The reason of an ``unsupported`` entry for ``name`` on ``backend``, if any."""
    if name is None:
        return None
    mod = importlib.import_module(f"dispatch.translations.{backend}")
    spec = getattr(mod, "TABLE", {}).get(name)
    return spec.reason if isinstance(spec, Unsupported) else None


def _backend_param(request) -> str:
    if not _usable(request.param):
        pytest.skip(f"{request.param} is not installed (or has no device here)")
    callspec = getattr(request.node, "callspec", None)
    name = callspec.params.get("name") if callspec else None
    if isinstance(name, str) and (reason := known_gap(request.param, name)):
        request.node.add_marker(pytest.mark.xfail(reason=reason, strict=True))
    return request.param


@pytest.fixture(params=ARRAY_BACKENDS)
def backend(request):
    """Every installed array backend; ``unsupported`` names become strict xfails."""
    return _backend_param(request)


@pytest.fixture(params=ARRAY_BACKENDS)
def backend2(request):
    """A second backend, for tests over pairs of libraries (conversion)."""
    if not _usable(request.param):
        pytest.skip(f"{request.param} is not installed (or has no device here)")
    return request.param


# ---------------------------------------------------------------- moving data


def to_backend(x: Any, backend: str) -> Any:
    """Move a numpy array (or nested list/tuple/dict of them) to ``backend``.

    numpy arrays are copied first, so that a function that wrongly mutates its
    input can never corrupt the module-level test data.
    """
    if isinstance(x, dict):
        return {k: to_backend(v, backend) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(to_backend(v, backend) for v in x)
    if isinstance(x, np.ndarray):
        return do("asarray", x.copy(), like=backend)
    return x


def to_np(x: Any) -> Any:
    """Bring a backend result (or nested tuple/list of results) back to numpy."""
    if hasattr(x, "_fields"):  # named tuples (numpy's QRResult, SVDResult...)
        return tuple(to_np(v) for v in x)
    if isinstance(x, (list, tuple)):
        return type(x)(to_np(v) for v in x)
    if isinstance(x, (bool, int, float, complex)):
        return np.asarray(x)
    return np.asarray(do("to_numpy", x))


def array_leaves(x: Any) -> list[np.ndarray]:
    """The numpy arrays inside nested lists/tuples/dicts (the inputs of a case)."""
    if isinstance(x, dict):
        return [a for v in x.values() for a in array_leaves(v)]
    if isinstance(x, (list, tuple)):
        return [a for v in x for a in array_leaves(v)]
    return [x] if isinstance(x, np.ndarray) else []


# ---------------------------------------------------------------- comparing

# (rtol, atol) by the lower precision of the two dtypes compared
TOLERANCES = {
    "float16": (1e-2, 1e-3),
    "float32": (1e-4, 1e-5),
    "complex64": (1e-4, 1e-5),
    "float64": (1e-7, 1e-10),
    "complex128": (1e-7, 1e-10),
}


def tolerance(*dtypes: np.dtype) -> tuple[float, float]:
    """(rtol, atol) for comparing arrays of these dtypes (the loosest applies)."""
    rtol, atol = 0.0, 0.0
    for dt in dtypes:
        r, a = TOLERANCES.get(np.dtype(dt).name, (1e-7, 1e-10))
        rtol, atol = max(rtol, r), max(atol, a)
    return rtol, atol


def assert_close(
    actual: Any,
    expected: Any,
    *,
    dtype: str | None = "exact",
    rtol: float | None = None,
    atol: float | None = None,
) -> None:
    """Assert a backend result (already numpy) matches the numpy reference.

    ``dtype``: ``"exact"`` (same dtype), ``"kind"`` (same kind: float, int,
    bool, complex; for defaults a library may choose, like float32) or None.
    Sequences (tuples of results) are compared element by element.
    """
    if isinstance(expected, (list, tuple)) or hasattr(expected, "_fields"):
        assert isinstance(actual, (list, tuple)), f"expected a sequence, got {type(actual)}"
        assert len(actual) == len(expected), f"{len(actual)} results, expected {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            try:
                assert_close(a, e, dtype=dtype, rtol=rtol, atol=atol)
            except AssertionError as err:
                raise AssertionError(f"result [{i}]: {err}") from None
        return
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, f"shape {actual.shape}, expected {expected.shape}"
    if dtype == "exact":
        assert actual.dtype == expected.dtype, f"dtype {actual.dtype}, expected {expected.dtype}"
    elif dtype == "kind":
        kinds = {"u": "i"}  # unsigned and signed integers count as one kind
        ka, ke = actual.dtype.kind, expected.dtype.kind
        assert kinds.get(ka, ka) == kinds.get(ke, ke), (
            f"dtype {actual.dtype}, expected kind of {expected.dtype}"
        )
    if expected.dtype.kind in "biuUS" and actual.dtype.kind in "biuUS":
        np.testing.assert_array_equal(actual, expected)
        return
    r, a = tolerance(actual.dtype, expected.dtype)
    np.testing.assert_allclose(
        actual,
        expected,
        rtol=r if rtol is None else rtol,
        atol=a if atol is None else atol,
        equal_nan=True,
    )


# ---------------------------------------------------------------- cases


def reference_function(name: str) -> Callable:
    """numpy's (or scipy's, for ``scipy.*`` names) function of that name."""
    if name.startswith("scipy."):
        mod_path, _, attr = name.rpartition(".")
        return getattr(importlib.import_module(mod_path), attr)
    obj: Any = np
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass
class Case:
    """One call of a function: ``do(name, *args, **kwargs)`` against a reference."""

    name: str
    args: tuple
    kwargs: dict
    ref: Callable | None = None  # reference on host arrays; default numpy's function
    check: Callable | None = None  # check(actual_np, *args, **kwargs) instead of ref
    dtype: str | None = "exact"
    like: bool = False  # call with like=backend (creation from no array)
    rtol: float | None = None
    atol: float | None = None
    id: str = ""
    marks: tuple = field(default_factory=tuple)

    def call(self, backend: str) -> tuple[Any, tuple, dict]:
        """Run the case on ``backend``: (result, backend args, backend kwargs)."""
        args = to_backend(self.args, backend)
        kwargs = to_backend(self.kwargs, backend)
        try:
            if self.like:
                out = do(self.name, *args, like=backend, **kwargs)
            else:
                out = do(self.name, *args, **kwargs)
        except UnsupportedError as err:
            # a variant of a supported name that the table refuses, with a reason
            pytest.xfail(str(err))
        return out, args, kwargs

    def run(self, backend: str) -> None:
        """Check the backend's result against the reference."""
        out, _, _ = self.call(backend)
        actual = to_np(out)
        if self.check is not None:
            self.check(actual, *self.args, **self.kwargs)
            return
        ref = self.ref or reference_function(self.name)
        args = [a.copy() if isinstance(a, np.ndarray) else a for a in self.args]
        expected = ref(*args, **self.kwargs)
        assert_close(actual, expected, dtype=self.dtype, rtol=self.rtol, atol=self.atol)

    def run_not_mutated(self, backend: str) -> None:
        """Check that the call leaves every array argument unchanged."""
        args = to_backend(self.args, backend)
        kwargs = to_backend(self.kwargs, backend)
        inputs = [x for x in array_leaves_backend(args) + array_leaves_backend(kwargs)]
        before = [to_np(x).copy() for x in inputs]
        try:
            if self.like:
                do(self.name, *args, like=backend, **kwargs)
            else:
                do(self.name, *args, **kwargs)
        except UnsupportedError as err:
            pytest.xfail(str(err))
        for i, (x, b) in enumerate(zip(inputs, before, strict=True)):
            after = to_np(x)
            assert after.shape == b.shape, f"argument {i} changed shape"
            np.testing.assert_array_equal(after, b, err_msg=f"argument {i} was mutated")


def array_leaves_backend(x: Any) -> list:
    """Backend arrays inside nested lists/tuples/dicts of call arguments."""
    from dispatch import is_array

    if isinstance(x, dict):
        return [a for v in x.values() for a in array_leaves_backend(v)]
    if isinstance(x, (list, tuple)):
        return [a for v in x for a in array_leaves_backend(v)]
    return [x] if is_array(x) else []


def _describe(v: Any) -> str:
    if isinstance(v, np.ndarray):
        short = {
            "float64": "f8",
            "float32": "f4",
            "int64": "i8",
            "int32": "i4",
            "bool": "b",
            "complex128": "c16",
            "complex64": "c8",
        }
        return short.get(v.dtype.name, v.dtype.name) + "x".join(map(str, v.shape)).join("[]")
    if isinstance(v, (list, tuple)) and any(isinstance(e, np.ndarray) for e in v):
        return "[" + ",".join(_describe(e) for e in v) + "]"
    if callable(v):
        return getattr(v, "__name__", "fn")
    return repr(v).replace(" ", "")


def case(name: str, *args: Any, **kwargs: Any) -> Case:
    """Build a :class:`Case`; options are keywords starting with ``_``:
    ``_ref``, ``_check``, ``_dtype``, ``_like``, ``_rtol``, ``_atol``, ``_id``."""
    opts = {k[1:]: kwargs.pop(k) for k in list(kwargs) if k.startswith("_")}
    c = Case(name, args, kwargs, **opts)
    if not c.id:
        parts = [_describe(a) for a in args] + [f"{k}={_describe(v)}" for k, v in kwargs.items()]
        c.id = ",".join(parts)[:60]
    return c


def params(cases: list[Case]) -> list:
    """``pytest.param(name, case)`` for each case, with unique readable ids."""
    seen: dict[str, int] = {}
    out = []
    for c in cases:
        ident = f"{c.name}({c.id})"
        n = seen.get(ident, 0)
        seen[ident] = n + 1
        if n:
            ident += f"#{n}"
        out.append(pytest.param(c.name, c, id=ident, marks=c.marks))
    return out
