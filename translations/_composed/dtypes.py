"""numpy's data type routines, and questions about arrays answered without computing
on their values: their dtypes, shapes, layout and memory; written once with ``do``.

Dtypes are read from any library: a numpy dtype or name, a Python type
(``float``), an array of any backend, or a library's own dtype object
(``torch.float32``, ``tf.float32``). The dtype names of the libraries map one to
one onto numpy's, so every answer is numpy's; where numpy answers with a dtype
(``result_type``, ``min_scalar_type``, ``common_type``) the answer is the
dtype object of the backend the call runs on (``torch.float64`` on torch, numpy's
dtype on numpy, jax and dask). A dtype object decides no backend: with no array
in the call, ``like=`` names it (``do("result_type", "int8", 1.5,
like="torch")``); without either the call runs on numpy.

``broadcast_shapes`` and ``einsum_path`` are computed from shapes alone (numpy's
answer for operands of those shapes). ``isfortran``, ``shares_memory`` and
``may_share_memory`` read the layout of arrays that have numpy's ``flags`` and
``__array_interface__`` (numpy's and cupy's); the tables of torch, jax,
tensorflow and dask give their own answer or their reason.
"""

from __future__ import annotations

import numbers
import operator
from typing import Any

import numpy as np
from dispatch.translations._composed.devices import _weak_kind, np_dtype

from dispatch.engine import composed, do, is_array

_KIND_NAMES = frozenset({
    "bool", "signed integer", "unsigned integer", "integral", "real floating",
    "complex floating", "numeric",
})


def as_numpy_dtype(d: Any, name: str = "dtype") -> np.dtype:
    """The numpy dtype of ``d``: a numpy dtype, a name, a Python or numpy type, an
    array of any backend or a library's dtype object (``torch.float32``)."""
    if isinstance(d, np.dtype):
        return d
    if is_array(d):
        return do("dtype_of", d)
    if isinstance(d, (str, type)):
        return np_dtype(d)
    if isinstance(d, np.generic):
        return d.dtype
    # tf.DType's name; torch.float32 and paddle.float32 (whose name is "FLOAT32")
    # print as their module's attribute
    labels = [getattr(d, "name", None), str(d).rsplit(".", 1)[-1]]
    for label in labels:
        if isinstance(label, str):
            try:
                return np_dtype(label)
            except TypeError:
                pass
    raise TypeError(f"{name}: {d!r} is not a dtype nor an array")


def _answer(dt: np.dtype, backend: str) -> Any:
    """``dt`` as the dtype object of ``backend``."""
    return do("to_backend_dtype", dt.name, like=backend)


def _abstract_or_dtype(d: Any, name: str) -> Any:
    """numpy's abstract scalar types (``np.floating``) as they are, else a dtype."""
    if isinstance(d, type) and issubclass(d, np.generic):
        return d
    return as_numpy_dtype(d, name)


@composed("finfo")
def finfo(type: Any) -> np.finfo:
    """numpy's ``finfo`` of a floating or complex dtype given as numpy's, by name, as a
    library's dtype object (``torch.float32``, ``mx.float32``) or as an array of any
    library (its dtype); numpy's ValueError for an integer dtype.

    The libraries' own answer to these (``torch.finfo``, ``mx.finfo``, ``jnp.finfo``,
    which lies in ml_dtypes) take their own dtype objects only, or are not theirs.

    Examples
    --------
    >>> import numpy as np
    >>> do("finfo", "float32", like="numpy").eps
    np.float32(1.1920929e-07)
    """
    return np.finfo(as_numpy_dtype(type, "finfo"))


@composed("iinfo")
def iinfo(type: Any) -> np.iinfo:
    """numpy's ``iinfo`` of an integer dtype given as :func:`finfo`'s; numpy's
    ValueError for a float dtype.

    Examples
    --------
    >>> import numpy as np
    >>> do("iinfo", np.arange(3, dtype="int16")).max
    32767
    """
    return np.iinfo(as_numpy_dtype(type, "iinfo"))


