"""Shared fixtures and helpers: one ``backend`` fixture over every shipped table.

Known gaps come from ``unsupported(...)`` entries in the tables and become
strict xfails, so a gap that starts working forces its entry out.

The function tests (``tests/functions/``) describe each call as a :class:`Case`:
the numpy/scipy reference runs on host arrays, the backend call runs on copies
moved with :func:`to_backend`, and results come back with :func:`to_np`.
"""

from __future__ import annotations

import collections
import contextlib
import importlib
import importlib.util
import inspect
import os
import pkgutil
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import dispatch.translations as translations
import numpy as np
import pytest
from crash_rerun import (  # noqa: F401 (hooks, found here by their names)
    pytest_handlecrashitem,
    pytest_report_teststatus,
    pytest_runtest_logstart,
    rerun_lines,
)

from dispatch import clear_caches, do
from dispatch._errors import UnsupportedError
from dispatch.spec import Unsupported

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

BACKENDS = sorted(
    m.name for m in pkgutil.iter_modules(translations.__path__) if not m.name.startswith("_")
)
# the module to import to know a backend is usable (mlx is a namespace package: its
# arrays live in mlx.core)
LIBRARY = {"dask": "dask.array", "cupy": "cupy", "mlx": "mlx.core"}
# backends whose arrays the generic function tests run on (scipy's arrays are
# scipy.sparse matrices, tested on their own)
# autograd's arrays outside a trace are numpy's own ndarrays (its creation routines and
# draws return them, and they name numpy): only its boxes are autograd's. The
# whole-vocabulary checks (the smoke walk, the property tests and their call forms) run
# on boxes too (VOCABULARY_BACKENDS; :func:`to_backend` boxes a numpy array), the other
# function tests on the array backends only
ARRAY_BACKENDS = [b for b in BACKENDS if b not in ("scipy", "autograd")]
BOXED_BACKENDS = [b for b in BACKENDS if b == "autograd"]
VOCABULARY_BACKENDS = ARRAY_BACKENDS + BOXED_BACKENDS


# the engine's user state that a test may change: registered types and backends,
# registrations, composed fallbacks and redirected roots
_USER_STATE = ("USER_TYPES", "USER_BACKENDS", "OVERRIDES", "COMPOSED", "ROOTS")


@contextlib.contextmanager
def restored_registry():
    """Run the block, then put the engine's user state back as it was before it (the
    shipped composed fallbacks are loaded first, so that they are part of the
    snapshot) and clear every cache. For tests that register types, backends or
    functions, or that meet a library the module rule records."""
    from dispatch import _registry as reg

    reg.composed()
    saved = {name: dict(getattr(reg, name)) for name in _USER_STATE}
    try:
        yield
    finally:
        with reg.lock:
            for name, state in saved.items():
                live = getattr(reg, name)
                live.clear()
                live.update(state)
            reg.clear_caches()


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


def usable_backends(vocabulary: bool = False) -> list[str]:
    """The array backends whose library is importable here (``vocabulary``: with the
    boxed ones, which the whole-vocabulary checks run on)."""
    return [b for b in (VOCABULARY_BACKENDS if vocabulary else ARRAY_BACKENDS) if _usable(b)]


def pytest_configure(config):
    # paddle (3.3) crashes when imported after tensorflow (a segmentation fault loading
    # libpaddle), while tensorflow after paddle works: paddle first, where installed
    if importlib.util.find_spec("paddle") is not None:
        importlib.import_module("paddle")
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


def missing_dtypes(backend: str) -> dict[str, str]:
    """``{dtype name: reason}`` of the dtypes ``backend``'s library lacks (its table's
    ``MISSING_DTYPES``: mlx has no complex128)."""
    mod = importlib.import_module(f"dispatch.translations.{backend}")
    return getattr(mod, "MISSING_DTYPES", {})


def missing_dtype(backend: str, err: BaseException) -> str | None:
    """The reason of a ``MISSING_DTYPES`` entry of ``backend`` that ``err`` states: the
    call needed a dtype the library lacks, and its table refused it with that reason."""
    return next((r for r in missing_dtypes(backend).values() if r in str(err)), None)


