"""dask: numpy names on ``dask.array`` arrays, results kept lazy.

Most names are dask.array's own. The adapters of the topic modules exist because dask

* needs particular chunks for some algorithms (FFTs and sorts along one chunk,
  QR/SVD on tall-and-skinny or short-and-fat blocks, LU/Cholesky on square
  chunks): the adapter rechunks, which changes no values;
* lacks a function or differs from numpy (``cholesky`` returns the upper
  factor, ``take`` defaults to axis 0, ``median`` needs an axis...).

Results stay lazy: every name builds a dask graph and computes nothing,
except the names in ``GATHERS`` (at the end of this module), which say why
they pull values to the client (``to_numpy``; ``shape``/``size`` of an array
with unknown chunk sizes; the iterative solvers, which check convergence on
the client after every iteration...).

The entries, by topic (each module holds its entries beside their adapters):
``creation``, ``elementwise``, ``reductions``, ``statistics`` (medians,
quantiles, histograms), ``shape``, ``indexing`` (take, sort, search, select),
``linalg`` (products, ``linalg.*``, ``scipy.linalg.*``), ``polynomial``
(numpy's ``poly*`` and ``roots``), ``fft``, ``special`` (``scipy.special``),
``random``, ``sparse`` (the sparse formats dask lacks),
``devices`` (conversions, dlpack, ``block_until_ready`` and the host-library
answers for devices, compilation and autodiff), ``control`` (numpy's
``piecewise``, chunk by chunk) and ``dtypes`` (memory layout and sharing, which a
dask array lacks).
"""

from __future__ import annotations

from dispatch.translations import _safety
from dispatch.translations._adapters import merge_topics
from dispatch.translations.dask import (
    control,
    creation,
    devices,
    dtypes,
    elementwise,
    fft,
    indexing,
    linalg,
    polynomial,
    random,
    reductions,
    shape,
    sparse,
    special,
    statistics,
)

TYPES = ("dask",)
MODULES = {"": "dask.array"}
# what a name may reach (docs/safety.md): dask.array's public modules (its
# implementation modules hold dask's internals, which write into chunks in place)
SUBMODULES = (
    "dask.array.linalg", "dask.array.fft", "dask.array.random", "dask.array.ma",
    "dask.array.overlap", "dask.array.lib", "dask.array.lib.stride_tricks",
)
CAPABILITY_MODULES = {
    "dask.config": _safety.GLOBAL,
    "dask.utils": "dask's general utilities (temporary files, locks, imports)",
    "dask.backends": "backend registration (" + _safety.GLOBAL + ")",
    "dask.array.backends": "backend registration (" + _safety.GLOBAL + ")",
    "dask.array.chunk_types": "chunk type registration (" + _safety.GLOBAL + ")",
    "dask.array.tiledb_io": "storage I/O",
    "dask._compatibility": "module imports by name",
}
REFUSED = {
    "dask.array.from_npy_stack": "it unpickles the stack's info file",
    **dict.fromkeys(
        ("dask.array.from_zarr", "dask.array.to_zarr", "dask.array.to_hdf5",
         "dask.array.from_tiledb", "dask.array.to_tiledb"),
        "storage I/O that can reach URLs (a download)",
    ),
    "dask.array.register_chunk_type": "chunk type registration (" + _safety.GLOBAL + ")",
    "dask.array.store": _safety.in_place("it writes into its targets: compute the array"),
    "dask.array.ma.set_fill_value": _safety.in_place("use ma.masked_array(..., fill_value=)"),
}
CONVERT_CONSTANTS = False  # dask functions take numpy arrays as they are

TABLE = merge_topics(
    creation, elementwise, reductions, statistics, shape, indexing, linalg, fft, special, random,
    sparse, control, devices, dtypes, polynomial,
)


# ---------------------------------------------------------------- what computes

_CONVERGENCE = (
    "an eager loop that checks convergence on the client after every iteration: the "
    "squared residual norms (one scalar per right-hand side) are computed, while x and "
    "the residual stay distributed dask arrays, persisted on the workers at each step so "
    "that no step recomputes the ones before it"
)

