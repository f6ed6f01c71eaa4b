"""Registry and cache consistency checks shared by the reliability suites."""

from __future__ import annotations

import inspect
from typing import Any

import dispatch
from dispatch import _registry as reg
from dispatch._do import _first_parameter
from dispatch._infer import _find, decide, decide_owner
from dispatch._resolve import _resolve
from dispatch.spec import _kernel_for


def registry_state() -> dict[str, Any]:
    """Everything a bad input must leave as it was."""
    with reg.lock:
        return {
            "overrides": dict(reg.OVERRIDES),
            "composed": dict(reg.COMPOSED),
            "user_types": dict(reg.USER_TYPES),
            "user_backends": {k: dict(v) for k, v in reg.USER_BACKENDS.items()},
            "generation": reg.generation,
            "default": dispatch.get_backend(),
            "precision": dispatch.get_precision(),
        }


def cache_keys() -> set[tuple]:
    with reg.lock:
        keys = {("R", *k) for k in reg.RESOLVED}
        keys |= {("C", k) for k in reg.CALLS}
        keys |= {("C1", n, t) for n, d in reg.CALLS1.items() for t in d}
        keys |= {("C2", n, t, u) for n, d in reg.CALLS2.items() for t, e in d.items() for u in e}
    return keys


def cached(key: tuple) -> Any:
    kind, *rest = key
    if kind == "R":
        return reg.RESOLVED[rest[0], rest[1]]
    if kind == "C":
        return reg.CALLS[rest[0]]
    if kind == "C1":
        return reg.CALLS1[rest[0]][rest[1]]
    return reg.CALLS2[rest[0]][rest[1]][rest[2]]


def key_name(key: tuple) -> Any:
    """The ``do`` name a cache key is for (None for per-element keys)."""
    kind, *rest = key
    if kind == "R":
        return rest[1]
    if kind in ("C1", "C2"):
        return rest[0]
    k = rest[0]
    if k and not isinstance(k[0], str) and callable(k[0]):  # (by_elements, types...)
        return _closure_name(k[0])
    if k and not isinstance(k[0], str) and len(k) == 3:  # (_LIKE, name, backend)
        return k[1]
    return k[0]


def _closure_name(fn: Any) -> Any:
    try:
        return inspect.getclosurevars(fn).nonlocals.get("name")
    except (TypeError, ValueError):
        return None


def _unwrap(fn: Any) -> Any:
    while hasattr(fn, "__wrapped__") and getattr(fn, "__qualname__", "").split(".")[-1] in (
        "first",
        "positions",
        "converting",
        "keys",
        "params",
        "by_position",
    ):
        fn = fn.__wrapped__
    return fn


def same_impl(a: Any, b: Any) -> bool:
    """Two resolutions give the same implementation.

    Some are rebuilt on each resolution (keyword-renaming wrappers, a generic
    backend's recorders): the same code closing over the same values.
    """
    if a is b:
        return True
    wa, wb = getattr(a, "__wrapped__", None), getattr(b, "__wrapped__", None)
    if wa is not None and wb is not None and same_impl(wa, wb):
        return True
    code = getattr(a, "__code__", None)
    if code is None or code is not getattr(b, "__code__", None):
        return False
    ca = [c.cell_contents for c in a.__closure__ or ()]
    cb = [c.cell_contents for c in b.__closure__ or ()]
    return len(ca) == len(cb) and all(_same_value(x, y) for x, y in zip(ca, cb, strict=True))


def _same_value(x: Any, y: Any) -> bool:
    if x is y:
        return True
    if isinstance(x, (str, int, float, tuple, frozenset)) and type(x) is type(y):
        return bool(x == y)
    return callable(x) and same_impl(x, y)


def is_dispatcher(fn: Any) -> bool:
    """A per-call dispatcher (sequence elements, default backend), not a resolution."""
    kind = getattr(fn, "__qualname__", "").split(".")[-1]
    return kind in ("by_elements", "by_nested", "on_default")


def check_entry(key: tuple) -> None:
    """The cached callable under ``key`` equals what a fresh resolution gives."""
    fn = cached(key)
    kind, *rest = key
    if kind == "R":
        backend, name = rest
        assert same_impl(fn, _resolve(backend, name)), key
        return
    if is_dispatcher(_unwrap(fn)):
        return
    if kind == "C1":
        name, types = rest[0], (rest[1],)
    elif kind == "C2":
        name, types = rest[0], (rest[1], rest[2])
    else:
        k = rest[0]
        # a name is a str, possibly lazy mode's callable one (dispatch.lazy's _Op): the
        # name test comes before the callable one
        if not isinstance(k[0], str) and callable(k[0]):  # a sequence dispatcher's key
            name = _closure_name(k[0])
            types = tuple(k[1]) if isinstance(k[1], frozenset) else k[1:]
        elif not isinstance(k[0], str):  # like=
            name, types = k[1], ()
            assert same_impl(_unwrap(fn), _resolve(k[2], name)), key
            return
        else:
            # a call with keywords is keyed by each keyword's name and value type: its
            # entry must take keywords, never convert constants by position
            name, types = k[0], tuple(t for t in k[1:] if not isinstance(t, str))
            if len(types) < len(k) - 1:
                kind_ = getattr(fn, "__qualname__", "").split(".")[-1]
                assert kind_ not in ("first", "positions"), (
                    f"{key}: a call with keywords is cached with a positional converter"
                )
    # the engine's rule: the arrays decide, else the one library owning the other
    # arguments (``zeros(torch.Size([2]))`` is a torch call)
    backend = decide(types) or decide_owner(types)
    assert backend is not None, key
    impl = _resolve(backend, name)
    # a positional call of an adapter's exact kernel types caches that kernel
    positional = kind in ("C1", "C2") or len(types) == len(rest[0]) - 1
    assert same_impl(_unwrap(fn), impl) or (positional and fn is _kernel_for(impl, types)), key