@contextlib.contextmanager
def missing_dtype_skips(backend: str):
    """Skip a case whose data has a dtype the backend's library lacks: its table refused
    it with the reason of a ``MISSING_DTYPES`` entry (paddle has no uint16)."""
    try:
        yield
    except Exception as err:
        if reason := missing_dtype(backend, err):
            pytest.skip(f"{backend} lacks a dtype of this case: {reason}")
        raise


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
        return backend_array(x, backend)
    return x


def boxed(x: np.ndarray, backend: str) -> bool:
    """Whether :func:`backend_array` makes ``x`` a box of ``backend`` (autograd): float
    and complex arrays only. autograd differentiates those; an integer or bool array in
    a traced function is a constant (an index, a mask), and autograd itself fails on a
    box of one as soon as a result is an integer scalar (``autograd.numpy.sum`` of one
    raises "Can't differentiate w.r.t. type int64")."""
    return backend in BOXED_BACKENDS and x.dtype.kind in "fc"


def backend_array(x: np.ndarray, backend: str) -> Any:
    """A copy of one numpy array as ``backend``'s array. On autograd, a float or complex
    array becomes a box at the root of a trace, as ``autograd.grad`` makes its argument,
    and any other array stays a numpy constant (:func:`boxed`)."""
    if backend in BOXED_BACKENDS:
        if not boxed(x, backend):
            return x.copy()
        from autograd.core import VJPNode
        from autograd.tracer import new_box

        return new_box(x.copy(), 0, VJPNode.new_root())
    return do("asarray", x.copy(), like=backend)


def to_np(x: Any) -> Any:
    """Bring a backend result (or nested tuple/list of results) back to numpy."""
    if hasattr(x, "_fields"):  # named tuples (numpy's QRResult, SVDResult...)
        return tuple(to_np(v) for v in x)
    if isinstance(x, (list, tuple)):
        return type(x)(to_np(v) for v in x)
    if isinstance(x, (bool, int, float, complex)):
        return np.asarray(x)
    return np.asarray(do("to_numpy", x))


def container_of(x: Any) -> str | None:
    """The kind of sequence a result is, as numpy's results are compared: ``"list"``,
    ``"tuple"``, ``"namedtuple Name(field, ...)"``, or None for anything else (an
    array, a scalar). A tuple subclass without fields (torch's ``return_types``) is
    its own kind: numpy never returns one."""
    if isinstance(x, list):
        return "list"
    if not isinstance(x, tuple):
        return None
    if type(x) is tuple:
        return "tuple"
    fields = getattr(x, "_fields", None)
    if fields is None:
        return f"tuple subclass {type(x).__module__}.{type(x).__qualname__}"
    return f"namedtuple {type(x).__name__}({', '.join(fields)})"


def assert_same_container(actual: Any, expected: Any, path: str = "result") -> None:
    """``actual`` (a backend's result, not yet brought to numpy) is the same kind of
    container as numpy's ``expected`` at every level: a tuple where numpy gives a
    tuple (``gradient``, ``meshgrid``, ``frexp``), a list where numpy gives a list
    (``split``), a named tuple of the same name and fields (``linalg.qr``)."""
    want, got = container_of(expected), container_of(actual)
    assert got == want, f"{path} is a {got or type(actual).__name__}, numpy's is a {want}"
    if want is not None:
        for i, (a, e) in enumerate(zip(actual, expected, strict=False)):
            assert_same_container(a, e, f"{path}[{i}]")


def array_leaves(x: Any) -> list[np.ndarray]:
    """The numpy arrays inside nested lists/tuples/dicts (the inputs of a case)."""
    if isinstance(x, dict):
        return [a for v in x.values() for a in array_leaves(v)]
    if isinstance(x, (list, tuple)):
        return [a for v in x for a in array_leaves(v)]
    return [x] if isinstance(x, np.ndarray) else []


# ---------------------------------------------------------------- comparing

