"""Sparse arrays written once with ``do``: the list's sparse kernels and its sparse methods.

Library-independent sparse kernels of the backend method list (COO and CSR
given by their index and value arrays, batched).

Layout (the list's): ``indices`` (batch, nnz, 2) holding (row, column) pairs;
CSR ``column_indices`` (batch, nnz) and ``row_pointers`` (batch, rows + 1);
``values`` (batch, nnz, channels); dense right-hand sides (batch, rows of the
right side = columns of the matrix, channels, dense columns). A batch axis of 1
broadcasts. Everything is ``gather`` + ``scatter`` + ``searchsorted``, so it
runs on every backend and under jit; a library's native sparse product can
override a name in its table.

Sparse identity, disassembly and batched construction of the backend method list.

The library-native constructors ``sparse_coo_tensor(indices, values, shape)``
(indices (nnz, dims)), ``csr_matrix(column_indices, row_pointers, values,
shape)`` and ``csc_matrix(column_pointers, row_indices, values, shape)`` are
table entries (scipy.sparse on numpy, ``torch.sparse`` layouts,
``jax.experimental.sparse``, ``tf.SparseTensor``). Written once here:

* ``get_sparse_format`` / ``is_sparse`` by the formats' public attributes
  (``x.format`` of scipy.sparse and pydata sparse, ``x.layout`` of torch, the
  class names ``BCOO``/``CSR``/``CSC`` of jax and ``SparseTensor`` of
  tensorflow); a table entry wins where a library needs more.
* ``disassemble`` of dense arrays and of scipy-like sparse objects (``coords``
  or ``row``/``col``, ``indices``/``indptr``, ``data``).
* the batched constructors, as a tuple of one matrix per batch entry (the
  operator form that ``linear`` and the solvers take).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dispatch.translations._composed._common import _arange, _combined, _index64

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


_CLASS_FORMATS = {
    "BCOO": "coo",
    "COO": "coo",
    "BCSR": "csr",
    "CSR": "csr",
    "CSC": "csc",
    "SparseTensor": "coo",
}


@composed("get_sparse_format")
def get_sparse_format(x: Any) -> str:
    """'coo', 'csr', 'csc' (or another lower-case sparse format name) or 'dense'.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> do("get_sparse_format", sp.csr_array(np.eye(2))), do("get_sparse_format", np.eye(2))
    ('csr', 'dense')
    """
    fmt = getattr(x, "format", None)
    if isinstance(fmt, str) and hasattr(x, "nnz"):
        if fmt == "gcxs":  # pydata sparse's compressed format: CSR/CSC by its compressed axis
            axes = tuple(getattr(x, "compressed_axes", ()) or ())
            return {(0,): "csr", (1,): "csc"}.get(axes, "gcxs")
        return fmt
    layout = getattr(x, "layout", None)
    if layout is not None and "sparse" in str(layout):
        return str(layout).rsplit("sparse_", 1)[-1].lower()
    for cls in type(x).__mro__:
        if cls.__name__ in _CLASS_FORMATS:
            return _CLASS_FORMATS[cls.__name__]
    return "dense"


@composed("is_sparse")
def is_sparse(x: Any) -> bool:
    """Whether ``x`` is a sparse array or matrix of any known format.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> do("is_sparse", sp.coo_array(np.eye(2))), do("is_sparse", np.eye(2))
    (True, False)
    """
    return do("get_sparse_format", x) != "dense"


def _dense_assemble(backend: str, t: Any) -> Any:
    return do("asarray", t, like=backend)


@composed("disassemble")
def disassemble(x: Any) -> tuple[Callable[..., Any], tuple]:
    """Split ``x`` into its constituent arrays and a function rebuilding it.

    Returns ``(assemble, parts)`` with ``assemble(backend, *parts)`` building the
    same (sparse) array on ``backend`` from (possibly converted) parts:
    COO ``(indices (nnz, dims), values)``, CSR ``(values, column_indices,
    row_pointers)``, CSC ``(values, row_indices, column_pointers)``, dense
    ``(x,)``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> assemble, parts = do("disassemble", sp.csr_array(np.eye(2)))
    >>> [p.tolist() for p in parts]
    [[1.0, 1.0], [0, 1], [0, 1, 2]]
    >>> assemble("numpy", *parts).toarray()
    array([[1., 0.],
           [0., 1.]])
    """
    fmt = do("get_sparse_format", x)
    if fmt == "dense":
        return _dense_assemble, (x,)
    shape = tuple(int(s) for s in x.shape)
    if fmt == "coo" and hasattr(x, "data"):
        coords = getattr(x, "coords", None)
        if coords is None:
            coords = (x.row, x.col)
        indices = do("stack", list(coords), axis=-1) if isinstance(coords, (tuple, list)) else (
            do("transpose", coords))

        def coo(backend: str, indices: Any, values: Any) -> Any:
            return do("sparse_coo_tensor", indices, values, shape, like=backend)

        return coo, (indices, x.data)
    if fmt in ("csr", "csc") and hasattr(x, "indptr"):
        name = "csr_matrix" if fmt == "csr" else "csc_matrix"

        def compressed(backend: str, values: Any, indices: Any, pointers: Any) -> Any:
            if name == "csr_matrix":
                return do(name, indices, pointers, values, shape, like=backend)
            return do(name, pointers, indices, values, shape, like=backend)

        return compressed, (x.data, x.indices, x.indptr)
    raise NotImplementedError(
        f"disassemble of {type(x).__module__}.{type(x).__name__} ({fmt}) needs a "
        "'disassemble' entry in its library's translation table"
    )


def _per_batch(values: Any, *others: Any) -> tuple[int, list]:
    sizes = [do("shape", a)[0] for a in (values, *others)]
    batch = max(sizes)
    if any(s not in (1, batch) for s in sizes):
        raise ValueError(f"batch sizes {sizes} do not broadcast")
    return batch, sizes


def _values(values: Any, b: int) -> Any:
    v = values[b]
    if len(do("shape", v)) == 2:  # (nnz, channels): one channel only
        if do("shape", v)[1] != 1:
            raise ValueError("batched sparse matrices take one channel (values (batch, nnz[, 1]))")
        v = v[:, 0]
    return v


@composed("sparse_coo_tensor_batched")
def sparse_coo_tensor_batched(indices: Any, values: Any, shape: Sequence[int]) -> tuple:
    """One COO matrix per batch entry: indices (batch or 1, nnz, dims), values
    (batch or 1, nnz[, 1]) -> tuple of ``batch`` sparse matrices of ``shape``.

    Examples
    --------
    >>> import numpy as np
    >>> ms = do("sparse_coo_tensor_batched", np.array([[[0, 1]], [[1, 0]]]),
    ...         np.array([[1.0], [2.0]]), (2, 2))
    >>> [m.toarray().tolist() for m in ms]
    [[[0.0, 1.0], [0.0, 0.0]], [[0.0, 0.0], [2.0, 0.0]]]
    """
    batch, (nv, ni) = _per_batch(values, indices)
    return tuple(
        do("sparse_coo_tensor", indices[min(b, ni - 1)], _values(values, min(b, nv - 1)),
           tuple(shape))
        for b in range(batch)
    )


@composed("csr_matrix_batched")
def csr_matrix_batched(
    column_indices: Any, row_pointers: Any, values: Any, shape: Sequence[int]
) -> tuple:
    """One CSR matrix per batch entry: column_indices (batch or 1, nnz),
    row_pointers (batch or 1, rows + 1), values (batch or 1, nnz[, 1]).

    Examples
    --------
    >>> import numpy as np
    >>> ms = do("csr_matrix_batched", np.array([[1, 0]]), np.array([[0, 1, 2]]),
    ...         np.array([[1.0, 2.0], [3.0, 4.0]]), (2, 2))
    >>> ms[1].toarray().tolist()
    [[0.0, 3.0], [4.0, 0.0]]
    """
    batch, (nv, nc, nr) = _per_batch(values, column_indices, row_pointers)
    return tuple(
        do("csr_matrix", column_indices[min(b, nc - 1)], row_pointers[min(b, nr - 1)],
           _values(values, min(b, nv - 1)), tuple(shape))
        for b in range(batch)
    )


@composed("csc_matrix_batched")
def csc_matrix_batched(
    column_pointers: Any, row_indices: Any, values: Any, shape: Sequence[int]
) -> tuple:
    """One CSC matrix per batch entry: column_pointers (batch or 1, cols + 1),
    row_indices (batch or 1, nnz), values (batch or 1, nnz[, 1]).

    Examples
    --------
    >>> import numpy as np
    >>> ms = do("csc_matrix_batched", np.array([[0, 1, 2]]), np.array([[1, 0]]),
    ...         np.array([[1.0, 2.0]]), (2, 2))
    >>> ms[0].toarray().tolist()
    [[0.0, 2.0], [1.0, 0.0]]
    """
    batch, (nv, npt, nr) = _per_batch(values, column_pointers, row_indices)
    return tuple(
        do("csc_matrix", column_pointers[min(b, npt - 1)], row_indices[min(b, nr - 1)],
           _values(values, min(b, nv - 1)), tuple(shape))
        for b in range(batch)
    )
