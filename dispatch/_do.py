"""``do``: the hot path. One or two dict hits on argument types, then one call.

Everything else (inference, resolution, conversion of constants, sequences,
the default backend, errors) happens once per combination of argument types in
:func:`_miss`, and is cached as the final callable of that combination.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable
from typing import Any

from dispatch import _registry as reg
from dispatch._errors import DispatchError, MixedBackendError, UnknownBackendError, short
from dispatch._infer import (
    SEQUENCES,
    backend_of_type,
    current_precision,
    decide,
    decide_owner,
    deep_type_set,
    deep_types,
    default_backend,
    foreign,
    like_backend,
)
from dispatch._resolve import _native, resolve
from dispatch._resolve import _resolve as _resolve_uncached
from dispatch._trace import outside_traces
from dispatch.spec import _adapter_of, _kernel_for
from dispatch.translations._vocabulary import (
    ARRAY_OPERANDS,
    CONVERSIONS,
    CREATION,
    FLOAT_CREATION,
    FLOAT_DRAWS,
    NAMES,
    NON_ARRAY_PARAMETERS,
    REAL_FLOAT_NAMES,
    SEQUENCE_ARGS,
)

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
                adapter = _adapter_of(fn, name, args)  # a kernel refused: its adapter answers
                if adapter is None:
                    _annotate(err, name, args, kwargs, like)
                    raise
            return _answered(adapter, name, args)
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
        if like is not None:
            _mixed_with_like(err, name, like, (*args, *kwargs.values()))
        _annotate(err, name, args, kwargs, like)
        raise


@outside_traces
def _miss(name: str, key: tuple, kwargs: bool) -> Callable:
    """Build and cache the callable for one combination of argument types.

    ``key``: positional argument types, then (with ``kwargs``) each keyword's
    name followed by its value's type. Runs outside a compiler's trace.
    """
    _check_name(name)
    _non_array_parameters(name)  # may load numpy's table: before the generation is read
    if kwargs and key and type(key[0]) is str:  # keywords alone
        first = _first_parameter(name)
        if first is not None and first in key[::2]:
            return _first_by_keyword(name, key, first)
    gen = reg.generation
    types = tuple(t for t in key if type(t) is not str) if kwargs else key
    backend = decide(types, name) or decide_owner(types)
    if any(issubclass(t, SEQUENCES) for t in types) and (backend is None or name in SEQUENCE_ARGS):
        lone = not kwargs and len(key) == 1  # do(name, seq)
        entry = _lone_sequence_entry(name) if lone else _sequence_entry(name)
    elif backend is None:
        _refuse_foreign(name, types)
        entry = _default_entry(name)
    else:
        entry = _entry(name, backend, key, kwargs)
    reg.store_call(name, key, kwargs, entry, gen)
    return entry


def _first_by_keyword(name: str, key: tuple, first: str) -> Callable:
    """The entry of ``do(name, a=x, **rest)``, numpy's first parameter ``a`` given by
    keyword: ``x`` is passed by position to the entry of ``do(name, x, **rest)``,
    whatever the library (or a fallback) calls that parameter (torch's
    ``stack(tensors)``, ``linalg.inv(A)``, a positional-only ``x``). Only such calls
    pay for it: their keys are their own.
    """
    gen = reg.generation
    i = key.index(first)
    rest = key[:i] + key[i + 2 :]
    entry = _miss(name, (key[i + 1], *rest), bool(rest))

    def by_position(**kwargs: Any) -> Any:
        return entry(kwargs.pop(first), **kwargs)

    by_position.__wrapped__ = entry  # type: ignore[attr-defined]
    reg.store_call(name, key, True, by_position, gen)
    return by_position


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


def _entry(name: str, backend: str, key: tuple, kwargs: bool) -> Callable:
    """The resolved implementation, wrapped to convert constants where needed.

    ``key``: the positional argument types, then (with ``kwargs``) each keyword
    name followed by its value's type. A numpy array in a parameter that is
    not an array operand (``axes``, ``shape``...) becomes a Python value rather
    than the backend's array, on every backend.
    """
    impl = resolve(backend, name)
    convert = reg.converts_constants(backend)
    npos = next((i for i, t in enumerate(key) if type(t) is str), len(key))
    positions, keywords = _non_array_parameters(name)

    def conv(t: type, param: bool) -> Callable | None:
        if param and _is_numpy_array(t):
            return _python_value
        if convert and _constant(t, backend):
            return _converter(backend, t)
        return None

    pconvs = tuple((i, c) for i, t in enumerate(key[:npos]) if (c := conv(t, i in positions)))
    kw = key[npos:]
    kconvs = tuple(
        (k, c) for k, t in zip(kw[::2], kw[1::2], strict=True) if (c := conv(t, k in keywords))
    )
    if not pconvs and not kconvs:
        # the library's own function, where the adapter names one for these exact types
        return impl if kwargs else _kernel_for(impl, key, name)
    if not kwargs:  # positional-only call: the constants' positions are known
        return _converting_positions(impl, pconvs)
    return _converting_keys(impl, pconvs, kconvs)


def _converting_keys(impl: Callable, pconvs: tuple, kconvs: tuple) -> Callable:
    def keys(*args: Any, **kwargs: Any) -> Any:
        args_ = list(args)
        for i, conv in pconvs:
            args_[i] = conv(args_[i])
        for k, conv in kconvs:
            kwargs[k] = conv(kwargs[k])
        return impl(*args_, **kwargs)

    keys.__wrapped__ = impl  # type: ignore[attr-defined]
    return keys


# the usual values of parameters: never numpy arrays, checked without a lookup
_PLAIN = frozenset({int, float, bool, str, tuple, list, type(None)})


def _is_numpy_array(t: type) -> bool:
    return backend_of_type(t) == "numpy"


def _python_value(a: Any) -> Any:
    """A numpy array given as a parameter (axes, a shape): nested tuples of Python
    numbers, or one Python number for a 0-d array."""
    v = a.tolist()
    return _tuples(v) if isinstance(v, list) else v


def _tuples(v: list) -> tuple:
    return tuple(_tuples(e) if isinstance(e, list) else e for e in v)


_NON_ARRAY: dict[str, tuple[frozenset[int], frozenset[str]]] = {}
_NO_PARAMETERS: tuple[frozenset[int], frozenset[str]] = (frozenset(), frozenset())


_FIRST: dict[str, str | None] = {}


def _first_parameter(name: str) -> str | None:
    """The name of numpy's first parameter of ``name``, where numpy lets it be given by
    keyword (``stack(arrays=...)``, ``sum(a=...)``); None otherwise. Read from numpy's
    (scipy's) own function, not the table's."""
    try:
        return _FIRST[name]
    except KeyError:
        pass
    try:
        ref = _native("numpy", name)
    except Exception:  # not numpy's: not remembered, so unknown names cost no memory
        return None
    try:
        params = list(inspect.signature(ref).parameters.values())
    except (TypeError, ValueError):  # no signature (ufuncs take arrays by position)
        params = []
    p = params[0] if params else None
    first = p.name if p is not None and p.kind is p.POSITIONAL_OR_KEYWORD else None
    _FIRST[name] = first
    return first


def _non_array_parameters(name: str) -> tuple[frozenset[int], frozenset[str]]:
    """Positions and keyword names of ``name``'s parameters that are not array operands.

    The names are the vocabulary's facts (``NON_ARRAY_PARAMETERS``), for the
    vocabulary's names only; their positions come from the signature of the
    reference implementation (numpy's).
    """
    try:
        return _NON_ARRAY[name]
    except KeyError:
        pass
    if name not in NAMES:  # outside the vocabulary parameter names mean anything (``k``)
        return _NO_PARAMETERS
    keywords = NON_ARRAY_PARAMETERS - ARRAY_OPERANDS.get(name, frozenset())
    positions: set[int] = set()
    try:
        # uncached: finding the reference's signature must leave no cache entry behind
        ref = _resolve_uncached("numpy", name)
        params = list(inspect.signature(ref).parameters.values())
    except Exception:  # no reference, or one without a signature (ufuncs): keywords only
        # not cached for names numpy lacks: unknown names must not grow memory
        return frozenset(), keywords
    for i, p in enumerate(params):
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            break
        if p.name in keywords:
            positions.add(i)
    found = (frozenset(positions), keywords)
    _NON_ARRAY[name] = found
    return found


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


def _converting_any(
    impl: Callable, backend: str, deep: bool, name: str, convert: bool = True
) -> Callable:
    """Convert every constant argument (and, with ``deep``, sequence element).

    A numpy array in a parameter of ``name`` that is not an array operand
    becomes a Python value instead. Without ``convert`` (a backend that takes
    numpy constants as they are) only that is done.
    """

    def c(a: Any) -> Any:
        t = type(a)
        if deep and (t is list or t is tuple):
            return t(c(e) for e in a)
        if convert and _constant(t, backend) and reg.priority(backend_of_type(t)) < prio:  # type: ignore[arg-type]
            return _converter(backend, t)(a)
        return a

    def p(a: Any) -> Any:
        return _python_value(a) if _is_numpy_array(type(a)) else c(a)

    prio = reg.priority(backend)
    positions, keywords = _non_array_parameters(name)

    if not convert:
        pos = tuple(sorted(positions))
        first = pos[0] if pos else 1 << 30

        def params(*args: Any, **kwargs: Any) -> Any:
            # the common case (no numpy array where a parameter is) costs a few checks
            if len(args) > first:
                for i in pos:
                    if (
                        i < len(args)
                        and type(args[i]) not in _PLAIN
                        and _is_numpy_array(type(args[i]))
                    ):
                        args = (*args[:i], _python_value(args[i]), *args[i + 1 :])
            if kwargs:
                for k, v in kwargs.items():
                    if k in keywords and type(v) not in _PLAIN and _is_numpy_array(type(v)):
                        kwargs[k] = _python_value(v)
            return impl(*args, **kwargs)

        params.__wrapped__ = impl  # type: ignore[attr-defined]
        return params

    def converting(*args: Any, **kwargs: Any) -> Any:
        return impl(
            *[p(a) if i in positions else c(a) for i, a in enumerate(args)],
            **{k: p(v) if k in keywords else c(v) for k, v in kwargs.items()},
        )

    converting.__wrapped__ = impl  # type: ignore[attr-defined]
    return converting


def _sequence_entry(name: str) -> Callable:
    """Dispatch on the element types of list and tuple arguments, per call.

    The key is the frozenset of the sequences' element types, so that the cache
    stays bounded whatever their lengths. The other arguments' types are not in
    it: they are in the key of the call that found this dispatcher, the same for
    every call that reaches it. Calls whose only argument is the sequence take
    :func:`_lone_sequence_entry`.
    """

    def by_elements(*args: Any, **kwargs: Any) -> Any:
        # a list or tuple among the types means a nested sequence
        ts: set[type] = set()
        for a in (*args, *kwargs.values()):
            if isinstance(a, SEQUENCES):
                ts.update(map(type, a))
        key = (by_elements, frozenset(ts))
        fn = _CALLS.get(key)
        if fn is None:
            types = tuple(_ordered_types((*args, *kwargs.values())))
            fn = _elements_miss(name, key, types, False)
        return fn(*args, **kwargs)

    return by_elements


def _lone_sequence_entry(name: str) -> Callable:
    """``do(name, seq)``, the sequence the only argument (``stack([a, b])``): dispatch
    on its element types, per call, keyed by the types of two or three elements
    and by their frozenset otherwise. One parameter, no keywords: the cheapest
    per-call step."""
    # the entries of two-element sequences again, by nested dicts (no key tuple to
    # build): a copy of what ``_CALLS`` holds for this dispatcher, made after the
    # entry is stored there, so it is as fresh as the cache (a registration drops
    # this dispatcher with the caches)
    pairs: dict[type, dict[type, Callable]] = {}

    def by_elements(s: Any) -> Any:
        n = len(s)
        if n == 2:
            try:
                fn = pairs[type(s[0])][type(s[1])]
            except KeyError:
                key: tuple[Any, ...] = (by_elements, type(s[0]), type(s[1]))
                found = _CALLS.get(key)
                fn = found if found is not None else _elements_miss(name, key, _ordered(s), True)
                if _CALLS.get(key) is fn:
                    pairs.setdefault(key[1], {})[key[2]] = fn
            return fn(s)
        if n == 3:
            key = (by_elements, type(s[0]), type(s[1]), type(s[2]))
        else:
            key = (by_elements, frozenset(map(type, s)))
        found = _CALLS.get(key)
        return (found if found is not None else _elements_miss(name, key, _ordered(s), True))(s)

    return by_elements


def _ordered(s: Any) -> tuple[type, ...]:
    return tuple(_ordered_types((s,)))


@outside_traces
def _elements_miss(name: str, key: tuple, types: tuple, lone: bool) -> Callable:
    """Build and cache the callable of a sequence call (``by_elements``'s miss);
    ``lone``: the key is of calls whose only argument is the sequence."""
    gen = reg.generation
    if any(issubclass(t, SEQUENCES) for t in types):
        fn = _nested_entry(name)  # [[a, b], [c, d]]: the arrays are one level down
    else:
        fn = _elements_entry(name, list(types), lone)
    reg.store(_CALLS, key, fn, gen)
    return fn


def _ordered_types(values: tuple) -> list[type]:
    """The types of the key of ``by_elements``, in argument order (for messages)."""
    out: dict[type, None] = {}
    for a in values:
        if isinstance(a, SEQUENCES):
            out.update(dict.fromkeys(map(type, a)))
        else:
            out[type(a)] = None
    return list(out)


def _elements_entry(name: str, types: list[type], lone: bool = False) -> Callable:
    """The callable for a sequence call whose arrays have these types; ``lone``:
    for calls whose only argument is the sequence (no parameter to look at)."""
    backend = decide(types, name) or decide_owner(types)
    if backend is None:
        _refuse_foreign(name, types)
        return _default_entry(name)
    impl = resolve(backend, name)
    convert = reg.converts_constants(backend) and any(_constant(t, backend) for t in types)
    if convert or (
        not lone and any(map(_is_numpy_array, types)) and any(_non_array_parameters(name))
    ):
        return _converting_any(impl, backend, deep=True, name=name, convert=convert)
    return impl


def _nested_entry(name: str) -> Callable:
    """Dispatch on the types inside nested sequence arguments, per call."""

    def by_nested(*args: Any, **kwargs: Any) -> Any:
        values = (*args, *kwargs.values())
        key = (by_nested, deep_type_set(values))
        fn = _CALLS.get(key)
        if fn is None:
            fn = _nested_miss(name, key, tuple(deep_types(values)))
        return fn(*args, **kwargs)

    return by_nested


@outside_traces
def _nested_miss(name: str, key: tuple, types: tuple) -> Callable:
    """Build and cache the callable of a nested sequence call (``by_nested``'s miss)."""
    gen = reg.generation
    fn = _elements_entry(name, list(types))
    reg.store(_CALLS, key, fn, gen)
    return fn


def _default_entry(name: str) -> Callable:
    """No argument decides: use the context or global default backend."""

    values_fn = reg.values_function(name)

    def on_default(*args: Any, **kwargs: Any) -> Any:
        backend = default_backend()
        if current_precision() is not None:
            _float_dtype(name, backend, kwargs)
        if values_fn is not None and backend == reg.VALUES_HOME:
            # Python values only, and no other default set: autoray's 'builtins'
            return values_fn(*args, **kwargs)
        return resolve(backend, name)(*args, **kwargs)

    return on_default


_KEYWORDS: dict[Callable, frozenset[str]] = {}


def _keywords(fn: Callable) -> frozenset[str]:
    """The dtype and device keywords that ``fn`` takes (dtype where its signature
    cannot be read: every float draw of a table takes it), cached per function."""
    try:
        return _KEYWORDS[fn]
    except (KeyError, TypeError):
        pass
    try:
        params = inspect.signature(fn).parameters
        if any(p.kind is p.VAR_KEYWORD for p in params.values()):
            found = frozenset({"dtype", "device"})
        else:
            found = frozenset({"dtype", "device"} & set(params))
    except (TypeError, ValueError):
        found = frozenset({"dtype"})
    with contextlib.suppress(TypeError):
        _KEYWORDS[fn] = found
    return found


def draw_defaults(rec: Any, like: Any) -> dict[str, Any]:
    """What a random draw of floats takes from an example array: what a creation
    routine takes from it (its device), and its dtype only when that is a real float."""
    inject = rec.creation_kwargs
    if inject is not None:
        extra = dict(inject(like))
    else:
        extra = {"dtype": like.dtype} if hasattr(like, "dtype") else {}
    if "dtype" in extra:
        try:
            floating = resolve(rec.name, "get_dtype_name")(like) in REAL_FLOAT_NAMES
        except Exception:  # no dtype name to read: leave the library's default
            floating = False
        if not floating:
            del extra["dtype"]
    return extra


def _float_dtype(name: str, backend: str, kwargs: dict) -> None:
    """Under ``precision(bits)``, float creation routines default to that width."""
    if name in FLOAT_CREATION and kwargs.get("dtype") is None:
        kwargs["dtype"] = resolve(backend, "to_backend_dtype")(f"float{current_precision()}")


# marks keys of calls with ``like=``: (_LIKE, name, backend). Other keys start with a
# name (a str) or a per-call dispatcher (a function); a tracing compiler compares
# None, where it cannot compare a bare ``object()``
_LIKE = None


def _with_like(name: str, like: Any, kwargs: dict) -> Callable:
    """``like=`` given: a backend name or an example array decides."""
    try:
        if type(like) is str:
            backend = like
            if backend == reg.VALUES and reg.values_function(name) is None:
                backend = reg.VALUES_HOME  # autoray's module alias: builtins -> numpy
        elif isinstance(like, str):  # a str subclass: the name it spells
            backend = str(like)
        else:
            backend = like_backend(like, name)
            rec = reg.record(backend)
            if rec.resolver is not None:
                kwargs["like"] = like  # a generic backend (lazy) records the example itself
            elif name in CREATION:
                # an example array lends its dtype and device (a Python number lends
                # none: it has no dtype, and its backend no creation_kwargs)
                inject = rec.creation_kwargs
                if inject is not None:
                    extra = inject(like)
                else:
                    extra = {"dtype": like.dtype} if hasattr(like, "dtype") else {}
                for k, v in extra.items():
                    if kwargs.get(k) is None:
                        kwargs[k] = v
            elif name in FLOAT_DRAWS:
                takes = _keywords(resolve(backend, name))
                for k, v in draw_defaults(rec, like).items():
                    if k in takes and kwargs.get(k) is None:
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
    return _like_miss(name, backend)


@outside_traces
def _like_miss(name: str, backend: str) -> Callable:
    """Build and cache the callable of ``do(name, ..., like=backend)``."""
    from dispatch._infer import check_backend_name

    _check_name(name)
    _non_array_parameters(name)  # may load numpy's table: before the generation is read
    gen = reg.generation
    key = (_LIKE, name, backend)
    impl = resolve(check_backend_name(backend, name), name)
    # the arrays of the sequence arguments (``stack``'s list) are converted as well
    deep = name in SEQUENCE_ARGS
    if name in CONVERSIONS:
        fn = impl  # the input is the conversion's own to read: copy= keeps numpy's meaning
    elif reg.converts_constants(backend):
        fn = _converting_any(impl, backend, deep, name)
    elif reg.priority(backend) >= 0 and any(_non_array_parameters(name)):
        # numpy arrays given as axes or shapes become Python values (numpy's own
        # backend, of the lowest priority, takes them as they are)
        fn = _converting_any(impl, backend, deep, name, convert=False)
    else:
        fn = impl
    reg.store(_CALLS, key, fn, gen)
    return fn


def _mixed_with_like(err: Exception, name: str, like: Any, values: tuple) -> None:
    """A call with ``like=`` failed: if it mixed libraries, say that (failure path only).

    ``like=`` chooses the backend but converts only numpy constants; an array of
    another library is as much an error as it is without ``like=``.
    """
    try:
        backend = like_backend(like)
        if reg.priority(backend) < 0:
            return  # numpy named: other libraries' arrays reach it through __array__
        others = [
            b
            for b in dict.fromkeys(map(backend_of_type, deep_types(values)))
            if b is not None and b != backend and reg.priority(b) >= 0
        ]
    except Exception:
        return
    if others:
        raise MixedBackendError(
            f"do({name!r}, like={short(like)}): arrays of {others[0]!r} were passed to a "
            f"call on {backend!r}; like= converts numpy constants only, convert the others "
            f"first, e.g. dispatch.convert(x, {backend!r})"
        ) from err


def _refuse_foreign(name: str, types: Any) -> None:
    """No argument decides and one is an object no library owns: refuse (miss path).

    Running the default backend (numpy) on it would treat it as an opaque object
    (``do("sum", obj)`` returned ``obj``).
    """
    for t in types:
        if foreign(t):
            raise UnknownBackendError(
                f"do({name!r}): no backend owns an argument of type "
                f"{t.__module__}.{t.__qualname__}; it is not an array of a known library "
                "(no dtype and shape, no __array_function__), so numpy is not run on it. "
                "Pass like='numpy' (or another backend) to choose one, or register the "
                "type with dispatch.register_backend(type, name)"
            )


def _answered(adapter: Callable, name: str, args: tuple) -> Any:
    """``adapter(*args)``, where its kernel raised (outside that ``except``, so that an
    error of the adapter's is not shown as raised while handling the kernel's)."""
    try:
        return adapter(*args)
    except Exception as err:
        _annotate(err, name, args, {}, None)
        raise


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
            backend = decide(deep_types((*args, *kwargs.values()))) or default_backend()
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
