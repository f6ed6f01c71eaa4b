"""Sparse identity, disassembly and batched construction of the backend method list.

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

from dispatch.engine import composed, do

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
