"""paddle: the backend method list's sparse constructors on ``paddle.sparse``.

paddle stores sparse tensors in COO and CSR; it has no CSC format.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import paddle
from paddle import Tensor

from dispatch.engine import unsupported

_NO_CSC = "paddle.sparse stores COO and CSR tensors only, no CSC"


def _t(x: Any, dtype: Any = None) -> Tensor:
    if isinstance(x, Tensor):
        return x if dtype is None else x.astype(dtype)
    return paddle.to_tensor(np.asarray(x), dtype=dtype)


def _sparse_coo_tensor(indices: Any, values: Any, shape: Any) -> Tensor:
    # the list gives indices as (nnz, dims); paddle wants (dims, nnz). values (nnz,
    # channels) become one dense trailing axis
    values = _t(values)
    idx = _t(indices, "int64").reshape([-1, len(shape)]).T
    size = [*(int(s) for s in shape), *values.shape[1:]]
    return paddle.sparse.sparse_coo_tensor(idx, values, size)


def _csr_matrix(column_indices: Any, row_pointers: Any, values: Any, shape: Any) -> Tensor:
    return paddle.sparse.sparse_csr_tensor(_t(row_pointers, "int64"),
                                           _t(column_indices, "int64"), _t(values),
                                           [int(s) for s in shape])


def _is_sparse(x: Any) -> bool:
    return isinstance(x, Tensor) and (x.is_sparse_coo() or x.is_sparse_csr())


def _get_sparse_format(x: Any) -> str:
    if isinstance(x, Tensor) and x.is_sparse_coo():
        return "coo"
    return "csr" if isinstance(x, Tensor) and x.is_sparse_csr() else "dense"


def _disassemble(x: Any) -> tuple:
    """``(assemble, parts)``: ``assemble(backend, *parts)`` rebuilds ``x`` on
    ``backend`` (COO: indices (nnz, dims) and values; CSR: values, column indices and
    row pointers; dense: the tensor)."""
    from dispatch.engine import do

    shape = [int(s) for s in x.shape]
    fmt = _get_sparse_format(x)
    if fmt == "coo":

        def coo(backend: Any, indices: Any, values: Any) -> Any:
            return do("sparse_coo_tensor", indices, values, shape, like=backend)

        return coo, (x.indices().T, x.values())
    if fmt == "csr":

        def csr(backend: Any, values: Any, indices: Any, pointers: Any) -> Any:
            return do("csr_matrix", indices, pointers, values, shape, like=backend)

        return csr, (x.values(), x.cols(), x.crows())

    def dense(backend: Any, t: Any) -> Any:
        return do("asarray", t, like=backend)

    return dense, (x,)


TABLE = {
    "sparse_coo_tensor": _sparse_coo_tensor,
    "csr_matrix": _csr_matrix,
    "csc_matrix": unsupported(_NO_CSC),
    "csc_matrix_batched": unsupported(_NO_CSC),
    "disassemble": _disassemble,
    "is_sparse": _is_sparse,
    "get_sparse_format": _get_sparse_format,
}
