"""numpy's loop of a ufunc for the dtypes of its operands.

numpy runs one inner loop per combination of operand dtypes, Python numbers counting
by their kind alone. The loop's dtypes are numpy's promotion for that function,
including where the libraries' own promotion differs:

- a boolean operand of a function that has no boolean loop: ``floor_divide``,
  ``power``, ``remainder`` and the shifts of two booleans compute in int8, ``bool -
  int64`` in int64, ``bool - 2`` in int64 (a Python int beside booleans is numpy's
  default integer);
- the combinations numpy refuses, with numpy's ``TypeError``: ``bool - bool``,
  ``gcd`` of booleans, ``ldexp`` with a float exponent, a shift of a float.

A table casts its operands to these dtypes where its library promotes otherwise.

Examples
--------
>>> import numpy as np
>>> loop("floor_divide", (np.dtype(bool), np.dtype(bool)))
(dtype('int8'), dtype('int8'), dtype('int8'))
>>> loop("subtract", (np.dtype(bool), int))
(dtype('int64'), dtype('int64'), dtype('int64'))
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

# Python numbers numpy takes by their kind (NEP 50); a Python bool is numpy's bool
# (resolve_dtypes takes no bool type)
_WEAK = (int, float, complex)
_BOOL = np.dtype(bool)


def key(a: Any, dtype_of: Callable[[Any], np.dtype]) -> Any:
    """What numpy's loop resolution reads of an operand: a Python number's type, or
    the numpy dtype of an array (``dtype_of``: the library's array -> numpy dtype)."""
    t = type(a)
    if t in _WEAK:
        return t
    return _BOOL if t is bool else dtype_of(a)


def is_bool(a: Any, bool_dtype: Any) -> bool:
    """Whether ``a`` is a Python bool or an array whose dtype is ``bool_dtype``."""
    if type(a) is bool:
        return True
    dtype = getattr(a, "dtype", None)
    return dtype is not None and dtype == bool_dtype


@functools.cache
def loop(name: str, keys: tuple) -> tuple[np.dtype, ...]:
    """numpy's loop dtypes (the inputs', then the outputs') of the ufunc ``name`` for
    operands read as ``keys``; numpy's ``TypeError`` where it has no loop."""
    uf = getattr(np, name)
    return tuple(uf.resolve_dtypes((*keys, *(None,) * uf.nout)))


def in_loop(
    name: str,
    args: tuple,
    dtype_of: Callable[[Any], np.dtype],
    cast: Callable[[Any, np.dtype], Any],
) -> tuple[list, np.dtype]:
    """The operands ``args`` cast to numpy's loop of ``name`` for their dtypes (``cast``:
    one operand, a Python number too, to the library's array of a numpy dtype), and
    the loop's output dtype; numpy's ``TypeError`` where it has no loop."""
    dts = loop(name, tuple(key(a, dtype_of) for a in args))
    return [cast(a, d) for a, d in zip(args, dts, strict=False)], dts[len(args)]


def bool_operands(
    name: str,
    fn: Callable[[Any, Any], Any],
    bool_dtype: Any,
    dtype_of: Callable[[Any], np.dtype],
    cast: Callable[[Any, np.dtype], Any],
    always: bool = False,
) -> Callable[[Any, Any], Any]:
    """``fn(x1, x2)`` with its operands first cast to numpy's loop of ``name`` where one
    is boolean (a Python bool or an array of the library's ``bool_dtype``), or, with
    ``always``, for every call (``gcd``: numpy refuses floats); numpy's ``TypeError``
    where it has no loop (``bool - bool``, ``ldexp`` of a float exponent)."""

    def call(x1: Any, x2: Any, /) -> Any:
        if always or is_bool(x1, bool_dtype) or is_bool(x2, bool_dtype):
            (x1, x2), _ = in_loop(name, (x1, x2), dtype_of, cast)
        return fn(x1, x2)

    call.__name__ = call.__qualname__ = "_" + name
    return call


def check_core_dims(name: str, *ndims: int) -> None:
    """numpy's ``ValueError`` where an operand of the gufunc ``name`` (``matmul``,
    ``vecdot``...) has fewer dimensions than its core signature needs: numpy's own
    check, run on arrays of ones of those numbers of dimensions."""
    getattr(np, name)(*(np.ones((1,) * n) for n in ndims))
