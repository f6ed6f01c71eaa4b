"""tensorflow's sparse matrices of the backend method list, on ``tf.SparseTensor``.

tf.SparseTensor is tf's only sparse type: COO with int64 (nnz, dims) indices in
row-major order. tf has no CSR or CSC type (its CSRSparseMatrix is internal), so
``csr_matrix`` and ``csc_matrix`` build the same matrix as a SparseTensor: the
result is a COO matrix (``get_sparse_format`` says 'coo'), with every operation of one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf
from dispatch.translations.tensorflow._common import _SPARSE, _t

from dispatch.engine import do


def _sparse_coo_tensor(indices: Any, values: Any, shape: Sequence[int]) -> Any:
    # indices (nnz, dims), or one 1-D array per axis; reordered once here because tf's
    # sparse kernels (to_dense, sparse_dense_matmul...) expect row-major order
    if isinstance(indices, (tuple, list)) and indices and all(
            hasattr(i, "shape") and len(i.shape) == 1 for i in indices):
        idx = tf.stack([tf.cast(_t(i), tf.int64) for i in indices], axis=1)
    else:
        idx = tf.cast(_t(indices), tf.int64)
    return tf.sparse.reorder(tf.SparseTensor(idx, _t(values), [int(s) for s in shape]))


def _compressed_to_coo(pointers: Any, indices: Any, values: Any, shape: Sequence[int],
                       rows_compressed: bool) -> Any:
    ptr = tf.cast(_t(pointers), tf.int64)
    n = int(shape[0] if rows_compressed else shape[1])
    major = tf.repeat(tf.range(n, dtype=tf.int64), ptr[1:] - ptr[:-1])
    minor = tf.cast(_t(indices), tf.int64)
    idx = tf.stack([major, minor] if rows_compressed else [minor, major], axis=1)
    return tf.sparse.reorder(tf.SparseTensor(idx, _t(values), [int(s) for s in shape]))


def _csr_matrix(column_indices: Any, row_pointers: Any, values: Any,
                shape: Sequence[int]) -> Any:
    # tf has no CSR type: the same matrix as a (COO) tf.SparseTensor
    return _compressed_to_coo(row_pointers, column_indices, values, shape, True)


def _csc_matrix(column_pointers: Any, row_indices: Any, values: Any,
                shape: Sequence[int]) -> Any:
    # tf has no CSC type: the same matrix as a (COO) tf.SparseTensor
    return _compressed_to_coo(column_pointers, row_indices, values, shape, False)


def _is_sparse(x: Any) -> bool:
    return isinstance(x, _SPARSE)


def _get_sparse_format(x: Any) -> str:
    return "coo" if isinstance(x, _SPARSE) else "dense"


def _disassemble(x: Any) -> tuple[Callable[..., Any], tuple]:
    # COO parts (indices (nnz, dims), values), as the composed disassemble returns them
    if not isinstance(x, _SPARSE):
        return (lambda backend, t: do("asarray", t, like=backend)), (x,)
    static = x.shape
    shape = tuple(static.as_list()) if static.is_fully_defined() else tuple(
        int(s) for s in x.dense_shape.numpy())

    def coo(backend: str, indices: Any, values: Any) -> Any:
        return do("sparse_coo_tensor", indices, values, shape, like=backend)

    return coo, (x.indices, x.values)


TABLE = {
    "sparse_coo_tensor": _sparse_coo_tensor,
    "csr_matrix": _csr_matrix,
    "csc_matrix": _csc_matrix,
    "is_sparse": _is_sparse,
    "get_sparse_format": _get_sparse_format,
    "disassemble": _disassemble,
}
