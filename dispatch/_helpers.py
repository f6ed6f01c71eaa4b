"""Helpers with autoray's names and behaviour, each a thin layer over ``do``."""

from __future__ import annotations

import contextlib
import importlib
import numbers
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from dispatch import _registry as reg
from dispatch._do import do
from dispatch._errors import BackendNotInstalledError, DispatchError, short
from dispatch._infer import (
    CONTEXTS,
    DEFAULT,
    GLOBAL_DEFAULT,
    GLOBAL_PRECISION,
    PRECISION,
    backend_of_type,
    current_precision,
    default_backend,
    infer_backend,
    like_backend,
    scalar_backend,
)
from dispatch._resolve import how, known_names, resolve


def get_lib_fn(backend: str, fn: str) -> Callable:
    """Return the implementation of ``fn`` on ``backend``, resolved once.

    Calling the result skips inference: the arguments must already be arrays of
    that backend (numpy constants are not converted).

    Examples
    --------
    >>> import numpy as np
    >>> get_lib_fn("numpy", "sum")(np.arange(4))
    np.int64(6)
    """
    where = f"get_lib_fn({short(backend)}, {short(fn)})"
    return resolve(reg.check_backend(where, backend), fn)


# numpy's names for the dtypes of Python scalars (autoray's too, and bool's, which
# autoray 0.11.0 misses)
_SCALAR_DTYPES = {bool: "bool", int: "int64", float: "float64", complex: "complex128"}


def _python_shape(x: Any) -> tuple[int, ...] | None:
    """The shape of a Python scalar or nested list/tuple (autoray's rule: the
    first element of each level decides, ragged input is not checked), or None
    for anything else (an array: its own ``shape`` answers)."""
    if isinstance(x, (bool, int, float, complex)):
        return ()
    if type(x) is not list and type(x) is not tuple:
        return None
    out = []
    seen = set()  # a list that holds itself has no shape
    while type(x) is list or type(x) is tuple:
        if id(x) in seen:
            raise ValueError("shape(x): x is a list or tuple that contains itself")
        seen.add(id(x))
        out.append(len(x))
        if not x:
            return tuple(out)
        x = x[0]
    inner = _python_shape(x)
    if inner is None:  # arrays inside the list: their shapes go on
        inner = tuple(map(int, shape(x)))
    return (*out, *inner)


def shape(x: Any) -> tuple[int, ...]:
    """Shape of ``x`` as a tuple of ints.

    Python scalars have shape ``()``, and nested lists and tuples the shape
    numpy would give them (only the first element of each level is looked at),
    as in autoray.

    >>> import numpy as np
    >>> shape(np.ones((2, 3))), shape(0.5), shape([[1, 2], [3, 4]])
    ((2, 3), (), (2, 2))
    """
    py = _python_shape(x)
    return do("shape", x) if py is None else py


def ndim(x: Any) -> int:
    """Number of dimensions of ``x``.

    >>> import numpy as np
    >>> ndim(np.ones((2, 3))), ndim(0.5)
    (2, 0)
    """
    py = _python_shape(x)
    return do("ndim", x) if py is None else len(py)


def size(x: Any) -> int:
    """Number of elements of ``x``.

    >>> import numpy as np
    >>> size(np.ones((2, 3))), size(0.5)
    (6, 1)
    """
    py = _python_shape(x)
    if py is None:
        return do("size", x)
    n = 1
    for d in py:
        n *= d
    return n


def to_numpy(x: Any) -> Any:
    """Convert ``x`` to a numpy array (from any device, detached from autodiff).

    >>> to_numpy([1, 2])
    array([1, 2])
    """
    return do("to_numpy", x)