@composed("isdtype")
def isdtype(dtype: Any, kind: Any) -> bool:
    """Whether ``dtype`` is of ``kind``, numpy's (and the array API's) ``isdtype``.

    ``kind`` is a dtype, one of ``'bool'``, ``'signed integer'``, ``'unsigned
    integer'``, ``'integral'``, ``'real floating'``, ``'complex floating'``,
    ``'numeric'``, or a tuple of those. ``dtype`` is a dtype of any library (not an
    array: pass ``x.dtype``).

    Examples
    --------
    >>> do("isdtype", "float32", ("integral", "real floating"))
    True
    >>> do("isdtype", "complex64", "real floating")
    False
    """
    if is_array(dtype):
        raise TypeError(f"isdtype: dtype must be a dtype, not an array ({type(dtype).__name__}); "
                        "pass its .dtype")

    def one(k: Any) -> Any:
        if isinstance(k, str):
            if k not in _KIND_NAMES:
                raise ValueError(f"isdtype: kind {k!r} is not one of {sorted(_KIND_NAMES)}")
            return k
        return as_numpy_dtype(k, "isdtype").type

    kinds = tuple(one(k) for k in kind) if isinstance(kind, tuple) else one(kind)
    return bool(np.isdtype(as_numpy_dtype(dtype, "isdtype"), kinds))


@composed("issubdtype")
def issubdtype(arg1: Any, arg2: Any) -> bool:
    """Whether ``arg1`` is lower than or equal to ``arg2`` in numpy's type hierarchy,
    numpy's ``issubdtype``; both may be dtypes of any library or numpy's abstract
    types (``numpy.floating``, ``numpy.integer``).

    Examples
    --------
    >>> import numpy as np
    >>> do("issubdtype", "float32", np.floating)
    True
    >>> do("issubdtype", "int8", "int64")
    False
    """
    a = _abstract_or_dtype(arg1, "issubdtype")
    b = _abstract_or_dtype(arg2, "issubdtype")
    return bool(np.issubdtype(a, b))


@composed("result_type")
def result_type(*arrays_and_dtypes: Any, backend: str) -> Any:
    """The dtype numpy's promotion gives these arrays, dtypes and Python scalars,
    numpy's ``result_type`` (NEP 50: Python scalars are weak), as the backend's dtype.

    Examples
    --------
    >>> import numpy as np
    >>> do("result_type", np.ones(2, "float32"), 2.0)
    dtype('float32')
    >>> do("result_type", "int8", "uint8")
    dtype('int16')
    """
    if not arrays_and_dtypes:
        raise ValueError("result_type: at least one array or dtype is required")
    parts = [v if _weak_kind(v) is not None else as_numpy_dtype(v, "result_type")
             for v in arrays_and_dtypes]
    return _answer(np.result_type(*parts), backend)


@composed("promote_types")
def promote_types(type1: Any, type2: Any, *, backend: str) -> Any:
    """The smallest dtype to which both dtypes may be safely cast, numpy's
    ``promote_types``, as the backend's dtype (dtypes of any library, names, or
    arrays, whose dtypes are taken).

    Examples
    --------
    >>> do("promote_types", "int8", "uint8", like="numpy")
    dtype('int16')
    >>> do("promote_types", "int32", "float32", like="numpy")
    dtype('float64')
    """
    dt = np.promote_types(as_numpy_dtype(type1, "promote_types"),
                          as_numpy_dtype(type2, "promote_types"))
    return _answer(dt, backend)


@composed("can_cast")
def can_cast(from_: Any, to: Any, casting: str = "safe") -> bool:
    """Whether a cast from the dtype (or array) ``from_`` to the dtype ``to`` can
    occur under the ``casting`` rule ('no', 'equiv', 'safe', 'same_kind',
    'unsafe'), numpy's ``can_cast``.

    Examples
    --------
    >>> do("can_cast", "int32", "float64")
    True
    >>> do("can_cast", "float64", "float32", casting="same_kind")
    True
    >>> do("can_cast", "float64", "int64")
    False
    """
    if _weak_kind(from_) is not None:
        raise TypeError("can_cast: Python scalars are not supported as from_ (numpy 2); "
                        "pass a dtype or an array")
    rule: Any = casting  # numpy's stubs list the rules as literals
    return bool(np.can_cast(as_numpy_dtype(from_, "can_cast"), as_numpy_dtype(to, "can_cast"),
                            casting=rule))


@composed("min_scalar_type")
def min_scalar_type(a: Any, *, backend: str) -> Any:
    """The smallest dtype that holds the scalar ``a`` (its own dtype for an array
    with dimensions), numpy's ``min_scalar_type``, as the backend's dtype.

    Examples
    --------
    >>> do("min_scalar_type", 10)
    dtype('uint8')
    >>> do("min_scalar_type", -260.0)
    dtype('float16')
    """
    if is_array(a):
        if len(tuple(do("shape", a))) == 0:  # a 0-d array: its value decides
            a = np.asarray(do("to_numpy", a))
        else:
            return _answer(do("dtype_of", a), backend)
    return _answer(np.min_scalar_type(a), backend)