# (rtol, atol) by the lower precision of the two dtypes compared. float64 is held to
# about 4500 units of roundoff (2.2e-16): a float64 result computed in float32 (relative
# error near 6e-8) fails, while a library that sums or factorizes in another order passes.
TOLERANCES = {
    "float16": (1e-2, 1e-3),
    "float32": (1e-4, 1e-5),
    "complex64": (1e-4, 1e-5),
    "float64": (1e-12, 1e-12),
    "complex128": (1e-12, 1e-12),
}

# The one place where a float64 result may be further from numpy's than TOLERANCES
# allows: (backend or "*", name) -> (rtol, atol, reason). Each entry is an accuracy
# the library documents or that its algorithm has, measured; never a wrong width.
_TORCH_BESSEL = (
    1e-6,
    2e-6,
    "torch's float64 Bessel functions are accurate to float32 level: over 20001 points of "
    "[0.01, 30], the largest absolute errors against scipy are 3.8e-7 (j0), 4.7e-7 (j1), "
    "2.1e-7 (y0), 8.7e-7 (y1)",
)
_MLX_ERF = (
    1e-6,
    1e-6,
    "mlx's float64 erf and erfinv are accurate to float32 level: over 20001 points, the "
    "largest absolute errors against scipy are 4.4e-7 (erf on [-4, 4]) and 8.7e-7 "
    "(erfinv on [-0.99, 0.99])",
)
TOLERANCE_EXCEPTIONS: dict[tuple[str, str], tuple[float, float, str]] = {
    **{("mlx", n): _MLX_ERF for n in ("erf", "scipy.special.erf", "scipy.special.erfc",
                                      "scipy.special.erfinv", "erfinv")},
    **{("torch", f"scipy.special.{n}"): _TORCH_BESSEL for n in ("j0", "j1", "y0", "y1")},
    ("torch", "scipy.special.polygamma"): (
        1e-9,
        1e-12,
        "torch's float64 trigamma (n = 1) is accurate to about 5e-10 relative "
        "(torch.special.polygamma(1, torch.tensor(1.0, dtype=torch.float64)) is off "
        "by 4.8e-10); its other orders are exact to roundoff",
    ),
}


def tolerance(
    *dtypes: np.dtype, name: str | None = None, backend: str | None = None
) -> tuple[float, float]:
    """(rtol, atol) for comparing arrays of these dtypes (the loosest applies), widened
    by a :data:`TOLERANCE_EXCEPTIONS` entry of ``name`` on ``backend`` if one exists."""
    rtol, atol = 0.0, 0.0
    for dt in dtypes:
        r, a = TOLERANCES.get(np.dtype(dt).name, TOLERANCES["float64"])
        rtol, atol = max(rtol, r), max(atol, a)
    exc = TOLERANCE_EXCEPTIONS.get((backend or "", name or "")) or TOLERANCE_EXCEPTIONS.get(
        ("*", name or "")
    )
    if exc is not None:
        rtol, atol = max(rtol, exc[0]), max(atol, exc[1])
    return rtol, atol


def assert_close(
    actual: Any,
    expected: Any,
    *,
    dtype: str | None = "exact",
    rtol: float | None = None,
    atol: float | None = None,
    name: str | None = None,
    backend: str | None = None,
) -> None:
    """Assert a backend result (already numpy) matches the numpy reference.

    ``dtype``: ``"exact"`` (same dtype), ``"kind"`` (same kind: float, int,
    bool, complex; for defaults a library may choose, like float32) or None.
    ``name`` and ``backend`` select a :data:`TOLERANCE_EXCEPTIONS` entry.
    Sequences (tuples of results) are compared element by element.
    """
    if isinstance(expected, (list, tuple)) or hasattr(expected, "_fields"):
        assert isinstance(actual, (list, tuple)), f"expected a sequence, got {type(actual)}"
        assert len(actual) == len(expected), f"{len(actual)} results, expected {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            try:
                assert_close(a, e, dtype=dtype, rtol=rtol, atol=atol, name=name, backend=backend)
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
    r, a = tolerance(actual.dtype, expected.dtype, name=name, backend=backend)
    np.testing.assert_allclose(
        actual,
        expected,
        rtol=r if rtol is None else rtol,
        atol=a if atol is None else atol,
        equal_nan=True,
    )


# names whose float64 result is their definition, not a width chosen for integers
FLOAT64_BY_DEFINITION = frozenset({"float_power"})


