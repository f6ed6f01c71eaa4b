"""pydata sparse: conversions, dtype casts, dlpack, devices, and what a host library answers.

Conversions keep sparse data sparse (a scipy.sparse matrix becomes a COO; a
dense array is stored as one), ``to_numpy`` densifies, and the answers of a
host-only library without compiler or autodiff (``host_entries``: one CPU
device, ``jit_compile`` a pass-through, the autodiff names unsupported;
``stop_gradient`` is the identity).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from dispatch.translations._adapters import host_from_dlpack
from dispatch.translations._composed._bound import host_entries
from dispatch.translations._composed.devices import device_ref
from dispatch.translations._keywords import (
    array_shape,
    check_order,
    copy_needed,
    host_device,
)
from dispatch.translations.sparse._common import sp
from sparse import COO, SparseArray

from dispatch.engine import merge_tables, unsupported


def _asarray(x: Any, dtype: Any = None, order: Any = None, *, device: Any = None,
             copy: bool | None = None) -> SparseArray:
    # a sparse array is coordinates and values: no memory order to lay out (numpy's
    # answer without the order is the same array), and it lives in host memory
    check_order(order)
    host_device("asarray", "sparse", device)
    if isinstance(x, SparseArray):
        if copy:  # numpy's asarray(copy=True) returns a new array
            return x.astype(dtype or x.dtype, copy=True)
        if dtype is None or np.dtype(dtype) == x.dtype:
            return x
        if copy is False:
            raise copy_needed("asarray", "sparse", "a dtype change")
        return x.astype(dtype)
    if copy is False:  # coordinates and values are new arrays, whatever the input
        raise copy_needed("asarray", "sparse", "a sparse array stores its own coordinates "
                          "and values")
    if hasattr(x, "tocoo") and hasattr(x, "nnz"):  # a scipy.sparse matrix: stays sparse
        out = COO.from_scipy_sparse(x)
        return out if dtype is None else out.astype(dtype)
    return COO.from_numpy(np.asarray(x, dtype=dtype, copy=copy))


def _array(x: Any, dtype: Any = None, *, copy: bool = True, order: str = "K",
           subok: bool = False, ndmin: int = 0, ndmax: int = 0) -> SparseArray:
    # pydata has no array subclasses (subok changes nothing)
    if isinstance(x, SparseArray) and copy is not False:
        out = x.astype(dtype or x.dtype, copy=bool(copy))
    else:
        out = _asarray(x, dtype, copy=None if copy else copy)
    return array_shape(out, x, order, ndmin, ndmax)


def _to_numpy(x: Any) -> np.ndarray:
    return x.todense() if isinstance(x, SparseArray) else np.asarray(x)


def _from_dlpack(x: Any, /, *, device: Any = None, copy: Any = None) -> SparseArray:
    # pydata sparse has no from_dlpack: numpy takes the buffer, a COO stores its values
    if isinstance(x, SparseArray):  # a numpy constant, already converted by the call
        return x
    return COO.from_numpy(host_from_dlpack(x, device, copy))


def _astype(x: Any, dtype: Any, copy: bool = True, *, device: Any = None) -> SparseArray:
    out = sp(x).astype(np.dtype(dtype), copy=copy)
    return out if device is None else _to_device(out, device)


def _to_device(x: SparseArray, device: Any = None) -> SparseArray:
    device = device_ref(device)
    if device not in (None, "cpu"):
        raise ValueError(f"pydata sparse arrays live on the CPU; cannot move to {device!r}")
    return x


TABLE = merge_tables(
    {
        "asarray": _asarray,
        "array": _array,
        "from_numpy": _asarray,
        "to_numpy": _to_numpy,
        "from_dlpack": _from_dlpack,
        "astype": _astype,
        "cast": _astype,
        "to_backend_dtype": np.dtype,
        "to_device": _to_device,
        "to_dlpack": unsupported(
            "DLPack describes dense strided memory, and a pydata sparse array is coordinates "
            "and values; export its dense form (do('to_numpy', x) or x.todense()) instead"
        ),
        "stop_gradient": lambda x: x,
    },
    # pydata sparse computes on the host: the device, jit and autodiff answers of a
    # host library (translations/_composed/_bound.py)
    host_entries("sparse", "pydata sparse"),
    names=("devices", "host entries"),
)
