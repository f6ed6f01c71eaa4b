"""autograd: numpy's random draws. A draw is a constant of autograd's computation
(no derivative flows through it): numpy's table draws it, dtype keywords included.
A draw *from* a box (``permutation``, ``permuted``, ``choice`` of its entries) draws
the positions with numpy's generator and gathers them, so the result is a box."""

from __future__ import annotations

from typing import Any

import numpy as np
from autograd import numpy as anp
from autograd.tracer import Box, getval
from dispatch.translations import numpy as _numpy

from dispatch.engine import merge_tables

_NUMPY = {name: entry for name, entry in _numpy.TABLE.items() if name.startswith("random.")}
_FROM_A_BOX = ("random.permuted", "random.permutation", "random.choice")


def _positions(x: Any) -> np.ndarray:
    """The flat position of every entry of ``x``, in ``x``'s shape."""
    shape = np.shape(getval(x))
    return np.arange(int(np.prod(shape))).reshape(shape)


def _permuted(x: Any, *, axis: Any = None, out: Any = None) -> Any:
    if not isinstance(x, Box):
        return _NUMPY["random.permuted"](x, axis=axis, out=out)
    # numpy's draw of the positions (the same shuffle as of x itself), gathered
    return anp.ravel(x)[_NUMPY["random.permuted"](_positions(x), axis=axis, out=out)]


def _along(x: Any, axis: int, idx: Any) -> Any:
    return x[(slice(None),) * (axis % np.ndim(getval(x))) + (idx,)]


def _permutation(x: Any, axis: int = 0) -> Any:
    if not isinstance(x, Box):
        return _NUMPY["random.permutation"](x, axis)
    return _along(x, axis, _NUMPY["random.permutation"](np.shape(getval(x))[axis]))


def _choice(a: Any, size: Any = None, replace: bool = True, p: Any = None, axis: int = 0,
            shuffle: bool = True) -> Any:
    p = getval(p)
    if not isinstance(a, Box):
        return _NUMPY["random.choice"](a, size, replace, p, axis, shuffle)
    n = np.shape(getval(a))[axis]
    return _along(a, axis, _NUMPY["random.choice"](n, size, replace, p, shuffle=shuffle))


# numpy's entries of the random names, which autograd.numpy.random wraps unchanged,
# and the draws from a box
TABLE = merge_tables(
    {name: entry for name, entry in _NUMPY.items() if name not in _FROM_A_BOX},
    dict(zip(_FROM_A_BOX, (_permuted, _permutation, _choice), strict=True)),
)
