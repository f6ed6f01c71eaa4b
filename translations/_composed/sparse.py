"""Library-independent sparse kernels of the backend method list (COO and CSR
given by their index and value arrays, batched).

Layout (the list's): ``indices`` (batch, nnz, 2) holding (row, column) pairs;
CSR ``column_indices`` (batch, nnz) and ``row_pointers`` (batch, rows + 1);
``values`` (batch, nnz, channels); dense right-hand sides (batch, rows of the
right side = columns of the matrix, channels, dense columns). A batch axis of 1
broadcasts. Everything is ``gather`` + ``scatter`` + ``searchsorted``, so it
runs on every backend and under jit; a library's native sparse product can
override a name in its table.
"""

from __future__ import annotations

from typing import Any

from dispatch.translations._composed.indexing import _arange, _combined, _index64

from dispatch.engine import composed, do


@composed("csr_to_coo")
def csr_to_coo(column_indices: Any, row_pointers: Any) -> Any:
    """Row-column pairs of batched CSR matrices.

    Parameters
    ----------
    column_indices : int array, shape (batch, nnz)
    row_pointers : int array, shape (batch or 1, rows + 1)

    Returns
    -------
    int array, shape (batch, nnz, 2): (row, column) of each stored value.

    Examples
    --------
    >>> import numpy as np
    >>> do("csr_to_coo", np.array([[1, 0, 2]]), np.array([[0, 1, 3]]))
    array([[[0, 1],
            [1, 0],
            [1, 2]]])
    """
    cshape, pshape = do("shape", column_indices), do("shape", row_pointers)
    batch = _combined(cshape[0], pshape[0])
    nnz = cshape[1]
    cols = _index64(column_indices)
    slots = do("broadcast_to", _arange(nnz, cols), (pshape[0], nnz))
    # the row of value k is the last row whose pointer is <= k
    rows = _index64(do("searchsorted_batched", _index64(row_pointers), slots, side="right")) - 1
    rows = do("broadcast_to", rows, (batch, nnz))
    cols = do("broadcast_to", cols, (batch, nnz))
    return do("stack", [rows, cols], axis=-1)


@composed("coo_to_dense")
def coo_to_dense(indices: Any, values: Any, shape: tuple, contains_duplicates: bool = True) -> Any:
    """Dense (batch, *shape, channels) array of batched COO matrices.

    Parameters
    ----------
    indices : int array, shape (batch or 1, nnz, len(shape))
    values : array, shape (batch or 1, nnz, channels)
    shape : tuple of int
    contains_duplicates : bool
        Sum duplicate entries (True) or assume there are none (False, faster
        on some libraries).

    Examples
    --------
    >>> import numpy as np
    >>> idx = np.array([[[0, 1], [1, 0], [0, 1]]])
    >>> do("coo_to_dense", idx, np.ones((1, 3, 1)), (2, 2))[0, ..., 0]
    array([[0., 2.],
           [1., 0.]])
    """
    vshape = do("shape", values)
    batch = _combined(do("shape", indices)[0], vshape[0])
    base = do("zeros", (batch, *shape, vshape[-1]), like=values)
    return do("scatter", base, indices, values, "add" if contains_duplicates else "update")


@composed("csr_to_dense")
def csr_to_dense(
    column_indices: Any,
    row_pointers: Any,
    values: Any,
    shape: tuple,
    contains_duplicates: bool = False,
) -> Any:
    """Dense (batch, rows, cols, channels) array of batched CSR matrices
    (``csr_to_coo`` then ``coo_to_dense``).

    Examples
    --------
    >>> import numpy as np
    >>> v = np.array([[[5.0], [6.0]]])
    >>> do("csr_to_dense", np.array([[1, 0]]), np.array([[0, 1, 2]]), v, (2, 2))[0, ..., 0]
    array([[0., 5.],
           [6., 0.]])
    """
    indices = do("csr_to_coo", column_indices, row_pointers)
    return do("coo_to_dense", indices, values, shape, contains_duplicates)


@composed("mul_coo_dense")
def mul_coo_dense(indices: Any, values: Any, shape: tuple, dense: Any) -> Any:
    """Batched COO matrix times dense matrices, per channel.

    Parameters
    ----------
    indices : int array, shape (batch or 1, nnz, 2)
    values : array, shape (batch or 1, nnz, channels)
    shape : (rows, cols) of the sparse matrix
    dense : array, shape (batch or 1, cols, channels, dense_cols)

    Returns
    -------
    array, shape (batch, rows, channels, dense_cols); duplicates are summed.

    Examples
    --------
    >>> import numpy as np
    >>> idx = np.array([[[0, 0], [0, 1], [1, 1]]])
    >>> vals = np.array([[[1.0], [2.0], [3.0]]])
    >>> dense = np.array([[1.0, 10.0]]).reshape(1, 2, 1, 1)
    >>> do("mul_coo_dense", idx, vals, (2, 2), dense)[0, :, 0, 0]
    array([21., 30.])
    """
    ishape, vshape, dshape = do("shape", indices), do("shape", values), do("shape", dense)
    batch = _combined(ishape[0], vshape[0], dshape[0])
    nnz, channels = vshape[1], vshape[2]
    rows, cols = shape
    dense_cols = dshape[3]
    if dshape[1] != cols:
        raise ValueError(f"dense has {dshape[1]} rows, the sparse matrix {cols} columns")
    flat_dense = do("reshape", dense, (dshape[0], cols, dshape[2] * dense_cols))
    picked = do("batched_gather_nd", flat_dense, indices[:, :, 1:2])  # (b, nnz, ch*dc)
    picked = do("reshape", picked, (-1, nnz, dshape[2], dense_cols))
    products = do("reshape", values, (vshape[0], nnz, channels, 1)) * picked
    products = do("reshape", products, (-1, nnz, channels * dense_cols))
    zeros = do("zeros", (batch, rows, channels * dense_cols), like=products)
    out = do("scatter", zeros, indices[:, :, 0:1], products, "add")
    return do("reshape", out, (batch, rows, channels, dense_cols))


@composed("mul_csr_dense")
def mul_csr_dense(
    column_indices: Any, row_pointers: Any, values: Any, shape: tuple, dense: Any
) -> Any:
    """Batched CSR matrix times dense matrices: ``csr_to_coo`` then
    ``mul_coo_dense``; shapes as there.

    Examples
    --------
    >>> import numpy as np
    >>> vals = np.array([[[1.0], [2.0], [3.0]]])
    >>> dense = np.array([[1.0, 10.0]]).reshape(1, 2, 1, 1)
    >>> out = do("mul_csr_dense", np.array([[0, 1, 1]]), np.array([[0, 2, 3]]), vals, (2, 2), dense)
    >>> out[0, :, 0, 0]
    array([21., 30.])
    """
    indices = do("csr_to_coo", column_indices, row_pointers)
    return do("mul_coo_dense", indices, values, shape, dense)