def from_numpy(
    x: Any, dtype: Any = None, device: Any = None, backend: str | None = None, *, like: Any = None
) -> Any:
    """Convert a numpy array to another library, optionally to a dtype and device.

    Parameters
    ----------
    x : numpy.ndarray
    dtype, device : optional
        Target dtype (a name such as ``"float32"`` or a native dtype) and device.
    backend : str, optional
        Target library (autoray's name for the argument).
    like : str or array, optional
        Target library as a name or an example array; ``backend`` wins. Default numpy.

    Examples
    --------
    >>> import numpy as np
    >>> from_numpy(np.ones(2), like="numpy")
    array([1., 1.])
    >>> from_numpy(np.ones(2), "float32").dtype
    dtype('float32')
    """
    target = backend if backend is not None else ("numpy" if like is None else like)
    y = do("from_numpy", x, like=target)
    if dtype is not None:
        y = astype(y, dtype)
    if device is not None:
        y = to_device(y, device)
    return y


def astype(x: Any, dtype_name: Any, **kwargs: Any) -> Any:
    """Cast ``x`` to ``dtype_name`` (a name such as ``"float32"`` or a native dtype).

    >>> import numpy as np
    >>> astype(np.arange(2), "float32")
    array([0., 1.], dtype=float32)
    """
    return do("astype", x, dtype_name, **kwargs)


def get_dtype_name(x: Any) -> str:
    """The numpy-style name of ``x``'s dtype, e.g. ``"float32"``.

    Python scalars give numpy's names: ``float`` is ``"float64"``, ``int``
    ``"int64"``, ``complex`` ``"complex128"``, ``bool`` ``"bool"``.

    >>> import numpy as np
    >>> get_dtype_name(np.ones(1, dtype="float32")), get_dtype_name(0.5)
    ('float32', 'float64')
    """
    name = _SCALAR_DTYPES.get(type(x))
    if name is not None:
        return name
    if type(x) is list or type(x) is tuple:
        raise TypeError(
            f"get_dtype_name({short(x)}): a {type(x).__name__} has no dtype; pass an "
            "array or a scalar, e.g. get_dtype_name(do('asarray', x))"
        )
    return do("get_dtype_name", x)


def to_backend_dtype(dtype_name: str, like: Any) -> Any:
    """The native dtype object named ``dtype_name`` on the backend of ``like``.

    >>> to_backend_dtype("float32", like="numpy")
    dtype('float32')
    """
    return do("to_backend_dtype", dtype_name, like=like)


def get_common_dtype(*arrays: Any) -> str:
    """Name of the dtype numpy's promotion rules give these arrays together.

    >>> import numpy as np
    >>> get_common_dtype(np.ones(1, "float32"), np.ones(1, "int64"))
    'float64'
    """
    import numpy as np

    return np.result_type(*(get_dtype_name(a) for a in arrays)).name


def to_device(x: Any, device: Any) -> Any:
    """Move ``x`` to ``device`` (a library device object or a string like ``"cpu"``).

    >>> import numpy as np
    >>> to_device(np.ones(1), "cpu")
    array([1.])
    """
    return do("to_device", x, device)


def is_array(x: Any) -> bool:
    """True if ``x`` is an array of a known library (not a Python scalar or list).

    A library's scalar (``numpy.float64``, what a reduction of numpy returns) is a
    0-d array of that library, as the array API's helpers take it.

    >>> import numpy as np
    >>> is_array(np.ones(1)), is_array(np.float64(1)), is_array([1.0]), is_array(1.0)
    (True, True, False, False)
    """
    t = type(x)
    return (backend_of_type(t) is not None and hasattr(x, "shape")) or (
        scalar_backend(t) is not None
    )


def is_scalar(x: Any) -> bool:
    """True for Python and numpy scalars.

    >>> import numpy as np
    >>> is_scalar(1.5), is_scalar(np.float32(1)), is_scalar(np.ones(1))
    (True, True, False)
    """
    import numpy as np

    return isinstance(x, (numbers.Number, np.generic))


