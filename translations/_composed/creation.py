"""Creation routines written once with ``do``.

The backend method list's creation methods: ``as_tensor``, ``range`` and
``linspace_without_last`` create arrays from no array, so they need to know the
backend: they are bound to each library in its table (see :mod:`._bound`)
rather than registered as composed fallbacks; ``meshgrid_ij`` (numpy's
``meshgrid`` defaults to 'xy') and ``copy_leaves`` are composed.

numpy creation routines that some libraries lack: ``geomspace``, ``logspace``,
``random.rand``, ``random.randn``, and the index routines ``tril_indices``,
``triu_indices`` and ``diag_indices`` (int64 index arrays worked out on the host
from the sizes alone, as numpy does, then made arrays of the library);
``tril_indices_from`` and ``triu_indices_from``, which take an array, are
composed.

They create arrays from numbers, with no array to decide the library, so they
take the backend as a keyword and are bound in the tables of the libraries that
lack them (``fill_entries`` in :mod:`._bound`), never registered as composed
fallbacks: a library's own function of the same name stays where it exists.
``do("geomspace", 1, 100, 3, like="torch")`` reaches them like any creation
routine; an example array as ``like=`` also gives its dtype.

Without ``dtype`` the values are computed in the library's default float type
(float32 on torch, float64 on dask) where numpy always uses float64; with
``dtype`` they are computed at least as wide as numpy would, then cast.
"""

from __future__ import annotations

import numbers
import operator
from typing import Any

import numpy as np
from dispatch.translations._composed.devices import np_dtype

from dispatch.engine import backend_of_type, composed, do, get_precision, is_array, tree_map


def _np(dtype: Any) -> np.dtype:
    """A numpy dtype from a name, a numpy dtype or a library's dtype object (``like=``
    an array passes ``torch.float32``, ``tf.float32``...)."""
    try:
        return np_dtype(dtype)
    except TypeError:
        return np_dtype(getattr(dtype, "name", None) or str(dtype).rsplit(".", 1)[-1])


def _operand(value: Any, backend: str, dtype: np.dtype | None, device: Any) -> Any:
    """``value`` (a number, a list, a numpy or backend array) as an inexact backend
    array: Python numbers and integers become the library's default float (numpy's
    float64 is numpy's default: docs/vocabulary.md, dtypes), backend arrays too
    (``x * 1.0``)."""
    if is_array(value) and backend_of_type(type(value)) == backend:
        out = value if dtype is None else do("astype", value, dtype.name)
        return out if do("dtype_of", out).kind in "fc" else out * 1.0
    if dtype is None and (
        isinstance(value, (bool, int, float)) or np.asarray(value).dtype.kind not in "fc"
    ):
        dtype = do("dtype_of", do("zeros", 0, like=backend))
    where = {} if device is None else {"device": device}
    return do("asarray", value, dtype=None if dtype is None else dtype.name, like=backend, **where)


def _compute_dtype(start: Any, stop: Any, dtype: Any) -> np.dtype | None:
    """numpy's evaluation dtype when ``dtype`` is given (at least float), and when the
    endpoints that are arrays are all inexact (numpy's promotion, Python numbers weak:
    float32 endpoints stay float32); else None."""
    if dtype is None:
        typed = [do("dtype_of", v) for v in (start, stop) if is_array(v)]
        if not typed or any(t.kind not in "fc" for t in typed):
            return None
        weak = [v for v in (start, stop) if isinstance(v, (int, float, complex))]
        return np.result_type(*typed, *weak)
    kinds = [do("dtype_of", v) if is_array(v) else np.asarray(v).dtype for v in (start, stop)]
    return np.result_type(*kinds, _np(dtype), 1.0)


def _num(num: Any) -> int:
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    return num


def _lead(x: Any, shape: tuple) -> Any:
    """``x`` broadcast to ``shape`` with a new leading axis of length 1."""
    return do("reshape", do("broadcast_to", x, shape), (1, *shape))


