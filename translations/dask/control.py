"""dask: numpy's functional helpers that dask computes lazily, chunk by chunk
(the others are the composed ones of ``translations/_composed/control.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dask.array as da
from dispatch.translations._composed.control import condition_list


def _piecewise(x: Any, condlist: Any, funclist: Sequence, *args: Any, **kw: Any) -> Any:
    # dask's piecewise runs numpy's on each chunk (lazily), its conditions given as a
    # list of arrays of x's shape: numpy's reading of condlist first. Each function
    # gets the selected elements of one chunk at a time (numpy's: all of them at once;
    # the same result for element-wise functions)
    x = da.asarray(x)
    conds = [da.broadcast_to(da.asarray(c).astype(bool), x.shape)
             for c in condition_list(condlist, x.ndim)]
    n, n2 = len(conds), len(funclist)
    if n not in (n2, n2 - 1):
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    conds = [c.rechunk(x.chunks) for c in conds]
    return da.piecewise(x, conds, list(funclist), *args, **kw)


TABLE = {
    "piecewise": _piecewise,
}