def floats_from_ints(expected: Any, args: Any, kwargs: Any) -> bool:
    """Whether numpy made float64 results from integer or bool inputs alone: their
    width is the library's default float (docs/vocabulary.md, dtypes)."""
    leaves = array_leaves(args) + array_leaves(kwargs)
    if not leaves or any(a.dtype.kind in "fc" for a in leaves):
        return False
    outs = expected if isinstance(expected, (list, tuple)) else [expected]
    return any(np.asarray(e).dtype == np.float64 for e in outs)


def assert_default_float_width(actual: Any, backend: str) -> None:
    """Every float in ``actual`` has the width of ``zeros`` made by ``backend``."""
    width = np.asarray(to_np(do("zeros", 1, like=backend))).dtype
    outs = actual if isinstance(actual, (list, tuple)) else [actual]
    floats = {np.asarray(a).dtype for a in outs if np.asarray(a).dtype.kind == "f"}
    assert floats <= {width}, f"floats {sorted(map(str, floats))} from integers, default {width}"


# ---------------------------------------------------------------- call forms

# The ways a user can make the same call, run one after another on one warm cache
# (and again in the reverse order), each compared with the same reference:
# ``converted``: every array moved to the backend; ``mixed``: the first array moved,
# the others left as numpy constants (the multi-argument rule converts them);
# ``keywords``: the trailing arguments that numpy's signature lets be keywords
# passed by keyword; ``mixed_keywords``: both. A cache entry built for one form
# must serve the others.
CALL_FORMS = ("converted", "mixed", "keywords", "mixed_keywords")


def _keyword_names(name: str, nargs: int) -> list[str] | None:
    """numpy's (scipy's) parameter names of the trailing positional arguments of a
    call with ``nargs`` positional arguments that may be passed by keyword (the
    longest such suffix after the first argument), or None if there is none."""
    try:
        sig = inspect.signature(reference_function(name))
    except (AttributeError, ValueError, TypeError, ImportError):
        return None  # no numpy function of that name, or no signature to read
    params = list(sig.parameters.values())
    names: list[str] = []
    for i in range(nargs - 1, 0, -1):
        if i >= len(params) or params[i].kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
            break
        names.insert(0, params[i].name)
    return names or None


def _convert_first(x: Any, backend: str, done: list[bool]) -> Any:
    """``x`` with only its first numpy array leaf moved to ``backend``."""
    if isinstance(x, dict):
        return {k: _convert_first(v, backend, done) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_convert_first(v, backend, done) for v in x)
    if isinstance(x, np.ndarray):
        if done[0] or (backend in BOXED_BACKENDS and not boxed(x, backend)):
            return x.copy()
        done[0] = True
        return backend_array(x, backend)
    return x


def call_forms(
    name: str, args: tuple, kwargs: dict, backend: str, like: bool = False
) -> dict[str, tuple[tuple, dict]]:
    """The call forms that apply to ``do(name, *args, **kwargs)`` (numpy arguments)
    on ``backend``: form -> (backend args, backend kwargs)."""
    forms = {"converted": (to_backend(args, backend), to_backend(kwargs, backend))}
    if like:
        return forms
    moved = [a for a in array_leaves(args) + array_leaves(kwargs)
             if backend not in BOXED_BACKENDS or boxed(a, backend)]
    if backend != "numpy" and len(moved) >= 2:
        done = [False]
        forms["mixed"] = (
            _convert_first(args, backend, done),
            _convert_first(kwargs, backend, done),
        )
    names = _keyword_names(name, len(args))
    if names and not set(names) & set(kwargs):
        k = len(args) - len(names)
        for form, base in (("keywords", "converted"), ("mixed_keywords", "mixed")):
            if base in forms:
                b_args, b_kwargs = forms[base]
                moved = dict(zip(names, b_args[k:], strict=True))
                forms[form] = (b_args[:k], {**moved, **b_kwargs})
    return forms


def _result_types(out: Any) -> list[type]:
    return [type(r) for r in result_leaves(out)]