def _linspace(start: Any, stop: Any, num: int, endpoint: bool, backend: str, device: Any) -> Any:
    """numpy's linspace along a new leading axis, for backend-array ``start``/``stop``
    (broadcast together), in numpy's arithmetic: ``arange(num) * step + start``."""
    delta = stop - start
    dt = do("dtype_of", delta)
    real = np.finfo(dt).dtype if dt.kind == "c" else dt
    shape = do("shape", delta)
    where = {} if device is None else {"device": device}
    idx = do("arange", num, dtype=real.name, like=backend, **where)
    idx = do("reshape", idx, (num,) + (1,) * len(shape))
    if dt.kind == "c":  # tensorflow multiplies equal dtypes only
        idx = do("astype", idx, dt.name)
    div = num - 1 if endpoint else num
    y = idx * (delta / div) if div > 0 else idx * delta
    y = y + start
    if endpoint and num > 1:
        y = do("concatenate", [y[:-1], do("astype", _lead(stop, shape), do("get_dtype_name", y))])
    return y


def _finish(y: Any, axis: int, dtype: Any) -> Any:
    if axis != 0:
        y = do("moveaxis", y, 0, axis)
    return y if dtype is None else do("astype", y, _np(dtype).name)


def logspace(
    start: Any,
    stop: Any,
    num: int = 50,
    endpoint: bool = True,
    base: Any = 10.0,
    dtype: Any = None,
    axis: int = 0,
    *,
    device: Any = None,
    backend: str,
) -> Any:
    """``base ** linspace(start, stop, num)``: numbers spaced evenly on a log scale.

    numpy's ``logspace`` (an array ``base`` included, broadcast with ``start``
    and ``stop``), composed of ``arange``, arithmetic and ``power``, so it
    stays lazy on dask.

    Examples
    --------
    >>> from dispatch.translations._composed.creation import logspace
    >>> logspace(0, 3, 4, backend="numpy")
    array([   1.,   10.,  100., 1000.])
    >>> logspace(0, 3, 3, endpoint=False, base=2.0, backend="numpy")
    array([1., 2., 4.])
    """
    num = _num(num)
    ct = _compute_dtype(start, stop, dtype)
    s, e = _operand(start, backend, ct, device), _operand(stop, backend, ct, device)
    if not isinstance(base, (int, float)) and np.ndim(base):
        # an array base decides the shape of the other axes, as in numpy
        b = _operand(base, backend, None, device)
        shape = np.broadcast_shapes(*(tuple(do("shape", v)) for v in (s, e, b)))
        s, e = do("broadcast_to", s, shape), do("broadcast_to", e, shape)
        base = do("reshape", do("broadcast_to", b, shape), (1, *shape))
    elif not is_array(base):
        base = np.asarray(base).item()  # a numpy scalar would take the backend array over
    y = _linspace(s, e, num, endpoint, backend, device)
    return _finish(do("power", base, y) if is_array(base) else base**y, axis, dtype)


def geomspace(
    start: Any,
    stop: Any,
    num: int = 50,
    endpoint: bool = True,
    dtype: Any = None,
    axis: int = 0,
    *,
    device: Any = None,
    backend: str,
) -> Any:
    """Numbers spaced evenly on a log scale from ``start`` to ``stop`` (a geometric
    progression), with numpy's exact endpoints.

    Negative ranges and complex values work as in numpy: ``start`` is rotated
    to the positive real axis, the progression computed, then rotated back.
    Composed of ``arange``, ``log10``, arithmetic and ``concatenate``, so it
    stays lazy on dask. Limit: a zero in Python or numpy ``start``/``stop``
    raises ValueError as in numpy, but a zero inside a backend array gives
    nan or inf there (checking would compute lazy arrays).

    Examples
    --------
    >>> from dispatch.translations._composed.creation import geomspace
    >>> geomspace(1, 1000, 4, backend="numpy")
    array([   1.,   10.,  100., 1000.])
    >>> geomspace(-1000, -1, 4, backend="numpy")
    array([-1000.,  -100.,   -10.,    -1.])
    >>> geomspace(1, 16, 4, endpoint=False, backend="numpy")
    array([1., 2., 4., 8.])
    >>> geomspace(1, 1000, 4, dtype="int64", backend="numpy")  # truncated, as numpy
    array([   1,   10,  100, 1000])
    """
    num = _num(num)
    host = [v for v in (start, stop) if not is_array(v) or isinstance(v, np.ndarray)]
    if any(np.any(np.asarray(v) == 0) for v in host):
        raise ValueError("Geometric sequence cannot include zero")
    ct = _compute_dtype(start, stop, dtype)
    s, e = _operand(start, backend, ct, device), _operand(stop, backend, ct, device)
    # numpy's sign: +-1 for reals, x / |x| for complex (|x| cast back: tensorflow
    # divides equal dtypes only)
    sign = s / do("astype", do("abs", s), do("get_dtype_name", s))
    s, e = s / sign, e / sign
    y = 10.0 ** _linspace(do("log10", s), do("log10", e), num, endpoint, backend, device)
    if num > 0:  # exact endpoints: 10 ** log10(x) need not be x
        shape = tuple(do("shape", y))[1:]
        name = do("get_dtype_name", y)
        first = do("astype", _lead(s, shape), name)
        if num > 1 and endpoint:
            last = do("astype", _lead(e, shape), name)
            y = do("concatenate", [first, y[1:-1], last])
        else:
            y = do("concatenate", [first, y[1:]])
    return _finish(y * sign, axis, dtype)