def convert(x: Any, backend: str) -> Any:
    """Convert an array to another library, through DLPack where both sides can,
    numpy otherwise.

    >>> import numpy as np
    >>> convert(np.ones(2), "numpy")
    array([1., 1.])
    """
    target = backend if isinstance(backend, str) else like_backend(backend)
    reg.check_backend(f"convert(x, {short(target)})", target)
    source = backend_of_type(type(x))
    if source == target:
        return x
    tbl = reg.record(target).table
    if hasattr(x, "__dlpack__") and "from_dlpack" in tbl:
        try:
            return resolve(target, "from_dlpack")(x)
        except Exception:  # devices or dtypes DLPack cannot carry: go through numpy
            pass
    return do("from_numpy", to_numpy(x), like=target)


def set_backend(like: Any, set_globally: bool | str = "auto") -> None:
    """Set the default backend for calls that carry no array.

    Parameters
    ----------
    like : str or array
        A backend name or an example array.
    set_globally : bool or "auto"
        True or ``"auto"``: for every thread; False: for the current thread (and
        asyncio task) only, as :func:`backend_like` does within a block.

    Examples
    --------
    >>> set_backend("numpy")
    """
    b = like_backend(like)
    name = _usable_backend(b, f"set_backend({short(b)})")
    if set_globally is False:
        with reg.lock:
            CONTEXTS[0] += 1  # for good: the thread keeps its default
        DEFAULT.set(name)
    else:
        GLOBAL_DEFAULT[0] = name


def _usable_backend(backend: str, where: str) -> str:
    """``backend`` if it names a backend whose library can be loaded: a default
    backend that is not installed would fail every later call far from the
    mistake, so it fails here."""
    reg.check_backend(where, backend)
    try:
        reg.table(backend)
    except BackendNotInstalledError as err:
        raise BackendNotInstalledError(f"{where}: {err}") from err
    return backend


def get_backend(get_globally: bool | str = "auto") -> str:
    """The backend used for calls that carry no array.

    ``get_globally``: ``"auto"`` gives the one in force here (the thread's or
    block's, else the global one), True the global one, False the thread's
    (None if it has none).

    >>> get_backend()
    'numpy'
    """
    if get_globally is True:
        return GLOBAL_DEFAULT[0]
    if get_globally is False:
        return DEFAULT.get()  # type: ignore[return-value]
    return default_backend()


@contextlib.contextmanager
def backend_like(like: Any, set_globally: bool | str = "auto") -> Iterator[str]:
    """Within the block, calls that carry no array use the backend of ``like``.

    Local to the current thread (and asyncio task); with ``set_globally=True``,
    the global default is set for the block instead.

    >>> with backend_like("numpy"):
    ...     do("zeros", 2)
    array([0., 0.])
    """
    b = like_backend(like)
    name = _usable_backend(b, f"backend_like({short(b)})")
    if set_globally is True:
        old = GLOBAL_DEFAULT[0]
        GLOBAL_DEFAULT[0] = name
        try:
            yield name
        finally:
            GLOBAL_DEFAULT[0] = old
        return
    with _context():
        token = DEFAULT.set(name)
        try:
            yield name
        finally:
            DEFAULT.reset(token)


@contextlib.contextmanager
def _context() -> Iterator[None]:
    """Count an open block that sets a context var (see ``dispatch._infer.CONTEXTS``)."""
    with reg.lock:
        CONTEXTS[0] += 1
    try:
        yield
    finally:
        with reg.lock:
            CONTEXTS[0] -= 1


def _check_bits(bits: int | None) -> int | None:
    if bits not in (None, 16, 32, 64):
        raise ValueError(f"precision is 16, 32 or 64 bits (or None), got {bits!r}")
    return bits


@contextlib.contextmanager
def precision(bits: int) -> Iterator[int]:
    """Within the block, float creation routines default to ``float<bits>``.

    Applies to calls whose backend comes from ``like=`` or the default backend
    (``zeros``, ``ones``, ``eye``, ``linspace``, ``random.normal``...); an explicit
    ``dtype=`` always wins. Local to the current thread (and asyncio task).

    >>> with precision(32):
    ...     do("zeros", 2, like="numpy").dtype
    dtype('float32')
    """
    bits = _check_bits(bits)  # type: ignore[assignment]
    with _context():
        token = PRECISION.set(bits)
        try:
            yield bits
        finally:
            PRECISION.reset(token)