def _same_types(backend: str, got: list[type], want: list[type]) -> bool:
    """Whether two call forms' result types agree. On autograd a result is a box where
    it depends on a box and numpy's where it does not: a form that leaves an argument a
    numpy constant may get numpy's array where another gets a box (the second array of
    ``broadcast_arrays(box, constant)``, ``heaviside`` of a constant ``x2``)."""
    if got == want:
        return True
    if backend not in BOXED_BACKENDS or len(got) != len(want):
        return False
    from autograd.tracer import Box

    plain = (np.ndarray, np.generic)
    return all(g is w or ({issubclass(g, Box), issubclass(w, Box)} == {True, False}
               and (issubclass(g, plain) or issubclass(w, plain)))
               for g, w in zip(got, want, strict=True))


def run_forms(
    name: str,
    args: tuple,
    kwargs: dict,
    backend: str,
    compare: Callable[[Any, str], None],
    like: bool = False,
) -> int:
    """Run every call form of one call, in order and then in reverse order, each time
    on a cache warmed by the forms before it; ``compare(result, form)`` checks each
    result. Results of every form must have the types of the converted form's.
    Returns the number of calls made (recorded as ``call_forms``)."""
    forms = call_forms(name, args, kwargs, backend, like)
    order = list(forms)
    types = None
    calls = 0
    for n, sequence in enumerate((order, order[::-1]) if len(order) > 1 else (order,)):
        clear_caches()
        for form in sequence:
            f_args, f_kwargs = forms[form]
            # the second pass also checks each cached entry against a fresh resolution
            # called the same way (tests/reliability/consistency.py)
            out = _call(name, f_args, f_kwargs, backend, like, form, checked=n == 1)
            calls += 1
            compare(out, form)
            got = _result_types(out)
            if types is None:
                types = got
            if not _same_types(backend, got, types):
                raise AssertionError(
                    f"{form} call of {name} on {backend} returned {got}, the call with every "
                    f"array converted returned {types}"
                )
    _record(("call_forms", calls), ("call_form_cases", 1))
    return calls


