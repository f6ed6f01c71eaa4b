"""pydata sparse: creation routines, stored as sparse arrays.

pydata's own ``zeros``/``ones``/``full``/``eye`` and ``*_like`` with numpy's
default dtype; numpy's other routines (``arange``, ``linspace``, ``tri``...)
computed by numpy and stored as a COO (their results depend on no input);
``meshgrid``, ``diag`` and ``diagflat`` from the stored entries, and ``tril``/
``triu`` keeping the stored entries on one side of a diagonal.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import sparse
from dispatch.translations._adapters import numpy_container
from dispatch.translations._keywords import check_order, host_device
from dispatch.translations.sparse._common import dense, owned, sp, zero_fill
from sparse import COO, SparseArray

_broadcast_to = sparse.broadcast_to  # bound here: meshgrid's ``sparse`` keyword hides the module


def _zeros(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> SparseArray:
    _checked("zeros", order, device)
    return sparse.zeros(shape, dtype=dtype or float)


def _ones(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> SparseArray:
    _checked("ones", order, device)
    return sparse.ones(shape, dtype=dtype or float)


def _empty(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> SparseArray:
    _checked("empty", order, device)
    return sparse.zeros(shape, dtype=dtype or float)


def _full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *,
          device: Any = None) -> SparseArray:
    _checked("full", order, device)
    return sparse.full(shape, fill_value, dtype=dtype or np.asarray(fill_value).dtype)


def _eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, order: str = "C", *,
         device: Any = None) -> COO:
    _checked("eye", order, device)
    return sparse.eye(N, M, k=k, dtype=dtype or float)


def _identity(n: int, dtype: Any = None) -> COO:
    return sparse.eye(n, dtype=dtype or float)


def _checked(name: str, order: Any, device: Any) -> None:
    # a sparse array is coordinates and values: no memory order to lay out (numpy's
    # answer without the order is the same array), and it lives in host memory
    check_order(order)
    host_device(name, "sparse", device)


def _from_numpy_creation(fn: Any) -> Any:
    """A numpy creation routine whose (new, input-free) result is stored as a COO."""

    @functools.wraps(fn)
    def create(*args: Any, **kwargs: Any) -> COO:
        host_device(fn.__name__, "sparse", kwargs.pop("device", None))
        # array parameters (geomspace's start, logspace's base) are read densely
        args = tuple(dense(a) if isinstance(a, SparseArray) else a for a in args)
        kwargs = {k: dense(v) if isinstance(v, SparseArray) else v for k, v in kwargs.items()}
        return COO.from_numpy(np.asarray(fn(*args, **kwargs)))

    return create


def _like(name: str, native: str | None = None) -> Any:
    fn = getattr(sparse, native or name)

    def like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True,
             shape: Any = None, *, device: Any = None) -> Any:
        _checked(name, order, device)
        return fn(sp(a), dtype=dtype, shape=shape)

    like.__name__ = like.__qualname__ = f"_{name}"
    return like


def _full_like(a: Any, fill_value: Any, dtype: Any = None, order: str = "K",
               subok: bool = True, shape: Any = None, *, device: Any = None) -> Any:
    _checked("full_like", order, device)
    return sparse.full_like(sp(a), fill_value, dtype=dtype, shape=shape)


def _copy(x: Any) -> SparseArray:
    return sp(x).copy()


def _meshgrid(*xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> list:
    # ``copy=False`` allows numpy to return views: the copies made here are equal
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xi = tuple(sp(x).reshape((-1,)) for x in xi)
    shape = [x.shape[0] for x in xi]
    if indexing == "xy" and len(xi) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(xi):
        dim = i
        if indexing == "xy" and len(xi) > 1 and i < 2:
            dim = 1 - i
        s = [1] * len(xi)
        s[dim] = x.shape[0]
        grid = x.reshape(tuple(s))
        # numpy copies; pydata broadcasting to the same shape keeps the input's buffers
        out.append(owned(grid if sparse else _broadcast_to(grid, tuple(shape)), x))
    return out


def _diag(v: Any, k: int = 0) -> SparseArray:
    v = sp(v)
    if v.ndim == 2:
        return sparse.diagonal(v, offset=k)
    if v.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    # a diagonal matrix from a vector: its stored entries become the diagonal
    v = COO(v) if not isinstance(v, COO) else v
    n = v.shape[0] + abs(k)
    if v.fill_value != 0:
        # every diagonal entry is then nonzero: store all of them
        idx = np.arange(v.shape[0])
        data = v.todense()
    else:
        idx, data = v.coords[0], v.data.copy()  # numpy's diag of a vector is a new array
    coords = np.stack([idx + max(-k, 0), idx + max(k, 0)])
    return COO(coords, data, shape=(n, n), has_duplicates=False)


def _diagflat(v: Any, k: int = 0) -> SparseArray:
    return _diag(sp(v).reshape((-1,)), k)


def _tri_part(name: str) -> Any:
    def part(m: Any, k: int = 0) -> SparseArray:
        # keep the stored entries on the right side of the k-th diagonal of the
        # last two axes (sparse's own tril/triu take 2-D matrices only)
        m = zero_fill(m)
        if m.ndim < 2:
            raise ValueError(f"{name}: input must be at least 2-D")
        c = COO(m)
        offset = c.coords[-1].astype(np.int64) - c.coords[-2]
        keep = offset <= k if name == "tril" else offset >= k
        return COO(
            c.coords[:, keep], c.data[keep], shape=c.shape, has_duplicates=False, sorted=True
        )

    part.__name__ = part.__qualname__ = f"_{name}"
    return part


def _index_arrays(fn: Any) -> Any:
    """numpy's index routines (a tuple of int arrays), each stored as a COO."""

    @functools.wraps(fn)
    def create(*args: Any, **kwargs: Any) -> tuple:
        host_device(fn.__name__, "sparse", kwargs.pop("device", None))
        return tuple(COO.from_numpy(np.asarray(i, dtype=np.int64)) for i in fn(*args, **kwargs))

    return create


TABLE = {
    "tril_indices": _index_arrays(np.tril_indices),
    "triu_indices": _index_arrays(np.triu_indices),
    "diag_indices": _index_arrays(np.diag_indices),
    "mask_indices": _index_arrays(np.mask_indices),
    "zeros": _zeros,
    "ones": _ones,
    "empty": _empty,
    "full": _full,
    "eye": _eye,
    "identity": _identity,
    "arange": _from_numpy_creation(np.arange),
    "linspace": _from_numpy_creation(np.linspace),
    "logspace": _from_numpy_creation(np.logspace),
    "geomspace": _from_numpy_creation(np.geomspace),
    "indices": _from_numpy_creation(np.indices),
    "tri": _from_numpy_creation(np.tri),
    "zeros_like": _like("zeros_like"),
    "ones_like": _like("ones_like"),
    "empty_like": _like("empty_like", "zeros_like"),
    "full_like": _full_like,
    "copy": _copy,
    "meshgrid": numpy_container(_meshgrid, tuple),
    "diag": _diag,
    "diagflat": _diagflat,
    "tril": _tri_part("tril"),
    "triu": _tri_part("triu"),
}