def set_precision(bits: int | None) -> None:
    """Set the global float precision (16, 32, 64; None restores library defaults).

    >>> set_precision(None)
    """
    GLOBAL_PRECISION[0] = _check_bits(bits)


def get_precision() -> int | None:
    """The float precision in force (context, else global), or None.

    >>> get_precision() is None
    True
    """
    return current_precision()


def supports(fn: str, backend: Any) -> str | None:
    """How ``fn`` resolves on ``backend``: ``"native"`` (the library or its table),
    ``"composed"``, ``"registered"``, or None where it is unavailable.

    >>> supports("linalg.qr", "numpy")
    'native'
    >>> supports("no_such_function", "numpy") is None
    True
    """
    where = f"supports({short(fn)}, {short(backend)})"
    reg.check_function_name(where, fn)
    b = reg.check_backend(where, like_backend(backend))
    kind = _kind(b, fn)
    return {"table": "native", "native": "native"}.get(
        kind, kind if kind in ("composed", "registered") else None
    )


def _kind(backend: str, name: str) -> str:
    """:func:`~dispatch._resolve.how`, with what cannot resolve here as
    ``'missing'``: a backend whose library is not installed, a table entry whose
    module is missing (scipy's names on a numpy-only install)."""
    try:
        kind = how(backend, name)
        if kind in ("table", "native"):
            resolve(backend, name)  # imports the entry's module, as a call would
    except (BackendNotInstalledError, ImportError):
        return "missing"
    except DispatchError:
        return "missing"
    return kind


def coverage(
    names: Iterable[str] | None = None, backends: Iterable[str] | None = None
) -> dict[str, dict[str, str]]:
    """Coverage matrix ``{name: {backend: kind}}`` over installed backends.

    ``kind`` is ``"native"``, ``"composed"``, ``"registered"``,
    ``"unsupported: <reason>"`` or ``"missing"``.

    >>> coverage(["sum"], ["numpy"])
    {'sum': {'numpy': 'native'}}
    """
    if backends is None:
        backends = [b for b in reg.known_backends() if _installed(b)]
    elif isinstance(backends, str):
        raise TypeError(
            f"coverage(..., backends={backends!r}): pass a list of backend names, "
            f"e.g. [{backends!r}]"
        )
    backends = [reg.check_backend(f"coverage(..., backends=[{b!r}])", b) for b in backends]
    if isinstance(names, str):
        raise TypeError(f"coverage({names!r}): pass a list of names, e.g. [{names!r}]")
    if names is None:
        # every installed table, not only those loaded so far, names the vocabulary
        for b in reg.known_backends():
            _installed(b)
        names = sorted(known_names())
    out: dict[str, dict[str, str]] = {}
    for n in names:
        row = out[n] = {}
        for b in backends:
            kind = _kind(b, n)
            if kind == "unsupported":
                row[b] = "unsupported: " + reg.record(b).table[n].reason
            else:
                row[b] = {"table": "native"}.get(kind, kind)
    return out


def _installed(backend: str) -> bool:
    """Whether ``backend``'s library can be imported: its table loads, and a user
    or implicit backend's root module is importable."""
    try:
        reg.table(backend)
        if reg.has_table(backend):
            return True
        if reg.record(backend).resolver is not None:  # answers every name itself (lazy)
            return True
        importlib.import_module(reg.root_module(backend))
    except (ImportError, DispatchError):
        return False
    return True


__all__ = [
    "astype",
    "backend_like",
    "convert",
    "coverage",
    "from_numpy",
    "get_backend",
    "get_common_dtype",
    "get_dtype_name",
    "get_precision",
    "get_lib_fn",
    "infer_backend",
    "is_array",
    "is_scalar",
    "precision",
    "set_precision",
    "ndim",
    "set_backend",
    "shape",
    "size",
    "supports",
    "to_backend_dtype",
    "to_device",
    "to_numpy",
]
