"""Creation and data-type functions: the standard's default dtypes and promotion."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from dispatch.translations._array_api._core import (
    _KIND,
    FACTORIES,
    Space,
    _member,
    _python_kind,
    can_cast_names,
)

from dispatch.engine import backend_of_type

# ---- creation ---------------------------------------------------------------


def _device_kw(device: Any) -> dict[str, Any]:
    return {} if device is None else {"device": device}


def _shape(shape: Any) -> tuple:
    return (shape,) if isinstance(shape, int) else tuple(shape)


@_member("asarray")
def _asarray(space: Space) -> Callable:
    f, dtype_of = space.fn("asarray"), space._dtype

    def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
        """The array API's ``asarray``: Python data takes the namespace's default
        dtypes (``__array_namespace_info__().default_dtypes()``)."""
        if dtype is None and not hasattr(obj, "dtype"):
            dtype = dtype_of(space.default_for(obj))
        kwargs = _device_kw(device)
        if copy is not None:
            kwargs["copy"] = copy
        try:
            return f(obj, dtype=dtype, **kwargs)
        except (TypeError, ValueError) as err:
            if hasattr(obj, "dtype"):
                raise
            # what the library itself says of data it cannot hold (torch's
            # "invalid data type 'str'"), not the message of a conversion on the way
            raise _own_error(space, obj, dtype) or err from None

    return asarray


def _own_error(space: Space, obj: Any, dtype: Any) -> Exception | None:
    """The error the library's own ``asarray`` raises for ``obj``, if it raises one."""
    import importlib

    from dispatch.engine import root_module

    try:
        native = importlib.import_module(root_module(space._backend)).asarray
        native(obj) if dtype is None else native(obj, dtype=dtype)
    except (TypeError, ValueError) as err:
        return err
    except Exception:  # the library's own failure is not ours to report
        return None
    return None


def _filled(space: Space, name: str) -> Callable:
    f = space.fn(name)

    def filled(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        if dtype is None:
            dtype = space._dtype(space._defaults()[0])
        return f(_shape(shape), dtype=dtype, **_device_kw(device))

    filled.__name__ = filled.__qualname__ = name
    filled.__doc__ = f"The array API's ``{name}``: the default real floating dtype by default."
    return filled


for _n in ("zeros", "ones", "empty"):
    FACTORIES[_n] = lambda space, _n=_n: _filled(space, _n)


def _like(space: Space, name: str) -> Callable:
    f = space.fn(name)

    def like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        if dtype is None and backend_of_type(type(x)) in (space._backend, None):
            dtype = x.dtype
        # another library's array (a torch tensor given to numpy's namespace, which
        # takes it as array-likes): the library reads its dtype itself
        if dtype is None:
            return f(x, **_device_kw(device))
        return f(x, dtype=dtype, **_device_kw(device))

    like.__name__ = like.__qualname__ = name
    like.__doc__ = f"The array API's ``{name}``: ``x``'s shape, and its dtype unless given."
    return like


for _n in ("zeros_like", "ones_like", "empty_like"):
    FACTORIES[_n] = lambda space, _n=_n: _like(space, _n)


@_member("full")
def _full(space: Space) -> Callable:
    f = space.fn("full")

    def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        """The array API's ``full``: the dtype of ``fill_value``'s kind by default."""
        if dtype is None:
            dtype = space._dtype(space.default_for(fill_value))
        return f(_shape(shape), fill_value, dtype=dtype, **_device_kw(device))

    return full


@_member("full_like")
def _full_like(space: Space) -> Callable:
    f = space.fn("full_like")

    def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        """The array API's ``full_like``: ``x``'s shape and (by default) dtype."""
        return f(x, fill_value, dtype=x.dtype if dtype is None else dtype, **_device_kw(device))

    return full_like


@_member("arange")
def _arange(space: Space) -> Callable:
    f = space.fn("arange")

    def arange(start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
               device: Any = None) -> Any:
        """The array API's ``arange``: the default integral dtype for integer bounds,
        the default real floating dtype otherwise."""
        if dtype is None:
            dtype = space._dtype(space.default_for([start, stop or 0, step]))
        if stop is None:
            start, stop = 0, start
        return f(start, stop, step, dtype=dtype, **_device_kw(device))

    return arange


@_member("linspace")
def _linspace(space: Space) -> Callable:
    f = space.fn("linspace")

    def linspace(start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
                 endpoint: bool = True) -> Any:
        """The array API's ``linspace``: the default floating dtype (complex for
        complex bounds) when none is given."""
        if dtype is None:
            kind = _python_kind([start, stop, 1.0])
            real, cplx, _, _ = space._defaults()
            dtype = space._dtype(cplx if kind == "c" else real)
        return f(start, stop, num, endpoint=endpoint, dtype=dtype, **_device_kw(device))

    return linspace


@_member("eye")
def _eye(space: Space) -> Callable:
    f = space.fn("eye")

    def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
            device: Any = None) -> Any:
        """The array API's ``eye``: ones on the ``k``-th diagonal."""
        if dtype is None:
            dtype = space._dtype(space._defaults()[0])
        return f(n_rows, n_cols, k=k, dtype=dtype, **_device_kw(device))

    return eye