def check_caches(names: set[Any] | None = None) -> int:
    """Check every cache entry (of ``names``, when given); return how many.

    Without ``names``, the type -> backend cache is checked too.
    """
    keys = [k for k in cache_keys() if names is None or key_name(k) in names]
    for k in keys:
        check_entry(k)
    if names is None:
        with reg.lock:
            types = dict(reg.TYPE_BACKEND)
        for cls, backend in types.items():
            assert backend == _find(cls), (cls, backend, _find(cls))
        keys += list(types)
    return len(keys)


def check_call(name: str, args: tuple, kwargs: dict) -> Any:
    """Call ``do(name, *args, **kwargs)`` on the cache as it is, the way the user did,
    and check that the cached entry it hits behaves as a fresh resolution called the
    same way (same result, or the same error type).

    A cache entry is right only if its calling convention is too: an entry built for
    positional arguments (which converts constants by position) must not serve a call
    that passes the same types by keyword. Checking the implementation alone (as
    :func:`check_entry` does) cannot see that, so this calls it. Returns the result.
    """
    from dispatch import do

    try:
        warm = do(name, *args, **kwargs)
    except Exception as err:  # the fresh resolution must fail the same way
        warm, warm_err = None, err
    else:
        warm_err = None
    values = (*args, *kwargs.values())
    # the elements of sequence arguments take part, as the engine's rule says
    types = [type(e) for a in values for e in (a if isinstance(a, (list, tuple)) else (a,))]
    backend = decide(types)
    fresh_err = None
    try:
        if backend is None:
            fresh = None
        else:
            impl = _resolve(backend, name)
            first = _first_parameter(name)
            if not args and first in kwargs:  # numpy's first parameter goes by position
                kwargs = dict(kwargs)
                args = (kwargs.pop(first),)
            fresh = impl(
                *[_fresh(a, backend) for a in args],
                **{k: _fresh(v, backend) for k, v in kwargs.items()},
            )
    except Exception as err:
        fresh, fresh_err = None, err
    if backend is None:
        return warm
    assert (warm_err is None) == (fresh_err is None), (
        f"do({name!r}) with {[t.__name__ for t in types]}, keywords {sorted(kwargs)}: the "
        f"cached entry {'raised ' + repr(warm_err) if warm_err else 'returned'}, a fresh "
        f"resolution {'raised ' + repr(fresh_err) if fresh_err else 'returned'}"
    )
    if warm_err is not None:
        assert type(warm_err) is type(fresh_err), (warm_err, fresh_err)
        raise warm_err
    _assert_same(warm, fresh, name)
    return warm


def _fresh(a: Any, backend: str) -> Any:
    """A numpy constant converted as the multi-argument rule converts it."""
    import numpy as np

    from dispatch import do

    if isinstance(a, (list, tuple)):  # sequence arguments: their elements are converted
        return type(a)(_fresh(v, backend) for v in a)
    if isinstance(a, np.ndarray) and reg.converts_constants(backend):
        return do("asarray", a, like=backend)
    return a


def _assert_same(a: Any, b: Any, name: str) -> None:
    import numpy as np

    from dispatch import do, is_array

    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)), (name, a, b)
        assert len(a) == len(b), (name, a, b)
        for x, y in zip(a, b, strict=True):
            _assert_same(x, y, name)
        return
    if is_array(a):
        assert type(a) is type(b), (name, type(a), type(b))
        x, y = np.asarray(do("to_numpy", a)), np.asarray(do("to_numpy", b))
        assert x.dtype == y.dtype, (name, x.dtype, y.dtype)
        if x.dtype.kind in "fc" and x.size:
            # a GPU adds in parallel (atomics), in an order that changes from call to
            # call: the same sums may differ in their last bits
            eps = np.finfo(x.dtype).eps
            scale = float(np.nanmax(np.abs(y))) if np.isfinite(y).any() else 0.0
            np.testing.assert_allclose(x, y, rtol=8 * eps, atol=8 * eps * scale,
                                       err_msg=f"cached entry of {name!r}")
        else:
            np.testing.assert_array_equal(x, y, err_msg=f"cached entry of {name!r}")
