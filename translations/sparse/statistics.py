"""pydata sparse: medians, quantiles, histograms and counts.

Medians and quantiles are dense by nature (``densified``: computed on the dense
values, returned as sparse arrays). ``bincount`` counts the stored values plus
the unstored positions at the fill value; ``digitize`` bins the fill value too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sparse
from dispatch.translations._composed._covariance import corrcoef, cov
from dispatch.translations.sparse._common import dense, densified, sp, zero_fill
from sparse import COO, SparseArray

from dispatch.engine import merge_tables


def _digitize(x: Any, bins: Any, right: bool = False) -> SparseArray:
    # elementwise (the fill value is binned too), with pydata's elemwise
    edges = dense(bins)
    return sparse.elemwise(lambda v: np.digitize(v, edges, right=right), sp(x))


def _bincount(x: Any, weights: Any = None, minlength: int = 0) -> np.ndarray:
    # counts of the stored values, plus the unstored positions at the fill value
    x = COO(sp(x))
    if x.ndim != 1:
        raise ValueError("object too deep for desired array")
    w = None if weights is None else COO(zero_fill(weights))
    size = max(
        int(x.data.max(initial=-1)) + 1, int(x.fill_value) + 1 if x.nnz < x.size else 0, minlength
    )
    if w is None:
        counts = np.bincount(x.data, minlength=size)
        if x.nnz < x.size:
            counts[int(x.fill_value)] += x.size - x.nnz
        return counts
    # the weights at the stored positions, and the rest at the fill value
    w_at = w[x.coords[0]].todense() if x.nnz else np.zeros(0, w.dtype)
    counts = np.bincount(x.data, weights=w_at, minlength=size)
    if x.size:  # numpy's weighted counts are float64 unless x is empty
        counts = counts.astype(np.float64)
    if x.nnz < x.size:
        counts[int(x.fill_value)] += float(sparse.sum(w).todense()) - w_at.sum()
    return counts


TABLE = merge_tables(
    {
        "bincount": _bincount,
        "digitize": _digitize,
        # pydata sparse has no covariance: numpy's, written with do
        "cov": cov,
        "corrcoef": corrcoef,
    },
    # dense by nature: computed on the dense values (see densified)
    {
        n: densified(getattr(np, n))
        for n in (
            "median nanmedian quantile percentile nanquantile nanpercentile"
        ).split()
    },
    names=("statistics", "order statistics"),
)
