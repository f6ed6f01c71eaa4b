"""``do``: the hot path. One tuple of argument types, one dict hit, one call.

Everything else (inference, resolution, conversion of constants, sequences,
the default backend, errors) happens once per type combination in :func:`_miss`
and is cached as the final callable under that key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dispatch import _registry as reg
from dispatch._infer import (
    SEQUENCES,
    backend_of_type,
    current_precision,
    decide,
    default_backend,
    like_backend,
)
from dispatch._resolve import resolve

_CALLS = reg.CALLS
_SEQ = object()  # marks keys built from the elements of sequence arguments


def do(name: str, *args: Any, like: Any = None, **kwargs: Any) -> Any:
    """Call the function ``name`` of the library that owns the arguments.

    Parameters
    ----------
    name : str
        Canonical function name with numpy semantics, e.g. ``"sum"``,
        ``"linalg.qr"``, ``"random.normal"``, ``"scipy.special.erf"``, or a name
        of the backend method list (``"scatter"``, ``"conjugate_gradient"``...).
    *args, **kwargs
        Passed on. Every array argument, positional or keyword (and the
        elements of a list or tuple argument where the name takes a sequence),
        takes part in choosing the backend: numpy arrays and Python scalars are
        constants, any other library wins over them.
    like : str or array, optional
        Backend name (``"torch"``) or an example array overriding inference.
        Creation functions take dtype and device from an example array.

    Returns
    -------
    Whatever the resolved function returns.

    Raises
    ------
    UnknownFunctionError
        No implementation of ``name`` exists for the backend.
    MixedBackendError
        Arrays of two different non-numpy libraries were passed.

    Examples
    --------
    >>> import numpy as np
    >>> do("sum", np.arange(6).reshape(2, 3), axis=0)
    array([3, 5, 7])
    >>> do("zeros", (2,), like="numpy")
    array([0., 0.])
    """
    if like is None:
        n = len(args)
        if n == 1:
            key = (name, type(args[0]))
        elif n == 2:
            key = (name, type(args[0]), type(args[1]))
        elif n == 3:
            key = (name, type(args[0]), type(args[1]), type(args[2]))
        else:
            key = (name, *map(type, args))
        if kwargs:
            for v in kwargs.values():  # usually one or two keywords: cheaper than map
                key += (type(v),)
        try:
            fn = _CALLS[key]
        except KeyError:
            fn = _miss(name, key[1:], key)
        except TypeError:
            raise TypeError(f"do(name, ...): name must be a string, got {name!r}") from None
    else:
        fn = _with_like(name, like, kwargs)
    try:
        return fn(*args, **kwargs)
    except Exception as err:
        _annotate(err, name, args, kwargs, like)
        raise


def _miss(name: str, types: tuple, key: tuple) -> Callable:
    """Build and cache the callable for one combination of argument types."""
    if not isinstance(name, str):
        raise TypeError(f"do(name, ...): name must be a string, got {name!r}")
    gen = reg.generation
    backend = decide(types)
    has_seq = any(issubclass(t, SEQUENCES) for t in types)
    from dispatch.translations._api import SEQUENCE_ARGS

    if has_seq and (backend is None or name in SEQUENCE_ARGS):
        entry = _sequence_entry(name, backend)
    elif backend is None:
        entry = _default_entry(name)
    else:
        entry = _entry(name, backend, types, deep=False)
    reg.store(_CALLS, key, entry, gen)
    return entry


def _entry(name: str, backend: str, types: Any, deep: bool) -> Callable:
    impl = resolve(backend, name)
    consts = frozenset(
        t for t in types if (b := backend_of_type(t)) is not None and b != backend
    )
    if consts and reg.converts_constants(backend):
        return _converting(impl, resolve(backend, "asarray"), consts, deep)
    return impl


def _converting(impl: Callable, conv: Callable, consts: frozenset, deep: bool) -> Callable:
    """Wrap ``impl`` so that constant arrays (numpy) become the backend's arrays."""

    def c(a: Any) -> Any:
        t = type(a)
        if t in consts:
            return conv(a)
        if deep and t in (list, tuple):
            return t(c(e) for e in a)
        return a

    def converting(*args: Any, **kwargs: Any) -> Any:
        return impl(*[c(a) for a in args], **{k: c(v) for k, v in kwargs.items()})

    converting.__wrapped__ = impl  # type: ignore[attr-defined]
    return converting


