"""pydata sparse: numpy's polynomials (``poly``, ``polyfit``, ``roots`` ...).

The composed ones (translations/_composed/polynomial.py) run on sparse arrays, except
the two built on dense linear algebra that pydata sparse lacks: ``roots`` (the
eigenvalues of the companion matrix) and ``polyfit`` (numpy's least-squares solve,
with its rank and singular values).
"""

from __future__ import annotations

from dispatch.translations.sparse.linalg import _DENSE

from dispatch.engine import unsupported

TABLE = {
    "roots": unsupported(_DENSE.format("full eigendecomposition (the roots are the "
                                       "eigenvalues of the companion matrix)")),
    "polyfit": unsupported(_DENSE.format("lstsq with numpy's rank and singular values "
                                         "(polyfit's least-squares solve)")),
}
