"""numpy's keywords that a library's own function lacks: honoured or refused here, once
for every table.

An adapter takes each keyword of its numpy (scipy) function by name, or passes
``**kwargs`` on whole to something that reads every key; it never takes keywords it
drops (``tests/translations/test_no_swallowed_keywords.py`` walks every table for
that). A keyword is honoured where the library can give numpy's result, accepted
without effect where its value cannot change the result (``subok`` on a library
without array subclasses, ``overwrite_a``, which only allows scipy to write into its
input), and refused with the function, the library and the keyword named otherwise.
The checks that several tables share are here: ``out=`` (``do`` never writes into an
argument), ``order=`` (checked as numpy checks it, then laid out), ``sort``'s
``kind``/``order``/``stable`` (checked as numpy checks them), ``device=`` of a
library whose arrays live in host memory only, ``dtype=``/``casting=`` (numpy's
casting rule, then the cast), ``array``'s ``ndmin``/``ndmax``, scipy's
``check_finite`` and the keywords of a ufunc such as ``matmul``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from dispatch.translations._composed.creation import _layout
from dispatch.translations._composed.creation import (
    copy_needed as copy_needed,  # the tables' helper
)
from dispatch.translations._composed.devices import ComputeDevice, np_dtype

from dispatch.engine import UnsupportedError, do

_ORDERS = ("C", "F", "A", "K")


def refused(name: str, backend: str, keyword: str, reason: str) -> UnsupportedError:
    """The error of a keyword numpy's ``name`` takes and ``backend`` cannot honour."""
    return UnsupportedError(f"do({name!r}) on backend {backend!r}: {keyword}= {reason}")


def refused_value(name: str, backend: str, keyword: str, value: Any,
                  reason: str) -> UnsupportedError:
    """The error of one value of a keyword that ``backend`` cannot honour
    (``copy=False`` where numpy would write into an argument)."""
    return UnsupportedError(f"do({name!r}) on backend {backend!r}: {keyword}={value!r} "
                            f"{reason}")


def no_out(name: str, backend: str, out: Any) -> None:
    """numpy's ``out=``, refused: ``do`` returns a new array and never writes into an
    argument (the purity contract, docs/design.md)."""
    if out is not None:
        raise refused(name, backend, "out", "is not supported: do() returns a new array "
                      "and never writes into an argument; use the result instead")


def check_order(order: Any) -> None:
    """numpy's ValueError for a memory order it does not know (None: the default)."""
    if order is None or (isinstance(order, str) and order.upper() in _ORDERS):
        return
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def in_order(x: Any, order: Any, copy: Any = None, name: str = "", backend: str = "") -> Any:
    """``x`` laid out in numpy's ``order`` ('C' or 'F'; 'A', 'K' and None keep it): the
    library's ``ascontiguousarray``/``asfortranarray``, which on a library with one
    layout give an equal array (numpy's answer without the order); with ``copy=False``,
    numpy's ValueError where that layout is a copy."""
    check_order(order)
    return _layout(x, order, copy, name, backend)


def reshape_order(shape: Sequence[int], newshape: Any, order: Any, copy: Any) -> str:
    """numpy's ``reshape`` ``order`` of an array of a library with one (C) layout, as
    'C' or 'F' ('A' reads such an array in C order), after numpy's checks: its
    ValueError for an order it does not know or does not reshape in ('K'), and for
    ``copy=False`` where reading in Fortran order needs a copy (aliasing itself is
    unobservable on an immutable library; the refusal is numpy's answer)."""
    name = order.upper() if isinstance(order, str) else order
    if name in ("C", "A"):
        return "C"
    check_order(order)
    if name == "K":
        raise ValueError("order 'K' is not permitted for reshaping")
    if copy is False:
        strides = [0] * len(shape)
        step = 1
        for i in range(len(shape) - 1, -1, -1):
            strides[i] = step
            step *= max(int(shape[i]), 1)
        check_view(shape, strides, newshape, "F")
    return "F"


def check_view(shape: Sequence[int], strides: Sequence[int], newshape: Any, order: str) -> None:
    """numpy's ValueError for ``reshape(copy=False)`` of an array of this shape and these
    strides (in elements) where the new shape is no view of it. numpy decides from the
    strides alone: a stand-in that owns one byte (never read) gives its answer without
    the data."""
    stand_in = np.lib.stride_tricks.as_strided(
        np.empty(1, np.int8), tuple(int(n) for n in shape), tuple(int(k) for k in strides))
    np.reshape(stand_in, newshape, order=order, copy=False)


