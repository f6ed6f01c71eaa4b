"""torch: the backend method list's sparse constructors and queries, on torch.sparse layouts.

``sparse_coo_tensor`` takes the list's (nnz, dims) indices where torch wants
(dims, nnz); ``csr_matrix`` and ``csc_matrix`` build compressed tensors with
invariants checked (torch crashes on bad sparse indices otherwise); values of
shape (nnz, channels) make hybrid tensors. ``disassemble`` rebuilds a tensor on
another backend, and the list's ``numpy`` turns sparse tensors into scipy.sparse
matrices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch
from dispatch.translations.torch._common import _tensor
from dispatch.translations.torch.devices import _asarray, _is_available, _to_numpy
from torch import Tensor

_SPARSE_FORMATS = {
    torch.sparse_coo: "coo",
    torch.sparse_csr: "csr",
    torch.sparse_csc: "csc",
    torch.sparse_bsr: "bsr",
    torch.sparse_bsc: "bsc",
}


def _index_tensor(x: Any, like: Tensor) -> Tensor:
    return _tensor(x, like).to(device=like.device, dtype=torch.int64)


def _sparse_coo_tensor(indices: Any, values: Any, shape: Sequence[int]) -> Tensor:
    # the list gives indices as (nnz, dims), torch wants (dims, nnz); values (nnz,) or
    # (nnz, channels) (a hybrid tensor of shape (*shape, channels)); duplicates are kept
    # (summed by every operation), as in scipy's coo_matrix
    values = _tensor(values)
    idx = _index_tensor(_asarray(indices), values).reshape(-1, len(shape)).T
    size = (*(int(s) for s in shape), *values.shape[1:])
    return torch.sparse_coo_tensor(idx, values, size, check_invariants=True)


def _compressed(layout_fn: Callable, pointers: Any, indices: Any, values: Any,
                shape: Sequence[int]) -> Tensor:
    # invariants checked: torch segfaults on bad sparse indices otherwise
    values = _tensor(values)
    ptr, idx = _index_tensor(pointers, values), _index_tensor(indices, values)
    batch = ptr.shape[:-1]
    size = (*batch, *(int(s) for s in shape), *values.shape[len(batch) + 1 :])
    return layout_fn(ptr, idx, values, size, check_invariants=True)


def _csr_matrix(column_indices: Any, row_pointers: Any, values: Any,
                shape: Sequence[int]) -> Tensor:
    # torch.sparse_csr_tensor takes the pointers first and wants both index arrays of
    # one integer dtype; values of shape (nnz, channels) make a hybrid tensor
    return _compressed(torch.sparse_csr_tensor, row_pointers, column_indices, values, shape)


def _csc_matrix(column_pointers: Any, row_indices: Any, values: Any,
                shape: Sequence[int]) -> Tensor:
    return _compressed(torch.sparse_csc_tensor, column_pointers, row_indices, values, shape)


def _is_sparse(x: Any) -> bool:
    return isinstance(x, Tensor) and x.layout is not torch.strided


def _get_sparse_format(x: Any) -> str:
    return _SPARSE_FORMATS.get(x.layout, "dense") if isinstance(x, Tensor) else "dense"


def _disassemble(x: Tensor) -> tuple[Callable, tuple]:
    """``(assemble, parts)``: ``assemble(backend, *parts)`` rebuilds ``x`` on
    ``backend`` (a name or an example array) through that backend's constructor."""
    from dispatch.engine import do

    fmt = _get_sparse_format(x)
    shape = tuple(x.shape)
    if fmt == "coo":
        x = x.coalesce()
        rows = x.sparse_dim()

        def coo(backend: Any, indices: Any, values: Any) -> Any:
            return do("sparse_coo_tensor", indices, values, shape[:rows], like=backend)

        return coo, (x.indices().T, x.values())
    if fmt in ("csr", "csc"):
        idx = x.col_indices() if fmt == "csr" else x.row_indices()
        ptr = x.crow_indices() if fmt == "csr" else x.ccol_indices()
        name = "csr_matrix" if fmt == "csr" else "csc_matrix"

        def compressed(backend: Any, values: Any, indices: Any, pointers: Any) -> Any:
            if fmt == "csr":
                return do(name, indices, pointers, values, shape[-2:], like=backend)
            return do(name, pointers, indices, values, shape[-2:], like=backend)

        return compressed, (x.values(), idx, ptr)
    if fmt != "dense":
        raise NotImplementedError(f"disassemble: torch's {fmt} layout has no list constructor")

    def dense(backend: Any, t: Any) -> Any:
        return do("asarray", t, like=backend)

    return dense, (x,)


def _numpy(x: Any) -> Any:
    # the list's ``numpy``: sparse tensors become scipy.sparse matrices
    if not _is_available(x):
        raise ValueError("the value of this tensor is not available while tracing or "
                         "inside a torch.func transform")
    if not _is_sparse(x):
        return _to_numpy(x)
    import scipy.sparse as sp

    fmt = _get_sparse_format(x)
    x = x.detach().cpu()
    if x.ndim != 2 or fmt not in ("coo", "csr", "csc"):
        return _to_numpy(x.to_dense())
    if fmt == "coo":
        x = x.coalesce()
        row, col = x.indices().numpy()
        return sp.coo_matrix((x.values().numpy(), (row, col)), shape=tuple(x.shape))
    if fmt == "csr":
        return sp.csr_matrix((x.values().numpy(), x.col_indices().numpy(),
                              x.crow_indices().numpy()), shape=tuple(x.shape))
    return sp.csc_matrix((x.values().numpy(), x.row_indices().numpy(),
                          x.ccol_indices().numpy()), shape=tuple(x.shape))


TABLE = {
    "sparse_coo_tensor": _sparse_coo_tensor,
    "csr_matrix": _csr_matrix,
    "csc_matrix": _csc_matrix,
    "is_sparse": _is_sparse,
    "get_sparse_format": _get_sparse_format,
    "disassemble": _disassemble,
    "numpy": _numpy,
}
