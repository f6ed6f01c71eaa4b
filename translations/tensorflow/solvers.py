"""tensorflow's kernel for the composed linear solvers: ``mul_matrix_batched_vector``.

The solvers themselves are the composed ones (``translations/_composed/solvers.py``);
they multiply through this entry, which takes a dense tensor or a tf.SparseTensor
(``sparse_dense_matmul``: a SparseTensor has no ``@``).
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from dispatch.translations.tensorflow._common import (
    _SPARSE,
    _promote,
    _result_dtype,
    _t,
    _to,
)


def _mul_matrix_batched_vector_tensorflow(A: Any, b: Any) -> Any:
    # tf.SparseTensor has no @ operator: sparse_dense_matmul takes it, with the
    # batch of vectors as the transposed dense side
    vector = b.shape.rank == 1
    if isinstance(A, tf.SparseTensor):
        if vector:
            return tf.sparse.sparse_dense_matmul(A, b[:, None])[:, 0]
        return tf.transpose(tf.sparse.sparse_dense_matmul(A, b, adjoint_b=True))
    return tf.linalg.matvec(A, b) if vector else tf.matmul(b, A, transpose_b=True)


def _mul_matrix_batched_vector(A: Any, b: Any) -> Any:
    # tf.matmul and sparse_dense_matmul want one dtype; the kernel above does the
    # products (its sparse path takes b's adjoint, which conjugates complex vectors:
    # those are transposed here instead)
    b = _t(b)
    if isinstance(A, _SPARSE):
        dt = _result_dtype(A.values, b)
        if A.values.dtype != dt:
            A = tf.SparseTensor(A.indices, tf.cast(A.values, dt), A.dense_shape)
        b = _to(b, dt)
        if dt.is_complex and b.shape.rank == 2:
            return tf.transpose(tf.sparse.sparse_dense_matmul(A, tf.transpose(b)))
        return _mul_matrix_batched_vector_tensorflow(A, b)
    A, b = _promote(A, b)
    return _mul_matrix_batched_vector_tensorflow(A, b)


TABLE = {
    "mul_matrix_batched_vector": _mul_matrix_batched_vector,
}