def check_sort(kind: Any = None, order: Any = None, stable: Any = None) -> bool:
    """numpy's checks of ``sort``/``argsort``'s ``kind``, ``order`` and ``stable``
    (its ValueError or TypeError for a kind it does not know, for ``kind`` and
    ``stable`` given together, and for ``order=``, which names the fields of a
    structured array: no other library has one); whether the caller asked for a
    stable sort (``kind='stable'`` or ``'mergesort'``, or ``stable=True``)."""
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if kind is not None and stable is not None:
        raise ValueError("`kind` and keyword parameters can't be provided at the same "
                         "time. Use only one of them.")
    if kind is None:
        return bool(stable)
    if not isinstance(kind, str):
        raise TypeError(f"sort kind must be str, not {type(kind).__name__}")
    if kind[:1].lower() not in ("q", "h", "m", "s"):
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    return kind[:1].lower() in ("m", "s")


def host_device(name: str, backend: str, device: Any) -> None:
    """``device=`` of a library whose arrays live in host memory only: None, ``'cpu'``
    or a CPU :class:`ComputeDevice` is that memory; any other device is refused with
    numpy's ValueError (numpy's own arrays are host arrays too), never ignored."""
    if device is None:
        return
    if isinstance(device, ComputeDevice):
        host = device.device_type == "CPU"
    else:
        host = str(device).lower() in ("cpu", "cpu:0")
    if not host:
        raise ValueError(f"do({name!r}) on backend {backend!r}: device={device!r} cannot be "
                         f"honoured; {backend} arrays live in host memory ('cpu') only")