def rand(*shape: int, backend: str) -> Any:
    """Uniform values in [0, 1) of the given dimensions (numpy's ``random.rand``),
    from the library's ``random.random``, so ``random.seed`` repeats them.

    With no dimension the result is a 0-d array where numpy returns a float.

    Examples
    --------
    >>> from dispatch.translations._composed.creation import rand
    >>> rand(2, 3, backend="numpy").shape
    (2, 3)
    """
    return do("random.random", size=tuple(operator.index(d) for d in shape), like=backend)


def randn(*shape: int, backend: str) -> Any:
    """Standard normal values of the given dimensions (numpy's ``random.randn``),
    from the library's ``random.standard_normal``, so ``random.seed`` repeats them.

    With no dimension the result is a 0-d array where numpy returns a float.

    Examples
    --------
    >>> from dispatch.translations._composed.creation import randn
    >>> randn(4, backend="numpy").shape
    (4,)
    """
    size = tuple(operator.index(d) for d in shape)
    return do("random.standard_normal", size=size, like=backend)


# ---------------------------------------------------------------- creation (bound)


def as_tensor(x: Any, convert_external: bool = True, *, backend: str) -> Any:
    """``x`` (a list, a number, a numpy array or an array) as an array of the library.

    An array of the library is returned as it is. Floats are cast to the current
    precision when one is set (``dispatch.precision``); ``convert_external=False``
    returns Python numbers as they are.

    Examples
    --------
    >>> do("as_tensor", [1.0, 2.0], like="numpy")
    array([1., 2.])
    >>> from dispatch import precision
    >>> with precision(32):
    ...     do("as_tensor", [1.0, 2.0], like="numpy")
    array([1., 2.], dtype=float32)
    >>> do("as_tensor", 3, convert_external=False, like="numpy")
    3
    """
    if not convert_external and isinstance(x, numbers.Number):
        return x
    out = x if is_array(x) and _owned(x, backend) else do("asarray", x, like=backend)
    return do("auto_cast1", out) if get_precision() is not None else out


def _owned(x: Any, backend: str) -> bool:
    from dispatch.engine import backend_of_type

    return backend_of_type(type(x)) == backend


def range_(
    start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None, *, backend: str
) -> Any:
    """``arange(start, limit, delta)``, int32 unless ``dtype`` says otherwise.

    With one bound, the values run from 0 up to ``start`` (excluded), as Python's
    ``range``.

    Examples
    --------
    >>> do("range", 4, like="numpy")
    array([0, 1, 2, 3], dtype=int32)
    >>> do("range", 2, 11, 4, like="numpy")
    array([ 2,  6, 10], dtype=int32)
    """
    if limit is None:
        start, limit = 0, start
    return do("arange", start, limit, delta, dtype=dtype or "int32", like=backend)


def linspace_without_last(start: Any, stop: Any, number: int, *, backend: str) -> Any:
    """``number`` evenly spaced values from ``start`` to ``stop``, ``stop`` excluded
    (``linspace(start, stop, number + 1)`` without its last value).

    Examples
    --------
    >>> do("linspace_without_last", 0, 1, 4, like="numpy")
    array([0.  , 0.25, 0.5 , 0.75])
    """
    return do("linspace", start, stop, number + 1, like=backend)[:-1]


# ---------------------------------------------------------------- creation (composed)


