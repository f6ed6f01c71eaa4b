"""The backend method list's sparse names on ``jax.experimental.sparse``: COO
(``BCOO``), CSR and CSC constructors, format queries and ``disassemble``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
from dispatch.translations.jax._common import _is_sparse, _sparse_module


def _sparse_coo_tensor(indices: Any, values: Any, shape: Any) -> Any:
    # BCOO takes (data, indices (nnz, dims)) as the list gives them; values (nnz, channels)
    # become one dense trailing axis; duplicates are kept (summed by every operation)
    values = jnp.asarray(values)
    idx = jnp.asarray(indices).reshape(-1, len(shape)).astype(int)
    size = (*(int(s) for s in shape), *values.shape[1:])
    return _sparse_module().BCOO((values, idx), shape=size)


def _csr_matrix(column_indices: Any, row_pointers: Any, values: Any, shape: Any) -> Any:
    # jax.experimental.sparse.CSR((data, indices, indptr)): scipy's order of the parts
    return _sparse_module().CSR(
        (jnp.asarray(values), jnp.asarray(column_indices), jnp.asarray(row_pointers)),
        shape=tuple(int(s) for s in shape),
    )


def _csc_matrix(column_pointers: Any, row_indices: Any, values: Any, shape: Any) -> Any:
    return _sparse_module().CSC(
        (jnp.asarray(values), jnp.asarray(row_indices), jnp.asarray(column_pointers)),
        shape=tuple(int(s) for s in shape),
    )


_SPARSE_FORMATS = {"BCOO": "coo", "CSR": "csr", "CSC": "csc", "BCSR": "csr", "COO": "coo"}


def _get_sparse_format(x: Any) -> str:
    if not _is_sparse(x):
        return "dense"
    return _SPARSE_FORMATS.get(type(x).__name__, type(x).__name__.lower())


def _disassemble(x: Any) -> tuple[Callable, tuple]:
    """``(assemble, parts)``: ``assemble(backend, *parts)`` rebuilds ``x`` on
    ``backend`` through that backend's constructor (the composed layout of parts)."""
    from dispatch.engine import do

    fmt = _get_sparse_format(x)
    shape = tuple(int(s) for s in x.shape)
    name = type(x).__name__
    if name == "BCOO":
        if x.n_batch:
            raise NotImplementedError("disassemble: batched BCOO has no list constructor")
        rows = x.n_sparse

        def coo(backend: Any, indices: Any, values: Any) -> Any:
            return do("sparse_coo_tensor", indices, values, shape[:rows], like=backend)

        return coo, (x.indices, x.data)
    if name in ("CSR", "CSC"):

        def compressed(backend: Any, values: Any, indices: Any, pointers: Any) -> Any:
            if fmt == "csr":
                return do("csr_matrix", indices, pointers, values, shape, like=backend)
            return do("csc_matrix", pointers, indices, values, shape, like=backend)

        return compressed, (x.data, x.indices, x.indptr)
    if fmt != "dense":
        raise NotImplementedError(f"disassemble: jax's {name} has no list constructor")

    def dense(backend: Any, t: Any) -> Any:
        return do("asarray", t, like=backend)

    return dense, (x,)


TABLE = {
    "sparse_coo_tensor": _sparse_coo_tensor,
    "csr_matrix": _csr_matrix,
    "csc_matrix": _csc_matrix,
    "is_sparse": _is_sparse,
    "get_sparse_format": _get_sparse_format,
    "disassemble": _disassemble,
}
