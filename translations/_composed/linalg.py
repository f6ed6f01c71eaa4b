"""numpy.linalg functions that some libraries lack, written once with ``do``:
``linalg.tensorinv`` and ``linalg.tensorsolve``, as reshapes around the
library's ``linalg.inv`` and ``linalg.solve``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from dispatch.engine import composed, do


@composed("linalg.tensorinv")
def tensorinv(a: Any, ind: int = 2) -> Any:
    """The inverse of ``a`` for ``tensordot(.., ind)``, numpy's ``linalg.tensorinv``.

    ``a`` is read as a matrix of shape (prod(shape[:ind]), prod(shape[ind:])),
    inverted with ``linalg.inv`` and reshaped to ``shape[ind:] + shape[:ind]``.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.eye(4 * 6).reshape(4, 6, 8, 3)
    >>> do("linalg.tensorinv", a, ind=2).shape
    (8, 3, 4, 6)
    """
    shape = tuple(do("shape", a))
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    rows = math.prod(shape[ind:])
    inverse = do("linalg.inv", do("reshape", a, (rows, -1)))
    return do("reshape", inverse, shape[ind:] + shape[:ind])


@composed("linalg.tensorsolve")
def tensorsolve(a: Any, b: Any, axes: Sequence[int] | None = None) -> Any:
    """Solve ``tensordot(a, x, axes=x.ndim) == b`` for ``x``, numpy's
    ``linalg.tensorsolve``.

    ``axes`` moves those axes of ``a`` to the end first. ``a`` is read as a
    square matrix and solved with ``linalg.solve``.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.eye(2 * 3 * 4).reshape(2 * 3, 4, 2, 3, 4)
    >>> b = np.ones((2 * 3, 4))
    >>> do("linalg.tensorsolve", a, b).shape
    (2, 3, 4)
    """
    shape = tuple(do("shape", a))
    an = len(shape)
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k)
            order.insert(an, k)
        a = do("transpose", a, order)
        shape = tuple(shape[k] for k in order)
    bn = do("ndim", b)
    oldshape = shape[-(an - bn) :]
    prod = math.prod(oldshape)
    if math.prod(shape) != prod**2:
        raise np.linalg.LinAlgError(
            "Input arrays must satisfy the requirement "
            "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])"
        )
    x = do("linalg.solve", do("reshape", a, (prod, prod)), do("reshape", b, (-1,)))
    return do("reshape", x, oldshape)