@composed("meshgrid_ij")
def meshgrid_ij(*coordinates: Any) -> tuple:
    """``numpy.meshgrid(*coordinates, indexing='ij')`` as a tuple (the list's
    ``meshgrid``).

    Examples
    --------
    >>> import numpy as np
    >>> [g.shape for g in do("meshgrid_ij", np.arange(2), np.arange(3))]
    [(2, 3), (2, 3)]
    """
    return tuple(do("meshgrid", *coordinates, indexing="ij"))


@composed("copy_leaves")
def copy_leaves(tree: Any, only_mutable: bool = False) -> Any:
    """Copy every array leaf of a nested tuple/list/dict; other leaves stay.

    ``only_mutable`` is accepted for the list's signature; every leaf is
    copied (a copy of an immutable array is cheap and harmless).

    Examples
    --------
    >>> import numpy as np
    >>> a = np.zeros(2)
    >>> out = do("copy_leaves", {"a": a, "n": 3})
    >>> out["a"] is a, out["n"]
    (False, 3)
    """
    return tree_map(lambda x: do("copy", x), tree)


# ---------------------------------------------------------------- index routines


def _indices_of(found: tuple, like: Any) -> tuple:
    return tuple(do("asarray", i.astype(np.int64), like=like) for i in found)


def tril_indices(n: int, k: int = 0, m: Any = None, *, backend: str) -> tuple:
    """Row and column indices of the lower triangle of an (n, m) array (diagonal
    ``k`` and below), numpy's ``tril_indices``.

    Examples
    --------
    >>> do("tril_indices", 3, -1, like="numpy")
    (array([1, 2, 2]), array([0, 0, 1]))
    """
    return _indices_of(np.tril_indices(operator.index(n), k, m), backend)


def triu_indices(n: int, k: int = 0, m: Any = None, *, backend: str) -> tuple:
    """Row and column indices of the upper triangle of an (n, m) array (diagonal
    ``k`` and above), numpy's ``triu_indices``.

    Examples
    --------
    >>> do("triu_indices", 2, 0, 3, like="numpy")
    (array([0, 0, 0, 1, 1]), array([0, 1, 2, 1, 2]))
    """
    return _indices_of(np.triu_indices(operator.index(n), k, m), backend)


def diag_indices(n: int, ndim: int = 2, *, backend: str) -> tuple:
    """``ndim`` copies of ``arange(n)``: the indices of the main diagonal of an
    (n, ..., n) array, numpy's ``diag_indices``.

    Examples
    --------
    >>> do("diag_indices", 2, like="numpy")
    (array([0, 1]), array([0, 1]))
    """
    return _indices_of(np.diag_indices(operator.index(n), operator.index(ndim)), backend)


def mask_indices(n: int, mask_func: Any, k: Any = 0, *, backend: str) -> tuple:
    """The indices of the non-zero entries of ``mask_func(ones((n, n)), k)``,
    numpy's ``mask_indices`` (``mask_func`` is called on a numpy array of ints,
    as numpy calls it: ``triu``, ``tril`` or any function of the same form).

    Examples
    --------
    >>> import numpy as np
    >>> do("mask_indices", 3, np.triu, 1, like="numpy")
    (array([0, 0, 1]), array([1, 2, 2]))
    """
    if not callable(mask_func):
        raise TypeError(f"mask_indices: mask_func must be callable, not {type(mask_func)}")
    mask = np.asarray(do("to_numpy", mask_func(np.ones((operator.index(n),) * 2, int), k)))
    return _indices_of(np.nonzero(mask != 0), backend)


def _triangle_from(name: str, arr: Any, k: int) -> tuple:
    shape = tuple(do("shape", arr))
    if len(shape) != 2:
        raise ValueError(f"{name}: input array must be 2-d, got {len(shape)} dimensions")
    found = getattr(np, name[:-5])(int(shape[0]), k, int(shape[1]))
    return _indices_of(found, arr)


@composed("tril_indices_from")
def tril_indices_from(arr: Any, k: int = 0) -> tuple:
    """``tril_indices`` for the shape of the 2-d ``arr``, numpy's ``tril_indices_from``.

    Examples
    --------
    >>> import numpy as np
    >>> do("tril_indices_from", np.zeros((2, 3)), k=1)
    (array([0, 0, 1, 1, 1]), array([0, 1, 0, 1, 2]))
    """
    return _triangle_from("tril_indices_from", arr, k)