@composed("common_type")
def common_type(*arrays: Any, backend: str) -> Any:
    """The inexact type common to the arrays (integers count as float64), numpy's
    ``common_type``: numpy's scalar type (``numpy.float64``) on the libraries whose
    dtypes are numpy's, the library's dtype object elsewhere (``torch.float64``).

    Examples
    --------
    >>> import numpy as np
    >>> do("common_type", np.ones(2, "float32"), np.arange(2))
    <class 'numpy.float64'>
    """
    hosts = [np.empty(0, as_numpy_dtype(a, "common_type")) for a in arrays]
    found = np.dtype(np.common_type(*hosts))
    out = _answer(found, backend)
    return out.type if isinstance(out, np.dtype) else out


@composed("mintypecode")
def mintypecode(typechars: Any, typeset: str = "GDFgdf", default: str = "d") -> str:
    """The character of the smallest type in ``typeset`` to which every type in
    ``typechars`` (type characters, or arrays of any library) can be safely
    cast, numpy's ``mintypecode``.

    Examples
    --------
    >>> do("mintypecode", ["d", "f", "S"])
    'd'
    >>> do("mintypecode", "idF")
    'D'
    """
    if is_array(typechars):
        typechars = [typechars]
    chars = [as_numpy_dtype(t, "mintypecode").char if not isinstance(t, str) else t
             for t in typechars]
    return str(np.mintypecode(chars, typeset, default))


def _shape(s: Any) -> Any:
    if isinstance(s, numbers.Integral) or (is_array(s) and not tuple(do("shape", s))):
        return operator.index(s)
    return tuple(operator.index(int(n)) for n in s)  # torch.Size, tf.TensorShape


@composed("broadcast_shapes")
def broadcast_shapes(*args: Any) -> tuple:
    """The shape the given shapes broadcast to, numpy's ``broadcast_shapes``; shapes
    may be tuples, ints, ``torch.Size`` or ``tf.TensorShape``.

    Examples
    --------
    >>> do("broadcast_shapes", (3, 1), (4,), ())
    (3, 4)
    """
    return tuple(np.broadcast_shapes(*(_shape(s) for s in args)))


@composed("einsum_path")
def einsum_path(subscripts: str, *operands: Any, optimize: Any = "greedy",
                einsum_call: bool = False) -> tuple:
    """numpy's ``einsum_path`` for operands of these shapes: the contraction order
    (a list) and numpy's printed report; only the shapes of the operands are read.

    Examples
    --------
    >>> import numpy as np
    >>> path, report = do("einsum_path", "ij,jk,kl->il", np.ones((2, 3)),
    ...                   np.ones((3, 4)), np.ones((4, 5)), optimize="optimal")
    >>> path
    ['einsum_path', (0, 1), (0, 1)]
    """
    stand_ins = [np.broadcast_to(np.zeros((), as_numpy_dtype(o, "einsum_path")),
                                 tuple(int(n) for n in do("shape", o)))
                 if is_array(o) else o for o in operands]
    report: Any = np.einsum_path  # numpy's stubs allow einsum_call=False only
    return report(subscripts, *stand_ins, optimize=optimize, einsum_call=einsum_call)


# ---------------------------------------------------------------- predicates


def _dtype_of_any(x: Any) -> np.dtype:
    """The dtype numpy would give ``x``: an array's, else ``numpy.asarray(x)``'s."""
    if is_array(x):
        return do("dtype_of", x)
    dt = getattr(x, "dtype", None)
    if dt is not None and not isinstance(x, type):
        return as_numpy_dtype(dt)
    return np.asarray(x).dtype


@composed("iscomplexobj")
def iscomplexobj(x: Any) -> bool:
    """Whether ``x`` has a complex dtype (its values are not read), numpy's
    ``iscomplexobj``.

    Examples
    --------
    >>> import numpy as np
    >>> do("iscomplexobj", np.array([1.0, 2.0]) + 0j)
    True
    >>> do("iscomplexobj", [1.0, 2.0])
    False
    """
    return _dtype_of_any(x).kind == "c"


@composed("isrealobj")
def isrealobj(x: Any) -> bool:
    """Whether ``x`` has no complex dtype (its values are not read), numpy's
    ``isrealobj``.

    Examples
    --------
    >>> import numpy as np
    >>> do("isrealobj", np.array([1 + 0j]))
    False
    """
    return _dtype_of_any(x).kind != "c"


