"""numpy's array routines ``trim_zeros``, ``unwrap``, ``resize``, ``rollaxis``,
``row_stack``, ``dsplit``, ``block``, ``extract``, ``ix_``, ``ravel_multi_index``,
``unravel_index``, ``bitwise_count``, ``packbits`` and ``unpackbits``, and keras's
``get_item`` (numpy's indexing ``x[key]``), written once with ``do``.

A private module of the ``shape`` and ``indexing`` topics (both modules are
near the size limit): the libraries' entries of these names are in their
``shape``, ``indexing`` and ``elementwise`` tables.

Index checks that numpy makes on the values (``ravel_multi_index`` and
``unravel_index`` out of bounds, ``trim_zeros``'s extent) read them on the host,
where they can be read (not while tracing).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._composed._common import _first_array, _host
from dispatch.translations._composed.reductions import _dt, _readable, default_float

from dispatch.engine import composed, do, is_array


def _axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(int(n) for n in do("shape", x))


def _library_array(*xs: Any) -> Any:
    """The first argument that is an array (of any library), else None."""
    return next((x for x in xs if is_array(x)), None)


# ---------------------------------------------------------------- shape


@composed("trim_zeros")
def trim_zeros(filt: Any, trim: str = "fb", axis: Any = None) -> Any:
    """``filt`` without its leading (``'f'``) and trailing (``'b'``) zeros along
    ``axis`` (every axis when None: the smallest box that holds the non-zeros),
    numpy's ``trim_zeros``; the values are read on the host (eager only).

    Examples
    --------
    >>> import numpy as np
    >>> do("trim_zeros", np.array([0.0, 0.0, 1.5, 0.0, -2.0, 0.0]))
    array([ 1.5,  0. , -2. ])
    >>> do("trim_zeros", np.array([[0, 0, 0], [0, 3, 0], [0, 0, 4]]), "f")
    array([[3, 0],
           [0, 4]])
    """
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    shape = _shape(filt)
    ndim = len(shape)
    axes: set[int] = set(range(ndim)) if axis is None else {
        _axis(int(a), ndim) for a in ((axis,) if isinstance(axis, numbers.Integral) else axis)
    }
    if not axes:
        return filt
    found = np.argwhere(_host(do("not_equal", filt, 0)))
    if found.size == 0:
        start = stop = np.zeros(ndim, dtype=np.intp)
        bounds = [(int(a), int(b)) for a, b in zip(start, stop, strict=True)]
    else:
        lo, hi = found.min(axis=0), found.max(axis=0) + 1
        bounds = [(int(lo[i]) if "f" in trim else 0, int(hi[i]) if "b" in trim else shape[i])
                  for i in range(ndim)]
    index = tuple(slice(*bounds[i]) if i in axes else slice(None) for i in range(ndim))
    return filt[index]


@composed("resize")
def resize(a: Any, new_shape: Any) -> Any:
    """An array of ``new_shape`` filled with the elements of ``a`` (flattened, in
    C order) repeated as often as needed, numpy's ``resize``; zeros when ``a`` is
    empty.

    Examples
    --------
    >>> import numpy as np
    >>> do("resize", np.array([[1, -2], [3, 4]]), (3, 3))
    array([[ 1, -2,  3],
           [ 4,  1, -2],
           [ 3,  4,  1]])
    """
    if isinstance(new_shape, numbers.Integral):
        new_shape = (new_shape,)
    new_shape = tuple(int(n) for n in new_shape)
    if any(n < 0 for n in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    flat = do("ravel", a)
    size, new_size = _shape(flat)[0], math.prod(new_shape)
    if size == 0 or new_size == 0:
        return do("zeros", new_shape, dtype=_dt(a), like=flat)
    repeats = -(-new_size // size)
    # a copy, as numpy's (a slice of the flattened input may be a view of it)
    filled = do("tile", flat, repeats)[:new_size] if repeats > 1 else do("copy", flat[:new_size])
    return do("reshape", filled, new_shape)


@composed("rollaxis")
def rollaxis(a: Any, axis: int, start: int = 0) -> Any:
    """``a`` with ``axis`` moved to stand before position ``start``, numpy's
    ``rollaxis`` (``moveaxis`` is the clearer spelling).

    Examples
    --------
    >>> import numpy as np
    >>> do("rollaxis", np.ones((2, 3, 4, 5)), 3, 1).shape
    (2, 5, 3, 4)
    """
    n = len(do("shape", a))
    axis = _axis(axis, n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise np.exceptions.AxisError(
            f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in"
        )
    if axis < start:
        start -= 1
    axes = [i for i in range(n) if i != axis]
    axes.insert(start, axis)
    return do("transpose", a, tuple(axes))


@composed("row_stack")
def row_stack(tup: Any, **kwargs: Any) -> Any:
    """The arrays of ``tup`` stacked as rows, numpy's ``row_stack``: ``vstack``
    (numpy 2.x's alias of it, deprecated there; this one does not warn).

    Examples
    --------
    >>> import numpy as np
    >>> do("row_stack", [np.array([1.0, -2.0]), np.array([[3.0, 4.0], [5.0, 6.0]])])
    array([[ 1., -2.],
           [ 3.,  4.],
           [ 5.,  6.]])
    """
    return do("vstack", tup, **kwargs)


@composed("dsplit")
def dsplit(ary: Any, indices_or_sections: Any) -> list:
    """``ary`` split along its third axis (depth), numpy's ``dsplit``: ``split``
    with ``axis=2``, for arrays of 3 or more dimensions only (``ValueError``).

    Examples
    --------
    >>> import numpy as np
    >>> [p.shape for p in do("dsplit", np.zeros((2, 3, 6)), [1, 4])]
    [(2, 3, 1), (2, 3, 3), (2, 3, 2)]
    """
    if len(_shape(ary)) < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return do("split", ary, indices_or_sections, axis=2)


def _depth(x: Any, path: str = "arrays") -> int:
    if isinstance(x, tuple):
        raise TypeError(f"{path} is a tuple. Only lists can be used to arrange blocks, and "
                        "np.block does not allow implicit conversion from tuple to ndarray.")
    if not isinstance(x, list):
        return 0
    if not x:
        raise ValueError(f"List at {path} cannot be empty")
    depths = {_depth(e, f"{path}[{i}]") for i, e in enumerate(x)}
    if len(depths) != 1:
        raise ValueError(f"List depths are mismatched at {path}")
    return 1 + depths.pop()


def _leaves(x: Any) -> list:
    return [a for e in x for a in _leaves(e)] if isinstance(x, list) else [x]


@composed("block")
def block(arrays: Any) -> Any:
    """An array assembled from nested lists of blocks, numpy's ``block``: the
    innermost lists are joined along the last axis, the next ones along the
    second to last, and so on; blocks with fewer dimensions get leading axes of
    length 1.

    Examples
    --------
    >>> import numpy as np
    >>> do("block", [[np.eye(2), np.zeros((2, 1))], [np.ones((1, 2)), np.array([[5.0]])]])
    array([[1., 0., 0.],
           [0., 1., 0.],
           [1., 1., 5.]])
    """
    depth = _depth(arrays)
    leaves = _leaves(arrays)
    like = _library_array(*leaves)
    if like is None:
        like = np.asarray(leaves[0])

    def as_array(x: Any) -> Any:
        return x if is_array(x) else do("asarray", np.asarray(x), like=like)

    ndim = max(depth, *(len(do("shape", as_array(x))) for x in leaves))

    def build(x: Any, level: int) -> Any:
        if level == 0:
            x = as_array(x)
            shape = tuple(do("shape", x))
            return do("reshape", x, (1,) * (ndim - len(shape)) + shape)
        return do("concatenate", [build(e, level - 1) for e in x], axis=-level)

    return build(arrays, depth)


@composed("extract")
def extract(condition: Any, arr: Any) -> Any:
    """The elements of ``arr`` (flattened) where ``condition`` (flattened) is
    true, numpy's ``extract``.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.5, -2.0], [0.0, 4.0]])
    >>> do("extract", x > 0, x)
    array([1.5, 4. ])
    """
    if not is_array(arr):
        arr = do("asarray", np.asarray(arr), like=condition)
    if not is_array(condition):
        condition = do("asarray", np.asarray(condition), like=arr)
    index = do("flatnonzero", condition)
    return do("take", do("ravel", arr), index)


# ---------------------------------------------------------------- unwrap


@composed("unwrap")
def unwrap(p: Any, discont: Any = None, axis: int = -1, *, period: Any = 2 * math.pi) -> Any:
    """``p`` with every jump between neighbours along ``axis`` larger than
    ``discont`` (default ``period / 2``) replaced by its complement modulo
    ``period``, numpy's ``unwrap`` (integer input with an integer period stays
    integer, as numpy's).

    Examples
    --------
    >>> import numpy as np
    >>> do("unwrap", np.array([0.0, 3.0, 6.0, 2.5]))
    array([0.        , 3.        , 6.        , 8.78318531])
    >>> do("unwrap", np.array([1, 2, 3, 4, 5, 6, 1, 2, 3]), period=6)
    array([1, 2, 3, 4, 5, 6, 7, 8, 9])
    """
    if not is_array(p):
        p = do("asarray", np.asarray(p))
    ndim = len(do("shape", p))
    axis = _axis(axis, ndim)
    integer = _dt(p).kind in "biu" and isinstance(period, numbers.Integral)
    if _dt(p).kind in "biu" and not integer:
        p = do("astype", p, default_float(p))
    dd = do("diff", p, axis=axis)
    if discont is None:
        discont = period / 2
    if integer:
        high, rem = divmod(int(period), 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    ddmod = do("mod", dd - low, period) + low
    if ambiguous:
        edge = do("logical_and", do("equal", ddmod, low), dd > 0)
        ddmod = do("where", edge, do("full_like", ddmod, high), ddmod)
    small = do("less", do("abs", dd), discont)  # a float discont against integers
    correct = do("where", small, do("zeros_like", dd), ddmod - dd)
    head = tuple(slice(None) if i != axis else slice(0, 1) for i in range(ndim))
    tail = tuple(slice(None) if i != axis else slice(1, None) for i in range(ndim))
    # numpy writes into an array of p's dtype (cumsum widens int32)
    rest = p[tail] + do("astype", do("cumsum", correct, axis=axis), _dt(p))
    return do("concatenate", [p[head], rest], axis=axis)


# ---------------------------------------------------------------- indices


@composed("ix_")
def ix_(*args: Any) -> tuple:
    """Open-mesh index arrays from 1-d sequences (boolean ones become the indices
    of their true entries), numpy's ``ix_``: the k-th of n results has shape
    (1, ..., len, ..., 1), the length at position k.

    Examples
    --------
    >>> import numpy as np
    >>> rows, cols = do("ix_", np.array([0, 2]), np.array([True, False, True]))
    >>> rows.shape, cols.shape, cols.ravel()
    ((2, 1), (1, 2), array([0, 2]))
    """
    like = _first_array(*args)  # the library of the call (numpy arrays are constants)
    out = []
    n = len(args)
    for k, new in enumerate(args):
        if not is_array(new):
            new = np.asarray(new)
            if new.size == 0:
                new = new.astype(np.intp)
        if like is not None:
            new = do("asarray", new, like=like)
        if len(do("shape", new)) != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if _dt(new).kind == "b":
            # the true positions, read on the host: their count is the result's length
            new = do("asarray", np.flatnonzero(_host(new)), like=new)
        size = int(do("shape", new)[0])
        out.append(do("reshape", new, (1,) * k + (size,) + (1,) * (n - k - 1)))
    return tuple(out)


def _modes(mode: Any, n: int) -> list[str]:
    modes = [mode] * n if isinstance(mode, str) else list(mode)
    if len(modes) != n:
        raise ValueError(f"ravel_multi_index: {len(modes)} modes for {n} dimensions")
    for m in modes:
        if m not in ("raise", "wrap", "clip"):
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap', not {m!r}")
    return modes


def _index_arrays(name: str, xs: Sequence) -> list:
    like = _library_array(*xs)
    out = []
    for x in xs:
        if not is_array(x):
            x = np.asarray(x)
            x = x if like is None else do("asarray", x, like=like)
        if _dt(x).kind not in "iu":
            raise TypeError(f"{name}: only int indices permitted, not {_dt(x)}")
        out.append(do("astype", x, "int64"))
    return out


@composed("ravel_multi_index")
def ravel_multi_index(multi_index: Any, dims: Any, mode: Any = "raise", order: str = "C") -> Any:
    """Flat indices of the multi-indices ``multi_index`` (one integer array per
    dimension) into an array of shape ``dims``, numpy's ``ravel_multi_index``:
    ``mode`` 'raise' (out of bounds is a ``ValueError``), 'wrap' or 'clip', for
    all dimensions or one per dimension; ``order`` 'C' or 'F'. int64 results.

    Examples
    --------
    >>> import numpy as np
    >>> do("ravel_multi_index", (np.array([0, 2, 1]), np.array([3, 0, 1])), (3, 4))
    array([3, 8, 5])
    >>> do("ravel_multi_index", (np.array([4, -1]), np.array([1, 5])), (3, 4), mode="wrap")
    array([5, 9])
    """
    dims = (int(dims),) if isinstance(dims, numbers.Integral) else tuple(int(d) for d in dims)
    index = _index_arrays("ravel_multi_index", list(multi_index))
    if len(index) != len(dims):
        raise ValueError(
            f"parameter multi_index must be a sequence of length {len(dims)}, not {len(index)}"
        )
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    index = list(do("broadcast_arrays", *index)) if index else index
    flat = None
    strides = [math.prod(dims[k + 1:]) if order == "C" else math.prod(dims[:k])
               for k in range(len(dims))]
    for idx, n, mode_k, stride in zip(index, dims, _modes(mode, len(dims)), strides, strict=True):
        if mode_k == "wrap":
            idx = do("mod", idx, n)
        elif mode_k == "clip":
            idx = do("clip", idx, 0, n - 1)
        elif _readable(idx):
            host = _host(idx)
            if host.size and (host.min() < 0 or host.max() >= n):
                raise ValueError("invalid entry in coordinates array")
        term = idx * stride
        flat = term if flat is None else flat + term
    return flat


@composed("unravel_index")
def unravel_index(indices: Any, shape: Any, order: str = "C") -> tuple:
    """The multi-indices (one int64 array per dimension, each of ``indices``'
    shape) of the flat ``indices`` into an array of ``shape``, numpy's
    ``unravel_index``; an index outside ``[0, prod(shape))`` is a ``ValueError``.

    Examples
    --------
    >>> import numpy as np
    >>> do("unravel_index", np.array([3, 8, 5]), (3, 4))
    (array([0, 2, 1]), array([3, 0, 1]))
    """
    shape = (int(shape),) if isinstance(shape, numbers.Integral) else tuple(int(s) for s in shape)
    (idx,) = _index_arrays("unravel_index", [indices])
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    size = math.prod(shape)
    if _readable(idx):
        host = _host(idx)
        if host.size and (host.min() < 0 or host.max() >= size):
            bad = int(host.max()) if host.max() >= size else int(host.min())
            raise ValueError(f"index {bad} is out of bounds for array with size {size}")
    out: list = [None] * len(shape)
    dims = range(len(shape) - 1, -1, -1) if order == "C" else range(len(shape))
    for k in dims:
        out[k] = do("remainder", idx, shape[k]) if shape[k] else idx
        idx = do("floor_divide", idx, shape[k]) if shape[k] else idx
    return tuple(out)


# ---------------------------------------------------------------- bits

# the bit counts of the bytes of a non-negative int64 (SWAR: sums of neighbours, in place);
# numpy int64 constants, so that no library reads them as a narrower Python int
_M1, _M2, _M4 = (np.int64(m) for m in (0x5555555555555555, 0x3333333333333333,
                                        0x0F0F0F0F0F0F0F0F))
_LOW63, _LOW7 = np.int64(0x7FFFFFFFFFFFFFFF), np.int64(0x7F)


@composed("bitwise_count")
def bitwise_count(x: Any, /) -> Any:
    """The number of 1 bits in the absolute value of each integer (or boolean),
    numpy's ``bitwise_count`` (uint8 results).

    Examples
    --------
    >>> import numpy as np
    >>> do("bitwise_count", np.array([0, 7, -8, 1023]))
    array([ 0,  3,  1, 10], dtype=uint8)
    """
    dt = _dt(x)
    if dt.kind not in "biu":
        raise TypeError(f"bitwise_count: integer input needed, not {dt}")
    v = do("astype", do("abs", x) if dt.kind == "i" else x, "int64")
    # int64's lowest value and uint64 above 2**63 have the sign bit set: count it apart
    sign = do("astype", v < 0, "int64")
    v = do("bitwise_and", v, _LOW63)
    v = v - do("bitwise_and", do("right_shift", v, np.int64(1)), _M1)
    v = do("bitwise_and", v, _M2) + do("bitwise_and", do("right_shift", v, np.int64(2)), _M2)
    v = do("bitwise_and", v + do("right_shift", v, np.int64(4)), _M4)
    for shift in (8, 16, 32):
        v = v + do("right_shift", v, np.int64(shift))
    return do("astype", do("bitwise_and", v, _LOW7) + sign, "uint8")


_BIG = (128, 64, 32, 16, 8, 4, 2, 1)


def _bit_weights(bitorder: str) -> tuple[int, ...]:
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return _BIG if bitorder == "big" else _BIG[::-1]


@composed("packbits")
def packbits(a: Any, /, axis: Any = None, bitorder: str = "big") -> Any:
    """The truth values of ``a`` (integers or booleans) packed eight to a uint8
    along ``axis`` (of the flattened array when None), the last byte padded with
    zeros, numpy's ``packbits``.

    Examples
    --------
    >>> import numpy as np
    >>> do("packbits", np.array([[1, 0, 1], [0, 0, 1]]), axis=-1)
    array([[160],
           [ 32]], dtype=uint8)
    """
    dt = _dt(a)
    if dt.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    weights = _bit_weights(bitorder)
    bits = do("astype", do("not_equal", a, 0), "int64")
    if axis is None:
        bits, axis = do("ravel", bits), 0
    ndim = len(do("shape", bits))
    axis = _axis(axis, ndim)
    bits = do("moveaxis", bits, axis, -1)
    shape = _shape(bits)
    pad = -shape[-1] % 8
    if pad:
        bits = do("concatenate", [bits, do("zeros", (*shape[:-1], pad), dtype="int64",
                                           like=bits)], axis=-1)
    bits = do("reshape", bits, (*shape[:-1], (shape[-1] + pad) // 8, 8))
    packed = do("sum", bits * do("asarray", np.array(weights, np.int64), like=bits), axis=-1)
    return do("moveaxis", do("astype", packed, "uint8"), -1, axis)


@composed("unpackbits")
def unpackbits(a: Any, /, axis: Any = None, count: Any = None, bitorder: str = "big") -> Any:
    """The bits of the uint8 array ``a`` unpacked along ``axis`` (of the flattened
    array when None), eight per byte, numpy's ``unpackbits``: ``count`` keeps that
    many bits (zeros padded past the end; negative: drops as many at the end).

    Examples
    --------
    >>> import numpy as np
    >>> do("unpackbits", np.array([160, 7], dtype=np.uint8), count=10)
    array([1, 0, 1, 0, 0, 0, 0, 0, 0, 0], dtype=uint8)
    """
    if _dt(a) != np.dtype("uint8"):
        raise TypeError("Expected an input array of unsigned byte data type")
    shifts = tuple(int(math.log2(w)) for w in _bit_weights(bitorder))
    if axis is None:
        a, axis = do("ravel", a), 0
    ndim = len(do("shape", a))
    axis = _axis(axis, ndim)
    x = do("moveaxis", a, axis, -1)
    shape = _shape(x)
    shifted = do("right_shift", do("expand_dims", x, -1),
                 do("asarray", np.array(shifts, np.uint8), like=x))
    bits = do("reshape", do("bitwise_and", shifted, 1), (*shape[:-1], shape[-1] * 8))
    if count is not None:
        n = shape[-1] * 8
        if n + int(count) < 0:
            raise ValueError("-count larger than number of elements")
        keep = int(count) if count >= 0 else n + int(count)
        if keep > n:
            bits = do("concatenate", [bits, do("zeros", (*shape[:-1], keep - n),
                                               dtype="uint8", like=bits)], axis=-1)
        else:
            bits = bits[..., :keep]
    return do("moveaxis", do("astype", bits, "uint8"), -1, axis)


# ---------------------------------------------------------------- get_item (numpy's indexing)

_VALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
          "integer or boolean arrays are valid indices")


def _entry(k: Any) -> Any:
    """One entry of an index: ints as ints, lists and scalars of numpy as arrays."""
    if k is None or k is Ellipsis or isinstance(k, slice | bool):
        return k
    if isinstance(k, numbers.Integral):
        return int(k)
    if isinstance(k, np.bool_):
        return bool(k)
    if isinstance(k, list | tuple):
        k = np.asarray(k)
        if k.size == 0:  # an empty list holds no values: numpy reads it as integers
            k = k.astype(np.int64)
    if isinstance(k, np.ndarray) and k.ndim == 0 and k.dtype.kind in "iub":
        return k.item()
    if is_array(k) and _dt(k).kind in "iub":
        if _dt(k).kind == "b" and not _shape(k):  # a 0-d mask: a new axis, as a bool
            return bool(_host(k))
        return k
    raise IndexError(_VALID)


def _width(k: Any) -> int:
    """How many axes of the indexed array the entry ``k`` takes."""
    if k is None or k is Ellipsis or isinstance(k, bool):
        return 0
    if isinstance(k, int | slice):
        return 1
    return len(_shape(k)) if _dt(k).kind == "b" else 1


def _forward(s: slice, n: int) -> tuple[slice, bool]:
    """A slice of positive step that takes the elements of ``s`` (on an axis of
    length ``n``), and whether they are then reversed (torch takes no negative step)."""
    start, stop, step = s.indices(n)
    if step > 0:
        return s, False
    count = len(range(start, stop, step))
    if count == 0:
        return slice(0, 0), False
    return slice(start + (count - 1) * step, start + 1, -step), True


def _int_in(k: int, n: int, axis: int) -> int:
    if not -n <= k < n:
        raise IndexError(f"index {k} is out of bounds for axis {axis} with size {n}")
    return k % n


@composed("get_item")
def get_item(x: Any, key: Any) -> Any:
    """``x[key]`` with numpy's indexing on every library (keras's ``get_item``):
    integers, slices (negative steps included), ``None``, ``Ellipsis``, integer
    and boolean arrays (lists too) in any mix, the advanced indices broadcast
    together and placed as numpy places them. Indices out of bounds raise
    ``IndexError`` where they can be read (not while tracing); boolean masks are
    read on the host (eager only).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(24.0).reshape(2, 3, 4)
    >>> do("get_item", x, (1, slice(None, None, -2), [0, 3]))  # advanced axes first
    array([[20., 12.],
           [23., 15.]])
    >>> do("get_item", x, (0, ..., None, 2)).shape
    (3, 1)
    """
    entries = [_entry(k) for k in (key if isinstance(key, tuple) else (key,))]
    shape = _shape(x)
    if sum(k is Ellipsis for k in entries) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(_width(k) for k in entries)
    if used > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, "
                         f"but {used} were indexed")
    fill = [slice(None)] * (len(shape) - used)
    if any(k is Ellipsis for k in entries):
        at = next(i for i, k in enumerate(entries) if k is Ellipsis)
        entries[at:at + 1] = fill
    else:
        entries += fill
    advanced = any(isinstance(k, bool) or (not isinstance(k, int | slice) and k is not None)
                   for k in entries)
    basic: list = []  # the key of the first step, one output axis per entry (but ints)
    flips: list[int] = []  # output axes reversed after it
    arrays: list[tuple[int, Any]] = []  # (output axis of the first step, int indices)
    dim = 0
    for k in entries:
        out_axis = len(basic) - (0 if advanced else sum(isinstance(b, int) for b in basic))
        if k is None or isinstance(k, bool):
            basic.append(None)
            if isinstance(k, bool):  # a new axis of length 1, indexed by [0] or []
                arrays.append((out_axis, np.arange(int(k))))
        elif isinstance(k, slice):
            forward, flip = _forward(k, shape[dim])
            basic.append(forward)
            if flip:
                flips.append(out_axis)
            dim += 1
        elif isinstance(k, int):
            n = shape[dim]
            if advanced:
                basic.append(slice(None))
                arrays.append((out_axis, np.asarray(_int_in(k, n, dim))))
            else:
                basic.append(_int_in(k, n, dim))
            dim += 1
        elif _dt(k).kind == "b":
            mask = _host(k)
            width = mask.ndim
            if mask.shape != shape[dim:dim + width]:
                raise IndexError(f"boolean index did not match indexed array along axis "
                                 f"{dim}; size of axis is {shape[dim:dim + width]} but size "
                                 f"of corresponding boolean axis is {mask.shape}")
            for j, found in enumerate(np.nonzero(mask)):
                arrays.append((out_axis + j, found))
                basic.append(slice(None))
            dim += width
        else:
            basic.append(slice(None))
            arrays.append((out_axis, k))
            dim += 1
    y = x[tuple(basic)] if any(b != slice(None) for b in basic) else x
    if flips:
        y = do("flip", y, axis=tuple(flips))
    if not arrays:
        # one element: numpy's scalar is a copy (a library's 0-d result may be a view)
        return do("copy", y) if all(isinstance(b, int) for b in basic) else y
    return _advanced(y, arrays)


def _advanced(y: Any, arrays: list[tuple[int, Any]]) -> Any:
    """``y`` indexed on the axes of ``arrays`` by their integer indices (full
    slices elsewhere), numpy's advanced indexing: one ``take`` of flat indices."""
    yshape = _shape(y)
    axes = [a for a, _ in arrays]
    sizes = [yshape[a] for a in axes]
    try:
        common = np.broadcast_shapes(*(_shape(i) for _, i in arrays))
    except ValueError:
        shapes = " ".join(str(_shape(i)) for _, i in arrays)
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         f"with shapes {shapes}") from None
    flat: Any = None
    for (axis, index), n in zip(arrays, sizes, strict=True):
        if not isinstance(index, np.ndarray) and _readable(index):
            index = _host(index)
        if isinstance(index, np.ndarray):
            if index.size and (index.min() < -n or index.max() >= n):
                bad = index[(index < -n) | (index >= n)].flat[0]
                raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
            index = np.where(index < 0, index + n, index).astype(np.int64)
        else:
            index = do("astype", index, "int64")
            index = do("where", do("less", index, 0), do("add", index, n), index)
        flat = index if flat is None else do("add", do("multiply", flat, n), index)
    if isinstance(flat, np.ndarray):
        flat = do("asarray", np.broadcast_to(flat, common), like=y)
    else:
        flat = do("broadcast_to", flat, common)
    rest = [n for a, n in enumerate(yshape) if a not in axes]
    moved = do("moveaxis", y, axes, list(range(len(axes))))
    taken = do("take", do("reshape", moved, (math.prod(sizes), *rest)),
               do("reshape", flat, (-1,)), axis=0)
    out = do("reshape", taken, (*common, *rest))
    first = axes[0]
    if axes == list(range(first, first + len(axes))) and first > 0 and common:
        # adjacent advanced indices: their axes stand where the first of them was
        out = do("moveaxis", out, list(range(len(common))),
                 list(range(first, first + len(common))))
    return out
