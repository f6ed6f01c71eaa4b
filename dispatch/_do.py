"""``do``: the hot path. One or two dict hits on argument types, then one call.

Everything else (inference, resolution, conversion of constants, sequences,
the default backend, errors) happens once per combination of argument types in
:func:`_miss`, and is cached as the final callable of that combination.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from dispatch import _registry as reg
from dispatch._errors import DispatchError, MixedBackendError, short
from dispatch._infer import (
    SEQUENCES,
    _element_types,
    backend_of_type,
    current_precision,
    decide,
    default_backend,
    like_backend,
)
from dispatch._resolve import resolve
from dispatch.translations._api import CREATION, FLOAT_CREATION, SEQUENCE_ARGS

_C1 = reg.CALLS1
_C2 = reg.CALLS2
_CALLS = reg.CALLS


def do(name: str, /, *args: Any, like: Any = None, **kwargs: Any) -> Any:
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
        constants, any other library wins over them, and numpy arrays are then
        converted to it.
    like : str or array, optional
        Backend name (``"torch"``) or an example array, overriding inference.
        Creation functions take dtype and device from an example array.

    Returns
    -------
    Whatever the resolved function returns.

    Raises
    ------
    UnknownFunctionError
        No implementation of ``name`` exists for the backend.
    UnsupportedError
        The backend's table marks ``name`` as a known gap.
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
        if not kwargs:
            n = len(args)
            try:
                if n == 1:
                    fn = _C1[name][type(args[0])]
                elif n == 2:
                    fn = _C2[name][type(args[0])][type(args[1])]
                elif n == 3:
                    fn = _CALLS[name, type(args[0]), type(args[1]), type(args[2])]
                else:
                    key = (name, *map(type, args))
                    fn = _CALLS[key]
            except (KeyError, TypeError):
                fn = None
            if fn is None:
                fn = _miss(name, tuple(map(type, args)), False)
            try:
                return fn(*args)
            except Exception as err:
                _annotate(err, name, args, kwargs, like)
                raise
        # keyword names are part of the key: ``f(a, b, c)`` and ``f(a, b, y=c)`` differ,
        # and a name (a str) never equals a type, so no two conventions share a key
        key = (name, *map(type, args))
        for k, v in kwargs.items():
            key += (k, type(v))
        try:
            fn = _CALLS.get(key)
        except TypeError:  # an unhashable name (a list...): _miss says what is wrong
            fn = None
        if fn is None:
            fn = _miss(name, key[1:], True)
    else:
        fn = _with_like(name, like, kwargs)
    try:
        return fn(*args, **kwargs)
    except Exception as err:
        _annotate(err, name, args, kwargs, like)
        raise


def _miss(name: str, key: tuple, kwargs: bool) -> Callable:
    """Build and cache the callable for one combination of argument types.

    ``key``: positional argument types, then (with ``kwargs``) each keyword's
    name followed by its value's type.
    """
    _check_name(name)
    gen = reg.generation
    types = tuple(t for t in key if type(t) is not str) if kwargs else key
    backend = decide(types, name)
    if any(issubclass(t, SEQUENCES) for t in types) and (backend is None or name in SEQUENCE_ARGS):
        entry = _sequence_entry(name)
    elif backend is None:
        entry = _default_entry(name)
    else:
        entry = _entry(name, backend, types, positions=not kwargs)
    reg.store_call(name, key, kwargs, entry, gen)
    return entry


def _check_name(name: Any) -> None:
    if not isinstance(name, str):
        raise TypeError(
            f"do({short(name)}, ...): the function name must be a string such as 'sum', "
            f"got {type(name).__name__}"
        )


def _constant(t: type, backend: str) -> bool:
    b = backend_of_type(t)
    return b is not None and b != backend


def _converter(backend: str, t: type) -> Callable:
    """The cheapest correct conversion of a constant of type ``t`` to ``backend``."""
    if backend_of_type(t) == "numpy":
        try:
            return resolve(backend, "from_numpy")
        except DispatchError:  # a user backend may offer asarray alone
            pass
    return resolve(backend, "asarray")


def _entry(name: str, backend: str, types: Any, positions: bool) -> Callable:
    """The resolved implementation, wrapped to convert constants where needed."""
    impl = resolve(backend, name)
    if not reg.converts_constants(backend) or not any(_constant(t, backend) for t in types):
        return impl
    if positions:  # positional-only call: the constants' positions are known
        convs = tuple(
            (i, _converter(backend, t)) for i, t in enumerate(types) if _constant(t, backend)
        )
        return _converting_positions(impl, convs)
    return _converting_any(impl, backend, deep=False)


def _converting_positions(impl: Callable, convs: tuple) -> Callable:
    if len(convs) == 1:
        ((i, conv),) = convs
        if i == 0:

            def first(a: Any, *rest: Any) -> Any:
                return impl(conv(a), *rest)

            first.__wrapped__ = impl  # type: ignore[attr-defined]
            return first

    def positions(*args: Any) -> Any:
        args_ = list(args)
        for i, conv in convs:
            args_[i] = conv(args_[i])
        return impl(*args_)

    positions.__wrapped__ = impl  # type: ignore[attr-defined]
    return positions


def _converting_any(impl: Callable, backend: str, deep: bool) -> Callable:
    """Convert every constant argument (and, with ``deep``, sequence element)."""

    def c(a: Any) -> Any:
        t = type(a)
        if deep and (t is list or t is tuple):
            return t(c(e) for e in a)
        if _constant(t, backend) and reg.priority(backend_of_type(t)) < prio:  # type: ignore[arg-type]
            return _converter(backend, t)(a)
        return a

    prio = reg.priority(backend)

    def converting(*args: Any, **kwargs: Any) -> Any:
        return impl(*[c(a) for a in args], **{k: c(v) for k, v in kwargs.items()})

    converting.__wrapped__ = impl  # type: ignore[attr-defined]
    return converting


def _sequence_entry(name: str) -> Callable:
    """Dispatch on the element types of list and tuple arguments, per call.

    The key holds the element types of a single sequence argument of two or
    three elements, and a frozenset of all types otherwise, so that the cache
    stays bounded whatever the lengths of the sequences.
    """

    def by_elements(*args: Any, **kwargs: Any) -> Any:
        # a lone argument is the sequence (this entry exists because one was seen)
        key: tuple[Any, ...]
        if not kwargs and len(args) == 1 and len(args[0]) == 2:
            s = args[0]
            key = (by_elements, type(s[0]), type(s[1]))
        elif not kwargs and len(args) == 1 and len(args[0]) == 3:
            s = args[0]
            key = (by_elements, type(s[0]), type(s[1]), type(s[2]))
        else:
            # a sequence argument counts by its elements only, so that a list or tuple
            # among the types means a nested sequence
            ts: set[type] = set()
            for a in (*args, *kwargs.values()):
                if isinstance(a, SEQUENCES):
                    ts.update(map(type, a))
                else:
                    ts.add(type(a))
            key = (by_elements, frozenset(ts))
        fn = _CALLS.get(key)
        if fn is None:
            gen = reg.generation
            types = _ordered_types((*args, *kwargs.values()))
            if any(issubclass(t, SEQUENCES) for t in types):
                fn = _nested_entry(name)  # [[a, b], [c, d]]: the arrays are one level down
            else:
                fn = _elements_entry(name, types)
            reg.store(_CALLS, key, fn, gen)
        return fn(*args, **kwargs)

    return by_elements


def _ordered_types(values: tuple) -> list[type]:
    """The types of the key of ``by_elements``, in argument order (for messages)."""
    out: dict[type, None] = {}
    for a in values:
        if isinstance(a, SEQUENCES):
            out.update(dict.fromkeys(map(type, a)))
        else:
            out[type(a)] = None
    return list(out)


def _elements_entry(name: str, types: list[type]) -> Callable:
    """The callable for a sequence call whose arrays have these types."""
    backend = decide(types, name)
    if backend is None:
        return _default_entry(name)
    impl = resolve(backend, name)
    need = reg.converts_constants(backend) and any(_constant(t, backend) for t in types)
    return _converting_any(impl, backend, deep=True) if need else impl


_NESTED_SCAN = 256  # elements of nested sequences looked at per call, at most


def _deep_types(values: tuple) -> list[type]:
    """Types of ``values`` and of the elements of nested lists and tuples.

    Breadth first, and at most ``_NESTED_SCAN`` objects: arrays in nested
    sequences (``block``'s blocks) sit near the top, long nested sequences hold
    numbers.
    """
    out: dict[type, None] = {}  # ordered: error messages name the first library first
    level = list(values)
    seen = 0
    while level and seen < _NESTED_SCAN:
        below: list = []
        for v in level:
            out[type(v)] = None
            if isinstance(v, SEQUENCES):
                below.extend(itertools.islice(v, _NESTED_SCAN))
            seen += 1
            if seen >= _NESTED_SCAN:
                break
        level = below
    return list(out)


def _nested_entry(name: str) -> Callable:
    """Dispatch on the types inside nested sequence arguments, per call."""

    def by_nested(*args: Any, **kwargs: Any) -> Any:
        types = _deep_types((*args, *kwargs.values()))
        key = (by_nested, frozenset(types))
        fn = _CALLS.get(key)
        if fn is None:
            gen = reg.generation
            fn = _elements_entry(name, types)
            reg.store(_CALLS, key, fn, gen)
        return fn(*args, **kwargs)

    return by_nested


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
    if name in FLOAT_CREATION and kwargs.get("dtype") is None:
        kwargs["dtype"] = resolve(backend, "to_backend_dtype")(f"float{current_precision()}")


_LIKE = object()  # marks keys of calls with ``like=``


def _with_like(name: str, like: Any, kwargs: dict) -> Callable:
    """``like=`` given: a backend name or an example array decides."""
    try:
        if type(like) is str:
            backend = like
        else:
            backend = like_backend(like, name)
            if reg.USER_BACKENDS.get(backend, {}).get("resolver") is not None:
                kwargs["like"] = like  # a generic backend (lazy) records the example itself
            elif name in CREATION:
                inject = getattr(reg.table(backend), "creation_kwargs", None)
                extra = inject(like) if inject else {"dtype": like.dtype}
                for k, v in extra.items():
                    if kwargs.get(k) is None:
                        kwargs[k] = v
        if current_precision() is not None:
            _float_dtype(name, backend, kwargs)
        key = (_LIKE, name, backend)
        fn = _CALLS.get(key)
    except TypeError:
        _check_name(name)  # an unhashable name (a list...) says so
        raise
    if fn is not None:
        return fn
    from dispatch._infer import check_backend_name

    _check_name(name)
    gen = reg.generation
    impl = resolve(check_backend_name(backend, name), name)
    fn = _converting_any(impl, backend, deep=False) if reg.converts_constants(backend) else impl
    reg.store(_CALLS, key, fn, gen)
    return fn


def _annotate(err: BaseException, name: str, args: tuple, kwargs: dict, like: Any) -> None:
    """Add which call failed to an error raised inside a library (failure path only)."""
    if getattr(err, "_dispatch_noted", False) or not hasattr(err, "add_note"):
        return
    if isinstance(err, DispatchError) and str(err).startswith(f"do({name!r}"):
        return  # dispatch's own error about this very call names it already
    try:
        if like is not None:
            backend = like_backend(like)
        else:
            values = (*args, *kwargs.values())
            types = [type(a) for a in values]
            for a in values:
                if isinstance(a, SEQUENCES):
                    types.extend(_element_types(a))
            backend = decide(types) or default_backend()
    except MixedBackendError:
        return  # the error is about this call's own arguments, and says so
    except Exception:
        backend = "?"
    try:
        err.add_note(f"(raised inside dispatch.do({name!r}) on backend {backend!r})")
        err._dispatch_noted = True  # type: ignore[attr-defined]
    except Exception:  # exceptions that take no attributes keep their message as is
        pass


# Source-rewriting tracers (tensorflow's autograph inside tf.function) leave objects
# carrying this attribute alone and call them as plain Python: do() is a dispatcher,
# not user control flow to convert, and rewriting it would re-read this file.
do.autograph_info__ = None  # type: ignore[attr-defined]