@composed("isscalar")
def isscalar(element: Any) -> bool:
    """Whether ``element`` is a scalar (a Python or numpy number, a string, bytes),
    numpy's ``isscalar``: an array of any library is no scalar, 0-d included.

    Examples
    --------
    >>> import numpy as np
    >>> do("isscalar", 3.5), do("isscalar", np.array(3.5))
    (True, False)
    """
    return bool(np.isscalar(element))


@composed("iterable")
def iterable(y: Any) -> bool:
    """Whether ``iter(y)`` succeeds, numpy's ``iterable``: an array of any library
    is iterable when it has an axis (a 0-d one is not, even where the library's
    ``__iter__`` would start: dask's, pydata sparse's).

    Examples
    --------
    >>> import numpy as np
    >>> do("iterable", np.arange(2)), do("iterable", np.array(1.0))
    (True, False)
    """
    if is_array(y):
        return int(do("ndim", y)) > 0
    return bool(np.iterable(y))


@composed("isfortran")
def isfortran(a: Any) -> bool:
    """Whether ``a`` is laid out in Fortran order and not also in C order, numpy's
    ``isfortran`` (False for a 1-d array, which is both), read from the ``flags`` of
    arrays that have numpy's (cupy's).

    Examples
    --------
    >>> import numpy as np
    >>> do("isfortran", np.asfortranarray(np.ones((2, 3))))
    True
    >>> do("isfortran", np.ones((2, 3)))
    False
    """
    flags = getattr(a, "flags", None)
    if flags is None or not hasattr(flags, "f_contiguous"):
        raise TypeError(f"isfortran: {type(a).__name__} has no memory layout flags")
    return bool(flags.f_contiguous and not flags.c_contiguous)


class _Interface:
    """An object exposing ``__array_interface__`` for a span of memory."""

    def __init__(self, face: dict) -> None:
        self.__array_interface__ = face


def memory_view(ptr: int, shape: tuple, strides: tuple, itemsize: int) -> np.ndarray:
    """A numpy array over the elements at address ``ptr`` with these byte ``strides``:
    a stand-in for another library's array that numpy's memory tests read the
    bounds of (its values are never read, and may lie on a device)."""
    face = {"data": (ptr, False), "shape": tuple(shape), "strides": tuple(strides),
            "typestr": f"|V{itemsize}", "version": 3}
    return np.asarray(_Interface(face))


def _memory(x: Any, name: str) -> tuple[str, np.ndarray | None]:
    """(where, stand-in) of an array exposing numpy's or CUDA's array interface;
    the stand-in is None for an array with no element."""
    faces = [(where, getattr(x, attr, None)) for attr, where in (
        ("__array_interface__", "host"), ("__cuda_array_interface__", "cuda"))]
    found = [(where, face) for where, face in faces if isinstance(face, dict)]
    if not found:
        raise TypeError(f"{name}: {type(x).__name__} exposes no memory (no array interface)")
    where, face = found[0]
    shape = tuple(face["shape"])
    itemsize = np.dtype(face["typestr"]).itemsize
    if not all(shape):
        return where, None
    strides = face.get("strides") or tuple(
        itemsize * int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape)))
    return where, memory_view(face["data"][0], shape, strides, itemsize)


def overlap(test: Any, a: tuple, b: tuple, max_work: Any) -> bool:
    """numpy's memory ``test`` of two (where, stand-in) pairs."""
    (wa, va), (wb, vb) = a, b
    if wa != wb or va is None or vb is None:
        return False
    return bool(test(va, vb, max_work))


@composed("shares_memory")
def shares_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    """Whether ``a`` and ``b`` have an element in common memory (exactly), numpy's
    ``shares_memory``, for arrays exposing numpy's or CUDA's array interface.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(6)
    >>> do("shares_memory", x[::2], x[1::2]), do("shares_memory", x[:3], x[2:])
    (False, True)
    """
    return overlap(np.shares_memory, _memory(a, "shares_memory"), _memory(b, "shares_memory"),
                   max_work)


@composed("may_share_memory")
def may_share_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    """Whether the memory bounds of ``a`` and ``b`` overlap (a quick test that can
    say True when no element is shared), numpy's ``may_share_memory``, for arrays
    exposing numpy's or CUDA's array interface.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(6)
    >>> do("may_share_memory", x[::2], x[1::2])
    True
    """
    return overlap(np.may_share_memory, _memory(a, "may_share_memory"),
                   _memory(b, "may_share_memory"), max_work)