@composed("triu_indices_from")
def triu_indices_from(arr: Any, k: int = 0) -> tuple:
    """``triu_indices`` for the shape of the 2-d ``arr``, numpy's ``triu_indices_from``.

    Examples
    --------
    >>> import numpy as np
    >>> do("triu_indices_from", np.zeros((3, 2)), k=-1)
    (array([0, 0, 1, 1, 2]), array([0, 1, 0, 1, 1]))
    """
    return _triangle_from("triu_indices_from", arr, k)


@composed("diag_indices_from")
def diag_indices_from(arr: Any) -> tuple:
    """``diag_indices`` for ``arr``, whose sides must all be equal (at least 2-d),
    numpy's ``diag_indices_from``.

    Examples
    --------
    >>> import numpy as np
    >>> do("diag_indices_from", np.zeros((3, 3)))
    (array([0, 1, 2]), array([0, 1, 2]))
    """
    shape = tuple(int(n) for n in do("shape", arr))
    if len(shape) < 2:
        raise ValueError("diag_indices_from: input array must be at least 2-d")
    if len(set(shape)) != 1:
        raise ValueError("diag_indices_from: all dimensions of input must be of equal length")
    return _indices_of(np.diag_indices(shape[0], len(shape)), arr)


# ---------------------------------------------------------------- conversions


def copy_needed(name: str, backend: str, why: str) -> ValueError:
    """numpy's ``ValueError`` of ``copy=False`` where the result cannot share the
    input's memory (``asarray``, ``array``): never a copy behind the caller's back."""
    return ValueError(f"Unable to avoid copy while creating an array as requested: "
                      f"do({name!r}) on backend {backend!r} with copy=False needs a copy "
                      f"({why}); pass copy=None to copy only where needed")


def _layout(x: Any, order: Any, copy: Any = None, name: str = "", backend: str = "") -> Any:
    """``x`` in the memory ``order`` asked for ('C' or 'F'; None, 'K' and 'A' keep it;
    any other is numpy's ValueError); a 0-d array stays 0-d and a 1-d one is C and F
    at once. With ``copy=False``, numpy's ValueError where the layout is a new array
    (``name`` and ``backend`` name the call in it)."""
    if order not in ("C", "F", "c", "f"):
        if order is None or order in ("K", "A", "k", "a"):
            return x
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    ndim = len(tuple(do("shape", x)))
    if ndim == 0:
        return x
    laid = do("asfortranarray" if order in "Ff" and ndim > 1 else "ascontiguousarray", x)
    if copy is False and laid is not x:
        raise copy_needed(name, backend, f"a layout in order {order!r}")
    return laid


def _as(a: Any, dtype: Any, backend: str, **where: Any) -> Any:
    return do("asarray", a, like=backend, **({"dtype": dtype} if dtype is not None else {}),
              **{k: v for k, v in where.items() if v is not None})


@composed("asanyarray")
def asanyarray(a: Any, dtype: Any = None, order: Any = None, *, device: Any = None,
               copy: bool | None = None, backend: str) -> Any:
    """``a`` as an array of the library, numpy's ``asanyarray``: the libraries have no
    array subclasses, so it is ``asarray`` (``order`` 'C' or 'F' lays it out so).

    Examples
    --------
    >>> do("asanyarray", [[1, 2], [3, 4]], dtype="float32")
    array([[1., 2.],
           [3., 4.]], dtype=float32)
    """
    return _layout(_as(a, dtype, backend, device=device, copy=copy), order, copy,
                   "asanyarray", backend)


@composed("ascontiguousarray")
def ascontiguousarray(a: Any, dtype: Any = None, *, backend: str) -> Any:
    """``a`` as an array laid out in C order with at least one dimension, numpy's
    ``ascontiguousarray`` (no copy when it already is). Here: the libraries whose
    arrays are always in C order (jax, tensorflow, dask); torch and numpy have their
    own.

    Examples
    --------
    >>> import numpy as np
    >>> do("ascontiguousarray", np.ones((2, 3)).T).flags.c_contiguous
    True
    >>> do("ascontiguousarray", 2.5)
    array([2.5])
    """
    out = _as(a, dtype, backend)
    return do("reshape", out, (1,)) if not tuple(do("shape", out)) else out