def takes_device(name: str, fn: Callable, place: Callable[[str, Any, Any], Any]) -> Callable:
    """``fn``, a library's creation routine without numpy's ``device=``, taking it: the
    result goes through ``place(name, result, device)`` (a move to the device, or the
    check that it is the one device of a host library), never ignored.

    Examples
    --------
    >>> import numpy as np
    >>> zeros = takes_device("zeros", lambda shape: np.zeros(shape), host_place("numpy"))
    >>> zeros(2, device="cpu")
    array([0., 0.])
    >>> zeros(2, device="cuda")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: do('zeros') on backend 'numpy': device='cuda' cannot be honoured; ...
    """

    def create(*args: Any, device: Any = None, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        return out if device is None else place(name, out, device)

    create.__name__ = create.__qualname__ = getattr(fn, "__name__", name)
    create.__doc__ = fn.__doc__
    create.__wrapped__ = fn  # type: ignore[attr-defined]
    return create


def host_place(backend: str) -> Callable[[str, Any, Any], Any]:
    """The ``place`` of :func:`takes_device` for a library whose arrays live in host
    memory only: :func:`host_device`'s check, the array as it is."""

    def place(name: str, out: Any, device: Any) -> Any:
        host_device(name, backend, device)
        return out

    return place


def diff_ends(fn: Callable) -> Callable:
    """``fn``, a library's ``diff(a, n, axis)``, with numpy's ``prepend=`` and
    ``append=``: the values joined to ``a`` along ``axis`` first, a scalar as a slice of
    ``a``'s shape, by numpy's promotion (``concatenate``).

    Examples
    --------
    >>> import numpy as np
    >>> diff_ends(lambda a, n, axis: np.diff(a, n, axis))(np.array([1, 3, 6]), prepend=0)
    array([1, 2, 3])
    """

    def diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Any:
        if prepend is None and append is None:
            return fn(a, n, axis)
        shape = list(do("shape", a))
        if not shape:
            raise ValueError("diff requires input that is at least one dimensional")
        shape[axis] = 1  # an IndexError for an axis a has not, as numpy's AxisError

        def end(v: Any) -> Any:  # a scalar becomes a slice of a's shape
            v = do("asarray", v, like=a)
            return do("broadcast_to", v, tuple(shape)) if do("ndim", v) == 0 else v

        parts = [a]
        if prepend is not None:
            parts.insert(0, end(prepend))
        if append is not None:
            parts.append(end(append))
        return fn(do("concatenate", parts, axis=axis), n, axis)

    diff.__name__ = diff.__qualname__ = "diff"
    return diff


def _dtypes(arrays: Sequence[Any]) -> list[np.dtype]:
    return [do("dtype_of", a) for a in arrays]


def cast_all(arrays: Sequence[Any], dtype: Any, casting: str = "same_kind", *,
             ufunc: str | None = None) -> list[Any]:
    """``arrays`` cast to ``dtype`` under numpy's ``casting`` rule (numpy's TypeError
    where the rule forbids it); with no dtype they are only checked against their
    common dtype, as numpy's ``concatenate(casting='no')`` checks them. ``ufunc``
    names the ufunc whose inputs they are, for numpy's message."""
    if dtype is None and casting in ("safe", "same_kind", "unsafe"):
        return list(arrays)  # every input reaches the common dtype under these rules
    srcs = _dtypes(arrays)
    target = np.result_type(*srcs) if dtype is None else np_dtype(dtype)
    for i, src in enumerate(srcs):
        if not np.can_cast(src, target, casting):  # ValueError for an unknown rule
            if ufunc is None:
                raise TypeError(f"Cannot cast array data from {src!r} to {target!r} "
                                f"according to the rule {casting!r}")
            raise TypeError(f"Cannot cast ufunc {ufunc!r} input {i} from {src!r} to "
                            f"{target!r} with casting rule {casting!r}")
    if dtype is None:
        return list(arrays)
    return [a if src == target else do("astype", a, target.name)
            for a, src in zip(arrays, srcs, strict=True)]


# numpy's keywords of a ufunc (``where``) or a generalized ufunc (``axes``, ``axis``)
# beside ``out``
_UFUNC_KEYWORDS = frozenset({"where", "casting", "order", "dtype", "subok", "signature",
                             "axes", "axis"})


def ufunc_call(name: str, backend: str, fn: Callable, args: tuple, out: Any,
               keywords: dict[str, Any]) -> Any:
    """``fn(*args)`` with numpy's ufunc keywords ``out`` and ``keywords`` honoured or
    refused: ``dtype`` and ``casting`` cast the operands as numpy's loop does,
    ``order`` lays the result out, ``subok`` changes nothing (no array subclasses);
    ``out``, a ``where`` mask (without ``out`` numpy leaves the masked-out elements
    uninitialized) and the loop and axes selectors (``signature``, ``axes``, ``axis``)
    are refused. An adapter calls it only when one of them is given, so that its
    common call pays nothing."""
    unknown = sorted(set(keywords) - _UFUNC_KEYWORDS)
    if unknown:
        raise TypeError(f"{name}() got an unexpected keyword argument {unknown[0]!r}")
    no_out(name, backend, out)
    if keywords.get("where", True) is not True:
        raise refused(name, backend, "where", "is not supported: without out=, numpy "
                      "leaves the masked-out elements uninitialized; use where(mask, ...)")
    for key in ("signature", "axes", "axis"):
        if keywords.get(key) is not None:
            raise refused(name, backend, key, f"is not supported: {backend}'s {name} has "
                          "no loop or axes selection; move the axes (moveaxis) or cast the "
                          "operands instead")
    order = keywords.get("order", "K")
    check_order(order)
    args = tuple(cast_all(args, keywords.get("dtype"), keywords.get("casting", "same_kind"),
                          ufunc=name))
    return in_order(fn(*args), order)


def array_shape(out: Any, source: Any, order: Any = "K", ndmin: Any = 0,
                ndmax: Any = 0, *, copy: Any = None, backend: str = "") -> Any:
    """numpy's ``array(source, order=, ndmin=, ndmax=)`` given ``out``, the array made
    from ``source``: ones prepended to the shape up to ``ndmin`` dimensions, numpy's
    ValueError where nested sequences go deeper than ``ndmax`` (numpy reads no deeper;
    a library has no object arrays to hold the rest), then laid out in ``order``
    (with ``copy=False``, numpy's ValueError where that layout is a copy)."""
    if not ndmin and not ndmax and order in ("K", "A", "k", "a", None):
        return out  # numpy's defaults (the common call)
    check_order(order)
    ndmin, ndmax = operator.index(ndmin), operator.index(ndmax)
    if ndmax:
        if ndmin > ndmax:
            raise ValueError(f"ndmin must be <= ndmax ({ndmax})")
        if isinstance(source, (list, tuple)) and do("ndim", out) > ndmax:
            raise ValueError("setting an array element with a sequence. The requested "
                             f"array would exceed the maximum number of dimension of {ndmax}.")
    shape = tuple(do("shape", out))
    if len(shape) < ndmin:
        out = do("reshape", out, (1,) * (ndmin - len(shape)) + shape)
    return _layout(out, order, copy, "array", backend)


def check_finite(*arrays: Any) -> None:
    """scipy's ``check_finite=True``: its ValueError for an array holding an infinity
    or a NaN (the values are read, so a lazy array is computed)."""
    for a in arrays:
        if do("dtype_of", a).kind in "fc" and not bool(do("all", do("isfinite", a))):
            raise ValueError("array must not contain infs or NaNs")


# numpy's keywords of each mode of ``pad``
_PAD_KEYWORDS = {
    "constant": ("constant_values",), "empty": (), "edge": (), "wrap": (),
    "linear_ramp": ("end_values",), "reflect": ("reflect_type",),
    "symmetric": ("reflect_type",), "maximum": ("stat_length",), "mean": ("stat_length",),
    "median": ("stat_length",), "minimum": ("stat_length",),
}


def pad_keywords(backend: str, mode: Any, keywords: dict[str, Any]) -> dict[str, Any]:
    """``pad``'s keywords of ``mode``, checked as numpy checks them (its ValueError for
    one the mode does not take); ``reflect_type='odd'``, which no table writes, is
    refused. A mode unknown here is left to the adapter's own error."""
    allowed = _PAD_KEYWORDS.get(mode) if isinstance(mode, str) else None
    if allowed is None:
        return keywords
    extra = set(keywords) - set(allowed)
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode {mode!r}: {extra}")
    if keywords.get("reflect_type", "even") == "odd":
        raise refused("pad", backend, "reflect_type", "'odd' is not supported (the "
                      "extension mirrored about the edge value); 'even' is")
    return keywords


class _NoValue:
    """The default of a parameter that numpy tells apart from ``None`` (clip's bounds)."""

    def __repr__(self) -> str:
        return "<no value>"


NO_VALUE: Any = _NoValue()


def clip_bounds(a_min: Any, a_max: Any, min: Any, max: Any) -> tuple[Any, Any]:
    """numpy 2's reading of ``clip``'s bounds, for the tables' ``clip``: ``(lo, hi)``,
    ``None`` for no bound.

    ``a_min`` and ``a_max`` go together (one without the other is numpy's TypeError,
    where ``clip(x, 0.5)`` would otherwise clip from below alone); without them
    ``min=``/``max=`` give the bounds, and with them ``min=``/``max=`` are refused.

    >>> clip_bounds(NO_VALUE, NO_VALUE, 0.0, NO_VALUE)
    (0.0, None)
    >>> clip_bounds(0.5, NO_VALUE, NO_VALUE, NO_VALUE)
    Traceback (most recent call last):
    TypeError: clip() missing 1 required positional argument: 'a_max'
    """
    if a_min is NO_VALUE and a_max is NO_VALUE:
        return (None if min is NO_VALUE else min), (None if max is NO_VALUE else max)
    if a_min is NO_VALUE or a_max is NO_VALUE:
        missing = "a_min" if a_min is NO_VALUE else "a_max"
        raise TypeError(f"clip() missing 1 required positional argument: {missing!r}")
    if min is not NO_VALUE or max is not NO_VALUE:
        raise ValueError("clip: min= and max= may not be passed when a_min and a_max are "
                         "given (numpy 2 refuses both spellings at once)")
    return a_min, a_max


def reshape_shape(shape: Any, newshape: Any) -> Any:
    """``reshape``'s shape, given as ``shape`` or by numpy's older name ``newshape``.

    Neither is numpy's TypeError (never a reshape to nothing); both is refused.

    >>> reshape_shape(NO_VALUE, (2, 3))
    (2, 3)
    >>> reshape_shape(NO_VALUE, NO_VALUE)
    Traceback (most recent call last):
    TypeError: reshape() missing 1 required positional argument: 'shape'
    """
    if shape is NO_VALUE:
        if newshape is NO_VALUE:
            raise TypeError("reshape() missing 1 required positional argument: 'shape'")
        return newshape
    if newshape is not NO_VALUE:
        raise TypeError("reshape: shape= and newshape= (numpy's older name) are one parameter: "
                        "pass shape only")
    return shape


def bool_reduction(name: str, a: Any, axis: Any = None, keepdims: bool = False,
                   initial: Any = None) -> Any:
    """numpy's ``sum``, ``nansum``, ``prod``, ``nanprod``, ``cumsum`` or ``cumprod`` of ``a``
    with ``dtype=bool``, for tables whose library adds booleans as integers (a count
    where numpy answers True) or has no boolean kernel.

    numpy adds booleans with OR and multiplies them with AND: the sum is ``any`` of the
    non-zero entries, the product ``all``, and the running forms accumulate the same
    way. ``nansum`` reads a nan as 0 and ``nanprod`` as 1, as for any dtype.

    >>> bool_reduction("sum", np.array([0, 2, 0]))
    np.True_
    >>> bool_reduction("cumprod", np.array([1, 2, 0, 3]))
    array([ True,  True, False, False])
    """
    truth = do("not_equal", a, 0)
    if name in ("nansum", "nanprod") and do("dtype_of", a).kind in "fc":
        nan = do("isnan", a)
        truth = (do("logical_and", truth, do("logical_not", nan)) if name == "nansum"
                 else do("logical_or", truth, nan))
    op = name.removeprefix("nan")
    if op in ("cumsum", "cumprod"):
        # a running OR (AND): the count of true (false) entries so far is not zero (zero)
        counted = truth if op == "cumsum" else do("logical_not", truth)
        running = do("cumsum", do("astype", counted, "int64"), axis=axis)
        return do("not_equal" if op == "cumsum" else "equal", running, 0)
    out = do("any" if op == "sum" else "all", truth, axis=axis, keepdims=keepdims)
    if initial is not None:
        out = do("logical_or" if op == "sum" else "logical_and", out, do("not_equal", initial, 0))
    return out
