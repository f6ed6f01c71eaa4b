"""pydata sparse: the sparse formats of the backend method list (COO, CSR, CSC).

pydata's own COO, and its GCXS for the compressed formats (CSR compresses axis
0, CSC axis 1), built from the list's index, pointer and value arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sparse
from dispatch.translations.sparse._common import dense
from sparse import COO, SparseArray


def _sparse_coo_tensor(indices: Any, values: Any, shape: Any) -> COO:
    # the list's indices are (nnz, dims); sparse.COO takes coords (dims, nnz)
    if isinstance(indices, (tuple, list)) and len(indices) == len(shape):
        coords = np.stack([dense(i) for i in indices])
    else:
        coords = dense(indices).T
    return COO(coords, dense(values), shape=tuple(shape))


def _compressed(axis: int) -> Any:
    def make(first: Any, second: Any, values: Any, shape: Any) -> SparseArray:
        # CSR: (column_indices, row_pointers); CSC: (column_pointers, row_indices)
        indices, pointers = (first, second) if axis == 0 else (second, first)
        arrays = (dense(values), dense(indices), dense(pointers))
        return sparse.GCXS(arrays, shape=tuple(shape), compressed_axes=(axis,))

    return make


TABLE = {
    "sparse_coo_tensor": _sparse_coo_tensor,
    "csr_matrix": _compressed(0),
    "csc_matrix": _compressed(1),
}
