"""dask: the sparse formats, which dask lacks.

dask arrays have no sparse format of their own (their chunks may hold pydata
sparse arrays: the 'sparse' backend). The names are unsupported, with that
reason, so that ``supports()`` reports no composed fallback that always raises.
"""

from __future__ import annotations

from dispatch.engine import unsupported

_NO_SPARSE = unsupported(
    "dask arrays have no sparse format of their own (chunks may hold pydata sparse "
    "arrays: use the 'sparse' backend)"
)

TABLE = {
    "sparse_coo_tensor": _NO_SPARSE,
    "csr_matrix": _NO_SPARSE,
    "csc_matrix": _NO_SPARSE,
    # composed from the three above: the same gap, not a fallback that always raises
    "sparse_coo_tensor_batched": _NO_SPARSE,
    "csr_matrix_batched": _NO_SPARSE,
    "csc_matrix_batched": _NO_SPARSE,
}