def _call(
    name: str,
    args: tuple,
    kwargs: dict,
    backend: str,
    like: bool,
    form: str,
    checked: bool = False,
) -> Any:
    try:
        if like:
            return do(name, *args, like=backend, **kwargs)
        if checked and not like:
            from reliability.consistency import check_call

            return check_call(name, args, kwargs)
        return do(name, *args, **kwargs)
    except UnsupportedError as err:
        if str(err).startswith(f"{name!r} is not supported"):
            raise  # the name's own ``unsupported`` entry: the backend fixture's strict xfail
        # a name that the implementation calls is refused: the table claims a name it
        # cannot run, which is a bug, never an expected failure
        pytest.fail(
            f"do({name!r}) on {backend} ({form} call) needs a name its table refuses: {err}"
        )
    except Exception as err:
        err.add_note(f"[call form: {form}]")
        raise


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
        """Run the case once on ``backend``, every array converted:
        (result, backend args, backend kwargs)."""
        args = to_backend(self.args, backend)
        kwargs = to_backend(self.kwargs, backend)
        return _call(self.name, args, kwargs, backend, self.like, "converted"), args, kwargs

    def expected(self) -> Any:
        """numpy's (or the case's reference's) result on host copies."""
        ref = self.ref or reference_function(self.name)
        args = [a.copy() if isinstance(a, np.ndarray) else a for a in self.args]
        return ref(*args, **self.kwargs)

    def run(self, backend: str) -> None:
        """Check the backend's result against the reference, in every call form
        (:func:`run_forms`): converted, mixed numpy/backend, trailing keywords."""
        expected = None if self.check is not None else self.expected()

        def compare(out: Any, form: str) -> None:
            actual = to_np(out)
            try:
                if self.check is not None:
                    self.check(actual, *self.args, **self.kwargs)
                else:
                    assert_same_container(out, expected)
                    dtype = self.dtype
                    explicit = "dtype" in self.kwargs  # a dtype asked for is exact
                    if (
                        dtype == "exact"
                        and not explicit
                        and self.name not in FLOAT64_BY_DEFINITION
                        and floats_from_ints(expected, self.args, self.kwargs)
                    ):
                        assert_default_float_width(actual, backend)
                        dtype = "kind"
                    assert_close(
                        actual,
                        expected,
                        dtype=dtype,
                        rtol=self.rtol,
                        atol=self.atol,
                        name=self.name,
                        backend=backend,
                    )
            except AssertionError as err:
                raise AssertionError(f"[call form: {form}] {err}") from None

        with missing_dtype_skips(backend):
            run_forms(self.name, self.args, self.kwargs, backend, compare, like=self.like)

    def run_not_mutated(self, backend: str) -> None:
        """Check that the call leaves every array argument unchanged, and that
        no result aliases an argument where numpy's reference returns a copy."""
        with missing_dtype_skips(backend):
            args = to_backend(self.args, backend)
            kwargs = to_backend(self.kwargs, backend)
        inputs = [x for x in array_leaves_backend(args) + array_leaves_backend(kwargs)]
        before = [to_np(x).copy() for x in inputs]
        out = _call(self.name, args, kwargs, backend, self.like, "converted")
        for i, (x, b) in enumerate(zip(inputs, before, strict=True)):
            after = to_np(x)
            assert after.shape == b.shape, f"argument {i} changed shape"
            np.testing.assert_array_equal(after, b, err_msg=f"argument {i} was mutated")
        checked = self._check_not_aliased(backend, out, inputs)
        _record(("no_mutation_checks", 1), ("alias_checks", checked))

    def _reference_copies(self) -> list[bool] | None:
        """For each array leaf of numpy's result: True if it shares no memory
        with any input (numpy copied). None when no numpy reference applies."""
        try:
            ref = self.ref or reference_function(self.name)
        except AttributeError:  # no numpy function of that name (scatter, ...)
            return None
        args, kwargs = _host_copy(self.args), _host_copy(self.kwargs)
        inputs = array_leaves(args) + array_leaves(kwargs)
        if not inputs:
            return None
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                expected = ref(*args, **kwargs)
        except Exception:  # a custom-check case whose arguments numpy does not take
            return None
        return [
            not isinstance(r, np.ndarray) or not any(np.shares_memory(r, x) for x in inputs)
            for r in result_leaves(expected)
        ]

    def _check_not_aliased(self, backend: str, out: Any, inputs: list) -> int:
        """Assert no result leaf aliases an input where numpy copies; 1 if checked."""
        if backend in IMMUTABLE_BACKENDS or not inputs:
            return 0
        copies = self._reference_copies()
        if not copies or not any(copies):
            return 0  # numpy returns views only (reshape, transpose...): nothing required
        results = result_leaves(out)
        if len(results) != len(copies):
            if not all(copies):
                return 0  # cannot pair results with numpy's; nothing to require
            copies = [True] * len(results)
        spans = [s for x in inputs for s in memory_spans(x)]
        for i, (r, must_copy) in enumerate(zip(results, copies, strict=True)):
            if must_copy and _overlaps(memory_spans(r), spans):
                raise AssertionError(
                    f"result {i} of {self.name} on {backend} shares memory with an input, "
                    "where numpy returns a copy"
                )
        return 1


# jax, tensorflow and dask arrays are immutable: a result sharing an input's
# buffer can never be written through, so aliasing is invisible to users there.
# mlx's too: ``x[i] = v`` rebinds ``x`` to a new array (a reshape of ``x`` made before
# keeps the old values), and mlx exposes no buffer address to compare.
# autograd's boxes too: a box is never written into (autograd records pure functions)
IMMUTABLE_BACKENDS = frozenset({"jax", "tensorflow", "dask", "mlx", "autograd"})