@_member("meshgrid")
def _meshgrid(space: Space) -> Callable:
    f = space.fn("meshgrid")

    def meshgrid(*arrays: Any, indexing: str = "xy") -> tuple:
        """The array API's ``meshgrid``: a tuple of arrays (a list before 2025.12)."""
        return tuple(f(*space.promoted(*arrays), indexing=indexing))

    return meshgrid


def _triangle(space: Space, name: str) -> Callable:
    f = space.fn(name)

    def triangle(x: Any, /, *, k: int = 0) -> Any:
        return f(x, k=k)

    triangle.__name__ = triangle.__qualname__ = name
    triangle.__doc__ = f"The array API's ``{name}``: ``do({name!r}, x, k=k)``."
    return triangle


for _n in ("tril", "triu"):
    FACTORIES[_n] = lambda space, _n=_n: _triangle(space, _n)


@_member("from_dlpack")
def _from_dlpack(space: Space) -> Callable:
    f = space.fn("from_dlpack")

    def from_dlpack(x: Any, /, *, device: Any = None, copy: Any = None) -> Any:
        """The array API's ``from_dlpack``: an array of this library over ``x``'s memory."""
        kwargs = _device_kw(device)
        if copy is not None:
            kwargs["copy"] = copy
        return f(x, **kwargs)

    return from_dlpack


# ---- data types ---------------------------------------------------------------


@_member("astype")
def _astype(space: Space) -> Callable:
    f = space.fn("astype")

    def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        """The array API's ``astype``: ``x`` as ``dtype``, copied unless ``copy=False``
        and nothing changes."""
        out = f(x, dtype, copy=copy)
        if device is not None:
            out = space._call("to_device", out, device)
        if space.own_scalar(x):  # numpy's float64 stays a scalar, as x.astype keeps it
            out = out[()]
        return out

    return astype


@_member("can_cast")
def _can_cast(space: Space) -> Callable:
    name_of = space.name_of

    def can_cast(from_: Any, to: Any, /) -> bool:
        """Whether the standard's promotion rules turn ``from_`` (a dtype or an
        array) into ``to``."""
        return can_cast_names(name_of(from_), name_of(to))

    return can_cast


# isdtype: numpy 2's is the standard's; the vocabulary entry serves both
FACTORIES["isdtype"] = lambda space: space.fn("isdtype")


@_member("result_type")
def _result_type(space: Space) -> Callable:
    name_of = space.name_of

    def result_type(*arrays_and_dtypes: Any) -> Any:
        """The standard's result dtype of arrays, dtypes and Python scalars (scalars
        take the kind of the arrays beside them); where the standard's table has no
        answer (mixed kinds, or a dtype it does not have, such as float16), the
        library's own. The library's dtype object (``np.dtype('float64')`` on numpy)."""
        given = [a.item() if space.foreign_scalar(a) else a for a in arrays_and_dtypes]
        names = [name_of(a) for a in given if not _python_kind(a)]
        scalars = [a for a in given if _python_kind(a)]
        if not names:
            if not scalars:
                raise ValueError("result_type: at least one array, dtype or scalar is needed")
            return space.dtype_object(space.default_for(list(scalars)))
        out = names[0]
        for n in names[1:]:
            out = space.promote(out, n)
        for s in scalars:
            kind = _python_kind(s)
            if kind == "c" and _KIND[out] == "f":
                out = "complex64" if out == "float32" else "complex128"
            elif (kind in "fc" and _KIND[out] in "iub") or (kind == "i" and _KIND[out] == "b"):
                # the standard leaves it open: the library's answer, as for arrays
                out = space.promote(out, space.default_for(s))
        return space.dtype_object(out)

    return result_type


class _Info(NamedTuple):
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: Any


class _IInfo(NamedTuple):
    bits: int
    max: int
    min: int
    dtype: Any


def _info_member(which: str) -> Callable[[Space], Callable]:
    def factory(space: Space) -> Callable:
        import numpy as np

        def info(type: Any, /) -> Any:
            name = space.name_of(type)
            native = space.dtype_object(name)
            if which == "finfo":
                if _KIND[name] not in "fc":
                    raise ValueError(f"finfo: {name} is not a floating dtype")
                i = np.finfo(name)
                # a complex dtype's limits are its real parts': so is its dtype
                real = {"complex64": "float32", "complex128": "float64"}.get(name)
                return _Info(int(i.bits), float(i.eps), float(i.max), float(i.min),
                             float(i.smallest_normal), native if real is None
                             else space.dtype_object(real))
            if _KIND[name] not in "iu":
                raise ValueError(f"iinfo: {name} is not an integer dtype")
            j = np.iinfo(name)
            return _IInfo(int(j.bits), int(j.max), int(j.min), native)

        info.__name__ = info.__qualname__ = which
        info.__doc__ = f"The array API's ``{which}`` of a dtype or an array, as Python numbers."
        return info

    return factory


FACTORIES["finfo"] = _info_member("finfo")
FACTORIES["iinfo"] = _info_member("iinfo")
