"""autograd: no sparse arrays. autograd differentiates dense numpy arrays: a
``scipy.sparse`` matrix holds numbers, never boxes, so the constructors of the
method list's sparse names are refused with that reason; the conversions of dense
data (``coo_to_dense``...) are the composed ones."""

from __future__ import annotations

from dispatch.engine import unsupported

_NO_SPARSE = ("autograd differentiates dense arrays only (a scipy.sparse matrix holds "
              "numbers, not autograd's boxes)")

TABLE = {
    name: unsupported(_NO_SPARSE)
    for name in ("sparse_coo_tensor", "csr_matrix", "csc_matrix", "sparse_coo_tensor_batched",
                 "csr_matrix_batched", "csc_matrix_batched")
}
