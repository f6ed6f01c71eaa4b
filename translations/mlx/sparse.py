"""mlx: no sparse arrays. mlx has dense arrays only (its sparse kernels are
block-masked and gathered matrix products, not a sparse format), so the
constructors of the method list's sparse names are refused with that reason; the
conversions of dense data (``coo_to_dense``...) are the composed ones."""

from __future__ import annotations

from dispatch.engine import unsupported

_NO_SPARSE = "mlx has no sparse array type (dense arrays only)"

TABLE = {
    name: unsupported(_NO_SPARSE)
    for name in ("sparse_coo_tensor", "csr_matrix", "csc_matrix", "sparse_coo_tensor_batched",
                 "csr_matrix_batched", "csc_matrix_batched")
}