def _sequence_entry(name: str, direct: str | None) -> Callable:
    """Dispatch on the element types of list and tuple arguments, per call."""

    def by_elements(*args: Any, **kwargs: Any) -> Any:
        types: list[Any] = [_SEQ, name]
        for a in (*args, *kwargs.values()):
            types.append(type(a))
            if isinstance(a, SEQUENCES):
                types.extend(type(e) for e in a)
                types.append(_SEQ)
        key = tuple(types)
        fn = _CALLS.get(key)
        if fn is None:
            gen = reg.generation
            backend = decide(t for t in types[2:] if t is not _SEQ)
            if backend is None:
                fn = _default_entry(name)
            else:
                fn = _entry(name, backend, [t for t in types[2:] if t is not _SEQ], deep=True)
            reg.store(_CALLS, key, fn, gen)
        return fn(*args, **kwargs)

    return by_elements


def _default_entry(name: str) -> Callable:
    """No argument decides: use the context or global default backend."""

    def on_default(*args: Any, **kwargs: Any) -> Any:
        backend = default_backend()
        if current_precision() is not None:
            _float_dtype(name, backend, kwargs)
        return resolve(backend, name)(*args, **kwargs)

    return on_default


def _float_dtype(name: str, backend: str, kwargs: dict) -> None:
    """Under ``precision(bits)``, float creation routines default to that width."""
    from dispatch.translations._api import FLOAT_CREATION

    if name in FLOAT_CREATION and kwargs.get("dtype") is None:
        kwargs["dtype"] = resolve(backend, "to_backend_dtype")(f"float{current_precision()}")


_LIKE = object()  # marks keys of calls with ``like=``


def _with_like(name: str, like: Any, kwargs: dict) -> Callable:
    """``like=`` given: a backend name or an example array decides."""
    if type(like) is str:
        backend = like
    else:
        backend = like_backend(like)
        from dispatch.translations._api import CREATION

        if name in CREATION:
            inject = getattr(reg.table(backend), "creation_kwargs", None)
            extra = inject(like) if inject else {"dtype": like.dtype}
            for k, v in extra.items():
                if kwargs.get(k) is None:
                    kwargs[k] = v
    if current_precision() is not None:
        _float_dtype(name, backend, kwargs)
    key = (_LIKE, name, backend)
    try:
        return _CALLS[key]
    except KeyError:
        pass
    from dispatch._infer import check_backend_name

    gen = reg.generation
    impl = resolve(check_backend_name(backend), name)
    entry = _converting_like(impl, backend) if reg.converts_constants(backend) else impl
    reg.store(_CALLS, key, entry, gen)
    return entry


def _converting_like(impl: Callable, backend: str) -> Callable:
    """Convert arrays of lower-priority libraries (numpy) to ``backend`` first."""
    prio = reg.priority(backend)

    def c(a: Any) -> Any:
        b = backend_of_type(type(a))
        if b is not None and b != backend and reg.priority(b) < prio:
            return resolve(backend, "asarray")(a)
        return a

    def with_constants(*args: Any, **kw: Any) -> Any:
        return impl(*[c(a) for a in args], **{k: c(v) for k, v in kw.items()})

    with_constants.__wrapped__ = impl  # type: ignore[attr-defined]
    return with_constants


def _annotate(err: BaseException, name: str, args: tuple, kwargs: dict, like: Any) -> None:
    """Add which call failed to an error raised inside a library (failure path only)."""
    if getattr(err, "_dispatch_noted", False) or not hasattr(err, "add_note"):
        return
    try:
        backend = like_backend(like) if like is not None else (
            decide(map(type, (*args, *kwargs.values()))) or default_backend()
        )
    except Exception:
        backend = "?"
    try:
        err.add_note(f"(raised inside dispatch.do({name!r}) on backend {backend!r})")
        err._dispatch_noted = True  # type: ignore[attr-defined]
    except Exception:  # exceptions that take no attributes keep their message as is
        pass
