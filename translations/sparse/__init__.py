"""sparse (pydata): numpy names on ``sparse.COO`` / ``sparse.GCXS`` arrays.

Elementwise math goes through numpy's ufuncs, which pydata sparse implements
on its arrays (``__array_ufunc__``), fill value included: ``exp`` of a COO
with fill value 0 is a COO with fill value 1, equal to numpy's result.

Everything else is done by pydata sparse itself where it can, with these
rules:

* Results that are dense by nature (cumulative sums and products, FFTs,
  medians and quantiles, ``argsort``/``searchsorted`` indices) are computed on
  the dense values and returned as sparse arrays (``_common.densified``): no
  sparse algorithm exists for them, and the result is as large as the dense
  array anyway.
* Linear algebra never densifies: it is real sparse work through
  ``scipy.sparse`` (SuperLU ``spsolve``/``splu`` for solve, det, lu, with a
  row-dict elimination for the singular and non-square matrices SuperLU refuses; sparse
  ``inv``, ``expm``, ``spsolve_triangular``; Lanczos ``svds`` for the 2, -2 and
  nuclear norms) or ``unsupported`` with the reason (QR, SVD, eigen-,
  Cholesky decompositions, pinv, rank, lstsq).
* Index results (``nonzero``, ``argwhere``, ``argsort``, ``unique``'s values,
  indices and counts) are numpy arrays, as pydata sparse returns them.
* Operations that pydata sparse defines only for a zero fill value (``tril``,
  ``matmul``, ``concatenate`` of mixed fill values...) get arrays of another
  fill value (``exp(x)``'s is 1) in zero-fill form: every position such an
  array does not store is nonzero, so that form stores what it holds anyway.

The entries, by topic (each module holds its entries beside their adapters):
``creation``, ``elementwise``, ``reductions``, ``statistics`` (medians,
quantiles, counts), ``shape``, ``indexing`` (take, where, sort, search,
unique), ``linalg`` (products, ``linalg.*``, ``scipy.linalg.*``), ``polynomial``
(numpy's ``poly*`` and ``roots``), ``fft``,
``special`` (``scipy.special``), ``random``, ``sparse`` (the COO, CSR and CSC
constructors of the method list), ``devices`` (conversions, dlpack and the
host-library answers for devices, compilation and autodiff) and ``dtypes`` (memory
layout and sharing, which a sparse array lacks).
"""

from __future__ import annotations

from dispatch.translations._adapters import merge_topics
from dispatch.translations.sparse import (
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

TYPES = ("sparse",)
MODULES = {"": "sparse"}
# what a name may reach (docs/safety.md): pydata sparse's root namespace only (the
# numba_backend package is its implementation)
SUBMODULES = ()

TABLE = merge_topics(
    creation, elementwise, reductions, statistics, shape, indexing, linalg, fft, special, random,
    sparse, devices, dtypes, polynomial,
)