# Every name whose dask call computes (pulls values to the client) instead of
# returning lazy dask arrays, with the reason; every other name builds a graph
# only. tests/translations/test_dask_gathers.py checks both directions.
GATHERS: dict[str, str] = {
    "to_numpy": "returns a numpy array: the whole array is computed and brought to the client",
    "block_until_ready": (
        "computes the arrays and keeps the results in memory (persist: on the workers under "
        "a distributed client); nothing is brought to the client"
    ),
    "numpy": "returns a numpy array: the whole array is computed and brought to the client",
    "numpy_call": (
        "runs a numpy function on the host: its array arguments are computed and brought "
        "to the client (the result is wrapped as a dask array again)"
    ),
    "shape": (
        "only for arrays of unknown chunk sizes (after boolean indexing, nonzero, unique): "
        "the chunk sizes are computed"
    ),
    "size": (
        "only for arrays of unknown chunk sizes (after boolean indexing, nonzero, unique): "
        "the chunk sizes are computed"
    ),
    "intersect1d": (
        "the unique values' chunk sizes are computed (the result stays lazy); with "
        "return_indices the inputs are computed and numpy's answer wrapped again"
    ),
    "delete": (
        "only with obj given as a dask array: the positions are worked out on the client, "
        "so obj is computed (the array itself stays lazy)"
    ),
    "get_item": (
        "only with a boolean mask or integer indices given as dask arrays in the key: the "
        "mask's positions and the indices' bounds are read on the client, so the key is "
        "computed (the array itself stays lazy)"
    ),
    "setdiff1d": "the unique values' chunk sizes are computed (the result stays lazy)",
    "real_if_close": (
        "whether every imaginary part is within tol decides the result's dtype: that one "
        "boolean is computed (the result stays lazy)"
    ),
    "array_equiv": "returns a Python bool: whether all elements are equal is computed",
    "asarray_chkfinite": (
        "whether every value is finite is computed, to raise numpy's ValueError (the result "
        "stays lazy)"
    ),
    "min_scalar_type": "only for a 0-d dask array: its value decides the dtype, so it is computed",
    "trim_zeros": (
        "the non-zero positions are computed to find the box to keep (the slice stays lazy)"
    ),
    "histogram_bin_edges": (
        "the data's min and max (without range=), the given dask edges or the values of a "
        "rule such as 'auto' are computed; the edges come back as a dask array"
    ),
    "histogramdd": (
        "without range=, each dimension's min and max are computed for the edges (the "
        "counts stay lazy)"
    ),
    "ravel_multi_index": (
        "with mode='raise' (the default) the indices are computed to check their bounds, "
        "as numpy does at the call (the result stays lazy)"
    ),
    "ix_": "only with boolean arrays: the number of their true entries is computed",
    "unique_all": (
        "the input is computed: the first indices need unique(return_index=True), which dask "
        "lacks (the answer is wrapped as dask arrays again)"
    ),
    **dict.fromkeys(
        ("unique_values", "unique_counts", "unique_inverse"),
        "only for float and complex input: numpy 2 counts each NaN as a value of its own, "
        "which dask's unique cannot, so the input is computed and the answer wrapped again "
        "(other input stays lazy)",
    ),
    "setxor1d": "the unique values' chunk sizes are computed (the result stays lazy)",
    "repeat": (
        "only with repeat counts given as a dask array: the output shape depends on their "
        "values, so the counts are computed (the repeated array stays lazy)"
    ),
    "repeat_n": (
        "only without new_length and with repeat counts given as a dask array (it is then "
        "repeat): the counts are computed"
    ),
    "digitize": (
        "only with bin edges given as a dask array: dask's digitize takes numpy edges, so "
        "the edges are computed (the values stay lazy)"
    ),
    "while_loop": (
        "an eager Python loop: the condition values[0] is computed on the client at every "
        "step; the loop variables stay distributed, persisted at each step"
    ),
    "conjugate_gradient": _CONVERGENCE,
    "conjugate_gradient_adaptive": _CONVERGENCE,
    "bi_conjugate_gradient": _CONVERGENCE,
    "linear_solve": (
        "the CG and BiCGStab methods check convergence on the client (one scalar per "
        "right-hand side and iteration); the 'scipy-*' methods compute the matrix and "
        "right-hand side and solve with scipy on the client"
    ),
    "minimize": (
        "checks convergence on the client after every iteration; scipy's methods "
        "('L-BFGS-B', 'BFGS', 'Nelder-Mead') evaluate the function on the client"
    ),
    "solve_triangular_sparse": (
        "solved with scipy's spsolve_triangular on the client: the matrix and the "
        "right-hand side are computed"
    ),
    **dict.fromkeys(
        ("quantile", "percentile", "nanquantile", "nanpercentile"),
        "only with q given as a dask array: dask's quantiles take numpy levels, so the "
        "levels (a few numbers) are computed; the data stays lazy",
    ),
    "gradient": (
        "only with sample coordinates given as dask arrays (non-uniform spacing): the "
        "coordinates (one small 1-D array per axis) are computed to make the weights; the "
        "differences of f stay lazy"
    ),
    # numpy's polynomials whose result shape or dtype depends on the values
    "polymul": (
        "the leading zeros of both factors are dropped as numpy's poly1d does: the "
        "coefficients are computed to find them (the product stays lazy)"
    ),
    "polydiv": (
        "the leading (near-)zeros of the remainder are dropped as numpy does: the "
        "remainder is computed to find them"
    ),
    "polyfit": (
        "the rank of the least-squares solve (one integer) is computed, to warn as numpy "
        "does on a rank-deficient fit; the coefficients stay lazy"
    ),
    "poly": (
        "only for complex roots: they are computed to see whether they come in conjugate "
        "pairs, which makes numpy's coefficients real"
    ),
    "random.bytes": "returns Python bytes: the drawn integers are computed on the client",
    "scipy.linalg.lu_solve": (
        "the pivot vector (n integers) is computed to make the row permutation (LAPACK's "
        "swaps are sequential); the factors and the right-hand side stay lazy"
    ),
}
