"""autograd: what the topic modules share. A box records the functions of
``autograd.numpy`` applied to it; these helpers adapt the names whose autograd
primitive has no derivative, or departs from numpy's calling convention.

* :func:`on_values`: numpy's function on the values inside the boxes, for results
  that carry no derivative (integers, booleans, piecewise-constant floats), as
  autograd's own ``floor``, ``sign`` and comparisons do.
* :func:`exact`: numpy's value, with the derivatives of a differentiable formula of
  the same value (a least-squares solution computed by LAPACK, differentiated through
  the pseudo-inverse).
* :func:`unpacked`: autograd's one ``SequenceBox`` of a tuple result, as numpy's
  container of boxes.
* :func:`positional`: array arguments given by keyword moved to their positions,
  where autograd's primitive traces positional boxes only.
* :func:`where`: numpy's ``where`` whose boxes get gradients of their own shape
  (autograd's hands a broadcast box the result's shape).
* :func:`no_derivative`: numpy's value whose derivative, asked for, raises.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
from autograd import numpy as anp
from autograd.extend import defvjp_argnum, primitive
from autograd.numpy.numpy_boxes import ArrayBox
from autograd.tracer import Box, getval


def values(x: Any) -> Any:
    """``x`` with every box (in lists, tuples and dicts too) replaced by its value."""
    if isinstance(x, Box):
        return getval(x)
    if isinstance(x, dict):
        return {k: values(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(values(v) for v in x)
    return x


def any_box(*xs: Any) -> bool:
    """Whether a box is among ``xs`` (in lists and tuples too)."""
    return any(isinstance(x, Box) or (isinstance(x, (list, tuple)) and any_box(*x))
               for x in xs)


def on_values(fn: Callable) -> Callable:
    """numpy's ``fn`` on the values inside the boxes of its arguments: a result with no
    derivative (an integer, a boolean, a piecewise-constant float) is a constant of the
    trace, as autograd's own ``floor`` and ``isnan`` return plain arrays.

    >>> on_values(np.signbit)(np.array([-1.0, 2.0]))
    array([ True, False])
    """

    @functools.wraps(fn)
    def on_the_values(*args: Any, **kwargs: Any) -> Any:
        return fn(*values(args), **values(kwargs))

    return on_the_values


def where(condition: Any, x: Any, y: Any) -> Any:
    """numpy's ``where``, with boxes broadcast to the result's shape first: autograd's
    own ``where`` hands each box a gradient of the result's shape, wrong for a box that
    was broadcast (times one keeps every value, -0.0 and nan included)."""
    # arrays or boxes of arrays of one shape: nothing to broadcast, autograd's own
    # (a box's .shape, np.shape and broadcast_shapes would cost 2 to 4 us here)
    vx = x._value if type(x) is ArrayBox else x
    vy = y._value if type(y) is ArrayBox else y
    if type(condition) is type(vx) is type(vy) is np.ndarray \
            and condition.shape == vx.shape == vy.shape:
        return anp.where(condition, x, y)
    cond = getval(condition)
    shape = np.broadcast_shapes(np.shape(cond), np.shape(getval(x)), np.shape(getval(y)))

    def full(t: Any) -> Any:
        if isinstance(t, Box) and np.shape(getval(t)) != shape:
            return t * np.ones(shape, dtype=np.result_type(getval(t)))
        return t

    return anp.where(cond, full(x), full(y))


def exact(value: Any, formula: Any) -> Any:
    """numpy's ``value`` (an array), with the derivatives of ``formula``: a box of the
    same value, computed from the same boxes with operations autograd differentiates.

    ``value - (v - formula)``, with ``v`` the formula's own value: the difference is an
    exact zero (a number minus itself), so the result holds numpy's numbers bit for bit,
    and its derivative is the formula's. Where the formula is not finite (a rank
    deficient least-squares problem) the derivative there is zero.

    >>> exact(np.array([1.0]), np.array([1.0 + 1e-16]))
    array([1.])
    """
    if not isinstance(formula, Box):
        return value
    v = getval(formula)
    value = np.asarray(value)
    gap = where(np.isfinite(v), v - formula, 0.0)
    if gap.dtype != value.dtype:
        gap = gap.astype(value.dtype)
    return value - gap


def no_derivative(fn: Callable, name: str, what: str) -> Callable:
    """``fn`` (numpy's, on values) as an autograd primitive that records itself on boxes
    and whose derivative, when a gradient asks for one, raises NotImplementedError: the
    value exists, a derivative of ``what`` does not (autograd's own ``svd`` with
    ``full_matrices=True`` does the same). Made once per function, at import: autograd
    keeps every primitive's derivatives for good."""
    prim = primitive(fn)

    def derivative(argnum: int, ans: Any, args: tuple, kwargs: dict) -> Callable:
        def vjp(g: Any) -> Any:
            raise NotImplementedError(f"autograd: {name} has no derivative with respect "
                                      f"to {what}")

        return vjp

    defvjp_argnum(prim, derivative)
    return prim


def unpacked(fn: Callable) -> Callable:
    """``fn`` whose tuple result autograd gives as one ``SequenceBox``: a tuple of boxes
    (each item recorded as an index into the sequence), for numpy's container."""

    @functools.wraps(fn)
    def as_tuple(*args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        if isinstance(out, Box) and not hasattr(getval(out), "shape"):
            return tuple(out[i] for i in range(len(getval(out))))
        return out

    return as_tuple


def positional(fn: Callable, *names: str) -> Callable:
    """``fn`` (an autograd primitive) with its array arguments ``names`` (numpy's names
    of its leading parameters, in order) passed by position when given by keyword.

    An autograd primitive records only the boxes among its positional arguments (a box
    given as ``b=`` reaches numpy as an object), and its derivatives are written for
    positions, not numpy's keyword names (``dot``'s ``b``).
    """

    @functools.wraps(fn)
    def by_position(*args: Any, **kwargs: Any) -> Any:
        if not kwargs:
            return fn(*args)
        args = list(args)
        for name in names[len(args):]:
            if name not in kwargs:
                break
            args.append(kwargs.pop(name))
        return fn(*args, **kwargs)

    return by_position