@composed("asarray_chkfinite")
def asarray_chkfinite(a: Any, dtype: Any = None, order: Any = None, *, backend: str) -> Any:
    """``a`` as an array, raising ``ValueError`` if a float or complex result holds
    an infinity or a NaN, numpy's ``asarray_chkfinite`` (the values are read).

    Examples
    --------
    >>> do("asarray_chkfinite", [1.0, 2.0])
    array([1., 2.])
    >>> do("asarray_chkfinite", [1.0, float("nan")])
    Traceback (most recent call last):
    ...
    ValueError: array must not contain infs or NaNs
    (raised inside dispatch.do('asarray_chkfinite') on backend 'numpy')
    """
    out = _layout(_as(a, dtype, backend), order)
    if do("dtype_of", out).kind in "fc" and not bool(do("all", do("isfinite", out))):
        raise ValueError("array must not contain infs or NaNs")
    return out


_REQUIREMENTS = {
    "C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
    "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O",
    "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E",
}


def requirements_of(requirements: Any) -> set[str]:
    """numpy's flags of ``require`` (a string is read letter by letter, as numpy does)."""
    if not requirements:
        return set()
    out: set[str] = set()
    for r in requirements:
        key = str(r).upper()
        if key not in _REQUIREMENTS:
            raise KeyError(f"require: unknown requirement {r!r} (one of "
                           f"{', '.join(sorted(_REQUIREMENTS))})")
        out.add(_REQUIREMENTS[key])
    if {"C", "F"} <= out:
        raise ValueError('Cannot specify both "C" and "F" order')
    return out


@composed("require")
def require(a: Any, dtype: Any = None, requirements: Any = None, *, backend: str) -> Any:
    """``a`` as an array of ``dtype`` meeting the ``requirements`` ('C' or 'F'
    order, 'O' owning its data: a copy of an existing array, 'A' aligned, 'W'
    writeable, 'E' an array), numpy's ``require``. The tables of libraries whose
    arrays cannot be written refuse 'W'.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(6.0).reshape(2, 3).T
    >>> y = do("require", x, "float32", ["C", "O"])
    >>> y.flags.c_contiguous, y.dtype
    (True, dtype('float32'))
    """
    reqs = requirements_of(requirements)
    out = _as(a, dtype, backend)
    if "C" in reqs or "F" in reqs:
        out = _layout(out, "C" if "C" in reqs else "F")
    if "O" in reqs and out is a:
        out = do("copy", out)
    return out


def immutable_require(backend: str, reason: str) -> Any:
    """``require`` for a library whose arrays cannot be written: 'W' is refused with
    ``reason``."""

    def require_immutable(a: Any, dtype: Any = None, requirements: Any = None) -> Any:
        if "W" in requirements_of(requirements):
            raise ValueError(f"require: 'W' (writeable) cannot be met on {backend}: {reason}")
        return require(a, dtype, requirements, backend=backend)

    return require_immutable


def one_layout_asfortranarray(backend: str) -> Any:
    """``asfortranarray`` for a library whose arrays have one memory layout or none
    (immutable buffers, lazy graphs, coordinates): numpy's answer, an array equal to
    ``a`` with at least one dimension. No order can be asked of such an array, and
    none can be observed in it."""

    def asfortranarray(a: Any, dtype: Any = None) -> Any:
        out = ascontiguousarray(a, dtype, backend=backend)
        # numpy lays a C-ordered matrix out anew: a copy, never the input itself
        return do("copy", out) if out is a else out

    return asfortranarray


# ---------------------------------------------------------------- from Python values


@composed("fromfunction")
def fromfunction(function: Any, shape: Any, *, dtype: Any = float, backend: str,
                 **kwargs: Any) -> Any:
    """``function(*indices)``, called once with one index array per axis of
    ``shape`` (of ``dtype``), numpy's ``fromfunction``; the backend is named with
    ``like=``.

    Examples
    --------
    >>> do("fromfunction", lambda i, j: i + 10 * j, (2, 3), dtype=int, like="numpy")
    array([[ 0, 10, 20],
           [ 1, 11, 21]])
    """
    shape = tuple(operator.index(n) for n in shape)
    grid = do("indices", shape, dtype=_np(dtype).name, like=backend)
    return function(*(grid[i] for i in range(len(shape))), **kwargs)