def _host_copy(x: Any) -> Any:
    """Nested copy of the numpy arrays in call arguments (for the reference)."""
    if isinstance(x, dict):
        return {k: _host_copy(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_host_copy(v) for v in x)
    return x.copy() if isinstance(x, np.ndarray) else x


def result_leaves(x: Any) -> list:
    """The leaves of a result: elements of (named) tuples, lists and dicts, in order."""
    if isinstance(x, dict):
        return [a for v in x.values() for a in result_leaves(v)]
    if isinstance(x, (list, tuple)):
        return [a for v in x for a in result_leaves(v)]
    return [x]


def _bounds(device: str, ptr: int, shape: tuple, strides: tuple, itemsize: int) -> list:
    """The byte interval ``[lo, hi)`` an array's elements can touch (a superset)."""
    if any(n == 0 for n in shape):
        return []
    lo = ptr + sum((n - 1) * s for n, s in zip(shape, strides, strict=True) if s < 0)
    hi = ptr + sum((n - 1) * s for n, s in zip(shape, strides, strict=True) if s > 0)
    return [(device, lo, hi + itemsize)]


def memory_spans(x: Any) -> list[tuple[str, int, int]]:
    """(device, start, stop) byte ranges an array's data lives in; [] for an
    object that owns no array memory (a Python scalar, None).

    Conservative on purpose (the hull of the strided elements; a torch tensor
    counts its whole storage), so an alias can never pass unseen. Works across
    libraries: a torch result made with ``from_numpy`` overlaps its numpy input.
    """
    if isinstance(x, np.ndarray):
        return _bounds("cpu", x.__array_interface__["data"][0], x.shape, x.strides, x.itemsize)
    if isinstance(x, np.generic):
        return []  # a numpy scalar is always a fresh value
    mod = type(x).__module__.split(".")[0]
    if mod == "torch":
        if str(x.layout) != "torch.strided":  # sparse tensors: their parts
            parts = ("_indices", "_values", "crow_indices", "col_indices", "values")
            spans = []
            for p in parts:
                with contextlib.suppress(RuntimeError, AttributeError, NotImplementedError):
                    spans += memory_spans(getattr(x, p)())
            return spans
        storage = x.untyped_storage()
        if x.numel() == 0 or storage.nbytes() == 0:  # no element: nothing to share
            return []
        return [(str(x.device), storage.data_ptr(), storage.data_ptr() + storage.nbytes())]
    if mod == "paddle":
        if x.is_sparse_coo() or x.is_sparse_csr():
            return memory_spans(x.values())
        if x.size == 0:
            return []
        size = x.element_size()
        return _bounds(str(x.place), x.data_ptr(), tuple(x.shape),
                       tuple(s * size for s in x.strides), size)
    if mod == "cupy":
        dev = f"cuda:{x.device.id}"
        return _bounds(dev, x.data.ptr, x.shape, x.strides, x.itemsize)
    if mod == "sparse":  # pydata sparse: the numpy arrays it is made of
        names = ("data", "coords", "indices", "indptr")
        return [s for n in names if hasattr(x, n) for s in memory_spans(getattr(x, n))]
    return []


def _overlaps(a: list, b: list) -> bool:
    return any(d1 == d2 and lo1 < hi2 and lo2 < hi1 for d1, lo1, hi1 in a for d2, lo2, hi2 in b)


# ---------------------------------------------------------------- counting checks

_CURRENT_ITEM: list = [None]


def _record(*props: tuple[str, int]) -> None:
    """``record_property`` for the running test (the Case methods get no fixture)."""
    item = _CURRENT_ITEM[0]
    if item is not None:
        item.user_properties.extend(props)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    _CURRENT_ITEM[0] = item
    backend = getattr(item, "funcargs", {}).get("backend")
    try:
        if not isinstance(backend, str) or backend not in ARRAY_BACKENDS:
            return (yield)
        # any test on one backend: data of a dtype its library lacks is that library's
        # documented limit (its table refused the call with the MISSING_DTYPES reason),
        # as Case.run treats it; every other error still fails
        with missing_dtype_skips(backend):
            return (yield)
    finally:
        _CURRENT_ITEM[0] = None


# The counts quoted in closing notes, recorded by tests as user properties. One hook
# for all of them, here: under pytest-xdist the controller loads only this conftest
# (not those of sub-directories), and the reports bring each worker's properties back.
_COUNT_LINES = (
    (
        "docs examples executed: {examples} (markdown {markdown}, docstrings {docstrings})",
        "examples",
    ),
    (
        "property cases run: {property_cases} over {property_pairs} (function, backend) pairs,"
        " {property_nontrivial} of them non-trivial ({property_refused} refused by a table"
        " with a reason, {property_documented} showing a known difference of width,"
        " values checked)",
        "property_cases",
    ),
    (
        "call forms run: {call_forms} calls over {call_form_cases} cases and drawn examples",
        "call_forms",
    ),
    ("bad inputs tried: {bad_inputs}", "bad_inputs"),
    ("stress test: {stress_threads} threads, {stress_calls} calls", "stress_calls"),
    (
        "no-mutation/no-alias checks: {no_mutation_checks} calls, {alias_checks} of them with "
        "results checked against aliasing",
        "no_mutation_checks",
    ),
)


def count_totals(stats: dict[str, list]) -> dict[str, int]:
    """Sum the integer user properties of the call-phase reports in ``stats``."""
    totals: dict[str, int] = collections.defaultdict(int)
    for reports in stats.values():
        for rep in reports:
            if getattr(rep, "when", None) != "call":
                continue
            props = list(getattr(rep, "user_properties", ()) or ())
            kind = dict(props).get("docs")
            for key, value in props:
                if isinstance(value, int) and not isinstance(value, bool):
                    totals[key] += value
                    if key == "examples" and kind in ("markdown", "docstrings"):
                        totals[kind] += value
            if any(key == "property_cases" for key, _ in props):
                totals["property_pairs"] += 1
    return totals


def skip_reasons(stats: dict[str, list]) -> collections.Counter:
    """Skipped tests counted by reason (the location left out)."""
    reasons: collections.Counter = collections.Counter()
    for rep in stats.get("skipped", []):
        longrepr = getattr(rep, "longrepr", None)
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else "?"
        reasons[str(reason).removeprefix("Skipped: ")] += 1
    return reasons


_SKIP_REASONS_SHOWN = 6


def pytest_terminal_summary(terminalreporter):
    totals = count_totals(terminalreporter.stats)
    lines = [fmt.format_map(totals) for fmt, key in _COUNT_LINES if totals.get(key)]
    if lines:
        terminalreporter.section("counts")
        for line in lines:
            terminalreporter.write_line(line)
    # pyproject's -rfE lists failures only: skips are summed here by reason, so that a
    # missing library (the usual reason) reads as one line; -rs lists every skip
    crashes = rerun_lines(terminalreporter.stats)
    if crashes:
        terminalreporter.section("worker crashes (each test ran again on a fresh worker)")
        for line in crashes:
            terminalreporter.write_line(line)
    reasons = skip_reasons(terminalreporter.stats)
    xfailed = len(terminalreporter.stats.get("xfailed", []))
    if reasons or xfailed:
        terminalreporter.section("skips")
        if xfailed:
            terminalreporter.write_line(
                f"{xfailed} expected failures (known gaps: unsupported entries, xfail marks)"
            )
        for reason, n in reasons.most_common(_SKIP_REASONS_SHOWN):
            terminalreporter.write_line(f"{n} skipped: {reason}")
        if len(reasons) > _SKIP_REASONS_SHOWN:
            others = sum(n for _, n in reasons.most_common()[_SKIP_REASONS_SHOWN:])
            terminalreporter.write_line(
                f"{others} skipped for {len(reasons) - _SKIP_REASONS_SHOWN} other reasons "
                "(pytest -rs lists them)"
            )


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
    if isinstance(v, (list, tuple)) and any(isinstance(e, np.ndarray) or callable(e)
                                            for e in v):
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
    # an id must be the same in every process (pytest-xdist compares the collections):
    # no object addresses from a default repr
    assert "at0x" not in c.id, f"{name}: an id with an object's address: {c.id}"
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


def compiled_like_eager(fn: Any, x: Any) -> None:
    """``fn(x)`` compiled by ``torch.compile(fullgraph=True)`` in a reset dynamo (one
    graph, run as captured) gives eager's values."""
    import torch

    torch._dynamo.reset()
    got = torch.compile(fn, fullgraph=True, backend="eager")(x)
    want = fn(x)
    for g, w in zip(*(r if isinstance(r, tuple) else (r,) for r in (got, want)), strict=True):
        np.testing.assert_allclose(to_np(g), to_np(w), rtol=1e-12, atol=1e-14)
