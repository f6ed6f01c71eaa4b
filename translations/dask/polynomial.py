"""dask: numpy's polynomials (``poly``, ``polyfit``, ``roots`` ...).

The composed ones (translations/_composed/polynomial.py) build dask graphs, except
where numpy's result depends on the values (``GATHERS`` in this package's
``__init__``); ``roots`` needs the eigenvalues of the companion matrix, which dask
cannot compute.
"""

from __future__ import annotations

from dispatch.translations.dask.linalg import _NO_EIG

from dispatch.engine import unsupported

TABLE = {
    "roots": unsupported(_NO_EIG + "; roots are the eigenvalues of the companion matrix"),
}