@composed("fromiter")
def fromiter(iter: Any, dtype: Any, count: int = -1, *, backend: str) -> Any:
    """A 1-d array of ``dtype`` from the values of an iterable (the first ``count``
    of them, all when -1), numpy's ``fromiter``; the backend is named with ``like=``.

    Examples
    --------
    >>> do("fromiter", (i * i for i in range(4)), "float32", like="numpy")
    array([0., 1., 4., 9.], dtype=float32)
    """
    return do("asarray", np.fromiter(iter, _np(dtype), count), like=backend)
# ---------------------------------------------------------------- window functions


def _window_length(M: Any) -> int:
    """numpy's window length: an integer (a float holding one is taken)."""
    if isinstance(M, float) and M.is_integer():
        return int(M)
    return operator.index(M)


def _symmetric(M: Any, backend: str, weights: Any) -> Any:
    """A window of ``M`` points symmetric about its middle, ``weights(k / (M - 1))`` at
    ``k = 1 - M, 3 - M, ..., M - 1`` (numpy's layout), in the library's default float;
    empty below 1 point, ``[1.]`` at 1."""
    n = _window_length(M)
    if n < 2:
        return do("ones", max(n, 0), like=backend)
    dt = do("dtype_of", do("zeros", 0, like=backend))
    k = do("astype", do("arange", 1 - n, n, 2, like=backend), dt)
    return weights(k / (n - 1))


def _cosines(a0: float, a1: float, a2: float) -> Any:
    def weights(t: Any) -> Any:
        out = a0 + a1 * do("cos", np.pi * t)
        return out if a2 == 0 else out + a2 * do("cos", 2.0 * np.pi * t)

    return weights


def hamming(M: Any, *, backend: str) -> Any:
    """The Hamming window, numpy's ``hamming``: ``0.54 + 0.46 cos(pi k / (M - 1))``.

    Examples
    --------
    >>> do("hamming", 5, like="numpy")
    array([0.08, 0.54, 1.  , 0.54, 0.08])
    """
    return _symmetric(M, backend, _cosines(0.54, 0.46, 0.0))


def hanning(M: Any, *, backend: str) -> Any:
    """The Hann window, numpy's ``hanning``: ``0.5 + 0.5 cos(pi k / (M - 1))``.

    Examples
    --------
    >>> do("hanning", 5, like="numpy")
    array([0. , 0.5, 1. , 0.5, 0. ])
    """
    return _symmetric(M, backend, _cosines(0.5, 0.5, 0.0))


def blackman(M: Any, *, backend: str) -> Any:
    """The Blackman window, numpy's ``blackman``:
    ``0.42 + 0.5 cos(pi k / (M - 1)) + 0.08 cos(2 pi k / (M - 1))``.

    Examples
    --------
    >>> do("blackman", 3, like="numpy").round(8)
    array([-0.,  1., -0.])
    """
    return _symmetric(M, backend, _cosines(0.42, 0.5, 0.08))


def bartlett(M: Any, *, backend: str) -> Any:
    """The Bartlett (triangular) window, numpy's ``bartlett``: ``1 - |k| / (M - 1)``.

    Examples
    --------
    >>> do("bartlett", 5, like="numpy")
    array([0. , 0.5, 1. , 0.5, 0. ])
    """
    return _symmetric(M, backend, lambda t: do("where", t <= 0, 1.0 + t, 1.0 - t))


def kaiser(M: Any, beta: Any, *, backend: str) -> Any:
    """The Kaiser window, numpy's ``kaiser``:
    ``i0(beta sqrt(1 - ((n - a) / a)**2)) / i0(beta)``, ``n = 0 .. M - 1``,
    ``a = (M - 1) / 2``.

    Examples
    --------
    >>> do("kaiser", 4, 5.0, like="numpy")
    array([0.03671089, 0.7753221 , 0.7753221 , 0.03671089])
    """
    n, b = _window_length(M), float(beta)
    if n < 2:
        return do("ones", max(n, 0), like=backend)
    dt = do("dtype_of", do("zeros", 0, like=backend))
    alpha = (n - 1) / 2.0
    t = (do("astype", do("arange", n, like=backend), dt) - alpha) / alpha
    return do("i0", b * do("sqrt", 1.0 - t * t)) / float(np.i0(b))
